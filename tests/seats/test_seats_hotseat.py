"""Hot-seat from both chairs: the clue giver's key is on the shared display only while OK or a finger is held
(every tap, touch, release, timeout and screen change checked at every frame by the harness), and a whole turn
is played with the buttons, then with the touch screen alone."""

from __future__ import annotations

from collections.abc import Callable

from seatseye import Table


def _hotseat(make: Callable[..., Table], **kwargs: object) -> Table:
    t = make(**kwargs)
    t.choose(t.tr("menu.hotseat"))
    t.choose(t.tr("setup.start"))
    assert type(t.frame().shared).__name__ == "HotSeatUi"
    return t


def _stage(t: Table) -> str:
    return str(getattr(t.frame().shared, "stage", type(t.frame().shared).__name__))


def test_seats_hotseat_a_tap_never_bares_the_key(table: Callable[..., Table]) -> None:
    t = _hotseat(table)
    t.tap(3).wait(2.0)
    t.tap(3).wait(1.0)
    assert _stage(t) == "privacy"
    t.ok()


def test_seats_hotseat_key_only_while_a_finger_is_held(table: Callable[..., Table]) -> None:
    t = _hotseat(table)
    t.touch_down(7).wait(1.0)
    assert _stage(t) == "key"  # held long enough: seat A sees its key
    t.touch_up(7)
    assert _stage(t) != "key"  # lifted: hidden at once, the clue entry is open
    assert t.screen.entry is not None and t.screen.entry.seat == "A"
    t.ok()


def test_seats_hotseat_key_only_while_ok_is_held(table: Callable[..., Table]) -> None:
    t = _hotseat(table)
    t.down_("A.ok").wait(1.0)
    assert _stage(t) == "key"
    t.up("A.ok")
    assert _stage(t) != "key"
    t.ok()


def test_seats_hotseat_key_hidden_after_a_timeout(table: Callable[..., Table]) -> None:
    from device.screens.play import KEY_SECONDS

    t = _hotseat(table)
    t.touch_down(7).wait(KEY_SECONDS + 2.0)  # a forgotten finger (or a cup on the glass)
    assert _stage(t) != "key"
    t.touch_up(7)
    t.ok()


def test_seats_hotseat_key_hidden_on_a_screen_change(table: Callable[..., Table]) -> None:
    t = _hotseat(table)
    t.down_("A.ok").wait(1.0)
    t.press("menu")  # the pause menu while OK is still held
    assert type(t.screen).__name__ == "PauseScreen"
    t.choose(t.tr("pause.resume"), "B")
    t.wait(1.0)
    assert _stage(t) != "key"
    t.up("A.ok")
    t.ok()


def test_seats_hotseat_a_turn_with_buttons_then_by_touch_alone(table: Callable[..., Table]) -> None:
    t = _hotseat(table)
    t.hold("A.ok", 0.8)  # the key, then the entry on the display
    t.press("A.up").press("A.ok")  # number 2 (starts at 1)
    t.type("A", "\n")  # no word
    assert t.app.game.session.public_view().phase == "guess"
    view = t.app.game.session.public_view()
    card = next(c.index for c in view.cards if not c.agent)
    t.tap(card)  # chooses the card
    t.touch_hold(card, 0.8)  # a finger held on it guesses
    assert len(t.app.game.session.public_view().clues) == 1
    t.ok()
