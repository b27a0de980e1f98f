"""Fonts and text helpers shared by the renderers: the bundled DejaVu faces (they cover French and Romanian
diacritics), cached pygame fonts and text surfaces, cached PIL fonts, word wrapping and fitting."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

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
    """Rendered text surfaces keyed by (text, size, weight, colour, flip); least recently used evicted."""

    def __init__(self, limit: int = 600) -> None:
        self._items: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()
        self.limit = limit

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
            return surf
        surf = pg_font(size, bold, condensed).render(text, True, colour)
        if flip:
            surf = pygame.transform.rotate(surf, 180)
        self._items[key] = surf
        if len(self._items) > self.limit:
            self._items.popitem(last=False)
        return surf

    def clear(self) -> None:
        self._items.clear()


def wrap(text: str, width: int, measure: Callable[[str], int]) -> list[str]:
    """Words of ``text`` in lines no wider than ``width`` (a word longer than a line gets a line of its own,
    cut with an ellipsis); explicit newlines are kept."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            candidate = f"{line} {word}" if line else word
            if measure(candidate) <= width:
                line = candidate
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
