"""The hourglass through the app with the mock box's fake clock (issue 9): it drains on the ring and the shared
display, warns and expires on time with its cues, is reset by every new turn and every new game (two games in
a row), pauses from the menu, takes its length from the settings, and in the enforced option applies the rule;
starts and expiries never reach the record."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from boxscript import WORDS, cards, make_record  # noqa: E402

from device.app import App  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.shell import AdminScreen, PauseScreen  # noqa: E402
from device.services.sound import RecordingMixer, SoundPlayer  # noqa: E402
from device.storage import Storage  # noqa: E402
from engine.actions import Clue, Guess  # noqa: E402
from engine.record import replay  # noqa: E402
from hardware.factory import open_box  # noqa: E402


@pytest.fixture
def mixer() -> RecordingMixer:
    return RecordingMixer()


@pytest.fixture
def app(tmp_path: Path, mixer: RecordingMixer):  # type: ignore[no-untyped-def]
    storage = Storage(tmp_path / "data")
    storage.set_setting("language", "en")
    app = App(open_box("mock"), storage, seed=9, sound=SoundPlayer(mixer))
    yield app
    app.shutdown()


def step(app: App) -> None:
    app.step(0)


def long_menu(app: App) -> None:
    app.box.hold("menu", 800)
    step(app)


def sand(app: App) -> str:
    return app.game.hourglass.state(app.clock.now())


def lit(app: App) -> int:
    pixels = app.frame().ring_pixels
    return 0 if pixels is None else sum(1 for p in pixels if p != (0, 0, 0))


def hourglass_cues(mixer: RecordingMixer) -> list[str]:
    return [c for c in mixer.cues if c.startswith("hourglass")]


def guessing(app: App, seed: int = 51) -> dict[str, Any]:
    record = make_record(seed, actions=[{"type": "clue", "seat": "A", "word": None, "number": 3}])
    app.start(record)
    return record


def test_app_hourglass_drains_warns_and_expires_on_time(app: App, mixer: RecordingMixer) -> None:
    guessing(app)
    long_menu(app)
    assert sand(app) == "running"
    assert app.screen.message(app.game.session.public_view()).endswith("◷ 60 s")
    full = lit(app)
    assert full == app.box.ring.count
    app.box.advance(15)
    step(app)
    assert "◷ 45 s" in app.screen.message(app.game.session.public_view())
    assert lit(app) < full
    app.box.advance(34.9)  # 10.1 s left: not yet the warning
    step(app)
    assert hourglass_cues(mixer) == []
    app.box.advance(0.1)
    step(app)
    assert sand(app) == "warning" and hourglass_cues(mixer) == ["hourglass_warning"]
    assert "◷ 10 s!" in app.screen.message(app.game.session.public_view())
    app.box.advance(9.9)
    step(app)
    assert hourglass_cues(mixer) == ["hourglass_warning"]
    app.box.advance(0.1)
    step(app)
    assert sand(app) == "expired" and hourglass_cues(mixer) == ["hourglass_warning", "hourglass_end"]
    app.box.advance(60)
    step(app)
    assert hourglass_cues(mixer) == ["hourglass_warning", "hourglass_end"]  # once each per start


def test_app_hourglass_wakes_the_loop_for_its_changes(app: App) -> None:
    guessing(app)
    long_menu(app)
    now = app.clock.now()
    deadline = app.deadline()
    assert deadline is not None and now < deadline <= now + 1.0


def test_app_hourglass_reset_by_a_clue_and_by_the_end_of_a_turn(app: App) -> None:
    record = make_record(52)
    app.start(record)
    long_menu(app)
    assert sand(app) == "running"
    app.game.act(Clue("A", None, 1), app.game.session.version)  # type: ignore[arg-type]
    assert sand(app) == "idle"
    long_menu(app)
    app.game.act(Guess("B", cards(record, "A", "N")[0]), app.game.session.version)
    assert sand(app) == "idle"


def _lose_at_once(app: App, record: dict[str, Any]) -> None:
    app.screen._act("B", Guess("B", cards(record, "A", "X")[0]), app.game.session.version)
    assert app.game.session.over and app.screen.name == "gameover"


def test_app_hourglass_works_in_two_games_in_a_row(app: App, mixer: RecordingMixer) -> None:
    """The known bug elsewhere: a timer that only works in the first game."""
    first = guessing(app, 53)
    long_menu(app)
    app.box.advance(50)
    step(app)
    app.box.advance(11)
    step(app)
    assert hourglass_cues(mixer) == ["hourglass_warning", "hourglass_end"]
    long_menu(app)  # turned again, then the game ends while it runs
    app.box.advance(20)
    step(app)
    _lose_at_once(app, first)
    assert sand(app) == "idle"
    app.box.press("A.ok")  # both seats confirm, then OK leaves ("same settings again" or the menu)
    app.box.press("B.ok")
    step(app)
    app.box.press("A.ok")
    step(app)
    assert app.screen.name == "after_game"
    app.box.advance(120)  # nothing runs on in the menu
    step(app)
    assert hourglass_cues(mixer) == ["hourglass_warning", "hourglass_end"]
    flows.start_duet(app, "duet", pack="en")
    assert app.screen.name == "play" and sand(app) == "idle"
    long_menu(app)
    assert sand(app) == "running" and app.game.hourglass.seconds_shown(app.clock.now()) == 60
    app.box.advance(50)
    step(app)
    assert hourglass_cues(mixer)[2:] == ["hourglass_warning"]
    app.box.advance(10)
    step(app)
    assert hourglass_cues(mixer)[2:] == ["hourglass_warning", "hourglass_end"]
    assert "time is up" in app.screen.message(app.game.session.public_view())


def test_app_hourglass_reset_when_leaving_and_when_a_game_is_resumed(tmp_path: Path, mixer: RecordingMixer) -> None:
    storage = Storage(tmp_path / "d")
    app = App(open_box("mock"), storage, seed=1, sound=SoundPlayer(mixer))
    guessing(app)
    long_menu(app)
    app.box.tap("menu")  # pause menu, then "back to the menu (game kept)"
    step(app)
    pause = app.screen
    assert isinstance(pause, PauseScreen)
    pause.selected = [i.key for i in pause.items()].index("pause.leave")
    app.box.press("A.ok")
    step(app)
    assert app.screen.name == "menu" and sand(app) == "idle"
    app.box.advance(100)
    step(app)
    assert hourglass_cues(mixer) == []
    app.shutdown()
    again = App(open_box("mock"), Storage(tmp_path / "d"), seed=1, sound=SoundPlayer(mixer))
    again.start()
    assert again.screen.name == "play" and sand(again) == "idle"
    again.shutdown()


def test_app_hourglass_pauses_and_resumes_from_the_menu(app: App) -> None:
    guessing(app)
    long_menu(app)
    app.box.advance(20)
    step(app)

    def pick(key: str) -> None:
        app.box.tap("menu")
        step(app)
        pause = app.screen
        assert isinstance(pause, PauseScreen)
        pause.selected = [i.key for i in pause.items()].index(key)
        app.box.press("A.ok")
        step(app)
        assert app.screen.name == "play"

    pick("pause.hourglass_pause")
    assert sand(app) == "paused"
    app.box.advance(200)
    step(app)
    assert app.game.hourglass.remaining(app.clock.now()) == pytest.approx(40.0)
    assert "(paused)" in app.screen.message(app.game.session.public_view())
    pick("pause.hourglass_resume")
    app.box.advance(40)
    step(app)
    assert sand(app) == "expired"


def test_app_hourglass_length_from_the_settings(app: App) -> None:
    app.start()
    assert app.game.hourglass.length == 60.0  # default: one minute
    admin = AdminScreen(app)
    app.switch(admin)
    admin.selected = admin.rows().index("hourglass_seconds")
    seen = []
    for _ in range(5):
        app.box.press("A.right")
        step(app)
        seen.append(app.game.hourglass.length)
    assert sorted(seen) == [30.0, 60.0, 90.0, 120.0, 180.0]  # 30 s to 3 min
    app.settings.set("hourglass_seconds", 30)
    guessing(app)
    long_menu(app)
    app.box.advance(30)
    step(app)
    assert sand(app) == "expired"


def test_app_hourglass_advisory_is_never_recorded(app: App) -> None:
    record = guessing(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    before = app.storage.actions(app.game.id)
    for _ in range(3):
        long_menu(app)
        app.box.advance(61)
        step(app)
    assert app.storage.actions(app.game.id) == before
    assert app.game.session.public_view().guessers == ("B",)


# -- enforced ------------------------------------------------------------------------------------------------


def enforced(app: App) -> None:
    app.settings.set("hourglass_enforced", True)


def test_app_enforced_duet_guesser_with_a_correct_guess_stops(app: App) -> None:
    record = guessing(app)
    enforced(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    long_menu(app)
    app.box.advance(60)
    step(app)
    actions = app.storage.actions(app.game.id)
    assert actions[-1] == {"type": "stop", "seat": "B"}  # recorded as a normal action, nothing else
    assert [a["type"] for a in actions] == ["clue", "guess", "stop"]
    exported = dict(record, actions=actions)
    result = replay(exported)
    assert result.ok and result.state.version == 3
    assert app.game.session.public_view().phase == "clue" and sand(app) == "idle"  # the stop ended the turn


def test_app_enforced_duet_guesser_without_a_correct_guess_keeps_the_turn(app: App) -> None:
    guessing(app)
    enforced(app)
    long_menu(app)
    app.box.advance(61)
    step(app)
    assert len(app.storage.actions(app.game.id)) == 1
    assert app.game.session.public_view().guessers == ("B",)


def test_app_enforced_duet_clue_giver_must_clue_at_once(app: App) -> None:
    record = make_record(54, actions=[{"type": "clue", "seat": "A", "word": None, "number": 1}])
    app.start(record)
    app.game.act(Guess("B", cards(record, "A", "N")[0]), app.game.session.version)  # turn over: B gives the next clue
    enforced(app)
    long_menu(app)
    app.box.advance(61)
    step(app)
    assert app.screen.entry is not None and app.screen.entry.seat == "B"
    assert len(app.storage.actions(app.game.id)) == 2  # a forced clue entry is not an action


def test_app_enforced_expiry_during_the_pause_menu_applies_on_return(app: App) -> None:
    record = guessing(app)
    enforced(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    long_menu(app)
    app.box.tap("menu")
    step(app)
    assert app.screen.name == "pause"
    app.box.advance(61)
    step(app)
    assert len(app.storage.actions(app.game.id)) == 2  # nothing behind the players' backs
    app.box.tap("menu")  # back to the game
    step(app)
    assert app.storage.actions(app.game.id)[-1] == {"type": "stop", "seat": "B"}


def test_app_enforced_expiry_dropped_by_a_new_turn(app: App) -> None:
    record = guessing(app)
    enforced(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    long_menu(app)
    app.box.tap("menu")
    step(app)
    app.box.advance(61)
    step(app)
    app.input.enforce_due = True
    app.game.act(Guess("B", cards(record, "A", "N")[0]), app.game.session.version)  # the turn ended anyway
    app.box.tap("menu")
    step(app)
    assert [a["type"] for a in app.storage.actions(app.game.id)] == ["clue", "guess", "guess"]


def test_app_enforced_nothing_in_sudden_death(app: App, mixer: RecordingMixer) -> None:
    record = make_record(55, tokens=9)
    app.start(record)
    enforced(app)
    session = app.game.session
    while not session.public_view().sudden_death:
        view = session.public_view()
        if view.phase == "clue":
            app.game.act(Clue(view.clue_givers[0], None, 1), session.version)  # type: ignore[arg-type]
        else:
            giver = view.clue_giver
            key = session.seat_view(giver).key
            card = next(i for i, c in enumerate(key) if c == "N" and not view.cards[i].marks)
            app.game.act(Guess(view.guessers[0], card), session.version)
    assert "sudden_death" in mixer.cues
    before = len(app.storage.actions(app.game.id))
    long_menu(app)
    app.box.advance(61)
    step(app)
    assert len(app.storage.actions(app.game.id)) == before


def _classic_record(seed: int) -> dict[str, Any]:
    from engine.classic import random_classic_key

    key = random_classic_key(random.Random(seed), "classic", "source")  # type: ignore[arg-type]
    return {"format": "duetbox-record/1", "mode": "classic", "language": "en", "cards": list(WORDS),
            "key": key.cards, "start": key.start, "variant": "standard", "pictures_key": "source",
            "rules": {"clues": "strict"}, "seed": seed, "actions": []}


def test_app_enforced_classic_team_stops_after_a_guess(app: App) -> None:
    record = _classic_record(56)
    team = record["start"]
    record["actions"] = [{"type": "clue", "team": team, "word": None, "number": "unlimited"}]
    app.start(record)
    enforced(app)
    long_menu(app)
    app.box.advance(61)
    step(app)
    assert len(app.storage.actions(app.game.id)) == 1  # no guess yet: the team keeps its turn
    mine = next(i for i, c in enumerate(record["key"]) if c == team)
    from engine import classic as cl

    app.game.act(cl.TeamGuess(team, mine), app.game.session.version)
    long_menu(app)
    app.box.advance(61)
    step(app)
    assert app.storage.actions(app.game.id)[-1] == {"type": "stop", "team": team}


def test_app_enforced_classic_spymaster_must_clue(app: App) -> None:
    app.start(_classic_record(57))
    enforced(app)
    long_menu(app)
    app.box.advance(61)
    step(app)
    assert app.screen.entry is not None and app.screen.entry.seat == "A"
    assert app.storage.actions(app.game.id) == []


def test_app_hourglass_seconds_shown_in_hotseat(app: App) -> None:
    flows.start_duet(app, "hotseat", pack="en")
    long_menu(app)
    app.box.advance(18)
    step(app)
    shared = app.screen.frame().shared
    assert shared.lines[-1] == "◷ 42 s"  # the privacy screen keeps the small hourglass
    app.box.touch_down(0)  # a finger held: the key shows; lifted: hidden, clue entry open
    step(app)
    app.box.advance(0.7)
    step(app)
    app.box.touch_up(0)
    step(app)
    assert app.screen.entry is not None
    assert app.screen.frame().shared.message.endswith("◷ 42 s")
