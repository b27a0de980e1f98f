"""The mock backend: every device in memory, a fake clock, test helpers and fault switches.

Typical use::

    box = open_box("mock")
    box.press("A.ok"); box.hold("B.stop", 800); box.touch(12)
    events = box.wait_events(0)
    box.oleds["A"].image, box.oleds["A"].bytes_sent, box.ring.frames
    box.oleds["B"].fail_next(3); box.ring.vanish(); box.ring.reappear()

``MockBox(config, threaded=True, i2c_hz=400_000)`` runs the Pi's code path instead: the OLEDs of one I2C port
share one ``BusWriter`` thread and every write takes its wire time on a ``TimedLink`` (9 clock cycles a byte
on I2C; ``bus_wait`` can be a gate a test opens, so no test sleeps on the wall clock). ``spi_hz`` times the
ring's writes too; ``ring_writer=True`` gives the ring a writer thread of its own (not what the Pi does).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Literal

from PIL import Image

from hardware.base import RGB, SEAT_BUTTONS, SEATS, Button, Clock, InputEvent, Seat
from hardware.box import Box
from hardware.buswriter import BusWriter
from hardware.config import HardwareConfig
from hardware.events import EventQueue
from hardware.oled import FRAME_BYTES, PAGE_BYTES, PAGES, OledScreen, run_cost, unpack_pages, window_cost
from hardware.ring import Ring, ws2812_spi_bytes

#: I2C: 8 data bits and the acknowledge per byte (start and stop bits not counted: a lower bound).
I2C_BITS_PER_BYTE = 9
#: The Pi's I2C clock when ``dtparam=i2c_arm_baudrate`` is not set, and the one the box is set to.
I2C_DEFAULT_HZ = 100_000
I2C_FAST_HZ = 400_000


class TimedLink:
    """A serial bus with a wire time: ``transfer(n)`` takes ``n * bits_per_byte / hz`` seconds, one transfer
    at a time (a bus carries one transaction at once).

    ``wait(seconds)`` spends the time: ``time.sleep`` in the bench, a gate in tests. ``last_done`` is the
    ``time.perf_counter()`` at the end of the last transfer (for the bench's "on the glass" timestamps).
    """

    def __init__(self, name: str, hz: float, bits_per_byte: int = I2C_BITS_PER_BYTE, *,
                 wait: Callable[[float], object] = time.sleep) -> None:
        if hz <= 0:
            raise ValueError(f"a bus clock is positive, got {hz}")
        self.name = name
        self.hz = float(hz)
        self.bits_per_byte = bits_per_byte
        self.wait = wait
        self._lock = threading.Lock()
        self.bytes = 0
        self.transfers = 0
        self.busy_s = 0.0
        self.elapsed_s = 0.0
        self.last_done: float | None = None

    def seconds(self, nbytes: int) -> float:
        return nbytes * self.bits_per_byte / self.hz

    def transfer(self, nbytes: int) -> None:
        with self._lock:
            took = self.seconds(nbytes)
            began = time.perf_counter()
            self.wait(took)
            self.bytes += nbytes
            self.transfers += 1
            self.busy_s += took
            self.elapsed_s += time.perf_counter() - began  # the wire time plus this host's wake-up delay
            self.last_done = time.perf_counter()


class FakeClock:
    """A clock that only moves when told."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self._now += seconds


class BusGate:
    """A ``TimedLink`` wait for tests: passes at once while open; while closed, a transfer stays "on the bus"
    (``waiting`` is set) until the test opens the gate. No wall-clock time decides anything."""

    def __init__(self, *, closed: bool = False, limit: float = 10.0) -> None:
        self._open = threading.Event()
        if not closed:
            self._open.set()
        self.waiting = threading.Event()
        self.limit = limit  # a forgotten gate fails the transfer instead of hanging the test run
        self.calls = 0

    def __call__(self, seconds: float) -> None:
        self.calls += 1
        if self._open.is_set():
            return
        self.waiting.set()
        if not self._open.wait(self.limit):
            raise OSError(110, "bus gate never opened (test)")

    def close(self) -> None:
        self.waiting.clear()
        self._open.clear()

    def open(self) -> None:
        self._open.set()


class Faults:
    """Fault switches shared by the mock OLED panel and ring driver."""

    def __init__(self) -> None:
        self.failures_left = 0
        self.gone = False
        self.writes = 0  # writes attempted
        self.inits = 0  # successful (re-)initialisations

    def fail_next(self, n: int = 1) -> None:
        """Make the next ``n`` writes (or re-inits) raise OSError."""
        self.failures_left += n

    def vanish(self) -> None:
        """Unplug: every access raises OSError until ``reappear``."""
        self.gone = True

    def reappear(self) -> None:
        self.gone = False

    def trip(self, what: str) -> None:
        if self.gone:
            raise OSError(121, f"Remote I/O error ({what}: device vanished)")
        if self.failures_left > 0:
            self.failures_left -= 1
            raise OSError(5, f"Input/output error ({what}: injected)")


class MockOledPanel:
    """An OLED's controller RAM in memory."""

    def __init__(self, model: str = "ssd1306", *, link: TimedLink | None = None) -> None:
        self.model = model
        self.link = link  # the bus's wire time, None: instant
        self.faults = Faults()
        self.ram = bytearray(FRAME_BYTES)
        self.closed = False

    def init(self) -> None:
        self.faults.trip("init")
        self.faults.inits += 1
        self.ram = bytearray(FRAME_BYTES)  # a power-cycled panel forgets its picture

    def write_pages(self, first: int, data: bytes) -> None:
        self.faults.writes += 1
        self.faults.trip("write")
        start = first * PAGE_BYTES
        if start + len(data) > FRAME_BYTES or len(data) % PAGE_BYTES:
            raise ValueError("page write out of range")
        if self.link is not None:
            self.link.transfer(run_cost(self.model, len(data) // PAGE_BYTES))
        self.ram[start:start + len(data)] = data

    def write_window(self, first: int, pages: int, c0: int, c1: int, data: bytes) -> None:
        self.faults.writes += 1
        self.faults.trip("write")
        width = c1 - c0 + 1
        if not (0 <= c0 <= c1 < PAGE_BYTES and 0 <= first and first + pages <= PAGES
                and len(data) == pages * width):
            raise ValueError("window write out of range")
        if self.link is not None:  # on the glass when the last byte is on the wire
            self.link.transfer(window_cost(self.model, pages, width))
        for i in range(pages):
            start = (first + i) * PAGE_BYTES + c0
            self.ram[start:start + width] = data[i * width:(i + 1) * width]

    def glass(self) -> Image.Image:
        """What the panel shows now (in the panel's own orientation)."""
        return unpack_pages([bytes(self.ram[p * PAGE_BYTES:(p + 1) * PAGE_BYTES]) for p in range(PAGES)])

    def close(self) -> None:
        self.closed = True


class MockSeatScreen(OledScreen):
    """An OLED screen over a ``MockOledPanel``: ``.image``, ``.bytes_sent`` and fault switches."""

    panel: MockOledPanel

    def __init__(self, name: str, clock: Clock, *, model: str = "ssd1306", rotation: int = 0,
                 link: TimedLink | None = None, writer: BusWriter | None = None) -> None:
        super().__init__(name, MockOledPanel(model, link=link), clock, rotation=rotation, writer=writer)

    def fail_next(self, n: int = 1) -> None:
        self.panel.faults.fail_next(n)

    def vanish(self) -> None:
        self.panel.faults.vanish()

    def reappear(self) -> None:
        self.panel.faults.reappear()

    def glass(self) -> Image.Image:
        return self.panel.glass()


class MockRingDriver:
    """Records the corrected frames that reached the LEDs."""

    def __init__(self, *, link: TimedLink | None = None) -> None:
        self.faults = Faults()
        self.link = link
        self.written: list[tuple[RGB, ...]] = []
        self.closed = False

    def open(self) -> None:
        self.faults.trip("open")
        self.faults.inits += 1

    def write(self, pixels: Sequence[RGB]) -> None:
        self.faults.writes += 1
        self.faults.trip("write")
        if self.link is not None:
            self.link.transfer(len(ws2812_spi_bytes(pixels)))
        self.written.append(tuple(pixels))

    def close(self) -> None:
        self.closed = True


class MockRing(Ring):
    """The ring with ``.frames`` (every logical frame the app showed) and fault switches."""

    driver: MockRingDriver

    def __init__(self, clock: Clock, *, link: TimedLink | None = None, **kwargs: object) -> None:
        super().__init__("LED ring", MockRingDriver(link=link), clock, **kwargs)  # type: ignore[arg-type]
        self.frames: list[tuple[RGB, ...]] = []

    def show(self, pixels: Sequence[RGB]) -> None:
        super().show(pixels)
        assert self.last is not None
        self.frames.append(self.last)

    def fail_next(self, n: int = 1) -> None:
        self.driver.faults.fail_next(n)

    def vanish(self) -> None:
        self.driver.faults.vanish()

    def reappear(self) -> None:
        self.driver.faults.reappear()


class MockButtons:
    """The button panel's outputs (the OK LEDs); inputs come from the box's helpers."""

    def __init__(self) -> None:
        self.ok_leds: dict[Seat, bool] = {"A": False, "B": False}
        self.closed = False

    def set_ok_led(self, seat: Seat, on: bool) -> None:
        if seat not in SEATS:
            raise ValueError(f"no seat {seat!r}")
        self.ok_leds[seat] = bool(on)

    def close(self) -> None:
        self.closed = True


class MockDisplay:
    """The shared display as an off-screen pygame Surface; ``presents`` counts ``present`` calls."""

    def __init__(self, size: tuple[int, int] = (1280, 720)) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.size = size
        self.surface = pygame.Surface(size)
        self.presents = 0
        self.last_rects: list[pygame.Rect] | None = None
        self.closed = False

    def present(self, rects: Sequence[object] | None = None) -> None:
        if self.closed:
            raise RuntimeError("the display is closed")
        self.presents += 1
        self.last_rects = None if rects is None else list(rects)  # type: ignore[arg-type]

    def snapshot(self) -> Image.Image:
        """The surface as a PIL RGB image."""
        import pygame

        return Image.frombytes("RGB", self.size, pygame.image.tobytes(self.surface, "RGB"))

    def close(self) -> None:
        self.closed = True


def parse_button(name: str) -> tuple[Seat | None, Button]:
    """ "A.ok" -> ("A", "ok"); "menu" -> (None, "menu"). Raises ValueError for anything else."""
    if name == "menu":
        return None, "menu"
    seat, _, button = name.partition(".")
    for known_seat in SEATS:
        for known in SEAT_BUTTONS:
            if (seat, button) == (known_seat, known):
                return known_seat, known
    raise ValueError(f"unknown button {name!r} (use e.g. 'A.ok', 'B.up', 'menu')")


def queue_button(queue: EventQueue, clock: Clock, name: str, kind: Literal["press", "release"]) -> None:
    seat, button = parse_button(name)
    queue.put(InputEvent(seat=seat, button=button, kind=kind, time=clock.now()))


class MockBox(Box):
    """The whole box in memory. ``wait_events`` never blocks: it returns what the helpers queued."""

    backend = "mock"
    clock: Clock
    buttons: MockButtons
    oleds: dict[Seat, MockSeatScreen]
    ring: MockRing
    display: MockDisplay

    def __init__(
        self,
        config: HardwareConfig,
        *,
        clock: Clock | None = None,
        display_size: tuple[int, int] | None = None,
        threaded: bool = False,
        i2c_hz: float | None = None,
        spi_hz: float | None = None,
        bus_wait: Callable[[float], object] = time.sleep,
        ring_writer: bool = False,
    ) -> None:
        clk: Clock = clock if clock is not None else FakeClock()
        rc = config.ring
        # One timed link and (threaded) one writer per I2C port, as on the Pi; the ring on its SPI link.
        self.i2c_links: dict[int, TimedLink] = {}
        self.spi_link: TimedLink | None = None
        self.writers: dict[str, BusWriter] = {}
        ports = sorted({config.oleds[seat].port for seat in SEATS})
        if i2c_hz is not None:
            self.i2c_links = {port: TimedLink(f"i2c-{port}", i2c_hz, wait=bus_wait) for port in ports}
        if spi_hz is not None:
            self.spi_link = TimedLink("spi ring", spi_hz, 8, wait=bus_wait)
        if threaded:
            self.writers = {f"i2c-{port}": BusWriter(f"I2C bus {port}") for port in ports}
        if ring_writer:  # not the Pi's choice (see hardware/pi.py); kept to measure the difference
            self.writers["spi"] = BusWriter("LED ring SPI")
        oleds = {
            seat: MockSeatScreen(f"OLED {seat}", clk, model=config.oleds[seat].model,
                                 rotation=config.oleds[seat].rotation,
                                 link=self.i2c_links.get(config.oleds[seat].port),
                                 writer=self.writers.get(f"i2c-{config.oleds[seat].port}"))
            for seat in SEATS
        }
        super().__init__(
            config=config,
            clock=clk,
            buttons=MockButtons(),
            oleds=oleds,
            ring=MockRing(clk, count=rc.count, brightness=rc.brightness, gamma=rc.gamma,
                          first_led=rc.first_led, clockwise=rc.clockwise, link=self.spi_link,
                          writer=self.writers.get("spi")),
            display=MockDisplay(display_size or config.display.size or (1280, 720)),
            queue=EventQueue(),
        )

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every frame shown so far left the bus writers (True; at once when not threaded)."""
        ok = all(self.oleds[seat].flush(timeout) for seat in SEATS)
        return self.ring.flush(timeout) and ok

    # -- input helpers ---------------------------------------------------------------------------------------
    def press(self, name: str) -> None:
        """Queue a press of "A.ok", "B.left", "menu", ..."""
        queue_button(self.queue, self.clock, name, "press")

    def release(self, name: str) -> None:
        queue_button(self.queue, self.clock, name, "release")

    def hold(self, name: str, ms: float) -> None:
        """Press, let ``ms`` milliseconds pass on the fake clock, release."""
        advance = getattr(self.clock, "advance", None)
        if advance is None:
            raise TypeError("hold() needs a clock with advance(), such as FakeClock")
        self.press(name)
        advance(ms / 1000)
        self.release(name)

    def tap(self, name: str) -> None:
        """Press and release at the same instant."""
        self.press(name)
        self.release(name)

    def touch(self, card: int) -> None:
        """Tap a card of the shared grid (by index): the finger comes down and lifts at the same instant."""
        self.touch_down(card)
        self.touch_up(card)

    def touch_at(self, x: float, y: float) -> None:
        """Tap the shared display at a normalised position (0..1, 0..1): down and up at the same instant."""
        now = self.clock.now()
        self.queue.put(InputEvent(seat=None, button="touch", kind="touch", time=now, pos=(x, y)))
        self.queue.put(InputEvent(seat=None, button="touch", kind="untouch", time=now, pos=(x, y)))

    def touch_down(self, card: int) -> None:
        """A finger comes down on a card and stays there (``touch_up`` lifts it, ``drag`` moves it)."""
        self.queue.put(InputEvent(seat=None, button="touch", kind="touch", time=self.clock.now(), card=card))

    def drag(self, card: int | None) -> None:
        """The finger, still down, moves onto ``card`` (None: off the grid)."""
        self.queue.put(InputEvent(seat=None, button="touch", kind="drag", time=self.clock.now(), card=card))

    def touch_up(self, card: int | None = None) -> None:
        """The finger lifts (over ``card``, or wherever it was)."""
        self.queue.put(InputEvent(seat=None, button="touch", kind="untouch", time=self.clock.now(), card=card))

    def type_text(self, seat: Seat | None, text: str) -> None:
        """What a USB keyboard would deliver: one text event carrying ``text``."""
        event = InputEvent(seat=seat, button="keyboard", kind="text", time=self.clock.now(), text=text)
        self.queue.put(event)

    def quit(self) -> None:
        self.queue.put(InputEvent(seat=None, button="quit", kind="quit", time=self.clock.now()))

    def advance(self, seconds: float) -> None:
        """Move the fake clock."""
        advance = getattr(self.clock, "advance", None)
        if advance is None:
            raise TypeError("advance() needs a clock with advance(), such as FakeClock")
        advance(seconds)
