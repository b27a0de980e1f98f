"""Sound cues and spoken announcements, routed by the settings (per-seat speech, speaker or headphones).

Never raises and never blocks: a sound or a voice must not stop the game."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Protocol

from device.seams import SettingValue
from engine.seats import SEATS

log = logging.getLogger("duetbox.audio")


class SoundPlayer(Protocol):
    volume: float
    muted: bool

    def play(self, cue: str) -> object: ...


class Speaker(Protocol):
    language: str
    output: str

    def say(self, text: str) -> object: ...
    def say_key(self, text: str) -> object: ...


class Audio:
    """The box's sound player and speaker (either may be missing) under the current settings."""

    def __init__(self, settings: Mapping[str, SettingValue], sound: SoundPlayer | None = None,
                 speaker: Speaker | None = None) -> None:
        self.settings = settings
        self.sound = sound
        self.speaker = speaker
        self.speak_in(str(settings["language"]))
        self.update_sound()

    def on_setting(self, key: str, value: SettingValue) -> None:
        if key == "language":
            self.speak_in(str(value))
        if key in ("volume", "muted"):
            self.update_sound()

    @property
    def speech(self) -> Speaker | None:
        """The speaker while at least one seat has speech on."""
        on = any(self.settings.get(f"speech_{seat}") for seat in SEATS)
        return self.speaker if on else None

    def update_sound(self) -> None:
        if self.sound is None:
            return
        try:
            self.sound.volume = float(self.settings.get("volume", 0.7))
        except (ValueError, TypeError, AttributeError):
            log.warning("bad volume setting %r ignored", self.settings.get("volume"))
        try:
            self.sound.muted = bool(self.settings.get("muted"))
        except AttributeError:
            pass

    def speak_in(self, language: str) -> None:
        if self.speaker is not None:
            try:
                self.speaker.language = language
            except ValueError:
                log.warning("no spoken announcements in %s", language)

    def speech_for(self, seat: str | None) -> Speaker | None:
        """The speaker when ``seat`` has spoken announcements on (None otherwise, or without espeak-ng)."""
        if self.speaker is None or seat not in SEATS or not self.settings.get(f"speech_{seat}"):
            return None
        return self.speaker

    def speech_output(self, seat: str | None) -> str:
        """What ``seat`` hears speech through: "speaker" (the whole table) or "headphones"."""
        value = self.settings.get(f"speech_output_{seat}", "speaker")
        return "headphones" if value == "headphones" else "speaker"

    def play_cue(self, cue: str) -> None:
        """One sound cue (device.services.sound.CUES); the player handles mute and volume; never raises."""
        if self.sound is None:
            return
        try:
            self.sound.play(cue)
        except Exception:  # noqa: BLE001 - a sound must never stop the game
            log.exception("sound cue %s failed", cue)

    def announce(self, text: str, seat: str | None = None) -> None:
        """Speak ``text`` (public: clue, agents, bank) for ``seat`` through its output (without a seat: when
        any seat has speech on, through the speaker). Never blocks, never raises."""
        speaker = self.speech_for(seat) if seat is not None else self.speech
        if speaker is None:
            return
        try:
            self._route(speaker, self.speech_output(seat) if seat is not None else "speaker")
            speaker.say(text)
        except Exception:  # noqa: BLE001
            log.exception("speech failed")

    def announce_key(self, text: str, seat: str) -> bool:
        """Read a key to ``seat``: only when that seat's speech goes to headphones, never through the shared
        speaker (issue 9). True when it was handed to espeak-ng."""
        speaker = self.speech_for(seat)
        if speaker is None or self.speech_output(seat) != "headphones":
            return False
        try:
            self._route(speaker, "headphones")
            return bool(speaker.say_key(text))
        except Exception:  # noqa: BLE001
            log.exception("speech failed")
            return False

    @staticmethod
    def _route(speaker: Speaker, output: str) -> None:
        if getattr(speaker, "output", output) != output:
            speaker.output = output  # a key still being read is cut when it becomes the speaker
