"""Draft the clue-centred table (issue 28): for the most common clean clue nouns, the pack words each one evokes.

    python tools/clue_table.py build --lang fr --data-dir D [--clues 4000]     writes partner/data/cluetable/fr.tsv
    python tools/clue_table.py coverage --lang fr [--sides 2000]               agents coverable by 2+ clues

The card table (partner/data/assoc) lists what a *card* evokes; a giver needs what a *clue word* evokes. The draft
takes the `--clues` most frequent words the box may say (partner.clean.allowed, the export's clue vocabulary by
wordfreq Zipf) and for each one lists:

- every pack word whose card-table entry names it (the inverted card table), with that strength;
- the pack words closest to it in the box's word vectors (at most `TOP` per clue, z ≥ `Z2`), strength 2, or 3 at
  z ≥ `Z3`, when the card table is silent about the pair; never for pack words that share a vector row with
  another pack word (the vectors cannot tell them apart), nor pairs of one word family (the engine's checker).

Pruned: a clue keeps its entries only when it evokes at least two pack words (a clue for one card needs no
table). The strengths of vector entries are capped at 3 so that the box, which believes a link more the
stronger it is, never trusts a drafted pair as much as a written one. The file is machine-drafted and
unreviewed: its header says so.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.clues import check_clue  # noqa: E402
from engine.keycard import random_key  # noqa: E402
from engine.words import draw_words, load_pack  # noqa: E402
from partner import clean  # noqa: E402
from partner.assoc import AssocTable  # noqa: E402
from partner.paths import SPACES, space_path  # noqa: E402
from partner.space import VectorSpace  # noqa: E402
from partner.text import normalize  # noqa: E402

OUT = REPO / "partner" / "data" / "cluetable"
TOP = 8
Z2 = 2.4
Z3 = 3.2


def build(lang: str, data_dir: str | None, count: int) -> Path:
    space = VectorSpace.load(space_path(lang, SPACES[lang][0], data_dir))
    card_table = AssocTable.bundled(lang)
    assert card_table is not None
    pack = [normalize(w) for w in load_pack(lang).words]
    order = np.argsort(-space.clue_zipf)
    clues = [space.clue_words[i] for i in order if clean.allowed(space.clue_words[i], lang)][:count]
    mat, known = space.board_matrix(pack)
    rows = [space.row(w) for w in pack]
    shared = {i for i, r in enumerate(rows) if r is not None and rows.count(r) > 1}
    lines: list[str] = []
    kept = 0
    for clue in clues:
        entries: dict[str, int] = {}
        for card, s in card_table.pointed(clue).items():
            if card in pack:
                entries[card] = s
        z = space.word_z(clue, mat)
        if z is not None:
            z = np.where(known, z, -np.inf)
            for j in np.argsort(-z)[:TOP]:
                card = pack[int(j)]
                if z[j] < Z2 or int(j) in shared or card in entries or card == clue:
                    continue
                if check_clue(clue, [card], language=lang):
                    continue  # one word family (chien / chiens): not a clue for it
                entries[card] = 3 if z[j] >= Z3 else 2
        if len(entries) < 2:
            continue
        kept += 1
        for card, s in sorted(entries.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"{clue}\t{card}\t{s}")
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{lang}.tsv"
    header = [
        f"# duetbox clue-centred table ({lang}): clue<TAB>pack_word<TAB>strength (1..5), one line per pair.",
        f"# Machine-drafted by tools/clue_table.py (issue 28) for the {count} most frequent clue words the box may",
        "# say: the inverted card table (partner/data/assoc, written by the team) and the pack words nearest in the",
        f"# box's vectors ({space.name}, z >= {Z2}: strength 2, >= {Z3}: 3), pruned to clues that evoke 2+ pack",
        "# words. Not reviewed by hand. Licence: MIT, as the project (derived from our own table and the CC0 /",
        "# Apache-2.0 + PDDL vectors named in docs/partner.md).",
        f"# {kept} clues, {len(lines)} pairs.",
    ]
    path.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(f"{path}: {kept} clues, {len(lines)} pairs, {path.stat().st_size // 1024} KB")
    return path


def coverage(lang: str, sides: int, table: AssocTable, min_strength: int, seed: int = 1) -> tuple[float, float]:
    """Mean agents of a side that some clue covers with 2+ of them (strength ≥ min_strength to each, no link to a
    bad card of that side), and the share of sides with no such clue at all."""
    pack = load_pack(lang)
    rng = random.Random(seed)
    by_clue: dict[str, dict[str, int]] = {}
    for card, assocs in table.forward.items():
        for clue, s in assocs.items():
            by_clue.setdefault(clue, {})[card] = s
    total = 0
    empty = 0
    for _ in range(sides):
        words = [normalize(w) for w in draw_words(pack, rng, 25)]
        side = random_key(rng).side("A")
        agents = {w for w, c in zip(words, side, strict=True) if c == "G"}
        bad = {w for w, c in zip(words, side, strict=True) if c != "G"}
        covered: set[str] = set()
        for links in by_clue.values():
            good = [w for w in agents if links.get(w, 0) >= min_strength]
            if len(good) >= 2 and not any(links.get(w, 0) for w in bad):
                covered.update(good)
        total += len(covered)
        empty += not covered
    return total / sides, empty / sides


def clue_table(lang: str) -> AssocTable:
    """The card table and the clue table together (the clue table read card → clue)."""
    table = AssocTable.bundled(lang)
    assert table is not None
    path = OUT / f"{lang}.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            clue, card, s = line.split("\t")
            table.add(card, clue, int(s))
    return table


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="clue_table")
    p.add_argument("cmd", choices=("build", "coverage"))
    p.add_argument("--lang", default="fr")
    p.add_argument("--data-dir")
    p.add_argument("--clues", type=int, default=4000)
    p.add_argument("--sides", type=int, default=1000)
    args = p.parse_args(argv)
    if args.cmd == "build":
        build(args.lang, args.data_dir, args.clues)
        return 0
    before = AssocTable.bundled(args.lang)
    assert before is not None
    after = clue_table(args.lang)
    for s in (4, 3):
        b = coverage(args.lang, args.sides, before, s)
        a = coverage(args.lang, args.sides, after, s)
        print(f"{args.lang} strength >= {s}: card table {b[0]:.2f} agents ({100 * b[1]:.0f} % of sides none); "
              f"with the clue table {a[0]:.2f} agents ({100 * a[1]:.0f} % none)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
