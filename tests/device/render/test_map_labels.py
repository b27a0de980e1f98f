"""Mission map (issue 15, item 28): every city's name is drawn nearer its own marker than any other marker,
inside the map, off the markers and off the other names, at 1280x720 and 800x480, in French and English,
whichever city is selected (its name is then bold, so larger)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from device.render import screens
from device.render.models import MapCity, MapUi
from device.render.shared import SharedRenderer
from device.render.text import record_texts
from engine.missions import default_map


def _draw(size: tuple[int, int], language: str, selected: str, monkeypatch: pytest.MonkeyPatch) -> tuple[
        dict[str, Any], list[Any], list[tuple[str, tuple[int, int], tuple[int, int]]]]:
    calls: list[Any] = []
    real = screens.place_map_labels

    def recording(cities: Any, r: int, area: pygame.Rect) -> dict[str, pygame.Rect]:
        out = real(cities, r, area)
        calls.append((list(cities), r, area, out))
        return out

    monkeypatch.setattr(screens, "place_map_labels", recording)
    cities = tuple(MapCity(c.name, c.name, c.turns, c.mistakes, "ticked" if k % 3 == 0 else "playable",
                           pos=(c.x, c.y)) for k, c in enumerate(default_map().cities))
    ui = MapUi("Carte", "", cities, (), selected=selected, language=language)
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, size)
    renderer.full(surface, None, ui)  # type: ignore[arg-type]
    assert len(calls) == 1
    points, r, area, placed = calls[0]
    return {"r": r, "area": area, "placed": placed}, surface.texts, points  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)], ids=["1280x720", "800x480"])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_map_label_is_nearest_its_own_marker(size: tuple[int, int], language: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    names = [c.name for c in default_map().cities]
    assert len(names) >= 10
    for selected in names:
        geometry, texts, points = _draw(size, language, selected, monkeypatch)
        marker = {key: p for key, p, _ in points}
        assert len(marker) == len(names)
        r = geometry["r"]
        boxes = []
        for name in names:
            label = screens.city_label(name, language)
            drawn = [t for t in texts if t.text == label  # the side panel names the selected city too
                     and geometry["area"].colliderect(pygame.Rect(t.box))]
            assert len(drawn) == 1, (selected, label)
            box = pygame.Rect(drawn[0].box)
            key = screens._norm(name)
            assert box == geometry["placed"][key], label
            assert geometry["area"].contains(box), (selected, label, box)
            mine = screens._gap(box, marker[key])
            for other, q in marker.items():
                if other != key:
                    assert screens._gap(box, q) > mine, (size, language, selected, label, other)
                    dot = pygame.Rect(q[0] - r, q[1] - r, 2 * r, 2 * r)
                    assert not box.colliderect(dot), (size, language, selected, label, "covers", other)
            boxes.append((label, box))
        for i, (a, ra) in enumerate(boxes):
            for b, rb in boxes[i + 1:]:
                assert not ra.colliderect(rb), (size, language, selected, a, b)


def test_french_and_english_names_differ_where_they_should() -> None:
    assert screens.city_label("London", "fr") == "Londres"
    assert screens.city_label("London", "en") == "London"
