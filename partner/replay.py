"""Replay logged solo games (`duetbox partner play --log`) to measure the box's guesser on clues people gave.

Each person clue of a log is replayed on the table exactly as it stood when the person gave it (board, covered
cards, marks, the earlier clues and their touches); the box, as it is now, then guesses that clue until it stops
or misses. The game then goes on as it was logged, so every clue is read in its real situation. Counted per
clue number: the person's agents the box takes ("meant": green on the person's side; the person never said which
cards they meant, so any of their agents counts) and its wrong touches (bystanders and assassins).

    python -m partner.replay FILE.jsonl ... [--data-dir D] [--box new|noisy]

`--box noisy` replays the guesser of main before issue 28 (the "before" figures of docs/partner.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import duet
from engine.actions import Clue, Guess, Stop
from engine.errors import IllegalAction
from engine.keycard import DuetKey
from engine.seats import Seat
from partner import BOX_GUESSER_NOISY, W_ASSOC_READ, Partner
from partner.play import box_action


@dataclass
class ReplayStats:
    games: int = 0
    clues: int = 0
    by_number: dict[int, list[int]] = field(default_factory=dict)  # number → [clues, agents taken, wrong touches]
    wrong: int = 0
    touches: int = 0
    assassins: int = 0  # wrong touches that were the person's assassins

    def add(self, number: int, agents: int, wrong: int) -> None:
        row = self.by_number.setdefault(number, [0, 0, 0])
        row[0] += 1
        row[1] += agents
        row[2] += wrong
        self.clues += 1
        self.wrong += wrong
        self.touches += agents + wrong

    def agents_per_clue(self, number: int) -> float:
        row = self.by_number.get(number, [0, 0, 0])
        return row[1] / row[0] if row[0] else 0.0

    def wrong_share(self) -> float:
        return self.wrong / self.touches if self.touches else 0.0

    def lines(self) -> list[str]:
        out = [f"games {self.games}, person clues {self.clues}, box touches {self.touches}, "
               f"wrong {self.wrong} ({100 * self.wrong_share():.1f} %), of which assassins {self.assassins}"]
        for n in sorted(self.by_number):
            clues, agents, wrong = self.by_number[n]
            out.append(f"  person {n}-clues: {clues}, agents taken {agents / clues:.2f} a clue, wrong touches {wrong}")
        return out


def read_logs(paths: Iterable[Path]) -> Iterator[dict[str, Any]]:
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def _apply(state: duet.DuetState, action: Clue | Guess | Stop) -> duet.DuetState:
    try:
        return duet.apply(state, action)[0]
    except IllegalAction:
        if isinstance(action, Clue):
            return duet.apply(state, Clue(action.seat, action.word, action.number, override=True))[0]
        raise


def replay_game(record: dict[str, Any], box: Partner, stats: ReplayStats, human: Seat = "A") -> None:
    """Replay one logged game's person clues through `box` (seat B), adding to `stats`."""
    words = tuple(record["words"])
    key = DuetKey(record["key_a"], record["key_b"])
    state = duet.new_game(words, key, duet.DuetRules(tokens=int(record.get("tokens", 9)),
                                                     language=record.get("lang", "fr")))
    box.new_game()
    box.prepare_board(words)
    stats.games += 1
    for clue in record.get("clues", []):
        if state.over or state.phase != "clue":
            break
        seat = clue["seat"]
        state = _apply(state, Clue(seat, clue["word"], int(clue["number"])))
        if seat == human:
            _score_clue(state, box, stats, int(clue["number"]), human)
        for g in clue.get("guesses", []):
            if state.over or state.phase != "guess":
                break
            state = _apply(state, Guess(g["seat"], int(g["card"])))
        if clue.get("stopped") and state.phase == "guess" and state.correct_this_turn:
            state = _apply(state, Stop(state.guesser or "B"))


def _score_clue(state: duet.DuetState, box: Partner, stats: ReplayStats, number: int, human: Seat) -> None:
    """The box guesses the person's clue now (on a copy of the state: the log goes on as it was)."""
    side = state.key.side(human)  # the person's side: what the box's touches are on this clue
    agents = wrong = 0
    trial = state
    for _ in range(10):
        if trial.phase != "guess":
            break
        action = box_action(box, trial, "B")
        if action is None or isinstance(action, Stop):
            break
        assert isinstance(action, Guess)
        if side[action.card] == "G":
            agents += 1
        else:
            wrong += 1
            stats.assassins += side[action.card] == "X"
        trial = duet.apply(trial, action)[0]
    stats.add(number, agents, wrong)


def replay(records: Sequence[dict[str, Any]], box_for: Any) -> dict[str, ReplayStats]:
    """Per language, the replay figures; `box_for(lang)` gives the box of that language (or None to skip)."""
    out: dict[str, ReplayStats] = {}
    for record in records:
        lang = record.get("lang", "fr")
        box = box_for(lang)
        if box is None:
            continue
        replay_game(record, box, out.setdefault(lang, ReplayStats()))
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m partner.replay", description=__doc__.splitlines()[0])
    p.add_argument("logs", nargs="+", type=Path)
    p.add_argument("--data-dir")
    p.add_argument("--box", choices=("new", "noisy"), default="new")
    args = p.parse_args(argv)
    boxes: dict[str, Partner] = {}

    def box_for(lang: str) -> Partner:
        if lang not in boxes:
            box = Partner.load(lang, args.data_dir)
            if args.box == "noisy":  # main before issue 28: cautious guesser, weaker table reading, no hubs
                box.guesser_params = BOX_GUESSER_NOISY[box.difficulty]
                box.w_assoc_read = W_ASSOC_READ
                box.hub = False
            boxes[lang] = box
        return boxes[lang]

    try:
        records = list(read_logs(args.logs))
        result = replay(records, box_for)
    except (OSError, ValueError, KeyError, RuntimeError) as exc:
        print(f"partner.replay: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", file=sys.stderr)
        return 2
    for lang, stats in sorted(result.items()):
        print(lang)
        for line in stats.lines():
            print("  " + line)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
