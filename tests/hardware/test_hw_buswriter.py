"""The bus writer threads (hardware/buswriter.py): the loop hands frames over, a thread per bus writes them.

Timing is never measured here: a ``BusGate`` holds a transfer "on the bus" until the test opens it, so every
assertion is about order (what reached the glass before what), never about how long anything took."""

import logging
import threading

import pytest
from hw_fakes import FakeOledBus
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from hardware.buswriter import BusWriter
from hardware.config import load_config, parse_config
from hardware.mock import BusGate, FakeClock, MockBox, MockSeatScreen, TimedLink
from hardware.oled import FRAME_BYTES, OledScreen, full_frame_cost, pack_pages
from hardware.pi import LumaPanel

CFG = load_config(None)


def img(*boxes):
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    for box in boxes:
        draw.rectangle(box, fill=1)
    return image


def ram_pages(panel):
    return [bytes(panel.ram[p * 128:(p + 1) * 128]) for p in range(8)]


@pytest.fixture
def gated():
    """One OLED on a gated 400 kHz link with its own writer thread."""
    gate = BusGate()
    link = TimedLink("i2c-1", 400_000, wait=gate)
    writer = BusWriter("I2C bus 1")
    screen = MockSeatScreen("OLED A", FakeClock(), link=link, writer=writer)
    yield screen, gate, link, writer
    gate.open()
    screen.close()
    assert writer.closed and not writer.thread.is_alive()  # the last client closed and joined it


def test_buswriter_show_returns_while_the_frame_is_still_on_the_bus(gated):
    screen, gate, link, _ = gated
    gate.close()
    screen.show(img((0, 0, 20, 20)))  # returns although the bus is held
    assert gate.waiting.wait(5)
    assert screen.panel.ram == bytearray(FRAME_BYTES)  # nothing on the glass yet
    assert screen.flush(0) is False
    gate.open()
    assert screen.flush(5)
    assert ram_pages(screen.panel) == pack_pages(img((0, 0, 20, 20)))
    assert link.bytes == full_frame_cost("ssd1306") == screen.bytes_sent


def test_buswriter_newest_frame_wins_and_is_diffed_against_what_was_sent(gated):
    screen, gate, link, _ = gated
    first, skipped, newest = img(), img((100, 0, 127, 63)), img((100, 0, 127, 63), (0, 0, 3, 3))
    gate.close()
    screen.show(first)
    assert gate.waiting.wait(5)  # frame 1 is on the bus
    screen.show(skipped)  # the right-hand block ...
    screen.show(newest)  # ... and a dot on the left: only this one is sent next
    gate.open()
    assert screen.flush(5)
    assert screen.frames_sent == 2  # frame 1, then the newest; the middle one never went out
    # Diffed against the sent (blank) frame, the block is sent too; diffed against the skipped frame it
    # would be missing from the glass.
    assert ram_pages(screen.panel) == pack_pages(newest)
    assert screen.bytes_sent == link.bytes


def test_buswriter_never_tears_a_frame():
    """A frame of two windows (page 0 and page 7): a frame shown while the first is on the wire waits until
    the second window of the first frame is on the glass too."""
    gate = BusGate()
    writer = BusWriter("I2C bus 1")
    screen = MockSeatScreen("OLED A", FakeClock(), link=TimedLink("i2c", 400_000, wait=gate), writer=writer)
    written = []
    original = screen.panel.write_window

    def record(first, pages, c0, c1, data):
        written.append((first, bytes(data)))
        return original(first, pages, c0, c1, data)

    one = img((10, 0, 12, 3), (100, 60, 102, 63))
    two = img((10, 0, 12, 3), (50, 60, 52, 63))
    try:
        screen.show(img())
        assert screen.flush(5)
        screen.panel.write_window = record
        gate.close()
        screen.show(one)
        assert gate.waiting.wait(5)  # the first window of frame one is on the wire
        screen.show(two)
        gate.open()
        assert screen.flush(5)
    finally:
        gate.open()
        screen.close()
    p1, p2 = pack_pages(one), pack_pages(two)
    assert written == [(0, p1[0][10:13]), (7, p1[7][100:103]),  # all of frame one, then
                       (7, p2[7][50:53]), (7, p2[7][100:103])]  # what frame two changes against it
    assert ram_pages(screen.panel) == p2


def test_buswriter_two_screens_share_one_writer_thread():
    box = MockBox(CFG, threaded=True, i2c_hz=400_000)
    try:
        a, b = box.oleds["A"], box.oleds["B"]
        assert a.writer is b.writer and box.ring.writer is None  # the ring is written in the loop
        a.show(img((0, 0, 9, 9)))
        b.show(img((50, 0, 59, 9)))
        assert box.flush(5)
        assert box.i2c_links[1].bytes == a.bytes_sent + b.bytes_sent == 2 * full_frame_cost("ssd1306")
        threads = {t.name for t in threading.enumerate()}
        assert "duetbox I2C bus 1 writer" in threads
    finally:
        box.close()
        box.close()  # idempotent
    assert all(not w.thread.is_alive() for w in box.writers.values())


def test_buswriter_close_sends_the_last_frame_first():
    box = MockBox(CFG, threaded=True)
    box.oleds["A"].show(img((0, 0, 5, 5)))
    box.close()  # the "paused" screen at shutdown must reach the glass
    assert ram_pages(box.oleds["A"].panel) == pack_pages(img((0, 0, 5, 5)))


def test_buswriter_error_reaches_the_fault_guard_once_per_burst_with_backoff(caplog):
    clock = FakeClock()
    box = MockBox(CFG, clock=clock, threaded=True)
    screen = box.oleds["A"]
    try:
        screen.show(img((0, 0, 5, 5)))
        assert screen.flush(5)
        screen.fail_next(3)  # the write, then two re-inits fail
        with caplog.at_level(logging.INFO, logger="duetbox.hardware"):
            screen.show(img((0, 0, 6, 6)))
            assert screen.flush(5)
            assert screen.in_fault and screen.guard.faults == 1
            writes = screen.panel.faults.writes
            screen.show(img((0, 0, 7, 7)))  # inside the backoff: handed over, not even tried
            box.service()
            assert screen.flush(5) and screen.panel.faults.writes == writes
            delays = []
            while screen.in_fault:
                delays.append(screen.guard.next_try - clock.now())
                clock.advance(screen.guard.next_try - clock.now())
                box.service()  # the loop's service() resubmits once the backoff has expired
                assert screen.flush(5)
        assert delays == [0.5, 1.0, 2.0]
    finally:
        box.close()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    infos = [r for r in caplog.records if r.levelno == logging.INFO and "back" in r.getMessage()]
    assert len(warnings) == 1 and "OLED A" in warnings[0].getMessage()
    assert len(infos) == 1
    assert screen.panel.faults.inits == 1  # re-initialised once it came back
    assert ram_pages(screen.panel) == pack_pages(img((0, 0, 7, 7)))  # the newest frame, in full


def test_buswriter_pi_panel_unplugged_during_a_threaded_write(caplog):
    clock = FakeClock()
    cfg = parse_config({}).oleds["A"]
    bus = FakeOledBus("ssd1306", 0x3C)
    panel = LumaPanel("A", cfg, bus=bus)
    panel.init()
    writer = BusWriter("I2C bus 1")
    screen = OledScreen("OLED A", panel, clock, writer=writer)
    try:
        screen.show(img((0, 0, 5, 5)))
        assert screen.flush(5)
        bus.present = False
        with caplog.at_level(logging.WARNING, logger="duetbox.hardware"):
            screen.show(img((0, 0, 9, 9)))
            assert screen.flush(5)
            screen.show(img((0, 0, 12, 12)))
            assert screen.flush(5)
        assert screen.in_fault and len(caplog.records) == 1
        bus.present = True
        clock.advance(screen.guard.next_try - clock.now())
        screen.service()
        assert screen.flush(5) and not screen.in_fault
        assert [bytes(bus.ram[p * 128:(p + 1) * 128]) for p in range(8)] == pack_pages(img((0, 0, 12, 12)))
    finally:
        screen.close()
    assert writer.closed


def test_buswriter_a_bug_in_a_write_is_logged_and_the_writer_goes_on(caplog):
    writer = BusWriter("test bus")

    class Client:
        name = "client"

        def __init__(self, fail):
            self.fail, self.calls = fail, 0

        def write_pending(self):
            self.calls += 1
            if self.fail:
                raise ValueError("bug")

    bad, good = Client(True), Client(False)
    writer.attach(bad)
    writer.attach(good)
    with caplog.at_level(logging.ERROR, logger="duetbox.hardware"):
        writer.submit(bad)
        writer.submit(good)
        assert writer.wait_idle(timeout=5)
    writer.close()
    assert good.calls == 1 and bad.calls == 1
    assert any("client" in r.getMessage() for r in caplog.records)


@given(st.binary(min_size=128, max_size=128), st.lists(st.integers(0, 1023), min_size=1, max_size=6))
def test_buswriter_changed_span_is_the_first_and_last_differing_column(page, flips):
    from hardware.oled import _changed_span

    other = bytearray(page)
    for bit in flips:
        other[bit // 8] ^= 1 << (bit % 8)
    other = bytes(other)
    if other == page:
        return
    columns = [x for x in range(128) if page[x] != other[x]]
    assert _changed_span(page, other) == (columns[0], columns[-1])


def test_buswriter_ring_with_a_writer_of_its_own_newest_frame_wins():
    gate = BusGate()
    box = MockBox(CFG, threaded=True, spi_hz=6_400_000, bus_wait=gate, ring_writer=True)
    ring = box.ring
    try:
        gate.close()
        ring.show([(255, 0, 0)] * ring.count)
        assert gate.waiting.wait(5)
        ring.show([(0, 255, 0)] * ring.count)
        ring.show([(0, 0, 255)] * ring.count)
        gate.open()
        assert ring.flush(5)
        assert ring.driver.written == [ring.physical([(255, 0, 0)] * ring.count),
                                       ring.physical([(0, 0, 255)] * ring.count)]
    finally:
        gate.open()
        box.close()
    assert ring.driver.written[-1] == ((0, 0, 0),) * ring.count  # closing darkens it after the writer left


rects = st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 127), st.integers(0, 63)).map(
    lambda r: (min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.lists(rects, max_size=3), st.booleans()), min_size=1, max_size=8),
       st.sampled_from(["ssd1306", "sh1106"]))
def test_buswriter_glass_only_ever_holds_whole_frames_that_were_shown(frames, model):
    """Whatever the interleaving of show() and the writer thread: after every write the glass holds exactly one
    of the frames shown so far, and in the end the newest."""
    writer = BusWriter("I2C bus 1")
    screen = MockSeatScreen("OLED A", FakeClock(), model=model, writer=writer)
    shown_pages: list[list[bytes]] = []
    torn: list[int] = []
    original = screen.write_pending

    def checked():
        original()
        if screen.frames_sent and ram_pages(screen.panel) not in shown_pages:
            torn.append(screen.frames_sent)

    screen.write_pending = checked
    try:
        for boxes, wait in frames:
            image = img(*boxes)
            shown_pages.append(pack_pages(image))  # before show: the writer may take it at once
            screen.show(image)
            if wait:
                assert screen.flush(5)
        assert screen.flush(5)
    finally:
        screen.close()
    assert torn == []
    assert ram_pages(screen.panel) == shown_pages[-1]
