"""What an applied action caused: public facts only (they are shown and flashed on the ring)."""

from __future__ import annotations

from dataclasses import dataclass

from .seats import Seat


@dataclass(frozen=True)
class ClueGiven:
    seat: Seat
    word: str | None
    number: int


@dataclass(frozen=True)
class AgentFound:
    card: int
    guesser: Seat


@dataclass(frozen=True)
class BystanderMarked:
    """A timer token lies on the card, arrow toward ``guesser`` (the seat that touched it)."""

    card: int
    guesser: Seat
    tokens: int = 1


@dataclass(frozen=True)
class AssassinRevealed:
    card: int
    guesser: Seat


@dataclass(frozen=True)
class CardCovered:
    """Classic and Pictures: ``team``'s guess covered ``card``, which is ``colour`` (R, B, N bystander, X
    assassin; public once covered)."""

    card: int
    team: str
    colour: str


@dataclass(frozen=True)
class TokenDiscarded:
    """An invalid clue cost a token from the bank."""

    face: str  # "innocent" | "closed"


@dataclass(frozen=True)
class TurnEnded:
    reason: str  # "stop" | "bystander" | "won"


@dataclass(frozen=True)
class SuddenDeathStarted:
    pass


@dataclass(frozen=True)
class GameWon:
    score: int | None


@dataclass(frozen=True)
class GameLost:
    reason: str  # "assassin" | "sudden_death_miss" | "out_of_time"


Event = (ClueGiven | AgentFound | BystanderMarked | AssassinRevealed | CardCovered | TokenDiscarded | TurnEnded
         | SuddenDeathStarted | GameWon | GameLost)
