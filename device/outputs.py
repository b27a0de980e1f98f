"""The one place frames meet devices: screen models → renderers → the box's display, OLEDs and ring.

The renderers (device/render/) are pure; until a renderer exists this module draws a plain text stand-in, so
the app runs and is tested whatever has landed. Only public views go to the shared display and the ring."""

from __future__ import annotations

import logging
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from device.render import ring as _ring
from device.render.models import OledUi, OledView, RingEffect, SharedUi, SharedView
from device.render.oled import render_oled as _render_oled
from device.render.shared import SharedRenderer as _SharedRenderer
from device.render.shared import render_shared as _render_shared
from device.screens.base import Frame
from engine.board import DUET as DUET_BOARD
from engine.seats import Seat
from engine.views import PublicView
from hardware.base import RGB

if TYPE_CHECKING:  # pragma: no cover - typing only (pygame is imported where the stand-in draws)
    import pygame

    from hardware.box import Box

log = logging.getLogger("duetbox.outputs")


def _text_of(model: object) -> list[str]:
    """A model's strings, for the stand-in drawing."""
    out: list[str] = [type(model).__name__]
    if not is_dataclass(model):
        return out
    for f in fields(model):
        value = getattr(model, f.name)
        if isinstance(value, str) and value:
            out.append(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, str):
                    out.append(item)
                elif is_dataclass(item) and hasattr(item, "label"):
                    out.append(f"{item.label} {getattr(item, 'value', '') or ''}")
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(f"{f.name}={value}")
    return out


def _standin_shared(surface: pygame.Surface, view: SharedView | None, ui: SharedUi) -> list[pygame.Rect]:
    import pygame

    surface.fill((20, 24, 30))
    if not pygame.font.get_init():
        pygame.font.init()
    font = pygame.font.Font(None, 28)
    y = 10
    if isinstance(view, PublicView):
        w, h = surface.get_size()
        board = DUET_BOARD
        cw, ch = (w - 20) // board.columns, (h // 2) // board.rows
        for card in view.cards:
            r, c = board.place(card.index)
            rect = pygame.Rect(10 + c * cw, 10 + r * ch, cw - 4, ch - 4)
            colour = (40, 140, 60) if card.agent else (200, 30, 30) if card.assassin else (220, 210, 180)
            pygame.draw.rect(surface, colour, rect)
            label = card.word + (" " + "".join(card.marks) if card.marks else "")
            surface.blit(font.render(label, True, (0, 0, 0)), rect.move(4, 4))
        y = 20 + board.rows * ch
    for line in _text_of(ui)[:14]:
        surface.blit(font.render(line[:90], True, (230, 230, 230)), (10, y))
        y += 26
    return [surface.get_rect()]


def _standin_oled(seat_view: OledView | None, ui: OledUi | None) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    y = 0
    for line in _text_of(ui)[1:6]:
        draw.text((0, y), line[:21], fill=1)
        y += 12
    return image


def _standin_ring(view: SharedView | None, effects: tuple[RingEffect, ...], t: float, count: int,
                  brightness: float) -> list[RGB]:
    pixels = [(0, 0, 0)] * count
    if isinstance(view, PublicView):
        for i in range(min(count, view.bank_innocent)):
            pixels[i] = (200, 160, 60)
        for i in range(view.bank_innocent, min(count, view.bank)):
            pixels[i] = (60, 60, 200)
    return pixels


class Outputs:
    """Draws frames on one box. ``last_ring`` keeps the last logical ring frame (for snapshots).

    This is the one place that skips unchanged work: a shared display whose (view, model) did not change is
    neither drawn nor presented, an OLED whose (seat view, model) did not change is neither drawn nor sent, and
    a ring frame equal to the last one is not sent. Below it nothing skips a frame: the renderers draw what
    they are given (the shared renderer redraws only the regions that differ from its last frame, a measured
    gain: docs/performance.md), the OLED screens send the pages that differ from what their glass holds, the
    ring writes what it is shown. ``force`` draws and sends everything."""

    def __init__(self, box: Box, *, brightness: float = 1.0, shared_rotation: int = 0) -> None:
        self.box = box
        self.brightness = brightness
        #: 0 or 180: the shared display turned half a turn (a remote guest's seat B reads it upright)
        self.shared_rotation = shared_rotation
        self._unturned: pygame.Surface | None = None  # what the renderer draws on when turned (caches keep it)
        self._drawn_rotation = shared_rotation
        self.last_ring: list[RGB] = []
        self._ring_input: tuple[SharedView | None, tuple[RingEffect, ...]] = (None, ())  # what the ring shows
        self._last_shared: tuple[SharedView | None, SharedUi, int] | None = None
        self._oled_seen: dict[str, tuple[OledView | None, OledUi]] = {}
        self._display_failed = False  # present() failed: log once per burst, redraw whole when it returns
        self._renderer = _SharedRenderer() if _SharedRenderer is not None else None

    def show(self, frame: Frame, now: float, *, force: bool = False) -> None:
        self._shared(frame, force)
        self._show_ring(frame, now, force)  # before the OLED frames are drawn: the ring must not wait for them
        for seat, ui in frame.oleds.items():
            self._oled(seat, frame, ui, force)

    def _shared(self, frame: Frame, force: bool) -> None:
        display = self.box.display
        if display is None:
            return
        key = (frame.view, frame.shared, self.shared_rotation)
        if not force and key == self._last_shared:
            return
        self._last_shared = key
        if self._drawn_rotation != self.shared_rotation:  # the renderer's caches hold the other surface
            self._drawn_rotation = self.shared_rotation
            self._renderer = _SharedRenderer() if _SharedRenderer is not None else None
        surface = display.surface if self.shared_rotation != 180 else self._turned_source(display.surface)
        try:
            if _render_shared is not None:
                rects = _render_shared(surface, frame.view, frame.shared, self._renderer)
            else:
                rects = _standin_shared(surface, frame.view, frame.shared)
        except Exception:  # noqa: BLE001 - a drawing bug must not stop the game
            log.exception("drawing the shared display failed; showing the stand-in")
            rects = _standin_shared(surface, frame.view, frame.shared)
        if surface is not display.surface:
            import pygame

            display.surface.blit(pygame.transform.flip(surface, True, True), (0, 0))
        whole = self._display_failed or surface is not display.surface  # turned: the whole display
        try:
            display.present(None if whole else rects)
        except (OSError, RuntimeError) as exc:  # pygame.error is a RuntimeError: a display that went away
            if not self._display_failed:
                log.warning("the shared display failed (%s); the game goes on without it", exc)
            self._display_failed = True
            self._last_shared = None  # try again with the next frame
            return
        if self._display_failed:
            log.info("the shared display is back")
            self._display_failed = False

    def _turned_source(self, target: pygame.Surface) -> pygame.Surface:
        if self._unturned is None or self._unturned.get_size() != target.get_size():
            self._unturned = target.copy()
        return self._unturned

    def _oled(self, seat: Seat, frame: Frame, ui: OledUi | None, force: bool) -> None:
        screen = self.box.oleds.get(seat)
        if screen is None:
            return
        seat_view = frame.seat_views.get(seat)
        if ui is None:
            return
        key = (seat_view, ui)
        if not force and self._oled_seen.get(seat) == key:
            return
        self._oled_seen[seat] = key
        render = _render_oled if _render_oled is not None else _standin_oled
        try:
            image = render(seat_view, ui)
        except Exception:  # noqa: BLE001
            log.exception("drawing OLED %s failed; showing the stand-in", seat)
            image = _standin_oled(seat_view, ui)
        screen.show(image)

    def _show_ring(self, frame: Frame, now: float, force: bool = False) -> None:
        self._ring_input = (frame.ring_view, tuple(frame.ring))
        ring = self.box.ring
        if ring is None:
            return
        fn = getattr(_ring, "ring_frame", None) if _ring is not None else None
        pixels: list[RGB]
        if frame.ring_pixels is not None:
            b = self.brightness
            pixels = [(round(r * b), round(g * b), round(bl * b)) for r, g, bl in frame.ring_pixels]
        else:
            try:
                pixels = (fn or _standin_ring)(frame.ring_view, frame.ring, now, ring.count, self.brightness)
            except Exception:  # noqa: BLE001
                log.exception("drawing the ring failed; showing the stand-in")
                pixels = _standin_ring(frame.ring_view, frame.ring, now, ring.count, self.brightness)
        logical: list[RGB] = [(int(r), int(g), int(bl)) for r, g, bl in pixels]
        if not force and logical == self.last_ring:
            return
        self.last_ring = logical
        ring.show(pixels)

    def ring_deadline(self, now: float) -> float | None:
        """When the ring's picture next changes by itself (None: not until something happens), from what the
        ring shows (the public view and the effects it was last given): nothing is drawn to know it."""
        view, effects = self._ring_input
        fn = getattr(_ring, "next_deadline", None) if _ring is not None else None
        if fn is None:
            return now + 0.05 if effects else None
        try:
            result = fn(view, effects, now)
        except Exception:  # noqa: BLE001
            return None
        return None if result is None else float(result)

    def blank(self, message_shared: SharedUi, message_oled: OledUi) -> None:
        """The paused frame at shutdown: a message on every screen, the ring dark."""
        self.show(Frame(shared=message_shared, oleds={"A": message_oled, "B": message_oled}), 0.0, force=True)
        if self.box.ring is not None:
            self.last_ring = [(0, 0, 0)] * self.box.ring.count
            self.box.ring.show(self.last_ring)
