"""The shared display's whole-screen pages: menu, set-up and settings forms, PIN, statistics, mission map,
attract animation, messages and the hot-seat privacy screen. Each draws the full rect it is given."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from functools import partial

import pygame

from engine.missions import default_map

from . import cards as C
from . import map_labels
from .models import (
    AttractUi,
    HotSeatUi,
    MapCity,
    MapUi,
    MenuUi,
    MessageUi,
    PinUi,
    SettingsUi,
    SetupUi,
    StatsUi,
)
from .text import TextCache, ellipsize, pg_font, surface_like, turned_half, wrap

SELECT: C.Colour = (248, 214, 120)

Half = Callable[[pygame.Surface, pygame.Rect], None]


def blit_turned(surface: pygame.Surface, drawn: pygame.Surface, where: pygame.Rect) -> None:
    """``drawn`` (a text, say) turned half a turn into ``where`` (a recording surface still knows the text)."""
    scratch = surface_like(drawn.get_size(), surface, pygame.SRCALPHA)
    scratch.fill((0, 0, 0, 0))
    scratch.blit(drawn, (0, 0))
    surface.blit(turned_half(scratch), where)


def both_seats(surface: pygame.Surface, rect: pygame.Rect, orientation: str, draw: Half, divider: bool = True) -> None:
    """``draw`` once on the whole rect ("upright"), or for seat A in the lower half and the same drawing turned
    half a turn for seat B in the upper half ("table"): each seat reads the page the right way up from its side
    of the table."""
    surface.fill(C.BG, rect)
    if orientation != "table":
        draw(surface, rect)
        return
    lower = pygame.Rect(rect.left, rect.top + rect.height // 2, rect.width, rect.height - rect.height // 2)
    scratch = surface_like(lower.size, surface)
    scratch.fill(C.BG)
    draw(scratch, scratch.get_rect())
    surface.blit(turned_half(scratch), (rect.left, rect.top - (lower.height - rect.height // 2)))
    surface.blit(scratch, lower)
    if divider:  # pages with a title band have their own line: the two titles sit back to back at the middle
        inset = rect.width // 10
        pygame.draw.line(surface, C.PANEL_LINE, (rect.left + inset, lower.top), (rect.right - inset, lower.top), 2)


def paragraph(
    surface: pygame.Surface,
    text: TextCache,
    string: str,
    x: int,
    y: int,
    width: int,
    size: int,
    colour: C.Colour,
    bold: bool = False,
    centre: bool = False,
) -> int:
    """Wrapped text from (x, y); returns the y below it."""
    if not string:
        return y
    font = pg_font(size, bold)
    for line in wrap(string, width, lambda s: font.size(s)[0]):
        t = text.get(line, size, colour, bold=bold)
        surface.blit(t, (x + (width - t.get_width()) // 2 if centre else x, y))
        y += int(t.get_height() * 1.05)
    return y


def _frame(
    surface: pygame.Surface, rect: pygame.Rect, title: str, text: TextCache, hint: str = ""
) -> pygame.Rect:
    """Background, a title band and a hint line; returns the content rect."""
    surface.fill(C.BG, rect)
    band = max(40, rect.height // 8)
    size = max(16, int(band * 0.55))
    font = pg_font(size, True)
    fitted = ellipsize(title, rect.width - 40, lambda s: font.size(s)[0])
    t = text.get(fitted, size, C.INK_LIGHT, bold=True)
    surface.blit(t, t.get_rect(center=(rect.centerx, rect.top + band // 2)))
    pygame.draw.line(
        surface,
        C.PANEL_LINE,
        (rect.left + rect.width // 10, rect.top + band),
        (rect.right - rect.width // 10, rect.top + band),
        2,
    )
    bottom = rect.bottom
    if hint:
        hs = max(C.MIN_TEXT_PX, band // 3)
        h = text.get(ellipsize(hint, rect.width - 40, lambda s: pg_font(hs).size(s)[0]), hs, C.INK_MUTED)
        bottom = rect.bottom - h.get_height() - band // 4
        surface.blit(h, h.get_rect(midbottom=(rect.centerx, rect.bottom - band // 5)))
    width = min(rect.width - 2 * max(20, rect.width // 12), max(600, rect.width // 2))
    return pygame.Rect(
        rect.centerx - width // 2, rect.top + band + band // 3, width, bottom - rect.top - band - band // 2
    )


def _width(font: pygame.font.Font, text: str) -> int:
    return int(font.size(text)[0])


def _row_text_size(rows: list[tuple[str, str | None, bool]], width: int, size: int) -> int:
    """The rows' text size: ``size``, or smaller (one size for the whole list, down to MIN_TEXT_PX) until every
    row's label, drawn bold as when it is selected, fits beside its bold value ("Schwierigkeit" and a long
    difficulty in German). Below that the label is cut."""
    while size > C.MIN_TEXT_PX:
        bold = pg_font(size, True)
        if all(bold.size(lab)[0] + (bold.size(value)[0] + 2 * size if value else 0) + 3 * size <= width
               for lab, value, _ in rows):
            break
        size -= 1
    return size


def _rows(
    surface: pygame.Surface,
    area: pygame.Rect,
    rows: list[tuple[str, str | None, bool]],
    selected: int,
    editing: bool,
    text: TextCache,
) -> None:
    """A list of rows (label, value, enabled) with the selected one highlighted, scrolled to stay visible."""
    if not rows:
        return
    # at least 30 px; on half a screen (a page printed for each seat) rows a seventh of the room, up to 40 px,
    # and the list scrolls, rather than squeezing all of them in small type
    row_h = max(30, min(area.height // max(len(rows), 1), area.height // 6), min(area.height // 7, 40))
    visible = max(1, area.height // row_h)
    first = min(max(0, selected - visible // 2), max(0, len(rows) - visible))
    size = _row_text_size(rows, area.width, max(12, min(int(row_h * 0.5), area.width // 20)))
    font = pg_font(size)
    bold = pg_font(size, True)
    for k, (lab, value, enabled) in enumerate(rows[first : first + visible]):
        i = first + k
        r = pygame.Rect(area.left, area.top + k * row_h, area.width, row_h - 4)
        chosen = i == selected
        if chosen:
            C.rounded(surface, SELECT, r, row_h // 4)
            pygame.draw.polygon(
                surface,
                C.BG,
                [
                    (r.left + 8, r.centery - size // 3),
                    (r.left + 8, r.centery + size // 3),
                    (r.left + 8 + size // 2, r.centery),
                ],
            )
        ink = C.BLACK if chosen else (C.INK_LIGHT if enabled else C.INK_MUTED)
        vw = bold.size(value)[0] + 2 * size if value else 0
        face = bold if chosen else font
        t = text.get(ellipsize(lab, r.width - vw - 3 * size, partial(_width, face)), size, ink, bold=chosen)
        surface.blit(t, t.get_rect(midleft=(r.left + 2 * size, r.centery)))
        if not enabled:
            pygame.draw.line(
                surface,
                ink,
                (r.left + 2 * size, r.centery),
                (r.left + 2 * size + t.get_width(), r.centery),
                2,
            )
        if value:
            v = text.get(value, size, ink, bold=True)
            vr = v.get_rect(midright=(r.right - size, r.centery))
            surface.blit(v, vr)
            if chosen and editing:
                a = size // 3
                for sign, x in ((-1, vr.left - a - 6), (1, vr.right + 6)):
                    pygame.draw.polygon(
                        surface, C.BLACK, [(x, r.centery - a), (x, r.centery + a), (x + sign * a, r.centery)]
                    )
    if first > 0:
        _chevron(surface, (area.right - 12, area.top - 4), up=True)
    if first + visible < len(rows):
        _chevron(surface, (area.right - 12, area.top + visible * row_h), up=False)


def _chevron(surface: pygame.Surface, at: tuple[int, int], up: bool) -> None:
    x, y = at
    pts = [(x - 8, y + 6), (x + 8, y + 6), (x, y - 2)] if up else [(x - 8, y - 6), (x + 8, y - 6), (x, y + 2)]
    pygame.draw.polygon(surface, C.INK_MUTED, pts)


def menu(surface: pygame.Surface, rect: pygame.Rect, ui: MenuUi, text: TextCache) -> None:
    both_seats(surface, rect, ui.orientation, lambda s, r: _menu(s, r, ui, text), divider=False)


def _menu(surface: pygame.Surface, rect: pygame.Rect, ui: MenuUi, text: TextCache) -> None:
    area = _frame(surface, rect, ui.title, text, ui.hint)
    _rows(surface, area, [(i.label, i.value, i.enabled) for i in ui.items], ui.selected, False, text)


def form(surface: pygame.Surface, rect: pygame.Rect, ui: SetupUi | SettingsUi, text: TextCache) -> None:
    both_seats(surface, rect, ui.orientation, lambda s, r: _form(s, r, ui, text), divider=False)


def _form(surface: pygame.Surface, rect: pygame.Rect, ui: SetupUi | SettingsUi, text: TextCache) -> None:
    area = _frame(surface, rect, ui.title, text, ui.hint)
    if isinstance(ui, SettingsUi) and ui.status:
        size = max(12, rect.height // 30)
        s = text.get(ui.status, size, SELECT, bold=True)
        surface.blit(s, s.get_rect(midbottom=(area.centerx, area.bottom)))
        area = pygame.Rect(area.left, area.top, area.width, area.height - s.get_height() - 6)
    _rows(surface, area, [(i.label, i.value, i.enabled) for i in ui.rows], ui.selected, ui.editing, text)


def pin(surface: pygame.Surface, rect: pygame.Rect, ui: PinUi, text: TextCache) -> None:
    both_seats(surface, rect, ui.orientation, lambda s, r: _pin(s, r, ui, text), divider=False)


def _pin(surface: pygame.Surface, rect: pygame.Rect, ui: PinUi, text: TextCache) -> None:
    area = _frame(surface, rect, ui.title, text, ui.hint)
    n = max(1, ui.length)
    side = min(area.width // (n + 1), area.height // 3)
    gap = side // 4
    total = n * side + (n - 1) * gap
    x0 = area.centerx - total // 2
    y = area.top + (area.height - side) // 2
    for k in range(n):
        box = pygame.Rect(x0 + k * (side + gap), y, side, side)
        current = k == ui.entered and ui.current is not None
        C.rounded(surface, SELECT if current else C.PANEL, box, side // 6)
        C.rounded(surface, C.PANEL_LINE, box, side // 6, 2)
        if k < ui.entered:
            pygame.draw.circle(surface, C.INK_LIGHT, box.center, side // 6)
        elif current:
            t = text.get(str(ui.current), int(side * 0.6), C.BLACK, bold=True)
            surface.blit(t, t.get_rect(center=box.center))
            _chevron(surface, (box.centerx, box.top - 6), up=True)
            _chevron(surface, (box.centerx, box.bottom + 8), up=False)
    if ui.error:
        paragraph(
            surface,
            text,
            ui.error,
            area.left,
            y + side + side // 2,
            area.width,
            max(12, side // 4),
            (255, 150, 140),
            True,
            True,
        )


def stats(surface: pygame.Surface, rect: pygame.Rect, ui: StatsUi, text: TextCache) -> None:
    both_seats(surface, rect, ui.orientation, lambda s, r: _stats(s, r, ui, text), divider=False)


def _stats(surface: pygame.Surface, rect: pygame.Rect, ui: StatsUi, text: TextCache) -> None:
    area = _frame(surface, rect, ui.title, text, ui.hint)
    # the table takes the screen's width (the headers are words, not figures: they get room and two lines)
    margin = max(20, rect.width // 14)
    area = pygame.Rect(rect.left + margin, area.top, rect.width - 2 * margin, area.height)
    cols = len(ui.columns) + 1
    row_h = max(28, min(area.height // (len(ui.rows) + 3 + len(ui.lines)), rect.height // 12))
    if ui.rows and area.height < (len(ui.rows) + 3) * row_h:  # half a screen: the rows share what the headers
        row_h = max(C.MIN_TEXT_PX + 5, (area.height - 2 * pg_font(C.MIN_TEXT_PX).get_linesize() - 8) // len(ui.rows))
    size = max(C.MIN_TEXT_PX, int(row_h * 0.45))
    head_size = max(C.MIN_TEXT_PX, int(size * 0.85))
    first_w = area.width * 0.28
    col_w = (area.width - first_w) / max(1, cols - 1)
    y = area.top
    head_font = pg_font(head_size)
    row_font = pg_font(size, True)
    heads = []
    for head in ui.columns:
        lines = wrap(head, int(col_w) - 8, lambda s: head_font.size(s)[0])
        if len(lines) > 2:
            lines = [lines[0], ellipsize(" ".join(lines[1:]), int(col_w) - 8, lambda s: head_font.size(s)[0])]
        heads.append(lines)
    line_h = head_font.get_linesize()
    head_h = max(row_h, max((len(h) for h in heads), default=1) * line_h + 6)
    for k, lines in enumerate(heads):
        cx = area.left + first_w + col_w * (k + 0.5)
        for j, line in enumerate(lines):
            t = text.get(line, head_size, C.INK_MUTED)
            bottom = y + head_h - 4 - (len(lines) - 1 - j) * line_h
            surface.blit(t, t.get_rect(midbottom=(int(cx), bottom)))
    y += head_h
    pygame.draw.line(surface, C.PANEL_LINE, (area.left, y), (area.right, y), 2)
    for n, row in enumerate(ui.rows):
        r = pygame.Rect(area.left, y + 2, area.width, row_h - 2)
        if n % 2 == 0:
            C.rounded(surface, C.PANEL, r, 6)
        fitted = ellipsize(row.label, int(first_w) - 12, lambda s: row_font.size(s)[0])
        t = text.get(fitted, size, C.INK_LIGHT, bold=True)
        surface.blit(t, t.get_rect(midleft=(r.left + 10, r.centery)))
        for k, value in enumerate(row.values[: cols - 1]):
            v = text.get(value, size, C.INK_LIGHT)
            surface.blit(v, v.get_rect(center=(int(area.left + first_w + col_w * (k + 0.5)), r.centery)))
        y += row_h
    y += row_h // 2
    for line in ui.lines:
        y = paragraph(surface, text, line, area.left, y, area.width, size, C.INK_MUTED)


# --- mission map --------------------------------------------------------------------------------------


def _norm(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in folded if ch.isalnum())


_DEFAULT_POSITIONS: dict[str, tuple[float, float]] | None = None
_CITY_NAMES: dict[str, dict[str, str]] | None = None


def city_label(city_id: str, language: str) -> str:
    """A city's name in ``language`` (the ``names`` of engine/data/missions.json), else its id."""
    global _CITY_NAMES
    if _CITY_NAMES is None:
        try:
            import json
            from importlib import resources

            data = json.loads(resources.files("engine").joinpath("data", "missions.json").read_text("utf-8"))
            _CITY_NAMES = {str(c["name"]): dict(c.get("names") or {}) for c in data.get("cities", ())}
        except (ImportError, OSError, ValueError, KeyError, TypeError, AttributeError):
            _CITY_NAMES = {}
    return _CITY_NAMES.get(city_id, {}).get(language) or city_id

#: A plain outline of the continents (0..1 of the map area, the frame the city positions use): it reads as a
#: world map without pretending to be an exact one.
CONTINENTS: tuple[tuple[tuple[float, float], ...], ...] = (
    # North America
    ((0.05, 0.22), (0.16, 0.14), (0.3, 0.16), (0.33, 0.26), (0.28, 0.36), (0.26, 0.46), (0.2, 0.52),
     (0.17, 0.5), (0.09, 0.44), (0.06, 0.33)),
    # South America
    ((0.2, 0.56), (0.27, 0.58), (0.36, 0.68), (0.34, 0.78), (0.28, 0.9), (0.25, 0.88), (0.23, 0.74),
     (0.19, 0.64)),
    # Europe and Asia
    ((0.37, 0.24), (0.44, 0.16), (0.6, 0.14), (0.8, 0.1), (0.95, 0.16), (0.97, 0.34), (0.92, 0.46),
     (0.88, 0.55), (0.84, 0.64), (0.8, 0.66), (0.76, 0.56), (0.72, 0.66), (0.68, 0.6), (0.62, 0.54),
     (0.57, 0.46), (0.5, 0.47), (0.44, 0.47), (0.39, 0.46), (0.38, 0.36)),
    # Africa
    ((0.36, 0.49), (0.44, 0.48), (0.56, 0.49), (0.62, 0.6), (0.6, 0.72), (0.55, 0.88), (0.5, 0.88),
     (0.47, 0.72), (0.42, 0.62), (0.36, 0.58)),
    # Australia
    ((0.84, 0.76), (0.9, 0.72), (0.96, 0.78), (0.95, 0.88), (0.88, 0.9), (0.83, 0.84)),
)


def city_position(city: MapCity, index: int, count: int) -> tuple[float, float]:
    """Where a city sits (0..1 of the map area): its own ``pos``, else the engine's default map position by
    id or name, else a place on a circle so an unknown map still draws."""
    global _DEFAULT_POSITIONS
    if city.pos is not None:
        return city.pos
    if _DEFAULT_POSITIONS is None:
        try:
            _DEFAULT_POSITIONS = {_norm(c.name): (c.x, c.y) for c in default_map().cities}
        except (ImportError, OSError, ValueError):
            _DEFAULT_POSITIONS = {}
    for key in (_norm(city.id), _norm(city.name)):
        if key in _DEFAULT_POSITIONS:
            return _DEFAULT_POSITIONS[key]
    angle = 2 * math.pi * index / max(1, count)
    return 0.5 + 0.4 * math.cos(angle), 0.5 + 0.4 * math.sin(angle)


def _city_marker(surface: pygame.Surface, centre: tuple[int, int], r: int, status: str, chosen: bool) -> None:
    """ticked = green disc with a check; playable = gold ring with a dot; locked = small grey square."""
    if chosen:
        pygame.draw.circle(surface, SELECT, centre, r + max(4, r // 2), max(2, r // 4))
    if status == "ticked":
        pygame.draw.circle(surface, C.GREEN, centre, r)
        pygame.draw.circle(surface, C.GREEN_DARK, centre, r, max(1, r // 5))
        box = pygame.Rect(0, 0, 2 * r, 2 * r)
        box.center = centre
        C.check(surface, C.INK_LIGHT, box.inflate(-r // 2, -r // 2), max(2, r // 4))
    elif status == "playable":
        pygame.draw.circle(surface, C.BG, centre, r)
        pygame.draw.circle(surface, SELECT, centre, r, max(2, r // 3))
        pygame.draw.circle(surface, SELECT, centre, max(2, r // 3))
    else:
        side = max(6, int(r * 1.2))
        box = pygame.Rect(0, 0, side, side)
        box.center = centre
        pygame.draw.rect(surface, C.BG, box)
        pygame.draw.rect(surface, C.INK_MUTED, box, max(1, r // 5))


def _map_label(city: MapCity, ui: MapUi, text: TextCache, size: int, chosen: bool) -> pygame.Surface:
    ink = C.INK_LIGHT if city.status != "locked" else C.INK_MUTED
    name = city_label(city.id, ui.language) if ui.language else city.name
    return text.get(name, size, SELECT if chosen else ink, bold=chosen)


def place_map_labels(
    cities: list[tuple[str, tuple[int, int], tuple[int, int]]], r: int, area: pygame.Rect, chosen: str | None = None
) -> dict[str, pygame.Rect]:
    """Where each city's name goes: (key, mark centre, name size) in, key -> name box out; ``chosen``: the key of
    the city with the ring round its mark. Every name inside the map, clear of every mark, ring and other name:
    beside its mark and nearer it than any other when a place is free, else further off with a leader line
    (``map_labels.leaders``) over no other mark or name (``device/render/map_labels.py``)."""
    return map_labels.place(cities, r, area, chosen)


def map_leader(surface: pygame.Surface, start: tuple[int, int], end: tuple[int, int], r: int) -> None:
    """The line from a city's mark to its name placed further off: thin, in the names' ink, a dot at the name's
    end (a road runs from mark to mark, in the map's own colours)."""
    width = max(1, r // 7)
    pygame.draw.line(surface, C.INK_LIGHT, start, end, width)
    pygame.draw.circle(surface, C.INK_LIGHT, end, width + 1)


def mission_map(surface: pygame.Surface, rect: pygame.Rect, ui: MapUi, text: TextCache) -> None:
    """The map on the left, the chosen city's panel on the right. In "table" orientation the panel is printed
    twice (its lower half for seat A, its upper half turned for seat B), with the title in it, and the hint
    line runs along both edges; the map itself is one picture for both."""
    surface.fill(C.BG, rect)
    table = ui.orientation == "table"
    band = max(36, rect.height // 11)
    size = max(14, int(band * 0.5))
    if not table:
        t = text.get(" · ".join(x for x in (ui.title, ui.sheet) if x), size, C.INK_LIGHT, bold=True)
        surface.blit(t, t.get_rect(midleft=(rect.left + band // 2, rect.top + band // 2)))
    panel_w = min(max(rect.width // 4, 190), 440)
    # the same map in both orientations: the band above it carries the title (upright) or the hint turned (table)
    area = pygame.Rect(rect.left + band // 2, rect.top + band, rect.width - panel_w - band, rect.height - band * 3 // 2)
    inner = _map_backdrop(surface, area)
    r = max(6, min(area.width, area.height) // 40)
    marks: dict[str, tuple[int, int]] = {}
    for i, city in enumerate(ui.cities):
        fx, fy = city_position(city, i, len(ui.cities))
        marks[_norm(city.id)] = (int(inner.left + fx * inner.width), int(inner.top + fy * inner.height))
    marks = map_labels.spread_marks(marks, r, inner)  # no mark on another (Europe at 800x480)
    pos: dict[str, tuple[int, int]] = {}
    for city in ui.cities:
        pos[_norm(city.id)] = pos[_norm(city.name)] = marks[_norm(city.id)]
    _map_links(surface, ui, pos)
    _map_cities(surface, ui, text, area, pos, r)
    panel = pygame.Rect(area.right + band // 2, area.top, rect.right - area.right - band, area.height)
    body = max(C.MIN_TEXT_PX, panel.width // 17)
    if table:
        half = pygame.Rect(0, 0, panel.width, (panel.height - band // 4) // 2)
        scratch = surface_like(half.size, surface)
        scratch.fill(C.BG)
        _map_panel(scratch, ui, text, half, r, titled=True)
        surface.blit(turned_half(scratch), panel.topleft)
        _map_panel(surface, ui, text, half.move(panel.left, panel.bottom - half.height), r, titled=True)
    else:
        _map_panel(surface, ui, text, panel, r)
    if ui.hint:
        h = text.get(
            ellipsize(ui.hint, rect.width - 40, lambda s: pg_font(body).size(s)[0]), body, C.INK_MUTED
        )
        surface.blit(h, h.get_rect(midbottom=(rect.centerx, rect.bottom - band // 8)))
        if table:
            blit_turned(surface, h, h.get_rect(midtop=(rect.centerx, rect.top + band // 4)))


def _map_backdrop(surface: pygame.Surface, area: pygame.Rect) -> pygame.Rect:
    """The sea, a faint graticule (it reads as a map without pretending to be one) and the continents; returns
    the inner rect the city positions refer to."""
    C.rounded(surface, (28, 52, 62), area, 12)
    for k in range(1, 6):
        x = area.left + area.width * k // 6
        pygame.draw.line(surface, (36, 64, 74), (x, area.top + 6), (x, area.bottom - 6))
        y = area.top + area.height * k // 6
        pygame.draw.line(surface, (36, 64, 74), (area.left + 6, y), (area.right - 6, y))
    inner = area.inflate(-area.width // 12, -area.height // 10)
    for outline in CONTINENTS:
        points = [(int(inner.left + x * inner.width), int(inner.top + y * inner.height)) for x, y in outline]
        pygame.draw.polygon(surface, (34, 64, 70), points)
        pygame.draw.polygon(surface, (52, 86, 92), points, 2)
    return inner


def _map_links(surface: pygame.Surface, ui: MapUi, pos: dict[str, tuple[int, int]]) -> None:
    """The roads between cities; a road from a ticked city is brighter and wider."""
    status = {_norm(c.id): c.status for c in ui.cities}
    for a, b in ui.links:
        pa, pb = pos.get(_norm(a)), pos.get(_norm(b))
        if pa is None or pb is None:
            continue
        open_link = "ticked" in (status.get(_norm(a)), status.get(_norm(b)))
        pygame.draw.line(
            surface, (150, 170, 160) if open_link else (70, 96, 104), pa, pb, 3 if open_link else 2
        )


def _is_chosen(ui: MapUi, city: MapCity) -> bool:
    return ui.selected is not None and _norm(ui.selected) in (_norm(city.id), _norm(city.name))


def _map_cities(surface: pygame.Surface, ui: MapUi, text: TextCache, area: pygame.Rect,
                pos: dict[str, tuple[int, int]], r: int) -> None:
    """Every city's marker and name, the chosen city first, then the playable, ticked and locked ones."""
    label_size = max(C.MIN_TEXT_PX, int(r * 1.25))
    order = {"ticked": 1, "playable": 0, "locked": 2}
    # every name placed at once (place_map_labels), its leader line under the marks
    marks = {_norm(c.id): pos[_norm(c.id)] for c in ui.cities}
    chosen_key = next((_norm(c.id) for c in ui.cities if _is_chosen(ui, c)), None)
    spots = place_map_labels(
        [(_norm(c.id), marks[_norm(c.id)], _map_label(c, ui, text, label_size, _is_chosen(ui, c)).get_size())
         for c in ui.cities], r, area, chosen_key)
    for start, end in map_labels.leaders(spots, marks, r).values():
        map_leader(surface, start, end, r)
    for city in sorted(ui.cities, key=lambda c: (not _is_chosen(ui, c), order.get(c.status, 3))):
        chosen = _is_chosen(ui, city)
        _city_marker(surface, pos[_norm(city.id)], r, city.status, chosen)
        surface.blit(_map_label(city, ui, text, label_size, chosen), spots[_norm(city.id)])


def _map_panel(surface: pygame.Surface, ui: MapUi, text: TextCache, panel: pygame.Rect, r: int,
               titled: bool = False) -> None:
    """The side panel: the title and the sheet's name when ``titled`` (the panel printed for each seat carries
    them), the chosen city's name and details, then the legend of the three markers."""
    C.rounded(surface, C.PANEL, panel, 12)
    pad = max(8, panel.width // 16)
    y = panel.top + pad
    body = max(C.MIN_TEXT_PX, panel.width // 17)
    for line in (ui.title, ui.sheet) if titled else ():
        y = paragraph(surface, text, line, panel.left + pad, y, panel.width - 2 * pad, body, C.INK_MUTED, True)
    y += pad // 3 if titled else 0
    chosen_city = next((c for c in ui.cities if _is_chosen(ui, c)), None)
    if chosen_city is not None:
        y = paragraph(
            surface,
            text,
            city_label(chosen_city.id, ui.language) if ui.language else chosen_city.name,
            panel.left + pad,
            y,
            panel.width - 2 * pad,
            int(body * 1.4),
            SELECT,
            True,
        )
        y += pad // 2
    for line in ui.detail:
        y = paragraph(surface, text, line, panel.left + pad, y, panel.width - 2 * pad, body, C.INK_LIGHT)
    # the legend of the three markers at the panel's foot; where the details leave too little room (a panel
    # printed for each seat at 800x480) it is drawn tighter, its markers smaller, never left out
    row = max(2 * r + pad, body + 4)
    legend = panel.bottom - pad - 3 * row
    mark = r
    if y > legend - pad // 2:
        mark = max(5, min(r, body // 2))
        row = max(2 * mark + 2, int(body * 1.25))
        legend = max(y + 2, panel.bottom - pad // 2 - 3 * row)
    y = legend
    for st in ("ticked", "playable", "locked"):
        centre = (panel.left + pad + mark + 4, y + row // 2)
        _city_marker(surface, centre, mark, st, False)
        t = text.get(ui.labels.get(st, st), body, C.INK_LIGHT)
        surface.blit(t, t.get_rect(midleft=(centre[0] + 2 * mark, centre[1])))
        y += row


# --- attract, message, privacy ------------------------------------------------------------------------


def attract(surface: pygame.Surface, rect: pygame.Rect, ui: AttractUi, text: TextCache) -> None:
    """Cards drift slowly and turn over in a wave; the title breathes; "press OK" below."""
    surface.fill(C.BG, rect)
    cols, rows = 7, 4
    cw, ch = rect.width // (cols + 1), rect.height // (rows + 2)
    words = ui.words or ("",)
    size = max(28, rect.height // 7)
    title = text.get(ui.title, size, C.INK_LIGHT, bold=True)  # measured first: no drifting word goes under it
    box = title.get_rect(center=(rect.centerx, rect.centery - size // 3)).inflate(size, size // 2)
    prompt_box = turned_box = pygame.Rect(0, 0, 0, 0)
    if ui.prompt:  # under the title for seat A, and turned above it for seat B in "table" orientation
        p = text.get(ui.prompt, max(14, size // 2), C.INK_LIGHT)
        prompt_box = p.get_rect(midtop=(rect.centerx, box.bottom + size // 4)).inflate(size // 2, size // 4)
        if ui.orientation == "table":
            turned_box = p.get_rect(midbottom=(rect.centerx, box.top - size // 4)).inflate(size // 2, size // 4)
    for r in range(rows):
        for c in range(cols):
            k = r * cols + c
            phase = ui.t * 0.35 + (c + r) * 0.45
            lift = math.sin(phase)
            x = rect.left + int((c + 0.5) * rect.width / cols - cw / 2 + 8 * math.sin(ui.t * 0.3 + k))
            y = rect.top + int((r + 0.9) * rect.height / (rows + 1.5) - ch / 2 + 6 * lift)
            body = pygame.Rect(x, y, int(cw * 0.9), int(ch * 0.8))
            wave = (math.sin(ui.t * 0.6 - c * 0.5 - r * 0.3) + 1) / 2
            colour = C.GREEN if wave > 0.85 else (C.TAN if wave < 0.08 else C.CARD)
            shade = pygame.Surface(body.size, pygame.SRCALPHA)
            shade.fill((*colour, 70))
            surface.blit(shade, body)
            word = words[k % len(words)]
            if word:
                t = text.get(word, max(C.MIN_TEXT_PX, body.height // 4), (*C.INK_MUTED,), condensed=True)
                where = t.get_rect(center=body.center)
                if not where.collidelistall([box, prompt_box, turned_box]):
                    surface.blit(t, where)
    glow = 0.5 + 0.5 * math.sin(ui.t * 1.2)
    r, g, b = (int(a + (z - a) * glow) for a, z in zip(C.INK_LIGHT, SELECT, strict=True))
    title = text.get(ui.title, size, (r, g, b), bold=True)
    C.rounded(surface, C.BG, box, size // 3)
    surface.blit(title, title.get_rect(center=box.center))
    if ui.prompt:
        p = text.get(ui.prompt, max(14, size // 2), C.INK_LIGHT)
        pr = p.get_rect(midtop=(rect.centerx, box.bottom + size // 4))
        C.rounded(surface, C.BG, pr.inflate(size // 2, size // 4), size // 6)
        surface.blit(p, pr)
        if ui.orientation == "table":
            pt = p.get_rect(midbottom=(rect.centerx, box.top - size // 4))
            C.rounded(surface, C.BG, pt.inflate(size // 2, size // 4), size // 6)
            blit_turned(surface, p, pt)


def message(surface: pygame.Surface, rect: pygame.Rect, ui: MessageUi, text: TextCache) -> None:
    both_seats(surface, rect, ui.orientation, lambda s, r: _message(s, r, ui, text))


def _message(surface: pygame.Surface, rect: pygame.Rect, ui: MessageUi, text: TextCache) -> None:
    """The title and its lines, centred as a block (on half a screen too: the lines stay readable)."""
    surface.fill(C.BG, rect)
    size = max(22, min(rect.height // 8, rect.width // 18))
    small = max(C.MIN_TEXT_PX + 2, int(size * 0.6))
    width = int(rect.width * 0.8)
    block = [(ui.title, size, C.INK_LIGHT, True)] + [(line, small, C.INK_MUTED, False) for line in ui.lines]

    def height(string: str, px: int, bold: bool) -> int:
        font = pg_font(px, bold)
        return len(wrap(string, width, lambda t: font.size(t)[0])) * int(font.get_linesize() * 1.05) if string else 0

    total = sum(height(t, px, bold) + px // 3 for t, px, _, bold in block) + size // 2
    y = rect.top + max(size // 3, (rect.height - total) // 2)
    prose = any(len(line) > 60 for line in ui.lines)  # long lines read better ragged right than centred
    for k, (string, px, colour, bold) in enumerate(block):
        y = paragraph(surface, text, string, rect.centerx - width // 2, y, width, px, colour, bold,
                      k == 0 or not prose)
        y += px // 3 if prose else 0  # one paragraph a line: a little air between them
        if k == 0:
            y += size // 2


def privacy(surface: pygame.Surface, rect: pygame.Rect, ui: HotSeatUi, text: TextCache) -> None:
    """Hot-seat privacy screen: big instructions and the hold-to-see progress; nothing of the key."""
    surface.fill((12, 18, 22), rect)
    size = max(22, rect.height // 12)
    width = int(rect.width * 0.8)
    y = rect.top + rect.height // 4
    seat_colour = C.SEAT_COLOUR.get(ui.seat, C.INK_LIGHT)
    eye = (rect.centerx, rect.top + rect.height // 7)
    r = max(14, rect.height // 18)
    pygame.draw.ellipse(surface, seat_colour, pygame.Rect(eye[0] - 2 * r, eye[1] - r, 4 * r, 2 * r), 3)
    pygame.draw.circle(surface, seat_colour, eye, r // 2)
    pygame.draw.line(surface, C.RED, (eye[0] - 2 * r, eye[1] + r), (eye[0] + 2 * r, eye[1] - r), 4)
    for k, line in enumerate(ui.lines):
        colour = C.INK_LIGHT if k == 0 else seat_colour
        y = (
            paragraph(
                surface,
                text,
                line,
                rect.centerx - width // 2,
                y,
                width,
                size if k == 0 else int(size * 0.8),
                colour,
                True,
                True,
            )
            + size // 2
        )
    track = pygame.Rect(0, 0, int(rect.width * 0.5), max(12, rect.height // 30))
    track.midtop = (rect.centerx, max(y + size // 2, rect.bottom - rect.height // 6))
    C.rounded(surface, C.PANEL, track, track.height // 2)
    fill = track.copy()
    fill.width = int(track.width * min(max(ui.hold, 0.0), 1.0))
    if fill.width > 0:
        C.rounded(surface, seat_colour, fill, track.height // 2)
