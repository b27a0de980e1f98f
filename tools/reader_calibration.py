"""Calibrate the evaluation's stand-in reader against a blind reading of the box's clues (issue 18).

    python tools/reader_calibration.py make --lang en --data-dir D      130 first clues of the box on fresh boards
    python tools/reader_calibration.py sheet --lang en                  the blind sheet: clue, number, the 25 words
    python tools/reader_calibration.py score --lang en                  the blind answers' share of greens
    python tools/reader_calibration.py standin --lang en --data-dir D --noise 1,1.5   the stand-in on the same clues

Files live in partner/data/calibration/: `<lang>-clues.json` (boards, the giver's side, the clue, its targets) and
`<lang>-answers*.txt` (one file per reader, one line per clue: its index, then the words the reader picked, as
many as the number, chosen from the sheet alone, without the key). A stand-in reads each clue the same way:
`number` picks, no feedback between them, stopping when it would stop. Both are scored as the share of picks
green on the giver's side.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.keycard import random_key  # noqa: E402
from engine.words import draw_words, load_pack  # noqa: E402
from partner import Partner  # noqa: E402
from partner.assoc import AssocTable  # noqa: E402
from partner.evaluate import standin  # noqa: E402
from partner.paths import SPACES, space_path  # noqa: E402
from partner.space import VectorSpace  # noqa: E402

DIR = REPO / "partner" / "data" / "calibration"
CLUES = 130


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


def make(lang: str, data_dir: str | None, seed: int) -> None:
    spaces = [VectorSpace.load(space_path(lang, n, data_dir)) for n in SPACES[lang][:2]]
    box = Partner.box(lang, spaces, "normal", AssocTable.bundled(lang))
    pack = load_pack(lang)
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    while len(out) < CLUES:
        words = draw_words(pack, rng, 25)
        side = random_key(rng).side("A")
        box.new_game()
        choice = box.give_clue(words, side, set(), ())
        if choice is None or not choice.word:
            continue
        out.append({"words": list(words), "side": side, "clue": choice.word, "number": choice.number,
                    "targets": [words[i] for i in choice.targets]})
    (DIR / f"{lang}-clues.json").write_text(json.dumps(out, ensure_ascii=False, indent=0), encoding="utf-8")


def _clues(lang: str) -> list[dict[str, object]]:
    return json.loads((DIR / f"{lang}-clues.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def sheet(lang: str) -> None:
    for i, c in enumerate(_clues(lang)):
        print(f"{i}\t{c['clue']} {c['number']}\t{' '.join(sorted(c['words']))}")  # type: ignore[call-overload]


def score(lang: str) -> None:
    clues = _clues(lang)
    for path in sorted(DIR.glob(f"{lang}-answers*.txt")):  # one file per reader
        good = total = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            index, *picked = line.split()
            c = clues[int(index)]
            words, side, number = c["words"], c["side"], c["number"]
            assert isinstance(words, list) and isinstance(side, str) and isinstance(number, int)
            for word in picked[:number]:
                if word not in words:
                    raise SystemExit(f"{path.name}, answer {index}: {word!r} is not on that board")
                total += 1
                good += side[words.index(word)] == "G"
        lo, hi = _wilson(good, total)
        print(f"{path.name}: {good}/{total} = {good / total:.1%} [{lo:.1%}, {hi:.1%}]")


def standins(lang: str, data_dir: str | None, levels: list[float]) -> None:
    clues = _clues(lang)
    name = SPACES[lang][0]
    base = VectorSpace.load(space_path(lang, name, data_dir))
    for level in levels:
        spec = f"{name}~{level:g}"
        # seeded by its spelling, exactly as `duetbox partner eval --reader NAME --noise LEVEL` makes it
        reader = standin(lang, base.perturbed(level, seed=len(spec)) if level else base)
        good = total = 0
        for c in clues:
            words, side, number = c["words"], c["side"], c["number"]
            assert isinstance(words, list) and isinstance(side, str) and isinstance(number, int)
            reader.new_game()
            picked: list[int] = []
            for _ in range(number):
                g = reader.next_guess(words, "N" * len(words), str(c["clue"]), number, set(picked), set(),
                                      (), False, [(i, "G") for i in picked])
                if g is None:
                    break
                picked.append(g.card)
            total += len(picked)
            good += sum(side[i] == "G" for i in picked)
        lo, hi = _wilson(good, total)
        print(f"{spec}: {good}/{total} = {good / total:.1%} [{lo:.1%}, {hi:.1%}]")


def main() -> None:
    ap = argparse.ArgumentParser(description="Calibrate the stand-in reader against a blind reading.")
    ap.add_argument("command", choices=("make", "sheet", "score", "standin"))
    ap.add_argument("--lang", default="en")
    ap.add_argument("--data-dir", default=None, help="where `duetbox partner build` wrote the spaces")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--noise", default="0,0.5,1,1.1,1.2,1.3,1.5,2", help="noise levels, comma-separated")
    args = ap.parse_args()
    if args.lang not in SPACES:
        raise SystemExit(f"unknown language {args.lang!r}")
    if args.command == "make":
        make(args.lang, args.data_dir, args.seed)
    elif args.command == "sheet":
        sheet(args.lang)
    elif args.command == "score":
        score(args.lang)
    else:
        standins(args.lang, args.data_dir, [float(x) for x in args.noise.split(",")])


if __name__ == "__main__":
    main()
