"""``duetbox bench [--json] [--quick] [--profile pi4|zero2w]``: measure speed and frugality on this machine
(see bench/box.py), or with ``--profile`` the Pi's buses and SD card simulated (bench/pi.py).

Exit 0 when the figures were printed (a missed target is reported, not an error), 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        print(f"duetbox bench: {message}", file=sys.stderr)
        raise SystemExit(2)


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """While the bench measures, whatever anything prints on stdout (a library's banner, a C library writing to
    file descriptor 1) goes to stderr, so that ``--json`` prints the JSON object alone."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _measure(args: argparse.Namespace) -> tuple[dict[str, Any], Callable[[Any], str]]:
    """The figures of the bench asked for, and how to print them as a table. RuntimeError: it could not run."""
    if args.remote:
        from bench.remote import measure_remote, remote_table

        return measure_remote(args.quick), remote_table
    if args.profile is not None:
        from bench.pi import measure_profile, profile_table

        return measure_profile(args.profile, args.quick), profile_table
    from bench.box import measure, table

    return measure(args.quick), table


def main(argv: list[str]) -> int:
    parser = _Parser(prog="duetbox bench", description="measure speed and frugality on this machine")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table "
                        "(nothing else on stdout: banners and logs go to stderr)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and a 2 s idle window")
    parser.add_argument("--profile", choices=("pi4", "zero2w"),
                        help="simulate a board's I2C bus and SD card (timed fakes) and report its targets")
    parser.add_argument("--remote", action="store_true",
                        help="a move on one box shown on another over a local Mosquitto (bench/remote.py)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        with _stdout_to_stderr() if args.json else contextlib.nullcontext():
            figures, table = _measure(args)
    except RuntimeError as exc:
        print(f"duetbox bench{' --remote' if args.remote else ''}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures) if args.json else table(figures))
    return 0
