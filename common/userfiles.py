"""Reading files a person hands to the box (records, scripts, configurations, word packs, decks), safely.

Every reader of a user's file goes through here so that bad input always ends in one clear line
(``UnreadableFile``, a ValueError) and never in a traceback, a hang or unbounded memory:

- only regular files are read (a FIFO, ``/dev/zero`` or a directory is refused at once, without blocking:
  the file is opened with ``O_NONBLOCK`` and checked with ``fstat`` before a byte is read);
- at most ``limit`` bytes are read; a larger file is refused with the limit in the message;
- text must be UTF-8; parsed JSON and TOML may nest at most ``MAX_DEPTH`` levels and hold integers of at most
  ``MAX_INT_DIGITS`` digits (the parsers' own recursion and int-conversion limits end in one line too);
- every ``OSError`` (permission, symlink loop, I/O error, name too long) becomes one line.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

#: Size limits, by kind of file (a real one is far smaller: a record ~10 KB, a pack of 1,000 words ~10 KB).
RECORD_LIMIT = 1 << 20  # 1 MiB
SCRIPT_LIMIT = 1 << 20
CONFIG_LIMIT = 256 << 10  # 256 KiB
PACK_LIMIT = 2 << 20  # 2 MiB: a pack of ~200,000 words
DECK_LIMIT = 1 << 20

MAX_DEPTH = 32
MAX_INT_DIGITS = 30


class UnreadableFile(ValueError):
    """A user's file that cannot be used; ``str()`` is one line, ``where: reason``."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}")


def size_text(limit: int) -> str:
    """``limit`` in the unit a person reads: 1 MiB, 256 KiB, 900 bytes."""
    if limit >= 1 << 20 and limit % (1 << 20) == 0:
        return f"{limit >> 20} MiB"
    if limit >= 1 << 10 and limit % (1 << 10) == 0:
        return f"{limit >> 10} KiB"
    return f"{limit} bytes"


def os_reason(exc: OSError) -> str:
    """An OSError as a few words (never a traceback, never a path twice)."""
    if exc.errno == errno.ENOENT:
        return "file not found"
    if exc.errno == errno.EACCES:
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "too many levels of symbolic links"
    if exc.errno == errno.ENAMETOOLONG:
        return "file name too long"
    return exc.strerror or type(exc).__name__


def read_bytes(path: str | os.PathLike[str], limit: int, *, stdin_ok: bool = False) -> bytes:
    """The bytes of a regular file (or standard input for ``-`` when ``stdin_ok``), at most ``limit`` of them.

    Raises UnreadableFile."""
    name = os.fspath(path)
    if stdin_ok and name == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise UnreadableFile("standard input", f"larger than {size_text(limit)}")
        return data
    if "\x00" in name:
        raise UnreadableFile(repr(name), "a file name cannot hold a NUL character")
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UnreadableFile(name, f"cannot read ({os_reason(exc)})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UnreadableFile(name, "cannot read (a directory, not a file)")
        if not stat.S_ISREG(mode):
            raise UnreadableFile(name, "cannot read (not a regular file but a device, pipe or socket)")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise UnreadableFile(name, f"cannot read ({os_reason(exc)})") from None
    finally:
        os.close(fd)
    if got > limit:
        raise UnreadableFile(name, f"larger than {size_text(limit)}, the most this kind of file may hold")
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str], limit: int, *, stdin_ok: bool = False) -> str:
    """The UTF-8 text of a file (see ``read_bytes``); raises UnreadableFile."""
    data = read_bytes(path, limit, stdin_ok=stdin_ok)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        name = "standard input" if stdin_ok and os.fspath(path) == "-" else os.fspath(path)
        raise UnreadableFile(name, f"not UTF-8 text (bad byte at offset {exc.start})") from None


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"a number of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def check_shape(value: Any, name: str, *, max_depth: int = MAX_DEPTH) -> None:
    """Refuse data nested deeper than ``max_depth`` or holding over-long integers (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            if isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**MAX_INT_DIGITS:
                raise UnreadableFile(name, f"holds a number over {MAX_INT_DIGITS} digits")
            continue
        if depth > max_depth:
            raise UnreadableFile(name, f"nested more than {max_depth} levels deep")
        stack.extend((child, depth + 1) for child in children)


def loads_json(text: str, name: str) -> Any:
    """Parse JSON from a user's file; raises UnreadableFile (one line) for anything that is not sound JSON."""
    try:
        value = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise UnreadableFile(name, f"not JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise UnreadableFile(name, f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # parse_int's refusal, a float too long for the parser
        raise UnreadableFile(name, f"not usable JSON ({exc})") from None
    check_shape(value, name)
    return value


def loads_toml(text: str, name: str) -> dict[str, Any]:
    """Parse TOML from a user's file; raises UnreadableFile, or tomllib.TOMLDecodeError for a syntax error (the
    caller words those)."""
    try:
        value = tomllib.loads(text)
    except RecursionError:
        raise UnreadableFile(name, f"nested more than {MAX_DEPTH} levels deep") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as exc:  # Python's 4,300-digit int conversion limit
        raise UnreadableFile(name, f"not usable TOML ({exc})") from None
    check_shape(value, name)
    return value


def read_json(path: str | os.PathLike[str], limit: int, *, stdin_ok: bool = False) -> Any:
    """``loads_json(read_text(path))``; raises UnreadableFile."""
    name = "standard input" if stdin_ok and os.fspath(path) == "-" else os.fspath(path)
    return loads_json(read_text(path, limit, stdin_ok=stdin_ok), name)


def is_regular_file(path: Path) -> bool:
    """True for a regular file (following symlinks); False for anything else, a loop or a missing file."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False
