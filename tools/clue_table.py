"""The clue-centred table (issue 28): for common clue nouns, the pack words each one evokes, with a strength.

    python tools/clue_table.py build --lang fr        partner/data/cluetable/fr-written.txt -> fr.tsv
    python tools/clue_table.py coverage --lang fr [--sides 1000] [--data-dir D]

The card table (partner/data/assoc) lists what a *card* evokes; a giver needs what a *clue word* evokes.
`partner/data/cluetable/<lang>-written.txt` is written by hand, one clue a line (``clue: card5 card4 ...``, the
strength 1..5 appended to each pack word); `build` checks it and writes `<lang>.tsv` (clue<TAB>pack word<TAB>
strength), which `partner.assoc.AssocTable.bundled` merges into the card table (read card → clue). Checked: the
clue is one lowercase word the box may say (partner.clean.allowed) or at least a word; each pack word is in the
language's pack (others are dropped: people think of them, the board never shows them); a pair of one word
family (the engine's checker: *chien* / *chiot* is fine, *chien* / *chiens* is not) is dropped. Lines starting
with `#` are comments. The drafted table of before (the inverted card table plus vector neighbours) is gone:
its card-table pairs are in the card table already, and its vector pairs were what the box sees in its vectors.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.clues import check_clue  # noqa: E402
from engine.keycard import random_key  # noqa: E402
from engine.words import draw_words, load_pack  # noqa: E402
from partner import clean  # noqa: E402
from partner.assoc import AssocTable  # noqa: E402
from partner.text import normalize  # noqa: E402

OUT = REPO / "partner" / "data" / "cluetable"


def read_written(lang: str) -> list[tuple[str, str, int]]:
    """The written lines as (clue, word, strength); a malformed line is an error with its number."""
    path = OUT / f"{lang}-written.txt"
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        clue, sep, rest = line.partition(":")
        if not sep:
            raise SystemExit(f"{path}:{number}: expected 'clue: word5 word4 ...'")
        for item in rest.split():
            word, strength = item[:-1], item[-1:]
            if not strength.isdigit() or not 1 <= int(strength) <= 5 or not word:
                raise SystemExit(f"{path}:{number}: {item!r} is not a word with a strength 1..5")
            out.append((normalize(clue.strip()), normalize(word), int(strength)))
    return out


def build(lang: str) -> Path:
    pack = {normalize(w) for w in load_pack(lang).words}
    pairs: dict[tuple[str, str], int] = {}
    dropped = {"not a pack word": 0, "clue of several words": 0, "one word family": 0}
    for clue, word, s in read_written(lang):
        if word not in pack:
            dropped["not a pack word"] += 1
            continue
        if not clue.isalpha() and not clue.replace("'", "").isalpha():
            dropped["clue of several words"] += 1
            continue
        if clue == word or check_clue(clue, [word], language=lang):
            dropped["one word family"] += 1
            continue
        pairs[(clue, word)] = max(pairs.get((clue, word), 0), s)
    clues = sorted({c for c, _ in pairs})
    unsayable = [c for c in clues if not clean.allowed(c, lang)]
    lines = [f"{c}\t{w}\t{s}" for (c, w), s in sorted(pairs.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1]))]
    header = [
        f"# duetbox clue-centred table ({lang}): clue<TAB>pack_word<TAB>strength (1..5), one line per pair.",
        f"# Built by tools/clue_table.py from {lang}-written.txt (written by hand for issue 28, word by word; no",
        "# list, thesaurus or association norm copied). Licence: MIT, as the project.",
        f"# {len(clues)} clues, {len(pairs)} pairs; {len(unsayable)} clues the box may not say (read only).",
    ]
    path = OUT / f"{lang}.tsv"
    path.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"{path}: {len(clues)} clues, {len(pairs)} pairs ({sum(1 for s in pairs.values() if s >= 4)} of 4-5); "
          f"dropped {dropped}; not sayable (read only): {' '.join(unsayable[:40])}")
    return path


def coverage(lang: str, sides: int, table: AssocTable, min_strength: int, seed: int = 1) -> tuple[float, float]:
    """Mean agents of a side that some clue covers with 2+ of them (strength ≥ min_strength to each, no link to a
    bad card of that side, a clue the box may say and not on the board), and the share of sides with none."""
    pack = load_pack(lang)
    rng = random.Random(seed)
    by_clue: dict[str, dict[str, int]] = {}
    for card, assocs in table.forward.items():
        for clue, s in assocs.items():
            by_clue.setdefault(clue, {})[card] = s
    by_clue = {c: links for c, links in by_clue.items() if clean.allowed(c, lang)}
    total = 0
    empty = 0
    for _ in range(sides):
        words = [normalize(w) for w in draw_words(pack, rng, 25)]
        side = random_key(rng).side("A")
        agents = {w for w, c in zip(words, side, strict=True) if c == "G"}
        bad = {w for w, c in zip(words, side, strict=True) if c != "G"}
        covered: set[str] = set()
        for clue, links in by_clue.items():
            good = [w for w in agents if links.get(w, 0) >= min_strength]
            if len(good) >= 2 and clue not in words and not any(links.get(w, 0) for w in bad):
                covered.update(good)
        total += len(covered)
        empty += not covered
    return total / sides, empty / sides


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="clue_table")
    p.add_argument("cmd", choices=("build", "coverage"))
    p.add_argument("--lang", default="fr")
    p.add_argument("--sides", type=int, default=1000)
    args = p.parse_args(argv)
    if args.cmd == "build":
        build(args.lang)
        return 0
    before = AssocTable.bundled(args.lang, clue_table=False)
    after = AssocTable.bundled(args.lang)
    assert before is not None and after is not None
    for s in (4, 3):
        b = coverage(args.lang, args.sides, before, s)
        a = coverage(args.lang, args.sides, after, s)
        print(f"{args.lang} strength >= {s}: card table {b[0]:.2f} agents ({100 * b[1]:.0f} % of sides none); "
              f"with the clue table {a[0]:.2f} agents ({100 * a[1]:.0f} % none)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
