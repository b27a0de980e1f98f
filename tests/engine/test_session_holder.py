"""The Duet session's key holder (engine/session.py, ``KeyHolder``): who holds the key card decides which key the
engine reads at each move. The default holds the whole card and changes nothing; a holder that refuses a move
leaves the session as it was; a holder that does not hold the whole card never lets the end show a key."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine import duet
from engine.actions import DuetAction
from engine.errors import IllegalAction
from engine.keycard import random_key
from engine.session import WHOLE_CARD, DuetSession, WholeCard

WORDS = tuple(f"w{i}" for i in range(25))


def test_by_default_the_session_holds_the_whole_card_and_plays_as_the_engine() -> None:
    rng = random.Random(5)
    session = DuetSession.create(WORDS, rng, language="en")
    assert session.holder is WHOLE_CARD and session.complete
    state = session.state
    while not session.over:
        action = rng.choice(duet.legal_actions(session.state))
        state = duet.apply(state, action, version=state.version)[0]
        session.apply(action, session.version)
        assert session.state == state
    assert session.revealed_keys() == {"A": state.key.a, "B": state.key.b}


class Swapping:
    """A holder that plays every move on another card and refuses guesses (a stand-in's shape, for the test)."""

    complete = False

    def __init__(self, other: duet.DuetKey) -> None:
        self.other = other
        self.after_calls: list[int] = []

    def first(self, setup: Mapping[str, Any]) -> Mapping[str, Any]:
        return dict(setup, key={"A": self.other.a, "B": self.other.b})

    def before(self, state: duet.DuetState, action: DuetAction) -> duet.DuetState:
        if action.to_dict()["type"] == "guess":
            raise IllegalAction("waits for the other side")
        return replace(state, key=self.other)

    def after(self, at: int, action: DuetAction, state: duet.DuetState) -> duet.DuetState:
        self.after_calls.append(at)
        return state


def test_a_holder_gives_the_first_key_and_each_moves_key_and_a_refusal_changes_nothing() -> None:
    rng = random.Random(8)
    whole = DuetSession.create(WORDS, rng, language="en")
    other = random_key(rng)
    holder = Swapping(other)
    session = DuetSession(dict(whole.setup, key={"A": whole.setup["key"]["A"]}), "en", holder=holder)
    assert session.state.key == other and not session.complete  # loaded with the holder's card
    clue = duet.legal_actions(session.state)[0]
    session.apply(clue, 0)
    assert holder.after_calls == [0] and session.version == 1
    before = session.state
    guess = next(a for a in duet.legal_actions(session.state) if a.to_dict()["type"] == "guess")
    with pytest.raises(IllegalAction):
        session.apply(guess, 1)
    assert session.state is before and holder.after_calls == [0]


class OneSideHeld(WholeCard):
    """Plays on the set-up's card but does not hold it whole (as a remote box before the card is turned over)."""

    complete = False


def test_a_game_over_shows_no_key_unless_the_whole_card_is_held() -> None:
    rng = random.Random(2)
    setup = DuetSession.create(WORDS, rng, language="en").setup
    session = DuetSession(setup, "en", holder=OneSideHeld())
    while not session.over:
        session.apply(rng.choice(duet.legal_actions(session.state)), session.version)
    assert session.revealed_keys() is None and session.outcome() is not None
