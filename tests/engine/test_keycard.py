from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.errors import BadKey
from engine.keycard import TEMPLATE, parse_key, random_key


def test_random_key_follows_template_for_every_seed() -> None:
    for seed in range(2000):
        key = random_key(random.Random(seed))
        assert Counter(zip(key.a, key.b, strict=True)) == Counter(TEMPLATE)
        assert key.a.count("G") == key.b.count("G") == 9
        assert key.a.count("X") == key.b.count("X") == 3
        assert len(key.greens()) == 15


def test_random_key_is_seeded_not_global() -> None:
    random.seed(1)
    a = random_key(random.Random(7))
    random.seed(2)
    b = random_key(random.Random(7))
    assert a == b
    assert random_key(random.Random(8)) != a


def test_random_key_positions_spread_evenly() -> None:
    # Each position should carry each pair about as often as its share of the template (chi-square-ish bound).
    n = 4000
    counts = [Counter() for _ in range(25)]  # type: list[Counter[tuple[str, str]]]
    rng = random.Random(123)
    for _ in range(n):
        key = random_key(rng)
        for i in range(25):
            counts[i][key.pair(i)] += 1
    for i in range(25):
        for pair, k in TEMPLATE.items():
            expected = n * k / 25
            assert abs(counts[i][pair] - expected) < 5 * expected**0.5 + 5, (i, pair, counts[i][pair], expected)


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        ("G" * 25, "G" * 25, "a Duet key card has"),
        ("GGGGGGGGGNNNNNNNNNNNNNXX", "GGGNNNNNXGGGGGNNNNNNNXGNX", "24 characters"),
        ("GGGGGGGGGNNNNNNNNNNNNNXXQ", "GGGNNNNNXGGGGGNNNNNNNXGNX", "other than G, N, X"),
        ("GGGGGGGGGNNNNNNNNNNNNNXXX", "NGGNNNNNXGGGGGGNNNNNNXGNX", "a Duet key card has"),
        (None, "GGGNNNNNXGGGGGNNNNNNNXGNX", "must be a string"),
    ],
)
def test_parse_key_rejects_with_reason(a: object, b: object, reason: str) -> None:
    with pytest.raises(BadKey, match=reason):
        parse_key(a, b)


def test_parse_key_accepts_template() -> None:
    key = parse_key("GGGGGGGGGNNNNNNNNNNNNNXXX", "GGGNNNNNXGGGGGNNNNNNNXGNX")
    assert key.side("A")[8] == "G" and key.side("B")[8] == "X"
