from __future__ import annotations

import pytest

from engine.missions import BadMap, default_map, parse_map, playable, record_result, tally, ticked

RULES_CITIES = {
    "Prague": (9, 9), "Berlin": (11, 2), "Cairo": (9, 5), "Moscow": (8, 8), "Cape Town": (10, 1),
    "Baghdad": (8, 5), "Dubai": (7, 5), "Sydney": (9, 1), "Singapore": (6, 6), "Mumbai": (6, 5),
    "Yakutsk": (8, 4), "Tokyo": (8, 1), "Shanghai": (7, 4), "Hong Kong": (6, 4), "Bangkok": (7, 7),
    "London": (10, 2), "Montreal": (9, 2), "Los Alamos": (8, 2), "Washington DC": (7, 2), "Vatican": (8, 0),
    "Madrid": (10, 0), "Casablanca": (9, 3), "Bogota": (8, 3), "Rio de Janeiro": (7, 3), "Paris": (11, 0),
    "Monte Carlo": (9, 0),
}
RULES_LINKS = [
    "Prague Berlin", "Prague Cairo", "Prague Moscow", "Moscow Bangkok", "Bangkok Singapore", "Moscow Yakutsk",
    "Yakutsk Shanghai", "Shanghai Hong Kong", "Singapore Hong Kong", "Cairo Baghdad", "Baghdad Dubai",
    "Dubai Mumbai", "Mumbai Singapore", "Cairo Casablanca", "Casablanca Bogota", "Bogota Rio de Janeiro",
    "Cairo Cape Town", "Cape Town Sydney", "Sydney Tokyo", "Shanghai Tokyo", "Berlin London", "London Montreal",
    "Montreal Los Alamos", "Los Alamos Washington DC", "Berlin Paris", "Paris Madrid", "Madrid Monte Carlo",
    "Monte Carlo Vatican",
]


def test_map_has_the_26_cities_of_the_rules() -> None:
    m = default_map()
    assert {c.name: (c.turns, c.mistakes) for c in m.cities} == RULES_CITIES


def test_map_links_are_the_rules_links() -> None:
    m = default_map()
    names = sorted(RULES_CITIES, key=len, reverse=True)

    def split(pair: str) -> frozenset[str]:
        for a in names:
            if pair.startswith(a + " ") and pair[len(a) + 1:] in RULES_CITIES:
                return frozenset((a, pair[len(a) + 1:]))
        raise AssertionError(pair)

    assert m.links == frozenset(split(p) for p in RULES_LINKS)


def test_campaign_prague_opens_the_map() -> None:
    m = default_map()
    assert playable(m, ()) == {"Prague"}
    assert playable(m, (("Prague", False),)) == {"Prague"}
    assert playable(m, (("Prague", True),)) == {"Prague", "Berlin", "Cairo", "Moscow"}


def test_campaign_win_ticks_city_and_opens_neighbours() -> None:
    m = default_map()
    history = record_result((), "Prague", True, m)
    history = record_result(history, "Cairo", False, m)
    assert "Baghdad" not in playable(m, history)
    history = record_result(history, "Cairo", True, m)
    assert ticked(history) == {"Prague", "Cairo"}
    assert {"Baghdad", "Casablanca", "Cape Town"} <= playable(m, history)
    assert tally(history) == {"Prague": (1, 0), "Cairo": (1, 1)}


def test_campaign_locked_city_refused() -> None:
    with pytest.raises(ValueError, match="not playable"):
        record_result((), "Tokyo", True)


def test_city_rules_set_bank() -> None:
    rules = default_map().city("vatican").rules()
    assert rules.tokens == 8 and rules.innocent == 0


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"cities": [{"name": "X", "turns": 12, "mistakes": 0}], "links": []},
        {"cities": [{"name": "X", "turns": 9, "mistakes": 1}], "links": [["X", "Y"]]},
        {"cities": [{"name": "X", "turns": 9, "mistakes": 1}, {"name": "X", "turns": 9, "mistakes": 1}], "links": []},
    ],
)
def test_bad_maps_refused(data: dict[str, object]) -> None:
    with pytest.raises(BadMap):
        parse_map(data)


@pytest.mark.parametrize(("points", "band"), [(0, "keep_practising"), (5, "keep_practising"), (6, "good"),
                                              (8, "good"), (9, "incredible"), (10, "incredible"),
                                              (11, "try_missions"), (23, "try_missions")])
def test_score_verdict_bands(points: int, band: str) -> None:
    # Rules §1 Score: more than 5 is good; 9-10 incredible; more than 10: try the mission map.
    from engine.duet import verdict

    assert verdict(points) == band


def test_rules_refuse_unknown_language() -> None:
    from engine.duet import DuetRules

    with pytest.raises(ValueError, match="language"):
        DuetRules(language="xx")


def test_mission_map_data_names_every_city_in_the_five_languages() -> None:
    import json
    from importlib import resources

    data = json.loads(resources.files("engine").joinpath("data", "missions.json").read_text("utf-8"))
    for language in ("en", "fr", "ro", "de", "it"):
        names = [city["names"][language] for city in data["cities"]]
        assert all(name.strip() == name and name for name in names), language
        assert len(set(names)) == len(names), language
    assert all(city["names"]["en"] == city["name"] for city in data["cities"])
    by_english = {city["name"]: city["names"] for city in data["cities"]}
    assert by_english["London"]["fr"] == "Londres" and by_english["Moscow"]["de"] == "Moskau"
    assert by_english["Cape Town"]["it"] == "Città del Capo" and by_english["Cairo"]["ro"] == "Cairo"
