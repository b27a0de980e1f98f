"""OpenSpiel-style random-simulation contract and resampling tests over many seeds and every mission city."""

from __future__ import annotations

import random

import pytest

from engine.actions import Clue, DuetAction, Guess, Penalty, Stop
from engine.duet import DuetRules, DuetState, apply, legal_actions, new_game
from engine.errors import IllegalAction
from engine.keycard import DuetKey, random_key
from engine.missions import default_map
from engine.record import record_of, replay
from engine.views import public_view

WORDS = tuple(f"mot{i:02d}" for i in range(25))
UNIVERSE: list[DuetAction] = (
    [Clue(s, None, n) for s in "AB" for n in range(16)]  # type: ignore[arg-type]
    + [Guess(s, c) for s in "AB" for c in range(25)]  # type: ignore[arg-type]
    + [Stop("A"), Stop("B"), Penalty()]
)
CITIES = default_map().cities


def _choose(state: DuetState, rng: random.Random) -> DuetAction:
    actions = legal_actions(state)
    guesses = [a for a in actions if isinstance(a, Guess)]
    if guesses and rng.random() < 0.75:  # lean towards greens so that games go deep (sudden death, wins)
        def good(a: Guess) -> bool:
            giver = state.clue_giver if state.phase == "guess" else ("B" if a.seat == "A" else "A")
            return state.key.side(giver)[a.card] == "G"  # type: ignore[arg-type]

        greens = [a for a in guesses if good(a)]
        if greens:
            return rng.choice(greens)
    if any(isinstance(a, Penalty) for a in actions) and rng.random() > 0.05:
        actions = [a for a in actions if not isinstance(a, Penalty)]
    return rng.choice(actions)


def _game(seed: int) -> tuple[DuetState, list[DuetState]]:
    rng = random.Random(seed)
    city = CITIES[seed % len(CITIES)] if seed % 3 else None
    rules = city.rules() if city else DuetRules(tokens=rng.choice((9, 10, 11)), several_clues=rng.random() < 0.3)
    state = new_game(WORDS, random_key(rng), rules, city.name if city else None)
    states = [state]
    for _ in range(500):
        if state.over:
            break
        state, _events = apply(state, _choose(state, rng))
        states.append(state)
    return state, states


@pytest.mark.parametrize("block", range(10))
def test_random_games_keep_invariants_and_replay(block: int) -> None:
    for seed in range(block * 52, block * 52 + 52):  # 520 games, every city many times
        final, states = _game(seed)
        assert final.over, f"seed {seed}: the game did not end"
        for s in states:
            assert s.bank_innocent >= 0 and s.bank_closed >= 0
            assert len(s.found) <= 15
            assert s.bank + s.taken <= s.rules.tokens
        again = replay(record_of(final))
        assert again.ok and again.state == final


@pytest.mark.parametrize("block", range(4))
def test_every_legal_action_applies_and_every_other_raises(block: int) -> None:
    for seed in range(1000 + block * 25, 1000 + block * 25 + 25):
        _final, states = _game(seed)
        for state in states:
            legal = set(legal_actions(state))
            for action in UNIVERSE:
                before = state
                if action in legal:
                    new, _ = apply(state, action)
                    assert new.version == state.version + 1
                else:
                    with pytest.raises(IllegalAction):
                        apply(state, action)
                assert state == before


def _resample(state: DuetState, rng: random.Random) -> DuetKey:
    """Another key consistent with the public history: permute the pairs of cards nobody has touched."""
    touched = {a.card for a in state.history if isinstance(a, Guess)}
    free = [i for i in range(25) if i not in touched]
    pairs = [state.key.pair(i) for i in free]
    rng.shuffle(pairs)
    a, b = list(state.key.a), list(state.key.b)
    for i, (pa, pb) in zip(free, pairs, strict=True):
        a[i], b[i] = pa, pb
    return DuetKey("".join(a), "".join(b))


def test_public_view_ignores_the_hidden_key() -> None:
    rng = random.Random(99)
    compared = 0
    for seed in range(2000, 2300):
        _final, states = _game(seed)
        state = states[rng.randrange(len(states))]
        other_key = _resample(state, rng)
        other = new_game(state.words, other_key, state.rules, state.mission)
        for action in state.history:
            other, _ = apply(other, action)
        assert public_view(other) == public_view(state)
        compared += other_key != state.key
    assert compared > 200


def test_stale_action_refused() -> None:
    from engine.errors import StaleAction

    state = new_game(WORDS, random_key(random.Random(1)))
    state2, _ = apply(state, Clue("A", None, 1), version=0)
    with pytest.raises(StaleAction):
        apply(state2, Clue("B", None, 1), version=0)
