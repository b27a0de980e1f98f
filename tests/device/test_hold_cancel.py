"""A pending hold never outlives its screen or its card (issue 12).

The defect: a 0.2 s tap of OK on a card, then MENU → Continue, fired the guess on return (a tap could hit the
assassin); the same with STOP, in classic, and in hot-seat, where the key also stayed on the shared display."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import make_record, mock_app, step  # noqa: E402
from test_app_classic import _record as classic_record  # noqa: E402

from device.app import App  # noqa: E402
from device.render import models as m  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.base import move_card  # noqa: E402
from engine import classic as cl  # noqa: E402
from engine.actions import Clue, Guess  # noqa: E402


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    app = mock_app(tmp_path, seed=5)
    yield app
    app.shutdown()


def _moves(app: App) -> list[dict[str, Any]]:
    assert app.game.id is not None
    return app.storage.actions(app.game.id)




def _menu_continue(app: App, seat: str) -> None:
    """A short press of MENU (the pause menu), then OK on its first row, "Continue"."""
    game = app.screen
    step(app, "press menu", "release menu")
    assert app.screen is not game and app.screen.name == "pause"
    step(app, f"release {seat}.ok", f"release {seat}.stop", advance=1.0)  # the tapped button comes up
    app.box.press(f"{seat}.ok")  # "Continue", a second after the tap: the tap's hold time is long past
    app.box.advance(0.1)
    app.box.release(f"{seat}.ok")
    app.step(0)
    assert app.screen is game


def _one_green(app: App) -> None:
    """B finds one of A's agents (so STOP is allowed), then B's cursor is on another card still hidden."""
    key = app.game.session.state.key.a
    green = [i for i, c in enumerate(key) if c == "G"]
    app.game.act(Guess("B", green[0]), app.game.session.version)
    app.screen.cursors["B"] = green[1]


def _duet_guessing(app: App) -> str:
    app.start(make_record(31, actions=[{"type": "clue", "seat": "A", "word": None, "number": 3}]))
    _one_green(app)
    return "B"


def _hotseat_guessing(app: App) -> str:
    app.start()
    flows.start_duet(app, "hotseat", pack="en")
    app.game.act(Clue("A", None, 3), app.game.session.version)
    _one_green(app)
    return "B"


def _duet_pictures_guessing(app: App) -> str:
    app.start()
    flows.start_duet(app, "duet_pictures")
    app.game.act(Clue("A", None, 3), app.game.session.version)
    _one_green(app)
    return "B"


def _classic_guessing(kind: str) -> Any:
    def start(app: App) -> str:
        record = classic_record(kind, "standard", 9)
        app.start(record)
        team = app.game.session.public_view().turn
        app.game.act(cl.TeamClue(team, None, 3, True), app.game.session.version)
        mine = [i for i, c in enumerate(record["key"]) if c == team]
        app.game.act(cl.TeamGuess(team, mine[0]), app.game.session.version)  # one found: STOP is allowed
        app.screen.cursors["B"] = mine[1]
        return "B"  # the guessers of both teams use seat B's controls
    return start


GAMES = {"duet": _duet_guessing, "hotseat": _hotseat_guessing, "duet_pictures": _duet_pictures_guessing,
         "classic": _classic_guessing("classic"), "pictures": _classic_guessing("pictures")}


@pytest.mark.parametrize("button", ["ok", "stop"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_tap_then_menu_continue_makes_no_move(app: App, game: str, button: str) -> None:
    seat = GAMES[game](app)
    before = len(_moves(app))
    step(app, f"press {seat}.{button}", advance=0.2)  # a tap: 0.2 s, well short of the hold
    _menu_continue(app, seat)
    app.box.advance(2.0)
    app.step(0)
    app.box.advance(2.0)
    app.step(0)
    assert len(_moves(app)) == before
    assert app.screen is not None and app.screen.name in ("play", "classic")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_real_hold_after_continue_still_plays(app: App, game: str) -> None:
    # the cancelled tap does not block the next, real hold: it plays once
    seat = GAMES[game](app)
    before = len(_moves(app))
    step(app, f"press {seat}.ok", advance=0.2)
    _menu_continue(app, seat)
    step(app, f"press {seat}.ok", advance=0.7)
    step(app, f"release {seat}.ok")
    assert len(_moves(app)) == before + 1
    assert _moves(app)[-1]["type"] == "guess"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_moving_the_cursor_during_a_hold_cancels_it(app: App, game: str) -> None:
    seat = GAMES[game](app)
    before = len(_moves(app))
    cursor = app.screen.cursors[seat]
    view = app.game.session.public_view()
    size = getattr(view, "columns", 5), getattr(view, "rows", 5)
    way = next(b for b in ("left", "right") if move_card(cursor, b, seat, *size) != cursor)
    step(app, f"press {seat}.ok", advance=0.3)
    step(app, f"press {seat}.{way}", f"release {seat}.{way}", advance=1.0)  # OK still down, cursor moved
    assert app.screen.cursors[seat] != cursor
    step(app, f"release {seat}.ok", advance=1.0)
    assert len(_moves(app)) == before


def test_a_touch_moving_the_cursor_cancels_the_hold(app: App) -> None:
    _duet_guessing(app)
    before = len(_moves(app))
    cursor = app.screen.cursors["B"]
    assert (cursor + 1) % 25 not in [a.get("card") for a in _moves(app)]
    step(app, "press B.ok", advance=0.3)
    app.box.touch((cursor + 1) % 25)
    step(app, advance=1.0)
    step(app, "release B.ok")
    assert len(_moves(app)) == before
    assert app.screen.cursors["B"] == (cursor + 1) % 25


def test_a_hold_on_the_same_card_touched_again_is_kept(app: App) -> None:
    # a touch on the card the cursor is already on does not move it: the hold goes on and plays
    _duet_guessing(app)
    before = len(_moves(app))
    cursor = app.screen.cursors["B"]
    step(app, "press B.ok", advance=0.3)
    app.box.touch(cursor)
    step(app, advance=0.5)
    assert len(_moves(app)) == before + 1


# -- hot-seat: the key never stays on the shared display ----------------------------------------------------

def _hotseat_key_shown(app: App) -> None:
    app.start()
    flows.start_duet(app, "hotseat", pack="en")
    step(app, "press A.ok", advance=0.7)
    frame = app.screen.frame()
    assert isinstance(frame.shared, m.HotSeatUi) and frame.shared.stage == "key" and frame.shared.key


def _leave_by_pause(app: App) -> None:
    step(app, "press menu", "release menu")
    assert app.screen.name == "pause"
    step(app, "release A.ok", advance=1.0)
    step(app, "press B.ok", "release B.ok")


def _leave_by_attract(app: App) -> None:
    app.box.advance(float(app.settings["idle_minutes"]) * 60 + 1)
    app.step(0)
    assert app.screen.name == "attract"
    step(app, "release A.ok")
    step(app, "press B.ok", "release B.ok")


def _leave_by_admin_chord(app: App) -> None:
    step(app, "press menu", "press A.stop", "press B.stop", advance=5.5)  # A still holds OK
    assert app.screen.name == "pin"
    step(app, "release menu", "release A.stop", "release B.stop", "release A.ok", advance=1.0)
    step(app, "press B.stop", "release B.stop")  # back to the game


@pytest.mark.parametrize("leave", [_leave_by_pause, _leave_by_attract, _leave_by_admin_chord])
def test_hotseat_key_hidden_after_every_screen_change(app: App, leave: Any) -> None:
    _hotseat_key_shown(app)
    game = app.screen
    shown: list[Any] = []
    original = app.outputs.show

    def spy(frame: Any, now: float, *, force: bool = False) -> None:
        if shown or app.screen is not game:  # from the first frame of another screen on
            shown.append(frame.shared)
        original(frame, now, force=force)

    app.outputs.show = spy  # type: ignore[method-assign]
    leave(app)
    assert app.screen is game
    app.step(0)
    # no key from the first frame of the other screen on: not over it, not back in the game
    assert shown and not any(isinstance(s, m.HotSeatUi) and s.key for s in shown)
    frame = app.screen.frame()
    assert isinstance(frame.shared, m.HotSeatUi) and frame.shared.stage == "privacy" and frame.shared.key is None
    # releasing OK in the game after the return does not open the clue entry either (the key was not "seen")
    step(app, "press A.ok", "release A.ok")
    assert app.screen.ui_state()["entry"] is None


def test_hotseat_touch_key_hidden_after_a_screen_change(app: App) -> None:
    app.start()
    flows.start_duet(app, "hotseat", pack="en")
    app.box.touch_down(0)  # a finger held on the privacy screen
    _touch_step(app, advance=0.7)
    assert app.screen.frame().shared.stage == "key"
    step(app, "press menu", "release menu")
    step(app, "press B.ok", "release B.ok")
    frame = app.screen.frame()
    assert frame.shared.stage == "privacy" and frame.shared.key is None


# -- hot-seat: a guess by touch needs the hold too (issue 13) -----------------------------------------------

def _touch_step(app: App, *, advance: float = 0.0) -> None:
    app.step(0)
    if advance:
        app.box.advance(advance)
        app.step(0)


def test_hotseat_a_tap_on_the_chosen_card_does_not_guess(app: App) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch(card)  # down and up at once: the old one-touch guess
    _touch_step(app, advance=2.0)
    _touch_step(app, advance=2.0)
    assert len(_moves(app)) == before
    assert app.screen.cursors["B"] == card


def test_hotseat_a_finger_held_on_the_chosen_card_guesses_it_after_the_hold(app: App) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch_down(card)
    _touch_step(app, advance=0.3)
    assert len(_moves(app)) == before  # not yet: the hold fills as it does for OK
    hold = app.screen.frame().shared.hold
    assert isinstance(hold, m.Hold) and hold.card == card and hold.seat == "B" and 0.4 < hold.fraction < 0.6
    assert any(f.seat == "B" and f.fraction > 0.4 for f in app.screen.frame().ring)  # the ring fills too
    _touch_step(app, advance=0.35)
    assert len(_moves(app)) == before + 1
    assert _moves(app)[-1] == {**_moves(app)[-1], "type": "guess", "card": card}
    app.box.touch_up(card)
    _touch_step(app, advance=1.0)
    assert len(_moves(app)) == before + 1  # lifting afterwards does nothing more


def test_hotseat_a_first_touch_only_chooses_the_card(app: App) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    other_card = next(i for i in range(25) if i != card and not app.game.session.public_view().cards[i].agent
                      and i not in [a.get("card") for a in _moves(app)])
    app.box.touch_down(other_card)  # a finger held on another card: it becomes the chosen one, no hold yet
    _touch_step(app, advance=1.0)
    assert app.screen.cursors["B"] == other_card and len(_moves(app)) == before
    app.box.touch_up(other_card)
    app.box.touch_down(other_card)  # held on it again: now it guesses
    _touch_step(app, advance=0.7)
    assert len(_moves(app)) == before + 1 and _moves(app)[-1]["card"] == other_card


def test_hotseat_lifting_the_finger_early_cancels_and_says_hold(app: App) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch_down(card)
    _touch_step(app, advance=0.4)
    app.box.touch_up(card)
    _touch_step(app)
    assert app.screen.frame().shared.hold is None
    assert app.screen.frame().shared.banner == app.tr("guide.hold_touch")
    _touch_step(app, advance=2.0)
    assert len(_moves(app)) == before


@pytest.mark.parametrize("onto", ["other card", "off the grid"])
def test_hotseat_sliding_off_the_card_cancels(app: App, onto: str) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch_down(card)
    _touch_step(app, advance=0.3)
    app.box.drag((card + 1) % 25 if onto == "other card" else None)
    _touch_step(app, advance=1.0)
    app.box.drag(card)  # back on the card: the cancelled hold does not come back
    _touch_step(app, advance=1.0)
    app.box.touch_up()
    _touch_step(app, advance=1.0)
    assert len(_moves(app)) == before
    assert app.screen.cursors["B"] == card  # sliding does not move the cursor either


def test_hotseat_a_drag_within_the_card_keeps_the_hold(app: App) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch_down(card)
    _touch_step(app, advance=0.3)
    app.box.drag(card)
    _touch_step(app, advance=0.35)
    assert len(_moves(app)) == before + 1


def test_hotseat_a_finger_hold_ends_with_the_screen(app: App) -> None:
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch_down(card)
    _touch_step(app, advance=0.2)
    _menu_continue(app, "B")
    _touch_step(app, advance=2.0)
    app.box.touch_up(card)
    _touch_step(app, advance=2.0)
    assert len(_moves(app)) == before


def test_hotseat_releasing_ok_does_not_end_a_finger_hold(app: App) -> None:
    # the finger's hold is the finger's: a stray OK tap meanwhile neither ends nor doubles it
    _hotseat_guessing(app)
    before = len(_moves(app))
    card = app.screen.cursors["B"]
    app.box.touch_down(card)
    _touch_step(app, advance=0.2)
    step(app, "press B.ok", "release B.ok")
    hold = app.screen.holds.get("B")
    if hold is not None and hold.by == "button":  # OK's press took the hold over: its release ended it
        pytest.fail("OK replaced the finger's hold")
    _touch_step(app, advance=0.5)
    assert len(_moves(app)) == before + 1
