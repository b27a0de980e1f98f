"""Fit the person model (partner/person.py) on the blind readings of partner/data/calibration (issue 28).

    python tools/person_calibration.py readers --lang fr             the readers' hit rate per cell
    python tools/person_calibration.py fit --lang fr --data-dir D    the model's rates per cell on a small grid

A cell is (the meant target is linked to the clue by a person-written table or not, the clue's number, the
target's position among the meant cards). The readers' answers name as many cards as the number; the model reads
the same clues the same way (its first `number` cards, no feedback). On the calibration sheets the person-written
table is the box's (the readers' "linked" cells are defined by it); in `--reader person` the model reads through
the second set instead, with the same parameters (docs/partner.md, "The person model").
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from partner.assoc import AssocTable  # noqa: E402
from partner.paths import SPACES, space_path  # noqa: E402
from partner.person import PersonModel, PersonParams  # noqa: E402
from partner.space import VectorSpace  # noqa: E402

DIR = REPO / "partner" / "data" / "calibration"


def _clues(lang: str) -> list[dict[str, object]]:
    return json.loads((DIR / f"{lang}-clues.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _answers(lang: str) -> list[dict[int, list[str]]]:
    out = []
    for path in sorted(DIR.glob(f"{lang}-answers*.txt")):
        one: dict[int, list[str]] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if parts and parts[0].isdigit():
                one[int(parts[0])] = parts[1:]
        out.append(one)
    return out


def cells(lang: str, picks: list[dict[int, list[str]]], table: AssocTable) -> dict[tuple[bool, int, int], list[int]]:
    """(linked, number, position) → [hits, targets] over every reader."""
    out: dict[tuple[bool, int, int], list[int]] = {}
    for i, c in enumerate(_clues(lang)):
        targets = list(c["targets"])  # type: ignore[call-overload]
        for one in picks:
            if i not in one:
                continue
            chosen = set(one[i])
            for pos, t in enumerate(targets):
                key = (table.strength(str(c["clue"]), t) > 0, int(c["number"]), pos)  # type: ignore[call-overload]
                cell = out.setdefault(key, [0, 0])
                cell[0] += t in chosen
                cell[1] += 1
    return out


def _print(title: str, table: dict[tuple[bool, int, int], list[int]]) -> None:
    print(title)
    for key in sorted(table):
        hits, n = table[key]
        print(f"  linked={key[0]!s:<5} n={key[1]} pos={key[2]}: {hits}/{n} = {100 * hits / max(n, 1):.0f} %")


def model_picks(lang: str, space: VectorSpace, table: AssocTable, params: PersonParams, reps: int = 3
                ) -> list[dict[int, list[str]]]:
    out = []
    for rep in range(reps):
        person = PersonModel(lang, space, table, params, seed=rep)
        one: dict[int, list[str]] = {}
        for i, c in enumerate(_clues(lang)):
            words = list(c["words"])  # type: ignore[call-overload]
            person.new_game()
            person._prepare(words)  # the scores only (no clue legality: the model only reads here)
            score = person.closeness(str(c["clue"]))
            order = np.argsort(-score)[: int(c["number"])]  # type: ignore[call-overload]
            one[i] = [words[j] for j in order]
        out.append(one)
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="person_calibration")
    p.add_argument("cmd", choices=("readers", "fit"))
    p.add_argument("--lang", default="fr")
    p.add_argument("--data-dir")
    args = p.parse_args(argv)
    table = AssocTable.bundled(args.lang)
    assert table is not None
    readers = cells(args.lang, _answers(args.lang), table)
    _print(f"readers ({args.lang})", readers)
    if args.cmd == "readers":
        return 0
    space = VectorSpace.load(space_path(args.lang, SPACES[args.lang][0], args.data_dir))
    grid = itertools.product((0.5, 1.0, 1.5), (0.4, 0.8), (0.6, 0.9), (0.8, 1.2))
    results = []
    for noise, sigma, p_known, w_link in grid:
        params = dataclasses.replace(PersonParams(), space_noise=noise, sigma=sigma, p_known=p_known, w_link=w_link)
        model = cells(args.lang, model_picks(args.lang, space, table, params), table)
        err = 0.0
        for key, (hits, n) in readers.items():
            mh, mn = model.get(key, [0, 1])
            err += n * (hits / n - mh / max(mn, 1)) ** 2
        results.append((err, params))
        print(f"noise {noise} sigma {sigma} p_known {p_known} w_link {w_link}: weighted squared error {err:.2f}",
              flush=True)
    best = min(results, key=lambda r: r[0])
    print("best:", best[1])
    _print("model (best)", cells(args.lang, model_picks(args.lang, space, table, best[1]), table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
