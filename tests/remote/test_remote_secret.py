"""One side per box, without a broker: a session that holds one side and learns the partner's colours and
counts reaches the same state as the engine with the whole card, move after move (a property over random
cards and random legal games), and never needs the partner's side itself."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.remote.secret import RemoteSession, Unresolved, open_sealed, seal_to, stand_in
from engine import duet
from engine.actions import Guess
from engine.keycard import random_key, template_problem
from engine.seats import other
from engine.session import DuetSession

WORDS = tuple(f"word{i}" for i in range(25))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seat=st.sampled_from(["A", "B"]), tokens=st.integers(1, 11))
def test_a_one_sided_session_plays_the_same_game_as_the_whole_card(seed: int, seat: str, tokens: int) -> None:
    rng = random.Random(seed)
    whole = DuetSession.create(WORDS, rng, tokens=tokens, language="en")
    partner = other(seat)  # type: ignore[arg-type]
    theirs = whole.setup["key"][partner]
    mine = RemoteSession(dict(whole.setup, key={seat: whole.setup["key"][seat]}), seat=seat, language="en")
    while not whole.over:
        action = rng.choice(duet.legal_actions(whole.state))
        v = whole.version
        while (need := mine.needs(action, v)) is not None:
            if need == "colour":  # our guess: the partner's box reads it on its side and says the colour
                mine.learn(version=v, colour=theirs[action.card])  # type: ignore[union-attr]
            else:  # the partner's box says its greens left
                mine.learn(version=v, left=duet.greens_left(whole.state, partner))
        whole.apply(action, v)
        mine.apply(action, v)
        assert replace(mine.state, key=whole.state.key) == whole.state
        assert mine.state.key.side(seat) == whole.state.key.side(seat)
        if mine.version in mine.left:  # what the box shows of who may clue or guess is the real thing
            assert duet.greens_left(mine.state, partner) == duet.greens_left(whole.state, partner)
    assert mine.revealed_keys() is None  # the game-over screen never shows the stand-in
    mine.reveal(theirs)
    assert mine.setup == whole.setup and mine.state == whole.state
    assert mine.revealed_keys() == whole.revealed_keys()


def test_without_the_colour_our_guess_waits_and_a_stand_in_follows_the_template() -> None:
    rng = random.Random(3)
    key = random_key(rng)
    side = stand_in("A", key.a, frozenset(), {}, 9)
    assert template_problem(key.a, side) is None
    session = RemoteSession(DuetSession.create(WORDS, rng, language="en").setup | {"key": {"A": key.a}}, seat="A",
                            language="en")
    session.apply(duet.legal_actions(session.state)[0], 0)  # a clue of A
    guess = next(a for a in duet.legal_actions(session.state) if isinstance(a, Guess))
    assert guess.seat == "B" and session.needs(guess, 1) is None  # B's guess is read on our side, A
    session.apply(guess, 1)
    with pytest.raises(ValueError):
        stand_in("A", key.a, frozenset(), {0: "X", 1: "X", 2: "X", 3: "X"}, 9)  # four assassins: no such card


def test_the_guests_side_sealed_to_its_one_time_key_opens_only_with_it() -> None:
    from device.remote.secret import new_private_key, public_hex

    guest, stranger = new_private_key(), new_private_key()
    sealed = seal_to(public_hex(guest), {"B": "GNX"})
    assert "GNX" not in sealed and open_sealed(guest, sealed) == {"B": "GNX"}
    with pytest.raises(ValueError):
        open_sealed(stranger, sealed)
    assert issubclass(Unresolved, Exception)
