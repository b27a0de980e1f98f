"""Spoken announcements: espeak-ng argv, one utterance at a time, the headphones rule, the texts."""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

import pytest

from device.services.speech import (
    ESPEAK,
    LANGUAGES,
    SeatKeySummary,
    Speaker,
    clean_text,
    clue_announcement,
    key_announcement,
    key_summary,
)


class FakeProcess:
    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.returncode: int | None = None
        self.terminated = False

    def poll(self) -> int | None:
        return self.returncode

    def terminate(self) -> None:
        self.terminated = True
        self.returncode = -15


class FakeRunner:
    """Records every argv it is asked to start; never starts anything."""

    def __init__(self) -> None:
        self.processes: list[FakeProcess] = []

    def __call__(self, argv: list[str]) -> FakeProcess:
        process = FakeProcess(argv)
        self.processes.append(process)
        return process

    @property
    def argvs(self) -> list[list[str]]:
        return [p.argv for p in self.processes]


def found(name: str) -> str | None:
    return f"/usr/bin/{name}"


def missing(name: str) -> str | None:
    return None


HEADSET = "plughw:CARD=Headset,DEV=0"


def speaker(runner: FakeRunner, **kwargs: object) -> Speaker:
    kwargs.setdefault("headphones", lambda: HEADSET)  # a USB headset is plugged in unless a test says otherwise
    return Speaker(runner=runner, which=found, **kwargs)  # type: ignore[arg-type]


# -- Speaker ------------------------------------------------------------------------------------------------


def test_speech_say_starts_espeak_with_voice_and_text() -> None:
    runner = FakeRunner()
    assert speaker(runner).say("Indice : port, 2.")
    assert runner.argvs == [[ESPEAK, "-v", "fr", "-s", "150", "--", "Indice : port, 2."]]


@pytest.mark.parametrize(("language", "voice"), [("fr", "fr"), ("en", "en"), ("ro", "ro")])
def test_speech_voice_follows_language(language: str, voice: str) -> None:
    runner = FakeRunner()
    speaker(runner, language=language).say("x")
    assert runner.argvs[0][:3] == [ESPEAK, "-v", voice]


def test_speech_device_and_rate_reach_the_command_line() -> None:
    runner = FakeRunner()
    speaker(runner, device="plughw:1", rate=120).say("hello")
    assert runner.argvs == [[ESPEAK, "-v", "fr", "-s", "120", "-d", "plughw:1", "--", "hello"]]


def test_speech_text_starting_with_dash_stays_text() -> None:
    runner = FakeRunner()
    speaker(runner).say("-w /tmp/x.wav")
    argv = runner.argvs[0]
    assert argv[-2:] == ["--", "-w /tmp/x.wav"]


def test_speech_new_utterance_stops_the_previous_one() -> None:
    runner = FakeRunner()
    s = speaker(runner)
    s.say("one")
    assert s.speaking()
    s.say("two")
    first, second = runner.processes
    assert first.terminated
    assert not second.terminated
    assert s.speaking()


def test_speech_finished_utterance_is_not_terminated() -> None:
    runner = FakeRunner()
    s = speaker(runner)
    s.say("one")
    runner.processes[0].returncode = 0
    assert not s.speaking()
    s.say("two")
    assert not runner.processes[0].terminated


def test_speech_stop_and_close() -> None:
    runner = FakeRunner()
    with speaker(runner) as s:
        s.say("one")
        s.stop()
        assert runner.processes[0].terminated
        assert not s.speaking()
        s.say("two")
    assert runner.processes[1].terminated


def test_speech_unavailable_without_espeak() -> None:
    runner = FakeRunner()
    s = Speaker(runner=runner, which=missing)
    assert not s.available()
    assert not s.say("hello")
    assert runner.processes == []


def test_speech_available_with_espeak() -> None:
    assert Speaker(which=found).available()


def test_speech_default_which_looks_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not Speaker().available()


def test_speech_empty_text_says_nothing() -> None:
    runner = FakeRunner()
    assert not speaker(runner).say(" \n\t ")
    assert runner.processes == []


def test_speech_start_failure_logs_once_and_hides_option(caplog: pytest.LogCaptureFixture) -> None:
    def broken(argv: list[str]) -> FakeProcess:
        raise FileNotFoundError(2, "No such file or directory", argv[0])

    s = Speaker(runner=broken, which=found)
    with caplog.at_level(logging.WARNING, logger="device.services.speech"):
        assert not s.say("one")
        assert not s.say("two")
    assert len(caplog.records) == 1
    assert not s.available()


@pytest.mark.parametrize(("field", "value"), [("output", "bluetooth"), ("language", "xx")])
def test_speech_refuses_unknown_settings(field: str, value: str) -> None:
    with pytest.raises(ValueError):
        Speaker(**{field: value}, which=found)  # type: ignore[arg-type]
    s = Speaker(which=found)
    with pytest.raises(ValueError):
        setattr(s, field, value)


# -- the headphones rule ------------------------------------------------------------------------------------


def test_speech_say_key_on_speaker_sends_nothing() -> None:
    runner = FakeRunner()
    s = speaker(runner, output="speaker")
    assert s.say_key("Vos agents : port, lune.") is False
    assert runner.processes == []


def test_speech_say_key_on_speaker_does_not_cut_current_announcement() -> None:
    runner = FakeRunner()
    s = speaker(runner, output="speaker")
    s.say("Indice : port, 2.")
    s.say_key("Vos agents : port, lune.")
    assert len(runner.processes) == 1
    assert not runner.processes[0].terminated


def test_speech_say_key_on_headphones_speaks() -> None:
    runner = FakeRunner()
    s = speaker(runner, output="headphones")
    assert s.say_key("Vos agents : port, lune.")
    assert runner.argvs[0][-1] == "Vos agents : port, lune."


def test_speech_switching_to_speaker_cuts_a_key_being_read() -> None:
    runner = FakeRunner()
    s = speaker(runner, output="headphones")
    s.say_key("Vos agents : port, lune.")
    s.output = "speaker"
    assert runner.processes[0].terminated
    assert not s.say_key("Vos agents : port, lune.")
    assert len(runner.processes) == 1


# -- texts --------------------------------------------------------------------------------------------------


def test_speech_clean_text_flattens_control_characters() -> None:
    assert clean_text("a\nb\x00c\t d  ") == "a b c d"
    assert len(clean_text("x" * 5000)) == 2000


def test_speech_clue_announcement_french() -> None:
    assert clue_announcement("fr", "PORT", 2, 7, 5) == (
        "Indice : port, 2. Il reste 7 agents à trouver. Il reste 5 jetons temps dans la banque."
    )
    assert clue_announcement("fr", "lune", 1, 1, 1) == (
        "Indice : lune, 1. Il reste 1 agent à trouver. Il reste 1 jeton temps dans la banque."
    )
    assert clue_announcement("fr", "lune", 0, 0, 0) == (
        "Indice : lune, 0. Plus aucun agent à trouver. La banque de jetons temps est vide."
    )


def test_speech_clue_announcement_english() -> None:
    assert clue_announcement("en", "Harbour", 3, 9, 8) == (
        "Clue: Harbour, 3. 9 agents left to find. 8 timer tokens left in the bank."
    )
    assert clue_announcement("en", "moon", 1, 1, 1) == (
        "Clue: moon, 1. 1 agent left to find. 1 timer token left in the bank."
    )


def test_speech_clue_announcement_romanian() -> None:
    assert clue_announcement("ro", "PORT", 2, 7, 5) == (
        "Indiciu: port, 2. Au mai rămas 7 agenți de găsit. Au mai rămas 5 jetoane de timp în bancă."
    )
    assert clue_announcement("ro", "lună", 1, 1, 1) == (
        "Indiciu: lună, 1. A mai rămas un agent de găsit. A mai rămas un jeton de timp în bancă."
    )
    assert "20 de agenți" in clue_announcement("ro", "x", 1, 20, None)
    assert "Banca de jetoane de timp este goală." in clue_announcement("ro", "x", 1, 3, 0)


def test_speech_speaks_every_interface_language() -> None:
    """German and Italian are spoken too, in their own words and plurals (the catalogs' speech texts)."""
    from device.i18n import LANGUAGES as INTERFACE

    assert set(INTERFACE) <= set(LANGUAGES)
    assert clue_announcement("de", "HAFEN", 2, 1, 5) == (
        "Hinweis: hafen, 2. Noch 1 Agent zu finden. Noch 5 Zeitmarker übrig.")
    assert clue_announcement("it", "porto", 2, 7, 1) == (
        "Indizio: porto, 2. Restano 7 agenti da trovare. Resta 1 segnalino tempo.")
    summary = SeatKeySummary(agents=("PORT",), assassins=("CHAT", "ROBE"))
    assert key_announcement("de", summary) == "Dein Agent: port. Attentäter: chat, robe."
    assert key_announcement("it", summary) == "Il tuo agente: port. Assassini: chat, robe."


def test_speech_clue_announcement_without_bank_or_limit() -> None:
    text = clue_announcement("en", "moon", None, 4, None)
    assert text == "Clue: moon, unlimited. 4 agents left to find."
    assert "illimité" in clue_announcement("fr", "lune", None, 4, None)
    assert "banque" not in clue_announcement("fr", "lune", None, 4, None)


def test_speech_announcement_refuses_unknown_language() -> None:
    with pytest.raises(ValueError):
        clue_announcement("xx", "x", 1, 1, 1)
    with pytest.raises(ValueError):
        key_announcement("xx", SeatKeySummary(("a",)))


def test_speech_key_summary_sorts_uncovered_words() -> None:
    words = ["PORT", "LUNE", "CHAT", "ROBE"]
    summary = key_summary(words, "GNXG", [False, False, False, True])
    assert summary == SeatKeySummary(agents=("PORT",), assassins=("CHAT",), bystanders=("LUNE",))
    assert key_summary(words, "GNXG").agents == ("PORT", "ROBE")


def test_speech_key_summary_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        key_summary(["a", "b"], "G")
    with pytest.raises(ValueError):
        key_summary(["a"], "R")


def test_speech_key_announcement_in_three_languages() -> None:
    summary = SeatKeySummary(agents=("PORT", "LUNE"), assassins=("CHAT",), bystanders=())
    assert key_announcement("fr", summary) == "Tes agents : port, lune. Assassin : chat."  # tu, as everywhere
    assert key_announcement("en", summary) == "Your agents: port, lune. Assassin: chat."
    assert key_announcement("ro", summary) == "Agenții tăi: port, lune. Asasin: chat."


def test_speech_key_announcement_with_no_agent_left() -> None:
    summary = SeatKeySummary(agents=(), assassins=("CHAT", "ROBE"), bystanders=("MER",))
    assert key_announcement("fr", summary) == (
        "Tu n'as plus d'agent à faire deviner. Assassins : chat, robe. Témoin : mer."
    )


# -- the real espeak-ng, when installed ---------------------------------------------------------------------


@pytest.mark.skipif(shutil.which(ESPEAK) is None, reason="espeak-ng not installed")
@pytest.mark.parametrize("language", ["fr", "en", "ro", "de", "it"])
def test_speech_real_espeak_knows_the_voices(language: str, tmp_path: Path) -> None:
    argv = Speaker(language=language).argv(clue_announcement(language, "PORT", 2, 7, 5))
    out = tmp_path / "speech.wav"
    # Same command line, written to a file instead of the audio device (CI has none).
    argv = [*argv[:-2], "-w", str(out), *argv[-2:]]
    result = subprocess.run(argv, capture_output=True, timeout=30, check=False)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 10_000


# -- headphones: really detected, really routed -------------------------------------------------------------

def test_speech_key_goes_to_the_headphones_device_not_the_speakers() -> None:
    runner = FakeRunner()
    s = speaker(runner, output="headphones", device="plughw:CARD=Speaker,DEV=0")
    assert s.say("Indice : port, 2.")
    assert s.say_key("Vos agents : port, lune.")
    public, key = runner.argvs
    assert public[public.index("-d") + 1] == "plughw:CARD=Speaker,DEV=0"
    assert key[key.index("-d") + 1] == HEADSET


def test_speech_headphones_only_without_headphones_speaks_no_key() -> None:
    runner = FakeRunner()
    s = speaker(runner, output="headphones", headphones=lambda: None)
    assert not s.headphones_present()
    assert s.say_key("Vos agents : port, lune.") is False
    assert runner.argvs == []


def test_speech_find_headphones_reads_the_alsa_cards(tmp_path: Path) -> None:
    from device.services.speech import find_headphones

    cards = tmp_path / "cards"
    cards.write_text(
        " 0 [Headphones     ]: bcm2835_headphonesbcm2835 Headphones - bcm2835 Headphones\n"
        "                      bcm2835 Headphones\n"
        " 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n"
        "                      vc4-hdmi-0\n")
    assert find_headphones(str(cards)) is None  # the Pi's own jack and HDMI are the table's speaker
    cards.write_text(cards.read_text() + " 2 [Headset        ]: USB-Audio - USB Headset\n"
                                          "                      Logitech USB Headset at usb-1.3\n")
    assert find_headphones(str(cards)) == "plughw:CARD=Headset,DEV=0"
    assert find_headphones(str(tmp_path / "none")) is None
