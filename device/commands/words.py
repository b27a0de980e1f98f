"""``duetbox words check FILE``: check a word pack (exit 0 clean, 1 problems, 2 unreadable or bad usage).

``duetbox words add FILE [--data-dir D]``: check it, then copy it into the data directory's packs folder, where
the set-up's pack list finds it (device/packs.py); ``duetbox words import FOLDER [--data-dir D]`` does the same
for every ``*.txt`` in a folder (a USB stick). Exit 0 when copied, 1 when refused (one line each), 2 bad usage.
"""

from __future__ import annotations

import sys

from engine.words import WordPackError, check_pack_text, parse_pack, read_pack_text

USAGE = "usage: duetbox words check FILE | add FILE [--data-dir D] | import FOLDER [--data-dir D]"


def main(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"]) or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(USAGE)
        print("Checks a word pack: one word a line, '# comments', a '# language: fr|en|ro|de|it' header.")
        print("Exit 0 when clean, 1 with one line per problem, 2 when the file cannot be read.")
        print("add / import: check, then copy into the data directory's packs folder (the set-up lists it).")
        return 0
    if argv[:1] in (["add"], ["import"]):
        return _add(argv)
    if len(argv) != 2 or argv[0] != "check":
        print(USAGE, file=sys.stderr)
        return 2
    path = argv[1]
    try:
        text = read_pack_text(path)
    except WordPackError as exc:
        print(f"duetbox words: {exc}", file=sys.stderr)
        return 2
    problems = check_pack_text(text)
    if problems:
        for problem in problems:
            print(f"{path}: {problem}")
        return 1
    pack = parse_pack(text, path)
    print(f"{path}: {len(pack.words)} words, ok")
    return 0


def _add(argv: list[str]) -> int:
    from device.packs import add_pack, import_folders
    from device.storage import data_dir

    args = list(argv[1:])
    directory: str | None = None
    if "--data-dir" in args:
        at = args.index("--data-dir")
        if at + 1 >= len(args):
            print(USAGE, file=sys.stderr)
            return 2
        directory = args[at + 1]
        del args[at:at + 2]
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    target = data_dir(directory)
    if argv[0] == "add":
        try:
            pack = add_pack(target, args[0])
        except WordPackError as exc:
            print(f"duetbox words: {exc}", file=sys.stderr)
            return 1
        print(f"{pack.name}: {pack.words} words ({pack.language}) copied to {pack.path}")
        return 0
    from pathlib import Path

    folder = Path(args[0])
    if not folder.is_dir():
        print(f"duetbox words: {folder}: not a folder", file=sys.stderr)
        return 2
    imported, refused = import_folders(target, [folder])
    for pack in imported:
        print(f"{pack.name}: {pack.words} words ({pack.language}) copied to {pack.path}")
    for line in refused:
        print(f"duetbox words: {line}", file=sys.stderr)
    return 1 if refused or not imported else 0
