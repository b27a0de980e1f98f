"""``duetbox words check FILE``, ``words add FILE``, ``words import FOLDER``: check word packs, copy them in.

All three exit alike: 0 when the pack is good (and copied), 1 when it has problems (every one listed, one line
each, on stdout) or when a pack of the same name is already there and is kept, 2 when a file cannot be read or the
usage is wrong (one line on stderr). ``add`` and ``import`` copy a good pack into the data directory's packs folder,
where the set-up's pack list finds it (device/packs.py); a pack of the same name is replaced only after a "y" at
the prompt, or with ``--force`` (without a terminal, only with ``--force``). The lines come from the ``[words]``
catalog section of the language in ``$DUETBOX_LANG`` (English by default), plurals by Babel's rules.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from device.i18n import LANGUAGES, Translator
from engine.words import PackProblem, WordPackError, check_pack_text, parse_pack, read_pack_text

USAGE = ("usage: duetbox words check FILE | add FILE [--force] [--data-dir D] "
         "| import FOLDER [--force] [--data-dir D]")


def _tr() -> Translator:
    language = os.environ.get("DUETBOX_LANG", "en")
    return Translator(language if language in LANGUAGES else "en")


def say(problem: str, tr: Translator) -> str:
    """A pack problem in the catalog's language (the English line when it carries no key)."""
    if isinstance(problem, PackProblem):
        return tr(f"words.{problem.key}", **problem.fields)
    return problem


def main(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"]) or (len(argv) >= 2 and argv[-1] in ("-h", "--help")):
        print(USAGE)
        print("Checks a word pack: one word a line, '# comments', a '# language: fr|en|ro|de|it' header.")
        print("Exit 0 when good, 1 with one line per problem (or a pack of that name kept), 2 when a file cannot")
        print("be read. add / import: check, then copy into the data directory's packs folder (the set-up lists")
        print("it); a pack of the same name is replaced after a 'y' at the prompt, or with --force.")
        return 0
    if argv[:1] in (["add"], ["import"]):
        return _add(argv)
    if len(argv) != 2 or argv[0] != "check":
        print(USAGE, file=sys.stderr)
        return 2
    tr = _tr()
    path = argv[1]
    text = _checked_text(path, tr)
    if isinstance(text, int):
        return text
    pack = parse_pack(text, path)
    print(tr("words.ok", path=path, n=len(pack.words)))
    return 0


def _options(argv: list[str]) -> tuple[list[str], str | None, bool] | None:
    args = list(argv[1:])
    force = "--force" in args
    args = [a for a in args if a != "--force"]
    directory: str | None = None
    if "--data-dir" in args:
        at = args.index("--data-dir")
        if at + 1 >= len(args):
            return None
        directory = args[at + 1]
        del args[at:at + 2]
    if len(args) != 1 or args[0].startswith("--"):
        return None
    return args, directory, force


def _confirm(prompt: str) -> bool:
    """Ask on the terminal; no terminal (a script, a pipe) never confirms."""
    if not sys.stdin.isatty():
        return False
    try:
        answer = input(prompt)
    except EOFError:
        return False
    return answer.strip().casefold()[:1] in ("y", "o", "j", "s", "d")  # yes, oui, ja, sì, da


def _add(argv: list[str]) -> int:
    from device.packs import pack_target
    from device.storage import data_dir

    options = _options(argv)
    if options is None:
        print(USAGE, file=sys.stderr)
        return 2
    args, directory, force = options
    target = data_dir(directory)
    tr = _tr()
    if argv[0] == "add":
        return _add_one(Path(args[0]), target, force, tr, pack_target)
    folder = Path(args[0])
    if not folder.is_dir():
        print(f"duetbox words: {folder}: not a folder", file=sys.stderr)
        return 2
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".txt" and p.is_file())
    except OSError as exc:
        print(f"duetbox words: {folder}: cannot read ({exc.strerror or exc})", file=sys.stderr)
        return 2
    codes = [_add_one(path, target, force, tr, pack_target) for path in files]
    return max(codes, default=1)


def _checked_text(path: str, tr: Translator) -> str | int:
    """The pack's text when it reads and passes the check; else its exit code (2 unreadable, 1 invalid), every
    problem printed, one a line."""
    try:
        text = read_pack_text(path)
    except WordPackError as exc:
        print(f"duetbox words: {exc}", file=sys.stderr)
        return 2
    problems = check_pack_text(text)
    if problems:
        for problem in problems:
            print(f"{path}: {say(problem, tr)}")
        return 1
    return text


def _add_one(source: Path, target: str | Path, force: bool, tr: Translator,
             pack_target: Callable[[str | Path, str], Path]) -> int:
    from device.packs import add_pack

    text = _checked_text(str(source), tr)
    if isinstance(text, int):
        return text
    name = parse_pack(text, source.stem).name
    existing = pack_target(target, name)
    if existing.exists() and not force and not _confirm(tr("words.replace", name=existing.stem)):
        print(tr("words.kept", name=existing.stem))
        return 1
    try:
        pack = add_pack(target, source)
    except WordPackError as exc:
        print(f"duetbox words: {exc}", file=sys.stderr)
        return 2
    print(tr("words.copied", name=pack.name, n=pack.words, language=pack.language, path=pack.path))
    return 0
