"""``duetbox words check FILE``: check a word pack (exit 0 clean, 1 problems, 2 unreadable or bad usage)."""

from __future__ import annotations

import sys

from engine.words import WordPackError, check_pack_text, parse_pack, read_pack_text

USAGE = "usage: duetbox words check FILE"


def main(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"], ["check", "-h"], ["check", "--help"]):
        print(USAGE)
        print("Checks a word pack: one word a line, '# comments', a '# language: fr|en|ro|de|it' header.")
        print("Exit 0 when clean, 1 with one line per problem, 2 when the file cannot be read.")
        return 0
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
