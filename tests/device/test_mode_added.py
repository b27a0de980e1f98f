"""Adding a mode is adding a descriptor and its screens (issue 25): "Duet 6×6 (test mode)" is written here and
nowhere else, and the box's menu, set-up, deal, storage and navigator take it as they take Duet."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boxscript import mock_app, step

from device import modes, navigation
from device.render import models as m
from device.screens.base import Frame, Host, Screen, move_card
from device.screens.play import start_cursors
from device.screens.shell import MenuScreen, SetupScreen
from engine.board import Board
from hardware.base import DIRECTIONS, InputEvent

SIX = Board(6, 6)


class SixSession:
    """The test mode's session: 36 dealt words and nothing played (a 6×6 key is the test mode's own business)."""

    mode = "duet_6x6_test"
    language = "fr"
    version = 0
    over = False

    def __init__(self, words: tuple[str, ...], rng: random.Random, **options: Any) -> None:
        self.setup: dict[str, Any] = {"format": "duetbox-record/1", "mode": self.mode, "words": list(words),
                                      "options": {k: v for k, v in options.items() if v is not None}}
        self.language = str(options.get("language", "fr"))

    def outcome(self) -> None:
        return None


class SixScreen(Screen):
    """The test mode's screen: one cursor per seat on the 6×6 board."""

    name = "six"

    def __init__(self, host: Host, ui: dict[str, Any] | None = None) -> None:
        super().__init__(host)
        self.board = host.game.mode.board
        self.cursors = start_cursors(self.board)

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.seat is not None and event.button in DIRECTIONS:
            self.cursors[event.seat] = move_card(self.cursors[event.seat], event.button, event.seat,
                                                 self.board.columns, self.board.rows)

    def frame(self) -> Frame:
        return Frame(shared=m.MessageUi("6x6", (str(self.cursors),)))


SIX_MODE = modes.Mode("duet_6x6_test", "Duet 6×6 (test mode)", modes.HELP_DUET, board=SIX, session=SixSession)


@pytest.fixture
def six() -> Iterator[modes.Mode]:
    forget_mode = modes.register(SIX_MODE)
    forget_screens = navigation.add_screens(SIX_MODE, SixScreen, SixScreen)
    yield SIX_MODE
    forget_screens()
    forget_mode()


def test_a_mode_added_as_a_descriptor_is_offered_dealt_saved_and_played(tmp_path: Path,
                                                                        six: modes.Mode) -> None:
    app = mock_app(tmp_path)
    try:
        app.start()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        keys = [item.key for item in menu.items()]
        assert six.label in keys  # the menu's rows come from the registry
        for _ in range(keys.index(six.label)):
            step(app, "press A.down", "release A.down")
        step(app, "press A.ok", "release A.ok")
        setup = app.screen
        assert isinstance(setup, SetupScreen) and setup.mode is six  # the Duet family's set-up, its rows
        step(app, "press A.ok", "release A.ok")  # "start" is preselected
        screen = app.screen
        assert isinstance(screen, SixScreen)  # the navigator found the mode's own screens
        session = app.game.session
        assert isinstance(session, SixSession) and len(session.setup["words"]) == 36 == six.board.cards
        saved = app.storage.current_game()
        assert saved is not None and saved.kind == six.kind and app.game.mode is six
        assert screen.cursors == {"A": 30, "B": 5}  # the board's corners, as Duet's 20 and 4 on 5×5
        for _ in range(7):
            step(app, "press A.right", "release A.right")
        assert screen.cursors["A"] == 35  # the 6×6 board's edge stops the cursor
        step(app, "press B.right", "release B.right")  # seat B sits across the table: its right is A's left
        assert screen.cursors["B"] == 4
    finally:
        app.shutdown()


def test_the_registry_is_back_to_its_own_modes_after_the_test() -> None:
    assert not modes.known(SIX_MODE.kind)
    assert [mode.kind for mode in modes.modes()][:2] == [modes.DUET.kind, modes.MISSION.kind]
