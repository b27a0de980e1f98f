"""The seat screens: 128x64 one-bit OLEDs (SSD1306 or SH1106) updated page by page.

luma's ssd1306/sh1106 ``display()`` always sends the whole 1024-byte frame. We pack the image into the
panel's 8 pages of 128 bytes ourselves and send only what changed: the changed columns of each changed page
(a column window on the SSD1306, a page and column select on the SH1106), a page's changed stretches apart
when the unchanged columns between them cost more than a window's commands, which keeps the shared I2C bus
free for the other seat. ``OledScreen`` holds that logic plus fault handling; the backend supplies an
``OledPanel`` (luma over I2C on the Pi, an in-memory panel in the mock).

With a ``BusWriter`` (hardware/buswriter.py) the screen only packs the frame in the caller's thread and the
writer thread puts it on the bus: ``show`` returns before the bus is touched, the newest frame wins, and the
changed windows are computed against what was last sent. Without one (the mock's default) ``show`` writes
at once, as the tests of the page logic expect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PIL import Image

from hardware.base import Clock
from hardware.buswriter import CLOSE_TIMEOUT_S, BusWriter, NewestFrame
from hardware.faults import FaultGuard

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8
PAGE_BYTES = WIDTH
FRAME_BYTES = PAGES * PAGE_BYTES  # 1024

# Bus bytes around the pixel data, counted as on the wire: one address byte and one control byte per I2C
# transaction. SSD1306 (horizontal addressing): one command transaction sets the column and page window
# (0x21 c0 c1 0x22 p0 p1), then one data transaction carries every page of the run. SH1106 has no window: each
# page needs its own command transaction (page, column low, column high) and its own data transaction.
_TRANSACTION = 2
SSD1306_WINDOW_CMDS = 6
SH1106_PAGE_CMDS = 3


def run_cost(model: str, pages: int) -> int:
    """Bytes on the bus to write ``pages`` consecutive pages in one run."""
    if model == "sh1106":
        return pages * (_TRANSACTION + SH1106_PAGE_CMDS + _TRANSACTION + PAGE_BYTES)
    return _TRANSACTION + SSD1306_WINDOW_CMDS + _TRANSACTION + pages * PAGE_BYTES


def window_cost(model: str, pages: int, width: int) -> int:
    """Bytes on the bus to write columns of ``width`` on ``pages`` consecutive pages: SSD1306 one column and
    page window (0x21 c0 c1 0x22 p0 p1) and one data transaction; SH1106 a page and column select and a data
    transaction per page."""
    if model == "sh1106":
        return pages * (_TRANSACTION + SH1106_PAGE_CMDS + _TRANSACTION + width)
    return _TRANSACTION + SSD1306_WINDOW_CMDS + _TRANSACTION + pages * width


def _changed_span(before: bytes, after: bytes) -> tuple[int, int]:
    """First and last column where two different pages differ."""
    stretches = _stretches("ssd1306", _diff(before, after))
    return stretches[0][0], stretches[-1][1]


#: The bytes a window costs besides its data: on the SSD1306 one command and one data transaction (2 + 6 + 2),
#: on the SH1106 the same per page (2 + 3 + 2). Two changed stretches of a page further apart than that are
#: cheaper as two windows than as one spanning the unchanged columns between them.
_OVERHEAD = {"ssd1306": _TRANSACTION + SSD1306_WINDOW_CMDS + _TRANSACTION,
             "sh1106": _TRANSACTION + SH1106_PAGE_CMDS + _TRANSACTION}

Window = tuple[int, int, int, int]  # (first page, page count, first column, last column)


def _diff(before: bytes, after: bytes) -> bytes:
    """Non-zero where two pages differ (an XOR as one big integer: no Python loop)."""
    return (int.from_bytes(before, "big") ^ int.from_bytes(after, "big")).to_bytes(len(after), "big")


def _stretches(model: str, diff: bytes) -> list[tuple[int, int]]:
    """The changed column stretches of one page (its ``_diff``), (first, last) each, two stretches kept apart
    only where the unchanged columns between them cost more than a window of its own."""
    apart = b"\0" * (_OVERHEAD.get(model, _OVERHEAD["ssd1306"]) + 1)  # the shortest gap worth a second window
    start, end = len(diff) - len(diff.lstrip(b"\0")), len(diff.rstrip(b"\0"))
    found: list[tuple[int, int]] = []
    while start < end:
        gap = diff.find(apart, start, end)
        if gap < 0:
            found.append((start, end - 1))
            break
        found.append((start, gap - 1))  # the byte before the first long gap is a changed one
        start = len(diff) - len(diff[gap:].lstrip(b"\0"))
    return found


def _changed(model: str, old: list[bytes], new: list[bytes]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Each changed page with its changed stretches."""
    return [(p, _stretches(model, _diff(before, after)))
            for p, (before, after) in enumerate(zip(old, new, strict=True)) if before != after]


def _spans(model: str, changed: list[tuple[int, list[tuple[int, int]]]]) -> list[Window]:
    """One window per changed page over its whole changed span, neighbouring pages sharing one when cheaper."""
    spans: list[Window] = []
    for p, stretches in changed:
        c0, c1 = stretches[0][0], stretches[-1][1]
        if spans and model != "sh1106":
            f, n, a0, a1 = spans[-1]
            if f + n == p:
                u0, u1 = min(a0, c0), max(a1, c1)
                merged = window_cost(model, n + 1, u1 - u0 + 1)
                apart = window_cost(model, n, a1 - a0 + 1) + window_cost(model, 1, c1 - c0 + 1)
                if merged <= apart:
                    spans[-1] = (f, n + 1, u0, u1)
                    continue
        spans.append((p, 1, c0, c1))
    return spans


def _grown(model: str, window: Window, p: int, c0: int, c1: int) -> tuple[int, Window] | None:
    """``window`` grown to cover columns c0..c1 of page ``p`` (the page below it or its own last page) and
    what that costs more; None when it cannot (it ends elsewhere)."""
    f, n, a0, a1 = window
    if f + n == p:
        pages = n + 1
    elif f + n - 1 == p:
        pages = n
    else:
        return None
    u0, u1 = min(a0, c0), max(a1, c1)
    return window_cost(model, pages, u1 - u0 + 1) - window_cost(model, n, a1 - a0 + 1), (f, pages, u0, u1)


def _rectangles(model: str, changed: list[tuple[int, list[tuple[int, int]]]]) -> list[Window]:
    """Windows over the changed stretches of each page; on the SSD1306 a stretch joins the window above it
    (or one already on its page) when that costs no more than a window of its own."""
    windows: list[Window] = []
    for p, stretches in changed:
        for c0, c1 in stretches:
            best: tuple[int, int, Window] | None = None
            if model != "sh1106":
                for i, window in enumerate(windows):
                    grown = _grown(model, window, p, c0, c1)
                    if grown is not None and (best is None or grown[0] < best[0]):
                        best = (grown[0], i, grown[1])
            if best is not None and best[0] <= window_cost(model, 1, c1 - c0 + 1):
                windows[best[1]] = best[2]
            else:
                windows.append((p, 1, c0, c1))
    return windows


def windows_cost(model: str, windows: list[Window]) -> int:
    return sum(window_cost(model, n, c1 - c0 + 1) for _, n, c0, c1 in windows)


def changed_windows(model: str, old: list[bytes] | None, new: list[bytes]) -> list[Window]:
    """(first page, page count, first column, last column) of what to send so that ``old`` becomes ``new``,
    the cheaper on the bus of two plans: each changed page's whole changed span (neighbouring pages sharing
    one window when cheaper), or its changed stretches apart (joined with the window above when cheaper).
    Everything when ``old`` is None."""
    if old is None:
        return [(0, len(new), 0, PAGE_BYTES - 1)]
    changed = _changed(model, old, new)
    spans = _spans(model, changed)
    if all(len(stretches) == 1 for _, stretches in changed) and model == "sh1106":
        return spans  # one stretch a page and no page shares a window: the two plans are one
    rectangles = _rectangles(model, changed)
    if windows_cost(model, rectangles) < windows_cost(model, spans):
        return sorted(rectangles)
    return spans


def full_frame_cost(model: str) -> int:
    return run_cost(model, PAGES)


def rotate_for_panel(image: Image.Image, rotation: int) -> Image.Image:
    """Turn an image drawn for the seat into the panel's native 128x64 orientation (quarter turns)."""
    if rotation == 0:
        return image
    return image.rotate(-90 * rotation, expand=True)


def pack_pages(image: Image.Image) -> list[bytes]:
    """A 128x64 mode "1" image as the panel's 8 pages.

    Byte x of page p holds column x, rows 8p..8p+7, least significant bit on top.
    """
    if image.size != (WIDTH, HEIGHT):
        raise ValueError(f"an OLED frame is {WIDTH}x{HEIGHT}, got {image.size[0]}x{image.size[1]}")
    img = image if image.mode == "1" else image.convert("1")
    # Turned a quarter clockwise, each row of the image is one column read bottom to top; PIL packs a row MSB
    # first, 8 pixels a byte: byte 7 - p of row x holds column x, rows 8p..8p+7 with the top pixel in bit 0.
    turned = img.transpose(Image.Transpose.ROTATE_270).tobytes()  # 128 rows of 8 bytes
    return [turned[PAGES - 1 - p::PAGES] for p in range(PAGES)]


def unpack_pages(pages: list[bytes]) -> Image.Image:
    """The inverse of ``pack_pages`` (what the glass shows)."""
    img = Image.new("1", (WIDTH, HEIGHT))
    for p, data in enumerate(pages):
        strip = Image.frombytes("1", (8, WIDTH), bytes(data))
        img.paste(strip.transpose(Image.Transpose.ROTATE_90), (0, p * 8))
    return img


def changed_runs(old: list[bytes] | None, new: list[bytes]) -> list[tuple[int, int]]:
    """(first page, count) of each run of consecutive pages that differ; all pages when ``old`` is None."""
    if old is None:
        return [(0, len(new))]
    runs: list[tuple[int, int]] = []
    for p in range(len(new)):
        if old[p] != new[p]:
            if runs and runs[-1][0] + runs[-1][1] == p:
                runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            else:
                runs.append((p, 1))
    return runs


class OledPanel(Protocol):
    """The bus side of one OLED: what a backend must provide."""

    model: str

    def init(self) -> None:
        """(Re-)initialise the controller; its RAM is undefined afterwards. May raise OSError."""
        ...

    def write_pages(self, first: int, data: bytes) -> None:
        """Write ``len(data) // 128`` consecutive pages starting at page ``first``. May raise OSError."""
        ...

    def write_window(self, first: int, pages: int, c0: int, c1: int, data: bytes) -> None:
        """Write columns ``c0..c1`` of ``pages`` consecutive pages from ``first`` (``data``: page after page).
        Optional: a panel without it gets whole pages. May raise OSError."""
        ...

    def close(self) -> None: ...


class OledScreen(NewestFrame[list[bytes]]):
    """A ``SeatScreen``: sends what changed on the glass (page windows), counts bus bytes, survives faults.

    It keeps no cache of frames asked for: the app skips unchanged frames itself (device/outputs.py); a frame
    whose pages equal what the glass holds simply has no window to send."""

    def __init__(self, name: str, panel: OledPanel, clock: Clock, *, rotation: int = 0,
                 writer: BusWriter | None = None) -> None:
        if rotation not in (0, 1, 2, 3):
            raise ValueError(f"rotation must be 0..3 quarter turns, got {rotation}")
        self.name = name
        self.panel = panel
        self.clock = clock
        self.rotation = rotation
        self.size: tuple[int, int] = (WIDTH, HEIGHT) if rotation % 2 == 0 else (HEIGHT, WIDTH)
        self.bytes_sent = 0
        self.frames_sent = 0  # frames that put bytes on the bus
        self.image: Image.Image | None = None  # the last image handed to show()
        self._held: list[bytes] | None = None  # what the panel holds, None when unknown
        self._wanted: list[bytes] | None = None
        self._closed = False
        self.guard = FaultGuard(name, clock, self._reinit)
        self.writer = writer
        if writer is not None:
            writer.attach(self)

    @property
    def in_fault(self) -> bool:
        return self.guard.failed

    def show(self, image: Image.Image) -> None:
        """Send a mode "1" image: the windows where it differs from the glass (none when it is the same).

        Raises ValueError for an image of the wrong size. An I/O error is logged and retried, never raised.
        """
        if self._closed:
            raise RuntimeError(f"{self.name} is closed")
        if image.size != self.size:
            raise ValueError(f"{self.name} shows {self.size[0]}x{self.size[1]} images, got {image.size[0]}x"
                             f"{image.size[1]}")
        one_bit = image.convert("1") if image.mode != "1" else image
        pages = pack_pages(rotate_for_panel(one_bit, self.rotation))
        self.image = image.copy()
        self._send(pages)

    def _flush(self, wanted: list[bytes]) -> None:
        model = self.panel.model
        sent = self.bytes_sent

        def write() -> None:
            if not hasattr(self.panel, "write_window"):
                for first, count in changed_runs(self._held, wanted):
                    self.panel.write_pages(first, b"".join(wanted[first:first + count]))
                    self.bytes_sent += run_cost(model, count)
                self._held = wanted
                return
            for first, count, c0, c1 in changed_windows(model, self._held, wanted):
                data = b"".join(page[c0:c1 + 1] for page in wanted[first:first + count])
                self.panel.write_window(first, count, c0, c1, data)
                self.bytes_sent += window_cost(model, count, c1 - c0 + 1)
            self._held = wanted

        if self.guard.run(write) and self.bytes_sent > sent:
            self.frames_sent += 1

    def _reinit(self) -> None:
        self._held = None
        self.panel.init()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.writer is not None:
            self.writer.detach(self, CLOSE_TIMEOUT_S)  # the last frame (the "paused" screen) goes out first
        try:
            self.panel.close()
        except OSError:
            pass

    def __enter__(self) -> OledScreen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


PanelFactory = Callable[[], OledPanel]
