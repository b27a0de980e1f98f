"""The game controller: one game's lifecycle (start, resume, leave, abandon, finish) and every move's path,
act → engine → commit → events → effects (ring, sound, hourglass).

It holds the one typed session (``engine.session.GameSession``) and knows nothing of screens: it asks the
navigator to show the game's screen, and the current screen for the state to save with a move."""

from __future__ import annotations

import copy
import dataclasses
import logging
import sqlite3
from collections.abc import Callable
from typing import Protocol

from common.jsonvalue import Json, JsonObject
from device.i18n import Translator
from device.modes import GameOptions, Mode, by_kind
from device.render import models as m
from device.seams import ClueRefused, Move, MoveOutcome, Played, Refused, SettingsApi, SettingValue, Stale
from device.services import ringfx
from device.services.hourglass import Hourglass
from device.storage import Finish, GameRow, Storage
from engine.errors import IllegalAction, InvalidClue, StaleAction
from engine.events import Event
from engine.session import GameSession, SetupError, session_from_record
from hardware.base import Clock

log = logging.getLogger("duetbox.game")


class NotSaved(IllegalAction):
    """The storage refused to commit the action (disk full, card failing): it is not applied either."""


UiSource = Callable[[], "JsonObject | None"]


class MoveRouter(Protocol):
    """A game played with another box (``device.remote``): injected into the one controller, it takes the moves
    of the games it routes (the local seat's go through its link) and resumes the saved games it owns (with their
    link: such a game never resumes without it, never as a local game)."""

    def routes(self) -> bool:
        """The game in play is one of the router's (its moves go through ``act``)."""

    def act(self, action: Move, version: int, *, quiet: bool = False) -> list[Event]:
        """A move of the local seat in a routed game (``GameController.commit`` does the commit)."""

    def owns(self, row: GameRow) -> bool:
        """A saved game that only this router can resume."""

    def resume(self, row: GameRow) -> bool:
        """Resume ``row`` with its link; False when it cannot be (it says why in the log)."""

    def memory(self) -> JsonObject | None:
        """What the router saves with each move of a routed game (None: nothing)."""

    def abandoned(self) -> None:
        """The routed game in play is being abandoned on this box (tell the other box)."""


def routed_row(row: GameRow) -> bool:
    """A saved game played with another box (its options name the link): only its router resumes it."""
    return row.options.remote is not None


class GameController:
    """The game in play (or none) over one ``Storage``."""

    def __init__(self, storage: Storage, settings: SettingsApi, clock: Clock, *,
                 show_game: Callable[[JsonObject | None], None], ui_state: UiSource,
                 play_cue: Callable[[str], None]) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock
        self.show_game = show_game
        self.ui_state = ui_state
        self.play_cue = play_cue
        self.session: GameSession | None = None
        self.id: int | None = None
        self.kind = ""
        self.options = GameOptions()
        self.saved_ui: JsonObject | None = None
        self.effects: list[m.RingEffect] = []
        #: what a kind of game keeps between its screens (the solo partner, its explanations), by name
        self.keep: dict[str, object] = {}
        #: the games played with another box go through it (``device.remote``); None on a box without one
        self.router: MoveRouter | None = None
        try:
            self.hourglass = Hourglass(float(settings["hourglass_seconds"]), clock)
        except ValueError:
            self.hourglass = Hourglass(clock=clock)

    @property
    def mode(self) -> Mode:
        """The open game's mode (from its kind; Duet for an unknown one)."""
        return by_kind(self.kind or (self.session.mode if self.session is not None else None))

    @property
    def opts(self) -> GameOptions:
        """The open game's options (the same as ``options``: the name screens read them by)."""
        return self.options

    @property
    def playing(self) -> bool:
        """A game is open and not over."""
        return self.session is not None and not self.session.over

    # -- lifecycle -------------------------------------------------------------------------------------------
    def start_from_record(self, record: Json) -> bool:
        """Begin on a record's set-up and actions, as if played here. SetupError when the record cannot be
        played; False when the storage refused it (disk full, card failing): then no game is open, nothing of
        the record stays (its game is taken back, now or when storage works again), and ``storage.problem``
        says why on the screen."""
        language = str(self.settings["language"])
        session, actions = session_from_record(record, language)
        # Check every action on a scratch copy first: a record refused half-way must leave nothing behind.
        probe: GameSession = session_from_record(record, language)[0]
        for i, item in enumerate(actions):
            try:
                probe.apply(probe.action_from_dict(item), probe.version)
            except (ValueError, IllegalAction) as exc:
                raise SetupError(f"action {i} of the record cannot be played: {exc}") from None
        if not self.begin(session, kind=session.mode):
            return False
        for i, item in enumerate(actions):
            try:
                self.act(session.action_from_dict(item), session.version, quiet=True)
            except NotSaved as exc:
                log.error("the record's game could not be saved (%s): not started", exc)
                assert self.id is not None
                self.storage.discard_game(self.id)
                self._close()
                return False
            except (ValueError, IllegalAction) as exc:
                raise SetupError(f"action {i} of the record cannot be played: {exc}") from None
        return True

    def resume(self) -> bool:
        """Resume the unfinished game exactly where it stood. False when there is none."""
        try:
            row = self.storage.current_game()
            actions = self.storage.actions(row.id) if row is not None else []
        except sqlite3.Error as exc:  # a card that cannot even be read: the menu says so (storage.problem)
            self.storage.failed_read(exc)
            return False
        if row is None:
            return False
        if routed_row(row):  # a game with another box: only with its link (it stays saved for it otherwise)
            return self.router is not None and self.router.owns(row) and self.router.resume(row)
        try:
            session, _ = session_from_record(dict(row.setup, actions=[]), row.options.language)
            session.replay(actions)
        except (SetupError, ValueError, IllegalAction) as exc:
            log.error("the saved game %d cannot be resumed (%s): abandoned", row.id, exc)
            self.storage.abandon_game(row.id)
            return False
        try:
            ui = self.storage.load_ui(row.id)
        except sqlite3.Error as exc:  # the game resumes on its first screen
            self.storage.failed_read(exc)
            ui = None
        self.adopt(row, session, ui)
        log.info("resumed game %d at move %d", row.id, session.version)
        return True

    def adopt(self, row: GameRow, session: GameSession, ui: JsonObject | None) -> None:
        """Make the saved game ``row`` (replayed into ``session``) the game in play, on its saved screen."""
        self.session, self.id, self.kind = session, row.id, row.kind
        self.options = row.options
        self.saved_ui = ui
        self.hourglass.reset()  # a resumed game starts with the sand timer at rest
        self.show_game(ui)

    def begin(self, session: GameSession, *, kind: str, options: GameOptions | None = None,
              sheet: int | None = None) -> bool:
        """Open ``session`` as the game in play and show it; False (nothing changes) when storage refused it.
        ``options`` are saved with it, in the session's language."""
        opts = dataclasses.replace(options or GameOptions(), language=session.language)
        mission = session.setup.get("mission")
        try:
            self.id = self.storage.new_game(session.mode, session.setup, kind=kind, options=opts, sheet=sheet,
                                            mission=mission)
        except sqlite3.Error as exc:  # storage failing: the box says so (``App.frame``) and stays where it is
            log.error("cannot start a new game: %s", exc)
            return False
        self.session, self.kind, self.options = session, kind, opts
        self.saved_ui = None
        self.hourglass.reset()
        self.show_game(None)
        return True

    def show(self) -> None:
        """Back to the open game's screen as saved (from the menu's "resume")."""
        assert self.id is not None
        self.show_game(self.storage.load_ui(self.id))

    def end(self) -> None:
        """Leave the finished game's screens (its data stays)."""
        if self.id is not None:
            self.storage.save_ui(self.id, {"screen": "closed"})
        self._close()

    def leave(self) -> None:
        """Leave the game for the menu; it stays saved, to resume."""
        self.save_ui()
        self._close()

    def abandon(self) -> None:
        if self.router is not None and self.router.routes():
            self.router.abandoned()
        if self.id is not None and self.session is not None and not self.session.over:
            self.storage.abandon_game(self.id)
        self._close()

    def close(self) -> None:
        """Forget the game in play here (it was ended elsewhere: a remote partner abandoned it)."""
        self._close()

    def _close(self) -> None:
        self.session, self.id, self.kind, self.saved_ui = None, None, "", None

    # -- moves -----------------------------------------------------------------------------------------------
    def act(self, action: Move, version: int, *, quiet: bool = False) -> list[Event]:
        """A move made on this box: committed here (``commit``), or handed to the router of a game played with
        another box. Raises engine.errors.IllegalAction; nothing is stored or shown then."""
        if self.router is not None and self.router.routes():
            return self.router.act(action, version, quiet=quiet)
        return self.commit(action, version, quiet=quiet)

    def commit(self, action: Move, version: int, *, quiet: bool = False) -> list[Event]:
        """Apply ``action`` made against state ``version``; commit it; then its events reach the outputs.

        Raises engine.errors.IllegalAction (StaleAction for an old version); nothing is stored or shown then.
        """
        session = self.session
        assert session is not None and self.id is not None
        before = session.state
        _, events = session.apply(action, version)
        ui = self._snapshot()
        outcome = session.outcome()
        finish = None
        if outcome is not None:
            sheet, city = self.options.sheet, session.setup.get("mission")
            mission = sheet is not None and bool(city)
            finish = Finish(outcome.result, outcome.score, int(sheet) if mission and sheet is not None else None,
                            str(city) if mission else None)
        try:
            # the action, the screen state it leaves and (the last one) the result: one transaction, one fsync
            self.storage.append_action(self.id, version, action.to_dict(), ui, finish)
        except sqlite3.Error as exc:
            session.restore(before)  # not committed: as if it never happened
            log.error("action %s not saved (%s): refused", action, exc)
            raise NotSaved(f"the action could not be saved: {exc}") from None
        if ui is not None:
            self.saved_ui = ui
        if outcome is not None:
            self.hourglass.reset()
        if not quiet:
            self.on_events(events)
        return events

    def play(self, action: Move, version: int) -> MoveOutcome:
        """``act`` with its refusal as a value (``device.seams``): what screens call."""
        try:
            events = self.act(action, version)
        except StaleAction:
            return Stale()
        except InvalidClue as exc:
            return ClueRefused(tuple(exc.problems), str(exc))
        except IllegalAction as exc:
            return Refused(type(exc).__name__)
        return Played(tuple(events))

    def on_events(self, events: list[Event]) -> None:
        """Engine events become ring effects and sound cues (the hook speech and sound hang on)."""
        now = self.clock.now()
        self.effects.extend(ringfx.effects_for(events, now))
        for cue in ringfx.cues_for(events):
            self.play_cue(cue)
        if ringfx.new_turn(events):
            self.hourglass.reset()  # the sand timer belongs to one turn

    def live_effects(self, now: float) -> tuple[m.RingEffect, ...]:
        self.effects = [fx for fx in self.effects if not ringfx.finished(fx, now)]
        return tuple(self.effects)

    # -- the screen state saved with the game ----------------------------------------------------------------
    def _snapshot(self) -> JsonObject | None:
        if self.id is None:
            return None
        # a deep copy: screens mutate their state in place, the saved copy must not follow it
        ui = copy.deepcopy(self.ui_state())
        memory = self.router.memory() if self.router is not None and self.router.routes() else None
        return ui if memory is None else dict(ui or {}, remote=memory)

    def save_ui(self) -> None:
        """Persist the current game screen's state (so a restart resumes the same screen and phase)."""
        state = self._snapshot()
        if self.id is not None and state is not None and state != self.saved_ui:
            # not fsync'd: a screen state without an action (a cursor move) may be lost by a power cut, never
            # half-written; the actions carry their own state (``act``)
            self.storage.save_ui(self.id, state, False)
            self.saved_ui = state

    # -- the hourglass (a sand timer any seat turns; advisory) ------------------------------------------------
    def on_setting(self, key: str, value: SettingValue) -> None:
        if key == "hourglass_seconds":
            self.hourglass.length = float(value)

    def toggle_hourglass(self, what: str = "start") -> None:
        now = self.clock.now()
        if what == "start":
            self.hourglass.start(now)
        elif what == "pause":
            self.hourglass.pause(now)
        elif what == "resume":
            self.hourglass.resume(now)

    def hourglass_text(self, tr: Translator) -> str | None:
        """The small hourglass for the status line ("◷ 42 s"), None when idle."""
        now = self.clock.now()
        state = self.hourglass.state(now)
        if state == "idle":
            return None
        return tr(f"hourglass.{state}", s=self.hourglass.seconds_shown(now))
