"""``duetbox bench [--json] [--quick]``: measure speed and frugality on this machine (see device/bench.py).

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
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    from device.bench import measure, table

    result = measure(args.quick)
    print(json.dumps(result) if args.json else table(result))
    return 0
