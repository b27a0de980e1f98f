"""``duetbox pin set [--data-dir D]``: set the admin PIN from a shell (a kiosk install, or a damaged PIN file).

The PIN (4 to 8 digits) is read from standard input, so that it never shows in the process list or the shell
history: ``echo 4711 | sudo -u duetbox duetbox pin set --data-dir /var/lib/duetbox``. It is stored hashed in
``admin.json`` beside the database (device/pin.py); the wrong-PIN wait starts afresh. Exit 0 when set, 2 with
one line on stderr otherwise."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from device.pin import LENGTHS, PinStore
from device.storage import data_dir


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def main(argv: list[str]) -> int:
    parser = _Parser(prog="duetbox pin", description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("set",), help="set: read a new admin PIN from standard input")
    parser.add_argument("--data-dir", help="the box's data directory (default: as `duetbox run`)")
    try:
        args = parser.parse_args(argv)
    except ValueError as exc:
        print(f"duetbox pin: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return 2 if exc.code else 0
    line = sys.stdin.readline(64).strip()
    if not line.isdigit() or len(line) not in LENGTHS:
        print(f"duetbox pin: give {LENGTHS.start} to {LENGTHS.stop - 1} digits on standard input", file=sys.stderr)
        return 2
    directory = data_dir(args.data_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        PinStore(directory).set(line)
    except OSError as exc:
        print(f"duetbox pin: cannot save the PIN in {directory}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"admin PIN set ({len(line)} digits) in {directory}")
    return 0
