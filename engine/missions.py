"""The Duet mission map (rules §1 "The mission map", §4): cities, links and campaign logic as pure functions.

The map is data (``engine/data/missions.json``) so that an owner of the printed sheet can load its real lines.
A campaign sheet is a team name plus its history: a tuple of (city, won) results in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .duet import DuetRules


@dataclass(frozen=True)
class City:
    name: str
    turns: int
    mistakes: int
    x: float = 0.5  # position on the drawn map, 0..1
    y: float = 0.5

    def rules(self, **options: Any) -> DuetRules:
        """The rules of this mission: its turns are the bank, its mistakes the innocent-face tokens."""
        return DuetRules(tokens=self.turns, mistakes=self.mistakes, **options)


@dataclass(frozen=True)
class MissionMap:
    name: str
    start: str
    cities: tuple[City, ...]
    links: frozenset[frozenset[str]]

    def city(self, name: str) -> City:
        for c in self.cities:
            if c.name.casefold() == name.casefold():
                return c
        raise KeyError(f"no city {name!r} on the map")

    def neighbours(self, name: str) -> frozenset[str]:
        return frozenset(n for link in self.links if name in link for n in link if n != name)


class BadMap(ValueError):
    """A map file that is not a valid map."""


def parse_map(data: Mapping[str, Any]) -> MissionMap:
    """A map from its JSON form; BadMap with the reason otherwise."""
    try:
        cities = tuple(
            City(str(c["name"]), int(c["turns"]), int(c["mistakes"]), float(c.get("x", 0.5)), float(c.get("y", 0.5)))
            for c in data["cities"]
        )
        names = {c.name for c in cities}
        links = frozenset(frozenset((str(a), str(b))) for a, b in data["links"])
        start = str(data.get("start", cities[0].name))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise BadMap(f"not a mission map: {exc}") from None
    if len(names) != len(cities):
        raise BadMap("a city is listed twice")
    for city in cities:
        if not 1 <= city.turns <= 11 or not 0 <= city.mistakes <= city.turns:
            raise BadMap(f"{city.name}: turns must be 1..11 and mistakes 0..turns")
    for link in links:
        unknown = [n for n in link if n not in names]
        if unknown or len(link) != 2:
            raise BadMap(f"link {sorted(link)} names an unknown city or the same city twice")
    if start not in names:
        raise BadMap(f"start city {start!r} is not on the map")
    return MissionMap(str(data.get("name", "map")), start, cities, links)


def default_map() -> MissionMap:
    text = resources.files("engine").joinpath("data", "missions.json").read_text(encoding="utf-8")
    return parse_map(json.loads(text))


Result = tuple[str, bool]  # (city, won)


def ticked(history: Iterable[Result]) -> frozenset[str]:
    """Cities won at least once: a win ticks its city (rules §1)."""
    return frozenset(city for city, won in history if won)


def playable(mission_map: MissionMap, history: Iterable[Result]) -> frozenset[str]:
    """The start city always; any city linked to a ticked city; ticked cities may be replayed."""
    done = ticked(history)
    open_cities = {mission_map.start} | set(done)
    for city in done:
        open_cities |= mission_map.neighbours(city)
    return frozenset(open_cities)


def record_result(history: tuple[Result, ...], city: str, won: bool,
                  mission_map: MissionMap | None = None) -> tuple[Result, ...]:
    """The sheet's history after a mission; ValueError if the city was not playable."""
    mission_map = mission_map or default_map()
    name = mission_map.city(city).name
    if name not in playable(mission_map, history):
        raise ValueError(f"{name} is not playable yet")
    return history + ((name, won),)


def tally(history: Iterable[Result]) -> dict[str, tuple[int, int]]:
    """Wins and losses per city."""
    out: dict[str, tuple[int, int]] = {}
    for city, won in history:
        w, lost = out.get(city, (0, 0))
        out[city] = (w + 1, lost) if won else (w, lost + 1)
    return out
