import logging

import pytest
from PIL import Image, ImageChops, ImageDraw

from hardware.mock import FakeClock, MockSeatScreen
from hardware.oled import (
    FRAME_BYTES,
    changed_runs,
    full_frame_cost,
    pack_pages,
    rotate_for_panel,
    run_cost,
    unpack_pages,
)


def frame(text: str = "seat A", extra: tuple[int, int] | None = None, size=(128, 64)) -> Image.Image:
    img = Image.new("1", size)
    draw = ImageDraw.Draw(img)
    draw.text((4, 2), text, fill=1)
    if extra:
        draw.point(extra, fill=1)
    return img


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


class RecordingSerial:
    """Stands in for luma's i2c interface: records command and data calls."""

    def __init__(self):
        self.data_bytes = bytearray()
        self.commands = []

    def command(self, *cmd):
        self.commands.append(cmd)

    def data(self, data):
        self.data_bytes += bytes(data)

    def cleanup(self):
        pass


@pytest.mark.parametrize("model", ["ssd1306", "sh1106"])
def test_oled_pack_pages_matches_luma_driver_bytes(model):
    from luma.oled import device as oled_device

    serial = RecordingSerial()
    dev = getattr(oled_device, model)(serial_interface=serial, width=128, height=64)
    dev.persist = True
    serial.data_bytes.clear()
    img = frame("luma check", (127, 63))
    dev.display(img)
    assert bytes(serial.data_bytes) == b"".join(pack_pages(img))


def test_oled_unpack_inverts_pack():
    img = frame("round trip", (100, 40))
    assert same(unpack_pages(pack_pages(img)), img)


def test_oled_changed_runs_groups_consecutive_pages():
    old = [bytes([i]) for i in range(8)]
    new = list(old)
    for p in (1, 2, 5):
        new[p] = b"\xff"
    assert changed_runs(old, new) == [(1, 2), (5, 1)]
    assert changed_runs(None, new) == [(0, 8)]
    assert changed_runs(new, new) == []


def test_oled_costs_match_measured_luma_full_frames():
    # research: luma sends 1034 bytes (ssd1306) and 1080 bytes (sh1106) on the wire per full frame
    assert full_frame_cost("ssd1306") == 1034
    assert full_frame_cost("sh1106") == 1080
    assert run_cost("ssd1306", 1) == 138 and run_cost("sh1106", 1) == 135


def test_oled_screen_first_frame_full_then_only_changed_page():
    screen = MockSeatScreen("OLED A", FakeClock())
    screen.show(frame())
    assert screen.bytes_sent == 1034 and screen.frames_sent == 1
    screen.show(frame())  # the pages the glass already holds: no window to send
    assert screen.bytes_sent == 1034 and screen.frames_sent == 1 and screen.panel.faults.writes == 1
    screen.show(frame(extra=(100, 40)))  # one pixel in page 5: a one-column window
    assert screen.bytes_sent == 1034 + 10 + 1 and screen.frames_sent == 2
    assert same(screen.glass(), frame(extra=(100, 40)))
    assert same(screen.image, frame(extra=(100, 40)))


def test_oled_screen_sh1106_costs_per_page():
    screen = MockSeatScreen("OLED B", FakeClock(), model="sh1106")
    screen.show(frame())
    screen.show(frame(extra=(0, 0)))  # column 0 of page 0: page and column select, one data byte
    assert screen.bytes_sent == 1080 + 7 + 1


def test_oled_screen_rotation_two_turns_image_upside_down():
    screen = MockSeatScreen("OLED B", FakeClock(), rotation=2)
    img = frame("B")
    screen.show(img)
    assert same(screen.glass(), img.rotate(180))


def test_oled_screen_quarter_rotation_takes_portrait_images():
    screen = MockSeatScreen("OLED", FakeClock(), rotation=1)
    assert screen.size == (64, 128)
    img = frame("P", size=(64, 128))
    screen.show(img)
    assert same(screen.glass(), rotate_for_panel(img, 1))
    with pytest.raises(ValueError):
        screen.show(frame())


def test_oled_screen_rejects_wrong_size():
    screen = MockSeatScreen("OLED A", FakeClock())
    with pytest.raises(ValueError, match="128x64"):
        screen.show(Image.new("1", (100, 64)))


def test_oled_screen_accepts_non_one_bit_image_by_converting():
    screen = MockSeatScreen("OLED A", FakeClock())
    img = Image.new("L", (128, 64))
    img.putpixel((1, 1), 255)
    screen.show(img)
    assert screen.glass().getpixel((1, 1))


def test_oled_screen_survives_failed_writes_and_retries_after_backoff(caplog):
    clock = FakeClock()
    screen = MockSeatScreen("OLED A", clock)
    screen.show(frame("one"))
    screen.fail_next(1)
    with caplog.at_level(logging.WARNING, logger="duetbox.hardware"):
        screen.show(frame("two"))  # no exception
    assert screen.in_fault and same(screen.glass(), frame("one"))
    sent = screen.bytes_sent
    screen.service()  # backoff not over: nothing tried
    assert screen.bytes_sent == sent
    clock.advance(1)
    screen.service()
    assert not screen.in_fault
    assert same(screen.glass(), frame("two"))
    assert screen.panel.faults.inits == 1  # re-initialised before the retry
    assert screen.bytes_sent == sent + FRAME_BYTES + 10  # a re-initialised panel gets a whole frame
    assert len(caplog.records) == 1


def test_oled_screen_vanish_and_reappear_reinitialises_and_redraws(caplog):
    clock = FakeClock()
    screen = MockSeatScreen("OLED B", clock)
    screen.show(frame("before"))
    screen.vanish()
    with caplog.at_level(logging.WARNING, logger="duetbox.hardware"):
        for i in range(20):
            screen.show(frame(f"frame {i}"))
            clock.advance(0.3)
    assert len(caplog.records) == 1  # one line per fault burst
    screen.reappear()
    clock.advance(60)
    screen.service()
    assert not screen.in_fault
    assert same(screen.glass(), frame("frame 19"))


def test_oled_screen_close_is_idempotent_and_final():
    screen = MockSeatScreen("OLED A", FakeClock())
    with screen:
        screen.show(frame())
    screen.close()
    assert screen.closed and screen.panel.closed
    with pytest.raises(RuntimeError):
        screen.show(frame())


def test_oled_changed_windows_span_only_changed_columns_and_merge_when_cheaper():
    from hardware.oled import changed_windows

    old = [bytes(128)] * 8
    new = list(old)
    new[2] = bytes(10) + b"\x01" * 5 + bytes(113)  # columns 10..14
    new[3] = bytes(12) + b"\x01" + bytes(115)  # column 12: shares page 2's window (cheaper than its own)
    new[6] = bytes(100) + b"\x01" + bytes(27)
    assert changed_windows("ssd1306", old, new) == [(2, 2, 10, 14), (6, 1, 100, 100)]
    assert changed_windows("sh1106", old, new) == [(2, 1, 10, 14), (3, 1, 12, 12), (6, 1, 100, 100)]
    assert changed_windows("ssd1306", None, new) == [(0, 8, 0, 127)]
    assert changed_windows("ssd1306", old, old) == []


def test_oled_pack_pages_matches_the_page_layout_bit_by_bit():
    import random

    rng = random.Random(1)
    img = Image.new("1", (128, 64))
    for _ in range(300):
        img.putpixel((rng.randrange(128), rng.randrange(64)), 1)
    pages = pack_pages(img)
    for x in range(128):
        for y in range(64):
            assert bool(pages[y // 8][x] >> (y % 8) & 1) == bool(img.getpixel((x, y)))
    assert same(unpack_pages(pages), img)


def test_oled_screen_random_frames_reach_the_panel_exactly():
    import random

    from PIL import ImageDraw

    rng = random.Random(2)
    for model in ("ssd1306", "sh1106"):
        screen = MockSeatScreen("OLED A", FakeClock(), model=model)
        img = frame()
        for _ in range(30):
            img = img.copy()
            x, y = rng.randrange(128), rng.randrange(64)
            ImageDraw.Draw(img).rectangle((x, y, min(127, x + rng.randrange(30)), min(63, y + 9)),
                                          fill=rng.randint(0, 1))
            screen.show(img)
            assert same(screen.glass(), img)


def _applied(old: list[bytes], new: list[bytes], windows: list[tuple[int, int, int, int]]) -> list[bytes]:
    ram = [bytearray(page) for page in old]
    for first, count, c0, c1 in windows:
        for p in range(first, first + count):
            ram[p][c0:c1 + 1] = new[p][c0:c1 + 1]
    return [bytes(page) for page in ram]


def test_oled_changed_windows_split_a_page_where_the_unchanged_gap_costs_more_than_a_window():
    from hardware.oled import changed_windows, windows_cost

    old = [bytes(128)] * 8
    new = list(old)
    new[1] = b"\x01" * 4 + bytes(100) + b"\x01" * 4 + bytes(20)  # columns 0..3 and 104..107
    assert changed_windows("ssd1306", old, new) == [(1, 1, 0, 3), (1, 1, 104, 107)]
    assert windows_cost("ssd1306", changed_windows("ssd1306", old, new)) == 2 * (10 + 4)
    new[1] = b"\x01" * 4 + bytes(10) + b"\x01" * 4 + bytes(110)  # a gap of 10: one window is as cheap
    assert changed_windows("ssd1306", old, new) == [(1, 1, 0, 17)]
    assert changed_windows("sh1106", old, new) == [(1, 1, 0, 3), (1, 1, 14, 17)]  # its windows cost 7


def test_oled_changed_windows_bring_every_frame_to_the_glass_and_never_cost_more_than_whole_spans():
    import random

    from hardware.oled import _changed, _spans, changed_windows, windows_cost

    rng = random.Random(7)
    for _ in range(400):
        old = [bytes(rng.choice((0, 0, 0, 255, rng.randrange(256))) for _ in range(128)) for _ in range(8)]
        new = [bytearray(page) for page in old]
        for _ in range(rng.randrange(12)):  # a few changed blocks, some spanning pages, as drawing makes
            p, c = rng.randrange(8), rng.randrange(128)
            for q in range(p, min(8, p + rng.randrange(1, 4))):
                for x in range(c, min(128, c + rng.randrange(1, 30))):
                    new[q][x] ^= rng.randrange(1, 256)
        pages = [bytes(page) for page in new]
        for model in ("ssd1306", "sh1106"):
            windows = changed_windows(model, old, pages)
            assert _applied(old, pages, windows) == pages
            assert windows_cost(model, windows) <= windows_cost(model, _spans(model, _changed(model, old, pages)))
            if model == "sh1106":
                assert all(count == 1 for _, count, _, _ in windows)
