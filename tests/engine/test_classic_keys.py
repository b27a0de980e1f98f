"""Key composition of classic Codenames and Pictures (rules §2, §3) for every seed; the duo box's pick."""

from __future__ import annotations

import random

import pytest

from engine.classic import (
    ClassicKey,
    ClassicRules,
    Cover,
    TeamClue,
    TeamGuess,
    TeamPenalty,
    apply_classic,
    composition,
    duo_cover_choice,
    new_classic_game,
    parse_classic_key,
    random_classic_key,
)
from engine.errors import BadKey, WrongPhase

# (kind, pictures_key) -> (starting team, other team, bystanders, assassins), as rules §2 and §3 state them.
EXPECTED = {
    ("classic", "source"): (9, 8, 7, 1),
    ("classic", "printed"): (9, 8, 7, 1),  # pictures_key means nothing for the word game
    ("pictures", "source"): (9, 8, 2, 1),
    ("pictures", "printed"): (8, 7, 4, 1),
}


def _counts(key: ClassicKey) -> tuple[int, int, int, int]:
    other = "B" if key.start == "R" else "R"
    return (key.cards.count(key.start), key.cards.count(other), key.cards.count("N"), key.cards.count("X"))


@pytest.mark.parametrize(("kind", "pictures_key"), sorted(EXPECTED))
def test_random_key_composition_holds_for_every_seed(kind: str, pictures_key: str) -> None:
    wanted = EXPECTED[(kind, pictures_key)]
    starts = set()
    for seed in range(1000):
        key = random_classic_key(random.Random(seed), kind, pictures_key)  # type: ignore[arg-type]
        assert len(key.cards) == sum(wanted) == (25 if kind == "classic" else 20)
        assert set(key.cards) <= set("RBNX")
        assert _counts(key) == key.counts() == wanted, seed  # the starting team has the extra card
        assert parse_classic_key(key.cards, key.start, kind, pictures_key) == key  # type: ignore[arg-type]
        starts.add(key.start)
    assert starts == {"R", "B"}


def test_random_key_is_seeded_and_start_can_be_chosen() -> None:
    a = random_classic_key(random.Random(42))
    assert a == random_classic_key(random.Random(42))
    assert len({random_classic_key(random.Random(s)).cards for s in range(50)}) == 50
    for start in ("R", "B"):
        for seed in range(100):
            key = random_classic_key(random.Random(seed), "pictures", "printed", start=start)  # type: ignore[arg-type]
            assert key.start == start and key.cards.count(start) == 8


def test_composition_table() -> None:
    assert composition("classic") == (9, 8, 7, 1)
    assert composition("pictures") == (9, 8, 2, 1)  # the source text's key is the default
    assert composition("pictures", "printed") == (8, 7, 4, 1)
    with pytest.raises(ValueError):
        composition("pictures", "other")


@pytest.mark.parametrize(
    ("cards", "start", "kind", "pictures_key", "why"),
    [
        ("R" * 8 + "B" * 9 + "N" * 7 + "X", "R", "classic", "source", "starter has the extra"),
        ("R" * 9 + "B" * 8 + "N" * 6 + "XX", "R", "classic", "source", "one assassin"),
        ("R" * 9 + "B" * 8 + "N" * 8, "R", "classic", "source", "no assassin"),
        ("R" * 9 + "B" * 8 + "N" * 7, "R", "classic", "source", "24 cards"),
        ("R" * 9 + "B" * 8 + "N" * 7 + "XN", "R", "classic", "source", "26 cards"),
        ("R" * 9 + "B" * 8 + "N" * 7 + "G", "R", "classic", "source", "a letter that is no colour"),
        ("r" * 9 + "b" * 8 + "n" * 7 + "x", "R", "classic", "source", "lower case"),
        ("R" * 9 + "B" * 8 + "N" * 7 + "X", "G", "classic", "source", "no such team"),
        ("R" * 9 + "B" * 8 + "N" * 7 + "X", None, "classic", "source", "no starting team"),
        ("R" * 9 + "B" * 8 + "N" * 2 + "X", "B", "pictures", "source", "9 for the starter, B"),
        ("R" * 9 + "B" * 8 + "N" * 2 + "X", "R", "pictures", "printed", "printed key is 8/7/4/1"),
        ("R" * 8 + "B" * 7 + "N" * 4 + "X", "R", "pictures", "source", "source key is 9/8/2/1"),
        ("R" * 9 + "B" * 8 + "N" * 7 + "X", "R", "pictures", "source", "25 cards for a 20-card game"),
        (list("R" * 9 + "B" * 8 + "N" * 7 + "X"), "R", "classic", "source", "not a string"),
    ],
)
def test_parse_key_refuses_bad_compositions(cards: object, start: object, kind: str, pictures_key: str,
                                            why: str) -> None:
    with pytest.raises(BadKey):
        parse_classic_key(cards, start, kind, pictures_key)  # type: ignore[arg-type]


def test_parse_key_accepts_both_starters() -> None:
    assert parse_classic_key("B" * 9 + "R" * 8 + "N" * 7 + "X", "B", "classic").start == "B"
    printed = parse_classic_key("X" + "N" * 4 + "R" * 7 + "B" * 8, "B", "pictures", "printed")
    assert printed.counts() == (8, 7, 4, 1)


def test_new_game_refuses_a_key_of_another_game() -> None:
    words = [f"w{i}" for i in range(25)]
    pictures = [f"p{i:03d}" for i in range(1, 21)]
    source = random_classic_key(random.Random(1), "pictures", "source")
    with pytest.raises(BadKey):
        new_classic_game(pictures, source, ClassicRules(kind="pictures", pictures_key="printed"))
    with pytest.raises(BadKey):
        new_classic_game(words, ClassicKey("R" * 8 + "B" * 9 + "N" * 7 + "X", "R"))
    with pytest.raises(ValueError):  # 25 cards for a 20-card game
        new_classic_game(words, source, ClassicRules(kind="pictures"))
    with pytest.raises(ValueError):  # duplicate cards
        new_classic_game(["same"] * 25, random_classic_key(random.Random(1)))
    state = new_classic_game(pictures, source, ClassicRules(kind="pictures"))
    assert state.turn == source.start and state.phase == "clue"  # rules §2: the starting team plays first


def test_rules_grid_sizes() -> None:
    assert (ClassicRules().columns, ClassicRules().rows, ClassicRules().size) == (5, 5, 25)
    pictures = ClassicRules(kind="pictures")
    assert (pictures.columns, pictures.rows, pictures.size) == (5, 4, 20)  # rules §3: 5 columns, 4 rows
    printed = ClassicRules(kind="pictures", pictures_key="printed")
    assert (printed.columns, printed.rows, printed.size) == (5, 4, 20)
    for bad in ({"kind": "duet"}, {"variant": "solo"}, {"clues": "lax"}, {"pictures_key": "x"}):
        with pytest.raises(ValueError):
            ClassicRules(**bad)  # type: ignore[arg-type]


def _duo_after_turn(seed: int, kind: str = "classic") -> tuple[object, str]:
    rules = ClassicRules(kind=kind, variant="duo")  # type: ignore[arg-type]
    key = random_classic_key(random.Random(0), rules.kind, start="R")
    cards = [f"c{i}" for i in range(rules.size)]
    state = new_classic_game(cards, key, rules, seed=seed)
    state = apply_classic(state, TeamClue("R", None, 1))
    bystander = key.cards.index("N")
    state = apply_classic(state, TeamGuess("R", bystander))  # the players' turn ends
    assert state.phase == "cover" and state.turn == "B"
    return state, key.cards


def test_duo_cover_choice_is_deterministic_from_the_seed() -> None:
    picks = set()
    for seed in range(200):
        state, key = _duo_after_turn(seed)
        card = duo_cover_choice(state)  # type: ignore[arg-type]
        assert card == duo_cover_choice(state)  # type: ignore[arg-type]
        assert card == duo_cover_choice(_duo_after_turn(seed)[0])  # type: ignore[arg-type]
        assert key[card] == "B" and card not in state.covered  # type: ignore[attr-defined]
        after = apply_classic(state, Cover("B", card))  # type: ignore[arg-type]
        assert after.phase == "clue" and after.turn == "R"
        picks.add(card)
    assert len(picks) == 8  # the seed spreads the box's picks over all its cards


def test_duo_cover_choice_for_a_penalty_and_nowhere_else() -> None:
    rules = ClassicRules(variant="duo")
    key = random_classic_key(random.Random(3), start="B")
    state = new_classic_game([f"c{i}" for i in range(25)], key, rules, seed=5)
    with pytest.raises(WrongPhase):  # no cover due while the players think of a clue
        duo_cover_choice(state)
    state = apply_classic(state, TeamClue("B", None, 2))
    card = duo_cover_choice(state)
    assert key.cards[card] == "R"  # the box is R when the players (the starting team) are B
    state = apply_classic(state, TeamPenalty("B", card))
    assert state.phase == "cover" and state.turn == "R" and card in state.covered
    standard = new_classic_game([f"c{i}" for i in range(25)], key, ClassicRules(), seed=5)
    with pytest.raises(WrongPhase):
        duo_cover_choice(apply_classic(standard, TeamClue("B", None, 2)))
