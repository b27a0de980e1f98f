"""Seat OLED renderer: (SeatView + an OLED UI model) → a 128x64 one-bit PIL image.

Meaning is carried by patterns, never by intensity (the panel has one bit anyway):

- key map cell (10x10 on a 12 px pitch): own agent to find = filled square; assassin = cross; bystander =
  empty outline; a card covered by a found agent = checkerboard; the revealed assassin = filled with a cross
  cut out; a bystander token = a triangle on the cell edge toward the seat that guessed (bigger when the
  mistake cost two tokens); the seat's cursor = a frame around the cell.
- seat B's map is turned 180° (card 24 at its top-left), so both seats see the map as they see the table;
  the text is never turned.
- classic spymaster key: red = filled, blue = diagonal hatch, bystander = outline, assassin = cross; covered
  cards are drawn as a small centre mark of the same pattern.

Text is never cut with "…" (tests/device/render/test_oled_fit.py checks every docs screen in the five languages):

- a menu row whose label and value do not share a line takes two (the value right-aligned under the label, or
  wrapped on lines of its own); the list scrolls by whole rows, the selected one always whole; a long menu title
  takes two lines;
- a text page's title steps down from 11 to 9 px bold, then takes two lines, and its body's line pitch from 11 to
  10 px, until the title and every line fit;
- a word wider than a whole line is broken across lines (every letter shown), a line never starts with a lone
  mark ("…", "?"), and no glyph's ink starts left of the panel;
- only the players' own free input may be cut: the word being typed (it scrolls to its end) and a clue word on the
  confirmation or the key map (cut at its end; its number is always whole).

``render_oled(view, ui)`` is pure; pass ``view=None`` for screens that need no game (menus, messages).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextvars import ContextVar
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.board import DUET as DUET_BOARD
from engine.views import CardView, SeatView

from .models import ClueEntryUi, MenuItem, MenuUi, OledTextUi, OledUi, OledView, SeatKeyUi, SpymasterUi
from .text import ellipsize, pil_font, wrap

WIDTH, HEIGHT = 128, 64
CELL = 10
PITCH = 12
MAP_X = 3
MAP_Y = 3
PANEL_X = 66
SMALL = 9  # DejaVu Sans at 9 px is the smallest size that stays legible without anti-aliasing
TITLE = 11
BIG = 22


class _Canvas(ImageDraw.ImageDraw):
    """An ``ImageDraw`` that says how to draw: ``fast`` pastes pre-rendered key cells and texts (what every guess
    redraws) instead of drawing them with PIL primitives each time."""

    def __init__(self, image: Image.Image, fast: bool) -> None:
        super().__init__(image)
        self.fast = fast


def _fast(draw: ImageDraw.ImageDraw) -> bool:
    return bool(getattr(draw, "fast", False))


def render_oled(view: OledView | None, ui: OledUi | None, *, fast: bool = True) -> Image.Image:
    """One 128x64 mode "1" frame for a seat's OLED (a fresh image, drawn every time: device/outputs.py does not
    ask again for an OLED whose view and model did not change). ``fast=False`` draws everything with PIL
    primitives (the tests compare the two pixel by pixel). Only a Duet seat view has a key map to draw."""
    return _render(view if isinstance(view, SeatView) else None, ui, fast)


#: While ``overflows`` draws a frame: every text that did not fit its box (cut with "…" or lines dropped).
_CLIPS: ContextVar[list[str] | None] = ContextVar("oled_clips", default=None)


def overflows(view: OledView | None, ui: OledUi | None) -> list[str]:
    """The texts of this frame that do not fit their box on the OLED (each as it was asked for, before any
    "…" or dropped line); [] when every label is whole. Draws the frame afresh (no cache)."""
    token = _CLIPS.set([])
    try:
        _render(view if isinstance(view, SeatView) else None, ui, True)
        return list(_CLIPS.get() or [])
    finally:
        _CLIPS.reset(token)


def _clipped(text: str) -> None:
    clips = _CLIPS.get()
    if clips is not None:
        clips.append(text)


def _fit(text: str, width: int, measure: Callable[[str], int]) -> str:
    """``text`` cut with "…" to ``width`` (a cut is recorded for ``overflows``)."""
    out = ellipsize(text, width, measure)
    if out != text:
        _clipped(text)
    return out


#: Marks that never start a line: "Warte auf deinen / Partner …", not "Warte auf deinen Partner / …" (``text.wrap``
#: already keeps French's spaced ":", ";", "!", "?" and "»" with the word before them).
_MARKS = frozenset("…?!:;»")


def _wrap(text: str, width: int, measure: Callable[[str], int]) -> list[str]:
    """``text.wrap``, but a word wider than a whole line (a team name of 16 M) is broken across lines, no letter
    lost, rather than cut with "…"; and a line that starts with a mark ("…", "?", "»": French sets them apart with
    a space) takes the last word of the line above with it."""
    words: list[str] = []
    for word in text.replace("\n", " \n ").split(" "):
        while 1 < len(word) <= 64 and measure(word) > width:  # (a longer word is cut by ``wrap``)
            low, high = 1, len(word)  # word[:low] fits (or low == 1), word[:high] does not
            while high - low > 1:
                middle = (low + high) // 2
                if measure(word[:middle]) <= width:
                    low = middle
                else:
                    high = middle
            words.append(word[:low])
            word = word[low:]
        words.append(word)
    lines = wrap(" ".join(words).replace(" \n ", "\n"), width, measure)
    for i in range(1, len(lines)):
        first = lines[i].split(" ", 1)[0]
        head, _, word = lines[i - 1].rpartition(" ")
        if first and set(first) <= _MARKS and head and measure(f"{word} {lines[i]}") <= width:
            lines[i - 1], lines[i] = head, f"{word} {lines[i]}"
    return lines


def _lines(text: str, width: int, measure: Callable[[str], int], limit: int) -> list[str]:
    """``text`` wrapped to ``width`` (explicit newlines kept), at most ``limit`` lines (a word cut or a line
    dropped is recorded for ``overflows``)."""
    lines = _wrap(text, width, measure)
    if len(lines) > limit or not _whole(text, lines):
        _clipped(text)
    return lines[:limit]


def _whole(text: str, lines: list[str] | tuple[str, ...]) -> bool:
    """``lines`` hold every letter of ``text`` and every word whole (none cut with "…" or broken across two
    lines; the players' own words may be broken, a catalog text never is)."""
    return ("".join("".join(lines).split()) == "".join(text.split())
            and set(" ".join(lines).split()) <= set(text.split()))


def _render(view: SeatView | None, ui: OledUi | None, fast: bool) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = _Canvas(image, fast)
    draw.fontmode = "1"  # no anti-aliasing: crisp one-bit glyphs
    if isinstance(ui, ClueEntryUi):
        _clue_entry(draw, view, ui)
    elif isinstance(ui, MenuUi):
        _menu(draw, ui)
    elif isinstance(ui, OledTextUi):
        _text(draw, ui)
    elif isinstance(ui, SpymasterUi):
        _spymaster(draw, ui)
    elif view is not None:
        _seat_key(draw, view, ui if isinstance(ui, SeatKeyUi) else SeatKeyUi())
    return image


# --- pre-rendered pieces ------------------------------------------------------------------------------

_PAD = 4


@lru_cache(maxsize=512)
def _text_tile(text: str, size: int, bold: bool, fx: float, fy: float) -> Image.Image:
    """``text`` drawn as ``draw.text`` would draw it at a position whose fractional parts are (fx, fy),
    on a tile with a margin of ``_PAD``: pasting it (as a mask) at the integer part minus the margin gives
    the same pixels."""
    font = pil_font(size, bold=bold)
    left, top, right, bottom = font.getbbox(text)
    tile = Image.new("1", (max(1, int(right) + 2 * _PAD + 2), max(1, int(bottom) + 2 * _PAD + 2)), 0)
    draw = ImageDraw.Draw(tile)
    draw.fontmode = "1"
    draw.text((_PAD + fx, _PAD + fy), text, font=font, fill=1)
    return tile


def _put_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, bold: bool = False) -> None:
    """``draw.text(xy, text, fill=1)`` on a black-and-white frame, from a cached tile on a fast canvas."""
    x, y = xy
    if not _fast(draw) or x < 0 or y < 0:
        draw.text(xy, text, font=pil_font(size, bold=bold), fill=1)
        return
    ix, iy = int(x), int(y)
    fx, fy = math.modf(x)[0], math.modf(y)[0]
    tile = _text_tile(text, size, bold, fx, fy)
    draw.im.paste(1, (ix - _PAD, iy - _PAD, ix - _PAD + tile.width, iy - _PAD + tile.height), tile.im)


@lru_cache(maxsize=1024)
def _length(text: str, size: int, bold: bool = False) -> int:
    return int(pil_font(size, bold=bold).getlength(text, mode="1"))


@lru_cache(maxsize=256)
def _wrapped(text: str, width: int, size: int) -> tuple[str, ...]:
    return tuple(_wrap(text, width, lambda s: _length(s, size)))


@lru_cache(maxsize=256)
def _cell_tile(identity: str, card: CardView | None, viewer: str) -> Image.Image:
    """One key cell drawn at (_PAD, _PAD) on a tile with a margin (a wide stroke may reach outside)."""
    tile = Image.new("1", (CELL + 2 * _PAD, CELL + 2 * _PAD), 0)
    _duet_cell_drawn(ImageDraw.Draw(tile), _PAD, _PAD, identity, card, viewer)
    return tile


# --- key map ------------------------------------------------------------------------------------------


def cell_origin(index: int, seat: str, columns: int = DUET_BOARD.columns,
                rows: int = DUET_BOARD.rows) -> tuple[int, int]:
    """Top-left pixel of card ``index``'s cell on ``seat``'s map (seat B's map is turned 180°)."""
    row, col = divmod(index, columns)
    if seat == "B":
        row, col = rows - 1 - row, columns - 1 - col
    return MAP_X + col * PITCH, MAP_Y + row * PITCH


def _checker(draw: ImageDraw.ImageDraw, x: int, y: int, size: int = CELL) -> None:
    draw.rectangle((x, y, x + size - 1, y + size - 1), outline=1, fill=0)
    for dy in range(1, size - 1):
        for dx in range(1, size - 1):
            if (dx + dy) % 2 == 0:
                draw.point((x + dx, y + dy), 1)


def _cross(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, fill: int = 1) -> None:
    draw.line((x, y, x + size - 1, y + size - 1), fill=fill, width=2)
    draw.line((x, y + size - 1, x + size - 1, y), fill=fill, width=2)


def _hatch(draw: ImageDraw.ImageDraw, x: int, y: int, size: int) -> None:
    draw.rectangle((x, y, x + size - 1, y + size - 1), outline=1, fill=0)
    for dy in range(1, size - 1):
        for dx in range(1, size - 1):
            if (dx + dy) % 3 == 0:
                draw.point((x + dx, y + dy), 1)


def _triangle(draw: ImageDraw.ImageDraw, x: int, y: int, down: bool, double: bool, fill: int) -> None:
    """A bystander token's arrow: a wedge on the cell edge toward the guessing seat; a double wedge when the
    mistake cost two tokens."""
    for step in (0, 3) if double else (0,):
        if down:
            base, tip = y + CELL - 4 - step, y + CELL - 1 - step
        else:
            base, tip = y + 3 + step, y + step
        draw.polygon([(x + 1, base), (x + 8, base), (x + 5, tip), (x + 4, tip)], fill=fill)


def _duet_cell(
    draw: ImageDraw.ImageDraw, x: int, y: int, identity: str, card: CardView | None, viewer: str
) -> None:
    if _fast(draw):
        try:
            tile = _cell_tile(identity, card, viewer)
        except TypeError:  # an unhashable card
            tile = None
        if tile is not None:
            draw.im.paste(1, (x - _PAD, y - _PAD, x - _PAD + tile.width, y - _PAD + tile.height), tile.im)
            return
    _duet_cell_drawn(draw, x, y, identity, card, viewer)


def _duet_cell_drawn(
    draw: ImageDraw.ImageDraw, x: int, y: int, identity: str, card: CardView | None, viewer: str
) -> None:
    filled = False
    if card is not None and card.agent:
        _checker(draw, x, y)
    elif card is not None and card.assassin:
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=1)
        _cross(draw, x + 2, y + 2, CELL - 4, fill=0)
        filled = True
    elif identity == "G":
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=1)
        filled = True
    elif identity == "X":
        _cross(draw, x, y, CELL)
    else:
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), outline=1)
    if card is not None:
        for seat in card.marks:
            _triangle(draw, x, y, down=seat == viewer, double=card.double, fill=0 if filled else 1)


#: The last key map drawn for each seat on a fast canvas: (the public cards it was drawn from, the seat's key,
#: its pixels). A state's views share one tuple of cards (the session keeps them per state), so the map of an
#: unchanged board is pasted whole instead of cell by cell.
_MAPS: dict[str, tuple[tuple[CardView, ...], str, Image.Image]] = {}


def _key_map(draw: ImageDraw.ImageDraw, view: SeatView, cursor: int | None) -> None:
    if _fast(draw):
        # the cells' tiles only ever light pixels (pasted as masks): their union, pasted once, is the same
        draw.im.paste(1, (0, 0, WIDTH, HEIGHT), _map_mask(view).im)
    else:
        _key_cells(draw, view)
    if cursor is not None and 0 <= cursor < len(view.key):
        x, y = cell_origin(cursor, view.seat)
        draw.rectangle((x - 2, y - 2, x + CELL + 1, y + CELL + 1), outline=1)


def _key_cells(draw: ImageDraw.ImageDraw, view: SeatView) -> None:
    cards = view.public.cards
    for i, identity in enumerate(view.key):
        x, y = cell_origin(i, view.seat)
        _duet_cell(draw, x, y, identity, cards[i] if i < len(cards) else None, view.seat)


def _map_mask(view: SeatView) -> Image.Image:
    """The pixels ``view``'s key cells light, as a 128x64 mask (drawn once per board state and seat)."""
    cards = view.public.cards
    got = _MAPS.get(view.seat)
    if got is not None and got[0] is cards and got[1] == view.key:
        return got[2]
    mask = Image.new("1", (WIDTH, HEIGHT), 0)
    _key_cells(_Canvas(mask, True), view)
    _MAPS[view.seat] = (cards, view.key, mask)
    return mask


def _token(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A timer token: a disc with a ring inside (round like the printed tokens; the sand timer, a separate
    feature, is written ◷ and never drawn here)."""
    draw.ellipse((x, y, x + 8, y + 8), fill=1)
    draw.ellipse((x + 2, y + 2, x + 6, y + 6), outline=0)


def _seat_badge(draw: ImageDraw.ImageDraw, seat: str) -> None:
    """The seat's letter, black on a lit tile in the top right corner: the bars of the shared display say "A
    devine", "B donne un indice", and each seat reads here which letter is its own. On a fast canvas it is
    pasted: the pixels it lights and the pixels it darkens, worked out once per seat."""
    if _fast(draw):
        box, lit, dark = _badge_masks(seat)
        draw.im.paste(1, box, lit.im)
        draw.im.paste(0, box, dark.im)
        return
    _seat_badge_drawn(draw, seat)


@lru_cache(maxsize=8)
def _badge_masks(seat: str) -> tuple[tuple[int, int, int, int], Image.Image, Image.Image]:
    """(the box it touches, pixels the badge sets to 1, pixels it sets to 0 there): drawn once on a dark and once
    on a lit frame, so that pasting the first as 1 then the second as 0 gives exactly what drawing it gives on
    any frame."""
    drawn = []
    for ground in (0, 1):
        image = Image.new("1", (WIDTH, HEIGHT), ground)
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"  # as the frame's canvas (``_render``)
        _seat_badge_drawn(draw, seat)
        drawn.append(image.convert("L"))  # a lit pixel may be stored as 1 or as 255: any non-zero is lit
    lit = drawn[0].point(lambda v: 255 if v else 0)
    dark = drawn[1].point(lambda v: 0 if v else 255)
    boxes = [b for b in (lit.getbbox(), dark.getbbox()) if b is not None]
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return (box, lit.crop(box).convert("1", dither=Image.Dither.NONE),
            dark.crop(box).convert("1", dither=Image.Dither.NONE))


def _seat_badge_drawn(draw: ImageDraw.ImageDraw, seat: str) -> None:
    x0 = WIDTH - 9
    draw.rectangle((x0, 0, WIDTH - 1, 11), fill=1)
    font = pil_font(SMALL, bold=True)
    draw.text((x0 + (9 - font.getlength(seat, mode="1")) / 2, 0), seat, font=font, fill=0)


def _seat_key(draw: ImageDraw.ImageDraw, view: SeatView, ui: SeatKeyUi) -> None:
    _key_map(draw, view, ui.cursor)
    pub = view.public
    _token(draw, PANEL_X, 2)
    _put_text(draw, (PANEL_X + 9, 0), str(pub.bank), TITLE, True)  # "11" ends at x=91
    ax = PANEL_X + 27
    draw.rectangle((ax, 3, ax + 7, 10), fill=1)
    _put_text(draw, (ax + 9, 0), str(view.greens_left), TITLE, True)  # a seat has 9 greens at most: "9" ends at x=110
    _seat_badge(draw, view.seat)
    width = WIDTH - PANEL_X - 1
    y = 15
    clue = pub.current_clue
    lines = _wrapped(ui.role, width, SMALL)
    # the role has the room down to the clue line (none without a clue in play: one line more)
    max_lines = 2 if ui.picking is not None else 3 if clue is not None else 4
    if len(lines) > max_lines or not _whole(ui.role, lines):
        _clipped(ui.role)
    for line in lines[:max_lines]:
        _put_text(draw, (PANEL_X, y), line, SMALL)
        y += 11
    if ui.picking is not None:
        text = str(ui.picking)
        tw = pil_font(BIG, bold=True).getlength(text, mode="1")
        cx = PANEL_X + width // 2
        _put_text(draw, (cx - tw / 2, 38), text, BIG, True)
        _arrow(draw, cx - 20, 50, up=True)
        _arrow(draw, cx + 16, 50, up=False)
        return
    if clue is not None:
        # the clue word is the giver's own (any length): cut at its end if it must be, never its number
        number = f" {clue.number}"
        word = ellipsize(clue.word or "—", width - _length(number, SMALL), lambda s: _length(s, SMALL))
        draw.line((PANEL_X, 51, WIDTH - 1, 51), fill=1)
        _put_text(draw, (PANEL_X, 53), word + number, SMALL)


def _arrow(draw: ImageDraw.ImageDraw, x: int, y: int, up: bool) -> None:
    if up:
        draw.polygon([(x, y + 4), (x + 8, y + 4), (x + 4, y)], fill=1)
    else:
        draw.polygon([(x, y), (x + 8, y), (x + 4, y + 4)], fill=1)


# --- clue entry ---------------------------------------------------------------------------------------


def _clue_entry(draw: ImageDraw.ImageDraw, view: SeatView | None, ui: ClueEntryUi) -> None:
    stage = {"number": _entry_number, "word": _entry_word, "refusal": _entry_refusal}.get(ui.stage, _entry_confirm)
    stage(draw, view, ui)


def _small_measure(draw: ImageDraw.ImageDraw) -> Callable[[str], int]:
    small = pil_font(SMALL)
    return lambda s: int(draw.textlength(s, font=small))


def _entry_number(draw: ImageDraw.ImageDraw, view: SeatView | None, ui: ClueEntryUi) -> None:
    """The number picker (beside the key map when there is one): the number large between two arrows."""
    small, big = pil_font(SMALL), pil_font(BIG, bold=True)
    measure = _small_measure(draw)
    left = 0
    if view is not None:
        _key_map(draw, view, None)
        left = PANEL_X
    width = WIDTH - left
    if view is None and ui.key:  # classic: the spymasters' key stays in sight, small, in the corner
        _mini_key(draw, ui)
        width -= mini_key_width(ui)
    title = _fit(ui.title, width, measure)
    draw.text((_ink_left(draw, left, title, small), 0), title, font=small, fill=1)
    text = str(ui.number)
    tw = draw.textlength(text, font=big)
    cx = left + (WIDTH - left) // 2
    _arrow(draw, cx - 4, 14, up=True)
    draw.text((cx - tw / 2, 19), text, font=big, fill=1)
    _arrow(draw, cx - 4, 45, up=False)
    if ui.hint:
        draw.text((left, 53), _fit(ui.hint, width, measure), font=small, fill=1)


#: The word stage: the title row, the word typed so far, the letter strip, then two hint lines (the picker's
#: moves, where ⌫ and ✓ are).
_WORD_Y, _STRIP_Y, _HINT_Y = 10, 26, (44, 53)


#: The small key beside the word being spelt: cells of MINI px, MINI_PITCH apart, in the top right corner.
MINI, MINI_PITCH = 3, 4


def mini_key_width(ui: ClueEntryUi) -> int:
    """The room the small key takes at the right of the title and word rows (0 without a key)."""
    return ui.columns * MINI_PITCH + 2 if ui.key else 0


def _mini_key(draw: ImageDraw.ImageDraw, ui: ClueEntryUi) -> None:
    """The giver's key, small (3 px a card): agents (or red) filled, blue a ring, the assassin a plus, a
    bystander nothing, a covered card one dot; seat B's map turned as on its key screen."""
    x0 = WIDTH - ui.columns * MINI_PITCH + 1
    covered = set(ui.covered)
    for i, identity in enumerate(ui.key[: ui.columns * ui.rows]):
        row, col = divmod(i, ui.columns)
        if ui.key_seat == "B":
            row, col = ui.rows - 1 - row, ui.columns - 1 - col
        x, y = x0 + col * MINI_PITCH, row * MINI_PITCH
        if i in covered:
            draw.point((x + 1, y + 1), 1)
        elif identity in ("G", "R"):
            draw.rectangle((x, y, x + MINI - 1, y + MINI - 1), fill=1)
        elif identity == "B":
            draw.rectangle((x, y, x + MINI - 1, y + MINI - 1), outline=1)
        elif identity == "X":
            draw.line((x + 1, y, x + 1, y + MINI - 1), fill=1)
            draw.line((x, y + 1, x + MINI - 1, y + 1), fill=1)


def _entry_word(draw: ImageDraw.ImageDraw, view: SeatView | None, ui: ClueEntryUi) -> None:
    small, bold = pil_font(SMALL), pil_font(TITLE, bold=True)
    measure = _small_measure(draw)
    mini = mini_key_width(ui)
    if mini:
        _mini_key(draw, ui)
    right = WIDTH - mini
    if not mini and ui.number is not None:  # the number in the title row's corner, as before
        title = _fit(ui.title, 100, measure)
        num = str(ui.number)
        draw.text((WIDTH - draw.textlength(num, font=bold), 0), num, font=bold, fill=1)
    else:  # beside the small key the number goes to the end of the word row
        title = _fit(ui.title, right, measure)
        if ui.number is not None:
            num = str(ui.number)
            right -= int(draw.textlength(num, font=bold)) + 4
            draw.text((right + 2, _WORD_Y), num, font=bold, fill=1)
    draw.text((_ink_left(draw, 0, title, small), 0), title, font=small, fill=1)
    word = ui.word + "_"
    while draw.textlength(word, font=bold) > right - 2 and len(word) > 2:  # a long word scrolls: its end shows
        word = "…" + word[2:]
    draw.text((0, _WORD_Y), word, font=bold, fill=1)
    _letter_strip(draw, ui.letters, ui.letter, _STRIP_Y)
    for y, line in zip(_HINT_Y, _lines(ui.hint, WIDTH, measure, len(_HINT_Y)) if ui.hint else (),
                       strict=False):
        draw.text((_ink_left(draw, 0, line, small), y), line, font=small, fill=1)


def _entry_refusal(draw: ImageDraw.ImageDraw, view: SeatView | None, ui: ClueEntryUi) -> None:
    small = pil_font(SMALL)
    measure = _small_measure(draw)
    lines = _lines(ui.refusal or "", WIDTH, measure, 99)
    # the reason's lines above the choices (their boxes start at y 51); the title ("clue refused") only when the
    # reason leaves it the room: the reason says it too
    y = 0
    if ui.title and len(lines) <= 3:
        title = _fit(ui.title, WIDTH, measure)
        draw.text((_ink_left(draw, 0, title, small), 0), title, font=small, fill=1)
        y = 11
    room = (51 - 11 - y) // 10 + 1
    if len(lines) > room:
        _clipped(ui.refusal or "")
        lines = lines[:room]
        lines[-1] = ellipsize(lines[-1] + " …", WIDTH, measure)
    for line in lines:
        draw.text((_ink_left(draw, 0, line, small), y), line, font=small, fill=1)
        y += 10
    _choices(draw, ui.choices, ui.choice, 52)


def _entry_confirm(draw: ImageDraw.ImageDraw, view: SeatView | None, ui: ClueEntryUi) -> None:
    small = pil_font(SMALL)
    measure = _small_measure(draw)
    title = _fit(ui.title, WIDTH, measure)
    draw.text((_ink_left(draw, 0, title, small), 0), title, font=small, fill=1)
    word = ui.word or "—"
    size = TITLE
    for candidate in (BIG, 16, TITLE):
        if draw.textlength(f"{word} {ui.number}", font=pil_font(candidate, bold=True)) <= WIDTH:
            size = candidate
            break
    font = pil_font(size, bold=True)
    # the word is the player's own (any length): cut at its end if it must be, the number always whole
    number = f" {ui.number}"
    text = ellipsize(word, WIDTH - int(draw.textlength(number, font=font)),
                     lambda s: int(draw.textlength(s, font=font))) + number
    draw.text(((WIDTH - draw.textlength(text, font=font)) / 2, 16), text, font=font, fill=1)
    if ui.hint:
        hint = _fit(ui.hint, WIDTH, measure)
        draw.text((_ink_left(draw, 0, hint, small), 53), hint, font=small, fill=1)


def _letter_strip(draw: ImageDraw.ImageDraw, letters: tuple[str, ...], selected: int, y: int) -> None:
    """A row of letters centred on the highlighted one (in an inverted box); each letter takes its own width,
    so wide symbols (⌫, ✓, —) do not overlap their neighbours. Long alphabets wrap round."""
    if not letters:
        return
    font = pil_font(TITLE, bold=True)
    gap = 5
    n = len(letters)
    selected %= n
    widths = [max(7, int(draw.textlength(letter, font=font))) for letter in letters]
    centre = WIDTH // 2
    w0 = widths[selected]
    draw.rectangle((centre - w0 // 2 - 3, y - 2, centre + (w0 + 1) // 2 + 2, y + 15), fill=1)
    draw.text((centre - w0 // 2, y), letters[selected], font=font, fill=0)
    wraps = n * 9 > WIDTH  # only a long row wraps round; a short one shows its ends
    for direction in (-1, 1):
        x = centre - w0 // 2 - gap - 3 if direction < 0 else centre + (w0 + 1) // 2 + gap + 3
        for step in range(1, n):
            index = selected + direction * step
            if not wraps and not 0 <= index < n:
                break
            index %= n
            if wraps and step > n // 2:
                break
            width = widths[index]
            left = x - width if direction < 0 else x
            if left < 0 or left + width > WIDTH:  # only whole letters: none cut by the panel's edge
                break
            draw.text((left, y), letters[index], font=font, fill=1)
            x = left - gap if direction < 0 else left + width + gap
    draw.line((0, y + 17, WIDTH - 1, y + 17), fill=1)


def _choices(draw: ImageDraw.ImageDraw, choices: tuple[str, ...], selected: int, y: int) -> None:
    if not choices:
        return
    small = pil_font(SMALL)
    width = WIDTH // len(choices)
    for i, choice in enumerate(choices):
        x0 = i * width
        text = _fit(choice, width - 4, lambda s: int(draw.textlength(s, font=small)))
        tw = draw.textlength(text, font=small)
        if i == selected:
            draw.rectangle((x0, y - 1, x0 + width - 2, HEIGHT - 1), fill=1)
            draw.text((x0 + (width - 1 - tw) / 2, y), text, font=small, fill=0)
        else:
            draw.rectangle((x0, y - 1, x0 + width - 2, HEIGHT - 1), outline=1)
            draw.text((x0 + (width - 1 - tw) / 2, y), text, font=small, fill=1)


# --- menus and text -----------------------------------------------------------------------------------

#: A menu row: its first line, then each further line of a row whose label and value do not share one line.
_ROW_LINE = 11
_ARROWS = 9  # the column on the right that holds the scroll arrows (values end before it)


def _ink_left(draw: ImageDraw.ImageDraw, x: float, text: str, font: ImageFont.FreeTypeFont) -> float:
    """``x`` moved right as far as the first glyph's ink reaches left of it (a "W" at x=0 keeps its stroke)."""
    left = draw.textbbox((x, 0), text, font=font)[0]
    return x + max(0, x - left) if text else x


def _menu_lines(item: MenuItem, inner: int, measure: Callable[[str], int]) -> list[tuple[str, str]]:
    """One menu row as (label part, value part) per line: label and value on one line when they fit; else the
    label wrapped and the value right-aligned beside its last line, or on lines of its own under it. Nothing is
    cut (a word longer than the whole row is, and is recorded for ``overflows``)."""
    label = item.label if item.enabled else f"({item.label})"
    value = item.value or ""
    gap = 6
    if not value:
        return [(line, "") for line in _lines(label, inner, measure, 99)]
    if measure(label) + gap + measure(value) <= inner:
        return [(label, value)]
    labels = _lines(label, inner, measure, 99)
    values = _lines(value, inner, measure, 99)
    if len(values) == 1 and measure(labels[-1]) + gap + measure(values[0]) <= inner:
        return [(line, "") for line in labels[:-1]] + [(labels[-1], values[0])]
    return [(line, "") for line in labels] + [("", line) for line in values]


def _window(heights: list[int], selected: int, room: int, before: int = 2) -> tuple[int, int]:
    """The rows shown, ``first`` to ``last`` inclusive: the selected row whole, up to ``before`` rows above it,
    then as many below as fit, then more above if room is left (the end of the list fills the screen)."""
    first = last = selected
    used = heights[selected]
    while first > 0 and selected - first < before and used + heights[first - 1] <= room:
        first -= 1
        used += heights[first]
    while last + 1 < len(heights) and used + heights[last + 1] <= room:
        last += 1
        used += heights[last]
    while first > 0 and used + heights[first - 1] <= room:
        first -= 1
        used += heights[first]
    return first, last


def _menu_title(draw: ImageDraw.ImageDraw, title: str, bold: ImageFont.FreeTypeFont) -> int:
    """The menu's title: plain bold text over a rule (the selected row alone is drawn inverted); a title too long
    for one line takes two. Returns the rule's row."""
    y = 0
    for line in _lines(title, WIDTH - 4, lambda s: int(draw.textlength(s, font=bold)), 2):
        draw.text((2, y - min(0, draw.textbbox((2, y), line, font=bold)[1] - y)), line, font=bold, fill=1)
        y += _ROW_LINE
    return y


def _menu_row(draw: ImageDraw.ImageDraw, lines: list[tuple[str, str]], y: int, height: int, selected: bool,
              arrows: int, small: ImageFont.FreeTypeFont, measure: Callable[[str], int]) -> None:
    """One menu row from ``y``: its lines of label and value, inverted when selected."""
    ink = 1
    if selected:
        draw.rectangle((0, y, WIDTH - 1 - arrows, y + height - 1), fill=1)
        ink = 0
    for k, (label, value) in enumerate(lines):
        ly = y + k * _ROW_LINE
        if label:
            draw.text((4, ly), label, font=small, fill=ink)
        if value:
            draw.text((WIDTH - arrows - 2 - measure(value), ly), value, font=small, fill=ink)


def _menu(draw: ImageDraw.ImageDraw, ui: MenuUi) -> None:
    small, bold = pil_font(SMALL), pil_font(SMALL, bold=True)

    def measure(s: str) -> int:
        return int(draw.textlength(s, font=small))

    rule = _menu_title(draw, ui.title, bold)
    draw.line((0, rule, WIDTH - 1, rule), fill=1)
    top = rule + 2
    room = HEIGHT - top
    count = len(ui.items)
    if not count:
        return
    selected = min(max(ui.selected, 0), count - 1)

    def layout(arrows: int) -> tuple[list[list[tuple[str, str]]], list[int], int, int]:
        rows = [_menu_lines(item, WIDTH - arrows - 4 - 2, measure) for item in ui.items]
        most = (room - 1) // _ROW_LINE
        for i, row in enumerate(rows):
            if len(row) > most:  # a row taller than the screen (never in our catalogs): its end is dropped
                _clipped(ui.items[i].label)
                rows[i] = row[:most]
        heights = [1 + _ROW_LINE * len(r) for r in rows]
        return (rows, heights, *_window(heights, selected, room))

    token = _CLIPS.set([])  # the first layout is a trial: what it cut does not count
    try:
        rows, heights, first, last = layout(0)
    finally:
        _CLIPS.reset(token)
    arrows = 0
    if first > 0 or last < count - 1:
        arrows = _ARROWS
        rows, heights, first, last = layout(arrows)
    else:
        rows, heights, first, last = layout(0)
    y = top
    for i in range(first, last + 1):
        _menu_row(draw, rows[i], y, heights[i], i == selected, arrows, small, measure)
        y += heights[i]
    if first > 0:
        _arrow(draw, WIDTH - 9, top + 1, up=True)
    if last < count - 1:
        _arrow(draw, WIDTH - 9, 59, up=False)


#: The plain-text page's layouts, tried in turn until the title and every line fit: (title size, title lines,
#: title's top, first body line, body line pitch).
_TEXT_LAYOUTS = ((TITLE, 1, 1, 17, 11), (SMALL, 1, 0, 12, 10), (SMALL, 2, 0, 22, 10))


def _bold_measure(draw: ImageDraw.ImageDraw, size: int) -> Callable[[str], int]:
    font = pil_font(size, bold=True)
    return lambda s: int(draw.textlength(s, font=font))


def _text(draw: ImageDraw.ImageDraw, ui: OledTextUi) -> None:
    small = pil_font(SMALL)
    ink = 0 if ui.invert else 1
    if ui.invert:
        draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill=1)

    def measure(s: str) -> int:
        return int(draw.textlength(s, font=small))

    body: list[str] = []
    for line in ui.lines:
        body.extend(_lines(line, WIDTH - 2, measure, 99))  # a word too long for a whole line is recorded
    def title_fits(layout: tuple[int, int, int, int, int]) -> bool:
        titles = _wrap(ui.title, WIDTH, _bold_measure(draw, layout[0]))
        return len(titles) <= layout[1] and _whole(ui.title, titles)

    def room(layout: tuple[int, int, int, int, int]) -> int:
        return (HEIGHT - 11 - layout[3]) // layout[4] + 1

    titled = [layout for layout in _TEXT_LAYOUTS if title_fits(layout)] or [_TEXT_LAYOUTS[-1]]
    # the first whose title and body fit; else the one with room for the most lines (the rest is dropped)
    chosen = next((layout for layout in titled if len(body) <= room(layout)), max(titled, key=room))
    size, most, y, start, pitch = chosen
    bold = pil_font(size, bold=True)
    titles = _lines(ui.title, WIDTH, _bold_measure(draw, size), most)
    for line in titles:
        draw.text(((WIDTH - draw.textlength(line, font=bold)) / 2, y), line, font=bold, fill=ink)
        y += pitch
    if len(body) > room(chosen):
        _clipped(" / ".join(ui.lines))
    y = start
    for line in body[:room(chosen)]:
        draw.text(((WIDTH - draw.textlength(line, font=small)) / 2, y), line, font=small, fill=ink)
        y += pitch


# --- classic spymaster --------------------------------------------------------------------------------


def _spy_cell(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str, covered: bool) -> None:
    if covered:
        x, y, size = x + 3, y + 3, CELL - 6
    else:
        size = CELL
    if colour == "R":
        draw.rectangle((x, y, x + size - 1, y + size - 1), fill=1)
    elif colour == "B":
        if covered:
            draw.rectangle((x, y, x + size - 1, y + size - 1), outline=1)
            draw.point((x + 1, y + 2), 1)
            draw.point((x + 2, y + 1), 1)
        else:
            _hatch(draw, x, y, size)
    elif colour == "X":
        _cross(draw, x, y, size)
    else:
        draw.rectangle((x, y, x + size - 1, y + size - 1), outline=1)


def _spymaster(draw: ImageDraw.ImageDraw, ui: SpymasterUi) -> None:
    covered = set(ui.covered)
    for i, colour in enumerate(ui.key[: ui.columns * ui.rows]):
        x, y = cell_origin(i, "A", ui.columns, ui.rows)
        _spy_cell(draw, x, y, colour, i in covered)
    if ui.cursor is not None and 0 <= ui.cursor < len(ui.key):
        x, y = cell_origin(ui.cursor, "A", ui.columns, ui.rows)
        draw.rectangle((x - 2, y - 2, x + CELL + 1, y + CELL + 1), outline=1)
    small = pil_font(SMALL)
    left = MAP_X + ui.columns * PITCH + 3
    width = WIDTH - left
    y = 0
    for line in _lines(ui.status, width, lambda s: int(draw.textlength(s, font=small)), 3 if ui.legend else 5):
        draw.text((left, y), line, font=small, fill=1)
        y += 11
    # the legend: which pattern is which team (filled red, hatched blue), on the last two lines
    measure = _small_measure(draw)
    for k, (colour, name) in enumerate(zip(("R", "B"), ui.legend, strict=False)):
        ly = HEIGHT - 22 + 11 * k
        _spy_cell(draw, left, ly + 1, colour, False)
        label = _fit(name, width - CELL - 3, measure)
        draw.text((left + CELL + 3, ly), label, font=small, fill=1)
