"""``duetbox bench [--json] [--quick] [--profile pi4|zero2w]``: measure speed and frugality on this machine
(see bench/box.py), or with ``--profile`` the Pi's buses and SD card simulated (bench/pi.py).

Exit 0 when the figures were printed (a missed target is reported, not an error), 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        print(f"duetbox bench: {message}", file=sys.stderr)
        raise SystemExit(2)


def main(argv: list[str]) -> int:
    parser = _Parser(prog="duetbox bench", description="measure speed and frugality on this machine")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and a 2 s idle window")
    parser.add_argument("--profile", choices=("pi4", "zero2w"),
                        help="simulate a board's I2C bus and SD card (timed fakes) and report its targets")
    parser.add_argument("--remote", action="store_true",
                        help="a move on one box shown on another over a local Mosquitto (bench/remote.py)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.remote:
        from bench.remote import measure_remote, remote_table

        try:
            figures = measure_remote(args.quick)
        except RuntimeError as exc:
            print(f"duetbox bench --remote: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(figures) if args.json else remote_table(figures))
        return 0
    if args.profile is not None:
        from bench.pi import measure_profile, profile_table

        result = measure_profile(args.profile, args.quick)
        print(json.dumps(result) if args.json else profile_table(result))
        return 0
    from bench.box import measure, table

    result = measure(args.quick)
    print(json.dumps(result) if args.json else table(result))
    return 0
