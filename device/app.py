"""The box's main loop: one thread owns the state, the engine, the screens and pygame.

Flow of one press: the box queues an ``InputEvent``; ``step`` takes it, runs the timers up to its time, hands
it to the current screen; a screen that wants an engine action calls ``App.act``, which applies it through the
engine (a stale version is refused), commits it to storage, and only then lets anything show its result.
Between events the loop sleeps until the next deadline (hold-to-confirm, animation frame, idle timeout,
watchdog ping)."""

from __future__ import annotations

import copy
import logging
import random
import signal
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from device import ringfx
from device.cluewarm import warm as warm_clue_checker
from device.degraded import OledNotice
from device.i18n import LANGUAGES, Translator
from device.outputs import Outputs
from device.packs import following_language
from device.pin import PinStore
from device.render import models as m
from device.screens.base import Frame, Screen
from device.session import SetupError, session_from_record
from device.storage import Finish, Storage
from device.storage_screen import notice_frame, storage_frame
from engine.errors import IllegalAction
from hardware.base import InputEvent

log = logging.getLogger("duetbox.app")


class NotSaved(IllegalAction):
    """The storage refused to commit the action (disk full, card failing): it is not applied either."""

#: (MENU, A.stop, B.stop) held together this long opens the admin PIN prompt.
CHORD_SECONDS = 5.0
#: The loop never sleeps longer than this (signals are noticed at once anyway, see ``_on_signal``).
MAX_WAIT = 1.0

DEFAULT_SETTINGS: dict[str, Any] = {
    "language": "fr",
    "pack": "fr",
    "tokens": 9,
    "brightness": 0.6,
    "idle_minutes": 5,
    "abandon_hours": 24,
    "orientation": "table",
    "clues": "strict",
    "several_clues": False,
    "hourglass_seconds": 60,
    "hourglass_enforced": False,
    "speech": False,  # before per-seat speech: on = both seats
    "speech_A": False,
    "speech_B": False,
    "speech_output_A": "speaker",
    "speech_output_B": "speaker",
    "volume": 0.7,
    "muted": False,
    "cafe_mode": False,
}
#: What turning café mode on sets (docs/kiosk.md): silent, a short attract time, games left behind cleared.
CAFE_DEFAULTS: dict[str, Any] = {"muted": True, "idle_minutes": 2, "abandon_hours": 1}
SEATS = ("A", "B")
#: MENU held at least this long during a game turns the hourglass (a short press opens the pause menu).
LONG_PRESS = 0.6
#: Seconds between two tries of a failing storage (full, read-only, I/O errors).
STORAGE_RETRY = 2.0
CHORD = frozenset({(None, "menu"), ("A", "stop"), ("B", "stop")})


class App:
    """The box app over one ``hardware.box.Box`` and one ``Storage``."""

    def __init__(self, box: Any, storage: Storage, *, seed: int | None = None, notifier: Any = None,
                 sound: Any = None, speech: Any = None, power: Callable[[str], None] | None = None,
                 strict: bool = True) -> None:
        self.box = box
        self.strict = strict
        self.storage = storage
        self.clock = box.clock
        self.notifier = notifier
        self.sound = sound
        self.power = power
        self.rng = random.Random(seed)
        self.settings = dict(DEFAULT_SETTINGS)
        stored = storage.settings()
        self.settings.update(stored)
        if stored.get("speech") and not any(f"speech_{s}" in stored for s in SEATS):
            for seat in SEATS:  # the one switch of older boxes: both seats
                self.settings[f"speech_{seat}"] = True
        self.tr = Translator(self.settings["language"])
        self.pins = PinStore(storage.directory)  # the admin PIN: hashed, outside the database (device/pin.py)
        if stored.get("pin") is not None:  # an older box kept it in clear in the settings
            self.pins.migrate(stored.get("pin"))
            storage.set_setting("pin", None)
        warm_clue_checker(self.settings["language"])  # clue checker: background load
        self.outputs = Outputs(box, brightness=float(self.settings["brightness"]))
        self.oled_notice = OledNotice(self)
        self.session: Any = None  # a DuetSession or a ClassicSession (device.classic_session)
        self.game_id: int | None = None
        self.game_kind: str = ""
        self.game_options: dict[str, Any] = {}
        self.screen: Screen | None = None
        self.held: dict[tuple[str | None, str], float] = {}
        self.last_input = self.clock.now()
        self.effects: list[Any] = []
        self.running = True
        self.stop_reason = ""
        self._saved_ui: dict[str, Any] | None = None
        self._chord_since: float | None = None
        self._menu_down: float | None = None
        self._signalled: str | None = None
        self._enforce_due = False  # an enforced hourglass ran out while the game screen was not shown
        self.frames = 0
        self._storage_retry_at = 0.0
        self._speaker = speech
        self.speech: Any = None  # the speaker while at least one seat has speech on
        self._update_speech()
        self._speak_in(self.settings["language"])
        self._update_sound()
        from device.hourglass import Hourglass

        try:
            self.hourglass = Hourglass(float(self.settings["hourglass_seconds"]), self.clock)
        except ValueError:
            self.hourglass = Hourglass(clock=self.clock)

    # -- settings --------------------------------------------------------------------------------------------
    def set_setting(self, key: str, value: Any) -> None:
        old_language = self.settings.get("language")
        self.settings[key] = value
        self.storage.set_setting(key, value)
        if key == "language" and value in LANGUAGES and old_language != value:  # the pack follows, unless chosen
            self.set_setting("pack", following_language(str(self.settings.get("pack")), str(old_language), value))
        if key == "language" and value in LANGUAGES:
            self.tr = Translator(value)
            self._speak_in(value)
        if key == "brightness":
            self.outputs.brightness = float(value)
        if key == "hourglass_seconds":
            self.hourglass.length = float(value)
        if key.startswith("speech"):
            self._update_speech()
        if key in ("volume", "muted"):
            self._update_sound()
        if key == "cafe_mode":
            # café defaults when it is turned on (each can be changed afterwards); sound back when off
            for name, default in (CAFE_DEFAULTS.items() if value else (("muted", False),)):
                self.set_setting(name, default)

    def _update_speech(self) -> None:
        on = any(self.settings.get(f"speech_{seat}") for seat in SEATS)
        self.speech = self._speaker if on else None

    def _update_sound(self) -> None:
        if self.sound is None:
            return
        try:
            self.sound.volume = float(self.settings.get("volume", 0.7))
        except (ValueError, TypeError, AttributeError):
            log.warning("bad volume setting %r ignored", self.settings.get("volume"))
        try:
            self.sound.muted = bool(self.settings.get("muted"))
        except AttributeError:
            pass

    def speech_for(self, seat: str | None) -> Any:
        """The speaker when ``seat`` has spoken announcements on (None otherwise, or without espeak-ng)."""
        if self._speaker is None or seat not in SEATS or not self.settings.get(f"speech_{seat}"):
            return None
        return self._speaker

    def speech_output(self, seat: str | None) -> str:
        """What ``seat`` hears speech through: "speaker" (the whole table) or "headphones"."""
        value = self.settings.get(f"speech_output_{seat}", "speaker")
        return "headphones" if value == "headphones" else "speaker"

    def _speak_in(self, language: str) -> None:
        if self._speaker is not None:
            try:
                self._speaker.language = language
            except ValueError:
                log.warning("no spoken announcements in %s", language)

    # -- screens ---------------------------------------------------------------------------------------------
    def switch(self, screen: Screen) -> None:
        if self.screen is not None:
            self.screen.exit()
        self.screen = screen
        screen.enter()

    def start(self, record: dict[str, Any] | None = None) -> None:
        """First screen: the ``record``'s game (``--start``), else the unfinished game, else the menu."""
        from device.screens.shell import MenuScreen

        if record is not None:
            self.start_from_record(record)
        elif not self.resume():
            self.switch(MenuScreen(self))
        self.draw(force=True)
        if self.notifier is not None:
            self.notifier.ready("duetbox ready")

    def start_from_record(self, record: dict[str, Any]) -> None:
        """Begin on a record's set-up and actions, as if played here. SetupError when it cannot."""
        session, actions = session_from_record(record, self.settings["language"])
        # Check every action on a scratch copy first: a record refused half-way must leave nothing behind.
        probe, _ = session_from_record(record, self.settings["language"])
        for i, item in enumerate(actions):
            try:
                probe.apply(probe.action_from_dict(item), probe.version)
            except (ValueError, IllegalAction) as exc:
                raise SetupError(f"action {i} of the record cannot be played: {exc}") from None
        self.begin_game(session, kind=session.mode)
        for i, item in enumerate(actions):
            try:
                action = session.action_from_dict(item)
                self.act(action, session.version, quiet=True)
            except (ValueError, IllegalAction) as exc:
                raise SetupError(f"action {i} of the record cannot be played: {exc}") from None

    def resume(self) -> bool:
        """Resume the unfinished game exactly where it stood. False when there is none."""
        row = self.storage.current_game()
        if row is None:
            return False
        try:
            session, _ = session_from_record(dict(row.setup, actions=[]), row.options.get("language", "fr"))
            session.replay(self.storage.actions(row.id))
        except (SetupError, ValueError, IllegalAction) as exc:
            log.error("the saved game %d cannot be resumed (%s): abandoned", row.id, exc)
            self.storage.abandon_game(row.id)
            return False
        self.session, self.game_id, self.game_kind = session, row.id, row.kind
        self.game_options = dict(row.options)
        ui = self.storage.load_ui(row.id)
        self._saved_ui = ui
        self.hourglass.reset()  # a resumed game starts with the sand timer at rest
        self.switch(self.game_screen(ui))
        log.info("resumed game %d at move %d", row.id, session.version)
        return True

    def game_screen(self, ui: dict[str, Any] | None = None) -> Screen:
        from device.screens.play import DuetPlayScreen, GameOverScreen

        assert self.session is not None
        if self.session.mode in ("classic", "pictures"):
            from device.screens.classic import ClassicOverScreen, ClassicPlayScreen

            return ClassicOverScreen(self, ui) if self.session.over else ClassicPlayScreen(self, ui)
        if self.game_options.get("solo"):  # the box plays seat B (device/screens/solo.py)
            from device.screens.solo import SoloOverScreen, SoloPlayScreen

            return SoloOverScreen(self, ui) if self.session.over else SoloPlayScreen(self, ui)
        if self.session.over:
            return GameOverScreen(self, ui)
        return DuetPlayScreen(self, ui)

    def begin_game(self, session: Any, *, kind: str, options: dict[str, Any] | None = None,
                   sheet: int | None = None) -> None:
        opts = {"language": session.language}
        opts.update(options or {})
        try:
            self.game_id = self.storage.new_game(session.mode, session.setup, kind=kind, options=opts,
                                                 sheet=sheet, mission=session.setup.get("mission"))
        except sqlite3.Error as exc:  # storage failing: the box says so (``_frame``) and stays where it is
            log.error("cannot start a new game: %s", exc)
            return
        self.session, self.game_kind, self.game_options = session, kind, opts
        self._saved_ui = None
        self.hourglass.reset()
        self.switch(self.game_screen())

    def end_game_session(self) -> None:
        """Leave the finished game's screens (its data stays)."""
        if self.game_id is not None:
            self.storage.save_ui(self.game_id, {"screen": "closed"})
        self.session, self.game_id, self.game_kind, self._saved_ui = None, None, "", None

    def abandon(self) -> None:
        if self.game_id is not None and self.session is not None and not self.session.over:
            self.storage.abandon_game(self.game_id)
        self.session, self.game_id, self.game_kind, self._saved_ui = None, None, "", None

    # -- engine actions --------------------------------------------------------------------------------------
    def act(self, action: Any, version: int, *, quiet: bool = False) -> list[Any]:
        """Apply ``action`` made against state ``version``; commit it; then its events reach the outputs.

        Raises engine.errors.IllegalAction (StaleAction for an old version); nothing is stored or shown then.
        """
        session = self.session
        assert session is not None and self.game_id is not None
        before = session.state
        events = session.apply(action, version)
        ui = self._ui_snapshot()
        finish = self._finish() if session.over else None
        try:
            # the action, the screen state it leaves and (the last one) the result: one transaction, one fsync
            self.storage.append_action(self.game_id, version, action.to_dict(), ui, finish)
        except sqlite3.Error as exc:
            session.state = before  # not committed: as if it never happened
            log.error("action %s not saved (%s): refused", action, exc)
            raise NotSaved(f"the action could not be saved: {exc}") from None
        if ui is not None:
            self._saved_ui = ui
        if session.over:
            self.hourglass.reset()
        if not quiet:
            self.on_events(events)
        return events

    def _finish(self) -> Finish:
        """What the last action writes with it: the result, the score, a campaign sheet's mission tick."""
        session = self.session
        assert session is not None
        sheet = self.game_options.get("sheet")
        city = session.setup.get("mission")
        mission = sheet is not None and bool(city)
        return Finish(session.result or "lost", session.score, int(sheet) if mission else None,
                      str(city) if mission else None)

    def on_events(self, events: list[Any]) -> None:
        """Engine events become ring effects and sound cues (the hook speech and sound hang on)."""
        now = self.clock.now()
        for fx in ringfx.effects_for(events, now):
            self.effects.append(fx)
        for cue in ringfx.cues_for(events):
            self.play_cue(cue)
        if ringfx.new_turn(events):
            self.hourglass.reset()  # the sand timer belongs to one turn

    def play_cue(self, cue: str) -> None:
        """One sound cue (device.sound.CUES); the player handles mute and volume; never raises."""
        if self.sound is None:
            return
        try:
            self.sound.play(cue)
        except Exception:  # noqa: BLE001 - a sound must never stop the game
            log.exception("sound cue %s failed", cue)

    def announce(self, text: str, seat: str | None = None) -> None:
        """Speak ``text`` (public: clue, agents, bank) for ``seat`` through its output (without a seat: when
        any seat has speech on, through the speaker). Never blocks, never raises."""
        speaker = self.speech_for(seat) if seat is not None else self.speech
        if speaker is None:
            return
        try:
            self._route(speaker, self.speech_output(seat) if seat is not None else "speaker")
            speaker.say(text)
        except Exception:  # noqa: BLE001
            log.exception("speech failed")

    def announce_key(self, text: str, seat: str) -> bool:
        """Read a key to ``seat``: only when that seat's speech goes to headphones, never through the shared
        speaker (issue 9). True when it was handed to espeak-ng."""
        speaker = self.speech_for(seat)
        if speaker is None or self.speech_output(seat) != "headphones":
            return False
        try:
            self._route(speaker, "headphones")
            return bool(speaker.say_key(text))
        except Exception:  # noqa: BLE001
            log.exception("speech failed")
            return False

    @staticmethod
    def _route(speaker: Any, output: str) -> None:
        if getattr(speaker, "output", output) != output:
            speaker.output = output  # a key still being read is cut when it becomes the speaker

    # -- the hourglass (a sand timer any seat turns; advisory) ------------------------------------------------
    def toggle_hourglass(self, what: str = "start") -> None:
        now = self.clock.now()
        if what == "start":
            self.hourglass.start(now)
        elif what == "pause":
            self.hourglass.pause(now)
        elif what == "resume":
            self.hourglass.resume(now)

    def hourglass_text(self) -> str | None:
        """The small hourglass for the status line ("⏳ 42 s"), None when idle."""
        now = self.clock.now()
        state = self.hourglass.state(now)
        if state == "idle":
            return None
        return self.tr(f"hourglass.{state}", s=self.hourglass.seconds_shown(now))

    def live_effects(self, now: float) -> tuple[Any, ...]:
        self.effects = [fx for fx in self.effects if not ringfx.finished(fx, now)]
        return tuple(self.effects)

    # -- input -----------------------------------------------------------------------------------------------
    def held_since(self, seat: str | None, button: str) -> float | None:
        return self.held.get((seat, button))

    def _input(self, event: InputEvent) -> None:
        self._tick(event.time)
        if event.kind == "quit":
            self.stop(self._signalled or "quit")
            return
        if event.kind == "press":
            self.held[(event.seat, event.button)] = event.time
        elif event.kind == "release":
            self.held.pop((event.seat, event.button), None)
        self._check_chord(event.time)
        self.last_input = event.time
        if self.storage.problem is not None:  # the screen is hidden behind the storage message: no moves
            return
        if self.storage.notice is not None:  # "the saved data was started afresh": any press reads it away
            if event.kind in ("press", "touch", "text"):
                self.storage.notice = None
            return
        screen = self.screen
        assert screen is not None
        from device.screens.shell import AttractScreen

        if isinstance(screen, AttractScreen):
            if event.kind in ("press", "touch", "text"):
                screen.wake()
            return
        if event.button == "menu" and self.session is not None and getattr(screen, "in_game", False):
            # In a game MENU acts on release: a short press opens the pause menu, a long one the hourglass.
            if event.kind == "release" and self._menu_down is not None and self._chord_since is None:
                held = event.time - self._menu_down
                self._menu_down = None
                if held >= LONG_PRESS:
                    self.toggle_hourglass("start")
                else:
                    self._on_menu()
            elif event.kind == "press":
                self._menu_down = event.time
            return
        screen.handle(event)

    def _on_menu(self) -> bool:
        """MENU: from a game, the pause menu; elsewhere the screen decides (back)."""
        from device.screens.shell import PauseScreen

        screen = self.screen
        if self.session is not None and screen is not None and getattr(screen, "in_game", False):
            self.switch(PauseScreen(self, screen))
            return True
        return False

    def _check_chord(self, now: float) -> None:
        if CHORD <= set(self.held):
            if self._chord_since is None:
                self._chord_since = max(self.held[k] for k in CHORD)
            self._menu_down = None  # the chord is not a press of MENU
        else:
            self._chord_since = None

    def _tick(self, now: float) -> None:
        from device.screens.shell import AttractScreen, PinScreen

        if self._chord_since is not None and now - self._chord_since >= CHORD_SECONDS:
            self._chord_since = None
            self.held.clear()
            self.switch(PinScreen(self, self.screen))
            return
        screen = self.screen
        if screen is None:
            return
        idle = self._idle_deadline()
        if idle is not None and now >= idle and screen.attract:
            self.switch(AttractScreen(self, screen))
            return
        if self.session is None or self.session.over:
            self.hourglass.reset()  # no game in play: the sand timer never runs on in the menus
            self._enforce_due = False
        for change in self.hourglass.poll(now):
            self.play_cue("hourglass_warning" if change == "warning" else "hourglass_end")
            if change == "expired" and self.settings.get("hourglass_enforced"):
                self._enforce_due = True
        if self._enforce_due:
            # applied on the game screen (at once, or when the players come back from the pause menu);
            # dropped when a new turn or game reset the hourglass meanwhile
            enforce = getattr(screen, "enforce", None)
            if self.hourglass.state(now) != "expired":
                self._enforce_due = False
            elif enforce is not None:
                self._enforce_due = False
                enforce()
                if self.screen is not screen:  # the enforced stop ended the game
                    return
        abandon = self._abandon_deadline()
        if abandon is not None and now >= abandon:
            from device.screens.shell import MenuScreen

            log.info("game %s abandoned after %s idle hours", self.game_id, self.settings["abandon_hours"])
            self.abandon()
            self.switch(MenuScreen(self))
            return
        screen.tick(now)

    def _idle_deadline(self) -> float | None:
        minutes = float(self.settings.get("idle_minutes") or 0)
        return None if minutes <= 0 else self.last_input + minutes * 60

    def _abandon_deadline(self) -> float | None:
        hours = float(self.settings.get("abandon_hours") or 0)
        if hours <= 0 or self.session is None or self.session.over:
            return None
        return self.last_input + hours * 3600

    # -- the loop --------------------------------------------------------------------------------------------
    def deadline(self) -> float | None:
        assert self.screen is not None
        now = self.clock.now()
        candidates = [self.screen.deadline(), self._abandon_deadline()]
        if self.screen.attract:
            candidates.append(self._idle_deadline())
        if self._chord_since is not None:
            candidates.append(self._chord_since + CHORD_SECONDS)
        candidates.append(self.hourglass.next_deadline(now))
        if self.storage.problem is not None:
            candidates.append(self._storage_retry_at)
        candidates.append(self.outputs.ring_deadline(self._frame(), now))
        found = [c for c in candidates if c is not None]
        return min(found) if found else None

    def step(self, timeout: float | None = 0.0) -> None:
        """One loop iteration: take the events (waiting at most ``timeout``), run timers, save, draw."""
        for event in self.box.wait_events(timeout):
            if not self.running:
                break
            self._guarded(self._input, event)
        if self.running:
            self._guarded(self._tick, self.clock.now())
            self._retry_storage()
            self.save_ui()
            self.draw()

    def _retry_storage(self) -> None:
        """While storage fails, try it again every STORAGE_RETRY seconds: play goes on by itself."""
        if self.storage.problem is None:
            return
        now = self.clock.now()
        if now >= self._storage_retry_at:
            self._storage_retry_at = now + STORAGE_RETRY
            if self.storage.retry():
                log.warning("storage works again")
                self.draw(force=True)

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

    def save_ui(self) -> None:
        """Persist the current game screen's state (so a restart resumes the same screen and phase)."""
        if self.game_id is None or self.screen is None:
            return
        state = self._ui_snapshot()
        if state is not None and state != self._saved_ui:
            # not fsync'd: a screen state without an action (a cursor move) may be lost by a power cut, never
            # half-written; the actions carry their own state (``act``)
            self.storage.save_ui(self.game_id, state, False)
            self._saved_ui = state

    def _ui_snapshot(self) -> dict[str, Any] | None:
        if self.game_id is None or self.screen is None:
            return None
        # a deep copy: screens mutate their state in place, the saved copy must not follow it
        return copy.deepcopy(self.screen.ui_state())  # type: ignore[no-any-return]

    def _frame(self) -> Frame:
        assert self.screen is not None
        if self.storage.problem is not None:  # nothing can be saved: say so everywhere, show nothing else
            return storage_frame(self.tr, self.storage.problem)
        if self.storage.notice is not None:
            return notice_frame(self.tr, self.storage.notice)
        frame = self.screen.frame()
        if frame.ring_view is None and self.session is not None and getattr(self.screen, "in_game", False):
            frame.ring_view = self.session.public_view()
        now = self.clock.now()
        frame.ring = frame.ring + self.live_effects(now)
        if self.hourglass.state(now) != "idle" and getattr(self.screen, "in_game", False) and not frame.ring:
            frame.ring_pixels = self.hourglass.ring_frame(now, self.box.ring.count)
        return frame

    def draw(self, *, force: bool = False) -> None:
        self.outputs.show(self._frame(), self.clock.now(), force=force)
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
        if getattr(self, "_shut", False):
            return
        self._shut = True
        log.info("stopping (%s): game saved", self.stop_reason or "shutdown")
        if self.notifier is not None:
            self.notifier.stopping()
        try:
            self.save_ui()
        except Exception:  # noqa: BLE001
            log.exception("saving the screen state failed")
        try:
            self.outputs.blank(m.MessageUi(self.tr("paused.title"), (self.tr("paused.line"),)),
                               m.OledTextUi(self.tr("paused.title"), (self.tr("paused.line"),)))
        except Exception:  # noqa: BLE001
            log.exception("showing the paused frame failed")
        self.box.close()
        self.storage.close()

    def request_power(self, what: str) -> None:
        """Safe shutdown or reboot from the admin screen: stop the loop cleanly, then ask the system."""
        self.stop(what)
        if self.power is not None:
            self.power(what)
