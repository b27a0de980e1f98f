"""Card faces, tokens and icons for the shared display (pygame). Pure drawing helpers; caching lives in
shared.SharedRenderer. Every state has its own shape as well as its colour: agent tile = silhouette,
assassin = crosshair, bystander token = disc with an arrow, closed-face token = disc with a check mark."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from .text import TextCache, ellipsize, note_mark, pg_font, surface_like

Colour = tuple[int, int, int]

#: The smallest text the shared display draws, in pixels of font size (the em): 12 px is 2.3 mm on the
#: official 7" screen at 800x480 (0.193 mm a pixel), a capital about 1.7 mm high; docs/usage.md says so and
#: tests/device/render/test_layout.py holds every screen of ``make docs`` to it.
MIN_TEXT_PX = 12

#: How far a cursor's ring reaches into its card, in px: the ring lies in the gap around the card and over
#: the card's own rim; a card's words keep their ink at least ``WORD_EDGE`` px from the card's edges, so no
#: cursor and no hold progress (drawn on the same ring) ever sits over a word.
RING_IN = 3
WORD_EDGE = RING_IN + 1

BG: Colour = (22, 42, 50)
PANEL: Colour = (31, 56, 66)
PANEL_LINE: Colour = (62, 92, 104)
INK_LIGHT: Colour = (236, 240, 236)
INK_MUTED: Colour = (160, 184, 186)
CARD: Colour = (242, 231, 204)
CARD_BAND: Colour = (228, 214, 182)
CARD_EDGE: Colour = (176, 152, 112)
INK: Colour = (38, 33, 28)
#: The half card of a seat that touched a bystander here (its token's corner): a tan tint, large enough to see
#: from across the table at 800x480 (the token alone is 12 px there), with the ink at 9:1.
TRIED_TINT: Colour = (226, 190, 140)
GREEN: Colour = (58, 146, 64)
GREEN_DARK: Colour = (28, 92, 36)
GREEN_LIGHT: Colour = (196, 236, 190)
TAN: Colour = (214, 168, 104)
TAN_DARK: Colour = (132, 92, 44)
BLACK: Colour = (24, 24, 28)
RED: Colour = (196, 44, 44)
TEAM_RED: Colour = (200, 56, 48)
TEAM_RED_DARK: Colour = (120, 24, 20)
TEAM_BLUE: Colour = (44, 104, 196)
TEAM_BLUE_DARK: Colour = (18, 52, 112)
SEAT_COLOUR: dict[str, Colour] = {"A": (70, 156, 255), "B": (255, 146, 40)}
SEAT_DARK: dict[str, Colour] = {"A": (20, 70, 150), "B": (150, 74, 0)}


@dataclass(frozen=True)
class Face:
    """Everything that decides how one card looks apart from overlays (cursor, hold): the cache key."""

    content: str
    size: tuple[int, int]
    orientation: str = "table"  # "table" | "upright"
    picture: bool = False
    agent: bool = False
    marks: tuple[str, ...] = ()
    double: bool = False
    assassin: bool = False
    reveal: tuple[str, str] | None = None  # (A's identity, B's identity) at game over
    key: str | None = None  # hot-seat: the viewer's identity of this card (G/N/X or R/B/N/X)
    key_seat: str = "A"
    colour: str | None = None  # classic: R/B/N/X once covered
    cover: float = 0.0  # classic duo: the opponent's cover sliding in (0..1)


def rounded(surf: pygame.Surface, colour: Colour, rect: pygame.Rect, radius: int, width: int = 0) -> None:
    pygame.draw.rect(surf, colour, rect, width, border_radius=max(0, radius))


def silhouette(surf: pygame.Surface, colour: Colour, centre: tuple[int, int], size: int) -> None:
    """An agent: head and shoulders."""
    cx, cy = centre
    head = max(2, size // 5)
    pygame.draw.circle(surf, colour, (cx, cy - size // 6), head)
    body = pygame.Rect(0, 0, int(size * 0.75), max(3, size // 2))
    body.midtop = (cx, cy + size // 10)
    pygame.draw.ellipse(surf, colour, body)


def crosshair(surf: pygame.Surface, colour: Colour, centre: tuple[int, int], size: int) -> None:
    """The assassin: a ring with a cross through it."""
    r = max(3, size // 2)
    w = max(2, size // 12)
    pygame.draw.circle(surf, colour, centre, r, w)
    cx, cy = centre
    pygame.draw.line(surf, colour, (cx - r - w, cy), (cx + r + w, cy), w)
    pygame.draw.line(surf, colour, (cx, cy - r - w), (cx, cy + r + w), w)
    pygame.draw.circle(surf, colour, centre, max(2, r // 4))


def check(surf: pygame.Surface, colour: Colour, rect: pygame.Rect, width: int) -> None:
    pts = [
        (rect.left + rect.width * 0.18, rect.top + rect.height * 0.52),
        (rect.left + rect.width * 0.42, rect.top + rect.height * 0.76),
        (rect.left + rect.width * 0.82, rect.top + rect.height * 0.26),
    ]
    pygame.draw.lines(surf, colour, False, pts, max(2, width))


def token(
    surf: pygame.Surface, centre: tuple[int, int], radius: int, face: str, arrow: str | None = None
) -> None:
    """A timer token. face "innocent": tan disc with a person; "closed": green disc with a check; "spent":
    an empty outline; "mark": a bystander token with its arrow ("down" toward A, "up" toward B)."""
    radius = max(4, radius)
    edge = max(1, radius // 7)
    if face == "spent":
        pygame.draw.circle(surf, PANEL_LINE, centre, radius, edge + 1)
        return
    if face == "closed":
        pygame.draw.circle(surf, GREEN, centre, radius)
        pygame.draw.circle(surf, GREEN_DARK, centre, radius, edge)
        box = pygame.Rect(0, 0, radius * 2, radius * 2)
        box.center = centre
        check(surf, INK_LIGHT, box.inflate(-radius // 2, -radius // 2), radius // 4)
        return
    pygame.draw.circle(surf, TAN, centre, radius)
    pygame.draw.circle(surf, TAN_DARK, centre, radius, edge)
    if face == "innocent" or arrow is None:
        silhouette(surf, TAN_DARK, (centre[0], centre[1] + radius // 6), int(radius * 1.1))
        return
    cx, cy = centre
    s = radius * 0.62
    if arrow == "down":
        pts = [(cx - s, cy - s * 0.35), (cx + s, cy - s * 0.35), (cx, cy + s * 0.85)]
    else:
        pts = [(cx - s, cy + s * 0.35), (cx + s, cy + s * 0.35), (cx, cy - s * 0.85)]
    pygame.draw.polygon(surf, INK_LIGHT, pts)
    pygame.draw.polygon(surf, TAN_DARK, pts, max(1, edge))


def identity_badge(surf: pygame.Surface, rect: pygame.Rect, identity: str) -> None:
    """A key identity drawn in a strip: G = green with a dot, X = black with a cross, N = tan with a ring;
    classic R = red with a disc, B = blue with a diamond."""
    r = max(3, min(rect.width, rect.height) // 3)
    c = rect.center
    note_mark(surf, "badge", rect)
    if identity == "G":
        rounded(surf, GREEN, rect, r // 2)
        pygame.draw.circle(surf, INK_LIGHT, c, r)
    elif identity == "X":
        rounded(surf, BLACK, rect, r // 2)
        w = max(2, r // 3)
        pygame.draw.line(surf, INK_LIGHT, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), w)
        pygame.draw.line(surf, INK_LIGHT, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), w)
    elif identity == "R":
        rounded(surf, TEAM_RED, rect, r // 2)
        pygame.draw.circle(surf, INK_LIGHT, c, r)
    elif identity == "B":
        rounded(surf, TEAM_BLUE, rect, r // 2)
        pygame.draw.polygon(
            surf, INK_LIGHT, [(c[0], c[1] - r), (c[0] + r, c[1]), (c[0], c[1] + r), (c[0] - r, c[1])]
        )
    else:
        rounded(surf, CARD_BAND, rect, r // 2)
        pygame.draw.circle(surf, TAN_DARK, c, r, max(1, r // 4))


PictureLoader = Callable[[str, tuple[int, int]], "pygame.Surface | None"]


def card_face(
    face: Face, text: TextCache, pictures: PictureLoader, like: pygame.Surface | None = None
) -> pygame.Surface:
    """The card's own opaque surface (``face.size``), table colour around the rounded corners, in the pixel
    format of ``like`` when given (blitting then is a plain copy)."""
    w, h = face.size
    surf = surface_like((w, h), like)
    surf.fill(BG)
    radius = max(3, min(w, h) // 10)
    body = pygame.Rect(0, 0, w, h)
    covered_colour = _cover_colour(face)
    if covered_colour is not None and face.picture and face.colour is not None and face.cover >= 1.0:
        _covered_picture(surf, face, body, radius, pictures, covered_colour)
        return surf
    if covered_colour is not None and (face.agent or face.assassin or face.cover >= 1.0):
        _tile(surf, face, body, radius, text)
        return surf
    rounded(surf, CARD, body, radius)
    rounded(surf, CARD_EDGE, body, radius, max(1, min(w, h) // 40))
    if face.reveal is not None and not face.picture:
        _reveal(surf, face, body, radius, text, face.reveal)
    elif face.key is not None and not face.picture:
        _reveal(surf, face, body, radius, text, (face.key, face.key))
    elif face.picture:
        tried_tint(surf, face, body)
        _picture(surf, face, body, pictures)
    else:
        _words(surf, face, body, text)
    if face.key is not None and face.picture and face.key != "N":
        _key_frame(surf, face, body, radius)
    if face.reveal is not None and face.picture:
        side = max(10, min(body.size) // 4)
        for identity, corner in (
            (face.reveal[0], pygame.Rect(3, h - side - 3, side, side)),
            (face.reveal[1], pygame.Rect(w - side - 3, 3, side, side)),
        ):
            if identity != "N":
                identity_badge(surf, corner, identity)
    _marks(surf, face, body)
    if covered_colour is not None and face.cover > 0:
        cut = pygame.Rect(0, 0, w, max(1, int(h * face.cover)))
        tile = surface_like((w, h), surf, pygame.SRCALPHA)
        _tile(tile, face, body, radius, text)
        surf.blit(tile, cut, cut)
    return surf


def _covered_picture(surf: pygame.Surface, face: Face, body: pygame.Rect, radius: int, pictures: PictureLoader,
                     colour: Colour) -> None:
    """A covered Pictures card keeps its picture: a veil and a thick frame in the card's colour, and the
    colour's badge in the two corners facing the seats (red disc, blue diamond, tan ring, black cross)."""
    w, h = body.size
    rounded(surf, CARD, body, radius)
    _picture(surf, face, body, pictures)
    veil = pygame.Surface(body.size, pygame.SRCALPHA)
    veil.fill((*colour, 120))
    surf.blit(veil, body)
    rounded(surf, colour, body, radius, max(4, min(w, h) // 9))
    side = max(12, min(w, h) // 4)
    for corner in (pygame.Rect(3, h - side - 3, side, side), pygame.Rect(w - side - 3, 3, side, side)):
        identity_badge(surf, corner, face.colour or "N")


def _cover_colour(face: Face) -> Colour | None:
    if face.agent:
        return GREEN
    if face.assassin:
        return BLACK
    if face.colour is not None:
        return {"R": TEAM_RED, "B": TEAM_BLUE, "N": CARD_BAND, "X": BLACK}.get(face.colour, CARD_BAND)
    return None


def _tile(surf: pygame.Surface, face: Face, body: pygame.Rect, radius: int, text: TextCache) -> None:
    """A covered card: agent tile, assassin, or a classic tile with its team's emblem."""
    w, h = body.size
    twice = face.orientation == "table" and not face.picture
    icon = int(min(w, h) * (0.4 if twice else 0.55))
    centre = (body.centerx, body.centery + h // 12) if twice else body.center
    ink, plate = INK_LIGHT, None
    if face.agent:
        rounded(surf, GREEN, body, radius)
        rounded(surf, GREEN_DARK, body, radius, max(2, min(w, h) // 25))
        silhouette(surf, GREEN_DARK, (centre[0], centre[1] - h // 12), icon)
        ink, plate = AGENT_LABEL
    elif face.assassin or face.colour == "X":
        rounded(surf, BLACK, body, radius)
        crosshair(surf, RED, (centre[0], centre[1] - h // 12), int(icon * 0.8))
        ink = (230, 120, 120)
    elif face.colour == "R":
        rounded(surf, TEAM_RED, body, radius)
        rounded(surf, TEAM_RED_DARK, body, radius, max(2, min(w, h) // 25))
        pygame.draw.circle(surf, TEAM_RED_DARK, (centre[0], centre[1] - h // 12), icon // 3)
        plate = TEAM_RED_DARK
    elif face.colour == "B":
        rounded(surf, TEAM_BLUE, body, radius)
        rounded(surf, TEAM_BLUE_DARK, body, radius, max(2, min(w, h) // 25))
        r = icon // 3
        cx, cy = centre[0], centre[1] - h // 12
        pygame.draw.polygon(surf, TEAM_BLUE_DARK, [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)])
        plate = TEAM_BLUE_DARK
    else:  # a bystander: tan (the bystander tokens' colour), not the beige of a card still in play
        rounded(surf, TAN, body, radius)
        rounded(surf, TAN_DARK, body, radius, max(2, min(w, h) // 25))
        silhouette(surf, TAN_DARK, (centre[0], centre[1] - h // 12), icon)
        ink = INK
    if not face.picture:
        covered_labels(surf, face, text, ink, plate)


#: Label ink and plate of a covered agent's tile (the shared renderer labels its cached blank tile with them).
AGENT_LABEL: tuple[Colour, Colour | None] = (INK_LIGHT, GREEN_DARK)


def covered_labels(surf: pygame.Surface, face: Face, text: TextCache, ink: Colour,
                   plate: Colour | None = None) -> None:
    """The word of a covered card, small at the bottom edge for seat A and, in "table" orientation, turned
    half a turn at the top edge for seat B (at least ``MIN_TEXT_PX``); on a ``plate`` of the tile's dark tone
    where the tile itself is too light for the ink (contrast at least 4.5:1, WCAG AA)."""
    if not face.content:
        return
    w, h = face.size
    small = max(MIN_TEXT_PX, h // 6)
    edge = max(4, h // 14)  # clear of a cursor's frame
    fitted = _fit(face.content, w - 2 * edge - 8, small, bold=False)
    label = text.get(fitted, small, ink)
    spots = [(label, label.get_rect(midbottom=(w // 2, h - edge)))]
    if face.orientation == "table":
        turned = text.get(fitted, small, ink, flip=True)
        spots.append((turned, turned.get_rect(midtop=(w // 2, edge))))
    for surface, rect in spots:
        if plate is not None:
            rounded(surf, plate, rect.inflate(8, 0), max(2, rect.height // 4))
        surf.blit(surface, rect)


def _fit(word: str, width: int, size: int, bold: bool) -> str:
    font = pg_font(size, bold, False)
    return ellipsize(word, width, lambda s: font.size(s)[0])


_WORD_MARGIN = WORD_EDGE  # px kept free at a word's half's outer edge (clear of the cursor's ring)
_WORD_ENDS = RING_IN  # px kept free at a word's ends (its glyphs' side bearings keep the ink off the ring)


def token_reach(face: Face) -> int:
    """How far from the card's edges a bystander token reaches, across and down (a double mistake's second
    token included): the square corner at A's lower right, B's upper left, that words keep clear of."""
    r = _token_radius(face)
    return _token_pad(r) + r + r // 3 + 1


def _word_fits(face: Face, size: int) -> tuple[int, int] | None:
    """(width, height) of the word at ``size`` when one of the two token-clear placements holds it: beside
    the token corner (the half's height, the width less the corner) or over it (the full width, the height of
    the half less the corner); None when neither does."""
    w, h = face.size
    lw, lh = pg_font(size, False, True).size(face.content or " ")
    full_w = w - 2 * _WORD_ENDS
    reach = token_reach(face)
    if face.orientation == "upright":
        tall, short = h - 2 * _WORD_MARGIN, h - 2 * reach
    else:
        half = h // 2
        tall, short = half - _WORD_MARGIN, half - reach
    if (lw <= full_w - reach and lh <= tall) or (lw <= full_w and lh <= short):
        return lw, lh
    return None


def word_size(face: Face) -> int:
    """The font size of a card's word: the largest at which the word fits its half card in a place where a
    bystander token never is, so the size is the same with or without a token. Long words take the whole
    width (a token then sits above or below them), short ones the whole height (a token sits beside them)."""
    _, h = face.size
    for size in range(max(10, h // 2), 5, -1):
        if _word_fits(face, size) is not None:
            return size
    return 6


def word_rects(face: Face, label_size: tuple[int, int]) -> list[tuple[pygame.Rect, bool]]:
    """Where the word's surface(s) of ``label_size`` go on the card: (box, turned for B). Centred in its half,
    and moved only as far as needed to keep clear of the token corner of its seat (aside if it is short
    enough, else up or down)."""
    w, h = face.size
    lw, lh = label_size
    reach = token_reach(face)
    if face.orientation == "upright":
        box = pygame.Rect(0, 0, lw, lh)
        box.center = (w // 2, h // 2)
        if face.marks:
            if lw <= w - 2 * _WORD_ENDS - reach:
                box.right = min(box.right, w - reach)
            else:
                box.bottom = min(box.bottom, h - reach)
                if "B" in face.marks:
                    box.top = max(box.top, reach)
        return [(box, False)]
    half = h // 2
    lower = pygame.Rect(0, 0, lw, lh)  # centred between the half line and the ring's reach
    lower.center = (w // 2, (half + h - _WORD_MARGIN) // 2)
    upper = pygame.Rect(0, 0, lw, lh)
    upper.center = (w // 2, (_WORD_MARGIN + half) // 2)
    beside = lw <= w - 2 * _WORD_ENDS - reach
    if "A" in face.marks:
        if beside:
            lower.right = min(lower.right, w - reach)
        else:
            lower.bottom = min(lower.bottom, h - reach)
    if "B" in face.marks:
        if beside:
            upper.left = max(upper.left, reach)
        else:
            upper.top = max(upper.top, reach)
    return [(lower, False), (upper, True)]


def tried_tint(surf: pygame.Surface, face: Face, body: pygame.Rect) -> None:
    """The half card of each seat that touched a bystander here tinted tan (the lower half for A, the upper for
    B; the whole card on a box set upright): a mark as large as the word's half, where the token is small."""
    if not face.marks:
        return
    w, h = body.size
    half = h // 2
    inset = (-max(4, w // 20), -max(4, h // 14))
    if face.orientation == "upright":
        spots = [body]
    else:
        spots = [r for seat, r in (("B", pygame.Rect(0, 0, w, half)), ("A", pygame.Rect(0, half, w, h - half)))
                 if seat in face.marks]
    for rect in spots:
        tint = rect.inflate(*inset)
        pygame.draw.rect(surf, TRIED_TINT, tint, border_radius=max(2, h // 16))
        note_mark(surf, "tint", tint)


def _words(surf: pygame.Surface, face: Face, body: pygame.Rect, text: TextCache) -> None:
    w, h = body.size
    size = word_size(face)
    if face.orientation == "upright":
        tried_tint(surf, face, body)
        label = text.get(face.content, size, INK, condensed=True)
        surf.blit(label, word_rects(face, label.get_size())[0][0])
        return
    half = h // 2
    # seat B's half is set off by a band's outline only, so its word has the same ink on the same card colour
    # as seat A's (13:1 both, WCAG AAA); a seat's half where it touched a bystander is tinted tan
    inset = (-max(4, w // 20), -max(4, h // 14))
    tried_tint(surf, face, body)
    pygame.draw.rect(surf, CARD_EDGE, pygame.Rect(0, 0, w, half).inflate(*inset), max(1, h // 50),
                     border_radius=max(2, h // 16))
    upright = text.get(face.content, size, INK, condensed=True)
    flipped = text.get(face.content, size, INK, condensed=True, flip=True)
    (lower, _), (upper, _) = word_rects(face, upright.get_size())
    surf.blit(upright, lower)
    surf.blit(flipped, upper)


HALF_COLOUR = {
    "G": (GREEN, INK_LIGHT),
    "X": (BLACK, INK_LIGHT),
    "N": (CARD, INK),
    "R": (TEAM_RED, INK_LIGHT),
    "B": (TEAM_BLUE, INK_LIGHT),
}


def _reveal(
    surf: pygame.Surface, face: Face, body: pygame.Rect, radius: int, text: TextCache, sides: tuple[str, str]
) -> None:
    """Game over with the keys shown: the lower half takes seat A's colour for this card, the upper half
    seat B's (green agent, black assassin, plain bystander), each with its badge shape at the end away from
    the seat's bystander token corner; the word as large as the half holds clear of the badge and tokens."""
    w, h = body.size
    half = h // 2
    inset = max(2, min(w, h) // 30)
    tokens = token_boxes(face, body)
    for identity, rect, flip in (
        (sides[1], pygame.Rect(0, 0, w, half), True),
        (sides[0], pygame.Rect(0, half, w, h - half), False),
    ):
        colour, ink = HALF_COLOUR.get(identity, (CARD, INK))
        inner = rect.inflate(-2 * inset, -2 * inset)
        rounded(surf, colour, inner, radius // 2)
        size, spot, badge = reveal_layout(face.content, inner, inset, identity != "N", flip,
                                          [t for t in tokens if t.colliderect(inner)])
        if badge is not None:  # a bystander half stays plain: only agents and assassins carry a badge
            identity_badge(surf, badge, identity)
        # seat B's half reads turned for B across a table; on a box read one way (upright, a remote box) upright
        label = text.get(face.content, size, ink, condensed=True, flip=flip and face.orientation == "table")
        surf.blit(label, label.get_rect(center=spot.center))


def reveal_layout(word: str, inner: pygame.Rect, inset: int, badged: bool, flip: bool,
                  obstacles: list[pygame.Rect]) -> tuple[int, pygame.Rect, pygame.Rect | None]:
    """(font size, the word's box, the badge's box or None) of one half of a revealed card: the largest size
    at which the word's box fits the half (``inner`` less ``inset``) clear of the bystander tokens there
    (``obstacles``) and of the badge. The badge is as large as that size allows, from its full size (62 % of
    the half's height) down to two thirds of it; only a word that would not fit at ``MIN_TEXT_PX`` beside
    such a badge gets a smaller one (down to 8 px). The badge sits at the left end of A's half, the right end
    of B's (``flip``), away from each seat's token corner."""
    area = inner.inflate(-2 * inset, -inset)
    full = max(8, int(inner.height * 0.62))
    tiers: list[list[pygame.Rect | None]] = [[None]]
    if badged:
        least = min(full, max(MIN_TEXT_PX, full * 2 // 3))
        tiers = [[_badge_box(inner, inset, side, flip) for side in range(full, least - 1, -1)],
                 [_badge_box(inner, inset, side, flip) for side in range(least - 1, 7, -1)]]
    sizes = [(size, pg_font(size, False, True).size(word or " "))
             for size in range(max(10, inner.height + inset), MIN_TEXT_PX - 1, -1)]
    for badges in tiers:
        rooms = [_free_rects(area, [o.inflate(2 * inset, 2 * inset) for o in
                                    [*obstacles, *([b] if b is not None else [])]]) for b in badges]
        for size, (lw, lh) in sizes:
            for badge, free in zip(badges, rooms, strict=True):
                fits = [r for r in free if lw <= r.width and lh <= r.height]
                if fits:
                    room = max(fits, key=lambda r: (r.width * r.height, -abs(r.centerx - area.centerx)))
                    spot = pygame.Rect(0, 0, lw, lh)
                    spot.center = room.center
                    return size, spot, badge
    spot = pygame.Rect(0, 0, *sizes[-1][1])  # too long for any room: the smallest size, centred
    spot.center = area.center
    return MIN_TEXT_PX, spot, tiers[-1][-1] if tiers[-1] else None


def _badge_box(inner: pygame.Rect, inset: int, side: int, flip: bool) -> pygame.Rect:
    badge = pygame.Rect(0, 0, side, side)
    badge.center = (inner.left + side // 2 + inset * 2, inner.centery)
    if flip:
        badge.center = (inner.right - side // 2 - inset * 2, inner.centery)
    return badge


def _free_rects(area: pygame.Rect, obstacles: list[pygame.Rect]) -> list[pygame.Rect]:
    """The largest rectangles of ``area`` that meet none of ``obstacles`` (a few rectangles): every
    rectangle spanned by the area's and the obstacles' edges that meets none, less those inside another."""
    xs = sorted({area.left, area.right, *(x for o in obstacles for x in (o.left, o.right)
                                          if area.left < x < area.right)})
    ys = sorted({area.top, area.bottom, *(y for o in obstacles for y in (o.top, o.bottom)
                                          if area.top < y < area.bottom)})
    found = [pygame.Rect(x0, y0, x1 - x0, y1 - y0)
             for i, x0 in enumerate(xs) for x1 in xs[i + 1:] for j, y0 in enumerate(ys) for y1 in ys[j + 1:]]
    clear = [r for r in found if r.collidelist(obstacles) < 0]
    return [r for r in clear if not any(o != r and o.contains(r) for o in clear)]


def _picture(surf: pygame.Surface, face: Face, body: pygame.Rect, pictures: PictureLoader) -> None:
    """The card's picture: on a table twice, side by side, upright on the left for seat A and turned half a turn
    on the right, which is seat B's left across the table (each seat reads its own copy the right way up, as
    every word is printed twice); on a box set upright once, in the middle."""
    twice = face.orientation == "table"
    spots = ([(body.left + body.width // 4, body.centery), (body.right - body.width // 4, body.centery)]
             if twice else [body.center])
    room = min(body.width // 2, body.height) if twice else min(body.width, body.height)
    side = int(room * (0.9 if twice else 0.86))
    pic = pictures(face.content, (side, side))
    if pic is None:
        pygame.draw.line(surf, CARD_EDGE, body.topleft, body.bottomright, 2)
        return
    for k, centre in enumerate(spots):
        shown = pygame.transform.rotate(pic, 180) if k == 1 else pic
        rect = shown.get_rect(center=centre)
        surf.blit(shown, rect)
        note_mark(surf, "picture turned" if k == 1 else "picture", rect)


def _token_radius(face: Face) -> int:
    """A bystander token on a card: small, in the corner of the seat that guessed (the word keeps clear)."""
    w, h = face.size
    return max(5, int(min(h * 0.085, w * 0.06)))


def _token_pad(r: int) -> int:
    """Distance from the card's edges to a bystander token's centre: the token sits in the corner, just
    inside the cursor's ring."""
    return r + RING_IN


def token_boxes(face: Face, body: pygame.Rect) -> list[pygame.Rect]:
    """The boxes of the bystander tokens drawn on ``face`` (see ``_marks``)."""
    return [pygame.Rect(c[0] - r, c[1] - r, 2 * r, 2 * r) for c, r, _ in _token_spots(face, body)]


def _token_spots(face: Face, body: pygame.Rect) -> list[tuple[tuple[int, int], int, str]]:
    """(centre, radius, arrow) of each bystander token of ``face``, in drawing order: toward A on the lower
    right, toward B on the upper left; a double mistake's second token stacked toward the card's middle."""
    r = _token_radius(face)
    pad = _token_pad(r)
    spots = []
    for seat in face.marks:
        if seat == "A":
            centre, arrow = (body.right - pad, body.bottom - pad), "down"
        else:
            centre, arrow = (body.left + pad, body.top + pad), "up"
        if face.double:
            third = r // 3  # inside the token corner
            step = -third if arrow == "down" else third
            spots.append(((centre[0] + step, centre[1] + step), r, arrow))
        spots.append((centre, r, arrow))
    return spots


def _marks(surf: pygame.Surface, face: Face, body: pygame.Rect) -> None:
    """Bystander tokens: toward A (bottom of the screen) on the lower right, toward B on the upper left,
    each arrow pointing at the seat that guessed; a double mistake shows two stacked tokens."""
    if not face.marks:
        return
    if len(face.marks) == 2:
        veil = pygame.Surface(body.size, pygame.SRCALPHA)
        veil.fill((*TAN, 110))
        surf.blit(veil, body)
    for centre, r, arrow in _token_spots(face, body):
        token(surf, centre, r, "mark", arrow)
        note_mark(surf, "token", pygame.Rect(centre[0] - r, centre[1] - r, 2 * r, 2 * r))


def _key_frame(surf: pygame.Surface, face: Face, body: pygame.Rect, radius: int) -> None:
    """Hot-seat key display: a thick frame and a corner badge for the viewer's own identity of the card."""
    colour = {"G": GREEN, "X": BLACK, "R": TEAM_RED, "B": TEAM_BLUE}.get(face.key or "", CARD_EDGE)
    thick = max(4, min(body.size) // 9)
    rounded(surf, colour, body, radius, thick)
    side = max(10, min(body.size) // 4)
    corner = pygame.Rect(0, 0, side, side)
    corner.bottomright = (body.right - thick, body.bottom - thick)
    if face.key_seat == "B" and face.orientation == "table":
        corner.topleft = (body.left + thick, body.top + thick)
    identity_badge(surf, corner, face.key or "N")


def ring(card: pygame.Rect, out: int) -> tuple[pygame.Rect, int, int]:
    """(outer rect, thickness, corner radius) of the ring around ``card``: ``out`` px into the gap around the
    card, ``RING_IN`` px onto the card."""
    radius = max(3, min(card.size) // 10)
    return card.inflate(2 * out, 2 * out), out + RING_IN, radius + out


def cursor(surf: pygame.Surface, card: pygame.Rect, seat: str, out: int, quiet: bool = False) -> None:
    """A seat's cursor: a ring around the card, clear of its words (in the gap around the card and on the
    card's rim). Seat A: a solid ring; seat B: a dashed ring (two cursors on one card: B's dashes over A's
    ring show both). ``quiet`` (the seat waiting while the other guesses): a thinner ring in the seat's dark
    colour, so the active guesser's cursor stands out."""
    colour = SEAT_DARK.get(seat, INK_MUTED) if quiet else SEAT_COLOUR.get(seat, INK_LIGHT)
    frame, thick, radius = ring(card, out)
    if quiet:  # astride the card's edge, so the dark colour shows on the card and on the table
        frame, thick, radius = ring(card, max(1, out // 2))
        thick -= 1
    for strip in _strips(frame, thick):
        note_mark(surf, "frame", strip)
    if seat == "A":
        _ring(surf, colour, frame, radius, thick)
        return
    for dash in _dashes(frame, thick):
        pygame.draw.rect(surf, colour, dash)


def _ring(surf: pygame.Surface, colour: tuple[int, ...], frame: pygame.Rect, radius: int, thick: int) -> None:
    """A ring ``thick`` px wide inside ``frame``: rounded outside, square inside (a rounded inner edge would
    reach into the card's corners, nearer its words than the ring's width)."""
    shape = pygame.Surface(frame.size, pygame.SRCALPHA)
    rounded(shape, colour, shape.get_rect(), radius)  # type: ignore[arg-type]
    shape.fill((0, 0, 0, 0), shape.get_rect().inflate(-2 * thick, -2 * thick))
    surf.blit(shape, frame)


def _dashes(frame: pygame.Rect, thick: int) -> list[pygame.Rect]:
    """Seat B's dashed ring: dashes along the four edges of ``frame``, ``thick`` px wide, a dash on every
    corner."""
    dash = max(6, thick * 2)
    out: list[pygame.Rect] = []
    for length, horizontal in ((frame.width, True), (frame.height, False)):
        n = max(1, round((length - dash) / (2 * dash)))  # dash, gap, dash, ... with dashes at both ends
        step = (length - dash) / n
        for k in range(n + 1):
            a = int(round(k * step))
            if horizontal:
                out += [pygame.Rect(frame.left + a, frame.top, dash, thick),
                        pygame.Rect(frame.left + a, frame.bottom - thick, dash, thick)]
            else:
                out += [pygame.Rect(frame.left, frame.top + a, thick, dash),
                        pygame.Rect(frame.right - thick, frame.top + a, thick, dash)]
    return out


def _strips(frame: pygame.Rect, thick: int) -> list[pygame.Rect]:
    """The four edges of a frame ``thick`` px wide: top, bottom, left, right."""
    return [pygame.Rect(frame.left, frame.top, frame.width, thick),
            pygame.Rect(frame.left, frame.bottom - thick, frame.width, thick),
            pygame.Rect(frame.left, frame.top, thick, frame.height),
            pygame.Rect(frame.right - thick, frame.top, thick, frame.height)]


def hold(surf: pygame.Surface, card: pygame.Rect, seat: str, fraction: float, out: int) -> None:
    """Hold-to-confirm on a card: the holding seat's ring turns into a progress track, the seat's dark colour
    swept over by its bright colour from the middle of the seat's own edge, both ways round the card, until
    the two ends meet at the far edge; drawn on the cursor's ring, so both copies of the word stay clear."""
    fraction = min(max(fraction, 0.0), 1.0)
    if fraction <= 0:
        return
    frame, thick, radius = ring(card, out)
    for strip in _strips(frame, thick):
        note_mark(surf, "hold", strip)
    _ring(surf, SEAT_DARK.get(seat, BLACK), frame, radius, thick)
    lit = pygame.Surface(frame.size, pygame.SRCALPHA)
    local = lit.get_rect()
    _ring(lit, (*SEAT_COLOUR.get(seat, INK_LIGHT), 255), local, radius, thick)
    mask = pygame.Surface(frame.size, pygame.SRCALPHA)
    mask.fill((255, 255, 255, 0))
    pygame.draw.polygon(mask, (255, 255, 255, 255), _sweep(local, seat, fraction))
    lit.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    surf.blit(lit, frame)


def _sweep(rect: pygame.Rect, seat: str, fraction: float) -> list[tuple[float, float]]:
    """The wedge of ``rect`` swept at ``fraction`` of a hold: from the centre out to the middle of the seat's
    edge (A: bottom, B: top), then along the edges both ways round, ``fraction`` of the half perimeter each
    (a pixel beyond ``rect`` on every side, so the ring's outer rows are covered whole)."""
    w, h = rect.width + 2, rect.height + 2
    cx = w / 2
    path: list[tuple[float, float]] = [(cx, h), (w, h), (w, 0), (cx, 0)]  # one way round from the middle of A's edge
    todo = fraction * (w + h)
    right = [path[0]]
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        seg = abs(x1 - x0) + abs(y1 - y0)
        step = min(todo, seg)
        right.append((x0 + (x1 - x0) * step / seg, y0 + (y1 - y0) * step / seg))
        todo -= step
        if todo <= 0:
            break
    left = [(w - x, y) for x, y in right]
    wedge = [(cx, h / 2), *reversed(left), *right[1:]]
    if seat != "A":  # B's edge is the top one: the same sweep turned half a turn
        wedge = [(w - x, h - y) for x, y in wedge]
    return [(x - 1, y - 1) for x, y in wedge]
