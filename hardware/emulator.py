"""The emulator backend: the whole box in one desktop window (what ``make run`` shows).

Layout, top to bottom: seat B's OLED, the shared grid, seat A's OLED; the ring and a key legend sit in a
column on the right. The OLEDs go through the same page packing as the real panels and are drawn from what
their glass holds, scaled, with the look of the modules (blue board, black glass, bluish-white pixels).

Keys: seat A = W A S D, Space (OK), Left Shift (STOP); seat B = arrows, Enter (OK), Right Shift (STOP);
M = MENU. A click (or a finger) on the grid touches it (lifting it is an ``untouch``, moving it a ``drag``);
closing the window sends a ``quit`` event.
luma.emulator is deliberately not used: its pygame device takes over the window and exits on Esc.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageChops, ImageOps

from hardware.base import RGB, SEATS, Button, Clock, EventKind, InputEvent, Seat
from hardware.box import PUMP_ACTIVE_S, PUMP_IDLE_S, Box
from hardware.config import HardwareConfig
from hardware.events import EventQueue, MonotonicClock
from hardware.mock import MockButtons, MockOledPanel, MockRingDriver
from hardware.oled import OledScreen
from hardware.ring import Ring

DEFAULT_GRID = (960, 540)
SIDE_WIDTH = 280
OLED_MARGIN = 40  # vertical room around each OLED module
BACKGROUND = (24, 26, 30)
BOARD = (22, 58, 112)
BOARD_EDGE = (14, 38, 76)
GLASS_OFF = (6, 7, 10)
PIXEL_ON = (196, 228, 255)
LEGEND_TEXT = (200, 204, 212)
DIM_TEXT = (120, 126, 138)

#: pygame key name -> (seat, button). Names, not codes, so this table needs no pygame import.
KEYMAP: dict[str, tuple[Seat | None, Button]] = {
    "w": ("A", "up"), "s": ("A", "down"), "a": ("A", "left"), "d": ("A", "right"),
    "space": ("A", "ok"), "left shift": ("A", "stop"),
    "up": ("B", "up"), "down": ("B", "down"), "left": ("B", "left"), "right": ("B", "right"),
    "return": ("B", "ok"), "enter": ("B", "ok"), "right shift": ("B", "stop"),
    "m": (None, "menu"),
}

#: The key legend: (seat or "" to go on, keys, what they do), each a message key of the ``[emulator]`` section
#: of device/locales (the window follows the box's interface language: ``EmulatorBox.set_language``); OK, STOP,
#: MENU and W A S D are the box's and the keyboard's own names.
LEGEND: tuple[tuple[str, str, str], ...] = (
    ("seat_A", "W A S D", "move"),
    ("", "@space", "OK"),
    ("", "@left_shift", "STOP"),
    ("seat_B", "@arrows", "move"),
    ("", "@enter", "OK"),
    ("", "@right_shift", "STOP"),
    ("both", "M", "MENU"),
    ("grid", "@click", "touch"),
)

#: English texts when no catalog can be read (the emulator is usable from hardware/ alone).
LEGEND_TEXTS: dict[str, str] = {
    "ring": "LED ring", "keys": "Keys", "seat": "seat {seat}", "both": "both", "grid": "grid", "move": "move",
    "touch": "touch a card", "arrows": "arrows", "space": "Space", "enter": "Enter", "left_shift": "Left Shift",
    "right_shift": "Right Shift", "click": "click",
}


def legend_texts(translated: dict[str, str] | None = None) -> dict[str, str]:
    """The side panel's texts: ``translated`` (the app passes device/locales' ``[emulator]`` texts of its
    interface language; hardware never reads device's catalogs itself) over the English defaults."""
    return {k: (translated or {}).get(k, v) for k, v in LEGEND_TEXTS.items()}


def legend_lines(texts: dict[str, str]) -> list[tuple[str, str]]:
    """(who, what) lines of the key legend in the language of ``texts``."""
    def word(x: str) -> str:
        return texts.get(x[1:], x) if x.startswith("@") else texts.get(x, x)

    lines = []
    for who, keys, action in LEGEND:
        label = texts["seat"].format(seat=who[-1]) if who.startswith("seat_") else (word(who) if who else "")
        lines.append((label, f"{word(keys)}  {word(action)}"))
    return lines


def _legend_font() -> str | None:
    """The bundled DejaVu face (it has every letter of the five interface languages), else pygame's own."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "device" / "render" / "fonts" / "DejaVuSans.ttf"
    return str(path) if path.is_file() else None


def oled_look(glass: Image.Image, scale: int) -> Image.Image:
    """A 1-bit panel image as it looks on a module: bluish-white dots on black glass, hairlines between."""
    big = glass.convert("L").resize((glass.width * scale, glass.height * scale), Image.Resampling.NEAREST)
    if scale >= 3:
        mask = Image.new("L", (scale, scale), 255)
        for i in range(scale):
            mask.putpixel((scale - 1, i), 90)
            mask.putpixel((i, scale - 1), 90)
        tiles = Image.new("L", big.size)
        for x in range(0, big.width, scale):
            tiles.paste(mask, (x, 0))
        row = tiles.crop((0, 0, big.width, scale))
        for y in range(0, big.height, scale):
            tiles.paste(row, (0, y))
        big = ImageChops.multiply(big, tiles)
    return ImageOps.colorize(big, black=GLASS_OFF, white=PIXEL_ON).convert("RGB")


#: SDL's video drivers that show nothing on a desktop.
HEADLESS = frozenset({"dummy", "offscreen"})
NO_DESKTOP = ("no desktop to open the emulator window on (DISPLAY and WAYLAND_DISPLAY are unset): run it from a "
              "desktop session, or use --hardware mock --script FILE")
#: The room a desktop keeps for its panels and the window's title bar.
DESKTOP_MARGIN = (0, 70)


def _need_a_desktop() -> None:
    """On Linux without X11 or Wayland (an SSH session, a console) SDL would open an invisible window or none:
    one clear error instead (an explicit SDL_VIDEODRIVER is the user's choice and is kept)."""
    if os.environ.get("SDL_VIDEODRIVER") or not sys.platform.startswith("linux"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise RuntimeError(NO_DESKTOP)


def _fit(size: tuple[int, int], desktops: Sequence[tuple[int, int]], driver: str) -> float:
    """How much the window is scaled down to fit the first desktop (1.0: not at all, or no desktop known)."""
    if driver in HEADLESS or not desktops:
        return 1.0
    dw, dh = desktops[0][0] - DESKTOP_MARGIN[0], desktops[0][1] - DESKTOP_MARGIN[1]
    return min(1.0, dw / size[0], dh / size[1])


class EmulatorDisplay:
    """The shared display: ``surface`` is the grid area; ``present`` composes and shows the whole window."""

    def __init__(self, box: EmulatorBox, size: tuple[int, int]) -> None:
        import pygame

        self._box = box
        self.size = size
        self.surface = pygame.Surface(size)
        self.presents = 0
        self.closed = False

    def present(self, rects: Sequence[Any] | None = None) -> None:
        if self.closed:
            raise RuntimeError("the display is closed")
        self.presents += 1
        self._box.compose()

    def close(self) -> None:
        self.closed = True


class EmulatorBox(Box):
    """One pygame window holding the grid, both OLEDs, the ring and the legend."""

    backend = "emulator"
    display: EmulatorDisplay
    oleds: dict[Seat, OledScreen]
    ring: Ring

    def __init__(
        self,
        config: HardwareConfig,
        *,
        clock: Clock | None = None,
        display_size: tuple[int, int] | None = None,
        scale: int | None = None,
    ) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        clk: Clock = clock if clock is not None else MonotonicClock()
        grid = display_size or config.display.size or DEFAULT_GRID
        _need_a_desktop()
        pygame.display.init()
        if pygame.display.get_driver() in HEADLESS and not os.environ.get("SDL_VIDEODRIVER"):
            pygame.display.quit()  # SDL fell back to an invisible window: say so instead of running unseen
            raise RuntimeError(NO_DESKTOP)
        pygame.font.init()
        if scale is None:
            scale = int(os.environ.get("DUETBOX_EMULATOR_SCALE", "0") or 0)
        if not scale:
            # 3x (one panel pixel = 3 screen pixels) unless the window would not fit the desktop's height
            scale = 3
            desktops = pygame.display.get_desktop_sizes()
            if desktops and grid[1] + 2 * (64 * 3 + OLED_MARGIN) > desktops[0][1] - 70:
                scale = 2
        self.scale = scale
        self.oled_px = (128 * scale, 64 * scale)
        band = self.oled_px[1] + OLED_MARGIN
        self.grid_rect = pygame.Rect(0, band, grid[0], grid[1])
        width = grid[0] + SIDE_WIDTH
        height = grid[1] + 2 * band
        rc = config.ring
        self._panels: dict[Seat, MockOledPanel] = {
            seat: MockOledPanel(config.oleds[seat].model) for seat in SEATS
        }
        oleds = {
            seat: OledScreen(f"OLED {seat}", self._panels[seat], clk, rotation=config.oleds[seat].rotation)
            for seat in SEATS
        }
        ring = Ring("LED ring", MockRingDriver(), clk, count=rc.count, brightness=rc.brightness,
                    gamma=rc.gamma, first_led=rc.first_led, clockwise=rc.clockwise)
        super().__init__(config=config, clock=clk, buttons=MockButtons(), oleds=oleds, ring=ring,
                         display=None, queue=EventQueue())
        # everything is drawn at full size on ``window`` (screenshots, touches), shown scaled down on a desktop
        # smaller than it (a 1366x768 laptop: the window fits, taskbar included)
        self.fit = _fit((width, height), pygame.display.get_desktop_sizes(), pygame.display.get_driver())
        self._screen = pygame.display.set_mode((round(width * self.fit), round(height * self.fit)))
        # unscaled, the window is drawn on the display's own surface (a second 1560x1184 surface is 7 MB)
        self.window = self._screen if self.fit == 1.0 else pygame.Surface((width, height))
        pygame.display.set_caption("duetbox emulator")
        self.display = EmulatorDisplay(self, grid)
        self._font = pygame.font.Font(_legend_font(), 18)
        self._small = pygame.font.Font(_legend_font(), 14)
        self._texts = legend_texts()
        self._seen: tuple[Any, ...] | None = None
        self._oled_cache: dict[Seat, tuple[int, Any]] = {}
        self._held: set[int] = set()  # keys down (pump faster while a hold is being timed)
        self._pointer_down = False
        self.compose()

    # -- drawing ---------------------------------------------------------------------------------------------
    def _oled_rect(self, seat: Seat) -> Any:
        import pygame

        w, h = self.oled_px
        x = self.grid_rect.centerx - w // 2
        y = OLED_MARGIN // 2 if seat == "B" else self.grid_rect.bottom + OLED_MARGIN // 2
        return pygame.Rect(x, y, w, h)

    def _draw_oled(self, seat: Seat) -> None:
        import pygame

        screen = self.oleds[seat]
        cached = self._oled_cache.get(seat)
        if cached is None or cached[0] != screen.frames_sent:
            glass = self._panels[seat].glass()
            seat_view = glass.rotate(90 * screen.rotation, expand=True) if screen.rotation else glass
            look = oled_look(seat_view, self.scale)
            cached = (screen.frames_sent, pygame.image.frombytes(look.tobytes(), look.size, "RGB"))
            self._oled_cache[seat] = cached
        picture = cached[1]
        rect = self._oled_rect(seat)
        rect.size = picture.get_size()
        board = rect.inflate(36, 28)
        pygame.draw.rect(self.window, BOARD_EDGE, board, border_radius=6)
        pygame.draw.rect(self.window, BOARD, board.inflate(-4, -4), border_radius=5)
        for hx, hy in ((board.left + 8, board.top + 8), (board.right - 9, board.top + 8),
                       (board.left + 8, board.bottom - 9), (board.right - 9, board.bottom - 9)):
            pygame.draw.circle(self.window, BACKGROUND, (hx, hy), 4)
        pygame.draw.rect(self.window, (0, 0, 0), rect.inflate(8, 8))
        self.window.blit(picture, rect)
        label = self._small.render(self._texts["seat"].format(seat=seat), True, DIM_TEXT)
        self.window.blit(label, (board.right + 12, board.centery - label.get_height() // 2))

    def _draw_ring(self, centre: tuple[int, int], radius: int) -> None:
        import pygame

        count = self.ring.count
        pixels: Sequence[RGB] = self.ring.last or [(0, 0, 0)] * count
        pygame.draw.circle(self.window, (10, 10, 12), centre, radius + 16)
        dot = max(5, int(radius * math.pi / count * 0.55))
        for i, (r, g, b) in enumerate(pixels):
            angle = 2 * math.pi * i / count  # LED 0 at the top, clockwise
            x = centre[0] + radius * math.sin(angle)
            y = centre[1] - radius * math.cos(angle)
            lit = (r, g, b) != (0, 0, 0)
            pygame.draw.circle(self.window, (r, g, b) if lit else (38, 40, 44), (round(x), round(y)), dot)
            pygame.draw.circle(self.window, (70, 72, 78), (round(x), round(y)), dot, 1)

    def _draw_side(self) -> None:
        import pygame

        left = self.grid_rect.right + 20
        title = self._font.render(self._texts["ring"], True, LEGEND_TEXT)
        self.window.blit(title, (left, 20))
        radius = 80
        self._draw_ring((left + (SIDE_WIDTH - 40) // 2, 60 + radius + 16), radius)
        y = 60 + 2 * radius + 60
        self.window.blit(self._font.render(self._texts["keys"], True, LEGEND_TEXT), (left, y))
        y += 30
        for who, what in legend_lines(self._texts):
            if who:
                y += 6
                self.window.blit(self._small.render(who, True, DIM_TEXT), (left, y))
            self.window.blit(self._small.render(what, True, LEGEND_TEXT), (left + 72, y))
            y += 22
        pygame.draw.line(self.window, (50, 52, 58), (self.grid_rect.right, 0),
                         (self.grid_rect.right, self.window.get_height()))

    def set_legend(self, texts: dict[str, str]) -> None:
        """Write the side panel (ring title, key legend, seat labels) with the app's translated ``texts``."""
        self._texts = legend_texts(texts)

    def compose(self) -> None:
        """Draw every part into the window and show it."""

        self.window.fill(BACKGROUND)
        self.window.blit(self.display.surface, self.grid_rect)
        for seat in SEATS:
            self._draw_oled(seat)
        self._draw_side()
        self._show()
        self._seen = self._state()

    def _show(self) -> None:
        """The composed window on the desktop (scaled to fit it) and flipped."""
        import pygame

        if self.window is self._screen:  # drawn there already
            pygame.display.flip()
            return
        if self.fit == 1.0:
            self._screen.blit(self.window, (0, 0))
        else:
            pygame.transform.smoothscale(self.window, self._screen.get_size(), self._screen)
        pygame.display.flip()

    def _state(self) -> tuple[Any, ...]:
        return (self.oleds["A"].frames_sent, self.oleds["B"].frames_sent, self.ring.last)

    def screenshot(self) -> Image.Image:
        """The whole window as a PIL RGB image."""
        import pygame

        return Image.frombytes("RGB", self.window.get_size(), pygame.image.tobytes(self.window, "RGB"))

    def save_png(self, path: str | os.PathLike[str]) -> None:
        self.screenshot().save(path)

    # -- input -----------------------------------------------------------------------------------------------
    def _translate(self, event: Any) -> InputEvent | None:
        import pygame

        now = self.clock.now()
        if event.type == pygame.QUIT:
            return InputEvent(seat=None, button="quit", kind="quit", time=now)
        if self.text_mode:  # a screen that takes text: letters type, Backspace erases, Escape is MENU
            typed = self._typed(event, now)
            if typed is not None:
                return typed[0]
        if event.type in (pygame.KEYDOWN, pygame.KEYUP):
            hit = KEYMAP.get(pygame.key.name(event.key))
            if hit is None:
                return None
            if event.type == pygame.KEYDOWN:
                return InputEvent(seat=hit[0], button=hit[1], kind="press", time=now)
            return InputEvent(seat=hit[0], button=hit[1], kind="release", time=now)
        pointer: dict[int, EventKind] = {pygame.MOUSEBUTTONDOWN: "touch", pygame.MOUSEMOTION: "drag",
                                         pygame.MOUSEBUTTONUP: "untouch"}
        finger: dict[int, EventKind] = {pygame.FINGERDOWN: "touch", pygame.FINGERMOTION: "drag",
                                        pygame.FINGERUP: "untouch"}
        kind = pointer.get(event.type)
        if kind is not None and not getattr(event, "touch", False):  # the mouse (synthetic ones are fingers)
            if kind == "drag" and not (event.buttons and event.buttons[0]):
                return None  # the mouse moving with no button down
            if kind != "drag" and event.button != 1:
                return None
            return self._touch(kind, (event.pos[0] / self.fit, event.pos[1] / self.fit), now)
        kind = finger.get(event.type)
        if kind is not None:
            w, h = self.window.get_size()
            return self._touch(kind, (event.x * w, event.y * h), now)
        return None

    def _typed(self, event: Any, now: float) -> tuple[InputEvent | None] | None:
        """In text mode: (the event a key gives, or None for nothing), or None when the key is a button as usual
        (the arrows, Enter, the shifts)."""
        import pygame

        if event.type == pygame.TEXTINPUT:
            return (InputEvent(seat=None, button="keyboard", kind="text", time=now, text=event.text),)
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return None
        name = pygame.key.name(event.key)
        if name == "backspace":
            down = event.type == pygame.KEYDOWN
            return (InputEvent(seat=None, button="keyboard", kind="text", time=now, text="\b") if down else None,)
        if name == "escape":
            kind: EventKind = "press" if event.type == pygame.KEYDOWN else "release"
            return (InputEvent(seat=None, button="menu", kind=kind, time=now),)
        if len(name) == 1:  # a letter or a digit: typed (TEXTINPUT), not a button
            return (None,)
        return None

    def want_text(self, on: bool) -> None:
        import pygame

        if on != self.text_mode:
            (pygame.key.start_text_input if on else pygame.key.stop_text_input)()
        super().want_text(on)

    def _touch(self, kind: EventKind, pos: tuple[float, float], now: float) -> InputEvent | None:
        """A finger (or the mouse) coming down, moving or lifting: normalised on the grid. A touch outside the
        grid is nothing; a lift or a move outside it has no position (the finger left the cards)."""
        x, y = pos
        g = self.grid_rect
        if not (g.left <= x < g.right and g.top <= y < g.bottom):
            if kind == "touch":
                return None
            return InputEvent(seat=None, button="touch", kind=kind, time=now)
        return InputEvent(seat=None, button="touch", kind=kind, time=now,
                          pos=((x - g.left) / g.width, (y - g.top) / g.height))

    def _pump(self) -> list[InputEvent]:
        """Show what changed, then translate SDL's pending events (never blocks in SDL)."""
        import pygame

        if self._state() != self._seen:
            self.compose()
        out = []
        exposed = False
        redraw = (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED, pygame.WINDOWSHOWN)
        for ev in pygame.event.get():
            if ev.type in redraw:  # covered and uncovered (or restored): draw it again at once
                exposed = True
            if ev.type == pygame.KEYDOWN:
                self._held.add(ev.key)
            elif ev.type == pygame.KEYUP:
                self._held.discard(ev.key)
            elif ev.type in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
                self._pointer_down = True
            elif ev.type in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
                self._pointer_down = False
            translated = self._translate(ev)
            if translated is not None:
                out.append(translated)
        if exposed:
            self._show()
        return out

    def pump_interval(self) -> float:
        return PUMP_ACTIVE_S if self._held or self._pointer_down else PUMP_IDLE_S

    def _collect(self, timeout: float | None) -> list[InputEvent]:
        return self._wait_pumping(timeout, self._pump)

    def close(self) -> None:
        if self.closed:
            return
        super().close()
        import pygame

        pygame.display.quit()
