"""The partner through the real Duet engine: wins, assassin losses, tokens, greens, precision, speed.

Setups (docs/partner.md, "Evaluation"):

- ``solo``: the real solo game. The box sits at seat B and plays as `Partner.load` makes it (clean vocabulary,
  association table, noise-aware giver, cautious guesser); a stand-in for a person sits at seat A and gives and
  guesses.
- ``clues``: the box gives every clue (both seats), the stand-in guesses every clue.
- ``cross``: the old box-against-box runs (any giver spaces, any guesser spaces).

The stand-in is the legacy partner (the giver and guesser of partner.giver / partner.guesser with their
original settings) on a reader space with Gaussian noise: it never uses the association table, and the box's
difficulty never changes it.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import duet
from engine.actions import Clue, Guess
from engine.errors import InvalidClue
from engine.keycard import DuetKey, random_key
from engine.seats import SEATS, Seat
from engine.words import WordPack, draw_words
from partner import Partner
from partner import clean as _clean
from partner import giver as _giver
from partner import guesser as _guesser
from partner.legal import engine_checker
from partner.play import box_action
from partner.space import VectorSpace

#: The stand-in's settings, frozen here (the values of partner.giver / partner.guesser when the stand-in was
#: calibrated against a person's blind reading, docs/partner.md), so that tuning the box never moves it.
STANDIN_GIVER = _giver.GiverParams(
    min_z=1.0, margin_n=0.0, margin_a=1.0, max_n=2, hard_max_n=4, big_margin=0.75, w_slack=0.4, w_freq=0.15,
    leftover_bonus=0.25,
)
#: The stand-in's noise that reads the box's clues as a person does (blind readings, tools/reader_calibration.py).
CALIBRATED_NOISE = {"fr": 1.5, "en": 1.1}
STANDIN_GUESSER = _guesser.GuesserParams(
    tau=0.25, memory_weight=0.5, assassin_cost=8.0, bystander_cost=0.15, min_green=0.45, cap=0.97
)


def standin(lang: str, space: VectorSpace) -> Partner:
    """A stand-in for a person: the legacy giver and guesser on `space`, no association table, normal level."""
    p = Partner(
        lang, [space], "normal", checker=engine_checker(lang), giver_params=STANDIN_GIVER,
        guesser_params=STANDIN_GUESSER, assoc=None, clean=False, noise=None, adaptive=True,
    )
    return p


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials (as fractions)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, centre - half), min(1.0, centre + half)


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
    assassin_by: str | None = None  # the seat that touched the assassin
    giver_of: list[str] = field(default_factory=list)  # per clue: the seat that gave it


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
    assassin_play_by: dict[str, int] = field(default_factory=dict)  # assassin losses during play, per seat
    box_seats: tuple[str, ...] = ()  # seats whose clues are the box's (for the vocabulary check)
    box_clues: int = 0
    bad_clues: list[str] = field(default_factory=list)  # box clues that are blocklisted or reviewed out
    clue_words: dict[str, int] = field(default_factory=dict)  # how often the box said each word
    lang: str = "fr"
    guesses_by: dict[str, list[int]] = field(default_factory=dict)  # seat → [guesses, greens]

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.wins += r.won
        self.assassin += r.reason == "assassin"
        self.assassin_sd += r.reason == "assassin" and r.sudden_death
        if r.reason == "assassin" and not r.sudden_death and r.assassin_by:
            self.assassin_play_by[r.assassin_by] = self.assassin_play_by.get(r.assassin_by, 0) + 1
        for (word, _, _, _), seat in zip(r.clues, r.giver_of, strict=False):
            if seat in self.box_seats and word != "-":
                self.box_clues += 1
                self.clue_words[word] = self.clue_words.get(word, 0) + 1
                if _clean.is_blocked(word, self.lang):
                    self.bad_clues.append(word)
        self.sudden_death += r.reason in ("sudden_death_miss", "out_of_time")
        self.tokens.append(r.tokens_used)
        self.greens.append(r.greens)
        self.guesses += r.guesses
        self.good += r.good_guesses
        if len(self.samples) < 200:
            self.samples.append(r)

    def figures(self) -> dict[str, object]:
        """Every figure, for --json (rates as percentages, intervals Wilson 95 %)."""
        n = max(self.games, 1)
        during = self.assassin - self.assassin_sd
        p95 = statistics.quantiles(self.clue_ms, n=20)[18] if len(self.clue_ms) >= 20 else max(self.clue_ms or [0])

        def pct(k: int) -> dict[str, float]:
            lo, hi = wilson(k, self.games)
            return {"pct": round(100 * k / n, 2), "lo": round(100 * lo, 2), "hi": round(100 * hi, 2), "count": k}

        return {
            "games": self.games,
            "wins": pct(self.wins),
            "assassin_losses": pct(self.assassin),
            "assassin_during_play": pct(during),
            "assassin_during_play_by_seat": {s: pct(k) for s, k in sorted(self.assassin_play_by.items())},
            "assassin_in_sudden_death": pct(self.assassin_sd),
            "time_or_sudden_death_losses": pct(self.sudden_death),
            "tokens_used": round(statistics.fmean(self.tokens or [0]), 2),
            "greens_found": round(statistics.fmean(self.greens or [0]), 2),
            "guess_precision_pct": round(100 * self.good / max(self.guesses, 1), 1),
            "guess_precision_by_seat_pct": {
                s: round(100 * g / max(t, 1), 1) for s, (t, g) in sorted(self.guesses_by.items())
            },
            "box_clues": self.box_clues,
            "box_clues_blocked": len(self.bad_clues),
            "blocked_words": sorted(set(self.bad_clues)),
            "clue_ms_mean": round(statistics.fmean(self.clue_ms or [0]), 1),
            "clue_ms_p95": round(p95, 1),
            "board_ms_mean": round(statistics.fmean(self.board_ms or [0]), 1),
            # raw counts, so that runs split over seeds can be added up (tools: merge the JSON objects)
            "raw": {
                "guesses": self.guesses,
                "good": self.good,
                "guesses_by": {s: list(v) for s, v in sorted(self.guesses_by.items())},
                "greens_sum": sum(self.greens),
                "tokens_sum": sum(self.tokens),
                "clue_ms_sum": round(sum(self.clue_ms), 1),
                "clue_ms_n": len(self.clue_ms),
            },
        }

    def lines(self) -> list[str]:
        n = max(self.games, 1)
        f = self.figures()

        def iv(key: str) -> str:
            v = f[key]
            assert isinstance(v, dict)
            return f"{v['pct']:.1f} % [{v['lo']:.1f}, {v['hi']:.1f}]"

        by_seat = f["assassin_during_play_by_seat"]
        assert isinstance(by_seat, dict)
        seats = ", ".join(f"seat {s} touched {v['pct']:.1f} %" for s, v in by_seat.items())
        extra = [
            f"wins {iv('wins')} (Wilson 95 %)",
            f"assassin losses during play {iv('assassin_during_play')}" + (f" ({seats})" if seats else ""),
            f"box clues {self.box_clues}, blocklisted or reviewed out: {len(self.bad_clues)}",
        ]
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
        ] + extra


def _new_board(words: Sequence[str], players: Sequence[Partner], summary: Summary | None) -> None:
    """Every partner (each once) starts a game on ``words``; the time each takes to prepare goes to ``summary``."""
    for p in {id(p): p for p in players}.values():
        p.new_game()
        t0 = time.perf_counter()
        p.prepare_board(words)
        if summary is not None:
            summary.board_ms.append(1000 * (time.perf_counter() - t0))


def play_game(
    words: Sequence[str],
    key: DuetKey,
    givers: dict[Seat, Partner],
    guessers: dict[Seat, Partner],
    tokens: int,
    lang: str,
    rng: random.Random,
    summary: Summary | None = None,
    timed: Sequence[Seat] = SEATS,
) -> GameResult:
    """One game; every clue comes from `givers[seat]`, every guess from `guessers[seat]`. Clue times are
    recorded for the seats in `timed` (the box's)."""
    state = duet.new_game(tuple(words), key, duet.DuetRules(tokens=tokens, language=lang))
    _new_board(words, (*givers.values(), *guessers.values()), summary)
    first: Seat = rng.choice(SEATS)
    guesses = good = 0
    meant: dict[int, tuple[str, ...]] = {}
    giver_of: list[str] = []
    assassin_by: str | None = None
    for _ in range(200):
        if state.over:
            break
        if state.phase == "clue":
            able = duet.clue_givers(state)
            seat = first if (not state.clues and first in able) else able[0]
            t0 = time.perf_counter()
            action = box_action(givers[seat], state, seat)
            if summary is not None and seat in timed:
                summary.clue_ms.append(1000 * (time.perf_counter() - t0))
            assert isinstance(action, Clue)
            giver_of.append(seat)
            given = givers[seat]._log[-1][1] if givers[seat]._log else None
            targets = tuple(words[i] for i in getattr(given, "targets", ()))
            meant[len(state.clues)] = targets
            try:
                state, _ = duet.apply(state, action)
            except InvalidClue:
                state, _ = duet.apply(state, Clue(seat, action.word, action.number, override=True))
            continue
        if state.phase == "guess":
            guesser = state.guesser
            assert guesser is not None
            seat = guesser
        else:
            seat = duet.sudden_death_guessers(state)[0]
        action = box_action(guessers[seat], state, seat)
        if action is None:  # pragma: no cover - the partner always has a move when it is its turn
            break
        if isinstance(action, Guess):
            giver_side = state.key.side("B" if seat == "A" else "A")
            guesses += 1
            good += giver_side[action.card] == "G"
            if summary is not None:
                tally = summary.guesses_by.setdefault(seat, [0, 0])
                tally[0] += 1
                tally[1] += giver_side[action.card] == "G"
            if giver_side[action.card] == "X":
                assassin_by = seat
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
        assassin_by if state.reason == "assassin" else None,
        giver_of,
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
    box_seats: Sequence[Seat] = SEATS,
) -> Summary:
    rng = random.Random(seed)
    summary = Summary(box_seats=tuple(box_seats), lang=lang)
    for g in range(games):
        words = draw_words(pack, rng, 25)
        key = random_key(rng)
        summary.add(play_game(words, key, givers, guessers, tokens, lang, rng, summary, timed=box_seats))
        if progress:
            progress(g + 1)
    return summary


def seats_for(setup: str, box: Callable[[], Partner], person: Callable[[], Partner]) -> tuple[
    dict[Seat, Partner], dict[Seat, Partner], tuple[Seat, ...]
]:
    """(givers, guessers, the box's giving seats) of a setup. One object per seat and role as a person would be:
    in solo, seat A is one stand-in giving and guessing, seat B one box doing both."""
    if setup == "solo":
        a, b = person(), box()
        return {"A": a, "B": b}, {"A": a, "B": b}, ("B",)
    if setup == "clues":
        return {"A": box(), "B": box()}, {"A": person(), "B": person()}, SEATS
    raise ValueError(f"unknown setup {setup!r}")
