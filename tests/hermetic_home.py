"""The tests' own home and the guard on the user's duetbox directories (loaded by tests/conftest.py, which
says why)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _user_dirs(env: Mapping[str, str]) -> tuple[Path, ...]:
    """The duetbox folders of the user whose environment this is (as device.storage.data_dir finds them)."""
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    dirs = [Path(env.get("XDG_DATA_HOME") or home / ".local" / "share") / "duetbox",
            Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "duetbox",
            Path(env.get("XDG_CACHE_HOME") or home / ".cache") / "duetbox",
            home / ".local" / "share" / "duetbox"]
    for name in ("DUETBOX_DATA_DIR", "STATE_DIRECTORY"):
        if env.get(name):
            dirs.append(Path(env[name].split(":")[0]))
    return tuple(dict.fromkeys(d.absolute() for d in dirs))


#: the real folders, found before anything below changes the environment
GUARDED: tuple[Path, ...] = _user_dirs(os.environ)
GUARDED_TEXT = tuple(str(d) for d in GUARDED)


class TouchedUserData(AssertionError):
    """A test reached the user's own duetbox directory."""


def guarded(path: Any) -> str | None:
    """The guarded folder ``path`` lies in, or None (an fd, a relative path inside the tests' home...)."""
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    elif isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    path = os.path.normpath(path)
    for root in GUARDED_TEXT:
        if path == root or path.startswith(root + os.sep):
            return root
    return None


_EVENTS = {"open": 0, "os.listdir": 0, "os.scandir": 0, "os.mkdir": 0, "os.remove": 0, "os.rmdir": 0,
           "os.rename": 0, "os.chmod": 0, "os.truncate": 0, "shutil.rmtree": 0, "shutil.copyfile": 1,
           "shutil.move": 1, "os.symlink": 1, "os.link": 1, "sqlite3.connect": 0}


_quiet = [False]  # True while the fixture below looks at the guarded folders itself


def _audit(event: str, args: tuple[Any, ...]) -> None:
    index = _EVENTS.get(event)
    if _quiet[0]:
        return
    if index is None or len(args) <= index:
        return
    root = guarded(args[index])
    if root is not None:
        raise TouchedUserData(f"a test reached the user's own duetbox directory {root}: {event} {args[index]!r}")


@dataclass(frozen=True)
class Hermetic:
    home: Path  # the tests' HOME
    data: Path  # DUETBOX_DATA_DIR (empty: no partner, no games)
    guarded: tuple[Path, ...]


def _point_everything_at(home: Path) -> Hermetic:
    data = home / "duetbox-data"
    for sub in ("", ".local/share", ".config", ".cache", "duetbox-data"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    os.environ.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"),
                      XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"),
                      DUETBOX_DATA_DIR=str(data))
    for name in ("STATE_DIRECTORY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        os.environ.pop(name, None)
    return Hermetic(home, data, GUARDED)


TESTS_HOME = Path(tempfile.mkdtemp(prefix="duetbox-tests-home-"))
HERMETIC = _point_everything_at(TESTS_HOME)
sys.addaudithook(_audit)


def _guard_resolvers() -> None:
    """``data_dir()`` of the box and of the partner never hands a test the user's folder."""
    import device.storage
    import partner.paths

    def wrap(real: Any) -> Any:
        def data_dir(*args: Any, **kwargs: Any) -> Path:
            found = real(*args, **kwargs)
            root = guarded(Path(found).absolute())
            if root is not None:
                raise TouchedUserData(f"data_dir() found the user's own duetbox directory {root}")
            return found  # type: ignore[no-any-return]

        data_dir.__wrapped__ = real  # type: ignore[attr-defined]
        return data_dir

    device.storage.data_dir = wrap(device.storage.data_dir)  # type: ignore[assignment]
    partner.paths.data_dir = wrap(partner.paths.data_dir)  # type: ignore[assignment]


_guard_resolvers()


def fingerprint() -> dict[str, Any]:
    """What the guarded folders hold: every entry with its size and modification time (None: no folder)."""
    seen: dict[str, Any] = {}
    _quiet[0] = True
    try:
        for root in GUARDED_TEXT:
            if not os.path.isdir(root):
                seen[root] = None
                continue
            entries = []
            for folder, dirs, files in os.walk(root):
                for name in sorted(dirs + files):
                    try:
                        info = os.lstat(os.path.join(folder, name))
                    except OSError:
                        continue
                    entries.append((os.path.join(folder, name), info.st_size, info.st_mtime_ns))
            seen[root] = sorted(entries)
    finally:
        _quiet[0] = False
    return seen
