"""Random-simulation contract and resampling tests of the classic/Pictures engine, every mode and variant.

Like tests/engine/test_contract.py for Duet: random games keep the rules' invariants (rules §2, §3),
replay to the same state from their record, every legal action applies and every other one is refused
with an IllegalAction, and the public view does not depend on the colours of cards nobody uncovered.
"""

from __future__ import annotations

import json
import random
from itertools import product

import pytest

from engine.classic import (
    ClassicAction,
    ClassicKey,
    ClassicRules,
    ClassicState,
    Cover,
    TeamClue,
    TeamGuess,
    TeamPenalty,
    TeamStop,
    apply_classic,
    classic_public_view,
    composition,
    duo_cover_choice,
    guesser_view,
    legal_classic_actions,
    new_classic_game,
    other_team,
    random_classic_key,
    spymaster_view,
)
from engine.errors import IllegalAction, StaleAction
from engine.record import classic_record_of, replay

MODES = [("classic", "source"), ("pictures", "source"), ("pictures", "printed")]
VARIANTS = ["standard", "duo", "trio"]
CONFIGS = [(kind, pk, variant) for (kind, pk), variant in product(MODES, VARIANTS)]


def _rules(kind: str, pictures_key: str, variant: str) -> ClassicRules:
    return ClassicRules(kind=kind, variant=variant, pictures_key=pictures_key)  # type: ignore[arg-type]


def _cards(rules: ClassicRules) -> tuple[str, ...]:
    if rules.kind == "pictures":
        return tuple(f"p{i + 1:03d}" for i in range(rules.size))
    return tuple(f"mot{i:02d}" for i in range(rules.size))


def _universe(size: int) -> list[ClassicAction]:
    """Every action the tests throw at a state, legal or not (out-of-range cards and numbers included)."""
    out: list[ClassicAction] = []
    for team in ("R", "B"):
        out += [TeamClue(team, None, n) for n in [-1, *range(11), None]]  # type: ignore[arg-type]
        out += [TeamGuess(team, c) for c in range(-1, size + 1)]  # type: ignore[arg-type]
        out += [TeamPenalty(team, c) for c in range(-1, size + 1)]  # type: ignore[arg-type]
        out += [Cover(team, c) for c in range(-1, size + 1)]  # type: ignore[arg-type]
        out.append(TeamStop(team))  # type: ignore[arg-type]
    return out


def _choose(state: ClassicState, rng: random.Random) -> ClassicAction:
    actions = legal_classic_actions(state)
    if state.phase == "cover" and rng.random() < 0.8:
        return Cover(state.turn, duo_cover_choice(state))  # the box's own pick, as the device does it
    if state.phase == "clue":
        return rng.choice(actions)
    guesses = [a for a in actions if isinstance(a, TeamGuess)]
    own = [a for a in guesses if state.key.cards[a.card] == a.team]
    roll = rng.random()
    if own and roll < 0.6:  # lean towards good guesses so that games reach a win by all_found
        return rng.choice(own)
    penalties = [a for a in actions if isinstance(a, TeamPenalty)]
    if penalties and roll > 0.95:
        return rng.choice(penalties)
    return rng.choice([a for a in actions if not isinstance(a, TeamPenalty)])


def _game(seed: int) -> tuple[ClassicState, list[ClassicState]]:
    rng = random.Random(seed)
    kind, pictures_key, variant = CONFIGS[seed % len(CONFIGS)]
    rules = _rules(kind, pictures_key, variant)
    key = random_classic_key(rng, rules.kind, rules.pictures_key)
    state = new_classic_game(_cards(rules), key, rules, seed=seed)
    states = [state]
    for _ in range(300):
        if state.over:
            break
        state = apply_classic(state, _choose(state, rng), version=state.version)
        states.append(state)
    return state, states


def _check_step(before: ClassicState, action: ClassicAction, after: ClassicState) -> None:
    """Rules §2 invariants of one applied action."""
    variant = before.rules.variant
    new = after.covered - before.covered
    assert before.covered <= after.covered
    if isinstance(action, (TeamGuess, TeamPenalty, Cover)):
        card = action.cover if isinstance(action, TeamPenalty) else action.card
        assert new == {card}
    else:
        assert not new
    if isinstance(action, TeamPenalty):  # the cover is the other team's card
        assert before.key.cards[action.cover] == other_team(action.team)
    if isinstance(action, Cover):  # duo: the box covers one of its own cards
        assert variant == "duo" and action.team != before.players
        assert before.key.cards[action.card] == action.team
    if after.over:
        assert after.winner in ("R", "B")
        if after.reason == "assassin":
            assert isinstance(action, TeamGuess) and before.key.cards[action.card] == "X"
            assert after.winner == other_team(action.team)
        else:
            assert all(i in after.covered for i, c in enumerate(after.key.cards) if c == after.winner)
            assert (after.reason == "opponent_done") == (variant == "duo" and after.winner != before.players)
        return
    if variant == "duo":
        assert after.phase in ("clue", "guess", "cover")
        assert after.turn == (other_team(before.players) if after.phase == "cover" else before.players)
        if after.phase == "clue" and before.phase == "guess":
            pytest.fail("duo: the players' turn ended without the box's cover")
    else:
        assert after.phase in ("clue", "guess")
        if before.phase == "guess" and after.phase == "clue":
            assert after.turn == other_team(before.turn)  # the turn passes to the other team
    if isinstance(action, TeamGuess) and not after.over:
        colour = before.key.cards[action.card]
        ended = after.phase != "guess"
        if colour != action.team:
            assert ended  # opponent's card or bystander: the turn ends
        else:
            number = before.clues[-1].number
            limit = None if number in (None, 0) else number + 1
            assert ended == (limit is not None and before.guesses_made + 1 >= limit)


@pytest.mark.parametrize("block", range(8))
def test_random_games_keep_invariants_and_replay(block: int) -> None:
    reasons: set[tuple[str, str, str | None]] = set()
    for seed in range(block * 135, block * 135 + 135):  # 1080 games, 120 of each mode and variant
        final, states = _game(seed)
        assert final.over, f"seed {seed}: the game did not end"
        for before, action, after in zip(states[:-1], final.history, states[1:], strict=True):
            _check_step(before, action, after)
        for clue in final.clues:  # rules §2: number + 1 guesses at most, unlimited with 0 or "unlimited"
            if clue.number:
                assert len(clue.guesses) <= clue.number + 1
        record = json.loads(json.dumps(classic_record_of(final)))
        again = replay(record)
        assert again.ok and again.state == final
        reasons.add((final.rules.kind, final.rules.variant, final.reason))
    assert {r for _k, _v, r in reasons} >= {"all_found", "assassin"}


def test_random_duo_games_reach_every_ending() -> None:
    reasons = set()
    for seed in range(0, 900, len(CONFIGS)):
        for offset, (_kind, _pk, variant) in enumerate(CONFIGS):
            if variant == "duo":
                reasons.add(_game(seed + offset)[0].reason)
    assert reasons == {"all_found", "assassin", "opponent_done"}


@pytest.mark.parametrize("block", range(6))
def test_every_legal_action_applies_and_every_other_raises(block: int) -> None:
    for seed in range(1000 + block * 27, 1000 + block * 27 + 27):  # every mode and variant 3 times per block
        _final, states = _game(seed)
        universe = _universe(states[0].rules.size)
        for state in states:
            legal = legal_classic_actions(state)
            assert len(set(legal)) == len(legal)
            for action in universe:
                if action in legal:
                    new = apply_classic(state, action)
                    assert new.version == state.version + 1 and new.history[-1] == action
                else:
                    with pytest.raises(IllegalAction):
                        apply_classic(state, action)
            assert set(legal) <= set(universe)


def _resample(state: ClassicState, rng: random.Random) -> ClassicKey:
    """Another key the public history allows: shuffle the colours of the cards nobody has uncovered."""
    free = [i for i in range(len(state.cards)) if i not in state.covered]
    colours = [state.key.cards[i] for i in free]
    rng.shuffle(colours)
    cards = list(state.key.cards)
    for i, colour in zip(free, colours, strict=True):
        cards[i] = colour
    return ClassicKey("".join(cards), state.key.start)


def test_public_view_ignores_the_hidden_key() -> None:
    rng = random.Random(7)
    compared = 0
    for seed in range(2000, 2360):
        _final, states = _game(seed)
        state = states[rng.randrange(len(states))]
        other_key = _resample(state, rng)
        other = new_classic_game(state.cards, other_key, state.rules, seed=state.seed)
        for action in state.history:
            other = apply_classic(other, action)
        assert classic_public_view(other) == classic_public_view(state)
        assert guesser_view(other) == guesser_view(state)
        assert spymaster_view(other).public == spymaster_view(state).public
        assert spymaster_view(other).key == other_key.cards
        compared += other_key != state.key
    assert compared > 250


def test_public_view_shows_only_covered_colours() -> None:
    for seed in range(3000, 3090):
        final, states = _game(seed)
        for state in states:
            view = classic_public_view(state)
            assert (view.columns, view.rows) == ((5, 4) if state.rules.kind == "pictures" else (5, 5))
            wanted = composition(state.rules.kind, state.rules.pictures_key)
            assert len(view.cards) == state.rules.size == sum(wanted)
            for card in view.cards:
                assert card.colour == (state.key.cards[card.index] if card.index in state.covered else None)
            assert view.guesses_left == state.guesses_left
            assert view.left == {t: sum(1 for i, c in enumerate(state.key.cards) if c == t and i not in
                                        state.covered) for t in ("R", "B")}


def test_stale_action_refused() -> None:
    rules = ClassicRules()
    state = new_classic_game(_cards(rules), random_classic_key(random.Random(1), start="R"), rules)
    state2 = apply_classic(state, TeamClue("R", None, 1), version=0)
    with pytest.raises(StaleAction):
        apply_classic(state2, TeamGuess("R", 0), version=0)
    assert apply_classic(state2, TeamGuess("R", 0), version=1).version == 2
