"""The box's settings: defaults, what storage holds, the café cascade, and who must hear of a change.

A read-only mapping for everyone (``settings["language"]``); ``set(key, value)`` saves at once and tells the
listeners (the translator, the outputs' brightness, the hourglass length, the audio service)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping

from common.jsonvalue import Json
from device.i18n import LANGUAGES
from device.packs import following_language
from device.seams import SettingValue
from device.storage import Storage
from engine.seats import SEATS

log = logging.getLogger("duetbox.settings")

DEFAULT_SETTINGS: dict[str, SettingValue] = {
    "language": "fr",
    "pack": "fr",
    "tokens": 9,
    "brightness": 0.6,
    "idle_minutes": 5,
    "abandon_hours": 24,
    "orientation": "table",
    "clues": "strict",
    "several_clues": False,
    "hourglass_seconds": 60,
    "hourglass_enforced": False,
    "speech": False,  # before per-seat speech: on = both seats
    "speech_A": False,
    "speech_B": False,
    "speech_output_A": "speaker",
    "speech_output_B": "speaker",
    "volume": 0.7,
    "muted": False,
    "cafe_mode": False,
}
#: What turning café mode on sets (docs/kiosk.md): silent, a short attract time, games left behind cleared.
CAFE_DEFAULTS: dict[str, SettingValue] = {"muted": True, "idle_minutes": 2, "abandon_hours": 1}

Listener = Callable[[str, SettingValue], None]


class Settings(Mapping[str, SettingValue]):
    """The settings over one ``Storage``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._values = dict(DEFAULT_SETTINGS)
        stored = storage.settings()
        self._values.update(_values(stored))
        if stored.get("speech") and not any(f"speech_{s}" in stored for s in SEATS):
            for seat in SEATS:  # the one switch of older boxes: both seats
                self._values[f"speech_{seat}"] = True
        self._listeners: list[Listener] = []

    def __getitem__(self, key: str) -> SettingValue:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def set(self, key: str, value: SettingValue) -> None:
        old_language = self._values.get("language")
        self._values[key] = value
        self.storage.set_setting(key, value)
        if key == "language" and value in LANGUAGES and old_language != value:  # the pack follows, unless chosen
            self.set("pack", following_language(str(self._values.get("pack")), str(old_language), value))
        for listener in self._listeners:
            listener(key, value)
        if key == "cafe_mode":
            # café defaults when it is turned on (each can be changed afterwards); sound back when off
            for name, default in (CAFE_DEFAULTS.items() if value else (("muted", False),)):
                self.set(name, default)


def _values(stored: dict[str, Json]) -> dict[str, SettingValue]:
    """The stored settings a box can use: a word, a number or a switch (anything else is left out)."""
    out: dict[str, SettingValue] = {}
    for key, value in stored.items():
        if isinstance(value, (str, int, float, bool)):
            out[key] = value
        elif value is not None:  # None: a setting forgotten (the admin PIN's old place, device/pin.py)
            log.warning("the stored setting %s=%r is not a setting value: ignored", key, value)
    return out
