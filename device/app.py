"""The box's main loop: one thread owns the state, the engine, the screens and pygame.

Flow of one press: the box queues an ``InputEvent``; ``step`` takes it and hands it to the input interpreter
(``device/inputs.py``), which runs the timers up to its time and gives it to the current screen; a screen that
wants a move calls ``host.game.act`` (``device/game.py``): engine first (a stale version is refused), then the
commit to storage, and only then the events reach the outputs. Between events the loop sleeps until the next
deadline (hold-to-confirm, animation frame, idle timeout, watchdog ping).

``App`` is the screens' ``Host`` (``device/screens/base.py``): the services (settings, audio, game), the
navigator, the clock and storage; it switches screens, running the old one's exit hook first."""

from __future__ import annotations

import logging
import random
import signal
import time
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, TypeVar

from common.jsonvalue import Json, JsonObject
from device.degraded import OledNotice
from device.frames import compose as compose_frame
from device.game import GameController, NotSaved
from device.i18n import LANGUAGES, Translator, show_emulator_legend
from device.inputs import InputInterpreter
from device.navigation import Navigator
from device.outputs import Outputs
from device.pin import PinStore
from device.preferences import Settings
from device.render import models as m
from device.screens.base import Frame, Nav, Screen
from device.seams import SettingValue
from device.services.audio import Audio, SoundPlayer, Speaker
from device.services.cluewarm import warm as warm_clue_checker
from device.services.notify import Notifier
from device.storage import Storage
from device.storage_screen import StorageWatch
from hardware.base import InputEvent
from hardware.box import Box

if TYPE_CHECKING:
    from device.remote.play import RemotePlay

__all__ = ["MAX_WAIT", "App", "NotSaved"]

log = logging.getLogger("duetbox.app")

_T = TypeVar("_T")

#: The loop never sleeps longer than this (signals are noticed at once anyway, see ``_on_signal``).
MAX_WAIT = 1.0


class App:
    """The box app over one ``hardware.box.Box`` and one ``Storage``."""

    def __init__(self, box: Box, storage: Storage, *, seed: int | None = None, notifier: Notifier | None = None,
                 sound: SoundPlayer | None = None, speech: Speaker | None = None,
                 power: Callable[[str], None] | None = None, strict: bool = True) -> None:
        self.box = box
        self.strict = strict
        self._storage = storage
        self.storage_watch = StorageWatch(lambda: self._storage)
        self.clock = box.clock
        self.notifier = notifier
        self.power = power
        self.rng = random.Random(seed)
        self.settings = Settings(storage)
        self.tr = Translator(str(self.settings["language"]))
        self.pins = PinStore.beside(storage)  # the admin PIN: hashed, outside the database (device/pin.py)
        show_emulator_legend(box, self.tr.language)
        self.outputs = Outputs(box, brightness=float(self.settings["brightness"]))
        self.oled_notice = OledNotice(self)
        self.audio = Audio(self.settings, sound, speech)
        self.navigator: Navigator = Navigator(self)
        self.nav: Nav = self.navigator
        self.game: GameController = GameController(storage, self.settings, self.clock, show_game=self.nav.game,
                                   ui_state=self._ui_state, play_cue=self.audio.play_cue)
        self.settings.listen(self._on_setting)
        self.settings.listen(self.audio.on_setting)
        self.settings.listen(self.game.on_setting)
        self._screen: Screen | None = None
        self.input: InputInterpreter = InputInterpreter(self)
        #: what each frame passes through before it is shown (remote play: the partner's OLED, the pause)
        self.frame_filters: list[Callable[[Frame], Frame]] = []
        #: remote play (``device/remote/``), composed in by ``device.remote.app.remote_app`` when the box has a
        #: broker: it routes the moves of a remote game, filters the inputs and frames, adds its menu row; None on
        #: a box that plays locally only
        self.remote: RemotePlay | None = None
        self.running = True
        self.stop_reason = ""
        self._signalled: str | None = None
        self._shut = False
        self.frames = 0

    def _on_setting(self, key: str, value: SettingValue) -> None:
        if key == "language" and isinstance(value, str) and value in LANGUAGES:
            self.tr = Translator(value)
            show_emulator_legend(self.box, value)
        if key == "brightness":
            self.outputs.brightness = float(value)

    # -- the host the screens see ----------------------------------------------------------------------------
    @property
    def storage(self) -> Storage:
        return self._storage

    @storage.setter
    def storage(self, storage: Storage) -> None:  # a reopened database reaches every service
        self._storage = self.game.storage = self.settings.storage = storage

    @property
    def screen(self) -> Screen | None:
        return self._screen

    @property
    def display_size(self) -> tuple[int, int]:
        display = self.box.display
        width, height = display.size if display is not None else (1280, 720)
        return (width, height)

    def switch(self, screen: Screen) -> None:
        """The old screen's exit hook first (it cancels its holds, hides a key), then the new one's enter."""
        if self._screen is not None:
            self._screen.exit()
        self._screen = screen
        self.box.want_text(screen.wants_text)
        screen.enter()

    def woken(self) -> None:
        self.input.last_input = self.clock.now()

    def request_power(self, what: str) -> None:
        """Safe shutdown or reboot from the admin screen: stop the loop cleanly, then ask the system."""
        self.stop(what)
        if self.power is not None:
            self.power(what)

    def _ui_state(self) -> JsonObject | None:
        return self._screen.ui_state() if self._screen is not None else None

    # -- starting --------------------------------------------------------------------------------------------
    def start(self, record: Json = None) -> None:
        """First screen: the ``record``'s game (``--start``, as read: checked when it starts), else the unfinished
        game, else the menu."""
        # no game opened (none to resume, or the storage refused the record's): the menu, with the storage's
        # message over it when that was why; there is always a screen to draw
        opened = self.game.start_from_record(record) if record is not None else self.game.resume()
        if not opened or self._screen is None:
            self.nav.menu()
        self.draw(force=True)
        if self.notifier is not None:
            self.notifier.ready("duetbox ready")
        # the clue checker's tables load in the background once the first frame is out: their import and load
        # would otherwise compete with it for the interpreter (a clue asked for before they are in waits for them)
        warm_clue_checker(str(self.settings["language"]))

    # -- the loop --------------------------------------------------------------------------------------------
    def deadline(self) -> float | None:
        """The next time something is due, from the timers and what the ring shows (nothing is drawn here)."""
        assert self._screen is not None
        now = self.clock.now()
        candidates = [self._screen.deadline(), self.input.deadline(), self.game.hourglass.next_deadline(now),
                      self.outputs.ring_deadline(now), self.storage_watch.deadline()]
        found = [c for c in candidates if c is not None]
        return min(found) if found else None

    def step(self, timeout: float | None = 0.0) -> None:
        """One loop iteration: take the events (waiting at most ``timeout``), run timers, save, draw."""
        for event in self.box.wait_events(timeout):
            if not self.running:
                break
            self._guarded(self._input, event)
        if self.running:
            self._guarded(self.input.tick, self.clock.now())
            if self.storage_watch.retry(self.clock.now()):  # storage works again: redraw everything
                self.draw(force=True)
            self.game.save_ui()
            self.draw()

    def _input(self, event: InputEvent) -> None:
        if event.kind == "quit":
            self.input.tick(event.time)
            self.stop(self._signalled or "quit")
            return
        self.input.handle(event)

    def _guarded(self, handler: Callable[[_T], None], arg: _T) -> None:
        """A bug in one screen must not take the box down at the table: log it and go on (the game is safe in
        storage). ``strict`` (tests, scripted runs) lets it raise instead."""
        if self.strict:
            handler(arg)
            return
        try:
            handler(arg)
        except Exception:  # noqa: BLE001
            log.exception("a screen failed on %r; the box goes on", arg)

    def frame(self) -> Frame:
        """The current screen's frame with the game's ring (public view, live effects, the running hourglass)."""
        assert self._screen is not None
        frame = compose_frame(self._screen, self.game, self.storage_watch, self.tr, self.clock, self.box.ring,
                              str(self.settings.get("orientation", "table")))
        if self.storage.problem is None and self.storage.notice is None:  # the storage message comes first
            for through in self.frame_filters:
                frame = through(frame)
        return frame

    def draw(self, *, force: bool = False) -> None:
        frame = self.frame()
        self.outputs.show(frame, self.clock.now(), force=force)
        self.frames += 1
        self.oled_notice.after_draw()  # device.degraded: a missing OLED is named on the shared display

    def run(self) -> int:
        """Loop until stopped (SIGTERM/SIGINT, quit, power off). Returns the exit code."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            while self.running:
                if self._signalled:
                    self.stop(self._signalled)
                    break
                now = self.clock.now()
                deadline = self.deadline()
                timeout = MAX_WAIT if deadline is None else max(0.0, min(MAX_WAIT, deadline - now))
                if self.notifier is not None:
                    ping = self.notifier.tick()
                    if ping is not None:
                        timeout = min(timeout, ping)
                idle_mock = self.box.backend == "mock" and not len(self.box.queue)
                self.step(timeout)
                if idle_mock:  # the mock never blocks: do not spin (its fake clock only moves when told)
                    time.sleep(min(timeout, 0.05))
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.shutdown()
        return 0

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        self._signalled = signal.Signals(signum).name
        try:  # wake the wait at once
            self.box.queue.put(InputEvent(seat=None, button="quit", kind="quit", time=self.clock.now()))
        except Exception:  # noqa: BLE001 - best effort; the loop also wakes by itself
            pass

    def stop(self, reason: str) -> None:
        self.running, self.stop_reason = False, reason

    def shutdown(self) -> None:
        """Save, leave a "paused" frame, close the devices. Idempotent."""
        if self._shut:
            return
        self._shut = True
        log.info("stopping (%s): game saved", self.stop_reason or "shutdown")
        if self.remote is not None:
            self.remote.close_link()
        if self.notifier is not None:
            self.notifier.stopping()
        try:
            self.game.save_ui()
        except Exception:  # noqa: BLE001
            log.exception("saving the screen state failed")
        try:
            self.outputs.blank(m.MessageUi(self.tr("paused.title"), (self.tr("paused.line"),)),
                               m.OledTextUi(self.tr("paused.title"), (self.tr("paused.line"),)))
        except Exception:  # noqa: BLE001
            log.exception("showing the paused frame failed")
        self.box.close()
        self.storage.close()
