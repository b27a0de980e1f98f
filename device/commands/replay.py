"""`duetbox replay FILE|-`: replay a game record and print its final state as one JSON object.

Exit 0 when every action applied, 3 when one was refused (the state before it and the error are printed),
2 when the file is unreadable or not a valid record (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys

from common.userfiles import RECORD_LIMIT, UnreadableFile, read_json
from engine.errors import BadRecord
from engine.record import replay, summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="duetbox replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a duetbox-record/1 JSON file, or - for standard input")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    try:
        record = read_json(args.file, RECORD_LIMIT, stdin_ok=True)
    except UnreadableFile as exc:
        print(f"duetbox replay: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay(record)
    except BadRecord as exc:
        print(f"duetbox replay: {args.file} is not a valid record: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary(result)))
    return 0 if result.ok else 3
