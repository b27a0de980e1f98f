"""Hot-seat clue entry on the shared display: the number, the word typed so far and the letter strip the
joystick moves over (the same picker as the OLED's, drawn large in the side panel facing the clue giver).

``entry_drawer(text, ui)`` returns the panel's drawing for a ``ClueEntryUi``; the shared renderer draws it in
the side panel (twice, one turned for each seat, in "table" orientation) instead of the bank and the history.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import pygame

from . import cards as C
from .models import ClueEntryUi
from .text import TextCache, ellipsize, pg_font, wrap

Draw = Callable[[pygame.Surface, pygame.Rect], None]


def _fit(text: str, width: int, size: int, bold: bool = False) -> str:
    font = pg_font(size, bold)
    return ellipsize(text, width, lambda s: font.size(s)[0])


def entry_drawer(text: TextCache, ui: ClueEntryUi) -> Draw:
    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        surface.fill(C.PANEL, rect)
        pad = max(6, rect.width // 22)
        width = rect.width - 2 * pad
        body = max(C.MIN_TEXT_PX, rect.width // 17)
        big = max(C.MIN_TEXT_PX, rect.width // 11)
        x, y = rect.left + pad, rect.top + pad
        title = text.get(_fit(ui.title, width, body, True), body, C.INK_LIGHT, bold=True)
        surface.blit(title, (x, y))
        y += title.get_height() + pad // 2
        if ui.stage == "number":
            y = _number(surface, text, ui, pygame.Rect(x, y, width, rect.bottom - y), big)
        elif ui.stage == "word":
            y = _word(surface, text, ui, pygame.Rect(x, y, width, rect.bottom - y), big, body)
        else:
            y = _refusal(surface, text, ui, pygame.Rect(x, y, width, rect.bottom - y), body)
        font = pg_font(body)
        for line in wrap(ui.hint, width, lambda s: font.size(s)[0]) if ui.hint else ():
            t = text.get(line, body, C.INK_MUTED)
            if y + t.get_height() > rect.bottom - pad // 2:
                break
            surface.blit(t, (x, y))
            y += t.get_height()

    return draw


def _number(surface: pygame.Surface, text: TextCache, ui: ClueEntryUi, area: pygame.Rect, big: int) -> int:
    """The number large between an up and a down arrow."""
    t = text.get(str(ui.number), big, C.INK_LIGHT, bold=True)
    arrow = max(6, big // 3)
    cx, y = area.centerx, area.top
    pygame.draw.polygon(surface, C.INK_MUTED, [(cx - arrow, y + arrow), (cx + arrow, y + arrow), (cx, y)])
    y += arrow + 2
    surface.blit(t, t.get_rect(midtop=(cx, y)))
    y += t.get_height() + 2
    pygame.draw.polygon(surface, C.INK_MUTED, [(cx - arrow, y), (cx + arrow, y), (cx, y + arrow)])
    return y + arrow + max(4, big // 4)


def _word(surface: pygame.Surface, text: TextCache, ui: ClueEntryUi, area: pygame.Rect, big: int,
          body: int) -> int:
    """The number and the word typed so far (its end when it is long), then the letter strip."""
    number = "" if ui.number is None else f"{ui.number}  "
    font = pg_font(body, True)
    word = ui.word + "_"
    while font.size(number + word)[0] > area.width and len(word) > 2:  # a long word scrolls: its end shows
        word = "…" + word[2:]
    t = text.get(number + word, body, C.INK_LIGHT, bold=True)
    surface.blit(t, (area.left, area.top))
    y = area.top + t.get_height() + max(4, body // 2)
    return _strip(surface, text, ui.letters, ui.letter, pygame.Rect(area.left, y, area.width, big), big) \
        + max(4, body // 2)


#: The picker's action symbols, drawn as tall as a capital letter where their cell leaves the room: their
#: glyphs are smaller than a capital in the font ("✓" four fifths of it).
SYMBOLS = frozenset("⌫✓—⊔")


@lru_cache(maxsize=256)
def symbol_size(letter: str, size: int) -> int:
    """The font size at which ``letter``'s ink is as tall as a capital A's at ``size`` (letters: ``size``)."""
    if letter not in SYMBOLS:
        return size
    font = pg_font(size, True)

    def ink_height(ch: str, f: pygame.font.Font) -> int:
        return max(1, f.render(ch, True, (255, 255, 255)).get_bounding_rect().height)

    cap = ink_height("A", font)
    room = int(size * 1.15) - 6  # the strip's cell, less its box's margins: a symbol never runs into the next
    grown = size
    while grown < size * 3:
        nxt = grown + max(1, size // 8)
        ink = pg_font(nxt, True).render(letter, True, (255, 255, 255)).get_bounding_rect()
        if ink_height(letter, pg_font(grown, True)) >= cap or ink.width > room:
            break
        grown = nxt
    return grown


def _strip(surface: pygame.Surface, text: TextCache, letters: tuple[str, ...], selected: int, row: pygame.Rect,
           size: int) -> int:
    """The letters centred on the highlighted one (in a light box); as many on each side as fit the row,
    wrapping round the alphabet like the picker."""
    if not letters:
        return row.top
    n = len(letters)
    selected %= n
    cell = int(size * 1.15)
    side = max(0, min((row.width // cell - 1) // 2, (n - 1) // 2))
    centre = row.centerx
    height = pg_font(size, True).get_linesize()
    for offset in range(-side, side + 1):
        letter = letters[(selected + offset) % n]
        box = pygame.Rect(0, 0, cell - 2, height + 4)
        box.center = (centre + offset * cell, row.top + box.height // 2)
        if offset == 0:
            C.rounded(surface, C.INK_LIGHT, box, max(3, size // 6))
            colour = C.PANEL
        else:
            colour = C.INK_LIGHT
        letter_px = size if offset == 0 else max(C.MIN_TEXT_PX, size * 3 // 4)
        t = text.get(letter, symbol_size(letter, letter_px), colour, bold=True)
        surface.blit(t, t.get_rect(center=box.center))
    bottom = row.top + height + 4
    pygame.draw.line(surface, C.INK_MUTED, (row.left, bottom + 2), (row.right - 1, bottom + 2))
    return bottom + 4


def _refusal(surface: pygame.Surface, text: TextCache, ui: ClueEntryUi, area: pygame.Rect, body: int) -> int:
    """The checker's reason, then the two choices with the selected one highlighted."""
    font = pg_font(body)
    y = area.top
    for line in wrap(ui.refusal or "", area.width, lambda s: font.size(s)[0])[:4]:
        t = text.get(line, body, C.INK_LIGHT)
        surface.blit(t, (area.left, y))
        y += t.get_height()
    y += max(4, body // 2)
    if not ui.choices:
        return y
    width = area.width // len(ui.choices)
    for i, choice in enumerate(ui.choices):
        box = pygame.Rect(area.left + i * width, y, width - 4, font.get_linesize() + 6)
        chosen = i == ui.choice
        if chosen:
            C.rounded(surface, C.INK_LIGHT, box, max(3, body // 4))
        else:
            C.rounded(surface, C.INK_MUTED, box, max(3, body // 4), 1)
        t = text.get(_fit(choice, box.width - 6, body), body, C.PANEL if chosen else C.INK_LIGHT)
        surface.blit(t, t.get_rect(center=box.center))
    return y + font.get_linesize() + 6 + max(4, body // 2)
