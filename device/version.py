"""The version of the running box, e.g. "0.1.0 (git 1a2b3c4)": shown in the admin screen and by
``duetbox --version``.

The installer writes it to ``<prefix>/VERSION`` (``/opt/duetbox/VERSION``, next to the virtualenv); anywhere
else (a checkout, CI) it is the installed package's version.
"""

from __future__ import annotations

import sys
from pathlib import Path


def version_file() -> Path:
    """``<prefix>/VERSION`` for a virtualenv at ``<prefix>/venv``."""
    return Path(sys.prefix).parent / "VERSION"


def version(path: Path | None = None) -> str:
    try:
        text = (path or version_file()).read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    if text:
        return text.splitlines()[0]
    from importlib import metadata  # here: it is ~1 MB of modules the box's first frame does not need

    try:
        return metadata.version("duetbox")
    except metadata.PackageNotFoundError:
        return "unknown"
