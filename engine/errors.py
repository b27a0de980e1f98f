"""Typed refusals of the engine: every one is a ValueError with a human reason."""

from __future__ import annotations


class IllegalAction(ValueError):
    """The action may not be applied to this state; the state is unchanged."""


class WrongPhase(IllegalAction):
    """The action does not belong to the current phase (e.g. a guess while a clue is awaited)."""


class NotYourTurn(IllegalAction):
    """The seat or team named by the action may not act now."""


class CardNotPlayable(IllegalAction):
    """The card is covered, already marked for this guesser, or out of range."""


class InvalidClue(IllegalAction):
    """The clue breaks the clue rules; ``problems`` lists why (see engine.clues)."""

    def __init__(self, message: str, problems: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


class CannotStop(IllegalAction):
    """A guesser may only stop after a correct guess this turn."""


class GameOver(IllegalAction):
    """The game has ended: nothing more may happen."""


class StaleAction(IllegalAction):
    """The action was made against an older state (e.g. a double press)."""


class BadKey(ValueError):
    """A key card text does not follow the key template."""


class BadRecord(ValueError):
    """A game record is not a valid record."""
