"""Sound cues and spoken announcements through the app on the mock box: the right cue at the right event (a
recording mixer), mute / volume / café mode from the settings, no audio device, per-seat speech, and the rule
that a key is never sent to a shared speaker (a fake espeak-ng runner records every command line)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from boxscript import WORDS, cards, make_record  # noqa: E402

from device.app import App  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.shell import MenuScreen, SettingsScreen  # noqa: E402
from device.services.sound import RecordingMixer, SoundPlayer  # noqa: E402
from device.services.speech import Speaker  # noqa: E402
from device.storage import Storage  # noqa: E402
from engine.actions import Clue, Guess  # noqa: E402
from hardware.factory import open_box  # noqa: E402


class FakeProcess:
    def __init__(self) -> None:
        self.done = False

    def poll(self) -> int | None:
        return 0 if self.done else None

    def terminate(self) -> None:
        self.done = True


class Runner:
    """Stands in for starting espeak-ng: records (the speaker's output at that moment, argv)."""

    def __init__(self) -> None:
        self.speaker: Speaker | None = None
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, argv: list[str]) -> FakeProcess:
        assert self.speaker is not None
        self.calls.append((self.speaker.output, argv))
        return FakeProcess()

    @property
    def texts(self) -> list[str]:
        return [argv[-1] for _, argv in self.calls]


def make_app(tmp: Path, *, settings: dict[str, Any] | None = None, sound: Any = None,
             speech: bool = False) -> tuple[App, Runner]:
    storage = Storage(tmp / "data")
    for key, value in (settings or {}).items():
        storage.set_setting(key, value)
    runner = Runner()
    speaker = None
    if speech:
        speaker = Speaker(runner=runner, which=lambda name: f"/usr/bin/{name}",
                          headphones=lambda: "plughw:CARD=Headset,DEV=0")
        runner.speaker = speaker
    return App(open_box("mock"), storage, seed=3, sound=sound, speech=speaker), runner


def step(app: App) -> None:
    app.step(0)


# -- sound ---------------------------------------------------------------------------------------------------


def test_app_sound_cues_follow_the_game(tmp_path: Path) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer))
    record = make_record(41, actions=[{"type": "clue", "seat": "A", "word": None, "number": 3}])
    app.start(record)
    agent, bystander = cards(record, "A", "G")[0], cards(record, "A", "N")[0]
    app.game.act(Guess("B", agent), app.game.session.version)
    assert mixer.cues == ["agent"]
    app.game.act(Guess("B", bystander), app.game.session.version)
    assert mixer.cues == ["agent", "bystander"]
    app.shutdown()


def test_app_sound_assassin_and_refused_clue(tmp_path: Path) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer), settings={"language": "en"})
    record = make_record(42)
    app.start(record)
    box = app.box
    # seat A gives a clue that is a word on the table: the checker refuses it, the box plays the cue
    box.press("A.ok")
    box.press("A.ok")
    box.type_text("A", WORDS[0].upper())
    box.press("A.ok")
    step(app)
    assert app.screen.entry is not None and app.screen.entry.step == "refusal"
    assert mixer.cues == ["clue_refused"]
    app.screen.entry = None
    app.game.act(Clue("A", None, 1), app.game.session.version)  # type: ignore[arg-type]
    app.game.act(Guess("B", cards(record, "A", "X")[0]), app.game.session.version)
    assert mixer.cues == ["clue_refused", "assassin"]  # the assassin's loss is not a second cue
    app.shutdown()


def test_app_sound_volume_and_mute_come_from_the_settings(tmp_path: Path) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer), settings={"volume": 0.4})
    app.audio.play_cue("agent")
    app.settings.set("volume", 1.0)
    app.audio.play_cue("win")
    assert mixer.played == [("agent", 0.4), ("win", 1.0)]
    app.settings.set("muted", True)
    app.audio.play_cue("loss")
    assert mixer.cues == ["agent", "win"]
    app.settings.set("muted", False)
    app.audio.play_cue("loss")
    assert mixer.cues == ["agent", "win", "loss"]
    app.shutdown()


def test_app_sound_settings_screen_changes_volume_and_mute(tmp_path: Path) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer))
    app.start()
    screen = SettingsScreen(app)
    app.switch(screen)
    assert "volume" in screen.rows() and "muted" in screen.rows()
    screen.selected = screen.rows().index("volume")
    app.box.press("A.right")
    step(app)
    assert app.settings["volume"] == 0.85 and app.storage.settings()["volume"] == 0.85
    screen.selected = screen.rows().index("muted")
    app.box.press("A.right")
    step(app)
    assert app.settings["muted"] is True
    assert not app.audio.sound.play("agent") and mixer.opened == 0
    app.shutdown()


def test_app_sound_muted_setting_survives_a_restart(tmp_path: Path) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer))
    app.settings.set("muted", True)
    app.shutdown()
    again = App(open_box("mock"), Storage(tmp_path / "data"), sound=SoundPlayer(mixer))
    again.audio.play_cue("agent")
    assert mixer.played == [] and again.audio.sound.muted
    again.shutdown()


def test_app_cafe_mode_mutes_and_suggests_hotseat(tmp_path: Path) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer))
    app.start()
    assert [i.key for i in MenuScreen(app).items()][0] == "menu.duet"
    app.settings.set("cafe_mode", True)
    assert app.settings["muted"] is True
    assert (app.settings["idle_minutes"], app.settings["abandon_hours"]) == (2, 1)
    app.audio.play_cue("agent")
    assert mixer.played == [] and mixer.opened == 0  # a muted café box does not touch the audio device
    assert [i.key for i in MenuScreen(app).items()][0] == "menu.hotseat"
    app.settings.set("cafe_mode", False)
    assert app.settings["muted"] is False
    app.shutdown()


def test_app_cafe_mode_is_an_admin_row(tmp_path: Path) -> None:
    from device.screens.shell import AdminScreen

    app, _ = make_app(tmp_path)
    app.start()
    admin = AdminScreen(app)
    app.switch(admin)
    assert {"cafe_mode", "volume", "muted", "hourglass_seconds"} <= set(admin.rows())
    admin.selected = admin.rows().index("cafe_mode")
    app.box.press("A.right")
    step(app)
    assert app.storage.settings()["cafe_mode"] is True and app.storage.settings()["muted"] is True
    app.shutdown()


def test_app_no_audio_device_is_no_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    mixer = RecordingMixer(fail_open=True)
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer))
    record = make_record(43, actions=[{"type": "clue", "seat": "A", "word": None, "number": 9}])
    app.start(record)
    with caplog.at_level(logging.WARNING, logger="device.services.sound"):
        for card in cards(record, "A", "G")[:3]:
            app.game.act(Guess("B", card), app.game.session.version)
            step(app)
        app.game.toggle_hourglass("start")
        app.box.advance(61)
        step(app)
    assert app.running and app.game.session.public_view().agents_found == 3
    assert mixer.opened == 1  # tried once, then silent: no error loop
    assert len([r for r in caplog.records if r.name == "device.services.sound"]) == 1
    app.shutdown()


# -- speech --------------------------------------------------------------------------------------------------


def test_app_speech_rows_hidden_without_espeak(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path)
    app.start()
    assert not any(r.startswith("speech") for r in SettingsScreen(app).rows())
    app.shutdown()
    with_speech, _ = make_app(tmp_path / "2", speech=True)
    with_speech.start()
    assert {"speech_A", "speech_B", "speech_output_A", "speech_output_B"} <= set(SettingsScreen(with_speech).rows())
    with_speech.shutdown()


def test_app_speech_is_per_seat(tmp_path: Path) -> None:
    app, runner = make_app(tmp_path, speech=True, settings={"language": "en", "speech_A": True})
    record = make_record(44, actions=[{"type": "clue", "seat": "A", "word": "river", "number": 2}])
    app.start(record)
    app.box.hold("B.stop", 700)  # B is guessing without a correct guess: STOP is refused, nothing said
    step(app)
    app.box.hold("A.stop", 700)  # A is not guessing and has speech on
    step(app)
    assert runner.texts == ["Clue: river, 2. 15 agents left to find. 9 timer tokens left in the bank."]
    assert runner.calls[0][0] == "speaker"
    app.settings.set("speech_A", False)
    app.box.hold("A.stop", 700)
    step(app)
    assert len(runner.calls) == 1
    app.shutdown()


def test_app_speech_follows_the_seat_output(tmp_path: Path) -> None:
    app, runner = make_app(tmp_path, speech=True, settings={"language": "fr", "speech_A": True,
                                                            "speech_output_A": "headphones"})
    record = make_record(45, actions=[{"type": "clue", "seat": "A", "word": "lune", "number": 1}])
    app.start(record)
    app.box.hold("A.stop", 700)
    step(app)
    assert runner.calls[0][0] == "headphones" and runner.texts[0].startswith("Indice : lune, 1.")
    app.shutdown()


def _hotseat_at_b_clue(app: App) -> list[str]:
    """A hot-seat game where seat B is the clue giver: returns B's agent words."""
    flows.start_duet(app, "hotseat", pack="en")
    session = app.game.session
    app.game.act(Clue("A", None, 1), session.version)  # type: ignore[arg-type]
    key_a = session.seat_view("A").key
    bystander = next(i for i, c in enumerate(key_a) if c == "N")
    app.game.act(Guess("B", bystander), session.version)
    view = session.public_view()
    assert view.phase == "clue" and view.clue_givers == ("B",)
    key_b = session.seat_view("B").key
    return [view.cards[i].word for i, c in enumerate(key_b) if c in "GX"]


@pytest.mark.parametrize("output", ["speaker", "headphones"])
def test_app_hotseat_key_is_read_only_through_headphones(tmp_path: Path, output: str) -> None:
    app, runner = make_app(tmp_path, speech=True, settings={"language": "en", "speech_B": True,
                                                            "speech_output_B": output})
    app.start()
    secret = _hotseat_at_b_clue(app)
    app.box.hold("B.stop", 700)  # the clue giver asks for their key
    step(app)
    key_calls = [(out, argv) for out, argv in runner.calls if any(w.lower() in argv[-1].lower() for w in secret)]
    if output == "speaker":
        assert key_calls == []  # never a key through a shared speaker
        assert runner.texts == ["Clue: , 1. 15 agents left to find. 8 timer tokens left in the bank."]
        assert app.screen.notices.banner_text() is not None
        assert "headphones" in app.screen.notices.banner_text()
    else:
        assert len(key_calls) == 1
        out, argv = key_calls[0]
        assert out == "headphones"
        assert argv[-1].startswith("Your agents: ")
    app.shutdown()


def test_app_hotseat_key_never_reaches_the_speaker_whatever_the_settings(tmp_path: Path) -> None:
    """Every combination of per-seat speech and output, every seat's long STOP: a text naming a key word
    other than through public information is only ever started while the output is headphones."""
    n = 0
    for a_on in (False, True):
        for b_on in (False, True):
            for a_out in ("speaker", "headphones"):
                for b_out in ("speaker", "headphones"):
                    n += 1
                    app, runner = make_app(tmp_path / str(n), speech=True, settings={
                        "language": "en", "speech_A": a_on, "speech_B": b_on,
                        "speech_output_A": a_out, "speech_output_B": b_out})
                    app.start()
                    _hotseat_at_b_clue(app)
                    for seat in ("A", "B"):
                        app.box.hold(f"{seat}.stop", 700)
                        step(app)
                    for out, argv in runner.calls:
                        if argv[-1].startswith(("Your agent", "You have no agents")):
                            assert out == "headphones"
                            assert b_on and b_out == "headphones"
                    app.shutdown()


def test_app_legacy_speech_switch_turns_both_seats_on(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path, speech=True, settings={"speech": True})
    assert app.audio.speech_for("A") is not None and app.audio.speech_for("B") is not None
    app.shutdown()


def test_app_classic_spymaster_side_long_stop_says_the_clue(tmp_path: Path) -> None:
    import random

    from engine.classic import random_classic_key

    key = random_classic_key(random.Random(61), "classic", "source")  # type: ignore[arg-type]
    record = {"format": "duetbox-record/1", "mode": "classic", "language": "en", "cards": list(WORDS),
              "key": key.cards, "start": key.start, "variant": "standard", "pictures_key": "source",
              "rules": {"clues": "strict"}, "seed": 61,
              "actions": [{"type": "clue", "team": key.start, "word": "river", "number": 2}]}
    app, runner = make_app(tmp_path, speech=True, settings={"language": "en", "speech_A": True})
    app.start(record)
    app.box.hold("A.stop", 700)
    step(app)
    left = key.cards.count(key.start)
    assert runner.texts == [f"Clue: river, 2. {left} agents left to find."]  # classic has no token bank
    assert [a["type"] for a in app.storage.actions(app.game.id)] == ["clue"]
    app.shutdown()


def _play_out(app: App, lose: bool) -> None:
    """Clue by the seat that may, then the guesser touches the giver's agents (or, to lose, bystanders)."""
    session = app.game.session
    for _ in range(200):
        view = session.public_view()
        if session.over:
            return
        if view.phase == "clue":
            app.game.act(Clue(view.clue_givers[0], None, 9), session.version)  # type: ignore[arg-type]
            continue
        giver = view.clue_giver or ("B" if view.guessers[0] == "A" else "A")
        key = session.seat_view(giver).key
        wanted = "N" if lose else "G"
        todo = [i for i, c in enumerate(key) if c == wanted and not view.cards[i].agent
                and view.guessers[0] not in view.cards[i].marks]
        if not todo:
            from engine.actions import Stop

            app.game.act(Stop(view.guessers[0]), session.version)  # type: ignore[arg-type]
            continue
        app.game.act(Guess(view.guessers[0], todo[0]), session.version)  # type: ignore[arg-type]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("lose", "cue"), [(False, "win"), (True, "loss")])
def test_app_sound_win_and_loss(tmp_path: Path, lose: bool, cue: str) -> None:
    mixer = RecordingMixer()
    app, _ = make_app(tmp_path, sound=SoundPlayer(mixer))
    app.start(make_record(62))
    _play_out(app, lose)
    assert app.game.session.over and mixer.cues[-1] == cue and mixer.cues.count(cue) == 1
    app.shutdown()
