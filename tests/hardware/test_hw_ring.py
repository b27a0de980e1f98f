import logging

import pytest

from hardware.mock import FakeClock, MockRing
from hardware.ring import SPI_ONE, SPI_RESET_BYTES, SPI_ZERO, correct, ws2812_spi_bytes

RED, OFF = (255, 0, 0), (0, 0, 0)


def test_ring_gamma_and_brightness_cap():
    assert correct(255, 0.25, 2.2) == 64
    assert correct(0, 1.0, 2.2) == 0
    assert correct(128, 1.0, 2.2) == round(255 * (128 / 255) ** 2.2)
    assert correct(128, 1.0, 1.0) == 128


def test_ring_show_records_frames_and_sends_corrected():
    ring = MockRing(FakeClock(), count=12, brightness=0.5, gamma=1.0)
    ring.show([RED] + [OFF] * 11)
    assert ring.frames == [(RED,) + (OFF,) * 11]
    assert ring.driver.written[-1][0] == (128, 0, 0)


def test_ring_writes_every_frame_it_is_shown():
    """No cache of its own: the app's outputs skip an unchanged ring frame (tests/device/render/test_outputs.py)."""
    ring = MockRing(FakeClock(), count=12)
    ring.show([RED] * 12)
    ring.show([RED] * 12)
    assert len(ring.frames) == 2 and len(ring.driver.written) == 2


def test_ring_first_led_and_direction_map_logical_to_physical():
    ring = MockRing(FakeClock(), count=12, brightness=1.0, gamma=1.0, first_led=3, clockwise=False)
    ring.show([RED, (0, 255, 0)] + [OFF] * 10)
    written = ring.driver.written[-1]
    assert written[3] == RED and written[2] == (0, 255, 0)


def test_ring_wrong_length_is_a_value_error():
    ring = MockRing(FakeClock(), count=16)
    with pytest.raises(ValueError, match="16 LEDs"):
        ring.show([RED] * 12)


def test_ring_survives_faults_and_catches_up(caplog):
    clock = FakeClock()
    ring = MockRing(clock, count=12)
    ring.vanish()
    with caplog.at_level(logging.WARNING, logger="duetbox.hardware"):
        for i in range(12):
            ring.show([RED if j == i else OFF for j in range(12)])
            clock.advance(0.25)
    assert len(caplog.records) == 1 and ring.driver.written == []
    ring.reappear()
    clock.advance(60)
    ring.service()
    assert ring.driver.written[-1][11] != OFF and ring.driver.faults.inits == 1


def test_ring_close_darkens_and_is_idempotent():
    ring = MockRing(FakeClock(), count=12)
    ring.show([RED] * 12)
    ring.close()
    ring.close()
    assert ring.driver.written[-1] == (OFF,) * 12 and ring.driver.closed


def test_ring_ws2812_spi_encoding():
    data = ws2812_spi_bytes([(0xFF, 0x00, 0x81)])
    assert data[0] == 0
    g, r, b = data[1:9], data[9:17], data[17:25]
    assert set(g) == {SPI_ZERO} and set(r) == {SPI_ONE}
    assert list(b) == [SPI_ONE] + [SPI_ZERO] * 6 + [SPI_ONE]
    assert data[25:] == bytes(SPI_RESET_BYTES)
    assert len(ws2812_spi_bytes([OFF] * 24)) == 1 + 24 * 24 + SPI_RESET_BYTES
