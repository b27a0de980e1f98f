"""Every mode played from the chairs, at 1280x720 and 800x480: Duet, Duet with pictures, the mission map, classic,
Pictures, Solo (with the tiny partner of tests/partner), and Duet on a box set upright. The harness checks every
frame (secrecy, what each seat reads upright, where each joystick moves its cursor, what the hints name); each
test then checks what that mode must have reached."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from seatseye import Table

TESTS = Path(__file__).resolve().parents[1]


def _start(t: Table, mode: str, *, keys: tuple[str, ...] = ()) -> Table:
    t.choose(t.tr(mode))
    for key in keys:
        t.press(key)
    t.choose(t.tr("setup.start"))
    return t


def _joystick_round(t: Table, seat: str) -> None:
    """Every direction of ``seat``'s joystick, twice each (the harness checks where the cursor goes)."""
    for button in ("up", "up", "left", "left", "down", "down", "right", "right"):
        t.press(f"{seat}.{button}")


def _duet_turn(t: Table, giver: str = "A") -> None:
    """``giver`` gives a spoken clue of 2 on its OLED; the other seat tries its joystick, presses STOP short (the
    hint must name STOP), then holds OK on a card that is not a green of the giver's side."""
    guesser = "B" if giver == "A" else "A"
    _joystick_round(t, guesser)
    t.press(f"{giver}.ok").press(f"{giver}.up").press(f"{giver}.ok")
    t.type(giver, "\n")
    view = t.app.game.session.public_view()
    assert view.phase == "guess", view.phase
    _joystick_round(t, guesser)
    t.hold(f"{guesser}.stop", 0.2)  # too short (and no guess yet)
    t.hold(f"{guesser}.ok", 0.2)  # too short: nothing happens, the hint names OK
    key = t.app.game.session.seat_view(giver).key
    green = next(i for i, c in enumerate(key) if c == "G")
    t.screen.cursors[guesser] = green  # (the joystick was checked above)
    t.hold(f"{guesser}.ok", 0.8)  # an agent: the guesser may go on or stop
    t.wait(1.0)
    assert t.app.game.session.public_view().can_stop
    t.hold(f"{guesser}.stop", 0.2)  # too short: the hint names STOP
    t.hold(f"{guesser}.stop", 0.8)  # the turn ends
    t.wait(1.0)


def _pause_rows(t: Table) -> None:
    """MENU, every row of the pause menu chosen in turn (a disabled one must say why), back to the game."""
    t.press("menu")
    for _ in t.frame().shared.items:
        t.press("B.down")
    t.choose(t.tr("pause.resume"), "B")


def _leave_resume_abandon(t: Table, mode: str) -> None:
    """Menu (game kept): the menu's resume row names the mode; a new game asks first, naming the saved one;
    abandoning shows the keys before the menu."""
    t.press("menu")
    t.choose(t.tr("pause.leave"))
    first = t.frame().shared.items[0]
    assert first.label == t.tr("menu.resume") and first.value and t.tr(mode) in first.value, first
    t.choose(t.tr("menu.duet"))
    assert t.tr(mode) in t.frame().shared.title, t.frame().shared.title  # "Saved game: Duet"
    t.press("A.ok")  # keep the game
    t.choose(t.tr("menu.resume"))
    t.press("menu")
    t.choose(t.tr("pause.abandon"))
    t.press("A.right").press("A.ok")  # yes, abandon
    shown = t.frame().shared
    keys = getattr(shown, "keys", None) or getattr(shown, "cards", None)
    assert keys, type(shown).__name__  # both keys (the classic key) before the menu
    t.press("A.ok")
    assert type(t.screen).__name__ == "MenuScreen"


@pytest.mark.parametrize("mode", ["menu.duet", "menu.duet_pictures"])
def test_seats_duet(table: Callable[..., Table], mode: str) -> None:
    t = _start(table(), mode)
    _duet_turn(t)
    _pause_rows(t)
    assert len(t.app.game.session.public_view().clues) == 1
    _leave_resume_abandon(t, mode)
    t.ok()


def test_seats_duet_upright(table: Callable[..., Table]) -> None:
    t = _start(table(settings={"orientation": "upright"}), "menu.duet")
    _duet_turn(t)
    t.ok()


def test_seats_mission(table: Callable[..., Table]) -> None:
    t = table()
    t.choose(t.tr("menu.missions"))
    t.press("A.ok")  # a new team sheet
    t.type("A", "les as\n")
    t.press("A.ok")  # the first city
    assert type(t.screen).__name__ == "DuetPlayScreen", type(t.screen).__name__
    _duet_turn(t)
    t.ok()


def _classic_turn(t: Table) -> None:
    _joystick_round(t, "B")
    t.press("A.ok").press("A.up").press("A.ok")
    t.type("A", "zebra\n")
    if t.app.game.session.public_view().phase != "guess":  # refused (a word of the table): accept it
        t.press("A.left").press("A.ok")
    assert t.app.game.session.public_view().phase == "guess"
    _joystick_round(t, "B")
    t.hold("B.stop", 0.2)
    key = t.app.game.session.spymaster_view().key
    team = t.app.game.session.public_view().turn
    t.screen.cursors["B"] = next(i for i, c in enumerate(key) if c == team)
    t.hold("B.ok", 0.2)  # too short: the hint names OK
    t.hold("B.ok", 0.8)  # one of the team's cards
    t.wait(1.0)
    t.hold("B.stop", 0.2)  # too short: the hint names STOP
    t.hold("B.stop", 0.8)
    t.wait(1.0)


@pytest.mark.parametrize("mode", ["menu.classic", "menu.pictures"])
def test_seats_classic(table: Callable[..., Table], mode: str) -> None:
    t = _start(table(), mode)
    _pause_rows(t)  # in the clue phase: the penalty row is disabled, and says why
    _classic_turn(t)
    _leave_resume_abandon(t, mode)
    t.ok()


def test_seats_solo(table: Callable[..., Table], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(TESTS / "device"))
    sys.path.insert(0, str(TESTS / "partner"))
    from test_solo import export_tiny

    monkeypatch.setenv("DUETBOX_DATA_DIR", str(tmp_path / "nowhere"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    t = table(language="fr", prepare=export_tiny)
    t.choose(t.tr("menu.solo"))
    t.choose(t.tr("setup.start"))
    assert "Solo" in type(t.screen).__name__, type(t.screen).__name__
    t.wait(3.0)  # the partner's first move
    t.ok()
