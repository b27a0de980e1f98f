"""Fonts and text helpers shared by the renderers: the bundled DejaVu faces (they cover French and Romanian
diacritics), cached pygame fonts and text surfaces, cached PIL fonts, word wrapping and fitting."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pygame
    from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
CONDENSED_BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"

Colour = tuple[int, int, int]


def _face(bold: bool, condensed: bool) -> Path:
    if condensed:
        return CONDENSED_BOLD
    return BOLD if bold else REGULAR


_PG_FONTS: dict[tuple[int, bool, bool], pygame.font.Font] = {}
_QUIT_HOOKED = False


def pg_font(size: int, bold: bool = False, condensed: bool = False) -> pygame.font.Font:
    """A pygame font of the bundled faces, cached. pygame.font is (re)initialised on demand, and the cache is
    dropped when it was shut down in between (fonts die with ``pygame.quit()``)."""
    import pygame

    global _QUIT_HOOKED
    if not _QUIT_HOOKED:
        pygame.register_quit(_PG_FONTS.clear)  # fonts die with pygame.quit(): forget them then
        _QUIT_HOOKED = True
    if not pygame.font.get_init():
        pygame.font.init()
        _PG_FONTS.clear()
    key = (max(4, int(size)), bold, condensed)
    font = _PG_FONTS.get(key)
    if font is None:
        font = pygame.font.Font(str(_face(bold, condensed)), key[0])
        _PG_FONTS[key] = font
    return font


@lru_cache(maxsize=32)
def pil_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A PIL font of the bundled faces, always with Pillow's BASIC layout engine: with libraqm (and
    libfribidi) present Pillow would pick the RAQM engine, which places glyphs differently, so the box, the
    tests and the docs would not draw the same OLED pixels (the box's Pillow finds libraqm, a CI wheel may not).
    BASIC lays out French, English, Romanian, German and Italian correctly (no right-to-left text here)."""
    from PIL import ImageFont

    return ImageFont.truetype(str(_face(bold, False)), size, layout_engine=ImageFont.Layout.BASIC)


class TextCache:
    """Rendered text surfaces keyed by (text, size, weight, colour, flip); least recently used evicted.

    ``recorded``: None (the default), or a dict that learns every text surface this cache hands out
    (``id(surface)`` → (surface, text, size)); a ``RecordingSurface`` blitted with such a surface notes the
    text's box. Tests of the layout use it (``record_texts``); nothing else changes."""

    def __init__(self, limit: int = 600) -> None:
        self._items: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()
        self.limit = limit
        self.recorded: dict[int, tuple[pygame.Surface, str, int, bool]] | None = None

    def get(
        self,
        text: str,
        size: int,
        colour: Colour,
        *,
        bold: bool = False,
        condensed: bool = False,
        flip: bool = False,
    ) -> pygame.Surface:
        import pygame

        key = (text, size, colour, bold, condensed, flip)
        surf = self._items.get(key)
        if surf is not None:
            self._items.move_to_end(key)
            if self.recorded is not None:
                self.recorded[id(surf)] = (surf, text, max(4, int(size)), flip)
            return surf
        surf = pg_font(size, bold, condensed).render(text, True, colour)
        if flip:
            surf = pygame.transform.rotate(surf, 180)
        self._items[key] = surf
        if len(self._items) > self.limit:
            self._items.popitem(last=False)
        if self.recorded is not None:
            self.recorded[id(surf)] = (surf, text, max(4, int(size)), flip)
        return surf

    def clear(self) -> None:
        self._items.clear()


# --- recording the drawn texts (layout tests) ------------------------------------------------------------


class TextBox(NamedTuple):
    """One text drawn on a surface: its box and the visible part of it (both in that surface's pixels)."""

    text: str
    size: int  # font size, px
    box: tuple[int, int, int, int]  # x, y, w, h of the whole text surface
    visible: tuple[int, int, int, int]  # the part not cut by the clip, the surface's edge or a blit's area
    turned: bool = False  # drawn upside down (it faces seat B, across the table)
    ink: tuple[int, int, int, int] | None = None  # the visible part of its ink (None: no ink drawn)


class MarkBox(NamedTuple):
    """A mark drawn over a card (a cursor's ring, a hold's sweep, a token, a badge): the kind and
    the visible part of its box, in the recording surface's pixels (``note_mark``)."""

    kind: str
    box: tuple[int, int, int, int]


def note_mark(surface: pygame.Surface, kind: str, rect: object) -> None:
    """Note a mark of ``kind`` drawn at ``rect`` on ``surface`` when it records (``record_texts``); nothing
    otherwise. Layout tests check that no mark sits over a text's ink."""
    if _RECORDING is None or not isinstance(surface, _RECORDING):
        return
    import pygame

    seen = pygame.Rect(rect).clip(surface.get_clip())  # type: ignore[call-overload]
    if seen.width > 0 and seen.height > 0:
        surface.marks.append(MarkBox(kind, tuple(seen)))  # type: ignore[attr-defined]


_RECORDING: type | None = None


def _recording_class() -> type:
    global _RECORDING
    if _RECORDING is not None:
        return _RECORDING
    import pygame

    class RecordingSurface(pygame.Surface):
        """A pygame surface that keeps the boxes of the texts blitted on it (``texts``), also of texts
        carried by another recording surface blitted on it (a card face, a turned panel)."""

        cache: TextCache | None
        texts: list[TextBox]
        marks: list[MarkBox]

        def blit(self, source: pygame.Surface, dest: object, area: object = None,  # type: ignore[override]
                 special_flags: int = 0) -> pygame.Rect:
            done = super().blit(source, dest, area, special_flags)  # type: ignore[arg-type]
            pos = dest.topleft if isinstance(dest, pygame.Rect) else tuple(dest)[:2]  # type: ignore[arg-type]
            cut = pygame.Rect(area) if area is not None else source.get_rect()  # type: ignore[call-overload]
            bounds = self.get_clip().clip(pygame.Rect(pos, cut.size))
            offset = (int(pos[0]) - cut.left, int(pos[1]) - cut.top)
            entry = self.cache.recorded.get(id(source)) if self.cache and self.cache.recorded is not None else None
            if entry is not None and entry[0] is source:
                box = pygame.Rect(offset, source.get_size())
                ink = source.get_bounding_rect().move(offset).clip(bounds)
                self.texts.append(TextBox(entry[1], entry[2], tuple(box), tuple(box.clip(bounds)),  # type: ignore[arg-type]
                                          entry[3], tuple(ink) if ink.width and ink.height else None))  # type: ignore[arg-type]
            for t in getattr(source, "texts", ()):
                box = pygame.Rect(t.box).move(offset)
                seen = pygame.Rect(t.visible).move(offset).clip(bounds)
                moved = pygame.Rect(t.ink).move(offset).clip(bounds) if t.ink else None
                self.texts.append(TextBox(t.text, t.size, tuple(box), tuple(seen), t.turned,  # type: ignore[arg-type]
                                          tuple(moved) if moved and moved.width and moved.height else None))  # type: ignore[arg-type]
            for m in getattr(source, "marks", ()):
                seen = pygame.Rect(m.box).move(offset).clip(bounds)
                if seen.width > 0 and seen.height > 0:
                    self.marks.append(MarkBox(m.kind, tuple(seen)))  # type: ignore[arg-type]
            return done

    _RECORDING = RecordingSurface
    return RecordingSurface


def record_texts(cache: TextCache, size: tuple[int, int]) -> pygame.Surface:
    """A surface of ``size`` that records the texts ``cache`` makes as they are blitted on it (``.texts``):
    hand it to a renderer that uses ``cache`` (``SharedRenderer.text``)."""
    cache.recorded = {} if cache.recorded is None else cache.recorded
    surface = _recording_class()(size)
    surface.cache, surface.texts, surface.marks = cache, [], []
    return surface  # type: ignore[no-any-return]


def surface_like(size: tuple[int, int], like: pygame.Surface | None, flags: int = 0) -> pygame.Surface:
    """A new surface of ``size`` (in ``like``'s pixel format when given, with ``flags``); a recording one
    when ``like`` records, so texts drawn on it are known where it is blitted."""
    import pygame

    if like is None:
        return pygame.Surface(size, flags)
    if isinstance(like, _RECORDING or ()):
        made = _recording_class()(size, flags, like) if not flags else _recording_class()(size, flags)
        made.cache, made.texts, made.marks = like.cache, [], []  # type: ignore[attr-defined]
        return made  # type: ignore[no-any-return]
    return pygame.Surface(size, flags, like) if not flags else pygame.Surface(size, flags)


def copy_surface(surface: pygame.Surface) -> pygame.Surface:
    """``surface.copy()`` that keeps a recording surface's texts."""
    if not isinstance(surface, _RECORDING or ()):
        return surface.copy()
    made = surface_like(surface.get_size(), surface)
    made.blit(surface, (0, 0))
    return made


def turned_half(surface: pygame.Surface) -> pygame.Surface:
    """``surface`` turned 180°, with a recording surface's text boxes turned too."""
    import pygame

    turned = pygame.transform.rotate(surface, 180)
    if not isinstance(surface, _RECORDING or ()):
        return turned
    w, h = surface.get_size()
    made = surface_like((w, h), surface)
    pygame.Surface.blit(made, turned, (0, 0))

    def mirror(r: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return (w - r[0] - r[2], h - r[1] - r[3], r[2], r[3])

    made.texts = [TextBox(t.text, t.size, mirror(t.box), mirror(t.visible), not t.turned,  # type: ignore
                          mirror(t.ink) if t.ink else None)
                  for t in surface.texts]  # type: ignore[attr-defined]
    made.marks = [MarkBox(m.kind, mirror(m.box)) for m in surface.marks]  # type: ignore[attr-defined]
    return made


_BREAKS = re.compile(r"[ \t\r\f\v\u2002-\u2006\u2008-\u200b]+")


def _glued(words: list[str]) -> list[str]:
    """French spacing kept on one line: a lone ":", ";", "!", "?" or "»" stays with the word before it, a lone
    "«" with the word after it."""
    out: list[str] = []
    opening = False
    for word in words:
        if not word:
            continue
        if out and (opening or word in (":", ";", "!", "?", "»")):
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
        opening = word == "«"
    return out


def wrap(text: str, width: int, measure: Callable[[str], int]) -> list[str]:
    """Words of ``text`` in lines no wider than ``width`` (a word longer than a line gets a line of its own,
    cut with an ellipsis); explicit newlines are kept. Only breakable spaces break a line: a no-break space
    (U+00A0, or the narrow one French puts before "%" and ";") keeps "38 %" together."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        words = _glued(_BREAKS.split(para.strip(" \t")))[::-1]  # a stack: the next word is the last
        while words:
            word = words.pop()
            candidate = f"{line} {word}" if line else word
            if measure(candidate) <= width:
                line = candidate
                continue
            if " " in word and measure(word) > width:  # glued words wider than a line: break them after all
                words.extend(reversed(word.split(" ")))
                continue
            if line:
                lines.append(line)
            line = word if measure(word) <= width else ellipsize(word, width, measure)
        lines.append(line)
    return lines


def ellipsize(text: str, width: int, measure: Callable[[str], int]) -> str:
    """``text`` cut with "…" so it fits ``width``.

    A binary search over the prefix length (widths grow with the prefix), after cutting the text to ``width``
    characters plus a margin (no visible character is narrower than a pixel): a 100,000-letter word costs a
    few measures of a short string, not 100,000 measures of a long one."""
    if len(text) <= 4 * width + 8 and measure(text) <= width:
        return text
    text = text[: 2 * width + 8]
    if measure(text + "…") <= width:  # only zero-width characters were cut off
        return text + "…"
    low, high = 0, len(text)  # measure(text[:low] + "…") fits (or low == 0); text[:high] + "…" does not
    while high - low > 1:
        middle = (low + high) // 2
        if measure(text[:middle] + "…") <= width:
            low = middle
        else:
            high = middle
    return text[:low] + "…"


def fit_size(
    text: str,
    width: int,
    height: int,
    *,
    bold: bool = False,
    condensed: bool = False,
    largest: int = 200,
    smallest: int = 6,
) -> int:
    """The largest font size (≤ ``largest``) at which ``text`` fits ``width`` x ``height`` on one line."""
    if len(text) > 4 * width + 8:  # wider than ``width`` at any size (a visible character is at least a pixel)
        return smallest
    size = max(smallest, min(largest, int(height)))
    while size > smallest:
        w, h = pg_font(size, bold, condensed).size(text or " ")
        if w <= width and h <= height:
            return size
        size -= max(1, size // 12)
    return smallest
