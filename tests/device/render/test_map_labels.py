"""Mission map (issue 15, item 28; issue 27, Europe at 800x480): every city's mark and name read as a player reads
them, at 1280x720 and 800x480, in every language of the box (the names' lengths differ), whichever city is
chosen (its name is then bold, so larger, and its mark has a ring round it):

- no mark touches another mark, nor the ring round the chosen one (Monte-Carlo, Vatican and Prague touched);
- every name is inside the map and covers no mark (its own included, and the chosen city's ring) and no other
  name, nor runs into one on its line;
- every name either sits beside its own mark, nearer it than any other mark, or is joined to it by a leader line
  drawn from its mark's rim to its box, which passes over no other mark nor name and crosses no other leader.

The geometry is read from what the renderer hands ``place_map_labels`` (the marks' centres and the names'
sizes) and what it draws (the names' boxes from the recording surface, the leader lines through
``screens.map_leader``), not from the placement's own rules."""

from __future__ import annotations

import math
from typing import Any

import pygame
import pytest

from device.render import screens
from device.render.models import MapCity, MapUi
from device.render.shared import SharedRenderer
from device.render.text import record_texts
from engine.languages import CODES
from engine.missions import default_map

SIZES = [(1280, 720), (800, 480)]
NAMES = [c.name for c in default_map().cities]
#: The crowded cities (Europe), each chosen in every language; every city is chosen in French and English.
CROWDED = ["Prague", "Monte Carlo", "Vatican", "Paris", "Madrid", "Berlin", "London"]


def _draw(size: tuple[int, int], language: str, selected: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    calls: list[Any] = []
    drawn: list[tuple[tuple[int, int], tuple[int, int]]] = []
    real = screens.place_map_labels

    def recording(cities: Any, r: int, area: pygame.Rect, *args: Any, **kwargs: Any) -> dict[str, pygame.Rect]:
        out = real(cities, r, area, *args, **kwargs)
        calls.append((list(cities), r, area, out))
        return out

    monkeypatch.setattr(screens, "place_map_labels", recording)
    line = getattr(screens, "map_leader", None)
    if line is not None:
        def leader(surface: pygame.Surface, a: tuple[int, int], b: tuple[int, int], *args: Any) -> None:
            drawn.append((a, b))
            line(surface, a, b, *args)

        monkeypatch.setattr(screens, "map_leader", leader)
    cities = tuple(MapCity(c.name, c.name, c.turns, c.mistakes, ("ticked", "playable", "locked")[k % 3],
                           pos=(c.x, c.y)) for k, c in enumerate(default_map().cities))
    ui = MapUi("Carte", "", cities, (), selected=selected, language=language)
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, size)
    renderer.full(surface, None, ui)  # type: ignore[arg-type]
    assert len(calls) == 1
    points, r, area, placed = calls[0]
    return {"r": r, "area": area, "placed": placed, "marks": {key: p for key, p, _ in points},
            "texts": surface.texts, "leaders": drawn}  # type: ignore[attr-defined]


def _gap(rect: pygame.Rect, p: tuple[int, int]) -> float:
    dx = max(rect.left - p[0], 0, p[0] - rect.right + 1)
    dy = max(rect.top - p[1], 0, p[1] - rect.bottom + 1)
    return math.hypot(dx, dy)


def _near_line(p: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> float:
    length = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
    t = 0.0 if not length else max(0.0, min(1.0, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1]))
                                             / length))
    return math.hypot(p[0] - a[0] - t * (b[0] - a[0]), p[1] - a[1] - t * (b[1] - a[1]))


def _crossing(one: Any, other: Any) -> bool:
    def side(a: Any, b: Any, c: Any) -> int:
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (cross > 0) - (cross < 0)

    (a, b), (c, d) = one, other
    return side(a, b, c) * side(a, b, d) <= 0 and side(c, d, a) * side(c, d, b) <= 0


def _marks_apart(marks: dict[str, Any], r: int, chosen: str) -> list[str]:
    ring = r + max(4, r // 2)  # the chosen mark's ring (screens._city_marker)
    keys = sorted(marks)
    return [f"the marks of {a} and {b} touch ({math.dist(marks[a], marks[b]):.1f} px apart)"
            for i, a in enumerate(keys) for b in keys[i + 1:]
            if math.dist(marks[a], marks[b]) <= (ring if chosen in (a, b) else r) + r]


def _boxes(g: dict[str, Any], language: str, selected: str) -> dict[str, pygame.Rect]:
    """Each city's name as drawn on the map (the side panel names the chosen city too: outside the map)."""
    boxes: dict[str, pygame.Rect] = {}
    for name in NAMES:
        key, label = screens._norm(name), screens.city_label(name, language)
        drawn = [pygame.Rect(t.box) for t in g["texts"]
                 if t.text == label and g["area"].colliderect(pygame.Rect(t.box))]
        assert len(drawn) == 1, (selected, label)
        assert drawn[0] == g["placed"][key], label
        boxes[key] = drawn[0]
    return boxes


def _names(g: dict[str, Any], boxes: dict[str, pygame.Rect], chosen: str) -> list[str]:
    r, marks = g["r"], g["marks"]
    ring = r + max(4, r // 2)
    out: list[str] = []
    for key, box in boxes.items():
        if not g["area"].contains(box):
            out.append(f"{key}'s name leaves the map")
        out += [f"{key}'s name covers the mark of {other}" for other, p in marks.items()
                if _gap(box, p) <= (ring if other == chosen else r)]
        # (side by side, at least half a radius apart: "Los Alamos Washington DC" read as one name)
        out += [f"the names of {key} and {other} overlap or run into one" for other, box2 in boxes.items()
                if other > key and box.inflate(r, 0).colliderect(box2)]
        own = _gap(box, marks[key])
        beside = own <= 3 * r + 2 and all(_gap(box, q) > own for k, q in marks.items() if k != key)
        joined = any(math.dist(a, marks[key]) <= r + 2 and _gap(box, b) <= 1.5 for a, b in g["leaders"])
        if not beside and not joined:
            out.append(f"{key}'s name is away from its mark ({own:.0f} px, or nearer another) with no leader")
    return out


def _leaders(g: dict[str, Any], boxes: dict[str, pygame.Rect]) -> list[str]:
    r, marks, lines = g["r"], g["marks"], g["leaders"]
    out: list[str] = []
    for n, (a, b) in enumerate(lines):
        out += [f"a leader passes over the mark of {key}" for key, p in marks.items()
                if math.dist(a, p) > r + 2 and _near_line(p, a, b) <= r]
        out += [f"a leader passes over the name of {key}" for key, box in boxes.items()
                if _gap(box, b) > 1.5 and box.clipline(a, b)]
        out += [f"two leaders cross at {a}" for other in lines[n + 1:] if _crossing((a, b), other)]
    return out


def _problems(g: dict[str, Any], language: str, selected: str) -> list[str]:
    chosen = screens._norm(selected)
    boxes = _boxes(g, language, selected)
    return _marks_apart(g["marks"], g["r"], chosen) + _names(g, boxes, chosen) + _leaders(g, boxes)


@pytest.mark.parametrize("size", SIZES, ids=["1280x720", "800x480"])
@pytest.mark.parametrize("language", CODES)
def test_every_mark_and_name_of_the_map_reads_as_its_own(size: tuple[int, int], language: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(NAMES) >= 10 and set(CROWDED) <= set(NAMES)
    problems: list[str] = []
    for selected in NAMES if language in ("fr", "en") else CROWDED:
        g = _draw(size, language, selected, monkeypatch)
        assert len(g["marks"]) == len(NAMES)
        problems += [f"{selected} chosen: {p}" for p in _problems(g, language, selected)]
    assert problems == [], "\n".join(problems[:30]) + f"\n({len(problems)} problems)"


def test_french_and_english_names_differ_where_they_should() -> None:
    assert screens.city_label("London", "fr") == "Londres"
    assert screens.city_label("London", "en") == "London"
