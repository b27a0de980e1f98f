"""Issue 15, "everything a seat must read faces that seat": the shell's whole-screen pages on the shared display
(menu, set-up, settings, statistics, PIN, pause, "what now?" after a game, the mission map, the attract screen
and messages) are printed for seat A in the lower half and turned for seat B in the upper half when the box is
set "table", and once, upright, when it is set "upright". Driven through the real app on the mock box; texts are
read back from a recording surface (each drawn text's box and whether it is turned)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import mock_app  # noqa: E402
from test_shell_help import _lose, press, texts_at  # noqa: E402

from device.app import App  # noqa: E402
from device.render import models as m  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.missions import MapScreen  # noqa: E402
from device.screens.shell import (  # noqa: E402
    AttractScreen,
    MenuScreen,
    PinScreen,
    SettingsScreen,
    SetupScreen,
    StatsScreen,  # noqa: E402
)

SIZES = ((1280, 720), (800, 480))


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    app = mock_app(tmp_path, seed=3, language="fr")
    app.power = lambda what: None
    yield app
    app.shutdown()


def _screen(app: App, name: str) -> Any:
    """The app on the page ``name``; returns the texts a seat must find on it (title and button hint)."""
    if name == "menu":
        app.switch(MenuScreen(app))
    elif name == "setup":
        app.switch(SetupScreen(app, "duet", MenuScreen(app)))
    elif name == "settings":
        app.switch(SettingsScreen(app, MenuScreen(app)))
    elif name == "stats":
        app.switch(StatsScreen(app, MenuScreen(app)))
    elif name == "pin":
        app.switch(PinScreen(app, MenuScreen(app)))
    elif name == "pause":
        flows.start_duet(app, "duet", pack="fr", mission=None, sheet=None)
        press(app, "menu")
        assert app.screen.name == "pause"
    elif name == "again":
        flows.start_duet(app, "duet", pack="fr", mission=None, sheet=None)
        _lose(app)
        assert app.screen.name == "after_game"
    elif name == "map":
        app.switch(MapScreen(app, 0))
    elif name == "attract":
        app.switch(AttractScreen(app, MenuScreen(app)))
    shared = app.frame().shared
    if isinstance(shared, m.MapUi):
        return shared, [shared.hint, shared.title]
    if isinstance(shared, m.AttractUi):
        return shared, [shared.prompt]
    return shared, [shared.title, shared.hint]


PAGES = ["menu", "setup", "settings", "stats", "pin", "pause", "again", "map", "attract"]


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("size", SIZES, ids=["1280x720", "800x480"])
def test_each_page_faces_both_seats_at_a_table(app: App, name: str, size: tuple[int, int]) -> None:
    shared, musts = _screen(app, name)
    assert shared.orientation == "table"
    texts = texts_at(app.frame(), size)
    middle = size[1] // 2
    for must in musts:
        assert must, f"{name}: nothing to find"
        drawn = [t for t in texts if t.text == must]
        assert {t.turned for t in drawn} == {False, True}, (name, must, [(t.text, t.turned) for t in drawn])
        for t in drawn:  # seat A reads the lower half upright, seat B the upper half turned
            top, height = t.box[1], t.box[3]
            assert (top + height // 2 > middle) == (not t.turned), (name, must, t.box, t.turned)


@pytest.mark.parametrize("name", ["menu", "setup", "settings", "stats", "pause", "again"])
def test_rows_are_printed_for_each_seat(app: App, name: str) -> None:
    """The selected row (what OK will do) is read by both seats."""
    shared, _ = _screen(app, name)
    rows = getattr(shared, "items", None) or getattr(shared, "rows", None)
    first = rows[0].label if rows else shared.lines[0]  # statistics of a new box: "no game yet"
    texts = texts_at(app.frame(), (800, 480))
    assert {t.turned for t in texts if t.text == first} == {False, True}, (name, first)


@pytest.mark.parametrize("name", PAGES)
def test_upright_box_prints_each_page_once(app: App, name: str) -> None:
    app.settings.set("orientation", "upright")
    shared, musts = _screen(app, name)
    assert shared.orientation == "upright"
    texts = texts_at(app.frame(), (1280, 720))
    for must in musts:
        drawn = [t for t in texts if t.text == must]
        assert len(drawn) >= 1 and not any(t.turned for t in drawn), (name, must)


def test_solo_pages_for_seat_a_alone_are_upright(app: App) -> None:
    """Solo: only seat A plays, so its set-up and "what I meant" pages get the whole screen, upright, and every
    text on them is upright."""
    from device.screens.solo import MeantScreen, SoloSetupScreen

    for screen in (SoloSetupScreen(app, MenuScreen(app)), MeantScreen(app, ["A : FARINE 2", "B : SALLE 3"], None)):  # type: ignore[arg-type]
        app.switch(screen)
        frame = app.frame()
        assert frame.shared.orientation == "upright"  # type: ignore[union-attr]
        texts = texts_at(frame, (800, 480))
        assert texts and not any(t.turned for t in texts)
