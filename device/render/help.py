"""The shared display's help, about and confirmation pages (issue 15, the shell's screens).

Each page speaks to both seats: in "table" orientation the page is drawn in the lower half for seat A and the
same drawing, turned half a turn, in the upper half for seat B (like the hot-seat privacy screen); "upright"
draws it once on the whole screen. The help pages are illustrated with the box's own card renderer
(``cards.card_face``, ``cards.token``): a small agent card, a bystander token, a red tile... as the players will
see them in the game.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from engine.pictures_deck import picture_path

from . import cards as C
from .models import AboutUi, ConfirmUi, Figure, HelpUi
from .screens import SELECT, both_seats, paragraph
from .text import TextCache, ellipsize, pg_font, wrap


def _sizes(rect: pygame.Rect) -> tuple[int, int, int]:
    """(title, body, hint) text sizes for a page drawn in ``rect``."""
    body = max(C.MIN_TEXT_PX + 3, min(rect.height // 15, rect.width // 42))
    return int(body * 1.3), body, max(C.MIN_TEXT_PX, int(body * 0.85))


def _title(surface: pygame.Surface, rect: pygame.Rect, title: str, right: str, text: TextCache, size: int) -> int:
    """The page's title (and a page number on the right); returns the y below it."""
    font = pg_font(size, True)
    pad = max(8, rect.width // 40)
    room = rect.width - 2 * pad - (font.size(right)[0] + pad if right else 0)
    t = text.get(ellipsize(title, room, lambda s: font.size(s)[0]), size, C.INK_LIGHT, bold=True)
    y = rect.top + max(6, size // 3)
    surface.blit(t, (rect.left + pad, y))
    if right:
        r = text.get(right, int(size * 0.75), C.INK_MUTED)
        surface.blit(r, r.get_rect(topright=(rect.right - pad, y + (t.get_height() - r.get_height()) // 2)))
    return y + t.get_height() + max(4, size // 4)


def _hint(surface: pygame.Surface, rect: pygame.Rect, hint: str, text: TextCache, size: int) -> int:
    """The hint line at the bottom; returns its top."""
    if not hint:
        return rect.bottom
    font = pg_font(size)
    h = text.get(ellipsize(hint, rect.width - 20, lambda s: font.size(s)[0]), size, C.INK_MUTED)
    top = rect.bottom - h.get_height() - max(4, size // 3)
    surface.blit(h, h.get_rect(midtop=(rect.centerx, top)))
    return top


def _picture(picture_id: str, size: tuple[int, int]) -> pygame.Surface | None:
    try:
        with picture_path(picture_id).open("rb") as fh:
            return pygame.transform.smoothscale(pygame.image.load(fh, "picture.png"), size)
    except (KeyError, OSError, ValueError, pygame.error):
        return None


def figure(surface: pygame.Surface, box: pygame.Rect, fig: Figure, text: TextCache, caption: int) -> None:
    """One illustration in ``box`` (its caption below it), drawn with the game's own card faces."""
    cap_h = pg_font(caption).get_linesize() if fig.caption else 0
    room = pygame.Rect(box.left, box.top, box.width, box.height - cap_h)
    if fig.kind in ("token", "code"):
        centre = room.center
        if fig.kind == "token":
            C.token(surface, centre, max(6, min(room.width, room.height) // 3), "innocent")
        else:
            size = max(C.MIN_TEXT_PX, min(room.height // 3, 40))
            while size > C.MIN_TEXT_PX and pg_font(size, True).size(fig.content)[0] + 2 * size > room.width:
                size -= 1  # the plate (text + a margin each side) fits the column
            t = text.get(fig.content, size, C.INK_LIGHT, bold=True)
            plate = t.get_rect(center=centre).inflate(size, size // 2)
            C.rounded(surface, C.PANEL, plate, size // 3)
            surface.blit(t, t.get_rect(center=centre))
    else:
        w = min(room.width, int(room.height * 1.5))
        h = min(room.height, int(w / 1.5))
        face = C.Face(
            content=fig.content,
            size=(w, h),
            orientation="upright",
            picture=fig.kind == "picture",
            agent=fig.kind == "agent",
            assassin=fig.kind == "assassin",
            marks=("A",) if fig.kind == "bystander" else (),
            key="G" if fig.kind == "key" else None,
            colour={"red": "R", "blue": "B"}.get(fig.kind),
            cover=1.0 if fig.kind in ("red", "blue") else 0.0,
        )
        card = C.card_face(face, text, _picture, surface)
        surface.blit(card, card.get_rect(center=room.center))
    if fig.caption:
        font = pg_font(caption)
        t = text.get(ellipsize(fig.caption, box.width, lambda s: font.size(s)[0]), caption, C.INK_MUTED)
        surface.blit(t, t.get_rect(midtop=(box.centerx, room.bottom)))


def _text_height(lines: tuple[str, ...], width: int, body: int) -> int:
    font = pg_font(body)
    per_line = int(font.get_height() * 1.05)
    return sum(len(wrap(line, width, lambda t: font.size(t)[0])) * per_line + body // 2 for line in lines)


def help_page(surface: pygame.Surface, rect: pygame.Rect, ui: HelpUi, text: TextCache) -> None:
    """The page's paragraphs with its figures in a column on the left; on a short page (half of the 7" screen)
    where that column would make the cards tiny, the figures go in a row under the text instead."""
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        title, body, small = _sizes(r)
        y = _title(s, r, ui.title, ui.page, text, title)
        bottom = _hint(s, r, ui.hint, text, small)
        pad = max(8, r.width // 40)
        figures = ui.figures
        column = max(90, r.width // 5) if figures else 0
        stacked = max(30, min((bottom - y) // max(1, len(figures)), column * 3 // 4))
        below = bottom - y - _text_height(ui.lines, r.width - 2 * pad, body) - pad
        if figures and stacked < 70 and below > stacked:  # a row under the text gives the cards more room
            cell_w = min(int(column * 1.3), (r.width - 2 * pad) // len(figures))
            left = r.centerx - cell_w * len(figures) // 2
            for k, fig in enumerate(figures):
                figure(s, pygame.Rect(left + k * cell_w + 2, bottom - below, cell_w - 4, below - small // 2), fig, text,
                       small)
            column = 0
        elif figures:
            top = y + max(0, (bottom - y - stacked * len(figures)) // 2)
            for k, fig in enumerate(figures):
                figure(s, pygame.Rect(r.left + pad, top + k * stacked, column, stacked - 4), fig, text, small)
        x = r.left + pad + (column + pad if column else 0)
        width = r.right - pad - x
        for line in ui.lines:
            y = paragraph(s, text, line, x, y, width, body, C.INK_LIGHT) + body // 2

    both_seats(surface, rect, ui.orientation, draw)


def about(surface: pygame.Surface, rect: pygame.Rect, ui: AboutUi, text: TextCache) -> None:
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        title, body, small = _sizes(r)
        y = _title(s, r, ui.title, "", text, title)
        _hint(s, r, ui.hint, text, small)
        pad = max(8, r.width // 40)
        for k, line in enumerate(ui.lines):
            colour = C.INK_LIGHT if k == 0 else C.INK_MUTED
            y = paragraph(s, text, line, r.left + pad, y, r.width - 2 * pad, small if k else body, colour,
                          bold=k == 0) + small // 3

    both_seats(surface, rect, ui.orientation, draw)


def confirm(surface: pygame.Surface, rect: pygame.Rect, ui: ConfirmUi, text: TextCache) -> None:
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        title, body, small = _sizes(r)
        y = _title(s, r, ui.title, "", text, title)
        bottom = _hint(s, r, ui.hint, text, small)
        pad = max(8, r.width // 40)
        for line in ui.lines:
            y = paragraph(s, text, line, r.left + pad, y, r.width - 2 * pad, body, C.INK_LIGHT) + body // 3
        n = max(1, len(ui.choices))
        gap = pad
        width = min((r.width - 2 * pad - (n - 1) * gap) // n, r.width // 3)
        height = max(body * 2, min(body * 3, bottom - y - 4))
        left = r.centerx - (n * width + (n - 1) * gap) // 2
        top = max(y, bottom - height - 4)
        font = pg_font(body, True)
        for k, choice in enumerate(ui.choices):
            box = pygame.Rect(left + k * (width + gap), top, width, height)
            chosen = k == ui.selected
            C.rounded(s, SELECT if chosen else C.PANEL, box, height // 4)
            if not chosen:
                C.rounded(s, C.PANEL_LINE, box, height // 4, 2)
            label = ellipsize(choice, width - body, lambda t: font.size(t)[0])
            t = text.get(label, body, C.BLACK if chosen else C.INK_LIGHT, bold=True)
            s.blit(t, t.get_rect(center=box.center))

    both_seats(surface, rect, ui.orientation, draw)


#: (model type, painter) pairs the shared renderer adds to its whole-screen pages.
PAGES: tuple[tuple[type, Callable[..., None]], ...] = ((HelpUi, help_page), (AboutUi, about), (ConfirmUi, confirm))
