"""Duet actions: small frozen values with a dict form (records) and a short text form (logs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import DUET as DUET_BOARD
from .errors import IllegalAction
from .seats import Seat, parse_seat

MAX_CLUE_NUMBER = 15
CARDS = DUET_BOARD.cards  # engine.board: 5 x 5
#: The longest clue word the engine takes, in characters (the box's own entry stops at 20 letters; the longest
#: single words of the five languages are under 50). A record's longer word is refused before it is checked: a
#: clue of several MB made ``replay`` run for many seconds and ``run --start`` hang.
MAX_CLUE_LENGTH = 64


@dataclass(frozen=True)
class Clue:
    """Seat gives a clue (rules §1 "A turn"); word None = spoken only, not checked by the box."""

    seat: Seat
    word: str | None
    number: int
    override: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "clue", "seat": self.seat, "word": self.word, "number": self.number}
        if self.override:
            d["override"] = True
        return d

    def __str__(self) -> str:
        return f"{self.seat} clue {self.word or '-'} {self.number}" + (" (accepted)" if self.override else "")


@dataclass(frozen=True)
class Guess:
    """Seat touches a card; it is read on the partner's (clue giver's) side."""

    seat: Seat
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "guess", "seat": self.seat, "card": self.card}

    def __str__(self) -> str:
        return f"{self.seat} guess {self.card}"


@dataclass(frozen=True)
class Stop:
    """The guesser ends the turn after a correct guess."""

    seat: Seat

    def to_dict(self) -> dict[str, Any]:
        return {"type": "stop", "seat": self.seat}

    def __str__(self) -> str:
        return f"{self.seat} stop"


@dataclass(frozen=True)
class Penalty:
    """The players agree the current clue was invalid (rules §1 "Invalid clues")."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "penalty"}

    def __str__(self) -> str:
        return "penalty"


DuetAction = Clue | Guess | Stop | Penalty


def _int(d: dict[str, Any], name: str, low: int, high: int) -> int:
    value = d.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{d.get('type')} action needs {name!r} as a whole number from {low} to {high}")
    return value


def clue_word(d: dict[str, Any]) -> str | None:
    """A record's clue word: a string of at most MAX_CLUE_LENGTH characters, or null (ValueError otherwise)."""
    word = d.get("word")
    if word is not None and not isinstance(word, str):
        raise ValueError("clue action needs 'word' as a string or null")
    if word is not None and len(word) > MAX_CLUE_LENGTH:
        raise ValueError(f"clue word of {len(word)} characters (at most {MAX_CLUE_LENGTH})")
    return word


def check_clue_length(word: str | None) -> None:
    """IllegalAction for a clue word over MAX_CLUE_LENGTH characters (checked before anything else reads it)."""
    if word is not None and len(word) > MAX_CLUE_LENGTH:
        raise IllegalAction(f"a clue word has at most {MAX_CLUE_LENGTH} characters (this one {len(word)})")


def action_from_dict(d: object) -> DuetAction:
    """Parse a record's action; ValueError with a reason when malformed."""
    if not isinstance(d, dict):
        raise ValueError("an action must be a JSON object")
    kind = d.get("type")
    if kind == "clue":
        word = clue_word(d)
        override = d.get("override", False)
        if not isinstance(override, bool):
            raise ValueError("clue action's 'override' must be true or false")
        return Clue(parse_seat(d.get("seat")), word, _int(d, "number", 0, MAX_CLUE_NUMBER), override)
    if kind == "guess":
        return Guess(parse_seat(d.get("seat")), _int(d, "card", 0, CARDS - 1))
    if kind == "stop":
        return Stop(parse_seat(d.get("seat")))
    if kind == "penalty":
        return Penalty()
    raise ValueError(f"unknown action type {kind!r} (clue, guess, stop, penalty)")
