"""Glue between a Partner and the Duet engine: what the box does next in a game state."""

from __future__ import annotations

from engine import duet
from engine.actions import Clue, DuetAction, Guess, Stop
from engine.seats import Seat, other
from partner import Partner
from partner.turns import ME, PARTNER, Turn

#: The solo set-up's timer tokens per difficulty (as device/solo.TOKENS; rules §1 allow 10 or 11 for an easier game)
SOLO_TOKENS = {"normal": 9, "easy": 11}
#: The bank proposed as the solo default (docs/partner.md, "The solo default"): 9 tokens were out of reach
SOLO_DEFAULT_TOKENS = 11


def solo_tokens(difficulty: str | None = None) -> int:
    """Timer tokens of a solo game: the proposed default without a difficulty, else the difficulty's bank."""
    return SOLO_DEFAULT_TOKENS if difficulty is None else SOLO_TOKENS.get(difficulty, 9)


def covered_cards(state: duet.DuetState) -> set[int]:
    """Cards out of play for both seats: agents, and bystanders marked for both."""
    return set(state.found) | (set(state.marks_a) & set(state.marks_b))


def turns_for(state: duet.DuetState, seat: Seat, partner: Partner | None = None) -> tuple[list[Turn], list[Turn]]:
    """(finished turns, the running turn if any) from `seat`'s point of view; results are public."""
    turns = []
    for entry in state.clues:
        side = state.key.side(entry.seat)
        turns.append(
            Turn(
                ME if entry.seat == seat else PARTNER,
                entry.word or "",
                entry.number,
                tuple((c, side[c]) for c in entry.guesses),
            )
        )
    if state.phase == "guess" and turns:
        return turns[:-1], turns[-1:]
    return turns, []


def box_action(partner: Partner, state: duet.DuetState, seat: Seat) -> DuetAction | None:
    """The action the box (sitting at `seat`) takes now, or None when it is not the box's move.

    In the clue phase the box clues only when it is among the seats allowed to; the caller decides who goes
    first when both may. A clue the engine refuses is not retried here: call `partner.give_clue` again after
    adding the word to `banned` if that ever happens (the partner already runs the engine's checker).
    """
    side = state.key.side(seat)
    covered = covered_cards(state)
    done, running = turns_for(state, seat, partner)
    if state.phase == "clue":
        if seat not in duet.clue_givers(state):
            return None
        choice = partner.give_clue(state.words, side, covered, done, tokens=state.bank)
        if choice is None:
            return Clue(seat, None, 1)
        return Clue(seat, choice.word, choice.number)
    if state.phase == "guess":
        if state.guesser != seat:
            return None
        clue = running[0]
        guess = partner.next_guess(
            state.words,
            side,
            clue.word,
            clue.number,
            covered,
            state.marks(seat),
            done,
            False,
            turn_guesses=clue.guesses,
            tokens=state.bank,
        )
        if guess is None:
            return Stop(seat) if state.correct_this_turn else None
        return Guess(seat, guess.card)
    if state.phase == "sudden_death":
        if seat not in duet.sudden_death_guessers(state):
            return None
        left = len(state.key.greens()) - len(state.found)
        guess = partner.next_guess(state.words, side, None, None, covered, state.marks(seat), done, True,
                                   tokens=state.bank, agents_left=left)
        return None if guess is None else Guess(seat, guess.card)
    return None


__all__ = ["SOLO_DEFAULT_TOKENS", "SOLO_TOKENS", "box_action", "covered_cards", "other", "solo_tokens", "turns_for"]
