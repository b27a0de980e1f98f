"""Plain data exchanged with the partner: past turns, and its choices."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

ME = "me"
PARTNER = "partner"


@dataclass(frozen=True)
class Turn:
    """One finished (or running) turn: who gave the clue, the clue, and the guesses with their results.

    A result is the card's label on the clue giver's side: "G" (green), "N" (bystander) or "X" (assassin).
    """

    giver: str  # ME (the box) or PARTNER (the human)
    word: str
    number: int
    guesses: tuple[tuple[int, str], ...] = ()
    targets: tuple[int, ...] = ()  # for the box's own clues, the cards it meant (if known)


@dataclass(frozen=True)
class ClueChoice:
    word: str
    number: int
    targets: tuple[int, ...]
    slack: float = 0.0  # how far the weakest condition is above its threshold, in sigma units
    fallback: bool = False  # no clue met the thresholds; this is the safest single-card clue
    alternatives: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class GuessChoice:
    card: int
    green: float  # estimated chance the card is green on the clue giver's side
    assassin: float
    value: float  # expected value used for stopping


def guesses_by(history: Iterable[Turn], giver: str) -> list[tuple[int, str]]:
    return [g for t in history if t.giver == giver for g in t.guesses]


def known_partner_labels(history: Sequence[Turn], extra: Iterable[tuple[int, str]] = ()) -> dict[int, str]:
    """Partner-side labels revealed to the box: results of its own guesses on the partner's clues."""
    known = dict(guesses_by(history, PARTNER))
    known.update(dict(extra))
    return known


def marked_for_partner(history: Sequence[Turn]) -> set[int]:
    """Cards the partner may no longer touch: bystanders on my side that it guessed on my clues."""
    return {card for card, label in guesses_by(history, ME) if label == "N"}
