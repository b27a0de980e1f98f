import os
import threading
import time

import pygame
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hw_fakes import FakeOledBus, FakeSpidevModule
from PIL import Image, ImageChops, ImageDraw

from hardware.config import load_config, parse_config
from hardware.errors import HardwareMissing
from hardware.events import EventQueue
from hardware.mock import FakeClock
from hardware.oled import OledScreen, pack_pages
from hardware.pi import LumaPanel, PiBox, PiButtons, PiDisplay, SpiRingDriver, lgpio_factory
from hardware.ring import SPI_HZ, ws2812_spi_bytes

CFG = load_config(None)


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def pwm_factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


def frame(text, extra=None):
    img = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(img)
    draw.text((4, 4), text, fill=1)
    if extra:
        draw.point(extra, fill=1)
    return img


def same(a, b):
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


# ---------------------------------------------------------------- buttons

def make_buttons(factory, clock, cfg=CFG):
    queue = EventQueue()
    return PiButtons(cfg, clock, queue, pin_factory=factory), queue


def test_pi_buttons_press_and_release_become_events(factory):
    clock = FakeClock()
    buttons, queue = make_buttons(factory, clock)
    pin = factory.pin(CFG.buttons.A.ok)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    events = queue.drain()
    assert [(e.seat, e.button, e.kind) for e in events] == [("A", "ok", "press"), ("A", "ok", "release")]
    assert events[1].time - events[0].time == pytest.approx(0.2)
    buttons.close()


def test_pi_buttons_every_pin_maps_to_its_button(factory):
    clock = FakeClock()
    buttons, queue = make_buttons(factory, clock)
    for (seat, name), pin in CFG.buttons.all_inputs().items():
        factory.pin(pin).drive_low()
        (event,) = queue.drain()
        assert (event.seat, event.button, event.kind) == (seat, name, "press")
        clock.advance(1)
        factory.pin(pin).drive_high()
        queue.drain()
    buttons.close()


def test_pi_buttons_debounce_chatter_on_press_and_release(factory):
    clock = FakeClock()
    buttons, queue = make_buttons(factory, clock)
    pin = factory.pin(CFG.buttons.B.stop)
    for level in "LHLHL":  # closing contact chatters for 4 ms
        pin.drive_low() if level == "L" else pin.drive_high()
        clock.advance(0.001)
    clock.advance(0.3)
    for level in "HLHLH":  # and when it opens
        pin.drive_low() if level == "L" else pin.drive_high()
        clock.advance(0.001)
    buttons.poll(clock.now())
    clock.advance(0.1)
    buttons.poll(clock.now())
    got = [(e.button, e.kind) for e in queue.drain()]
    assert got == [("stop", "press"), ("stop", "release")]
    buttons.close()


def test_pi_buttons_tap_shorter_than_window_settles_on_poll(factory):
    clock = FakeClock()
    buttons, queue = make_buttons(factory, clock)
    pin = factory.pin(CFG.buttons.menu)
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()
    assert [e.kind for e in queue.drain()] == ["press"]
    deadline = buttons.next_deadline()
    assert deadline is not None
    clock.advance(deadline - clock.now())
    buttons.poll(clock.now())
    (release,) = queue.drain()
    assert (release.seat, release.button, release.kind) == (None, "menu", "release")
    assert buttons.next_deadline() is None
    buttons.close()


def test_pi_buttons_ok_leds(factory):
    buttons, _ = make_buttons(factory, FakeClock())
    buttons.set_ok_led("A", True)
    assert factory.pin(CFG.buttons.A.ok_led).state
    assert not factory.pin(CFG.buttons.B.ok_led).state
    buttons.set_ok_led("A", False)
    assert not factory.pin(CFG.buttons.A.ok_led).state
    buttons.close()


def test_pi_buttons_pwm_leds_glow(pwm_factory, tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[buttons]\nok_led_pwm = true\n")
    buttons, _ = make_buttons(pwm_factory, FakeClock(), load_config(p))
    buttons.set_ok_led("B", True)
    give_up = time.monotonic() + 5  # the pulse runs on gpiozero's own thread, in real time
    while buttons.leds["B"].value == 0 and time.monotonic() < give_up:
        time.sleep(0.01)
    assert buttons.leds["B"].value > 0
    buttons.set_ok_led("B", False)
    assert not buttons.leds["B"].is_lit
    buttons.close()


def test_pi_buttons_close_releases_pins(factory):
    buttons, _ = make_buttons(factory, FakeClock())
    buttons.close()
    buttons.close()
    again, _ = make_buttons(factory, FakeClock())  # would raise GPIOPinInUse if pins were still held
    again.close()


def test_pi_lgpio_factory_off_a_pi_says_what_to_do():
    with pytest.raises(HardwareMissing, match="lgpio|GPIO chip"):
        lgpio_factory()


# ---------------------------------------------------------------- OLEDs

@pytest.mark.parametrize("model", ["ssd1306", "sh1106"])
def test_pi_luma_panel_writes_pages_the_controller_understands(model):
    bus = FakeOledBus(model, 0x3C)
    cfg = parse_config({"oled": {"A": {"model": model}}}).oleds["A"]
    panel = LumaPanel("A", cfg, bus=bus)
    panel.init()
    screen = OledScreen("OLED A", panel, FakeClock())
    screen.show(frame("hello"))
    assert same(bus.glass(), frame("hello"))
    before = bus.data_bytes
    wire = bus.wire_bytes
    screen.show(frame("hello", (64, 60)))  # one column of page 7 only
    assert bus.data_bytes - before == 1
    assert bus.wire_bytes - wire == (10 + 1 if model == "ssd1306" else 7 + 1)
    assert same(bus.glass(), frame("hello", (64, 60)))
    screen.close()


@pytest.mark.parametrize("model", ["ssd1306", "sh1106"])
def test_pi_luma_panel_column_windows_rebuild_every_frame_in_controller_ram(model):
    import random

    from PIL import ImageDraw

    rng = random.Random(3)
    bus = FakeOledBus(model, 0x3C)
    cfg = parse_config({"oled": {"A": {"model": model}}}).oleds["A"]
    panel = LumaPanel("A", cfg, bus=bus)
    panel.init()
    screen = OledScreen("OLED A", panel, FakeClock())
    img = frame("start")
    for _ in range(40):
        img = img.copy()
        draw = ImageDraw.Draw(img)
        for _ in range(rng.randint(1, 3)):
            x, y = rng.randrange(128), rng.randrange(64)
            draw.rectangle((x, y, min(127, x + rng.randrange(20)), min(63, y + rng.randrange(12))),
                           fill=rng.randint(0, 1))
        screen.show(img)
        assert same(bus.glass(), img)
    screen.close()


def test_pi_luma_panel_rotated_seat():
    bus = FakeOledBus("ssd1306", 0x3D)
    panel = LumaPanel("B", CFG.oleds["B"], bus=bus)
    panel.init()
    screen = OledScreen("OLED B", panel, FakeClock(), rotation=2)
    screen.show(frame("B side"))
    assert bus.ram == bytearray(b"".join(pack_pages(frame("B side").rotate(180))))


def test_pi_luma_panel_vanishes_and_comes_back():
    clock = FakeClock()
    bus = FakeOledBus("ssd1306", 0x3C)
    panel = LumaPanel("A", CFG.oleds["A"], bus=bus)
    panel.init()
    screen = OledScreen("OLED A", panel, clock)
    screen.show(frame("one"))
    bus.present = False
    screen.show(frame("two"))  # no exception
    assert screen.in_fault
    bus.present = True
    bus.ram[:] = bytes(len(bus.ram))  # it was power-cycled
    clock.advance(5)
    screen.service()
    assert not screen.in_fault and same(bus.glass(), frame("two"))


def test_pi_luma_panel_wrong_address_says_what_to_check():
    bus = FakeOledBus("ssd1306", 0x3C)
    panel = LumaPanel("B", CFG.oleds["B"], bus=bus)  # configured at 0x3D
    with pytest.raises(HardwareMissing) as info:
        panel.init()
    msg = str(info.value)
    assert "no I2C device at 0x3D on /dev/i2c-1" in msg and "i2cdetect -y 1" in msg and "group i2c" in msg


def test_pi_luma_panel_missing_bus_says_enable_i2c():
    cfg = parse_config({"oled": {"A": {"port": 29}}}).oleds["A"]
    with pytest.raises(HardwareMissing, match="no I2C bus /dev/i2c-29: enable I2C"):
        LumaPanel("A", cfg).init()


# ---------------------------------------------------------------- ring

def test_pi_spi_ring_driver_writes_ws2812_stream(tmp_path):
    dev = tmp_path / "spidev0.0"
    dev.write_bytes(b"")
    spidev = FakeSpidevModule()
    driver = SpiRingDriver(str(dev), spidev_module=spidev)
    driver.open()
    spi = spidev.devices[0]
    assert spi.opened == (0, 0) and spi.max_speed_hz == SPI_HZ and spi.mode == 0
    driver.write([(1, 2, 3)] * 12)
    assert spi.writes == [ws2812_spi_bytes([(1, 2, 3)] * 12)]
    driver.close()
    assert spi.closed


def test_pi_spi_ring_driver_missing_device_says_enable_spi(tmp_path):
    driver = SpiRingDriver(str(tmp_path / "spidev0.0"), spidev_module=FakeSpidevModule())
    with pytest.raises(HardwareMissing, match="enable SPI"):
        driver.open()


@pytest.mark.skipif(os.geteuid() == 0, reason="root can open anything")
def test_pi_spi_ring_driver_no_permission_says_group_spi(tmp_path):
    dev = tmp_path / "spidev0.1"
    dev.write_bytes(b"")
    dev.chmod(0)
    with pytest.raises(HardwareMissing, match="group spi"):
        SpiRingDriver(str(dev), spidev_module=FakeSpidevModule()).open()


def test_pi_spi_ring_driver_rejects_non_spidev_name():
    with pytest.raises(HardwareMissing, match="not an SPI device"):
        SpiRingDriver("/dev/ttyS0")


# ---------------------------------------------------------------- display

@pytest.fixture
def display():
    d = PiDisplay((800, 480), fullscreen=False)
    pygame.event.clear()
    yield d
    d.close()


def test_pi_display_touch_is_normalised_and_synthetic_mouse_ignored(display):
    finger = {"touch_id": 1, "finger_id": 0, "dx": 0, "dy": 0}
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=0.55, y=0.25, **finger))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(440, 120), button=1, touch=True))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(200, 240), button=1, touch=False))
    events = display.poll(1.0)
    assert [e.pos for e in events] == [(0.55, 0.25), (0.25, 0.5)]
    assert all(e.kind == "touch" and e.seat is None for e in events)


def test_pi_display_finger_and_mouse_drag_and_lift(display):
    finger = {"touch_id": 1, "finger_id": 0, "dx": 0, "dy": 0}
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, **finger))
    pygame.event.post(pygame.event.Event(pygame.FINGERMOTION, x=0.6, y=1.2, **finger))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=0.6, y=0.5, **finger))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(440, 120), button=1, touch=True))  # synthetic
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(400, 240), rel=(1, 0), buttons=(1, 0, 0),
                                         touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(420, 240), rel=(1, 0), buttons=(0, 0, 0),
                                         touch=False))  # hovering: nothing
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(200, 240), button=1, touch=False))
    events = display.poll(1.0)
    assert [(e.kind, e.pos) for e in events] == [
        ("touch", (0.5, 0.5)), ("drag", (0.6, 1.0)), ("untouch", (0.6, 0.5)), ("drag", (0.5, 0.5)),
        ("untouch", (0.25, 0.5))]
    assert not display.touching


def test_pi_display_keyboard_text_and_quit(display):
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="é"))
    backspace = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0)
    pygame.event.post(backspace)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    events = display.poll(1.0)
    assert [(e.kind, e.text) for e in events] == [("text", "é"), ("text", "\b"), ("quit", None)]


def test_pi_display_surface_and_present(display):
    assert display.size == (800, 480)
    display.surface.fill((1, 2, 3))
    display.present()
    display.present([pygame.Rect(0, 0, 10, 10)])


# ---------------------------------------------------------------- the whole box

@pytest.fixture
def pibox(factory, tmp_path):
    dev = tmp_path / "spidev0.0"
    dev.write_bytes(b"")
    cfg = parse_config({"ring": {"device": str(dev)},
                        "display": {"width": 800, "height": 480, "fullscreen": False}})
    buses = {"A": FakeOledBus("ssd1306", 0x3C), "B": FakeOledBus("ssd1306", 0x3D)}
    spidev = FakeSpidevModule()
    box = PiBox(cfg, pin_factory=factory, i2c_buses=buses, spidev_module=spidev)
    box.test_buses, box.test_spidev = buses, spidev
    pygame.event.clear()
    yield box
    box.close()


def test_pi_box_drives_every_device(pibox, factory):
    assert pibox.backend == "pi" and pibox.display.size == (800, 480)
    pibox.oleds["A"].show(frame("seat A"))
    pibox.oleds["B"].show(frame("seat B"))
    assert pibox.oleds["A"].writer is pibox.oleds["B"].writer  # both on /dev/i2c-1: one writer thread
    assert pibox.oleds["A"].flush(5) and pibox.oleds["B"].flush(5)  # the bus writer thread sent them
    assert same(pibox.test_buses["A"].glass(), frame("seat A"))
    assert same(pibox.test_buses["B"].glass(), frame("seat B").rotate(180))
    pibox.ring.show([(255, 0, 0)] * pibox.ring.count)
    assert pibox.ring.flush(5)
    assert len(pibox.test_spidev.devices[0].writes) == 1
    factory.pin(CFG.buttons.A.left).drive_low()
    (event,) = pibox.wait_events(0)
    assert (event.seat, event.button, event.kind) == ("A", "left", "press")


def test_pi_box_wait_wakes_at_once_on_a_gpio_callback(pibox, factory):
    timer = threading.Timer(0.05, factory.pin(CFG.buttons.B.ok).drive_low)
    start = time.monotonic()
    timer.start()
    events = pibox.wait_events(10)
    timer.join()
    assert [(e.seat, e.button) for e in events] == [("B", "ok")]
    assert time.monotonic() - start < 5


def test_pi_box_wait_times_out_empty(pibox):
    start = time.monotonic()
    assert pibox.wait_events(0.05) == []
    assert time.monotonic() - start < 5


def test_pi_box_missing_oled_fails_with_fix_and_releases_pins(factory, tmp_path):
    dev = tmp_path / "spidev0.0"
    dev.write_bytes(b"")
    cfg = parse_config({"ring": {"device": str(dev)},
                        "display": {"width": 800, "height": 480, "fullscreen": False}})
    buses = {"A": FakeOledBus("ssd1306", 0x3C), "B": FakeOledBus("ssd1306", 0x3C)}
    with pytest.raises(HardwareMissing, match="0x3D .*seat B"):
        PiBox(cfg, pin_factory=factory, i2c_buses=buses, spidev_module=FakeSpidevModule())
    PiButtons(cfg, FakeClock(), EventQueue(), pin_factory=factory).close()  # pins were released


def test_pi_box_close_darkens_ring_and_is_idempotent(pibox):
    pibox.ring.show([(255, 255, 255)] * pibox.ring.count)
    pibox.close()
    pibox.close()
    spi = pibox.test_spidev.devices[0]
    assert spi.writes[-1] == ws2812_spi_bytes([(0, 0, 0)] * pibox.ring.count) and spi.closed
    assert all(w.closed and not w.thread.is_alive() for w in pibox.writers.values())  # joined


def test_pi_box_idle_wait_sleeps_on_the_queue_and_pumps_sdl_every_50ms(pibox, monkeypatch):
    from hardware.mock import FakeClock

    clock = FakeClock()
    pibox.clock = clock
    pauses = []

    def fake_sleep(seconds):
        pauses.append(round(seconds, 6))
        clock.advance(seconds)

    def no_sdl_wait(*args):
        raise AssertionError("pygame.event.wait polls 1 ms at a time on KMSDRM")

    monkeypatch.setattr(pibox, "_sleep", fake_sleep)
    monkeypatch.setattr(pygame.event, "wait", no_sdl_wait)
    assert pibox.wait_events(0.5) == []
    assert pauses == [0.05] * 10


def test_pi_box_pumps_faster_while_a_button_is_down(pibox, factory, monkeypatch):
    from hardware.mock import FakeClock

    clock = FakeClock()
    pibox.clock = clock
    pibox.buttons.clock = clock
    pauses = []

    def fake_sleep(seconds):
        pauses.append(round(seconds, 6))
        clock.advance(seconds)

    monkeypatch.setattr(pibox, "_sleep", fake_sleep)
    factory.pin(CFG.buttons.A.ok).drive_low()
    assert [(e.button, e.kind) for e in pibox.wait_events(0)] == [("ok", "press")]
    assert pibox.wait_events(0.05) == []
    assert pauses == [0.01] * 5


def test_pi_box_touch_arrives_through_the_bounded_pump(pibox, monkeypatch):
    pauses = []

    def sleep_then_touch(seconds):
        pauses.append(seconds)
        if len(pauses) == 2:
            pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=0.25, y=0.5, touch_id=1, finger_id=1,
                                                 dx=0, dy=0, pressure=1.0))

    monkeypatch.setattr(pibox, "_sleep", sleep_then_touch)
    (event,) = pibox.wait_events(None)
    assert event.kind == "touch" and event.pos == (0.25, 0.5)
    assert len(pauses) == 2 and pibox.display.touching
