"""What each output may see. The shared display and the ring get ``PublicView`` only; a seat's OLED gets its
``SeatView``. Nothing else from the engine may reach a screen (design: secrecy is a type boundary)."""

from __future__ import annotations

from dataclasses import dataclass

from .duet import (
    DuetState,
    Phase,
    clue_givers,
    greens_left,
    score,
    sudden_death_guessers,
    verdict,
)
from .keycard import TOTAL_GREENS
from .seats import SEATS, Seat


@dataclass(frozen=True)
class CardView:
    index: int
    word: str
    agent: bool  # covered by a green agent tile
    marks: tuple[Seat, ...]  # bystander tokens on it, each arrow pointing at the seat that guessed
    double: bool  # a mission mistake that cost two tokens
    assassin: bool  # the assassin tile (revealed only when touched)

    @property
    def covered(self) -> bool:
        return self.agent or len(self.marks) == 2 or self.assassin


@dataclass(frozen=True)
class ClueView:
    seat: Seat
    word: str | None
    number: int
    guesses: tuple[int, ...]
    penalty: bool
    override: bool


@dataclass(frozen=True)
class PublicView:
    mode: str
    version: int
    cards: tuple[CardView, ...]
    phase: Phase
    clue_givers: tuple[Seat, ...]  # who may clue now (clue phase)
    clue_giver: Seat | None  # giver of the clue being guessed (guess phase)
    guessers: tuple[Seat, ...]  # who may guess now (guess phase or sudden death)
    can_stop: bool
    can_penalise: bool
    clues: tuple[ClueView, ...]
    bank_innocent: int
    bank_closed: int
    taken: int  # case-closed tokens in front of the players
    tokens: int  # tokens the game started with
    mistakes: int  # innocent-face tokens it started with
    agents_found: int
    agents_total: int
    done_seats: tuple[Seat, ...]  # seats that announced all their greens are found (rules §1)
    sudden_death: bool
    reason: str | None
    score: int | None
    verdict: str | None
    mission: str | None
    several_clues: bool
    clue_rules: str
    language: str

    @property
    def bank(self) -> int:
        return self.bank_innocent + self.bank_closed

    @property
    def current_clue(self) -> ClueView | None:
        return self.clues[-1] if self.phase == "guess" and self.clues else None


@dataclass(frozen=True)
class SeatView:
    public: PublicView
    seat: Seat
    key: str  # this seat's own side: 25 characters G/N/X
    greens_left: int  # uncovered greens on this seat's side


def public_view(state: DuetState) -> PublicView:
    cards = tuple(
        CardView(
            index=i,
            word=word,
            agent=i in state.found,
            marks=tuple(s for s in SEATS if i in state.marks(s)),
            double=i in state.double_marks,
            assassin=state.assassin == i,
        )
        for i, word in enumerate(state.words)
    )
    clues = tuple(ClueView(c.seat, c.word, c.number, c.guesses, c.penalty, c.override) for c in state.clues)
    if state.phase == "guess" and state.guesser:
        guessers: tuple[Seat, ...] = (state.guesser,)
    else:
        guessers = sudden_death_guessers(state)
    points = score(state)
    return PublicView(
        mode="duet",
        version=state.version,
        cards=cards,
        phase=state.phase,
        clue_givers=clue_givers(state),
        clue_giver=state.clue_giver if state.phase == "guess" else None,
        guessers=guessers,
        can_stop=state.phase == "guess" and state.correct_this_turn,
        can_penalise=state.phase == "guess" and bool(state.clues) and not state.clues[-1].penalty,
        clues=clues,
        bank_innocent=state.bank_innocent,
        bank_closed=state.bank_closed,
        taken=state.taken,
        tokens=state.rules.tokens,
        mistakes=state.rules.innocent,
        agents_found=len(state.found),
        agents_total=TOTAL_GREENS,
        # Announced at the table by the rules, so public: a seat whose 9 greens are all covered.
        done_seats=tuple(s for s in SEATS if greens_left(state, s) == 0),
        sudden_death=state.sudden_death,
        reason=state.reason,
        score=points,
        verdict=verdict(points) if points is not None else None,
        mission=state.mission,
        several_clues=state.rules.several_clues,
        clue_rules=state.rules.clues,
        language=state.rules.language,
    )


def seat_view(state: DuetState, seat: Seat, public: PublicView | None = None) -> SeatView:
    """``seat``'s view; ``public``: the state's public view when it is already made (a session keeps one)."""
    return SeatView(public=public if public is not None else public_view(state), seat=seat,
                    key=state.key.side(seat), greens_left=greens_left(state, seat))


def revealed_keys(state: DuetState) -> dict[Seat, str] | None:
    """Both key sides, only once the game is over (the game-over screen shows them after both seats confirm)."""
    if not state.over:
        return None
    return {"A": state.key.a, "B": state.key.b}
