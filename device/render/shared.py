"""Shared display renderer (pygame): (public view + a screen's UI model) → pixels on a surface, with dirty
rects.

Secrecy: this module is only ever handed the public view (``engine.views.PublicView`` or a classic/pictures
public view) and a UI model from ``models``; the only key it can draw is one a model carries on purpose
(``GameOverUi.keys`` after both seats confirmed, ``HotSeatUi.key`` behind the privacy screen).

Incremental drawing: a frame is a set of non-overlapping regions (each card, the side panel's parts, the two
message bars, or one region for a whole simple screen), each with a key made of exactly what it shows.
``SharedRenderer.render`` compares the keys with the previous frame and redraws only the regions whose key
changed, returning their rects (pass them to ``SharedDisplay.present``); the first frame, a new screen kind
or a new surface size redraws everything. Card faces are cached per (word, state, size); text surfaces and
scaled pictures too. ``full`` forces a complete redraw (after something else drew on the surface).

Layout comes from the surface size (800x480 up to 1920x1080 and beyond): bars top and bottom, the grid on
the left, a side panel on the right. In "table" orientation seat A sits at the bottom, seat B at the top:
the top bar's text is turned 180° for B, and every word is written twice on its card like the printed cards.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import pygame

from device.modes import by_kind
from engine.board import DUET as DUET_BOARD
from engine.classic import ClassicPublicView
from engine.pictures_deck import picture_path
from engine.seats import SEATS

from . import cards as C
from . import help as help_pages
from . import screens
from .entry import entry_drawer
from .models import (
    AttractUi,
    ClassicCard,
    ClassicPlayUi,
    GameOverUi,
    HotSeatUi,
    MapUi,
    MenuUi,
    MessageUi,
    PinUi,
    PlayUi,
    PublicCard,
    SettingsUi,
    SetupUi,
    SharedUi,
    SharedView,
    StatsUi,
)
from .text import TextCache, copy_surface, ellipsize, pg_font, surface_like, turned_half, wrap

DEFAULT_LABELS = {
    "clues": "Clues",
    "bank": "Timer",
    "taken": "Used",
    "agents": "Agents",
    "mistakes": "Mistakes",
    "mission": "Mission",
    "stop": "STOP",
    "seat_A": "A",
    "seat_B": "B",
    "no_word": "—",
    "R": "Red",
    "B": "Blue",
    "ticked": "done",
    "playable": "open",
    "locked": "locked",
}

Draw = Callable[[pygame.Surface, pygame.Rect], None]

_SPRITE_KEY = (255, 0, 254)  # a colour no figure uses: the sprites' transparent background


@dataclass(frozen=True)
class Region:
    name: str
    rect: pygame.Rect
    key: object
    draw: Draw


@lru_cache(maxsize=1024)
def fitted(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` ellipsized to ``width`` pixels in the bundled font (cached: a guess redraws known texts)."""
    font = pg_font(size, bold)
    return ellipsize(text, width, lambda s: font.size(s)[0])


@lru_cache(maxsize=1024)
def fitting_size(text: str, width: int, size: int, bold: bool = False) -> int:
    """The largest size from ``size`` down to MIN_TEXT_PX at which ``text`` fits ``width`` (MIN_TEXT_PX when
    none does: the text is then cut there, at the smallest size allowed)."""
    while size > C.MIN_TEXT_PX and pg_font(size, bold).size(text)[0] > width:
        size -= 1
    return size


def label(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, DEFAULT_LABELS.get(key, key))


@dataclass(frozen=True)
class GridLayout:
    top: pygame.Rect
    bottom: pygame.Rect
    panel: pygame.Rect
    cells: tuple[pygame.Rect, ...]
    ring: int = 3  # px of the gap around each card its cursor's ring takes (half the gap)

    def card_region(self, i: int) -> pygame.Rect:
        """Card ``i``'s region: its cell and the half of the gap around it where its cursor's ring goes."""
        return self.cells[i].inflate(2 * self.ring, 2 * self.ring)


def square_cells(pictures: bool, orientation: str) -> bool:
    """Pictures on a box set upright take squarish cards (one picture each); on a table each picture is drawn
    twice, side by side, once for each seat (``cards._picture``), so the cards are as wide as word cards."""
    return pictures and orientation == "upright"


@lru_cache(maxsize=32)
def grid_layout(size: tuple[int, int], columns: int = DUET_BOARD.columns, rows: int = DUET_BOARD.rows,
                pictures: bool = False) -> GridLayout:
    """Where everything goes for a grid screen of ``size`` (cached: treat the rects as read-only)."""
    w, h = size
    bar = max(26, round(h * 0.07))
    margin = max(6, round(min(w, h) * 0.015))
    pw = min(max(round(w * 0.25), 190), 470)
    panel = pygame.Rect(w - pw, bar, pw, h - 2 * bar)
    area = pygame.Rect(margin, bar + margin, w - pw - 2 * margin, h - 2 * bar - 2 * margin)
    gap = max(4, round(min(area.size) * 0.014))
    cw = (area.width - gap * (columns - 1)) // columns
    ch = (area.height - gap * (rows - 1)) // rows
    cw = min(cw, int(ch * (1.15 if pictures else 2.3)))
    ch = min(ch, int(cw * (1.15 if pictures else 1.0)))
    gw, gh = cw * columns + gap * (columns - 1), ch * rows + gap * (rows - 1)
    x0 = area.left + (area.width - gw) // 2
    y0 = area.top + (area.height - gh) // 2
    cells = tuple(
        pygame.Rect(x0 + c * (cw + gap), y0 + r * (ch + gap), cw, ch)
        for r in range(rows)
        for c in range(columns)
    )
    return GridLayout(pygame.Rect(0, 0, w, bar), pygame.Rect(0, h - bar, w, bar), panel, cells, gap // 2)


class SharedRenderer:
    """Draws every shared-display screen, redrawing only what changed since its last frame.

    ``picture_loader(id, (w, h))`` returns a pygame surface for a picture id (default: the bundled deck via
    ``engine.pictures_deck.picture_path``), or None when unknown. ``sprites``: small fixed figures (timer tokens,
    the agents tile) and agent-covered faces are blitted from cached sprites; False draws them directly (the
    tests compare the two pixel by pixel).
    """

    def __init__(
        self,
        picture_loader: Callable[[str, tuple[int, int]], pygame.Surface | None] | None = None,
        face_cache: int = 400,
        *,
        sprites: bool = True,
    ) -> None:
        self.sprites = sprites
        self.text = TextCache()
        self._faces: OrderedDict[C.Face, pygame.Surface] = OrderedDict()
        self._face_limit = face_cache
        self._pictures: dict[tuple[str, tuple[int, int]], pygame.Surface | None] = {}
        self._source_pictures: dict[str, pygame.Surface | None] = {}
        self._loader = picture_loader
        self._last: tuple[object, tuple[int, int], dict[str, object]] | None = None
        self.last_regions: list[str] = []  # names of the regions drawn by the last call (tests, benchmarks)
        self._sprites: dict[object, pygame.Surface] = {}

    # --- public API -----------------------------------------------------------------------------------

    def render(self, surface: pygame.Surface, view: SharedView | None, ui: SharedUi) -> list[pygame.Rect]:
        """Draw the frame for (view, ui); only regions that changed since the last call are redrawn. Returns
        the dirty rects (empty when nothing changed)."""
        kind, regions = self._regions(surface.get_size(), view, ui)
        keys = {r.name: r.key for r in regions}
        last = self._last
        if last is None or last[0] != kind or last[1] != surface.get_size() or set(last[2]) != set(keys):
            return self._draw_all(surface, kind, regions, keys)
        dirty = []
        drawn = []
        for region in regions:
            if last[2].get(region.name) != region.key:
                self._draw_region(surface, region)
                dirty.append(region.rect.copy())
                drawn.append(region.name)
        self._last = (kind, surface.get_size(), keys)
        self.last_regions = drawn
        return dirty

    update = render

    def full(self, surface: pygame.Surface, view: SharedView | None, ui: SharedUi) -> list[pygame.Rect]:
        """Redraw everything (e.g. after the surface was drawn on by someone else)."""
        kind, regions = self._regions(surface.get_size(), view, ui)
        return self._draw_all(surface, kind, regions, {r.name: r.key for r in regions})

    def invalidate(self) -> None:
        """Forget the last frame: the next ``render`` draws everything."""
        self._last = None

    # --- drawing --------------------------------------------------------------------------------------

    def _draw_all(
        self, surface: pygame.Surface, kind: object, regions: list[Region], keys: dict[str, object]
    ) -> list[pygame.Rect]:
        surface.fill(C.BG)
        for region in regions:
            self._draw_region(surface, region)
        self._last = (kind, surface.get_size(), keys)
        self.last_regions = [r.name for r in regions]
        return [surface.get_rect()]

    def _draw_region(self, surface: pygame.Surface, region: Region) -> None:
        surface.set_clip(region.rect)
        try:
            region.draw(surface, region.rect)
        finally:
            surface.set_clip(None)

    def face(self, face: C.Face, like: pygame.Surface | None = None) -> pygame.Surface:
        """The cached surface of one card face (made in ``like``'s pixel format when first drawn)."""
        surf = self._faces.get(face)
        if surf is not None:
            self._faces.move_to_end(face)
            return surf
        surf = self._agent_face(face, like) if face.agent and face.content else None
        if surf is None:
            surf = C.card_face(face, self.text, self.picture, like)
        self._faces[face] = surf
        if len(self._faces) > self._face_limit:
            self._faces.popitem(last=False)
        return surf

    def _agent_face(self, face: C.Face, like: pygame.Surface | None) -> pygame.Surface | None:
        """A card covered by an agent is the same green tile for every word, with the word written small at
        the bottom (none on a picture): the tile is rendered once per size, then copied and labelled, so an
        agent found costs a copy and one small text instead of drawing the tile."""
        if not self.sprites:
            return None
        blank = self.face(replace(face, content=""), like)
        surf = copy_surface(blank)
        if not face.picture:
            C.covered_labels(surf, face, self.text, *C.AGENT_LABEL)
        return surf

    def picture(self, picture_id: str, size: tuple[int, int]) -> pygame.Surface | None:
        key = (picture_id, size)
        if key in self._pictures:
            return self._pictures[key]
        if self._loader is not None:
            pic = self._loader(picture_id, size)
        else:
            source = self._source_pictures.get(picture_id)
            if picture_id not in self._source_pictures:
                source = _load_bundled_picture(picture_id)
                self._source_pictures[picture_id] = source
            pic = pygame.transform.smoothscale(source, size) if source is not None else None
        self._pictures[key] = pic
        return pic

    # --- regions per screen ---------------------------------------------------------------------------

    def _regions(self, size: tuple[int, int], view: SharedView | None, ui: SharedUi) -> tuple[object, list[Region]]:
        if isinstance(ui, PlayUi):
            return ("play", ui.orientation, ui.pictures), self._duet_regions(size, view, ui)
        if isinstance(ui, GameOverUi):
            return ("over", ui.orientation, ui.pictures), self._duet_regions(size, view, ui)
        if isinstance(ui, HotSeatUi) and ui.stage == "key":
            return (HotSeatUi, ui.orientation, ui.pictures), self._duet_regions(size, view, ui)
        if isinstance(ui, ClassicPlayUi):
            return (ClassicPlayUi, ui.columns, ui.rows, ui.pictures), self._classic_regions(size, view, ui)
        whole = pygame.Rect((0, 0), size)
        text = self.text
        painter = next((f for t, f in _WHOLE_SCREENS if isinstance(ui, t)), None)
        if painter is None:
            raise TypeError(f"no shared-display screen for {type(ui).__name__}")

        def draw(s: pygame.Surface, r: pygame.Rect) -> None:
            painter(s, r, ui, text)

        if isinstance(ui, HotSeatUi) and ui.orientation == "table":
            # the privacy screen speaks to both seats: its lower half faces A, the same turned faces B
            lower = pygame.Rect(0, size[1] // 2, size[0], size[1] - size[1] // 2)
            return (type(ui).__name__, "twice"), _twice([Region("screen", lower, ui, draw)], whole)
        return (type(ui).__name__,), [Region("screen", whole, ui, draw)]

    def _duet_regions(
        self, size: tuple[int, int], view: SharedView | None, ui: PlayUi | GameOverUi | HotSeatUi
    ) -> list[Region]:
        cards = tuple(getattr(view, "cards", ()) or ())
        n = len(cards)
        columns, rows = (5, 4) if n == 20 else (5, 5)
        layout = grid_layout(size, columns, rows, square_cells(ui.pictures, ui.orientation))
        regions: list[Region] = []
        cursors = ui.cursors if isinstance(ui, PlayUi) else ()
        hold = ui.hold if isinstance(ui, PlayUi) else None
        keys = ui.keys if isinstance(ui, GameOverUi) else None
        hot = ui.key if isinstance(ui, HotSeatUi) else None
        on_card: dict[int, list[str]] = {}
        for c in cursors:
            on_card.setdefault(c.card, []).append(c.seat)
        both = keys if keys and "A" in keys and "B" in keys else None
        # while one seat guesses, the other seat's cursor is drawn quieter
        guessers = tuple(getattr(view, "guessers", ()) or ())
        quiet = frozenset(s for s in SEATS if guessers and s not in guessers)
        common = (ui.orientation, ui.pictures, ui.seat if isinstance(ui, HotSeatUi) else "A")
        for i, rect in enumerate(layout.cells[:n]):
            card = cards[i]
            reveal = (both["A"][i], both["B"][i]) if both else None
            hot_key = hot[i] if hot and i < len(hot) else None
            on = tuple(sorted(on_card.get(i, ())))
            held = (hold.seat, round(hold.fraction, 2)) if hold is not None and hold.card == i else None
            # the key holds the public card itself; the face (the cache key of the picture) is built only
            # when the card has to be drawn
            still = tuple(x for x in on if x in quiet)
            key = (card, rect.size, common, reveal, hot_key, on, held, still)
            drawer = self._duet_card_drawer(card, rect.size, common, reveal, hot_key, on, held, quiet, layout.ring)
            regions.append(Region(f"card{i}", layout.card_region(i), key, drawer))
        regions.extend(self._duet_panel(layout.panel, view, ui))
        regions.extend(self._bars(layout, view, ui))
        return regions

    def _duet_card_drawer(
        self,
        card: PublicCard,
        size: tuple[int, int],
        common: tuple[str, bool, str],
        reveal: tuple[str, str] | None,
        hot_key: str | None,
        on: tuple[str, ...],
        held: tuple[str, float] | None,
        quiet: frozenset[str] = frozenset(),
        ring: int = 0,
    ) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            face = _duet_face(card, size, common, reveal, hot_key)
            self._card_drawer(face, on, held, quiet, ring)(surface, rect)

        return draw

    def _stamp(self, surface: pygame.Surface, key: object, topleft: tuple[int, int], size: tuple[int, int],
               draw: Callable[[pygame.Surface, pygame.Rect], object], margin: int = 0) -> None:
        """Draw a small fixed figure from a cached transparent sprite: ``draw(sprite, rect)`` draws it once
        (drawn on a colour-keyed background, so blitting the sprite puts exactly the pixels that drawing
        there would). ``margin``: room around ``size`` the figure may reach into."""
        if not self.sprites:
            draw(surface, pygame.Rect(topleft, size))
            return
        sprite = self._sprites.get(key)
        if sprite is None:
            w, h = size
            sprite = pygame.Surface((w + 2 * margin, h + 2 * margin))
            sprite.fill(_SPRITE_KEY)
            sprite.set_colorkey(_SPRITE_KEY)
            draw(sprite, pygame.Rect(margin, margin, w, h))
            self._sprites[key] = sprite
        surface.blit(sprite, (topleft[0] - margin, topleft[1] - margin))

    def _token(self, surface: pygame.Surface, centre: tuple[int, int], radius: int, face: str) -> None:
        r = max(4, radius)
        self._stamp(surface, ("token", radius, face), (centre[0] - r, centre[1] - r), (2 * r, 2 * r),
                    lambda s, rect: C.token(s, (rect.left + r, rect.top + r), radius, face), margin=4)

    def _card_drawer(self, face: C.Face, on: tuple[str, ...], held: tuple[str, float] | None,
                     quiet: frozenset[str] = frozenset(), ring: int = 0) -> Draw:
        """Draws the card's region: the card, ``ring`` px of the gap around it, the cursors' rings there (the
        waiting seat's first, so the guesser's lies on top) and a hold's progress on the holding seat's ring."""

        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            card = rect.inflate(-2 * ring, -2 * ring)
            if ring:
                surface.fill(C.BG, rect)
            surface.blit(self.face(face, surface), card)
            for seat in sorted(on, key=lambda s: (s not in quiet, s)):
                if held is not None and held[0] == seat:
                    C.hold(surface, card, seat, held[1], ring)
                else:
                    C.cursor(surface, card, seat, ring, seat in quiet)
            if held is not None and held[0] not in on:
                C.hold(surface, card, held[0], held[1], ring)

        return draw

    # --- bars -----------------------------------------------------------------------------------------

    def _bars(self, layout: GridLayout, view: SharedView | None, ui: PlayUi | GameOverUi | HotSeatUi) -> list[Region]:
        table = ui.orientation == "table"
        if isinstance(ui, PlayUi):
            banner, message = ui.banner, ui.message
        elif isinstance(ui, GameOverUi):
            banner, message = None, " · ".join(x for x in (ui.title, ui.reason) if x)
        else:
            banner, message = None, ui.lines[0] if ui.lines else ""
        hold = ui.hold if isinstance(ui, PlayUi) and ui.hold is not None and ui.hold.card is None else None
        stop = label(ui.labels, "stop")
        out = []
        for name, rect, seat, flip in (
            ("bar_top", layout.top, "B", table),
            ("bar_bottom", layout.bottom, "A", False),
        ):
            text = message if (table or name == "bar_bottom") else ""
            # a STOP held fills in both bars (each seat sees the turn ending), in the holder's colour
            held = round(hold.fraction, 2) if hold is not None and (table or name == "bar_bottom") else None
            holder = hold.seat if hold is not None else seat
            key = (banner, text, flip, held, holder, stop if held is not None else None)
            out.append(Region(name, rect, key, self._bar_drawer(banner, text, flip, holder, held, stop)))
        return out

    def _bar_drawer(
        self, banner: str | None, message: str, flip: bool, seat: str, held: float | None, stop: str
    ) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.RED if banner else (14, 30, 36), rect)
            h = rect.height

            def place(local: pygame.Rect) -> pygame.Rect:
                """Bar-local rect → screen rect; a flipped bar is the same layout turned half a turn."""
                if flip:
                    return pygame.Rect(rect.right - local.right, rect.bottom - local.bottom, *local.size)
                return local.move(rect.left, rect.top)

            def put(label: pygame.Surface, **anchor: tuple[int, int]) -> None:
                surface.blit(label, place(label.get_rect(**anchor)))

            size = max(C.MIN_TEXT_PX, int(h * 0.5))
            x = max(8, h // 3)
            if banner:
                b = self.text.get(banner, size, C.INK_LIGHT, bold=True, flip=flip)
                put(b, midleft=(x, h // 2))
                x += b.get_width() + h // 2
            room = rect.width - x - max(8, h // 3)
            if held is not None:
                room -= rect.width // 4
            if message and room > 20:
                small = fitting_size(message, room, size)  # a long prompt steps down to the minimum before a cut
                text = fitted(message, room, small)
                put(self.text.get(text, small, C.INK_LIGHT, flip=flip), midleft=(x, h // 2))
            if held is not None:
                track = pygame.Rect(rect.width - rect.width // 4, h // 4, rect.width // 4 - h // 3, h // 2)
                pygame.draw.rect(surface, C.SEAT_DARK.get(seat, C.BLACK), place(track), border_radius=h // 6)
                fill = track.copy()
                fill.width = int(track.width * min(max(held, 0.0), 1.0))
                colour = C.SEAT_COLOUR.get(seat, C.INK_LIGHT)
                pygame.draw.rect(surface, colour, place(fill), border_radius=h // 6)
                put(self.text.get(stop, max(C.MIN_TEXT_PX, int(h * 0.36)), C.INK_LIGHT, bold=True, flip=flip),
                    center=track.center)

        return draw

    # --- duet side panel ------------------------------------------------------------------------------

    def _duet_panel(
        self, panel: pygame.Rect, view: SharedView | None, ui: PlayUi | GameOverUi | HotSeatUi
    ) -> list[Region]:
        table = ui.orientation == "table"
        if isinstance(ui, GameOverUi):
            key = ("over", ui, _status_key(view), tuple(getattr(view, "clues", ()) or ()))
            return self._panel_twice(panel, table, "panel", key, self._over_drawer(view, ui))
        if isinstance(ui, HotSeatUi):
            return self._panel_twice(panel, table, "panel", ("hot", ui.lines, ui.seat),
                                     self._lines_drawer(ui.lines))
        if ui.entry is not None:  # hot-seat clue entry: the picker, large, in the panel (device/render/entry.py)
            return self._panel_twice(panel, table, "panel", ("entry", ui.entry), entry_drawer(self.text, ui.entry))
        whole = panel
        if table:
            panel = pygame.Rect(panel.left, panel.top + panel.height // 2, panel.width,
                                panel.height - panel.height // 2)
        title = max(13, panel.width // 14)
        agents_h = int(title * (3.4 if getattr(view, "mission", None) else 2.0))
        body = max(12, panel.width // 16)
        pad = max(6, panel.width // 22)
        tokens = max(getattr(view, "tokens", 0) or 0, (getattr(view, "bank_innocent", 0) or 0)
                     + (getattr(view, "bank_closed", 0) or 0))
        per_row = 6
        r = max(6, min((panel.width - 2 * pad) // (per_row * 2 + 2), panel.height // 22, 16))
        token_rows = max(1, (tokens + per_row - 1) // per_row)
        line = pg_font(body).get_linesize()
        bank_h = line + 2 + token_rows * (2 * r + 3) + pad
        agents = pygame.Rect(panel.left, panel.top, panel.width, agents_h)
        bank = pygame.Rect(panel.left, agents.bottom, panel.width, bank_h)
        history = pygame.Rect(panel.left, bank.bottom, panel.width, panel.bottom - bank.bottom)
        labels = dict(ui.labels)
        items = tuple(sorted(labels.items()))
        akey = tuple(getattr(view, a, None) for a in ("mission", "agents_found", "agents_total")) + (items,)
        bank_facts = ("tokens", "bank_innocent", "bank_closed", "taken")
        bkey = tuple(getattr(view, a, None) for a in bank_facts) + (items,)
        regions = [
            Region("agents", agents, akey, self._agents_drawer(view, labels)),
            Region("bank", bank, bkey + (r,), self._bank_drawer(view, labels, r)),
            *self._history_regions(history, view, labels),
        ]
        return _twice(regions, whole) if table else regions

    def _agents_drawer(self, view: SharedView | None, labels: Mapping[str, str]) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            pad = max(6, rect.width // 22)
            x, y = rect.left + pad, rect.top + pad
            title = max(13, rect.width // 14)
            mission = getattr(view, "mission", None)
            if mission:
                t = self.text.get(f"{label(labels, 'mission')} {mission}", title, C.INK_LIGHT, bold=True)
                surface.blit(t, (x, y))
                y += t.get_height() + pad // 2
            found = getattr(view, "agents_found", 0)
            total = getattr(view, "agents_total", 15)
            tile = pygame.Rect(x, y, int(title * 1.5), int(title * 1.2))

            def agent(s: pygame.Surface, r: pygame.Rect) -> None:
                C.rounded(s, C.GREEN, r, 3)
                C.silhouette(s, C.GREEN_DARK, r.center, int(r.height * 0.9))

            self._stamp(surface, ("agent", tile.size), tile.topleft, tile.size, agent)
            t = self.text.get(f"{label(labels, 'agents')} {found}/{total}", title, C.INK_LIGHT, bold=True)
            surface.blit(t, t.get_rect(midleft=(tile.right + pad // 2, tile.centery)))

        return draw

    def _bank_drawer(self, view: SharedView | None, labels: Mapping[str, str], r: int) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            pad = max(6, rect.width // 22)
            x, y = rect.left + pad, rect.top
            body = max(12, rect.width // 16)
            tokens = getattr(view, "tokens", 0) or 0
            innocent = getattr(view, "bank_innocent", 0) or 0
            closed = getattr(view, "bank_closed", 0) or 0
            t = self.text.get(label(labels, "bank"), body, C.INK_MUTED)
            surface.blit(t, (x, y))
            taken = getattr(view, "taken", 0) or 0  # on the title's line, at the right: one line less
            u = self.text.get(f"{label(labels, 'taken')} {taken}", body, C.INK_MUTED)
            surface.blit(u, u.get_rect(topright=(rect.right - pad, y)))
            y += t.get_height() + 2
            per_row = 6
            faces = ["innocent"] * innocent + ["closed"] * closed
            faces += ["spent"] * max(0, tokens - len(faces))
            for k, f in enumerate(faces):
                row, col = divmod(k, per_row)
                self._token(surface, (x + r + col * (2 * r + r // 2), y + r + row * (2 * r + 3)), r, f)
            pygame.draw.line(
                surface, C.PANEL_LINE, (rect.left, rect.bottom - 1), (rect.right, rect.bottom - 1)
            )

        return draw

    def _history_regions(self, rect: pygame.Rect, view: SharedView | None, labels: Mapping[str, str]) -> list[Region]:
        """The clue history, newest first: a title and one region per visible row, so that a guess redraws
        only the row of the clue being guessed."""
        pad = max(6, rect.width // 22)
        body = max(12, rect.width // 16)
        line_h = int(body * 1.7)
        title_h = pg_font(body).get_linesize() + pad + pad // 2
        title = pygame.Rect(rect.left, rect.top, rect.width, title_h)
        text = label(labels, "clues")

        def draw_title(surface: pygame.Surface, r: pygame.Rect) -> None:
            surface.fill(C.PANEL, r)
            surface.blit(self.text.get(text, body, C.INK_MUTED), (r.left + pad, r.top + pad))

        regions = [Region("history", title, ("title", text, body), draw_title)]
        clues = tuple(getattr(view, "clues", ()) or ())
        cards = tuple(getattr(view, "cards", ()) or ())
        current = getattr(view, "current_clue", None)
        count = max(0, (rect.bottom - title.bottom) // (line_h + 2))
        # more clues than rows: the last row says how many older ones are not shown
        shown = count - 1 if len(clues) > count else count
        y = title.bottom
        for k in range(count):
            height = line_h + 2 if k < count - 1 else rect.bottom - y
            row = pygame.Rect(rect.left, y, rect.width, height)
            y += line_h + 2
            if k == shown and len(clues) > count:
                more = earlier(len(clues) - shown)
                regions.append(Region(f"clue{k}", row, ("earlier", more, body), self._earlier_drawer(more, body, pad)))
                continue
            clue = clues[-1 - k] if k < len(clues) else None
            if clue is None:
                regions.append(Region(f"clue{k}", row, None, _panel_fill))
                continue
            results = tuple(_result_of(cards[g]) if g < len(cards) else "?" for g in clue.guesses)
            key = (clue.seat, clue.word, clue.number, clue.penalty, results, clue is current,
                   label(labels, f"seat_{clue.seat}"), label(labels, "no_word"), body)
            regions.append(Region(f"clue{k}", row, key, self._clue_row_drawer(key, line_h, pad)))
        return regions

    def _earlier_drawer(self, text: str, body: int, pad: int) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            t = self.text.get(text, body, C.INK_MUTED)
            surface.blit(t, t.get_rect(midleft=(rect.left + pad, rect.top + t.get_height() // 2 + 2)))

        return draw

    def _clue_row_drawer(self, key: tuple, line_h: int, pad: int) -> Draw:  # type: ignore[type-arg]
        seat, word, number, penalty, results, current, seat_name, no_word, body = key

        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            x = rect.left + pad
            width = rect.width - 2 * pad
            row = pygame.Rect(rect.left + pad // 2, rect.top, rect.width - pad, line_h)
            if current:
                C.rounded(surface, C.PANEL_LINE, row, line_h // 4)
            cx = x + line_h // 2
            pygame.draw.circle(surface, C.SEAT_COLOUR.get(seat, C.INK_LIGHT), (cx, row.centery), line_h // 2 - 2)
            s = self.text.get(seat_name, max(C.MIN_TEXT_PX, int(body * 0.8)), C.BLACK, bold=True)
            surface.blit(s, s.get_rect(center=(cx, row.centery)))
            sq = max(6, int(body * 0.8))
            results_w = len(results) * (sq + 3) + (sq + 3 if penalty else 0)
            room = width - line_h - 6 - results_w - _text_width(f" {number}", body, True)
            text = fitted(word or no_word, max(20, room), body, True) + f" {number}"
            w = self.text.get(text, body, C.INK_LIGHT, bold=True)
            surface.blit(w, w.get_rect(midleft=(x + line_h + 4, row.centery)))
            gx = rect.right - pad - results_w
            for result in results:
                _result_mark(surface, pygame.Rect(gx, row.centery - sq // 2, sq, sq), result)
                gx += sq + 3
            if penalty:
                C.token(surface, (gx + sq // 2, row.centery), sq // 2, "spent")
                pygame.draw.line(surface, C.RED, (gx, row.centery + sq // 2), (gx + sq, row.centery - sq // 2), 2)

        return draw

    def _over_drawer(self, view: SharedView | None, ui: GameOverUi) -> Draw:
        """Game over: the title, the score and the prompt first; the reason, the verdict and the summary
        when there is room (the bars say the title and the reason too); the seats' confirmations at the
        bottom, below everything else."""

        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            pad = max(6, rect.width // 22)
            x, y = rect.left + pad, rect.top + pad // 2
            width = rect.width - 2 * pad
            big = max(18, rect.width // 10)
            body = max(C.MIN_TEXT_PX, rect.width // 16)
            colour = C.GREEN_LIGHT if ui.won else (255, 140, 130)
            font = pg_font(big, True)
            t = self.text.get(ellipsize(ui.title, width, lambda s: font.size(s)[0]), big, colour, bold=True)
            surface.blit(t, (x, y))
            y += t.get_height()
            r = max(8, body * 3 // 4)
            seats_top = rect.bottom - pad // 2 - 2 * r
            prompt_h = _paragraph_height(ui.prompt, width, body) if ui.prompt else 0
            limit = seats_top - prompt_h - pad // 2
            clues = tuple(getattr(view, "clues", ()) or ())
            items, body = _over_items(ui, body, width, limit - y, min(len(clues), 3), pad // 3)
            for string, size, ink, bold in items:
                if not string:
                    continue
                if y + _paragraph_height(string, width, size, bold) > limit:
                    break
                y = screens.paragraph(surface, self.text, string, x, y, width, size, ink, bold)
            # the clue history stays at game over: newest first, as many as fit, then "… +N"
            line = pg_font(body).get_linesize()
            if clues and y + 2 * line <= limit:
                y += pad // 3
                for k, clue in enumerate(reversed(clues)):
                    number = "∞" if clue.number is None else str(clue.number)
                    word = clue.word or label(ui.labels, "no_word")
                    row = f"{label(ui.labels, 'seat_' + clue.seat)} · {word} {number}"
                    last = y + 2 * line > limit
                    if last and k < len(clues) - 1:
                        t = self.text.get(earlier(len(clues) - k), body, C.INK_MUTED)
                        surface.blit(t, (x, y))
                        break
                    t = self.text.get(fitted(row, width, body), body, C.INK_MUTED)
                    surface.blit(t, (x, y))
                    y += line
            if ui.prompt:
                screens.paragraph(surface, self.text, ui.prompt, x, seats_top - prompt_h - pad // 4, width, body,
                                  C.INK_LIGHT)
            bx = x
            for seat in SEATS:
                done = seat in ui.confirmed
                centre = (bx + r, seats_top + r)
                pygame.draw.circle(surface, C.SEAT_COLOUR[seat], centre, r, 0 if done else 2)
                s = self.text.get(seat, max(C.MIN_TEXT_PX, int(r * 1.1)), C.BLACK if done else C.SEAT_COLOUR[seat],
                                  bold=True)
                surface.blit(s, s.get_rect(center=centre))
                if done:
                    box = pygame.Rect(centre[0] + r + 2, centre[1] - r, 2 * r, 2 * r)
                    C.check(surface, C.GREEN_LIGHT, box, max(2, r // 4))
                bx += 4 * r + pad

        return draw

    def _lines_drawer(self, lines: Sequence[str]) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            pad = max(8, rect.width // 18)
            y = rect.top + pad
            for line in lines:
                y = (
                    screens.paragraph(
                        surface,
                        self.text,
                        line,
                        rect.left + pad,
                        y,
                        rect.width - 2 * pad,
                        max(C.MIN_TEXT_PX, rect.width // 17),
                        C.INK_LIGHT,
                    )
                    + pad // 2
                )

        return draw

    # --- classic and pictures -------------------------------------------------------------------------

    def _classic_regions(self, size: tuple[int, int], view: SharedView | None, ui: ClassicPlayUi) -> list[Region]:
        # the view knows its grid (5x5 classic, 5x4 Pictures); the model's numbers are for a view-less call
        columns = getattr(view, "columns", None) or ui.columns
        rows = getattr(view, "rows", None) or ui.rows
        pictures = ui.pictures or (isinstance(view, ClassicPublicView) and by_kind(view.mode).pictures)
        if pictures != ui.pictures or (columns, rows) != (ui.columns, ui.rows):
            ui = replace(ui, columns=columns, rows=rows, pictures=pictures)
        classic = view if isinstance(view, ClassicPublicView) else None
        if not ui.left and classic is not None:
            ui = replace(ui, left={t: str(n) for t, n in classic.left.items()})
        if not ui.history and classic is not None and classic.clues:
            lines = []
            for clue in classic.clues:
                number = "∞" if clue.number is None else str(clue.number)
                lines.append(f"{label(ui.labels, clue.team)} : {clue.word or label(ui.labels, 'no_word')} {number}")
            ui = replace(ui, history=tuple(lines))
        layout = grid_layout(size, ui.columns, ui.rows, square_cells(ui.pictures, ui.orientation))
        cards = classic_cards(view, ui)
        regions: list[Region] = []
        for i, rect in enumerate(layout.cells):
            if i >= len(cards):
                break
            card = cards[i]
            cover = 0.0
            colour = card.colour
            if ui.cover is not None and ui.cover[0] == i:
                cover = min(max(ui.cover[1], 0.0), 1.0)
                if colour is None:  # the box covers one of its own cards: it is the team to play (duo)
                    colour = ui.team_colour
            elif colour is not None:
                cover = 1.0
            face = C.Face(
                content=card.content,
                size=rect.size,
                orientation=ui.orientation,
                picture=ui.pictures,
                colour=colour,
                cover=round(cover, 2),
            )
            on = tuple(sorted(c.seat for c in ui.cursors if c.card == i))
            held = (
                (ui.hold.seat, round(ui.hold.fraction, 2))
                if ui.hold is not None and ui.hold.card == i
                else None
            )
            regions.append(Region(f"card{i}", layout.card_region(i), (face, on, held),
                                  self._card_drawer(face, on, held, ring=layout.ring)))
        regions.extend(
            self._panel_twice(
                layout.panel,
                ui.orientation == "table",
                "panel",
                (
                    ClassicPlayUi,
                    ui.team,
                    ui.team_colour,
                    ui.clue,
                    ui.guesses,
                    tuple(sorted(ui.left.items())),
                    ui.history,
                    tuple(sorted(ui.labels.items())),
                ),
                self._classic_panel(ui),
            )
        )
        table = ui.orientation == "table"
        for name, rect, flip in (("bar_top", layout.top, table), ("bar_bottom", layout.bottom, False)):
            winner = getattr(view, "winner", None)
            key = ("classic-bar", ui.banner, ui.team, ui.team_colour, ui.message, flip, winner)
            regions.append(Region(name, rect, key, self._team_bar(ui, flip, winner)))
        return regions

    def _team_bar(self, ui: ClassicPlayUi, flip: bool, winner: object = None) -> Draw:
        """A bar in the colour of the team to play (of the winning team once the game is won; a notice
        banner is alarm red): the banner or the team in bold, then the prompt; the bar facing seat B
        (``flip``) is the same bar turned half a turn, so the guessers read it too."""

        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            team = winner if winner in ("R", "B") else ui.team_colour
            colour = C.TEAM_RED if team == "R" else C.TEAM_BLUE
            surface.fill(C.RED if ui.banner and winner is None else colour, rect)
            h = rect.height
            size = max(C.MIN_TEXT_PX, int(h * 0.5))
            pad = max(8, h // 3)
            head = " · ".join(x for x in (ui.banner, ui.team) if x)
            t = self.text.get(fitted(head, rect.width - 2 * pad, size, True), size, C.INK_LIGHT, bold=True,
                              flip=flip)
            pieces = [t]
            room = rect.width - 2 * pad - t.get_width() - h // 2
            if ui.message and room > 20:
                pieces.append(self.text.get(fitted(ui.message, room, size), size, C.INK_LIGHT, flip=flip))
            x = pad
            for piece in pieces:
                local = piece.get_rect(midleft=(x, h // 2))
                if flip:
                    local = pygame.Rect(rect.width - local.right, h - local.bottom, *local.size)
                surface.blit(piece, local.move(rect.topleft))
                x += piece.get_width() + h // 2

        return draw

    def _panel_twice(self, panel: pygame.Rect, table: bool, name: str, key: object, draw: Draw) -> list[Region]:
        """A side panel readable from both seats: in "table" orientation the panel's lower half is drawn
        upright for seat A and the same drawing, turned half a turn, fills the upper half for seat B."""
        if not table:
            return [Region(name, panel, key, draw)]
        lower = pygame.Rect(panel.left, panel.top + panel.height // 2, panel.width, panel.height - panel.height // 2)
        return _twice([Region(name, lower, key, draw)], panel)

    def _classic_panel(self, ui: ClassicPlayUi) -> Draw:
        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            surface.fill(C.PANEL, rect)
            pad = max(8, rect.width // 18)
            x, y = rect.left + pad, rect.top + pad
            width = rect.width - 2 * pad
            body = max(12, rect.width // 15)
            colour = C.TEAM_RED if ui.team_colour == "R" else C.TEAM_BLUE
            head = pygame.Rect(x, y, width, int(body * 2.4))
            C.rounded(surface, colour, head, body // 2)
            emblem = head.height // 3
            centre = (head.left + head.height // 2, head.centery)
            if ui.team_colour == "R":
                pygame.draw.circle(surface, C.INK_LIGHT, centre, emblem)
            else:
                cx, cy = centre
                pygame.draw.polygon(
                    surface,
                    C.INK_LIGHT,
                    [(cx, cy - emblem), (cx + emblem, cy), (cx, cy + emblem), (cx - emblem, cy)],
                )
            t = self.text.get(ui.team, int(body * 1.2), C.INK_LIGHT, bold=True)
            surface.blit(t, t.get_rect(midleft=(head.left + head.height, head.centery)))
            y = head.bottom + pad
            if ui.clue:
                y = screens.paragraph(
                    surface, self.text, ui.clue, x, y, width, int(body * 1.5), C.INK_LIGHT, True
                )
            if ui.guesses:
                y = screens.paragraph(surface, self.text, ui.guesses, x, y, width, body, C.INK_MUTED)
            y += pad // 2
            for team in ("R", "B"):
                if team not in ui.left:
                    continue
                badge = pygame.Rect(x, y, int(body * 1.6), int(body * 1.3))
                C.identity_badge(surface, badge, team)
                t = self.text.get(f"{label(ui.labels, team)} {ui.left[team]}", body, C.INK_LIGHT, bold=True)
                surface.blit(t, t.get_rect(midleft=(badge.right + pad // 2, badge.centery)))
                y = badge.bottom + pad // 2
            if ui.history:
                y += pad // 2
                t = self.text.get(label(ui.labels, "clues"), body, C.INK_MUTED)
                surface.blit(t, (x, y))
                y += t.get_height() + 2
                small = max(C.MIN_TEXT_PX, int(body * 0.9))
                lines = list(reversed(ui.history))
                for k, line in enumerate(lines):
                    last_row = y + 2 * small * 1.3 > rect.bottom - pad
                    if last_row and k < len(lines) - 1:  # no room for the rest: say how many are left out
                        screens.paragraph(surface, self.text, earlier(len(lines) - k), x, y, width, small,
                                          C.INK_MUTED)
                        break
                    y = screens.paragraph(surface, self.text, line, x, y, width, small, C.INK_LIGHT)

        return draw


def earlier(n: int) -> str:
    """The sign for ``n`` older clues the history has no room for (figures only: the same in every language)."""
    return f"… +{n}"


@lru_cache(maxsize=1024)
def _paragraph_height(text: str, width: int, size: int, bold: bool = False) -> int:
    """The height ``screens.paragraph`` takes for ``text`` wrapped to ``width``."""
    font = pg_font(size, bold)
    lines = wrap(text, width, lambda s: font.size(s)[0]) if text else []
    return sum(int(font.size(line or " ")[1] * 1.05) for line in lines)


@lru_cache(maxsize=1024)
def _text_width(text: str, size: int, bold: bool = False) -> int:
    return int(pg_font(size, bold).size(text)[0])


def classic_cards(view: SharedView | None, ui: ClassicPlayUi) -> tuple[ClassicCard, ...]:
    """The public cards of a classic/pictures view: ``ui.cards`` when given, else read from the view's cards
    (content from ``word``/``picture``/``content``, colour from ``colour``/``color`` when covered)."""
    if ui.cards is not None:
        return ui.cards
    out = []
    for card in tuple(getattr(view, "cards", ()) or ()):
        content = next(
            (
                getattr(card, a)
                for a in ("word", "picture", "content", "label")
                if isinstance(getattr(card, a, None), str)
            ),
            "",
        )
        colour = getattr(card, "colour", None) or getattr(card, "color", None)
        covered = getattr(card, "covered", colour is not None)
        out.append(ClassicCard(content, colour if covered else None))
    return tuple(out)


def _duet_face(
    card: PublicCard, size: tuple[int, int], common: tuple[str, bool, str], reveal: tuple[str, str] | None,
    hot_key: str | None,
) -> C.Face:
    """The face of a Duet card (word, agent, marks...) or a classic one (content, colour once covered)."""
    colour = getattr(card, "colour", None)
    return C.Face(
        content=str(getattr(card, "word", None) or getattr(card, "content", "") or ""),
        size=size,
        orientation=common[0],
        picture=common[1],
        agent=getattr(card, "agent", False),
        marks=tuple(getattr(card, "marks", ())),
        double=getattr(card, "double", False),
        assassin=getattr(card, "assassin", False),
        reveal=reveal,
        key=hot_key,
        key_seat=common[2],
        colour=colour,
        cover=1.0 if colour is not None else 0.0,
    )


def _status_key(view: SharedView | None) -> tuple[object, ...]:
    return tuple(
        getattr(view, a, None)
        for a in (
            "mission",
            "tokens",
            "bank_innocent",
            "bank_closed",
            "taken",
            "agents_found",
            "agents_total",
        )
    )


def _result_of(card: PublicCard) -> str:
    if getattr(card, "agent", False):
        return "agent"
    if getattr(card, "assassin", False):
        return "assassin"
    return "bystander"


def _result_mark(surface: pygame.Surface, rect: pygame.Rect, result: str) -> None:
    """What a guess found, as a shape: agent = green square, assassin = black square with a red cross,
    bystander = tan disc."""
    if result == "agent":
        C.rounded(surface, C.GREEN, rect, 2)
        pygame.draw.rect(surface, C.GREEN_LIGHT, rect.inflate(-rect.width // 2, -rect.height // 2))
    elif result == "assassin":
        C.rounded(surface, C.BLACK, rect, 2)
        pygame.draw.line(surface, C.RED, rect.topleft, rect.bottomright, 2)
        pygame.draw.line(surface, C.RED, rect.bottomleft, rect.topright, 2)
    else:
        pygame.draw.circle(surface, C.TAN, rect.center, rect.width // 2)
        pygame.draw.circle(surface, C.TAN_DARK, rect.center, rect.width // 2, 1)


def _turned(draw: Draw) -> Draw:
    """``draw`` made on a scratch surface and blitted turned half a turn (for the seat across the table)."""

    def turned(surface: pygame.Surface, rect: pygame.Rect) -> None:
        scratch = surface_like(rect.size, surface)
        scratch.fill(C.PANEL)
        draw(scratch, scratch.get_rect())
        surface.blit(turned_half(scratch), rect)

    return turned


def _twice(regions: list[Region], area: pygame.Rect) -> list[Region]:
    """``regions`` (seat A's, in the lower half of ``area``) and their twins for seat B: the same drawings
    turned half a turn, each at the mirror place through the centre of ``area``."""
    out = list(regions)
    for r in regions:
        rect = pygame.Rect(area.left + area.right - r.rect.right, area.top + area.bottom - r.rect.bottom,
                           r.rect.width, r.rect.height)
        out.append(Region(r.name + "_B", rect, r.key, _turned(r.draw)))
    return out


def _panel_fill(surface: pygame.Surface, rect: pygame.Rect) -> None:
    surface.fill(C.PANEL, rect)


def _load_bundled_picture(picture_id: str) -> pygame.Surface | None:
    try:
        path = picture_path(picture_id)
        with path.open("rb") as fh:
            return pygame.image.load(fh, "picture.png")
    except (KeyError, OSError, ValueError, pygame.error, ImportError):
        return None


def render_shared(
    surface: pygame.Surface, view: SharedView | None, ui: SharedUi, renderer: SharedRenderer | None = None
) -> list[pygame.Rect]:
    """Draw (view, ui) on ``surface``; returns the dirty rects. Without a ``renderer`` (which keeps caches
    and the last frame) every call is a full redraw: the app should keep one ``SharedRenderer`` for its
    display."""
    if renderer is None:
        return SharedRenderer().full(surface, view, ui)
    return renderer.render(surface, view, ui)


#: Screens drawn as one region (everything but the grids), with the painter of each.
_WHOLE_SCREENS: tuple[tuple[type | tuple[type, ...], Callable[..., None]], ...] = (
    (HotSeatUi, screens.privacy),
    (MenuUi, screens.menu),
    ((SetupUi, SettingsUi), screens.form),
    (PinUi, screens.pin),
    (StatsUi, screens.stats),
    (MapUi, screens.mission_map),
    (AttractUi, screens.attract),
    (MessageUi, screens.message),
    *help_pages.PAGES,  # help, about, confirmation (device/render/help.py)
)


OverItem = tuple[str, int, tuple[int, int, int], bool]


def _over_items(ui: GameOverUi, body: int, width: int, room: int, rows: int, gap: int) -> tuple[list[OverItem], int]:
    """The game-over texts (score, reason, verdict, summary) and their body size: the largest size, from
    ``body`` down to ``MIN_TEXT_PX``, at which they leave ``room`` for ``rows`` lines of the clue history."""
    def items_at(size: int) -> list[OverItem]:
        out: list[OverItem] = []
        if ui.score_line:
            out.append((ui.score_line, int(size * 1.3), C.INK_LIGHT, True))
        out.append((ui.reason, size, C.INK_LIGHT, False))
        if ui.verdict:
            out.append((ui.verdict, size, C.INK_MUTED, False))
        return out + [(line, size, C.INK_MUTED, False) for line in ui.summary]

    for size in range(body, C.MIN_TEXT_PX - 1, -1):
        items = items_at(size)
        need = sum(_paragraph_height(t, width, sz, bold) for t, sz, _, bold in items if t)
        history = rows * pg_font(size).get_linesize() + (gap if rows else 0)
        if need + history <= room:
            return items, size
    return items_at(C.MIN_TEXT_PX), C.MIN_TEXT_PX
