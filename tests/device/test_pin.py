"""The admin lock: no default PIN, a salted hash outside the database, a growing wait after wrong PINs (persisted
across restarts), digits shown only to the seat choosing them, admin screens that lapse back to the attract
screen, and `duetbox pin set` for kiosk installs."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from device.app import App  # noqa: E402
from device.commands import pin as pin_command  # noqa: E402
from device.pin import DELAY_BASE, FREE_TRIES, PinStore, delay_after, tries_within  # noqa: E402
from device.render import models as m  # noqa: E402
from device.screens.shell import ADMIN_IDLE, AdminScreen, PinScreen  # noqa: E402
from device.storage import DB_NAME, Storage  # noqa: E402
from hardware.base import InputEvent  # noqa: E402
from hardware.factory import open_box  # noqa: E402


class FakeTime:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    app = App(open_box("mock"), Storage(tmp_path), seed=1)
    app.start()
    yield app
    app.shutdown()


def test_pin_is_stored_hashed_and_salted(tmp_path: Path) -> None:
    a, b = PinStore(tmp_path / "a"), PinStore(tmp_path / "b")
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    a.set("4711")
    b.set("4711")
    text_a, text_b = a.path.read_text(), b.path.read_text()
    assert "4711" not in text_a
    assert json.loads(text_a)["hash"] != json.loads(text_b)["hash"]  # salted
    assert PinStore(tmp_path / "a").check("4711").ok and not PinStore(tmp_path / "a").check("4712").ok


def test_pin_there_is_no_default_pin(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    assert not store.is_set
    assert not store.check("0000").ok and not store.check("").ok


def test_pin_wrong_tries_cost_a_growing_wait_that_survives_a_restart(tmp_path: Path) -> None:
    clock = FakeTime()
    store = PinStore(tmp_path, now=clock)
    store.set("2468")
    for _ in range(FREE_TRIES - 1):
        assert store.check("1111") .wait == 0.0
    assert store.check("1111").wait == DELAY_BASE  # the third wrong one starts the wait
    again = PinStore(tmp_path, now=clock)  # a restart (power cut) keeps the wait
    assert again.wait() == pytest.approx(DELAY_BASE)
    assert not again.check("2468").ok  # even the right PIN waits
    clock.t += DELAY_BASE
    assert again.check("1111").wait == 2 * DELAY_BASE
    clock.t += 2 * DELAY_BASE
    assert again.check("2468").ok and again.failures == 0


def test_pin_lockout_figures() -> None:
    assert [delay_after(n) for n in range(6)] == [0, 0, 0, 30, 60, 120]
    assert tries_within(60) == 4  # a guesser gets 4 tries in the first minute ...
    assert tries_within(3600) == 9  # ... 9 in an hour ...
    assert tries_within(24 * 3600) == 32  # ... 32 a day of 10,000 codes (docs/reliability.md)
    assert tries_within(7 * 24 * 3600) == 176  # ... and 176 a week


def test_pin_kept_when_the_database_is_reset(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    app = App(open_box("mock"), storage)
    app.pins.set("8642")
    app.shutdown()
    (tmp_path / DB_NAME).unlink()  # a database reset (or a corrupt one moved aside)
    again = App(open_box("mock"), Storage(tmp_path))
    assert again.pins.is_set and again.pins.check("8642").ok
    again.shutdown()


def test_pin_damaged_file_locks_admin(tmp_path: Path, app: App) -> None:
    app.pins.path.write_text("{not json")
    store = PinStore(tmp_path)
    assert store.damaged and not store.check("0000").ok
    app.pins = store
    screen = PinScreen(app, None)
    assert screen.mode == "check" and screen.error == app.tr("pin.damaged")
    for _ in range(4):
        screen._enter(0)
    assert app.screen is not None and app.screen.name != "admin"


def test_pin_old_clear_pin_is_moved_out_of_the_database(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    storage.set_setting("pin", "1357")
    app = App(open_box("mock"), storage)
    assert app.pins.check("1357").ok
    assert "1357" not in json.dumps(storage.settings())
    app.shutdown()


def test_pin_old_default_pin_is_not_kept(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    storage.set_setting("pin", "0000")
    app = App(open_box("mock"), storage)
    assert not app.pins.is_set
    app.shutdown()


def press(app: App, name: str) -> None:
    app.box.press(name)
    app.box.release(name)
    app.step(0)


def test_pin_digit_shown_only_on_the_choosing_seats_oled(app: App) -> None:
    app.pins.set("5555")
    app.switch(PinScreen(app, None))
    press(app, "B.up")
    press(app, "B.up")
    frame = app.frame()
    assert isinstance(frame.shared, m.PinUi) and frame.shared.current is None  # dots only for the table
    assert frame.oleds["B"].lines[0] == "2"
    assert "2" not in frame.oleds["A"].lines[0]
    press(app, "B.ok")
    frame = app.frame()
    assert frame.oleds["B"].lines[0] == "*0" and frame.oleds["A"].lines[0] == "*"


def test_pin_first_visit_asks_for_a_pin_twice(app: App) -> None:
    app.switch(PinScreen(app, None))
    assert app.screen.mode == "new" and app.tr("pin.first") in app.frame().oleds["A"].title
    for digit in "24682468":
        for _ in range(int(digit)):
            press(app, "A.up")
        press(app, "A.ok")
    assert app.screen.name == "admin" and app.pins.check("2468").ok


@pytest.mark.parametrize("screen_type", ["pin", "admin"])
def test_pin_admin_screens_lapse_to_the_attract_screen(app: App, screen_type: str) -> None:
    app.pins.set("1111")
    app.switch(PinScreen(app, None) if screen_type == "pin" else AdminScreen(app))
    press(app, "A.up")
    app.box.advance(ADMIN_IDLE - 1)
    app.step(0)
    assert app.screen.name == screen_type
    app.box.advance(1.5)
    app.step(0)
    assert app.screen.name == "attract"
    press(app, "A.ok")
    assert app.screen.name == "menu"  # waking does not reopen admin


def test_pin_pasting_every_code_from_a_keyboard_gets_a_few_tries_a_minute(app: App) -> None:
    app.pins.set("9731")
    screen = PinScreen(app, None)
    app.switch(screen)
    codes = "".join(f"{n:04d}" for n in range(10_000))
    tries_before = app.pins.failures
    # a minute of pasting: the whole list typed at once, then again each 10 s
    for _ in range(6):
        screen.handle(InputEvent(seat=None, button="text", kind="text", time=app.clock.now(), text=codes))
        app.box.advance(10)
        app.step(0)
    assert app.screen.name == "pin"  # 9731 is in the list, yet admin stays shut
    assert app.pins.failures - tries_before <= tries_within(60)


def test_pin_set_command_reads_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("4711\n"))
    assert pin_command.main(["set", "--data-dir", str(tmp_path)]) == 0
    assert PinStore(tmp_path).check("4711").ok
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert pin_command.main(["set", "--data-dir", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
