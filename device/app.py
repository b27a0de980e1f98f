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
from typing import Any

from device.audio import Audio
from device.cluewarm import warm as warm_clue_checker
from device.degraded import OledNotice
from device.game import GameController, NotSaved
from device.i18n import LANGUAGES, Translator, emulator_legend
from device.inputs import InputInterpreter
from device.navigation import Navigator
from device.outputs import Outputs
from device.pin import PinStore
from device.preferences import Settings
from device.render import models as m
from device.screens.base import Frame, Nav, Screen
from device.storage import Storage
from device.storage_screen import notice_frame, storage_frame
from hardware.base import InputEvent
from hardware.box import Box

__all__ = ["MAX_WAIT", "App", "NotSaved"]

log = logging.getLogger("duetbox.app")

#: The loop never sleeps longer than this (signals are noticed at once anyway, see ``_on_signal``).
MAX_WAIT = 1.0
#: Seconds between two tries of a failing storage (full, read-only, I/O errors).
STORAGE_RETRY = 2.0


class App:
    """The box app over one ``hardware.box.Box`` and one ``Storage``."""

    def __init__(self, box: Box, storage: Storage, *, seed: int | None = None, notifier: Any = None,
                 sound: Any = None, speech: Any = None, power: Callable[[str], None] | None = None,
                 strict: bool = True) -> None:
        self.box = box
        self.strict = strict
        self._storage = storage
        self._storage_retry_at = 0.0
        self.clock = box.clock
        self.notifier = notifier
        self.power = power
        self.rng = random.Random(seed)
        self.settings = Settings(storage)
        self.tr = Translator(self.settings["language"])
        self.pins = PinStore(storage.directory)  # the admin PIN: hashed, outside the database (device/pin.py)
        old_pin = storage.settings().get("pin")
        if old_pin is not None:  # an older box kept it in clear in the settings
            self.pins.migrate(old_pin)
            storage.set_setting("pin", None)
        warm_clue_checker(self.settings["language"])  # clue checker: background load
        self._emulator_legend(self.settings["language"])
        self.outputs = Outputs(box, brightness=float(self.settings["brightness"]))
        self.oled_notice = OledNotice(self)
        self.audio = Audio(self.settings, sound, speech)
        self.nav: Nav = Navigator(self)
        self.game = GameController(storage, self.settings, self.clock, show_game=self.nav.game,
                                   ui_state=self._ui_state, play_cue=self.audio.play_cue)
        self.settings.listen(self._on_setting)
        self.settings.listen(self.audio.on_setting)
        self._screen: Screen | None = None
        self.input = InputInterpreter(self)
        self.running = True
        self.stop_reason = ""
        self._signalled: str | None = None
        self._shut = False
        self.frames = 0

    def _on_setting(self, key: str, value: Any) -> None:
        if key == "language" and value in LANGUAGES:
            self.tr = Translator(value)
            self._emulator_legend(value)
        if key == "brightness":
            self.outputs.brightness = float(value)
        if key == "hourglass_seconds":
            self.game.hourglass.length = float(value)

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
        if display is None:
            return (1280, 720)
        width, height = display.size
        return (width, height)

    def switch(self, screen: Screen) -> None:
        """The old screen's exit hook first (it cancels its holds, hides a key), then the new one's enter."""
        if self._screen is not None:
            self._screen.exit()
        self._screen = screen
        screen.enter()

    def woken(self) -> None:
        self.input.last_input = self.clock.now()

    def request_power(self, what: str) -> None:
        """Safe shutdown or reboot from the admin screen: stop the loop cleanly, then ask the system."""
        self.stop(what)
        if self.power is not None:
            self.power(what)

    def _ui_state(self) -> dict[str, Any] | None:
        return self._screen.ui_state() if self._screen is not None else None

    # -- starting --------------------------------------------------------------------------------------------
    def start(self, record: dict[str, Any] | None = None) -> None:
        """First screen: the ``record``'s game (``--start``), else the unfinished game, else the menu."""
        if record is not None:
            self.game.start_from_record(record)
        elif not self.game.resume():
            self.nav.menu()
        self.draw(force=True)
        if self.notifier is not None:
            self.notifier.ready("duetbox ready")

    # -- the loop --------------------------------------------------------------------------------------------
    def deadline(self) -> float | None:
        """The next time something is due, from the timers and what the ring shows (nothing is drawn here)."""
        assert self._screen is not None
        now = self.clock.now()
        candidates = [self._screen.deadline(), self.input.deadline(), self.game.hourglass.next_deadline(now),
                      self.outputs.ring_deadline(now)]
        if self.storage.problem is not None:
            candidates.append(self._storage_retry_at)
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
            self.retry_storage()
            self.game.save_ui()
            self.draw()

    def retry_storage(self) -> None:
        """While storage fails, try it again every STORAGE_RETRY seconds: play goes on by itself."""
        if self.storage.problem is None:
            return
        now = self.clock.now()
        if now >= self._storage_retry_at:
            self._storage_retry_at = now + STORAGE_RETRY
            if self.storage.retry():
                log.warning("storage works again")
                self.draw(force=True)

    def _input(self, event: InputEvent) -> None:
        if event.kind == "quit":
            self.input.tick(event.time)
            self.stop(self._signalled or "quit")
            return
        self.input.handle(event)

    def _guarded(self, handler: Callable[[Any], None], arg: Any) -> None:
        """A bug in one screen must not take the box down at the table: log it and go on (the game is safe in
        storage). ``strict`` (tests, scripted runs) lets it raise instead."""
        if self.strict:
            handler(arg)
            return
        try:
            handler(arg)
        except Exception:  # noqa: BLE001
            log.exception("a screen failed on %r; the box goes on", arg)

    def _emulator_legend(self, language: str) -> None:
        """The emulator's side panel in the interface language (other backends have no panel)."""
        set_legend = getattr(self.box, "set_legend", None)
        if set_legend is not None:
            set_legend(emulator_legend(language if language in LANGUAGES else self.tr.language))

    def frame(self) -> Frame:
        """The current screen's frame with the game's ring (public view, live effects, the running hourglass)."""
        screen = self._screen
        assert screen is not None
        if self.storage.problem is not None:  # nothing can be saved: say so everywhere, show nothing else
            return storage_frame(self.tr, self.storage.problem)
        if self.storage.notice is not None:
            return notice_frame(self.tr, self.storage.notice)
        frame = screen.frame()
        session = self.game.session
        if frame.ring_view is None and session is not None and screen.in_game:
            frame.ring_view = session.public_view()
        now = self.clock.now()
        frame.ring = frame.ring + self.game.live_effects(now)
        hourglass = self.game.hourglass
        if hourglass.state(now) != "idle" and screen.in_game and not frame.ring and self.box.ring is not None:
            frame.ring_pixels = hourglass.ring_frame(now, self.box.ring.count)
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

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self._signalled = signal.Signals(signum).name
        try:  # wake the wait at once
            self.box.queue.put(InputEvent(seat=None, button="quit", kind="quit", time=self.clock.now()))
        except Exception:  # noqa: BLE001 - best effort; the loop also wakes by itself
            pass

    def stop(self, reason: str) -> None:
        self.running = False
        self.stop_reason = reason

    def shutdown(self) -> None:
        """Save, leave a "paused" frame, close the devices. Idempotent."""
        if self._shut:
            return
        self._shut = True
        log.info("stopping (%s): game saved", self.stop_reason or "shutdown")
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
