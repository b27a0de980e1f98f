"""The WS2812 LED ring: logical pixels (0 = top, clockwise) → brightness cap, gamma, wiring order → driver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from hardware.base import RGB, Clock
from hardware.buswriter import CLOSE_TIMEOUT_S, BusWriter, NewestFrame
from hardware.faults import FaultGuard

# WS2812 over SPI: each data bit becomes one SPI byte at 6.4 MHz (0.156 us per SPI bit). A one is 5 high
# bits (0.78 us high), a zero 2 high bits (0.31 us), both inside the WS2812B tolerances. The trailing zeros
# hold the line low for > 280 us, the latch time of the newer WS2812B parts.
SPI_HZ = 6_400_000
SPI_ONE = 0b11111000
SPI_ZERO = 0b11000000
SPI_RESET_BYTES = 240
_BYTE_PATTERNS: list[bytes] = [
    bytes(SPI_ONE if value & (0x80 >> bit) else SPI_ZERO for bit in range(8)) for value in range(256)
]


def ws2812_spi_bytes(pixels: Sequence[RGB]) -> bytes:
    """The SPI stream for a WS2812 string: a low lead byte, G R B per LED, MSB first, then the latch gap."""
    out = bytearray(1)
    for r, g, b in pixels:
        out += _BYTE_PATTERNS[g] + _BYTE_PATTERNS[r] + _BYTE_PATTERNS[b]
    out += bytes(SPI_RESET_BYTES)
    return bytes(out)


def correct(value: int, brightness: float, gamma: float) -> int:
    """One channel through the gamma curve and the brightness cap."""
    if value <= 0:
        return 0
    return round(255 * float((min(value, 255) / 255) ** gamma) * brightness)


class RingDriver(Protocol):
    def open(self) -> None:
        """(Re-)open the device. May raise OSError."""
        ...

    def write(self, pixels: Sequence[RGB]) -> None:
        """Send corrected pixels in wiring order. May raise OSError."""
        ...

    def close(self) -> None: ...


class Ring(NewestFrame[tuple[RGB, ...]]):
    """A ``LedRing``: logical pixels in, corrected frames out to a driver. Every frame shown is written (with a
    writer thread: the newest one, once); the app skips unchanged frames itself (device/outputs.py)."""

    def __init__(
        self,
        name: str,
        driver: RingDriver,
        clock: Clock,
        *,
        count: int,
        brightness: float = 0.25,
        gamma: float = 2.2,
        first_led: int = 0,
        clockwise: bool = True,
        writer: BusWriter | None = None,
    ) -> None:
        if count <= 0:
            raise ValueError(f"a ring has at least one LED, got {count}")
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness must be within 0..1, got {brightness}")
        self.name = name
        self.driver = driver
        self.clock = clock
        self.count = count
        self.brightness = brightness
        self.gamma = gamma
        self.first_led = first_led % count
        self.clockwise = clockwise
        self.frames_sent = 0
        self.last: tuple[RGB, ...] | None = None  # the last logical frame shown
        self._wanted: tuple[RGB, ...] | None = None
        self._held: tuple[RGB, ...] | None = None
        self._closed = False
        self.guard = FaultGuard(name, clock, self._reopen)
        # With a writer, show() hands the frame to the writer thread and returns; the newest frame wins, as for
        # the OLEDs. The Pi backend does not give the ring one: its 0.66 ms SPI write releases the GIL, and a
        # thread made the ring later, not sooner (docs/performance.md). MockBox(ring_writer=True) measures it.
        self.writer = writer
        if writer is not None:
            writer.attach(self)

    def physical(self, pixels: Sequence[RGB]) -> tuple[RGB, ...]:
        """Logical order (0 = top, clockwise), corrected, in the order the LEDs are wired."""
        out: list[RGB] = [(0, 0, 0)] * self.count
        for i, (r, g, b) in enumerate(pixels):
            step = i if self.clockwise else -i
            out[(self.first_led + step) % self.count] = (
                correct(r, self.brightness, self.gamma),
                correct(g, self.brightness, self.gamma),
                correct(b, self.brightness, self.gamma),
            )
        return tuple(out)

    def show(self, pixels: Sequence[RGB]) -> None:
        """Show ``count`` RGB colours. Raises ValueError on a wrong length; I/O errors are survived."""
        if self._closed:
            raise RuntimeError(f"{self.name} is closed")
        if len(pixels) != self.count:
            raise ValueError(f"{self.name} has {self.count} LEDs, got {len(pixels)} colours")
        frame = tuple((int(r), int(g), int(b)) for r, g, b in pixels)
        self.last = frame
        self._send(self.physical(frame))

    def _flush(self, wanted: tuple[RGB, ...]) -> None:
        def write() -> None:
            self.driver.write(wanted)
            self._held = wanted

        if self.guard.run(write):
            self.frames_sent += 1

    def _reopen(self) -> None:
        self._held = None
        self.driver.open()

    def close(self) -> None:
        """Dark ring, then release the device. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.writer is not None:
            self.writer.detach(self, CLOSE_TIMEOUT_S)  # the writer thread is done with the driver
        try:
            self.driver.write([(0, 0, 0)] * self.count)
        except OSError:
            pass
        try:
            self.driver.close()
        except OSError:
            pass

    def __enter__(self) -> Ring:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
