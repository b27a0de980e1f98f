"""The input interpreter: what a press means before any screen sees it, and the box's own timers.

- the admin chord (MENU + both STOPs held ``CHORD_SECONDS``) opens the PIN prompt;
- in a game, MENU acts on release: a short press opens the pause menu, a long one turns the hourglass;
- on the attract screen any press only wakes the box;
- timers: the idle timeout (attract), the abandon timeout, the hourglass's cues and its enforcement.
Everything else goes to the current screen."""

from __future__ import annotations

import logging
from typing import Protocol

from device.game import GameController
from device.screens.base import Host
from device.storage import Storage
from hardware.base import InputEvent

log = logging.getLogger("duetbox.inputs")

#: (MENU, A.stop, B.stop) held together this long opens the admin PIN prompt.
CHORD_SECONDS = 5.0
#: MENU held at least this long during a game turns the hourglass (a short press opens the pause menu).
LONG_PRESS = 0.6
CHORD = frozenset({(None, "menu"), ("A", "stop"), ("B", "stop")})


class LoopHost(Host, Protocol):
    """The host as the loop's own parts see it (the interpreter, the controller's builders): the whole storage
    and game controller, which screens only see through ``device.seams``."""

    @property
    def storage(self) -> Storage: ...
    @property
    def game(self) -> GameController: ...


class InputFilter(Protocol):
    """A feature that sees every event first and runs with the timers (``device.remote``: the link is polled,
    the remote seat's buttons do nothing here, a paused game takes only MENU)."""

    def intercept(self, event: InputEvent) -> InputEvent | None:
        """The event the interpreter goes on with (the same, or one changed); None when it was taken."""

    def before_tick(self, now: float) -> None:
        """Before the timers run."""

    def after_tick(self, now: float) -> None:
        """After the timers and the screen's tick."""


class InputInterpreter:
    """Interprets events and runs timers for one host."""

    def __init__(self, host: LoopHost) -> None:
        self.host = host
        self.filters: list[InputFilter] = []
        self.held: dict[tuple[str | None, str], float] = {}
        self.last_input = host.clock.now()
        self.chord_since: float | None = None
        self.menu_down: float | None = None
        self.enforce_due = False  # an enforced hourglass ran out while the game screen was not shown

    def held_since(self, seat: str | None, button: str) -> float | None:
        return self.held.get((seat, button))

    def _in_game(self) -> bool:
        screen = self.host.screen
        return self.host.game.session is not None and screen is not None and screen.in_game

    # -- events ----------------------------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        """One event (not "quit": the loop handles that), after the timers up to its time."""
        for taker in self.filters:
            passed = taker.intercept(event)
            if passed is None:
                return
            event = passed
        self.tick(event.time)
        if event.kind == "press":
            self.held[(event.seat, event.button)] = event.time
        elif event.kind == "release":
            self.held.pop((event.seat, event.button), None)
        self._check_chord()
        self.last_input = event.time
        storage = self.host.storage
        if storage.problem is not None:  # the screen is hidden behind the storage message: no moves
            return
        if storage.notice is not None:  # "the saved data was started afresh": any press reads it away
            if event.kind in ("press", "touch", "text"):
                storage.notice = None
            return
        screen = self.host.screen
        assert screen is not None
        if screen.wakes:
            if event.kind in ("press", "touch", "text"):
                screen.wake()
            return
        if event.button == "menu" and self._in_game():
            self._menu(event)
            return
        screen.handle(event)

    def _menu(self, event: InputEvent) -> None:
        """In a game MENU acts on release: a short press opens the pause menu, a long one the hourglass."""
        if event.kind == "press":
            self.menu_down = event.time
        elif event.kind == "release" and self.menu_down is not None and self.chord_since is None:
            held = event.time - self.menu_down
            self.menu_down = None
            screen = self.host.screen
            if held >= LONG_PRESS:
                self.host.game.toggle_hourglass("start")
            elif screen is not None:
                self.host.nav.pause(screen)

    def _check_chord(self) -> None:
        if CHORD <= set(self.held):
            if self.chord_since is None:
                self.chord_since = max(self.held[k] for k in CHORD)
            self.menu_down = None  # the chord is not a press of MENU
        else:
            self.chord_since = None

    # -- timers ----------------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        for taker in self.filters:
            taker.before_tick(now)
        self._tick(now)
        for taker in self.filters:
            taker.after_tick(now)

    def _tick(self, now: float) -> None:
        host = self.host
        if self.chord_since is not None and now - self.chord_since >= CHORD_SECONDS:
            self.chord_since = None
            self.held.clear()
            host.nav.pin(host.screen)
            return
        screen = host.screen
        if screen is None:
            return
        idle = self.idle_deadline()
        if idle is not None and now >= idle and screen.attract:
            host.nav.attract(screen)
            return
        if not self._hourglass(now):
            return
        abandon = self.abandon_deadline()
        if abandon is not None and now >= abandon:
            log.info("game %s abandoned after %s idle hours", host.game.id, host.settings["abandon_hours"])
            host.game.abandon()
            host.nav.menu()
            return
        screen.tick(now)

    def _hourglass(self, now: float) -> bool:
        """The hourglass's cues and enforcement; False when enforcing it ended the screen."""
        host, game = self.host, self.host.game
        if not game.playing:
            game.hourglass.reset()  # no game in play: the sand timer never runs on in the menus
            self.enforce_due = False
        for change in game.hourglass.poll(now):
            host.audio.play_cue("hourglass_warning" if change == "warning" else "hourglass_end")
            if change == "expired" and host.settings.get("hourglass_enforced"):
                self.enforce_due = True
        screen = host.screen
        if not self.enforce_due or screen is None:
            return True
        # applied on the game screen (at once, or when the players come back from the pause menu);
        # dropped when a new turn or game reset the hourglass meanwhile
        if game.hourglass.state(now) != "expired":
            self.enforce_due = False
        elif screen.enforces:
            self.enforce_due = False
            screen.enforce()
            return host.screen is screen  # the enforced stop may have ended the game
        return True

    def idle_deadline(self) -> float | None:
        minutes = float(self.host.settings.get("idle_minutes") or 0)
        return None if minutes <= 0 else self.last_input + minutes * 60

    def abandon_deadline(self) -> float | None:
        hours = float(self.host.settings.get("abandon_hours") or 0)
        if hours <= 0 or not self.host.game.playing:
            return None
        return self.last_input + hours * 3600

    def deadline(self) -> float | None:
        """The next time a timer of this interpreter fires (None: none pending)."""
        screen = self.host.screen
        candidates = [self.abandon_deadline()]
        if screen is not None and screen.attract:
            candidates.append(self.idle_deadline())
        if self.chord_since is not None:
            candidates.append(self.chord_since + CHORD_SECONDS)
        found = [c for c in candidates if c is not None]
        return min(found) if found else None
