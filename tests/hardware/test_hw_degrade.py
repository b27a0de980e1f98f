"""Degrade, don't die (hardware side): the pi backend opens without an OLED and waits for a missing shared
display, and each comes back later (fakes of the buses, SDL's dummy driver, a fake clock and sleep)."""

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hw_fakes import FakeOledBus, FakeSpidevModule
from PIL import Image, ImageChops, ImageDraw

from hardware.config import parse_config
from hardware.degrade import DISPLAY_RETRY_S, missing_oleds
from hardware.errors import HardwareMissing
from hardware.mock import FakeClock
from hardware.pi import PiBox, PiDisplay


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def cfg(tmp_path):
    dev = tmp_path / "spidev0.0"
    dev.write_bytes(b"")
    return parse_config({"ring": {"device": str(dev)},
                         "display": {"width": 800, "height": 480, "fullscreen": False}})


def frame(text):
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((4, 4), text, fill=1)
    return img


def same(a, b):
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def test_a_missing_oled_at_start_opens_the_box_and_comes_back_later(factory, cfg):
    clock = FakeClock()
    bus_b = FakeOledBus("ssd1306", 0x3D)
    bus_b.present = False  # seat B's OLED is unplugged at boot
    buses = {"A": FakeOledBus("ssd1306", 0x3C), "B": bus_b}
    box = PiBox(cfg, clock=clock, pin_factory=factory, i2c_buses=buses, spidev_module=FakeSpidevModule(),
                degrade=True)
    try:
        missing = box.missing_oleds()
        assert list(missing) == ["B"]
        assert "0x3D" in missing["B"] and "seat B" in missing["B"]
        box.oleds["A"].show(frame("seat A"))
        box.oleds["B"].show(frame("seat B"))  # kept back: the panel is not there
        for seat in ("A", "B"):
            assert box.oleds[seat].flush(5)  # the bus writer thread is done
        assert same(buses["A"].glass(), frame("seat A"))
        assert not buses["B"].glass().getbbox()
        clock.advance(60)
        box.service()  # still unplugged: retried, still missing, nothing raised
        assert box.oleds["B"].flush(5)
        assert list(box.missing_oleds()) == ["B"]
        bus_b.present = True  # plugged in again
        clock.advance(60)  # past the longest backoff
        box.service()
        assert box.oleds["B"].flush(5)
        assert box.missing_oleds() == {}
        assert same(bus_b.glass(), frame("seat B").rotate(180))  # the default config turns seat B's panel
    finally:
        box.close()


def test_without_degrade_a_missing_oled_still_raises(factory, cfg):
    bus_b = FakeOledBus("ssd1306", 0x3D)
    bus_b.present = False
    with pytest.raises(HardwareMissing, match="seat B"):
        PiBox(cfg, pin_factory=factory, i2c_buses={"A": FakeOledBus("ssd1306", 0x3C), "B": bus_b},
              spidev_module=FakeSpidevModule())


def test_both_oleds_missing_are_both_reported(factory, cfg):
    buses = {"A": FakeOledBus("ssd1306", 0x3C), "B": FakeOledBus("ssd1306", 0x3D)}
    for bus in buses.values():
        bus.present = False
    box = PiBox(cfg, clock=FakeClock(), pin_factory=factory, i2c_buses=buses, spidev_module=FakeSpidevModule(),
                degrade=True)
    try:
        assert list(box.missing_oleds()) == ["A", "B"]
    finally:
        box.close()


def test_a_missing_shared_display_is_waited_for_with_messages_then_used(factory, cfg):
    tries: list[int] = []
    waits: list[tuple[str, int]] = []
    slept: list[float] = []
    spidev = FakeSpidevModule()
    buses = {"A": FakeOledBus("ssd1306", 0x3C), "B": FakeOledBus("ssd1306", 0x3D)}

    def display_factory():
        tries.append(1)
        if len(tries) < 4:  # the screen is switched on during the third pause
            raise HardwareMissing("cannot open the display with SDL driver kmsdrm (no connected displays)")
        return PiDisplay((800, 480), fullscreen=False)

    def wait(reason, attempt, oleds, ring):
        waits.append((reason, attempt))
        oleds["A"].show(frame(f"waiting {attempt}"))
        ring.show([(40, 20, 0)] * ring.count)

    box = PiBox(cfg, clock=FakeClock(), pin_factory=factory, i2c_buses=buses, spidev_module=spidev,
                display_wait=wait, display_factory=display_factory, display_sleep=slept.append)
    try:
        assert [a for _, a in waits] == [1, 2, 3]
        assert all("no connected displays" in r for r, _ in waits)
        assert slept == [DISPLAY_RETRY_S] * 3
        assert box.oleds["A"].flush(5)
        assert same(buses["A"].glass(), frame("waiting 3"))  # the message reached the seat screen
        assert spidev.devices[0].writes  # and the ring
        assert box.display.size == (800, 480)
        box.display.surface.fill((1, 2, 3))
        box.display.present()
    finally:
        box.close()
        pygame.display.quit()


def test_without_a_wait_a_missing_display_raises_and_releases_the_rest(factory, cfg):
    spidev = FakeSpidevModule()

    def no_display():
        raise HardwareMissing("no display")

    with pytest.raises(HardwareMissing, match="no display"):
        PiBox(cfg, pin_factory=factory, i2c_buses={"A": FakeOledBus("ssd1306", 0x3C),
                                                   "B": FakeOledBus("ssd1306", 0x3D)},
              spidev_module=spidev, display_factory=no_display)
    assert spidev.devices[0].closed  # the ring was closed again


def test_missing_oleds_on_the_mock_follows_a_vanished_panel():
    from hardware.factory import open_box

    box = open_box("mock")
    try:
        assert box.missing_oleds() == {}
        box.oleds["A"].vanish()
        box.oleds["A"].show(frame("x"))
        assert list(box.missing_oleds()) == ["A"]
        assert list(missing_oleds(box.oleds)) == ["A"]
    finally:
        box.close()
