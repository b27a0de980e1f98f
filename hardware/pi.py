"""The real box: gpiozero buttons (lgpio), luma OLEDs over I2C, a WS2812 ring over SPI, pygame-ce fullscreen.

Every Pi library is imported inside the class that needs it, so this module imports anywhere. Nothing here
falls back to a mock: a missing device raises ``HardwareMissing`` with the fix in the message.
"""

from __future__ import annotations

import errno
import importlib
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from hardware import degrade as degrade_mod
from hardware.base import RGB, SEATS, Clock, EventKind, InputEvent, Seat
from hardware.base import Button as ButtonName  # gpiozero has a Button class too
from hardware.box import PUMP_ACTIVE_S, PUMP_IDLE_S, Box
from hardware.buswriter import BusWriter
from hardware.config import HardwareConfig, OledConfig, RingConfig
from hardware.debounce import Debouncer
from hardware.degrade import DisplayWait
from hardware.errors import HardwareMissing, current_user
from hardware.events import EventQueue, MonotonicClock
from hardware.oled import PAGE_BYTES, OledScreen
from hardware.ring import SPI_HZ, Ring, ws2812_spi_bytes

log = logging.getLogger("duetbox.hardware")

I2C_FIX = "sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), reboot"
SPI_FIX = "sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in /boot/firmware/config.txt), then reboot"


# ---------------------------------------------------------------- buttons

def lgpio_factory() -> Any:
    """gpiozero's lgpio pin factory, with errors that say what to do."""
    if "LG_WD" not in os.environ and not os.access(os.getcwd(), os.W_OK):
        # lgpio creates a notification FIFO in its working directory and fails in a read-only one.
        os.environ["LG_WD"] = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as exc:
        raise HardwareMissing(
            f"the lgpio library is missing ({exc}): pip install 'duetbox[pi]' or apt install python3-lgpio"
        ) from None
    try:
        return LGPIOFactory()
    except Exception as exc:  # lgpio.error is not an OSError
        raise HardwareMissing(
            f"cannot open the GPIO chip ({exc}): run this on a Raspberry Pi, and check that user "
            f"{current_user()} is in group gpio (sudo usermod -aG gpio {current_user()})"
        ) from None


class PiButtons:
    """One gpiozero ``Button`` per input (pull-up, pressed = low), debounced in our code; OK LEDs optional.

    Callbacks run on the pin factory's thread and only feed the debouncer and the queue.
    """

    def __init__(
        self, config: HardwareConfig, clock: Clock, queue: EventQueue, *, pin_factory: Any = None
    ) -> None:
        from gpiozero import LED, PWMLED, Button

        self.clock = clock
        self.queue = queue
        self.factory = pin_factory if pin_factory is not None else lgpio_factory()
        window = config.buttons.debounce_ms / 1000
        self.debouncers: dict[tuple[Seat | None, ButtonName], Debouncer] = {}
        self.buttons: list[Any] = []
        self.leds: dict[Seat, Any] = {}
        self._led_on: dict[Seat, bool] = {}
        self._pwm = config.buttons.ok_led_pwm
        self._closed = False
        try:
            for key, pin in config.buttons.all_inputs().items():
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=self.factory)
                self.buttons.append(button)
                self.debouncers[key] = Debouncer(window, pressed=bool(button.is_pressed))
                button.when_pressed = self._callback(key, True)
                button.when_released = self._callback(key, False)
            for seat in SEATS:
                led_pin = config.buttons.seat(seat).ok_led
                if led_pin is not None:
                    self.leds[seat] = (PWMLED if self._pwm else LED)(led_pin, pin_factory=self.factory)
                    self._led_on[seat] = False
        except Exception:
            self.close()
            raise

    def _callback(self, key: tuple[Seat | None, ButtonName], pressed: bool) -> Callable[[], None]:
        def edge() -> None:
            now = self.clock.now()
            if self.debouncers[key].feed(pressed, now) is not None:
                self._emit(key, pressed, now)

        return edge

    def _emit(self, key: tuple[Seat | None, ButtonName], pressed: bool, now: float) -> None:
        seat, button = key
        self.queue.put(InputEvent(seat=seat, button=button, kind="press" if pressed else "release", time=now))

    def poll(self, now: float) -> None:
        """Report switches that settled after chatter (called by the main loop)."""
        for key, deb in self.debouncers.items():
            state = deb.poll(now)
            if state is not None:
                self._emit(key, state, now)

    def next_deadline(self) -> float | None:
        deadlines = [d for d in (deb.deadline() for deb in self.debouncers.values()) if d is not None]
        return min(deadlines) if deadlines else None

    def set_ok_led(self, seat: Seat, on: bool) -> None:
        led = self.leds.get(seat)
        if led is None or self._led_on.get(seat) == on:
            return
        self._led_on[seat] = on
        if not on:
            led.off()
        elif self._pwm:
            led.pulse(fade_in_time=0.8, fade_out_time=0.8)
        else:
            led.on()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for device in [*self.leds.values(), *self.buttons]:
            try:
                device.close()
            except Exception:  # noqa: BLE001 - release every pin
                log.exception("closing %r failed", device)


# ---------------------------------------------------------------- OLEDs

class LumaPanel:
    """An ``OledPanel`` on luma.oled over I2C: luma initialises the controller, we write the pages."""

    def __init__(self, seat: Seat, cfg: OledConfig, *, bus: Any = None) -> None:
        self.seat = seat
        self.cfg = cfg
        self.model = cfg.model
        self._bus = bus  # an opened smbus-like object (tests); None: luma opens /dev/i2c-<port>
        self._serial: Any = None
        self.device: Any = None

    @property
    def where(self) -> str:
        return f"{self.cfg.address:#04x} on /dev/i2c-{self.cfg.port}"

    def _missing(self) -> HardwareMissing:
        user = current_user()
        return HardwareMissing(
            f"no I2C device at 0x{self.cfg.address:02X} on /dev/i2c-{self.cfg.port} (OLED of seat "
            f"{self.seat}): check the wiring and the address jumper, `i2cdetect -y {self.cfg.port}`, "
            f"and that user {user} is in group i2c"
        )

    def init(self) -> None:
        from luma.core import error as luma_error
        from luma.core.interface.serial import i2c
        from luma.oled.device import sh1106, ssd1306

        port, user = self.cfg.port, current_user()
        try:
            if self._serial is None:
                if self._bus is not None:
                    self._serial = i2c(bus=self._bus, address=self.cfg.address)
                else:
                    self._serial = i2c(port=port, address=self.cfg.address)
            driver = sh1106 if self.model == "sh1106" else ssd1306
            old, self.device = self.device, None
            if old is not None:
                old.persist = True  # its exit hook must not blank the new one
            self.device = driver(serial_interface=self._serial, width=128, height=64, rotate=0)
        except luma_error.DevicePermissionError:
            raise HardwareMissing(
                f"no permission on /dev/i2c-{port}: add user {user} to group i2c "
                f"(sudo usermod -aG i2c {user}) and log in again"
            ) from None
        except luma_error.DeviceNotFoundError as exc:
            if "/dev/i2c" in str(exc):
                raise HardwareMissing(f"no I2C bus /dev/i2c-{port}: enable I2C with {I2C_FIX}") from None
            raise self._missing() from None
        except luma_error.Error as exc:
            raise HardwareMissing(f"OLED of seat {self.seat} at {self.where}: {exc}") from None
        except OSError as exc:
            if exc.errno in (errno.EREMOTEIO, errno.EIO, errno.ENXIO):
                raise self._missing() from None
            raise

    def write_pages(self, first: int, data: bytes) -> None:
        from luma.core import error as luma_error

        if self.device is None:
            raise OSError(errno.ENODEV, f"OLED of seat {self.seat} is not initialised")
        count = len(data) // PAGE_BYTES
        try:
            if self.model == "sh1106":
                # no page window on the SH1106: address each page; its 132-column RAM starts 2 columns early
                for i in range(count):
                    self.device.command(0xB0 + first + i, 0x02, 0x10)
                    self.device.data(list(data[i * PAGE_BYTES:(i + 1) * PAGE_BYTES]))
            else:
                self.device.command(0x21, 0, 127, 0x22, first, first + count - 1)
                self.device.data(list(data))
        except luma_error.Error as exc:
            raise OSError(errno.EIO, f"OLED of seat {self.seat} at {self.where}: {exc}") from None

    def write_window(self, first: int, pages: int, c0: int, c1: int, data: bytes) -> None:
        """Columns ``c0..c1`` of ``pages`` pages from ``first``, through luma's serial interface."""
        from luma.core import error as luma_error

        if self.device is None or self._serial is None:
            raise OSError(errno.ENODEV, f"OLED of seat {self.seat} is not initialised")
        serial = self._serial
        width = c1 - c0 + 1
        try:
            if self.model == "sh1106":
                col = c0 + 2  # its 132-column RAM starts 2 columns early
                for i in range(pages):
                    serial.command(0xB0 + first + i, col & 0x0F, 0x10 | (col >> 4))
                    serial.data(list(data[i * width:(i + 1) * width]))
            else:
                serial.command(0x21, c0, c1, 0x22, first, first + pages - 1)
                serial.data(list(data))
        except luma_error.Error as exc:
            raise OSError(errno.EIO, f"OLED of seat {self.seat} at {self.where}: {exc}") from None

    def close(self) -> None:
        device, self.device = self.device, None
        if device is None:
            return
        try:
            device.cleanup()  # panel off and blank, bus closed if luma opened it
        except Exception:  # noqa: BLE001 - an unplugged panel cannot be switched off
            pass
        device.persist = True  # luma's exit hook would try again


# ---------------------------------------------------------------- LED ring

class SpiRingDriver:
    """WS2812 bit patterns written to ``/dev/spidevB.C`` with spidev (SPI0 MOSI = GPIO10), no root needed.

    The device node is checked before opening: pi5neo and friends print and carry on when it cannot be opened,
    which would leave the ring silently dark.
    """

    def __init__(self, path: str = "/dev/spidev0.0", *, spidev_module: Any = None) -> None:
        m = re.search(r"spidev(\d+)\.(\d+)$", path)
        if m is None:
            raise HardwareMissing(f"{path} is not an SPI device name (/dev/spidevB.C, e.g. /dev/spidev0.0)")
        self.path = path
        self.bus, self.chip = int(m.group(1)), int(m.group(2))
        self._spidev = spidev_module
        self.spi: Any = None

    def open(self) -> None:
        user = current_user()
        if not os.path.exists(self.path):
            raise HardwareMissing(f"no SPI device {self.path} for the LED ring: enable SPI with {SPI_FIX}")
        if not os.access(self.path, os.R_OK | os.W_OK):
            raise HardwareMissing(
                f"no permission on {self.path}: add user {user} to group spi (sudo usermod -aG spi {user})"
            )
        module = self._spidev
        if module is None:
            try:
                module = importlib.import_module("spidev")
            except ImportError:
                raise HardwareMissing("the spidev library is missing: pip install 'duetbox[pi]'") from None
        self.close()
        spi = module.SpiDev()
        spi.open(self.bus, self.chip)
        spi.max_speed_hz = SPI_HZ
        spi.mode = 0
        self.spi = spi

    def write(self, pixels: Sequence[RGB]) -> None:
        if self.spi is None:
            raise OSError(errno.ENODEV, f"{self.path} is not open")
        self.spi.writebytes2(ws2812_spi_bytes(pixels))

    def close(self) -> None:
        spi, self.spi = self.spi, None
        if spi is not None:
            try:
                spi.close()
            except OSError:
                pass


class LedsRingDriver:
    """The Pi 5 kernel's ws2812-pio driver (``dtoverlay=ws2812-pio``): 4 bytes (R, G, B, W) per LED."""

    def __init__(self, path: str = "/dev/leds0") -> None:
        self.path = path
        self.fd: int | None = None

    def open(self) -> None:
        if not os.path.exists(self.path):
            raise HardwareMissing(
                f"no {self.path}: add dtoverlay=ws2812-pio,gpio=10,num_leds=N to /boot/firmware/config.txt "
                "and reboot, or use driver = \"spi\""
            )
        self.close()
        try:
            self.fd = os.open(self.path, os.O_WRONLY)
        except PermissionError:
            raise HardwareMissing(f"no permission on {self.path}: it needs a udev rule giving it to the "
                                  f"group of user {current_user()}") from None

    def write(self, pixels: Sequence[RGB]) -> None:
        if self.fd is None:
            raise OSError(errno.ENODEV, f"{self.path} is not open")
        os.write(self.fd, b"".join(bytes((r, g, b, 0)) for r, g, b in pixels))

    def close(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)


def ring_device(cfg: RingConfig) -> str:
    """The device node the ring is written to: ``/dev/leds0`` for the ws2812-pio driver (unless the
    configured device names a leds node), else the configured SPI device."""
    if cfg.driver == "leds":
        return cfg.device if "leds" in cfg.device else "/dev/leds0"
    return cfg.device


def ring_driver(cfg: RingConfig) -> SpiRingDriver | LedsRingDriver:
    if cfg.driver == "leds":
        return LedsRingDriver(ring_device(cfg))
    return SpiRingDriver(cfg.device)


# ---------------------------------------------------------------- shared display

class PiDisplay:
    """pygame-ce fullscreen (KMSDRM when no desktop is running), cursor hidden; touch and clicks → events."""

    def __init__(self, size: tuple[int, int] | None, *, fullscreen: bool = True) -> None:
        if "SDL_VIDEODRIVER" not in os.environ and not (os.environ.get("DISPLAY") or
                                                         os.environ.get("WAYLAND_DISPLAY")):
            os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self._pygame = pygame
        driver = os.environ.get("SDL_VIDEODRIVER", "default")
        user = current_user()
        try:
            pygame.display.init()
            flags = pygame.FULLSCREEN if fullscreen else 0
            self.surface = pygame.display.set_mode(size or (0, 0), flags)
        except pygame.error as exc:
            raise HardwareMissing(
                f"cannot open the display with SDL driver {driver} ({exc}): check the HDMI/DSI cable, that "
                f"no desktop holds the screen, and that user {user} is in groups video, render and input"
            ) from None
        pygame.mouse.set_visible(False)
        pygame.key.start_text_input()
        self.size: tuple[int, int] = self.surface.get_size()
        w, h = self.size
        if not (800 <= w <= 1920 and 480 <= h <= 1080):
            log.warning("display is %dx%d, outside the supported 800x480..1920x1080", w, h)
        self.touching = False  # a finger is down: PiBox pumps faster
        self.closed = False

    def present(self, rects: Sequence[Any] | None = None) -> None:
        if rects:
            self._pygame.display.update(list(rects))
        else:
            self._pygame.display.flip()

    def translate(self, event: Any, now: float) -> InputEvent | None:
        pg = self._pygame
        if event.type == pg.QUIT:
            return InputEvent(seat=None, button="quit", kind="quit", time=now)
        finger: dict[int, EventKind] = {pg.FINGERDOWN: "touch", pg.FINGERMOTION: "drag", pg.FINGERUP: "untouch"}
        kind = finger.get(event.type)
        if kind is not None:  # a finger coming down, moving, lifting (the touch screen, KMSDRM)
            return InputEvent(seat=None, button="touch", kind=kind, time=now,
                              pos=(min(max(event.x, 0.0), 1.0), min(max(event.y, 0.0), 1.0)))
        pointer: dict[int, EventKind] = {pg.MOUSEBUTTONDOWN: "touch", pg.MOUSEMOTION: "drag",
                                         pg.MOUSEBUTTONUP: "untouch"}
        kind = pointer.get(event.type)
        if kind is not None and not getattr(event, "touch", False):  # a real mouse (synthetic ones are fingers)
            if (event.buttons[0] if kind == "drag" else event.button == 1):
                w, h = self.size
                return InputEvent(seat=None, button="touch", kind=kind, time=now,
                                  pos=(min(max(event.pos[0] / w, 0.0), 1.0), min(max(event.pos[1] / h, 0.0), 1.0)))
        if event.type == pg.TEXTINPUT:
            return InputEvent(seat=None, button="keyboard", kind="text", time=now, text=event.text)
        if event.type == pg.KEYDOWN and event.key in (pg.K_BACKSPACE, pg.K_RETURN, pg.K_KP_ENTER):
            text = "\b" if event.key == pg.K_BACKSPACE else "\n"
            return InputEvent(seat=None, button="keyboard", kind="text", time=now, text=text)
        return None

    def poll(self, now: float) -> list[InputEvent]:
        """Translate pending pygame events. Never blocks: SDL's own wait cannot sleep on KMSDRM (it pumps
        and sleeps 1 ms in a loop), so ``PiBox`` sleeps on its event queue and calls this at a bounded rate."""
        pg = self._pygame
        out = []
        for ev in pg.event.get():
            if ev.type == pg.FINGERDOWN or (ev.type == pg.MOUSEBUTTONDOWN and not getattr(ev, "touch", False)):
                self.touching = True
            elif ev.type in (pg.FINGERUP, pg.MOUSEBUTTONUP):
                self.touching = False
            translated = self.translate(ev, now)
            if translated is not None:
                out.append(translated)
        return out

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._pygame.display.quit()


# ---------------------------------------------------------------- the box

def _open_oled(seat: Seat, config: HardwareConfig, clock: Clock, writers: dict[str, BusWriter], bus: Any,
               degrade: bool) -> OledScreen:
    """Seat ``seat``'s OLED on its I2C bus's writer (one writer per bus, shared by the seats on it). With
    ``degrade`` a panel that does not answer starts in fault and is retried; without, HardwareMissing."""
    panel = LumaPanel(seat, config.oleds[seat], bus=bus)
    late: HardwareMissing | None = None
    try:
        panel.init()
    except HardwareMissing as exc:
        if not degrade:
            raise
        late = exc  # degrade, don't die: the seat screen starts in fault and is retried
    port = config.oleds[seat].port
    writer = writers.get(f"i2c-{port}")
    if writer is None:
        writer = writers[f"i2c-{port}"] = BusWriter(f"I2C bus {port}")
    oled = OledScreen(f"OLED {seat}", panel, clock, rotation=config.oleds[seat].rotation, writer=writer)
    if late is not None:
        degrade_mod.start_in_fault(oled, late)
    return oled


class PiBox(Box):
    """The real box. ``pin_factory``, ``i2c_buses``, ``spidev_module``, ``display_factory`` and ``display_sleep``
    exist for tests against fakes.

    The main loop never waits on the I2C bus: the OLEDs of one port share one ``BusWriter`` thread (the two
    seats' screens are written one after the other, the newest frame of each).

    ``degrade=True`` (the app) opens the box with a missing OLED (retried until it answers, see
    ``hardware.degrade``); ``display_wait`` waits for a missing shared display instead of raising."""

    backend = "pi"
    buttons: PiButtons
    display: PiDisplay

    def __init__(
        self,
        config: HardwareConfig,
        *,
        clock: Clock | None = None,
        display_size: tuple[int, int] | None = None,
        pin_factory: Any = None,
        i2c_buses: dict[Seat, Any] | None = None,
        spidev_module: Any = None,
        degrade: bool = False,
        display_wait: DisplayWait | None = None,
        display_factory: Callable[[], Any] | None = None,
        display_sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        clk: Clock = clock if clock is not None else MonotonicClock()
        queue = EventQueue()
        parts: list[Any] = []
        writers: dict[str, BusWriter] = {}
        size = display_size or config.display.size

        def open_display() -> PiDisplay:
            if display_factory is not None:
                return display_factory()  # type: ignore[no-any-return]
            return PiDisplay(size, fullscreen=config.display.fullscreen)

        try:
            # Buttons, OLEDs and ring first: with no shared display yet, they carry the waiting message.
            buttons = PiButtons(config, clk, queue, pin_factory=pin_factory)
            parts.append(buttons)
            oleds: dict[Seat, OledScreen] = {}
            for seat in SEATS:
                oleds[seat] = _open_oled(seat, config, clk, writers, (i2c_buses or {}).get(seat), degrade)
                parts.append(oleds[seat])
            rc = config.ring
            driver: Any = ring_driver(rc)
            if spidev_module is not None and isinstance(driver, SpiRingDriver):
                driver = SpiRingDriver(rc.device, spidev_module=spidev_module)
            driver.open()
            # The ring is written in the loop, right after the shared display and before the OLED frames are
            # drawn: spidev's write releases the GIL and takes 0.66 ms for 12 LEDs, while a writer thread
            # would first have to win the GIL back from the loop drawing those frames (docs/performance.md).
            ring = Ring("LED ring", driver, clk, count=rc.count, brightness=rc.brightness, gamma=rc.gamma,
                        first_led=rc.first_led, clockwise=rc.clockwise)
            parts.append(ring)
            display = degrade_mod.open_display_waiting(open_display, display_wait, oleds, ring,
                                                       sleep=display_sleep)
        except BaseException:
            for part in reversed(parts):
                try:
                    part.close()
                except Exception:  # noqa: BLE001 - already failing
                    pass
            for w in writers.values():
                w.close()
            raise
        self.writers = writers
        super().__init__(config=config, clock=clk, buttons=buttons, oleds=oleds, ring=ring, display=display,
                         queue=queue)

    def _pump(self) -> list[InputEvent]:
        now = self.clock.now()
        self.buttons.poll(now)  # switches that settled after chatter go through the queue
        return self.display.poll(now)

    def pump_interval(self) -> float:
        down = self.display.touching or any(d.pressed for d in self.buttons.debouncers.values())
        return PUMP_ACTIVE_S if down else PUMP_IDLE_S

    def _collect(self, timeout: float | None) -> list[InputEvent]:
        return self._wait_pumping(timeout, self._pump, self.buttons.next_deadline)
