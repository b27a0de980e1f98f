"""The app loop on the mock box: stale and double presses, hold-to-confirm, admin chord, clean shutdown."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import cards, make_record  # noqa: E402
from storage_faults import Faults  # noqa: E402

from device.app import App  # noqa: E402
from device.storage import Storage  # noqa: E402
from engine.actions import Guess  # noqa: E402
from engine.errors import StaleAction  # noqa: E402
from hardware.factory import open_box  # noqa: E402


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    box = open_box("mock")
    storage = Storage(tmp_path / "data")
    app = App(box, storage, seed=5)
    yield app
    app.shutdown()


def _start_guessing(app: App) -> dict:
    record = make_record(31, actions=[{"type": "clue", "seat": "A", "word": None, "number": 2}])
    app.start(record)
    return record


def test_app_stale_action_is_refused_and_not_stored(app: App) -> None:
    record = _start_guessing(app)
    green = cards(record, "A", "G")[0]
    version = app.game.session.version
    app.game.act(Guess("B", green), version)
    with pytest.raises(StaleAction):
        app.game.act(Guess("B", cards(record, "A", "G")[1]), version)  # made against the old state
    assert len(app.storage.actions(app.game.id)) == 2  # the clue and one guess


def test_app_double_hold_applies_once(app: App) -> None:
    record = _start_guessing(app)
    box = app.box
    green = cards(record, "A", "G")[0]
    app.screen.cursors["B"] = green
    # two presses of B's OK on the same card, both made against the same state
    box.press("B.ok")
    box.release("B.ok")
    box.press("B.ok")
    box.advance(0.7)
    box.release("B.ok")
    app.step(0)
    box.press("B.ok")
    box.advance(0.7)
    app.step(0)
    box.release("B.ok")
    app.step(0)
    guesses = [a for a in app.storage.actions(app.game.id) if a["type"] == "guess"]
    assert guesses == [{"type": "guess", "seat": "B", "card": green}]


def test_app_hold_released_early_does_nothing(app: App) -> None:
    _start_guessing(app)
    app.box.hold("B.ok", 300)
    app.step(0)
    app.box.advance(1)
    app.step(0)
    assert len(app.storage.actions(app.game.id)) == 1


def test_app_hold_fires_at_its_deadline(app: App) -> None:
    _start_guessing(app)
    app.box.press("B.ok")
    app.step(0)
    assert app.deadline() is not None and app.deadline() <= app.clock.now() + 0.6
    app.box.advance(0.61)
    app.step(0)
    assert len(app.storage.actions(app.game.id)) == 2


def test_app_admin_chord_then_pin(app: App) -> None:
    app.start()
    box = app.box
    for name in ("menu", "A.stop", "B.stop"):
        box.press(name)
    app.step(0)
    box.advance(5.1)
    app.step(0)
    assert app.screen.name == "pin" and app.screen.mode == "new"  # no default PIN: the first visit sets one
    for _ in range(8):
        box.press("A.ok")  # PIN 0000, twice
    app.step(0)
    assert app.screen.name == "admin"
    assert app.pins.check("0000").ok


def test_app_short_chord_is_not_admin(app: App) -> None:
    app.start()
    for name in ("menu", "A.stop", "B.stop"):
        app.box.press(name)
    app.step(0)
    app.box.advance(2)
    for name in ("menu", "A.stop", "B.stop"):
        app.box.release(name)
    app.step(0)
    app.box.advance(5)
    app.step(0)
    assert app.screen.name != "pin"


def test_app_idle_brings_attract_and_a_press_returns(app: App) -> None:
    app.start()
    app.box.advance(5 * 60 + 1)
    app.step(0)
    assert app.screen.name == "attract"
    app.box.press("A.ok")
    app.step(0)
    assert app.screen.name == "menu"


def test_app_shutdown_leaves_paused_frame_and_closes(tmp_path: Path) -> None:
    box = open_box("mock")
    app = App(box, Storage(tmp_path / "d"), seed=1)
    app.start()
    app.shutdown()
    assert box.closed
    assert box.ring.frames[-1] == tuple((0, 0, 0) for _ in range(box.ring.count))


def test_app_quit_event_stops_run(tmp_path: Path) -> None:
    box = open_box("mock")
    app = App(box, Storage(tmp_path / "d"), seed=1)
    app.start()
    box.quit()
    assert app.run() == 0
    assert box.closed and app.stop_reason == "quit"


def test_app_menu_short_press_pauses_long_press_turns_hourglass(app: App) -> None:
    _start_guessing(app)
    box = app.box
    box.hold("menu", 100)
    app.step(0)
    assert app.screen.name == "pause"
    box.press("menu")  # back to the game
    app.step(0)
    assert app.screen.name == "play"
    box.hold("menu", 800)
    app.step(0)
    assert app.screen.name == "play"
    assert app.game.hourglass.state(app.clock.now()) == "running"
    assert "◷" in app.screen.frame().shared.message
    frame = app.frame()
    assert frame.ring_pixels is not None
    box.advance(61)
    app.step(0)
    assert app.game.hourglass.state(app.clock.now()) == "expired"


def test_app_hourglass_resets_on_new_turn(app: App) -> None:
    record = _start_guessing(app)
    app.game.toggle_hourglass("start")
    bystander = cards(record, "A", "N")[0]
    app.game.act(Guess("B", bystander), app.game.session.version)  # the turn ends
    assert app.game.hourglass.state(app.clock.now()) == "idle"


def test_app_action_not_saved_is_not_applied(app: App) -> None:
    from device.app import NotSaved

    record = _start_guessing(app)
    version = app.game.session.version
    faults = Faults()
    app.storage.close()
    app.storage = Storage(app.storage.directory, factory=faults.factory())
    faults.mode = "eio_write"  # the card died under us
    with pytest.raises(NotSaved):
        app.game.act(Guess("B", cards(record, "A", "G")[0]), version)
    assert app.game.session.version == version
    faults.mode = None  # let the fixture close cleanly


def test_app_enforced_hourglass_stops_after_a_correct_guess(app: App) -> None:
    record = _start_guessing(app)
    app.settings.set("hourglass_enforced", True)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    app.game.toggle_hourglass("start")
    app.box.advance(61)
    app.step(0)
    assert app.storage.actions(app.game.id)[-1] == {"type": "stop", "seat": "B"}


def test_app_enforced_hourglass_opens_the_clue_entry(app: App) -> None:
    record = make_record(33)
    app.start(record)
    app.settings.set("hourglass_enforced", True)
    app.screen.entry = None
    app.game.toggle_hourglass("start")
    app.box.advance(61)
    app.step(0)
    assert app.screen.entry is None  # both seats may clue: nobody to force
    app.settings.set("hourglass_enforced", False)
    app.game.toggle_hourglass("start")
    app.box.advance(61)
    app.step(0)
    assert len(app.storage.actions(app.game.id)) == 0


def test_app_hourglass_advisory_changes_nothing(app: App) -> None:
    record = _start_guessing(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    app.game.toggle_hourglass("start")
    app.box.advance(61)
    app.step(0)
    assert len(app.storage.actions(app.game.id)) == 2


def test_app_enforced_hourglass_forces_the_next_giver(app: App) -> None:
    first = make_record(34)
    bystander = cards(first, "A", "N")[0]
    record = make_record(34, actions=[{"type": "clue", "seat": "A", "word": None, "number": 1},
                                      {"type": "guess", "seat": "B", "card": bystander}])
    app.start(record)
    app.settings.set("hourglass_enforced", True)
    app.game.toggle_hourglass("start")
    app.box.advance(61)
    app.step(0)
    assert app.screen.entry is not None and app.screen.entry.seat == "B"


def test_app_not_strict_survives_a_screen_bug(tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    box = open_box("mock")
    app = App(box, Storage(tmp_path / "d"), seed=1, strict=False)
    app.start()

    def broken(event: object) -> None:
        raise RuntimeError("bug")

    app.screen.handle = broken  # type: ignore[method-assign]
    box.press("A.ok")
    app.step(0)
    assert app.running and "a screen failed" in caplog.text
    app.shutdown()


def test_app_attract_animates_then_sleeps(app: App) -> None:
    app.start()
    app.box.advance(5 * 60 + 1)
    app.step(0)
    assert app.screen.name == "attract"
    assert app.deadline() is not None
    app.box.advance(700)
    app.step(0)
    assert app.deadline() is None or app.deadline() > app.clock.now() + 3600


def test_app_deadline_builds_no_frame(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next deadline comes from the timers and from what the ring shows: no frame is built for it."""
    from device.render.ring import FRAME

    app.start()
    app.box.advance(5 * 60 + 1)
    app.step(0)  # the attract screen: the ring animates (every FRAME), the screen itself every 0.1 s
    assert app.screen.name == "attract"

    def no_frame() -> None:
        raise AssertionError("deadline() built a frame")

    monkeypatch.setattr(app, "frame", no_frame)
    monkeypatch.setattr(app.screen, "frame", no_frame)
    assert app.deadline() == pytest.approx(app.clock.now() + FRAME)


class _FakeSpeaker:
    def __init__(self) -> None:
        self.language = "fr"
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)


def test_app_long_stop_says_the_clue(tmp_path: Path) -> None:
    speaker = _FakeSpeaker()
    storage = Storage(tmp_path / "d")
    storage.set_setting("speech", True)
    storage.set_setting("language", "en")
    app = App(open_box("mock"), storage, seed=1, speech=speaker)
    record = make_record(35, actions=[{"type": "clue", "seat": "A", "word": "river", "number": 2}])
    app.start(record)
    app.box.hold("A.stop", 700)  # seat A gave the clue: it is not guessing
    app.step(0)
    assert speaker.language == "en"
    assert len(speaker.said) == 1 and "river" in speaker.said[0]
    app.shutdown()


def _admin(app: App) -> None:
    from device.screens.shell import AdminScreen

    app.start()
    app.switch(AdminScreen(app))
    app.screen.selected = app.screen.rows().index("change_pin")


def _enter_pin(app: App, pin: str) -> None:
    for digit in pin:
        for _ in range(int(digit)):
            app.box.press("A.up")
            app.box.release("A.up")
        app.box.press("A.ok")
        app.box.release("A.ok")
        app.step(0)


def test_app_admin_changes_pin_after_confirming_it(app: App) -> None:
    _admin(app)
    app.box.press("A.ok")
    app.step(0)
    assert app.screen.name == "pin" and app.screen.mode == "new"
    _enter_pin(app, "4711")
    assert app.screen.mode == "confirm"
    _enter_pin(app, "4711")
    assert app.screen.name == "admin"
    assert app.pins.check("4711").ok
    assert "4711" not in json.dumps(app.storage.settings())  # never in clear in the database
    assert "4711" not in (app.storage.directory / "admin.json").read_text()


def test_app_admin_pin_mismatch_keeps_old_pin(app: App) -> None:
    app.pins.set("0000")
    _admin(app)
    app.box.press("A.ok")
    app.step(0)
    _enter_pin(app, "1234")
    _enter_pin(app, "1243")
    assert app.screen.name == "pin" and app.screen.mode == "new" and app.screen.error
    assert app.pins.check("0000").ok
