"""The mock backend: every device in memory, a fake clock, test helpers and fault switches.

Typical use::

    box = open_box("mock")
    box.press("A.ok"); box.hold("B.stop", 800); box.touch(12)
    events = box.wait_events(0)
    box.oleds["A"].image, box.oleds["A"].bytes_sent, box.ring.frames
    box.oleds["B"].fail_next(3); box.ring.vanish(); box.ring.reappear()
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from PIL import Image

from hardware.base import BUTTONS, RGB, SEATS, Clock, InputEvent, Seat
from hardware.box import Box
from hardware.config import HardwareConfig
from hardware.events import EventQueue
from hardware.oled import FRAME_BYTES, PAGE_BYTES, PAGES, OledScreen, unpack_pages
from hardware.ring import Ring


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

    def __init__(self, model: str = "ssd1306") -> None:
        self.model = model
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
        self.ram[start:start + len(data)] = data

    def write_window(self, first: int, pages: int, c0: int, c1: int, data: bytes) -> None:
        self.faults.writes += 1
        self.faults.trip("write")
        width = c1 - c0 + 1
        if not (0 <= c0 <= c1 < PAGE_BYTES and 0 <= first and first + pages <= PAGES
                and len(data) == pages * width):
            raise ValueError("window write out of range")
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

    def __init__(self, name: str, clock: Clock, *, model: str = "ssd1306", rotation: int = 0) -> None:
        super().__init__(name, MockOledPanel(model), clock, rotation=rotation)

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

    def __init__(self) -> None:
        self.faults = Faults()
        self.written: list[tuple[RGB, ...]] = []
        self.closed = False

    def open(self) -> None:
        self.faults.trip("open")
        self.faults.inits += 1

    def write(self, pixels: Sequence[RGB]) -> None:
        self.faults.writes += 1
        self.faults.trip("write")
        self.written.append(tuple(pixels))

    def close(self) -> None:
        self.closed = True


class MockRing(Ring):
    """The ring with ``.frames`` (every logical frame the app showed) and fault switches."""

    driver: MockRingDriver

    def __init__(self, clock: Clock, **kwargs: object) -> None:
        super().__init__("LED ring", MockRingDriver(), clock, **kwargs)  # type: ignore[arg-type]
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


def parse_button(name: str) -> tuple[Seat | None, str]:
    """ "A.ok" -> ("A", "ok"); "menu" -> (None, "menu"). Raises ValueError for anything else."""
    if name == "menu":
        return None, "menu"
    seat, _, button = name.partition(".")
    if seat not in SEATS or button not in BUTTONS or button == "menu":
        raise ValueError(f"unknown button {name!r} (use e.g. 'A.ok', 'B.up', 'menu')")
    return seat, button


def queue_button(queue: EventQueue, clock: Clock, name: str, kind: str) -> None:
    seat, button = parse_button(name)
    queue.put(InputEvent(seat=seat, button=button, kind=kind, time=clock.now()))  # type: ignore[arg-type]


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
    ) -> None:
        clk: Clock = clock if clock is not None else FakeClock()
        rc = config.ring
        super().__init__(
            config=config,
            clock=clk,
            buttons=MockButtons(),
            oleds={
                seat: MockSeatScreen(f"OLED {seat}", clk, model=config.oleds[seat].model,
                                     rotation=config.oleds[seat].rotation)
                for seat in SEATS
            },
            ring=MockRing(clk, count=rc.count, brightness=rc.brightness, gamma=rc.gamma,
                          first_led=rc.first_led, clockwise=rc.clockwise),
            display=MockDisplay(display_size or config.display.size or (1280, 720)),
            queue=EventQueue(),
        )

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
        """Touch a card of the shared grid (by index)."""
        self.queue.put(InputEvent(seat=None, button="touch", kind="touch", time=self.clock.now(), card=card))

    def touch_at(self, x: float, y: float) -> None:
        """Touch the shared display at a normalised position (0..1, 0..1)."""
        self.queue.put(InputEvent(seat=None, button="touch", kind="touch", time=self.clock.now(), pos=(x, y)))

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
