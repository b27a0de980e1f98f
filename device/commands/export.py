"""``duetbox export [--data-dir D] [--game ID|current]``: print a saved game as a ``duetbox-record/1`` record.

Without ``--game`` (or with ``current``) the unfinished game is printed, else the last one played. Exit 0 with
the record on stdout; 2 with one line on stderr when there is no such game or the data cannot be read."""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from common.jsonvalue import Json, JsonObject


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def main(argv: list[str]) -> int:
    parser = _Parser(prog="duetbox export", description="print a saved game as a duetbox record (JSON)")
    parser.add_argument("--data-dir", help="the box's data directory (default: as `duetbox run`)")
    parser.add_argument("--game", default="current",
                        help="current (the game in play, else the last one) or a game's number")
    try:
        args = parser.parse_args(argv)
    except ValueError as exc:
        print(f"duetbox export: {exc}", file=sys.stderr)
        return 2
    from device.storage import Storage, StorageError, data_dir

    directory = data_dir(args.data_dir)
    if not (directory / "duetbox.db").exists():
        print(f"duetbox export: no saved games in {directory}", file=sys.stderr)
        return 2
    try:
        storage = Storage(directory, lock=False)  # a reader beside the running box
    except StorageError as exc:
        print(f"duetbox export: {exc}", file=sys.stderr)
        return 2
    try:
        if args.game == "current":
            row = storage.current_game() or storage.last_game()
        else:
            digits = str(args.game).strip()
            try:
                if not digits.isdigit() or len(digits) > 18:
                    raise ValueError(digits)
                row = storage.game(int(digits))
            except ValueError:
                print(f"duetbox export: --game takes a game number or 'current', not {args.game!r}",
                      file=sys.stderr)
                return 2
        if row is None:
            print(f"duetbox export: no game {args.game} in {directory}", file=sys.stderr)
            return 2
        actions: list[Json] = list(storage.actions(row.id))
        record: JsonObject = dict(row.setup, actions=actions)
    finally:
        storage.close()
    print(json.dumps(record, ensure_ascii=False, indent=1))
    return 0
