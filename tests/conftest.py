"""Every test is hermetic: nothing it runs reads or writes the user's own duetbox directories.

When this file is loaded (before any test module is imported, in the main process and in every xdist worker),
``DUETBOX_DATA_DIR``, ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``, ``XDG_CACHE_HOME`` and ``HOME`` are pointed at one
temporary folder, so the box, the partner and every process a test starts find an empty home there: a Solo
partner built on this machine (``make partner``) or a data directory in use cannot change what a test sees
(``STATE_DIRECTORY`` and ``NOTIFY_SOCKET`` are removed for the same reason).

The real directories (the user's ``DUETBOX_DATA_DIR`` if one was set, ``$XDG_DATA_HOME/duetbox`` or
``~/.local/share/duetbox``, and duetbox's config and cache folders) are guarded: an audit hook fails any open,
listing, ``mkdir``, removal or SQLite connection under them in this process, and ``device.storage.data_dir`` and
``partner.paths.data_dir`` refuse to return them; a session-wide fixture also compares their listing and times
before and after the session (a subprocess started with its own environment). ``tests/test_hermetic.py`` proves
both, and runs a part of the suite against a home holding a built partner and an unfinished game.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from hermetic_home import GUARDED_TEXT, HERMETIC, TESTS_HOME, Hermetic, fingerprint

_BEFORE = fingerprint()


@pytest.fixture(scope="session", autouse=True)
def hermetic() -> Iterator[Hermetic]:
    """The tests' home (session-wide, every test): the environment above, checked again at the end."""
    assert os.environ["DUETBOX_DATA_DIR"] == str(HERMETIC.data)
    yield HERMETIC
    after = fingerprint()
    changed = [root for root in GUARDED_TEXT if after[root] != _BEFORE[root]]
    assert changed == [], f"the tests changed the user's own duetbox directories: {changed}"


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(TESTS_HOME, ignore_errors=True)
