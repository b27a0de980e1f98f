import pygame
import pytest
from PIL import Image, ImageDraw

import hardware
from hardware.base import InputEvent
from hardware.box import Box
from hardware.config import load_config
from hardware.factory import open_box
from hardware.mock import FakeClock, MockBox, parse_button


def test_mock_box_has_every_device(box):
    assert box.backend == "mock"
    assert set(box.oleds) == {"A", "B"}
    assert box.oleds["A"].size == (128, 64) and box.oleds["B"].size == (128, 64)
    assert box.ring.count == load_config(None).ring.count
    assert isinstance(box.display.surface, pygame.Surface)
    assert box.display.size == (1280, 720)
    assert isinstance(box.clock, FakeClock)


def test_mock_box_press_release_hold_in_order_with_fake_time(box):
    box.press("A.ok")
    box.release("A.ok")
    box.hold("B.stop", 800)
    box.press("menu")
    events = box.wait_events(0)
    assert [(e.seat, e.button, e.kind) for e in events] == [
        ("A", "ok", "press"), ("A", "ok", "release"),
        ("B", "stop", "press"), ("B", "stop", "release"),
        (None, "menu", "press"),
    ]
    assert events[3].time - events[2].time == pytest.approx(0.8)
    assert box.wait_events(0) == []  # drained


def test_mock_box_wait_events_never_blocks(box):
    assert box.wait_events(None) == []
    assert box.wait_events(30) == []


def test_mock_box_touch_and_text_events(box):
    box.touch(7)
    box.touch_at(0.25, 0.5)
    box.type_text("A", "fleuve")
    e1, u1, e2, u2, e3 = box.wait_events(0)
    assert e1 == InputEvent(seat=None, button="touch", kind="touch", time=box.clock.now(), card=7)
    assert u1 == InputEvent(seat=None, button="touch", kind="untouch", time=box.clock.now(), card=7)  # a tap
    assert e2.pos == (0.25, 0.5) and e2.card is None and e2.kind == "touch"
    assert u2.kind == "untouch" and u2.pos == (0.25, 0.5)
    assert (e3.seat, e3.kind, e3.text) == ("A", "text", "fleuve")


def test_mock_box_finger_down_drag_and_lift(box):
    box.touch_down(3)
    box.advance(0.5)
    box.drag(4)
    box.drag(None)
    box.touch_up()
    got = [(e.kind, e.card, e.time) for e in box.wait_events(0)]
    t = box.clock.now()
    assert got == [("touch", 3, t - 0.5), ("drag", 4, t), ("drag", None, t), ("untouch", None, t)]


def test_mock_box_events_are_frozen(box):
    box.press("A.up")
    (event,) = box.wait_events(0)
    with pytest.raises(AttributeError):
        event.kind = "release"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["C.ok", "A.menu", "A.jump", "ok", ""])
def test_mock_box_unknown_button_names_are_refused(box, name):
    with pytest.raises(ValueError):
        box.press(name)


def test_mock_box_parse_button():
    assert parse_button("B.left") == ("B", "left")
    assert parse_button("menu") == (None, "menu")


def test_mock_box_ok_leds(box):
    box.buttons.set_ok_led("B", True)
    assert box.buttons.ok_leds == {"A": False, "B": True}


def test_mock_box_screens_keep_image_and_bytes(box):
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((10, 20), "seat B", fill=1)
    box.oleds["B"].show(img)
    assert box.oleds["B"].image.tobytes() == img.tobytes()
    assert box.oleds["B"].bytes_sent == 1034
    assert box.oleds["A"].bytes_sent == 0


def test_mock_box_outputs_retry_on_wait_events(box):
    img = Image.new("1", (128, 64), 1)
    box.oleds["A"].fail_next(1)
    box.ring.fail_next(1)
    box.oleds["A"].show(img)
    box.ring.show([(255, 255, 255)] * box.ring.count)
    assert box.oleds["A"].in_fault and box.ring.guard.failed
    box.advance(1)
    box.wait_events(0)  # the main loop's call retries the outputs
    assert not box.oleds["A"].in_fault and not box.ring.guard.failed
    assert box.oleds["A"].glass().tobytes() == img.tobytes()
    assert len(box.ring.driver.written) == 1


def test_mock_box_display_present_and_snapshot(box):
    box.display.surface.fill((10, 20, 30))
    box.display.present()
    box.display.present([pygame.Rect(0, 0, 10, 10)])
    assert box.display.presents == 2 and len(box.display.last_rects) == 1
    assert box.display.snapshot().getpixel((5, 5)) == (10, 20, 30)


def test_mock_box_display_size_override_and_config_size(tmp_path):
    with open_box("mock", display_size=(800, 480)) as b:
        assert b.display.surface.get_size() == (800, 480)
    p = tmp_path / "c.toml"
    p.write_text("[display]\nwidth = 1920\nheight = 1080\n")
    with open_box("mock", load_config(p)) as b:
        assert b.display.size == (1920, 1080)


def test_mock_box_uses_injected_clock():
    clock = FakeClock(5.0)
    with open_box("mock", clock=clock) as b:
        b.press("A.down")
        assert b.wait_events(0)[0].time == 5.0


def test_mock_box_close_is_idempotent_and_closes_everything():
    b = open_box("mock")
    with b:
        pass
    b.close()
    assert b.closed and b.buttons.closed and b.display.closed and b.ring.closed
    assert all(s.closed for s in b.oleds.values())
    with pytest.raises(RuntimeError):
        b.wait_events(0)


def test_mock_box_is_a_box():
    with open_box("mock") as b:
        assert isinstance(b, MockBox) and isinstance(b, Box)


def test_box_unknown_backend():
    with pytest.raises(ValueError, match="unknown hardware backend"):
        open_box("arduino")


def test_box_import_needs_no_pi_library():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        blocked = ('lgpio', 'spidev', 'smbus2', 'RPi', 'pi5neo', 'gpiozero', 'luma')\n"
        "        if name.split('.')[0] in blocked:\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import hardware, hardware.factory, hardware.emulator, hardware.pi\n"
        "b = hardware.factory.open_box('mock'); b.close()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr
    assert hardware is not None
