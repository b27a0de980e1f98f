"""The narrow seams screens are given (issue 25): what a screen may ask of the open game and of the saved data,
as protocols, and the typed outcome of a move. Screens import this module, never ``device.game`` (the controller)
or ``device.storage``; the app's ``GameController`` and ``Storage`` implement these protocols, tests may hand in
fakes.

A move's outcome is a value: ``Played`` (its events), ``Stale`` (a double press: the first one counted),
``Refused`` (an illegal move: the notice to show) or ``ClueRefused`` (the clue checker's problems, for the clue
entry's accept-or-change) — a refused clue no longer climbs the screens' frames as an exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeAlias, overload

from device.i18n import Translator
from device.modes import GameOptions, Mode
from device.services.hourglass import Hourglass
from device.storage import GameRow
from engine.actions import DuetAction
from engine.classic import ClassicAction
from engine.events import Event
from engine.session import GameSession


@dataclass(frozen=True)
class Played:
    """The move was applied and committed."""

    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Stale:
    """Made against an older state (a double press): dropped, nothing to say."""


@dataclass(frozen=True)
class Refused:
    """An illegal move: ``name`` is the refusal's kind (``error.<name>`` is its notice)."""

    name: str


@dataclass(frozen=True)
class ClueRefused:
    """The clue checker refused the clue: its problems (``engine.clues.ClueProblem``: a ``code``, a ``word``)."""

    problems: tuple[object, ...]
    message: str = ""  # the engine's one line (said when there is no problem to name)


MoveOutcome = Played | Stale | Refused | ClueRefused
#: A setting's value (``device.preferences.DEFAULT_SETTINGS``): a word, a number or a switch.
SettingValue: TypeAlias = str | int | float | bool
#: A move of any game: a Duet action or a classic/Pictures one.
Move = DuetAction | ClassicAction


class GameApi(Protocol):
    """The open game as a screen sees it: views through ``session``, moves through ``play``."""

    @property
    def session(self) -> GameSession | None: ...
    @property
    def id(self) -> int | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def mode(self) -> Mode: ...
    @property
    def opts(self) -> GameOptions: ...
    @property
    def options(self) -> GameOptions: ...
    @property
    def keep(self) -> dict[str, object]:
        """What a kind of game keeps between its screens, by name (narrowed with ``isinstance`` where read)."""
        ...
    @property
    def hourglass(self) -> Hourglass: ...
    def play(self, action: Move, version: int) -> MoveOutcome:
        """Apply, commit and show one move; its outcome (never raises for a refused move)."""
        ...

    def begin(self, session: GameSession, *, kind: str, options: GameOptions | None = None,
              sheet: int | None = None) -> bool:
        """Start ``session`` as the open game; False when storage could not create it (the box says so)."""
        ...
    def resume(self) -> bool: ...
    def show(self) -> None: ...
    def end(self) -> None: ...
    def leave(self) -> None: ...
    def abandon(self) -> None: ...
    def hourglass_text(self, tr: Translator) -> str | None: ...
    def toggle_hourglass(self, what: str = "start") -> None: ...


class SettingsApi(Protocol):
    """The box's settings as a screen sees them: read by name (``settings["language"]``, ``settings.get``); the
    settings screens change one with ``set`` (saved at once, listeners told)."""

    def __getitem__(self, key: str, /) -> SettingValue: ...
    @overload
    def get(self, key: str, /) -> SettingValue | None: ...
    @overload
    def get(self, key: str, default: SettingValue, /) -> SettingValue: ...
    def set(self, key: str, value: SettingValue) -> None: ...


class Records(Protocol):
    """The saved data a screen may read or change: the open game's row, decks, the mission sheets, statistics."""

    @property
    def directory(self) -> Path: ...

    def current_game(self) -> GameRow | None: ...
    def abandon_game(self, game: int) -> bool: ...
    def deck_used(self, pack: str) -> list[str]: ...
    def set_deck_used(self, pack: str, used: list[str]) -> None: ...
    def sheets(self) -> list[tuple[int, str]]: ...
    def new_sheet(self, name: str) -> int: ...
    def sheet_name(self, sheet: int) -> str: ...
    def mission_history(self, sheet: int) -> dict[str, tuple[int, int]]: ...
    def mission_log(self, sheet: int) -> list[tuple[str, bool]]: ...
    def statistics(self) -> dict[str, dict[str, int | None]]: ...
    def reset_statistics(self) -> None: ...


__all__ = ["ClueRefused", "GameApi", "Move", "MoveOutcome", "Played", "Records", "Refused", "SettingValue",
           "SettingsApi", "Stale"]
