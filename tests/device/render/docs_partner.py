"""The docs scripts headed ``#? solo`` run in the render tests with a partner present on every machine: the tiny
French space of tests/partner/tiny_space.py, exported where ``DUETBOX_DATA_DIR`` then points (device.docs)."""

from __future__ import annotations

import sys
from pathlib import Path

from device import docs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "partner"))

from tiny_space import export_tiny  # noqa: E402


def solo_partner(head: list[str], tmp_path: Path) -> str | None:
    """A directory holding a built (tiny) French partner for a solo script, else None."""
    if docs.solo_language(head) is None:
        return None
    directory = tmp_path / "partner-home"
    export_tiny(directory)
    return str(directory)
