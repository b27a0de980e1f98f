"""Box against box through the real Duet engine: wins, assassin losses, tokens, greens, precision, speed."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import duet
from engine.actions import Clue, Guess
from engine.errors import InvalidClue
from engine.keycard import random_key
from engine.seats import SEATS, Seat
from engine.words import WordPack, draw_words
from partner import Partner
from partner.play import box_action


@dataclass
class GameResult:
    won: bool
    reason: str | None
    tokens_used: int
    greens: int
    guesses: int
    good_guesses: int
    clues: list[tuple[str, int, tuple[str, ...], tuple[str, ...]]]  # word, n, meant, touched-green
    sudden_death: bool = False  # the game reached sudden death


@dataclass
class Summary:
    games: int = 0
    wins: int = 0
    assassin: int = 0
    assassin_sd: int = 0
    sudden_death: int = 0
    tokens: list[int] = field(default_factory=list)
    greens: list[int] = field(default_factory=list)
    guesses: int = 0
    good: int = 0
    clue_ms: list[float] = field(default_factory=list)
    board_ms: list[float] = field(default_factory=list)
    samples: list[GameResult] = field(default_factory=list)

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.wins += r.won
        self.assassin += r.reason == "assassin"
        self.assassin_sd += r.reason == "assassin" and r.sudden_death
        self.sudden_death += r.reason in ("sudden_death_miss", "out_of_time")
        self.tokens.append(r.tokens_used)
        self.greens.append(r.greens)
        self.guesses += r.guesses
        self.good += r.good_guesses
        if len(self.samples) < 200:
            self.samples.append(r)

    def lines(self) -> list[str]:
        n = max(self.games, 1)
        p95 = statistics.quantiles(self.clue_ms, n=20)[18] if len(self.clue_ms) >= 20 else max(self.clue_ms or [0])
        return [
            f"games {self.games}",
            f"win rate {100 * self.wins / n:.1f} %",
            f"assassin losses {100 * self.assassin / n:.1f} % ({100 * self.assassin_sd / n:.1f} % in sudden death)",
            f"sudden-death/time losses {100 * self.sudden_death / n:.1f} %",
            f"avg tokens used {statistics.fmean(self.tokens or [0]):.2f}",
            f"greens found {statistics.fmean(self.greens or [0]):.2f} / 15",
            f"guess precision {100 * self.good / max(self.guesses, 1):.1f} %",
            f"clue time mean {statistics.fmean(self.clue_ms or [0]):.1f} ms, p95 {p95:.1f} ms",
            f"new board mean {statistics.fmean(self.board_ms or [0]):.0f} ms, max {max(self.board_ms or [0]):.0f} ms",
        ]


def play_game(
    words: Sequence[str],
    key: duet.DuetKey,
    givers: dict[Seat, Partner],
    guessers: dict[Seat, Partner],
    tokens: int,
    lang: str,
    rng: random.Random,
    summary: Summary | None = None,
) -> GameResult:
    """One game; every clue comes from `givers[seat]`, every guess from `guessers[seat]`."""
    state = duet.new_game(tuple(words), key, duet.DuetRules(tokens=tokens, language=lang))
    for p in {id(p): p for p in (*givers.values(), *guessers.values())}.values():
        p.new_game()
        t0 = time.perf_counter()
        p.prepare_board(words)
        if summary is not None:
            summary.board_ms.append(1000 * (time.perf_counter() - t0))
    first: Seat = rng.choice(SEATS)
    guesses = good = 0
    meant: dict[int, tuple[str, ...]] = {}
    for _ in range(200):
        if state.over:
            break
        if state.phase == "clue":
            able = duet.clue_givers(state)
            seat = first if (not state.clues and first in able) else able[0]
            t0 = time.perf_counter()
            action = box_action(givers[seat], state, seat)
            if summary is not None:
                summary.clue_ms.append(1000 * (time.perf_counter() - t0))
            assert isinstance(action, Clue)
            given = givers[seat]._log[-1][1] if givers[seat]._log else None
            targets = tuple(words[i] for i in getattr(given, "targets", ()))
            meant[len(state.clues)] = targets
            try:
                state, _ = duet.apply(state, action)
            except InvalidClue:
                state, _ = duet.apply(state, Clue(seat, action.word, action.number, override=True))
            continue
        if state.phase == "guess":
            seat = state.guesser
            assert seat is not None
        else:
            seat = duet.sudden_death_guessers(state)[0]
        action = box_action(guessers[seat], state, seat)
        if action is None:  # pragma: no cover - the partner always has a move when it is its turn
            break
        if isinstance(action, Guess):
            giver_side = state.key.side("B" if seat == "A" else "A")
            guesses += 1
            good += giver_side[action.card] == "G"
        state, _ = duet.apply(state, action)
    clues = []
    for i, entry in enumerate(state.clues):
        side = state.key.side(entry.seat)
        hit = tuple(words[c] for c in entry.guesses if side[c] == "G")
        clues.append((entry.word or "-", entry.number, meant.get(i, ()), hit))
    return GameResult(
        state.phase == "won",
        state.reason,
        tokens - state.bank,
        len(state.found),
        guesses,
        good,
        clues,
        state.sudden_death,
    )


def evaluate(
    pack: WordPack,
    givers: dict[Seat, Partner],
    guessers: dict[Seat, Partner],
    games: int,
    tokens: int,
    seed: int,
    lang: str,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    rng = random.Random(seed)
    summary = Summary()
    for g in range(games):
        words = draw_words(pack, rng, 25)
        key = random_key(rng)
        summary.add(play_game(words, key, givers, guessers, tokens, lang, rng, summary))
        if progress:
            progress(g + 1)
    return summary
