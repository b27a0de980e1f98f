"""Where the mission map's city marks and names go (``screens.place_map_labels``, ``screens.mission_map``).

The map is a picture of 26 cities of which six sit within a few centimetres in Europe; at 800x480 their marks
touched and their names could be read as a neighbour's (issue 27: Monte-Carlo, Vatican and Prague). So:

- **marks** (``spread_marks``): two marks are at least ``mark_gap(r)`` apart, centre to centre, so that no mark
  touches another, nor the ring round the chosen city; a crowded mark is pushed off its place by the few pixels
  that takes (the map is a drawing, not a survey), inside the map;
- **names** (``place``): every name clear of every mark (its own, and the chosen city's ring, included), of the
  other names and of the lines that join a name to its mark, inside the map. A name sits beside its mark, nearer
  it than any other mark, when such a place is free; else it goes further off, on a free place, joined to its
  mark by a **leader line** (``leaders``) that passes over no other mark, name or leader. The most crowded
  cities are placed first.

Everything here is geometry on the marks' centres and the names' sizes (measured by the caller in the box's
language and font), so it holds for every language and both display sizes."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache

import pygame

Point = tuple[int, int]
#: (a city's key, its mark's centre, its name's size in pixels)
City = tuple[str, Point, tuple[int, int]]
Segment = tuple[Point, Point]


def ring_radius(r: int) -> int:
    """The outer radius of the ring drawn round the chosen city's mark (``screens._city_marker``)."""
    return r + max(4, r // 2)


def mark_gap(r: int) -> int:
    """The least distance between two marks' centres: the chosen ring of one clear of the other's disc."""
    return ring_radius(r) + r + 2


def mark_box(p: Point, r: int, chosen: bool = False) -> pygame.Rect:
    """The square a mark covers (with a pixel of air): its disc, or the ring round the chosen city."""
    reach = ring_radius(r) + 1 if chosen else r + 2
    return pygame.Rect(p[0] - reach, p[1] - reach, 2 * reach, 2 * reach)


# --- marks ---------------------------------------------------------------------------------------------------


def _push(a: list[float], b: list[float], gap: float) -> bool:
    """Push ``a`` and ``b`` apart, half each, to ``gap`` between them; whether they had to move."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d >= gap - 1e-6:
        return False
    if d < 1e-6:  # one on the other: apart side by side
        dx, dy, d = 1.0, 0.0, 1.0
    push = (gap - d) / 2
    a[0], a[1] = a[0] - push * dx / d, a[1] - push * dy / d
    b[0], b[1] = b[0] + push * dx / d, b[1] + push * dy / d
    return True


def _inside(p: list[float], area: pygame.Rect, margin: int) -> None:
    p[0] = min(max(p[0], area.left + margin), area.right - margin)
    p[1] = min(max(p[1], area.top + margin), area.bottom - margin)


def spread_marks(points: Mapping[str, Point], r: int, area: pygame.Rect) -> dict[str, Point]:
    """The marks' centres, each pair at least ``mark_gap(r)`` apart (a crowded pair pushed apart along the line
    between them, as little as that takes), inside ``area``. Marks already apart do not move."""
    return dict(_spread(tuple(sorted(points.items())), r, tuple(area)))


@lru_cache(maxsize=16)
def _spread(points: tuple[tuple[str, Point], ...], r: int, box: tuple[int, int, int, int]) -> tuple[
        tuple[str, Point], ...]:
    area = pygame.Rect(box)
    gap = mark_gap(r) + 0.75  # rounding to pixels never brings two marks under the gap
    where = {k: [float(p[0]), float(p[1])] for k, p in points}
    keys = [k for k, _ in points]
    # the pairs that may come to matter: a crowd spreads by a few gaps at most
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:] if math.dist(where[a], where[b]) < 4 * gap]
    for _ in range(100):
        moved = [_push(where[a], where[b], gap) for a, b in pairs]
        for p in where.values():
            _inside(p, area, r + 2)
        if not any(moved):
            break
    return tuple((k, (round(where[k][0]), round(where[k][1]))) for k in keys)


# --- names ---------------------------------------------------------------------------------------------------


def gap(rect: pygame.Rect, point: Point) -> float:
    """Distance from ``point`` to the nearest point of ``rect``."""
    dx = max(rect.left - point[0], 0, point[0] - rect.right)
    dy = max(rect.top - point[1], 0, point[1] - rect.bottom)
    return math.hypot(dx, dy)


def beside(rect: pygame.Rect, key: str, points: Mapping[str, Point], r: int) -> bool:
    """A name at ``rect`` reads as its own mark's without a line: close to it (at most two radii off its rim)
    and clearly nearer it than any other mark."""
    own = gap(rect, points[key])
    if own > 3 * r + 2:
        return False
    others = (gap(rect, q) for k, q in points.items() if k != key)
    return min(others, default=math.inf) - own > max(2, r // 4)


def leader(rect: pygame.Rect, p: Point, r: int) -> Segment:
    """The line from a mark's rim to the nearest point of its name's box."""
    qx = min(max(p[0], rect.left), rect.right - 1)
    qy = min(max(p[1], rect.top), rect.bottom - 1)
    d = math.hypot(qx - p[0], qy - p[1]) or 1.0
    start = (round(p[0] + (qx - p[0]) * (r + 1) / d), round(p[1] + (qy - p[1]) * (r + 1) / d))
    return start, (qx, qy)


def leaders(placed: Mapping[str, pygame.Rect], points: Mapping[str, Point], r: int) -> dict[str, Segment]:
    """The leader line of every name that is not ``beside`` its mark."""
    return {k: leader(rect, points[k], r) for k, rect in placed.items() if not beside(rect, k, points, r)}


def _distance(p: Point, line: Segment) -> float:
    (ax, ay), (bx, by) = line
    length = (bx - ax) ** 2 + (by - ay) ** 2
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / length))
    return math.hypot(p[0] - ax - t * (bx - ax), p[1] - ay - t * (by - ay))


def _side(a: Point, b: Point, c: Point) -> int:
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (cross > 0) - (cross < 0)


def crosses(one: Segment, other: Segment) -> bool:
    """Two segments cross (or touch)."""
    (a, b), (c, d) = one, other
    return _side(a, b, c) * _side(a, b, d) <= 0 and _side(c, d, a) * _side(c, d, b) <= 0


def hits(line: Segment, rect: pygame.Rect) -> bool:
    return bool(rect.clipline(line[0], line[1]))


def clear_line(line: Segment, key: str, points: Mapping[str, Point], r: int) -> bool:
    """A leader passes over no other mark (a pixel of air round each disc)."""
    return all(_distance(q, line) > r + 2 for k, q in points.items() if k != key)


def _spots(p: Point, size: tuple[int, int], r: int, distances: Iterable[int]) -> list[pygame.Rect]:
    """Places for a name of ``size`` round a mark of radius ``r`` at ``p``, at ``distances`` off its rim: below
    and above (centred, then slid a quarter of its width at a time to either side), right and left (level, then
    half a line up or down), then the corners."""
    w, h = size
    x, y = p
    slides = (0, -w // 4, w // 4, -w // 2, w // 2, -3 * w // 4, 3 * w // 4)
    out = []
    for d in distances:
        places: list[tuple[str, Point]] = []
        for dx in slides:
            places += [("midtop", (x + dx, y + r + d)), ("midbottom", (x + dx, y - r - d))]
        for dy in (0, -h // 2, h // 2):
            places += [("midleft", (x + r + d, y + dy)), ("midright", (x - r - d, y + dy))]
        k = d // 2 + r * 3 // 10  # the corners as far off the rim as the sides
        places += [("topleft", (x + k, y + k)), ("bottomleft", (x + k, y - k)),
                   ("topright", (x - k, y + k)), ("bottomright", (x - k, y - k))]
        for anchor, at in places:
            rect = pygame.Rect(0, 0, w, h)
            setattr(rect, anchor, at)
            out.append(rect)
    return out


def near_distances(r: int) -> tuple[int, ...]:
    return 2, r // 2 + 2, r + 2, 2 * r + 2


def far_distances(r: int) -> tuple[int, ...]:
    return 3 * r + 4, 4 * r + 6, 5 * r + 8, 6 * r + 10, 8 * r + 12, 10 * r + 14


#: One place a name may take: its box, its leader line (None beside its mark), its rank (lower is better).
Option = tuple[pygame.Rect, Segment | None, float]


def _options(key: str, size: tuple[int, int], r: int, area: pygame.Rect, points: Mapping[str, Point],
             chosen: str | None, far: bool = False) -> list[Option]:
    """Every place for ``key``'s name inside the map and clear of every mark, best first: beside its mark (in
    the order of ``_spots``, a wide margin to the other marks first), then further off with a leader that passes
    over no other mark (the shortest first). Only the marks within reach count (the rest can neither be nearer
    nor be crossed); the places are kept per city, and the chosen city's ring is taken off them each time.
    ``far``: the places further off (tried only when none near its mark is free)."""
    p = points[key]
    reach = size[0] + size[1] + 12 * r + 24
    near = tuple(sorted((k, q) for k, q in points.items() if k == key or math.dist(p, q) < reach))
    ring = mark_box(points[chosen], r, True) if chosen in dict(near) else None
    return [o for o in _options_near(key, size, r, tuple(area), near, far)
            if ring is None or not o[0].colliderect(ring)]


@lru_cache(maxsize=512)
def _options_near(key: str, size: tuple[int, int], r: int, box: tuple[int, int, int, int],
                  near: tuple[tuple[str, Point], ...], far: bool) -> tuple[Option, ...]:
    area, points = pygame.Rect(box), dict(near)
    p = points[key]
    blocks = [mark_box(q, r) for q in points.values()]
    out: list[Option] = []
    for n, rect in enumerate(_spots(p, size, r, far_distances(r) if far else near_distances(r))):
        if not area.contains(rect) or rect.collidelist(blocks) >= 0:
            continue
        if beside(rect, key, points, r):
            margin = min((gap(rect, q) for k, q in points.items() if k != key), default=math.inf) - gap(rect, p)
            out.append((rect, None, n if margin >= r else 1000 - margin))
            continue
        line = leader(rect, p, r)
        # off its mark, a name keeps away from the others' too (else it reads as theirs, line or not)
        if clear_line(line, key, points, r) and all(gap(rect, q) > 1.5 * r for k, q in points.items() if k != key):
            out.append((rect, line, 10_000 + math.dist(*line)))
    return tuple(sorted(out, key=lambda o: o[2]))


def name_box(rect: pygame.Rect, r: int) -> pygame.Rect:
    """The room a name keeps round it: ``r`` to either side (two names on one line never run into one, "Los
    Alamos Washington DC"), a pixel above and below."""
    return rect.inflate(2 * r, 2)


def _free(option: Option, placed: Mapping[str, pygame.Rect], lines: Mapping[str, Segment], r: int) -> bool:
    """A place keeps its room from every name placed yet, hits no leader drawn yet, and its own leader hits no
    name and crosses no leader."""
    rect, line, _ = option
    if name_box(rect, r).collidelist(list(placed.values())) >= 0:
        return False
    if any(hits(other, rect) for other in lines.values()):
        return False
    if line is None:
        return True
    return not any(hits(line, other) for other in placed.values()) and not any(
        crosses(line, other) for other in lines.values())


def place(cities: Iterable[City], r: int, area: pygame.Rect, chosen: str | None = None) -> dict[str, pygame.Rect]:
    """Where each city's name goes (key -> box), as the module says; ``chosen``: the key of the city whose mark
    has the ring round it. The names are placed one by one, in a few orders (the most crowded first, then by
    place on the map), and the layout with the fewest names off their marks wins. When no place is free (a map
    far too crowded for its size) a name takes the place that covers the least of the others."""
    return dict(_place(tuple(cities), r, tuple(area), chosen))


#: A layout: the names' boxes, their leaders, and its cost (names with no free place, leaders, their length).
Layout = tuple[dict[str, pygame.Rect], dict[str, Segment], tuple[int, int, float]]


def _take(key: str, size: tuple[int, int], r: int, area: pygame.Rect, points: Mapping[str, Point],
          chosen: str | None, placed: Mapping[str, pygame.Rect], lines: Mapping[str, Segment]) -> tuple[
              Option, bool]:
    """The best free place for ``key``'s name (near its mark, else further off), and whether one was free."""
    for far in (False, True):
        choice = next((o for o in _options(key, size, r, area, points, chosen, far) if _free(o, placed, lines, r)),
                      None)
        if choice is not None:
            return choice, True
    fallback = _options(key, size, r, area, points, chosen) or [
        (rect, None, 0.0) for rect in _spots(points[key], size, r, near_distances(r))]
    return min(fallback, key=lambda o: sum(o[0].clip(t).width * o[0].clip(t).height for t in placed.values())), False


def _layout(order: list[str], sizes: Mapping[str, tuple[int, int]], r: int, area: pygame.Rect,
            points: Mapping[str, Point], chosen: str | None) -> Layout:
    placed: dict[str, pygame.Rect] = {}
    lines: dict[str, Segment] = {}
    missed = 0
    for key in order:
        (rect, line, _), free = _take(key, sizes[key], r, area, points, chosen, placed, lines)
        missed += not free
        placed[key] = pygame.Rect(rect)
        if line is not None:
            lines[key] = line
    return placed, lines, (missed, len(lines), sum(math.dist(*line) for line in lines.values()))


@lru_cache(maxsize=32)
def _place(cities: tuple[City, ...], r: int, box: tuple[int, int, int, int], chosen: str | None) -> tuple[
        tuple[str, pygame.Rect], ...]:
    area = pygame.Rect(box)
    points = {key: p for key, p, _ in cities}
    sizes = {key: size for key, _, size in cities}
    near = {key: sum(o[1] is None for o in _options(key, sizes[key], r, area, points, chosen)) for key in points}
    orders = [
        # the most crowded first (the fewest places beside its mark), those with none last: a leader goes further
        sorted(points, key=lambda k: (near[k] == 0, near[k], k)),
        sorted(points, key=lambda k: (points[k][1], points[k][0], k)),  # top to bottom
        sorted(points, key=lambda k: (points[k][0], points[k][1], k)),  # left to right
        sorted(points, key=lambda k: (-points[k][1], -points[k][0], k)),  # bottom to top
    ]
    best = min((_layout(order, sizes, r, area, points, chosen) for order in orders), key=lambda lay: lay[2])
    return tuple((k, pygame.Rect(best[0][k])) for k, _, _ in cities)
