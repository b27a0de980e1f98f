"""Codenames Duet, rules §1: a pure, deterministic, event-sourced engine.

A game is its set-up (words, key, rules, mission) plus the actions applied to it. ``apply`` validates an action and
returns the new state and the events it caused, or raises an ``IllegalAction`` subclass leaving the state unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from . import events as ev
from .actions import MAX_CLUE_NUMBER, Clue, DuetAction, Guess, Penalty, Stop, check_clue_length
from .clues import refuse_invalid
from .errors import (
    CannotStop,
    CardNotPlayable,
    GameOver,
    IllegalAction,
    NotYourTurn,
    StaleAction,
    WrongPhase,
)
from .keycard import CARDS, DuetKey
from .languages import CODES
from .seats import SEATS, Seat, other

Phase = Literal["clue", "guess", "sudden_death", "won", "lost"]
LossReason = Literal["assassin", "sudden_death_miss", "out_of_time"]

STANDARD_TOKENS = 9
LANGUAGES = CODES  # languages the clue checker can stem (engine.languages)
MAX_TOKENS = 11  # the box holds 11 timer tokens (rules §1 Material)


@dataclass(frozen=True)
class DuetRules:
    """Rule options. ``mistakes`` = how many bank tokens lie innocent-face up (rules §1 mission map)."""

    tokens: int = STANDARD_TOKENS
    mistakes: int | None = None
    clues: Literal["strict", "flexible"] = "strict"
    several_clues: bool = False
    language: str = "fr"
    pictures: bool = False  # Duet with pictures (rules §3): cards are picture ids, no words to check clues against

    def __post_init__(self) -> None:
        if not isinstance(self.tokens, int) or not 1 <= self.tokens <= MAX_TOKENS:
            raise ValueError(f"tokens must be a whole number from 1 to {MAX_TOKENS}, not {self.tokens!r}")
        if self.mistakes is not None and (
            not isinstance(self.mistakes, int) or not 0 <= self.mistakes <= self.tokens
        ):
            raise ValueError(f"mistakes must be a whole number from 0 to tokens ({self.tokens}), not {self.mistakes!r}")
        if self.clues not in ("strict", "flexible"):
            raise ValueError(f"clues must be 'strict' or 'flexible', not {self.clues!r}")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {self.language!r}")
        if self.mistakes is None:  # normalised so that equal rules compare equal
            object.__setattr__(self, "mistakes", self.tokens)

    @property
    def innocent(self) -> int:
        return self.tokens if self.mistakes is None else self.mistakes

    @property
    def standard(self) -> bool:
        """A standard 9-token game (Prague 9-9): the only one that is scored."""
        return self.tokens == STANDARD_TOKENS and self.innocent == STANDARD_TOKENS


@dataclass(frozen=True)
class ClueEntry:
    """One clue of the history and what came of it."""

    seat: Seat
    word: str | None
    number: int
    override: bool = False
    guesses: tuple[int, ...] = ()
    penalty: bool = False


@dataclass(frozen=True)
class DuetState:
    words: tuple[str, ...]
    key: DuetKey = field(repr=False)
    rules: DuetRules
    mission: str | None = None
    history: tuple[DuetAction, ...] = ()
    phase: Phase = "clue"
    found: frozenset[int] = frozenset()
    marks_a: frozenset[int] = frozenset()  # cards bystander-marked for guesser A (token arrow toward A)
    marks_b: frozenset[int] = frozenset()
    double_marks: frozenset[int] = frozenset()  # marks that cost two case-closed tokens (rules §1 missions)
    assassin: int | None = None
    bank_innocent: int = 0
    bank_closed: int = 0
    taken: int = 0  # case-closed tokens in front of the players (stops, the winning turn's included)
    clues: tuple[ClueEntry, ...] = ()
    clue_giver: Seat | None = None  # giver of the clue being guessed
    correct_this_turn: bool = False
    sudden_death: bool = False
    reason: LossReason | None = None

    @property
    def version(self) -> int:
        """How many actions led here; an action made against another version is stale."""
        return len(self.history)

    @property
    def bank(self) -> int:
        return self.bank_innocent + self.bank_closed

    @property
    def over(self) -> bool:
        return self.phase in ("won", "lost")

    def marks(self, guesser: Seat) -> frozenset[int]:
        return self.marks_a if guesser == "A" else self.marks_b

    @property
    def guesser(self) -> Seat | None:
        return other(self.clue_giver) if self.phase == "guess" and self.clue_giver else None


def new_game(words: tuple[str, ...] | list[str], key: DuetKey, rules: DuetRules | None = None,
             mission: str | None = None) -> DuetState:
    """A fresh table. ValueError when the words are not 25 distinct non-empty strings."""
    rules = rules or DuetRules()
    words = tuple(words)
    if len(words) != CARDS or any(not isinstance(w, str) or not w.strip() for w in words):
        raise ValueError("a Duet game needs 25 non-empty words")
    if len({w.casefold() for w in words}) != CARDS:
        raise ValueError("the 25 words must be distinct")
    return DuetState(words=words, key=key, rules=rules, mission=mission,
                     bank_innocent=rules.innocent, bank_closed=rules.tokens - rules.innocent)


# --- derived facts -------------------------------------------------------------------------------------------------

def greens_left(state: DuetState, seat: Seat) -> int:
    """Uncovered greens on ``seat``'s own side: what that seat can still clue."""
    side = state.key.side(seat)
    return sum(1 for i in range(CARDS) if side[i] == "G" and i not in state.found)


def all_found(state: DuetState) -> bool:
    return len(state.found) == len(state.key.greens())


def visible(state: DuetState, card: int) -> bool:
    """Rules §1 Invalid clues: visible = not covered by an agent and not marked by two tokens."""
    return card not in state.found and not (card in state.marks_a and card in state.marks_b)


def visible_words(state: DuetState) -> tuple[str, ...]:
    return tuple(w for i, w in enumerate(state.words) if visible(state, i))


def playable(state: DuetState, guesser: Seat, card: int) -> bool:
    """Rules §1: no guess on a card covered by an agent or already marked as a bystander for this guesser."""
    return 0 <= card < CARDS and card not in state.found and card not in state.marks(guesser)


def clue_givers(state: DuetState) -> tuple[Seat, ...]:
    """Seats that may give the next clue (rules §1 "Whose clue is it", several-clues variant)."""
    if state.phase != "clue":
        return ()
    able = [s for s in SEATS if greens_left(state, s) > 0]
    if not state.clues:
        return tuple(able)
    last = state.clues[-1].seat
    streak = 0
    for entry in reversed(state.clues):
        if entry.seat != last:
            break
        streak += 1
    allowed: list[Seat] = []
    for seat in able:
        if seat != last:
            allowed.append(seat)
        elif other(last) not in able:  # the partner's 9 greens are all found: only this seat clues now
            allowed.append(seat)
        elif state.rules.several_clues and streak < 2:
            allowed.append(seat)
    return tuple(allowed)


def sudden_death_guessers(state: DuetState) -> tuple[Seat, ...]:
    """Rules §1 Sudden death: each seat whose partner still has uncovered greens."""
    if state.phase != "sudden_death":
        return ()
    return tuple(s for s in SEATS if greens_left(state, other(s)) > 0)


def score(state: DuetState) -> int | None:
    """Rules §1 Score: only for a won standard 9-token game."""
    if state.phase != "won" or not state.rules.standard:
        return None
    return 3 * state.bank + state.taken - (1 if state.sudden_death else 0)


def verdict(points: int) -> str:
    """The rulebook's bands for a score: a message key."""
    if points > 10:
        return "try_missions"
    if points >= 9:
        return "incredible"
    if points > 5:
        return "good"
    return "keep_practising"


# --- applying actions ----------------------------------------------------------------------------------------------

def apply(state: DuetState, action: DuetAction, *, version: int | None = None) -> tuple[DuetState, list[ev.Event]]:
    """Apply one action. Raises an IllegalAction subclass (state unchanged) when it may not happen now.

    ``version``: the state version the action was made against; a different one raises StaleAction.
    """
    if version is not None and version != state.version:
        raise StaleAction(f"this action was made against move {version}, the game is at move {state.version}")
    if state.over:
        raise GameOver("the game is over")
    if isinstance(action, Clue):
        new, events = _clue(state, action)
    elif isinstance(action, Guess):
        new, events = _guess(state, action)
    elif isinstance(action, Stop):
        new, events = _stop(state, action)
    elif isinstance(action, Penalty):
        new, events = _penalty(state)
    else:
        raise IllegalAction(f"not a Duet action: {action!r}")
    return replace(new, history=state.history + (action,)), events


def _clue(state: DuetState, action: Clue) -> tuple[DuetState, list[ev.Event]]:
    if state.phase == "sudden_death":
        raise WrongPhase("no more clues: sudden death has started")
    if state.phase != "clue":
        raise WrongPhase(f"a clue has been given; seat {state.guesser} is guessing")
    givers = clue_givers(state)
    if action.seat not in givers:
        if greens_left(state, action.seat) == 0:
            partner = other(action.seat)
            raise NotYourTurn(f"seat {action.seat} has no green left to clue; seat {partner} gives the clues")
        raise NotYourTurn(f"seat {action.seat} may not give two clues in a row; it is seat {other(action.seat)}'s")
    if not 0 <= action.number <= MAX_CLUE_NUMBER:
        raise IllegalAction(f"the clue number must be from 0 to {MAX_CLUE_NUMBER}")
    check_clue_length(action.word)
    if action.word is not None and not action.override:
        refuse_invalid(action.word, visible_words(state), language=state.rules.language,
                       strict=state.rules.clues == "strict", pictures=state.rules.pictures)
    entry = ClueEntry(action.seat, action.word, action.number, action.override)
    new = replace(state, phase="guess", clue_giver=action.seat, correct_this_turn=False,
                  clues=state.clues + (entry,))
    return new, [ev.ClueGiven(action.seat, action.word, action.number)]


def _record_guess(state: DuetState, card: int) -> tuple[ClueEntry, ...]:
    if not state.clues:
        return state.clues
    last = state.clues[-1]
    return state.clues[:-1] + (replace(last, guesses=last.guesses + (card,)),)


def _mark(state: DuetState, guesser: Seat, card: int) -> DuetState:
    if guesser == "A":
        return replace(state, marks_a=state.marks_a | {card})
    return replace(state, marks_b=state.marks_b | {card})


def _check_card(state: DuetState, guesser: Seat, card: int) -> None:
    if not 0 <= card < CARDS:
        raise CardNotPlayable(f"there is no card {card} (cards are 0 to {CARDS - 1})")
    if card in state.found:
        raise CardNotPlayable(f"card {card} ({state.words[card]}) is already covered by an agent")
    if card in state.marks(guesser):
        raise CardNotPlayable(f"card {card} ({state.words[card]}) is already marked as a bystander for seat {guesser}")


def _guess(state: DuetState, action: Guess) -> tuple[DuetState, list[ev.Event]]:
    if state.phase == "sudden_death":
        return _sudden_death_guess(state, action)
    if state.phase != "guess":
        raise WrongPhase("waiting for a clue before anyone guesses")
    guesser = state.guesser
    assert guesser is not None and state.clue_giver is not None
    if action.seat != guesser:
        raise NotYourTurn(f"seat {guesser} is guessing, not seat {action.seat}")
    _check_card(state, guesser, action.card)
    card = action.card
    identity = state.key.side(state.clue_giver)[card]  # rules §1: read on the clue giver's side
    state = replace(state, clues=_record_guess(state, card))
    events: list[ev.Event] = []
    if identity == "G":
        state = replace(state, found=state.found | {card}, correct_this_turn=True)
        events.append(ev.AgentFound(card, guesser))
        if all_found(state):
            return _win(state, events)
        return state, events
    if identity == "X":
        events.append(ev.AssassinRevealed(card, guesser))
        events.append(ev.GameLost("assassin"))
        return replace(state, assassin=card, phase="lost", reason="assassin"), events
    # A bystander on the giver's side: a token from the bank marks it for the guesser; the turn ends.
    state = _mark(state, guesser, card)
    if state.bank_innocent > 0:
        state = replace(state, bank_innocent=state.bank_innocent - 1)
        events.append(ev.BystanderMarked(card, guesser, 1))
    elif state.bank_closed >= 2:  # rules §1 missions: no innocent face left, the mistake costs two tokens
        state = replace(state, bank_closed=state.bank_closed - 2, double_marks=state.double_marks | {card})
        events.append(ev.BystanderMarked(card, guesser, 2))
    else:  # two tokens owed and only one left: lost at once, no sudden death
        events.append(ev.BystanderMarked(card, guesser, 0))
        events.append(ev.GameLost("out_of_time"))
        return replace(state, phase="lost", reason="out_of_time"), events
    events.append(ev.TurnEnded("bystander"))
    return _end_turn(state, events)


def _take_stop_token(state: DuetState) -> DuetState:
    """Rules §1 missions: a stop takes a case-closed token, else an innocent one flipped."""
    if state.bank_closed > 0:
        return replace(state, bank_closed=state.bank_closed - 1, taken=state.taken + 1)
    if state.bank_innocent > 0:
        return replace(state, bank_innocent=state.bank_innocent - 1, taken=state.taken + 1)
    return state


def _win(state: DuetState, events: list[ev.Event]) -> tuple[DuetState, list[ev.Event]]:
    if state.phase == "guess":  # rules §1: the winning turn still uses a token, as a stop
        state = _take_stop_token(state)
        events.append(ev.TurnEnded("won"))
    state = replace(state, phase="won", clue_giver=None)
    events.append(ev.GameWon(score(state)))
    return state, events


def _end_turn(state: DuetState, events: list[ev.Event]) -> tuple[DuetState, list[ev.Event]]:
    state = replace(state, clue_giver=None, correct_this_turn=False)
    if state.bank == 0:  # rules §1 Sudden death: the turn ended with the bank empty and greens remain
        events.append(ev.SuddenDeathStarted())
        return replace(state, phase="sudden_death", sudden_death=True), events
    return replace(state, phase="clue"), events


def _stop(state: DuetState, action: Stop) -> tuple[DuetState, list[ev.Event]]:
    if state.phase == "sudden_death":
        raise WrongPhase("no stopping in sudden death")
    if state.phase != "guess":
        raise WrongPhase("nobody is guessing: waiting for a clue")
    if action.seat != state.guesser:
        raise NotYourTurn(f"only seat {state.guesser}, who is guessing, may stop")
    if not state.correct_this_turn:
        raise CannotStop("a guesser may stop only after a correct guess this turn")
    state = _take_stop_token(state)
    return _end_turn(state, [ev.TurnEnded("stop")])


def _penalty(state: DuetState) -> tuple[DuetState, list[ev.Event]]:
    if state.phase != "guess":
        raise WrongPhase("a penalty applies to the clue being guessed")
    last = state.clues[-1]
    if last.penalty:
        raise IllegalAction("this clue has already cost a token")
    clues = state.clues[:-1] + (replace(last, penalty=True),)
    # Rules §1 Invalid clues: discard a token, keeping an innocent-face one when there is a choice.
    if state.bank_closed > 0:
        state = replace(state, bank_closed=state.bank_closed - 1, clues=clues)
        events: list[ev.Event] = [ev.TokenDiscarded("closed")]
    else:
        state = replace(state, bank_innocent=state.bank_innocent - 1, clues=clues)
        events = [ev.TokenDiscarded("innocent")]
    if state.bank == 0:  # an emptied bank starts sudden death at once
        events.append(ev.SuddenDeathStarted())
        state = replace(state, phase="sudden_death", sudden_death=True, clue_giver=None, correct_this_turn=False)
    return state, events


def _sudden_death_guess(state: DuetState, action: Guess) -> tuple[DuetState, list[ev.Event]]:
    seat = action.seat
    if seat not in sudden_death_guessers(state):
        raise NotYourTurn(f"seat {other(seat)} has no green left: seat {seat} has nothing to find in sudden death")
    _check_card(state, seat, action.card)
    card = action.card
    identity = state.key.side(other(seat))[card]
    if identity == "G":
        state = replace(state, found=state.found | {card})
        events: list[ev.Event] = [ev.AgentFound(card, seat)]
        if all_found(state):
            return _win(state, events)
        return state, events
    if identity == "X":
        return (replace(state, assassin=card, phase="lost", reason="assassin"),
                [ev.AssassinRevealed(card, seat), ev.GameLost("assassin")])
    state = _mark(state, seat, card)
    return (replace(state, phase="lost", reason="sudden_death_miss"),
            [ev.BystanderMarked(card, seat, 0), ev.GameLost("sudden_death_miss")])


def legal_actions(state: DuetState) -> list[DuetAction]:
    """Everything that may happen next (clues listed without a word: spoken-only clues are never checked)."""
    actions: list[DuetAction] = []
    if state.phase == "clue":
        for seat in clue_givers(state):
            actions.extend(Clue(seat, None, n) for n in range(MAX_CLUE_NUMBER + 1))
    elif state.phase == "guess":
        guesser = state.guesser
        assert guesser is not None
        actions.extend(Guess(guesser, c) for c in range(CARDS) if playable(state, guesser, c))
        if state.correct_this_turn:
            actions.append(Stop(guesser))
        if not state.clues[-1].penalty:
            actions.append(Penalty())
    elif state.phase == "sudden_death":
        for seat in sudden_death_guessers(state):
            actions.extend(Guess(seat, c) for c in range(CARDS) if playable(state, seat, c))
    return actions


def outcome(state: DuetState) -> tuple[Phase, LossReason | None]:
    """One source of truth for how the game stands."""
    return state.phase, state.reason
