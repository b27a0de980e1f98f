"""Screens against a fake host (issue 12): no App, no box, no loop — only what a screen may ask for."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import cards, make_record  # noqa: E402

from device.game import GameController  # noqa: E402
from device.i18n import Translator  # noqa: E402
from device.pin import PinStore  # noqa: E402
from device.preferences import Settings  # noqa: E402
from device.screens.base import Screen  # noqa: E402
from device.screens.play import DuetPlayScreen, GameOverScreen  # noqa: E402
from device.screens.shell import MenuScreen  # noqa: E402
from device.services.audio import Audio  # noqa: E402
from device.storage import Storage  # noqa: E402
from engine.session import session_from_record  # noqa: E402
from hardware.base import InputEvent  # noqa: E402
from hardware.mock import FakeClock  # noqa: E402


class FakeNav:
    def __init__(self, host: FakeHost) -> None:
        self.host = host
        self.calls: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kw: self.calls.append((name, args))


class FakeHost:
    def __init__(self, tmp: Path) -> None:
        self.clock = FakeClock()
        self.storage = Storage(tmp / "data")
        self.rng = random.Random(1)
        self.settings = Settings(self.storage)
        self.audio = Audio(self.settings)
        self.tr = Translator("en")
        self.pins = PinStore(self.storage.directory)
        self.nav = FakeNav(self)
        self.screen: Screen | None = None
        self.display_size = (1280, 720)
        self.game = GameController(self.storage, self.settings, self.clock, show_game=lambda ui: None,
                                   ui_state=lambda: self.screen.ui_state() if self.screen else None,
                                   play_cue=lambda cue: None)
        self.woke = 0

    def switch(self, screen: Screen) -> None:
        if self.screen is not None:
            self.screen.exit()
        self.screen = screen
        screen.enter()

    def woken(self) -> None:
        self.woke += 1

    def request_power(self, what: str) -> None:
        raise AssertionError(what)


def _event(kind: str, name: str, t: float) -> InputEvent:
    seat, _, button = name.rpartition(".")
    return InputEvent(seat=seat or None, button=button, kind=kind, time=t)  # type: ignore[arg-type]


def _guessing(host: FakeHost) -> dict[str, Any]:
    record = make_record(31, actions=[{"type": "clue", "seat": "A", "word": None, "number": 2}])
    session, actions = session_from_record(record, "en")
    host.game.begin(session, kind="duet")
    for item in actions:
        host.game.act(session.action_from_dict(item), session.version, quiet=True)
    return record


def test_play_screen_hold_fires_after_hold_seconds(tmp_path: Path) -> None:
    host = FakeHost(tmp_path)
    record = _guessing(host)
    screen = DuetPlayScreen(host)
    host.switch(screen)
    green = cards(record, "A", "G")[0]
    screen.cursors["B"] = green
    t = host.clock.now()
    screen.handle(_event("press", "B.ok", t))
    screen.tick(t + 0.3)
    assert host.game.session is not None and host.game.session.version == 1  # not yet
    screen.tick(t + 0.61)
    assert host.game.session.version == 2


def test_play_screen_exit_cancels_every_hold(tmp_path: Path) -> None:
    host = FakeHost(tmp_path)
    _guessing(host)
    screen = DuetPlayScreen(host)
    host.switch(screen)
    t = host.clock.now()
    screen.handle(_event("press", "B.ok", t))
    assert "B" in screen.holds
    host.switch(MenuScreen(host))  # any other screen
    assert not screen.holds
    host.switch(screen)
    screen.tick(t + 5)
    assert host.game.session is not None and host.game.session.version == 1  # no move


def test_play_screen_cursor_leaving_the_card_cancels_the_hold(tmp_path: Path) -> None:
    host = FakeHost(tmp_path)
    _guessing(host)
    screen = DuetPlayScreen(host)
    host.switch(screen)
    screen.cursors["B"] = 12
    t = host.clock.now()
    screen.handle(_event("press", "B.ok", t))
    screen.handle(_event("press", "B.left", t + 0.1))
    assert "B" not in screen.holds and screen.cursors["B"] != 12
    screen.tick(t + 5)
    assert host.game.session is not None and host.game.session.version == 1


def test_game_over_leaves_through_the_navigator(tmp_path: Path) -> None:
    host = FakeHost(tmp_path)
    record = _guessing(host)
    session = host.game.session
    assert session is not None
    assassin = [i for i, c in enumerate(record["key"]["A"]) if c == "X"][0]
    host.game.act(session.action_from_dict({"type": "guess", "seat": "B", "card": assassin}), session.version)
    assert session.over
    screen = GameOverScreen(host)
    host.switch(screen)
    t = host.clock.now()
    screen.handle(_event("press", "A.ok", t))
    screen.handle(_event("press", "B.ok", t))
    assert screen.revealed
    screen.handle(_event("press", "A.ok", t))
    # the navigator closes the game and offers "same settings again" (device/screens/again.py)
    assert host.nav.calls == [("after_game", ())]


def test_menu_reads_storage_once_per_visit_not_per_frame(tmp_path: Path) -> None:
    host = FakeHost(tmp_path)
    calls = []
    original = host.storage.current_game
    host.storage.current_game = lambda: calls.append(1) or original()  # type: ignore[method-assign]
    menu = MenuScreen(host)
    host.switch(menu)
    for _ in range(5):
        menu.frame()
    assert len(calls) == 1
    host.switch(MenuScreen(host))  # another menu's visit reads once too (on enter)
    assert len(calls) == 2
    host.switch(menu)  # a new visit
    menu.frame()
    assert len(calls) == 3
