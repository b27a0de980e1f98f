"""`duetbox pictures check [DIR]`: check a picture deck folder (the bundled deck without DIR).

Prints one line per problem and exits 1, or "N pictures, ok" and exits 0. A missing or unreadable folder, a
licence file that cannot be read (too large, a folder, a device, a symlink loop, a dangling link), or a bad command
line, is one line on stderr and exit 2.
"""

from __future__ import annotations

import sys

from common.userfiles import UnreadableFile
from engine.pictures_deck import check_deck, deck_directory, read_deck

USAGE = ("usage: duetbox pictures check [DIR]\n\n"
         "  check [DIR]  check a picture deck directory (default: the bundled deck)")


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if not argv or argv[0] != "check" or len(argv) > 2:
        print(USAGE, file=sys.stderr)
        return 2
    directory = argv[1] if len(argv) == 2 else None
    where = directory if directory is not None else str(deck_directory())
    try:
        problems = check_deck(directory)
    except OSError as exc:
        print(f"duetbox pictures: cannot read {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnreadableFile as exc:  # its LICENSE or ATTRIBUTION.md: too large, a folder, a device, a loop, gone
        print(f"duetbox pictures: {exc}", file=sys.stderr)
        return 2
    if problems:
        for line in problems:
            print(line)
        print(f"duetbox pictures: {len(problems)} problem(s) in {where}", file=sys.stderr)
        return 1
    print(f"{len(read_deck(directory or deck_directory()))} pictures, ok")
    return 0
