"""A game being played on the box, whatever its mode: a small adapter over one engine module.

A session holds the set-up (a ``duetbox-record/1`` record without its actions) and the current state.
``apply`` goes through the engine (which refuses stale actions); the app commits the action to storage before
it shows anything. Each mode provides: building a set-up, replaying actions, the public and seat views, the
record."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine import duet
from engine.actions import DuetAction, action_from_dict
from engine.errors import BadRecord
from engine.keycard import random_key
from engine.record import load_duet
from engine.views import PublicView, SeatView, public_view, revealed_keys, seat_view

RECORD_FORMAT = "duetbox-record/1"


class SetupError(ValueError):
    """A set-up (e.g. a ``--start`` record) that cannot start a game; the message is one line."""


@dataclass
class DuetSession:
    """A Duet game (also with pictures, a mission or hot-seat: those differ only in set-up and UI)."""

    setup: dict[str, Any]
    state: duet.DuetState = field(init=False)
    language: str = "fr"

    mode = "duet"

    def __post_init__(self) -> None:
        self.state = _duet_state(self.setup, self.language)

    # -- building --------------------------------------------------------------------------------------------
    @classmethod
    def create(cls, words: tuple[str, ...], rng: random.Random, *, tokens: int = 9,
               mistakes: int | None = None, clues: str = "strict", several_clues: bool = False,
               mission: str | None = None, language: str = "fr") -> DuetSession:
        key = random_key(rng)
        setup: dict[str, Any] = {
            "format": RECORD_FORMAT, "mode": "duet", "language": language, "words": list(words),
            "key": {"A": key.a, "B": key.b},
            "rules": {"tokens": tokens, "mistakes": tokens if mistakes is None else mistakes, "clues": clues,
                      "several_clues": several_clues},
        }
        if mission:  # the record's mission sets the bank from the map
            setup["mission"] = mission
            del setup["rules"]["tokens"], setup["rules"]["mistakes"]
        return cls(setup, language=language)

    # -- playing ---------------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return self.state.version

    def apply(self, action: DuetAction, version: int | None) -> list[Any]:
        """Apply through the engine; raises IllegalAction (incl. StaleAction) leaving the state unchanged."""
        new, events = duet.apply(self.state, action, version=version)
        self.state = new
        return events

    def replay(self, actions: list[dict[str, Any]]) -> None:
        for item in actions:
            self.apply(action_from_dict(item), None)

    @staticmethod
    def action_from_dict(item: dict[str, Any]) -> DuetAction:
        return action_from_dict(item)

    # -- what may be seen ------------------------------------------------------------------------------------
    def public_view(self) -> PublicView:
        return public_view(self.state)

    def seat_view(self, seat: str) -> SeatView:
        return seat_view(self.state, seat)  # type: ignore[arg-type]

    def revealed_keys(self) -> dict[str, str] | None:
        keys = revealed_keys(self.state)
        return {str(k): v for k, v in keys.items()} if keys else None

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def result(self) -> str | None:
        """"won" / "lost" once over."""
        return self.state.phase if self.state.over else None

    @property
    def score(self) -> int | None:
        return duet.score(self.state)

    def record(self) -> dict[str, Any]:
        out = dict(self.setup)
        out["actions"] = [a.to_dict() for a in self.state.history]
        return out


def _duet_state(setup: dict[str, Any], language: str) -> duet.DuetState:
    """Build the state a record's set-up describes; SetupError with the reason otherwise."""
    record = dict(setup, actions=[])
    record.setdefault("language", language)
    try:
        state, _ = load_duet(record)
    except (BadRecord, ValueError, TypeError, KeyError) as exc:
        raise SetupError(f"not a usable Duet set-up: {exc}") from None
    return state


def session_from_record(record: dict[str, Any],
                        language: str = "fr") -> tuple[DuetSession, list[dict[str, Any]]]:
    """A fresh session on a record's set-up, and the record's actions (not yet applied)."""
    if not isinstance(record, dict):
        raise SetupError("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise SetupError(f"not a {RECORD_FORMAT} record (format is {record.get('format')!r})")
    mode = record.get("mode", "duet")
    if mode not in ("duet", "classic", "pictures"):
        raise SetupError(f"unknown mode {mode!r} (duet, classic, pictures)")
    setup = {k: v for k, v in record.items() if k != "actions"}
    setup.setdefault("language", language)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise SetupError("the record's actions must be a list")
    if mode != "duet":
        from device.classic_session import ClassicSession, ClassicSetupError

        try:
            return ClassicSession(setup, language=str(setup["language"])), actions  # type: ignore[return-value]
        except ClassicSetupError as exc:
            raise SetupError(str(exc)) from None
    return DuetSession(setup, language=str(setup["language"])), actions
