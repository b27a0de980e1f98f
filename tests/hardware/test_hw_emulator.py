import pygame
import pytest
from PIL import Image, ImageDraw

from hardware.emulator import EmulatorBox, oled_look
from hardware.factory import open_box
from hardware.mock import FakeClock


@pytest.fixture
def emu():
    box = open_box("emulator", clock=FakeClock(), display_size=(800, 480))
    assert isinstance(box, EmulatorBox)
    pygame.event.clear()
    yield box
    box.close()


def key(kind, code):
    pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0))


def seat_frame(text):
    img = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.text((8, 8), text, fill=1)
    return img


def test_emulator_window_holds_grid_oleds_ring(emu, tmp_path):
    assert emu.display.surface.get_size() == (800, 480)
    for seat in "AB":
        emu.oleds[seat].show(seat_frame(f"seat {seat}"))
    emu.ring.show([(255, 0, 0)] * 4 + [(0, 0, 0)] * (emu.ring.count - 4))
    emu.display.surface.fill((10, 200, 30))
    emu.display.present()
    path = tmp_path / "emulator.png"
    emu.save_png(path)
    shot = Image.open(path).convert("RGB")
    assert shot.size == emu.window.get_size()
    g = emu.grid_rect
    assert shot.getpixel((g.centerx, g.centery)) == (10, 200, 30)
    # seat B's OLED above the grid, seat A's below, each with lit (bluish-white) pixels
    b_rect, a_rect = emu._oled_rect("B"), emu._oled_rect("A")
    assert b_rect.bottom <= g.top and a_rect.top >= g.bottom
    for rect in (a_rect, b_rect):
        crop = shot.crop((rect.left, rect.top, rect.left + emu.oled_px[0], rect.top + emu.oled_px[1]))
        colours = {c for _, c in crop.getcolors(1 << 16)}
        assert any(b > 200 and r > 150 for r, _, b in colours)
    # the ring: a red dot somewhere right of the grid
    side = shot.crop((g.right, 0, shot.width, shot.height))
    assert any(c == (255, 0, 0) for _, c in side.getcolors(1 << 16))


def test_emulator_oled_is_pixel_exact_and_seat_upright(emu):
    img = seat_frame("exact")
    emu.oleds["B"].show(img)  # seat B's panel is rotated 180 degrees in the default config
    emu.display.present()
    shot = emu.screenshot()
    rect = emu._oled_rect("B")
    s = emu.scale
    for x, y in ((0, 0), (9, 9), (64, 32), (127, 63), (40, 20)):
        lit = shot.getpixel((rect.left + x * s, rect.top + y * s))[2] > 128
        assert lit == bool(img.getpixel((x, y))), (x, y)


def test_emulator_keys_map_to_seat_buttons(emu):
    key(pygame.KEYDOWN, pygame.K_SPACE)
    key(pygame.KEYUP, pygame.K_SPACE)
    key(pygame.KEYDOWN, pygame.K_w)
    key(pygame.KEYDOWN, pygame.K_LSHIFT)
    key(pygame.KEYDOWN, pygame.K_RETURN)
    key(pygame.KEYDOWN, pygame.K_LEFT)
    key(pygame.KEYDOWN, pygame.K_RSHIFT)
    key(pygame.KEYDOWN, pygame.K_m)
    key(pygame.KEYDOWN, pygame.K_q)  # not a box key: ignored
    got = [(e.seat, e.button, e.kind) for e in emu.wait_events(0)]
    assert got == [
        ("A", "ok", "press"), ("A", "ok", "release"), ("A", "up", "press"), ("A", "stop", "press"),
        ("B", "ok", "press"), ("B", "left", "press"), ("B", "stop", "press"), (None, "menu", "press"),
    ]


def test_emulator_click_on_grid_is_normalised_touch(emu):
    g = emu.grid_rect
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(g.left + 200, g.top + 120), button=1,
                                         touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(g.left + 10, 2), button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(g.left + 5, g.top + 5), button=1,
                                         touch=True))  # synthetic from a finger: ignored
    (touch,) = emu.wait_events(0)
    assert touch.kind == "touch" and touch.seat is None
    assert touch.pos == pytest.approx((200 / 800, 120 / 480))


def test_emulator_mouse_and_finger_down_move_up_are_touch_drag_untouch(emu):
    g = emu.grid_rect
    w, h = emu.window.get_size()
    mouse = {"touch": False}
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(g.left + 40, g.top + 48), button=1, **mouse))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(g.left + 80, g.top + 48), rel=(40, 0),
                                         buttons=(1, 0, 0), **mouse))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(g.left + 90, g.top + 48), rel=(10, 0),
                                         buttons=(0, 0, 0), **mouse))  # no button down: not a drag
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(g.left + 80, g.top + 48), button=1, **mouse))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(g.left + 80, g.top + 48), button=3, **mouse))
    finger = {"touch_id": 1, "finger_id": 0, "dx": 0, "dy": 0}
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=(g.left + 400) / w, y=(g.top + 240) / h, **finger))
    pygame.event.post(pygame.event.Event(pygame.FINGERMOTION, x=(g.left + 5) / w, y=2 / h, **finger))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=(g.left + 5) / w, y=2 / h, **finger))
    got = emu.wait_events(0)
    assert [e.kind for e in got] == ["touch", "drag", "untouch", "touch", "drag", "untouch"]
    assert got[1].pos == pytest.approx((80 / g.width, 48 / g.height))
    assert got[2].pos == pytest.approx((80 / g.width, 48 / g.height))
    assert got[3].pos == pytest.approx((400 / g.width, 240 / g.height), abs=1e-3)
    assert got[4].pos is None and got[5].pos is None  # the finger slid off the grid, then lifted there


def test_emulator_window_close_is_quit(emu):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    (event,) = emu.wait_events(0)
    assert event.kind == "quit"


def test_emulator_wait_events_times_out_empty(emu):
    assert emu.wait_events(0.01) == []


def test_emulator_redraws_when_only_oled_changes(emu):
    emu.oleds["A"].show(seat_frame("late"))
    emu.wait_events(0)  # no present() call: the loop's wait still refreshes the window
    rect = emu._oled_rect("A")
    assert emu.screenshot().getpixel((rect.left, rect.top))[2] > 128


def test_emulator_close_is_idempotent():
    box = open_box("emulator", display_size=(800, 480))
    box.close()
    box.close()
    assert box.closed


def test_emulator_oled_look_scales_and_colours():
    img = Image.new("1", (128, 64))
    img.putpixel((0, 0), 1)
    look = oled_look(img, 3)
    assert look.size == (384, 192)
    assert look.getpixel((0, 0))[2] > 200 and look.getpixel((5, 5))[2] < 20


def test_emulator_queue_put_wakes_a_blocked_wait(emu):
    import threading
    import time

    from hardware.base import InputEvent

    quit_event = InputEvent(seat=None, button="quit", kind="quit", time=0.0)
    timer = threading.Timer(0.05, emu.queue.put, args=(quit_event,))
    start = time.monotonic()
    timer.start()
    events = emu.wait_events(10)
    timer.join()
    assert events == [quit_event]
    assert time.monotonic() - start < 5


def _recorded_sleeps(box, clock, monkeypatch):
    """Replace the box's queue sleep by a fake one that advances ``clock``; SDL's blocking wait must not run."""
    pauses = []

    def fake_sleep(seconds):
        pauses.append(round(seconds, 6))
        clock.advance(seconds)

    def no_sdl_wait(*args):
        raise AssertionError("pygame.event.wait polls 1 ms at a time with the dummy/KMSDRM drivers")

    monkeypatch.setattr(box, "_sleep", fake_sleep)
    monkeypatch.setattr(pygame.event, "wait", no_sdl_wait)
    return pauses


def test_emulator_idle_wait_pumps_sdl_every_50ms_not_in_a_busy_loop(emu, monkeypatch):
    pauses = _recorded_sleeps(emu, emu.clock, monkeypatch)
    assert emu.wait_events(1.0) == []
    assert pauses == [0.05] * 20


def test_emulator_wait_pumps_faster_while_a_key_is_held(emu, monkeypatch):
    pauses = _recorded_sleeps(emu, emu.clock, monkeypatch)
    key(pygame.KEYDOWN, pygame.K_SPACE)
    assert [(e.button, e.kind) for e in emu.wait_events(0)] == [("ok", "press")]
    assert emu.wait_events(0.1) == []
    assert pauses == [0.01] * 10
    key(pygame.KEYUP, pygame.K_SPACE)
    assert [(e.button, e.kind) for e in emu.wait_events(0)] == [("ok", "release")]
    pauses.clear()
    assert emu.wait_events(0.1) == []
    assert pauses == [0.05, 0.05]


def test_emulator_short_timeout_bounds_the_pause(emu, monkeypatch):
    pauses = _recorded_sleeps(emu, emu.clock, monkeypatch)
    assert emu.wait_events(0.02) == []
    assert pauses == [0.02]


def test_emulator_sdl_event_arriving_while_asleep_is_read_at_the_next_pump(emu, monkeypatch):
    pauses = []

    def sleep_then_key(seconds):
        pauses.append(seconds)
        emu.clock.advance(seconds)
        if len(pauses) == 3:
            key(pygame.KEYDOWN, pygame.K_m)

    monkeypatch.setattr(emu, "_sleep", sleep_then_key)
    got = emu.wait_events(None)
    assert [(e.button, e.kind) for e in got] == [("menu", "press")]
    assert len(pauses) == 3


def test_emulator_legend_follows_the_interface_language() -> None:
    from device.i18n import emulator_legend
    from hardware.emulator import LEGEND, legend_lines, legend_texts

    english = legend_lines(legend_texts(emulator_legend("en")))
    french = legend_lines(legend_texts(emulator_legend("fr")))
    assert len(english) == len(french) == len(LEGEND)
    assert english[0] == ("seat A", "W A S D  move")
    assert french[0] == ("siège A", "W A S D  déplacer")
    assert ("", "Espace  OK") in french and ("", "Entrée  OK") in french
    assert legend_texts(emulator_legend("de"))["ring"] == "LED-Ring"
    assert legend_texts(emulator_legend("it"))["keys"] == "Tasti"
    for language in ("fr", "en", "ro", "de", "it"):
        texts = legend_texts(emulator_legend(language))
        assert not any(v.startswith("emulator.") for v in texts.values()), language


def test_emulator_types_letters_on_a_screen_that_takes_text(emu):
    """A screen that takes text (the remote code): the letter keys type (TEXTINPUT), Backspace erases, Escape is
    MENU, the arrows and Enter stay seat B's; elsewhere W is seat A's up as always."""
    emu.want_text(True)
    key(pygame.KEYDOWN, pygame.K_w)  # with TEXTINPUT "W" behind it, as SDL sends both
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="w"))
    key(pygame.KEYDOWN, pygame.K_BACKSPACE)
    key(pygame.KEYDOWN, pygame.K_ESCAPE)
    key(pygame.KEYDOWN, pygame.K_RIGHT)
    got = [(e.kind, e.button, e.text) for e in emu.wait_events(0)]
    assert got == [("text", "keyboard", "w"), ("text", "keyboard", "\b"), ("press", "menu", None),
                   ("press", "right", None)]
    emu.want_text(False)
    key(pygame.KEYDOWN, pygame.K_w)
    assert [(e.seat, e.button) for e in emu.wait_events(0)] == [("A", "up")]
