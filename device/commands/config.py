"""`duetbox config check FILE`: validate a hardware configuration file.

Prints one line per problem (unknown key, wrong type, value out of range, a pin used twice, a pin that clashes
with I2C GPIO2/3 or SPI GPIO10/11) and exits 1; a clean file prints nothing and exits 0; bad usage exits 2.
"""

from __future__ import annotations

import argparse
import sys

from hardware.config import check_config_file


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="duetbox config", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    check = sub.add_parser("check", help="validate a configuration file")
    check.add_argument("file", help="a TOML file, e.g. /etc/duetbox/config.toml")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    if args.action != "check":
        print("duetbox config: say what to do: `duetbox config check FILE`", file=sys.stderr)
        return 2
    problems = check_config_file(args.file)
    for problem in problems:
        print(f"{args.file}: {problem}")
    return 1 if problems else 0
