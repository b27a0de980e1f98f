"""Check a human association table (partner/data/assoc/<lang>.tsv) against its word pack.

    python tools/check_assoc.py partner/data/assoc/fr.tsv [--pack engine/data/words/fr.txt ...] [--allow-extra]

The table format: `#` comment lines first, then `pack_word<TAB>associate<TAB>strength` lines, strength 1..5.
Checks: three fields per line, strength an integer 1..5, lowercase, single-word associates, the pack word in the
pack, no duplicate pair, the associate neither the pack word nor an obvious form of it (plural, feminine, a shared
stem), 20 to 40 associates per pack word, every pack word covered. Prints one line per problem and exits 1 if any.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MIN_ASSOCIATES = 20
MAX_ASSOCIATES = 40
#: An associate is one word: letters only (accents allowed), no space, hyphen or apostrophe.
WORD = re.compile(r"^[^\W\d_]+$")
#: Endings stripped to compare stems (family check): French and English inflection and common derivations.
ENDINGS = (
    "ements", "ement", "ations", "ation", "euses", "euse", "eurs", "eur", "ières", "ière", "iers", "ier",
    "ettes", "ette", "nne", "tte", "lle", "ne", "te", "le", "ing", "ers", "er", "es", "ed", "s", "x", "e",
)
#: Word pairs that share letters but are not one family (checked by hand).
NOT_FAMILY: frozenset[tuple[str, str]] = frozenset()


def pack_words(paths: Iterable[Path]) -> set[str]:
    words: set[str] = set()
    for path in paths:
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                words.add(line.lower())
    return words


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def stem(word: str) -> str:
    folded = _fold(word)
    for ending in ENDINGS:
        if folded.endswith(ending) and len(folded) - len(ending) >= 4:
            return folded[: -len(ending)]
    return folded


def same_family(a: str, b: str) -> bool:
    """True when b looks like a form of a (or a of b): equal after folding accents and stripping endings."""
    if (a, b) in NOT_FAMILY or (b, a) in NOT_FAMILY:
        return False
    fa, fb = _fold(a), _fold(b)
    if fa == fb:
        return True
    for x, y in ((fa, fb), (fb, fa)):
        if y.startswith(x) and len(x) >= 4 and y[len(x):] in ENDINGS:
            return True
    sa, sb = stem(a), stem(b)
    return len(sa) >= 4 and sa == sb


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    associates: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    comments: list[str] = field(default_factory=list)

    @property
    def pairs(self) -> int:
        return sum(len(v) for v in self.associates.values())


def _pair_problems(where: str, word: str, associate: str, pack: set[str], allow_extra: bool, *,
                   duplicate: bool) -> list[str]:
    """What is wrong with one well-formed line's pair (``duplicate``: the pair came earlier)."""
    out: list[str] = []
    if word != word.lower() or associate != associate.lower():
        out.append(f"{where}: not lowercase: {word!r} {associate!r}")
    if word not in pack and not allow_extra:
        out.append(f"{where}: {word!r} is not a pack word")
    if not WORD.match(associate):
        out.append(f"{where}: associate {associate!r} is not a single word")
    if associate == word or same_family(word, associate):
        out.append(f"{where}: associate {associate!r} is the pack word {word!r} or one of its forms")
    if duplicate:
        out.append(f"{where}: duplicate pair {word!r} {associate!r}")
    return out


def check(table: Path, pack: set[str], *, allow_extra: bool = False, require_all: bool = True) -> Report:
    report = Report()
    problem = report.problems.append
    data_started = False
    for number, raw in enumerate(table.read_text(encoding="utf-8").splitlines(), start=1):
        where = f"{table.name}:{number}"
        if raw.startswith("#"):
            if data_started:
                problem(f"{where}: comment line after the data started")
            report.comments.append(raw)
            continue
        data_started = True
        fields = raw.split("\t")
        if len(fields) != 3:
            problem(f"{where}: expected 3 tab-separated fields, got {len(fields)}: {raw!r}")
            continue
        word, associate, strength_text = fields
        if not strength_text.isdigit() or not 1 <= int(strength_text) <= 5:
            problem(f"{where}: strength must be an integer 1..5, got {strength_text!r}")
            continue
        report.problems += _pair_problems(where, word, associate, pack, allow_extra,
                                          duplicate=associate in report.associates[word])
        report.associates[word][associate] = int(strength_text)
    if not report.comments:
        problem(f"{table.name}: no # header lines")
    for word, associates in sorted(report.associates.items()):
        if not MIN_ASSOCIATES <= len(associates) <= MAX_ASSOCIATES:
            want = f"{MIN_ASSOCIATES}..{MAX_ASSOCIATES}"
            problem(f"{table.name}: {word!r} has {len(associates)} associates (want {want})")
    if require_all:
        missing = sorted(pack - set(report.associates))
        if missing:
            shown = ", ".join(missing[:20]) + (" ..." if len(missing) > 20 else "")
            problem(f"{table.name}: {len(missing)} pack words have no associates: {shown}")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a human association table against its word pack.")
    parser.add_argument("table", type=Path, nargs="+", help="partner/data/assoc/<lang>.tsv")
    parser.add_argument("--pack", type=Path, action="append",
                        help="pack file(s); default engine/data/words/<lang>.txt")
    parser.add_argument("--allow-extra", action="store_true", help="accept pack words missing from the pack(s)")
    parser.add_argument("--partial", action="store_true", help="do not require every pack word to be covered")
    args = parser.parse_args(argv)
    failed = False
    for table in args.table:
        if not table.is_file():
            print(f"{table}: no such file", file=sys.stderr)
            return 2
        packs = args.pack or [REPO / "engine" / "data" / "words" / f"{table.stem}.txt"]
        missing_packs = [p for p in packs if not p.is_file()]
        if missing_packs:
            print(f"{missing_packs[0]}: no such pack file", file=sys.stderr)
            return 2
        report = check(table, pack_words(packs), allow_extra=args.allow_extra, require_all=not args.partial)
        for line in report.problems:
            print(line)
        print(f"{table}: {len(report.associates)} pack words, {report.pairs} associations, "
              f"{len(report.problems)} problems")
        failed = failed or bool(report.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
