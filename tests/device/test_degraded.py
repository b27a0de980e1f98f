"""Degrade, don't die (the app's side): a missing OLED is named on the shared display and hot-seat comes first
in the menu until it is back; the messages while the shared display is missing; the ring device waited for."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from device.app import App  # noqa: E402
from device.degraded import STRIP, STRIP_BG, DisplayWaitMessages, notice_text  # noqa: E402
from device.i18n import Translator  # noqa: E402
from device.storage import Storage  # noqa: E402
from hardware.factory import open_box  # noqa: E402


def strip_pixels(app: App) -> int:
    """How many pixels of the bottom strip of the shared display have the notice's colour."""
    surface = app.box.display.surface
    w, h = surface.get_size()
    y = h - max(1, int(h * STRIP * 0.2))
    return sum(1 for x in range(0, w, 8) if tuple(surface.get_at((x, y)))[:3] == STRIP_BG)


@pytest.fixture
def box():  # type: ignore[no-untyped-def]
    b = open_box("mock")
    yield b


def make_app(box: Any, tmp_path: Path, language: str = "en") -> App:
    storage = Storage(tmp_path / "data")
    storage.set_setting("language", language)
    return App(box, storage, seed=5)


def menu_keys(app: App) -> list[str]:
    from device.screens.shell import MenuScreen

    return [item.key for item in MenuScreen(app).items()]


def test_one_oled_missing_at_start_is_named_and_hot_seat_offered_until_it_is_back(box: Any, tmp_path: Path) -> None:
    box.oleds["B"].vanish()  # seat B's panel does not answer from the start
    app = make_app(box, tmp_path)
    try:
        app.start()
        app.step(0)
        assert app.oled_notice.text == "Seat B's screen is not responding: play Hot-seat (in the menu) until it is back"
        assert strip_pixels(app) > 50  # the strip is on the shared display
        keys = menu_keys(app)
        assert keys.index("menu.hotseat") < keys.index("menu.duet")
        # plugged in again: after the guard's backoff the frame goes through and the notice goes away
        box.oleds["B"].reappear()
        for _ in range(8):
            box.advance(31)
            app.step(0)
        assert app.box.missing_oleds() == {}
        assert app.oled_notice.text is None
        assert strip_pixels(app) == 0  # redrawn without the strip
        keys = menu_keys(app)
        assert keys.index("menu.duet") < keys.index("menu.hotseat")  # the usual order again
        assert box.oleds["B"].glass().getbbox() is not None  # seat B shows its screen again
    finally:
        app.shutdown()


def test_both_oleds_missing_use_the_plural_and_french_reads_naturally(box: Any, tmp_path: Path) -> None:
    for seat in ("A", "B"):
        box.oleds[seat].vanish()
    app = make_app(box, tmp_path, "fr")
    try:
        app.start()
        app.step(0)
        assert app.oled_notice.text == ("Les écrans des sièges ne répondent pas : en attendant leur retour, "
                                        "jouer en « Écran partagé » (menu)")
    finally:
        app.shutdown()


def test_no_notice_when_every_oled_answers(box: Any, tmp_path: Path) -> None:
    app = make_app(box, tmp_path)
    try:
        app.start()
        app.step(0)
        assert app.oled_notice.text is None and strip_pixels(app) == 0
        assert notice_text(Translator("en"), {}) is None
    finally:
        app.shutdown()


class FakeNotifier:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def ready(self, status: str = "") -> None:
        self.sent.append(("ready", status))

    def status(self, text: str) -> None:
        self.sent.append(("status", text))

    def tick(self) -> None:
        self.sent.append(("tick", ""))


def test_shared_display_missing_at_start_shows_a_message_and_keeps_systemd_content() -> None:
    box = open_box("mock")  # only its OLEDs and ring are used, as the pi backend hands them over
    try:
        notifier = FakeNotifier()
        wait = DisplayWaitMessages(Translator("en"), notifier)
        wait("no connected displays", 1, box.oleds, box.ring)
        wait("no connected displays", 2, box.oleds, box.ring)
        assert wait.shown[0].title == "No display"
        assert wait.shown[0].lines == ("Connect and switch on", "the shared screen.", "Trying again…")
        for seat in ("A", "B"):
            assert box.oleds[seat].glass().getbbox() is not None  # the message is on both seat screens
        assert len(box.ring.frames) == 2 and any(p != (0, 0, 0) for p in box.ring.frames[-1])  # the ring too
        kinds = [k for k, _ in notifier.sent]
        assert kinds == ["ready", "tick", "status", "tick"]  # READY once: no start timeout, no restart loop
        assert "waiting for the shared display: no connected displays" in notifier.sent[0][1]
    finally:
        box.close()


def test_the_leds_ring_waits_for_its_own_device_not_spi() -> None:
    from device.services.notify import devices_needed
    from hardware.config import parse_config

    leds = devices_needed(parse_config({"ring": {"driver": "leds"}}))
    assert "/dev/leds0" in leds and not any("spidev" in d for d in leds)
    spi = devices_needed(parse_config({}))
    assert "/dev/spidev0.0" in spi and "/dev/leds0" not in spi
