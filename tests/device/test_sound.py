"""Sound cues: the recording mixer, mute and volume, no audio device, the generated WAV files."""

from __future__ import annotations

import importlib.util
import logging
import os
import wave
from pathlib import Path
from types import ModuleType

import pytest

from device.services import sound
from device.services.sound import CUES, MixerUnavailable, PygameMixer, RecordingMixer, SoundPlayer, load_cue

ROOT = Path(__file__).resolve().parents[2]
SOUNDS = ROOT / "device" / "data" / "sounds"


def make_sounds_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- player and recording mixer ------------------------------------------------------------------------------


def test_sound_player_sends_every_cue_to_the_mixer() -> None:
    mixer = RecordingMixer()
    player = SoundPlayer(mixer)
    for cue in CUES:
        assert player.play(cue)
    assert mixer.played == [(cue, 0.7) for cue in CUES]
    assert mixer.opened == 1  # opened lazily, once


def test_sound_player_opens_mixer_lazily() -> None:
    mixer = RecordingMixer()
    SoundPlayer(mixer)
    assert mixer.opened == 0


def test_sound_player_volume_is_passed_and_settable() -> None:
    mixer = RecordingMixer()
    player = SoundPlayer(mixer, volume=0.25)
    player.play("agent")
    player.volume = 1
    player.play("win")
    assert mixer.played == [("agent", 0.25), ("win", 1.0)]


@pytest.mark.parametrize("volume", [-0.1, 1.01, float("nan"), "loud"])
def test_sound_player_refuses_bad_volume(volume: object) -> None:
    with pytest.raises(ValueError):
        SoundPlayer(RecordingMixer(), volume=volume)  # type: ignore[arg-type]
    player = SoundPlayer(RecordingMixer())
    with pytest.raises(ValueError):
        player.volume = volume  # type: ignore[assignment]


def test_sound_player_muted_plays_nothing_and_never_opens() -> None:
    mixer = RecordingMixer()
    player = SoundPlayer(mixer, muted=True)
    assert not player.play("assassin")
    assert mixer.played == [] and mixer.opened == 0
    player.muted = False
    assert player.play("assassin")
    assert mixer.cues == ["assassin"]


def test_sound_player_volume_zero_is_silent() -> None:
    mixer = RecordingMixer()
    player = SoundPlayer(mixer, volume=0)
    assert not player.play("agent")
    assert mixer.played == []


def test_sound_player_unknown_cue_logs_once_and_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    mixer = RecordingMixer()
    player = SoundPlayer(mixer)
    with caplog.at_level(logging.WARNING, logger="device.services.sound"):
        assert not player.play("trumpet")
        assert not player.play("trumpet")
    assert len(caplog.records) == 1
    assert player.play("agent")  # the player still works


def test_sound_player_no_audio_device_logs_one_line_and_stays_silent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mixer = RecordingMixer(fail_open=True)
    player = SoundPlayer(mixer)
    with caplog.at_level(logging.DEBUG, logger="device.services.sound"):
        for _ in range(50):
            for cue in CUES:
                assert player.play(cue) is False
    assert len(caplog.records) == 1
    assert "no audio output" in caplog.records[0].getMessage()
    assert mixer.opened == 1  # no retry loop
    assert not player.available


def test_sound_player_mixer_failing_mid_game_goes_silent(caplog: pytest.LogCaptureFixture) -> None:
    class BrokenAfterOne(RecordingMixer):
        def play(self, cue: str, wav: bytes, volume: float) -> None:
            if self.played:
                raise RuntimeError("device unplugged")
            super().play(cue, wav, volume)

    mixer = BrokenAfterOne()
    player = SoundPlayer(mixer)
    with caplog.at_level(logging.WARNING, logger="device.services.sound"):
        assert player.play("agent")
        assert not player.play("agent")
        assert not player.play("win")
    assert mixer.cues == ["agent"]
    assert len(caplog.records) == 1


def test_sound_player_close_is_idempotent() -> None:
    mixer = RecordingMixer()
    with SoundPlayer(mixer) as player:
        player.play("agent")
    assert mixer.closed
    player.close()


# -- pygame-ce's mixer ---------------------------------------------------------------------------------------


def test_sound_pygame_mixer_without_device_is_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import pygame

    calls = []

    def no_device(*args: object, **kwargs: object) -> None:
        calls.append(1)
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    player = SoundPlayer(PygameMixer())
    with caplog.at_level(logging.DEBUG, logger="device.services.sound"):
        for _ in range(20):
            assert player.play("hourglass_end") is False
    assert len(calls) == 1
    assert len(caplog.records) == 1
    assert "No available audio device" in caplog.records[0].getMessage()


def test_sound_pygame_mixer_plays_with_the_dummy_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    mixer = PygameMixer()
    try:
        mixer.open()
    except MixerUnavailable as exc:  # pragma: no cover - depends on the SDL build
        pytest.skip(f"dummy audio driver unavailable here: {exc}")
    try:
        player = SoundPlayer(mixer)
        for cue in CUES:
            assert player.play(cue)
        assert player.available
    finally:
        mixer.close()


def test_sound_pygame_mixer_play_before_open_raises_typed_error() -> None:
    with pytest.raises(MixerUnavailable):
        PygameMixer().play("agent", load_cue("agent"), 0.5)


# -- the WAV files -------------------------------------------------------------------------------------------


def test_sound_every_cue_has_a_short_wav_in_the_package() -> None:
    total = 0
    for cue in CUES:
        data = load_cue(cue)
        total += len(data)
        with wave.open(str(SOUNDS / f"{cue}.wav")) as w:
            assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
            assert 0.1 < w.getnframes() / w.getframerate() < 1.5
    assert total < 300_000


def test_sound_load_cue_refuses_unknown_names() -> None:
    with pytest.raises(KeyError):
        load_cue("../secret")


def test_sound_generator_reproduces_the_committed_files(tmp_path: Path) -> None:
    make_sounds = make_sounds_module()
    assert set(make_sounds.CUES) == set(CUES)
    assert make_sounds.main(["--out", str(tmp_path)]) == 0
    for cue in CUES:
        with wave.open(str(tmp_path / f"{cue}.wav")) as fresh, wave.open(str(SOUNDS / f"{cue}.wav")) as kept:
            assert fresh.getparams() == kept.getparams()
            a = fresh.readframes(fresh.getnframes())
            b = kept.readframes(kept.getnframes())
        # Allow one LSB of difference: libm's sin may round differently on another machine.
        xs = memoryview(a).cast("h")
        ys = memoryview(b).cast("h")
        assert max(abs(x - y) for x, y in zip(xs, ys, strict=True)) <= 1, cue


def test_sound_generator_cues_are_audible_and_do_not_clip() -> None:
    make_sounds = make_sounds_module()
    for name, make in make_sounds.CUES.items():
        samples = make()
        peak = max(abs(v) for v in samples)
        assert 0.3 < peak <= 0.6, name
        assert abs(samples[-1]) < 0.01, name  # faded out, no click


def test_sound_generator_reports_unwritable_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert make_sounds_module().main(["--out", str(blocker / "sub")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err


def test_sound_module_imports_no_pygame_at_import_time() -> None:
    # pygame is imported lazily in PygameMixer.open; the module itself only needs the stdlib.
    assert "pygame" not in vars(sound)
    assert os.path.basename(sound.__file__ or "") == "sound.py"
