"""One shape for every game: a ``GameSession`` over one engine module (Duet, classic, Pictures; Duet with pictures
and missions are Duet sessions), and how a finished game ended (``Outcome``, as python-chess's
``Outcome``/``Termination``).

A session holds the set-up (a ``duetbox-record/1`` record without its actions) and the current state.
``apply(action, version)`` goes through the engine (which refuses stale actions) and returns the new state and
its public events; the device commits the action to storage before it shows anything."""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from . import classic as cl
from . import duet
from .actions import DuetAction, Penalty, action_from_dict
from .errors import BadRecord
from .events import Event
from .keycard import random_key
from .record import FORMAT, MODES, classic_record_of, load_classic, load_duet
from .views import PublicView, SeatView, public_view, revealed_keys, seat_view


class SetupError(ValueError):
    """A set-up (e.g. a ``--start`` record) that cannot start a game; the message is one line."""


class Termination(enum.Enum):
    """Why a game ended."""

    ALL_FOUND = "all_found"  # Duet: every agent found; classic: a team covered all its agents
    ASSASSIN = "assassin"
    SUDDEN_DEATH_MISS = "sudden_death_miss"  # Duet: a bystander touched in sudden death
    OUT_OF_TIME = "out_of_time"  # Duet: the bank ran out and sudden death was not reached
    OPPONENT_DONE = "opponent_done"  # classic duo: the box's team covered all its cards


@dataclass(frozen=True)
class Outcome:
    """A finished game: why it ended, who won (Duet: "players" or None; classic: the team "R"/"B"), the
    statistics' result ("won", "lost", "won_R", "won_B") and the Duet score."""

    termination: Termination
    winner: str | None
    result: str
    score: int | None = None


class GameSession(Protocol):
    """What the device may do with a game, whatever its mode."""

    setup: dict[str, Any]
    language: str

    @property
    def mode(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def state(self) -> duet.DuetState | cl.ClassicState:
        """The engine's state now (``restore`` takes such a state back)."""
        ...
    def apply(self, action: Any, version: int | None = None) -> tuple[Any, list[Event]]: ...
    def restore(self, state: Any) -> None: ...
    def legal_actions(self) -> Sequence[Any]: ...
    def action_from_dict(self, item: Mapping[str, Any]) -> Any: ...
    def replay(self, actions: Sequence[Mapping[str, Any]]) -> None: ...
    def public_view(self) -> PublicView | cl.ClassicPublicView: ...
    def seat_view(self, seat: str) -> SeatView | cl.SpymasterView | cl.ClassicPublicView: ...
    def revealed_keys(self) -> dict[str, str] | None: ...
    def penalty_action(self) -> Any | None: ...
    def outcome(self) -> Outcome | None: ...
    def record(self) -> dict[str, Any]: ...


# -- Duet ----------------------------------------------------------------------------------------------------

S = TypeVar("S", duet.DuetState, cl.ClassicState)


def _first_state(setup: Mapping[str, Any], language: str, load: Callable[[dict[str, Any]], tuple[S, Any]],
                 what: object) -> S:
    """The state a set-up starts from (the record without actions), or SetupError in one line."""
    record = dict(setup, actions=[])
    record.setdefault("language", language)
    try:
        return load(record)[0]
    except (BadRecord, ValueError, TypeError, KeyError) as exc:
        raise SetupError(f"not a usable {what} set-up: {exc}") from None


T = TypeVar("T")


class _StateHolder(Generic[S]):
    """What both sessions share: the engine state's version and end, taking a state back, and the views of the
    state computed once: every screen, renderer and the ring ask for the public view several times a loop step
    (about fifteen times a guess), so it is kept with the state it was made from (states are immutable: a new
    state, or one taken back, is a new object and gets its own views)."""

    state: S

    def _view(self, key: str, compute: Callable[[S], T]) -> T:
        memo: tuple[S, dict[str, Any]] | None = self.__dict__.get("_views")
        state = self.state
        if memo is None or memo[0] is not state:
            memo = (state, {})
            self.__dict__["_views"] = memo
        if key not in memo[1]:
            memo[1][key] = compute(state)
        return memo[1][key]  # type: ignore[no-any-return]

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def over(self) -> bool:
        return self.state.over

    def restore(self, state: S) -> None:
        self.state = state


class KeyHolder(Protocol):
    """Which sides of the Duet key card a session holds, and so which key the engine reads at each move.

    The engine wants both sides. A session that holds the whole card (``WHOLE_CARD``, every game played on one
    box) hands it the set-up's key as it is. A session that holds one side only (a remote game: the box of each
    seat holds its own side, ``device.remote.secret``) hands it, before each move, a key whose other side agrees
    with everything known of that side here, and refuses a move that needs what only the other side knows yet."""

    @property
    def complete(self) -> bool:
        """Both sides are held: the key the engine reads is the real card (and may be shown at the end)."""
        ...

    def first(self, setup: Mapping[str, Any]) -> Mapping[str, Any]:
        """The set-up the first state is loaded from (it has both sides)."""
        ...

    def before(self, state: duet.DuetState, action: DuetAction) -> duet.DuetState:
        """``state`` with the key ``action`` is played on; IllegalAction when it cannot be played here yet."""
        ...

    def after(self, at: int, action: DuetAction, state: duet.DuetState) -> duet.DuetState:
        """The state kept after ``action``, played at version ``at``, gave ``state``."""
        ...


class WholeCard:
    """Both sides on this box: the set-up's key is the engine's (``KeyHolder``'s default)."""

    complete = True

    def first(self, setup: Mapping[str, Any]) -> Mapping[str, Any]:
        return setup

    def before(self, state: duet.DuetState, action: DuetAction) -> duet.DuetState:
        return state

    def after(self, at: int, action: DuetAction, state: duet.DuetState) -> duet.DuetState:
        return state


WHOLE_CARD: KeyHolder = WholeCard()


@dataclass
class DuetSession(_StateHolder[duet.DuetState]):
    """A Duet game (also with pictures, a mission or hot-seat: those differ only in set-up and UI). ``holder``
    says which sides of the key card it holds (both, unless a remote game supplies its one side)."""

    setup: dict[str, Any]
    state: duet.DuetState = field(init=False)
    language: str = "fr"
    holder: KeyHolder = field(default=WHOLE_CARD, kw_only=True, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.state = _first_state(self.holder.first(self.setup), self.language, load_duet, "Duet")

    @property
    def complete(self) -> bool:
        """The whole key card is known here (a one-sided session's: once the other side has come)."""
        return self.holder.complete

    @property
    def mode(self) -> str:
        return "duet"

    @classmethod
    def create(cls, words: tuple[str, ...], rng: random.Random, *, tokens: int = 9,
               mistakes: int | None = None, clues: str = "strict", several_clues: bool = False,
               mission: str | None = None, language: str = "fr") -> DuetSession:
        key = random_key(rng)
        setup: dict[str, Any] = {
            "format": FORMAT, "mode": "duet", "language": language, "words": list(words),
            "key": {"A": key.a, "B": key.b},
            "rules": {"tokens": tokens, "mistakes": tokens if mistakes is None else mistakes, "clues": clues,
                      "several_clues": several_clues},
        }
        if mission:  # the record's mission sets the bank from the map
            setup["mission"] = mission
            del setup["rules"]["tokens"], setup["rules"]["mistakes"]
        return cls(setup, language=language)

    def apply(self, action: DuetAction, version: int | None = None) -> tuple[duet.DuetState, list[Event]]:
        """Apply through the engine (on the key ``holder`` gives); raises IllegalAction (incl. StaleAction)
        leaving the state unchanged."""
        at = self.state.version
        state, events = duet.apply(self.holder.before(self.state, action), action, version=version)
        self.state = self.holder.after(at, action, state)
        return self.state, events

    def legal_actions(self) -> list[DuetAction]:
        return duet.legal_actions(self.state)

    def action_from_dict(self, item: Mapping[str, Any]) -> DuetAction:
        return action_from_dict(item)

    def replay(self, actions: Sequence[Mapping[str, Any]]) -> None:
        for item in actions:
            self.apply(self.action_from_dict(item))

    def public_view(self) -> PublicView:
        return self._view("public", public_view)

    def seat_view(self, seat: str) -> SeatView:
        # the seat's view shares the state's public view (one public view per state, not three)
        return self._view(f"seat {seat}",
                          lambda state: seat_view(state, seat, self.public_view()))  # type: ignore[arg-type]

    def revealed_keys(self) -> dict[str, str] | None:
        """Both sides at the end, only when the real card is here (never a one-sided session's stand-in)."""
        keys = revealed_keys(self.state) if self.holder.complete else None
        return {str(k): v for k, v in keys.items()} if keys else None

    def penalty_action(self) -> Penalty | None:
        """The invalid-clue penalty the players may ask for now (None: not now)."""
        return Penalty() if self.public_view().can_penalise else None

    def outcome(self) -> Outcome | None:
        state = self.state
        if not state.over:
            return None
        if state.phase == "won":
            return Outcome(Termination.ALL_FOUND, "players", "won", duet.score(state))
        return Outcome(Termination(state.reason or "assassin"), None, "lost", None)

    def record(self) -> dict[str, Any]:
        out = dict(self.setup)
        out["actions"] = [a.to_dict() for a in self.state.history]
        return out


# -- classic and Pictures ------------------------------------------------------------------------------------

@dataclass
class ClassicSession(_StateHolder[cl.ClassicState]):
    """Classic Codenames or Codenames Pictures (standard, duo, trio)."""

    setup: dict[str, Any]
    state: cl.ClassicState = field(init=False)
    language: str = "fr"

    def __post_init__(self) -> None:
        self.state = _first_state(self.setup, self.language, load_classic, self.setup.get("mode"))

    @property
    def mode(self) -> str:
        return self.state.rules.kind

    @classmethod
    def create(cls, kind: str, cards: tuple[str, ...], rng: random.Random, *, variant: str = "standard",
               clues: str = "strict", pictures_key: str = "source", language: str = "fr") -> ClassicSession:
        key = cl.random_classic_key(rng, kind, pictures_key)  # type: ignore[arg-type]
        rules = cl.ClassicRules(kind=kind, variant=variant, clues=clues,  # type: ignore[arg-type]
                                pictures_key=pictures_key, language=language)  # type: ignore[arg-type]
        state = cl.new_classic_game(cards, key, rules, seed=rng.randrange(2**31))
        setup = classic_record_of(state)
        del setup["actions"]
        return cls(setup, language=language)

    def apply(self, action: cl.ClassicAction,
              version: int | None = None) -> tuple[cl.ClassicState, list[Event]]:
        self.state, events = cl.apply(self.state, action, version=version)
        return self.state, events

    def legal_actions(self) -> list[cl.ClassicAction]:
        return cl.legal_classic_actions(self.state)

    def action_from_dict(self, item: Mapping[str, Any]) -> cl.ClassicAction:
        return cl.classic_action_from_dict(item, self.state.rules.size)

    def replay(self, actions: Sequence[Mapping[str, Any]]) -> None:
        for item in actions:
            self.apply(self.action_from_dict(item))

    def public_view(self) -> cl.ClassicPublicView:
        return self._view("public", cl.classic_public_view)

    def spymaster_view(self) -> cl.SpymasterView:
        return self._view("spymaster", cl.spymaster_view)

    def seat_view(self, seat: str) -> cl.SpymasterView | cl.ClassicPublicView:
        """Seat A is the spymasters' side (the whole key); seat B the guessers' (public only)."""
        return self.spymaster_view() if seat == "A" else self.public_view()

    def revealed_keys(self) -> dict[str, str] | None:
        return {"key": self.state.key.cards} if self.state.over else None

    def penalty_action(self) -> cl.TeamPenalty | None:
        return cl.penalty_for(self.state) if cl.can_penalise(self.state) else None

    def outcome(self) -> Outcome | None:
        state = self.state
        if not state.over or state.winner is None:
            return None
        if state.rules.variant == "duo":  # duo is won or lost by the players
            result = "won" if state.winner == state.players else "lost"
        else:
            result = f"won_{state.winner}"
        return Outcome(Termination(state.reason or "all_found"), state.winner, result, None)

    def record(self) -> dict[str, Any]:
        return classic_record_of(self.state)


Session = DuetSession | ClassicSession


def session_from_record(record: object, language: str = "fr") -> tuple[Session, list[dict[str, Any]]]:
    """A fresh session on a record's set-up, and the record's actions (not yet applied)."""
    if not isinstance(record, dict):
        raise SetupError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise SetupError(f"not a {FORMAT} record (format is {record.get('format')!r})")
    mode = record.get("mode", "duet")
    if mode not in MODES:
        raise SetupError(f"unknown mode {mode!r} (duet, classic, pictures)")
    setup = {k: v for k, v in record.items() if k != "actions"}
    setup.setdefault("language", language)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise SetupError("the record's actions must be a list")
    if mode == "duet":
        return DuetSession(setup, language=str(setup["language"])), actions
    return ClassicSession(setup, language=str(setup["language"])), actions


def _check(session: Session) -> GameSession:  # pragma: no cover - a static check: both satisfy the protocol
    return session
