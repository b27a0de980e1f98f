"""Classic Codenames (rules §2) and Codenames Pictures (rules §3): two teams, one key, pure actions.

Variants: ``standard``; ``duo`` (one team, the starting team, plays against the box, which covers one of
its own cards after each of the team's turns — a ``Cover`` action in the record, chosen with the game's
seed); ``trio`` (two spymasters, one guesser playing for both teams in turn: the rules of ``standard``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from . import events as ev
from .actions import check_clue_length, clue_word
from .clues import refuse_invalid
from .duet import LANGUAGES
from .errors import (
    BadKey,
    CannotStop,
    CardNotPlayable,
    GameOver,
    IllegalAction,
    NotYourTurn,
    StaleAction,
    WrongPhase,
)

Team = Literal["R", "B"]
TEAMS: tuple[Team, Team] = ("R", "B")
Kind = Literal["classic", "pictures"]
Variant = Literal["standard", "duo", "trio"]
ClassicPhase = Literal["clue", "guess", "cover", "won"]
Reason = Literal["all_found", "assassin", "opponent_done"]
MAX_NUMBER = 9
UNLIMITED = None  # a clue number of None means "unlimited"

#: Rules §2/§3 key compositions: (starting team, other team, bystanders, assassin).
COMPOSITIONS: dict[str, tuple[int, int, int, int]] = {
    "classic": (9, 8, 7, 1),
    "pictures-source": (9, 8, 2, 1),
    "pictures-printed": (8, 7, 4, 1),
}


def other_team(team: Team) -> Team:
    return "B" if team == "R" else "R"


def parse_team(value: object) -> Team:
    if value == "R":
        return "R"
    if value == "B":
        return "B"
    raise ValueError(f"team must be 'R' or 'B', not {value!r}")


def composition(kind: Kind, pictures_key: str = "source") -> tuple[int, int, int, int]:
    if kind == "classic":
        return COMPOSITIONS["classic"]
    if pictures_key not in ("source", "printed"):
        raise ValueError("pictures_key must be 'source' or 'printed'")
    return COMPOSITIONS["pictures-" + pictures_key]


@dataclass(frozen=True)
class ClassicKey:
    """The key card: one of R/B/N/X per card, and the team that starts (it has the extra card)."""

    cards: str
    start: Team

    def counts(self) -> tuple[int, int, int, int]:
        other = other_team(self.start)
        cards = self.cards
        return (cards.count(self.start), cards.count(other), cards.count("N"), cards.count("X"))


def parse_classic_key(cards: object, start: object, kind: Kind, pictures_key: str = "source") -> ClassicKey:
    """A key from its text; BadKey with the reason when it does not follow the composition."""
    try:
        team = parse_team(start)
    except ValueError as exc:
        raise BadKey(f"start: {exc}") from None
    wanted = composition(kind, pictures_key)
    size = sum(wanted)
    if not isinstance(cards, str) or len(cards) != size:
        raise BadKey(f"the key must be a string of {size} characters R/B/N/X")
    bad = sorted(set(cards) - set("RBNX"))
    if bad:
        raise BadKey(f"the key has characters other than R, B, N, X: {''.join(bad)}")
    key = ClassicKey(cards, team)
    if key.counts() != wanted:
        s, o, n, x = key.counts()
        raise BadKey(f"the key has {s} for the starting team {team}, {o} for the other, {n} bystanders and "
                     f"{x} assassin(s); this game needs {wanted[0]}/{wanted[1]}/{wanted[2]}/{wanted[3]}")
    return key


def random_classic_key(rng: random.Random, kind: Kind = "classic", pictures_key: str = "source",
                       start: Team | None = None) -> ClassicKey:
    team: Team = start if start is not None else rng.choice(TEAMS)
    s, o, n, x = composition(kind, pictures_key)
    cards = [team] * s + [other_team(team)] * o + ["N"] * n + ["X"] * x
    rng.shuffle(cards)
    return ClassicKey("".join(cards), team)


# --- actions ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TeamClue:
    team: Team
    word: str | None
    number: int | None  # None = unlimited
    override: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "clue", "team": self.team, "word": self.word,
                             "number": "unlimited" if self.number is None else self.number}
        if self.override:
            d["override"] = True
        return d

    def __str__(self) -> str:
        return f"{self.team} clue {self.word or '-'} {'∞' if self.number is None else self.number}"


@dataclass(frozen=True)
class TeamGuess:
    team: Team
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "guess", "team": self.team, "card": self.card}

    def __str__(self) -> str:
        return f"{self.team} guess {self.card}"


@dataclass(frozen=True)
class TeamStop:
    team: Team

    def to_dict(self) -> dict[str, Any]:
        return {"type": "stop", "team": self.team}

    def __str__(self) -> str:
        return f"{self.team} stop"


@dataclass(frozen=True)
class TeamPenalty:
    """Rules §2 Invalid clue: ``team``'s turn ends and the other spymaster covers one of their own cards."""

    team: Team
    cover: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "penalty", "team": self.team, "cover": self.cover}

    def __str__(self) -> str:
        return f"{self.team} penalty, cover {self.cover}"


@dataclass(frozen=True)
class Cover:
    """Duo variant: the box's team covers one of its own cards after the players' turn."""

    team: Team
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "cover", "team": self.team, "card": self.card}

    def __str__(self) -> str:
        return f"{self.team} covers {self.card}"


ClassicAction = TeamClue | TeamGuess | TeamStop | TeamPenalty | Cover


def _clue_from_dict(team: Team, d: dict[str, Any]) -> TeamClue:
    word = clue_word(d)
    number = d.get("number")
    if number == "unlimited":
        n: int | None = None
    elif isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= MAX_NUMBER:
        n = number
    else:
        raise ValueError(f"clue action needs 'number' from 0 to {MAX_NUMBER} or \"unlimited\"")
    override = d.get("override", False)
    if not isinstance(override, bool):
        raise ValueError("clue action's 'override' must be true or false")
    return TeamClue(team, word, n, override)


def classic_action_from_dict(d: object, size: int) -> ClassicAction:
    if not isinstance(d, dict):
        raise ValueError("an action must be a JSON object")
    kind = d.get("type")

    def card(name: str) -> int:
        value = d.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
            raise ValueError(f"{kind} action needs {name!r} as a card from 0 to {size - 1}")
        return value

    team = parse_team(d.get("team"))
    if kind == "clue":
        return _clue_from_dict(team, d)
    if kind == "guess":
        return TeamGuess(team, card("card"))
    if kind == "stop":
        return TeamStop(team)
    if kind == "penalty":
        return TeamPenalty(team, card("cover"))
    if kind == "cover":
        return Cover(team, card("card"))
    raise ValueError(f"unknown action type {kind!r} (clue, guess, stop, penalty, cover)")


# --- state --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClassicRules:
    kind: Kind = "classic"
    variant: Variant = "standard"
    clues: Literal["strict", "flexible"] = "strict"
    pictures_key: Literal["source", "printed"] = "source"
    language: str = "fr"

    def __post_init__(self) -> None:
        if self.kind not in ("classic", "pictures"):
            raise ValueError("kind must be 'classic' or 'pictures'")
        if self.variant not in ("standard", "duo", "trio"):
            raise ValueError("variant must be 'standard', 'duo' or 'trio'")
        if self.clues not in ("strict", "flexible"):
            raise ValueError("clues must be 'strict' or 'flexible'")
        if self.pictures_key not in ("source", "printed"):
            raise ValueError("pictures_key must be 'source' or 'printed'")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")

    @property
    def size(self) -> int:
        return sum(composition(self.kind, self.pictures_key))

    @property
    def columns(self) -> int:
        return 5

    @property
    def rows(self) -> int:
        return self.size // 5


@dataclass(frozen=True)
class TeamClueEntry:
    team: Team
    word: str | None
    number: int | None
    override: bool = False
    guesses: tuple[int, ...] = ()
    penalty: bool = False


@dataclass(frozen=True)
class ClassicState:
    cards: tuple[str, ...]
    key: ClassicKey = field(repr=False)
    rules: ClassicRules
    seed: int = 0
    history: tuple[ClassicAction, ...] = ()
    phase: ClassicPhase = "clue"
    turn: Team = "R"
    covered: frozenset[int] = frozenset()
    clues: tuple[TeamClueEntry, ...] = ()
    guesses_made: int = 0
    winner: Team | None = None
    reason: Reason | None = None
    assassin: int | None = None

    @property
    def version(self) -> int:
        return len(self.history)

    @property
    def over(self) -> bool:
        return self.phase == "won"

    @property
    def players(self) -> Team:
        """In duo, the team the people play (the starting team); the other one is the box."""
        return self.key.start

    @property
    def guesses_left(self) -> int | None:
        if self.phase != "guess":
            return None
        number = self.clues[-1].number
        if number is None or number == 0:
            return None
        return number + 1 - self.guesses_made


def new_classic_game(cards: tuple[str, ...] | list[str], key: ClassicKey, rules: ClassicRules | None = None,
                     seed: int = 0) -> ClassicState:
    rules = rules or ClassicRules()
    cards = tuple(cards)
    if len(cards) != rules.size or any(not isinstance(c, str) or not c.strip() for c in cards):
        raise ValueError(f"this game needs {rules.size} non-empty cards")
    if len({c.casefold() for c in cards}) != len(cards):
        raise ValueError("the cards must be distinct")
    if len(key.cards) != rules.size or key.counts() != composition(rules.kind, rules.pictures_key):
        raise BadKey("the key does not fit this game")
    return ClassicState(cards=cards, key=key, rules=rules, seed=seed, turn=key.start)


def left(state: ClassicState, team: Team) -> int:
    """Cards of ``team`` not yet covered."""
    return sum(1 for i, c in enumerate(state.key.cards) if c == team and i not in state.covered)


def _win(state: ClassicState, team: Team, reason: Reason) -> ClassicState:
    return replace(state, phase="won", winner=team, reason=reason)


def _after_cover(state: ClassicState) -> ClassicState | None:
    """Rules §2: a team wins when all its cards are covered, also on the other team's turn."""
    for team in (state.turn, other_team(state.turn)):
        if left(state, team) == 0:
            if state.rules.variant == "duo" and team != state.players:
                return _win(state, team, "opponent_done")
            return _win(state, team, "all_found")
    return None


def _end_turn(state: ClassicState) -> ClassicState:
    state = replace(state, guesses_made=0)
    if state.rules.variant == "duo" and state.turn == state.players:
        return replace(state, phase="cover", turn=other_team(state.players))
    if state.rules.variant == "duo":
        return replace(state, phase="clue", turn=state.players)
    return replace(state, phase="clue", turn=other_team(state.turn))


def apply_classic(state: ClassicState, action: ClassicAction, *,
                  version: int | None = None) -> ClassicState:
    """Apply one action; an IllegalAction subclass (state unchanged) when it may not happen now."""
    if version is not None and version != state.version:
        raise StaleAction(f"this action was made against move {version}, the game is at move {state.version}")
    if state.over:
        raise GameOver("the game is over")
    if not isinstance(action, (TeamClue, TeamGuess, TeamStop, TeamPenalty, Cover)):
        raise IllegalAction(f"not a classic action: {action!r}")
    if action.team != state.turn:
        raise NotYourTurn(f"it is team {state.turn}'s turn, not team {action.team}'s")
    new = _apply(state, action)
    return replace(new, history=state.history + (action,))


def apply(state: ClassicState, action: ClassicAction, *,
          version: int | None = None) -> tuple[ClassicState, list[ev.Event]]:
    """``apply_classic`` with the public events the action caused (like ``engine.duet.apply``): the colour a
    guess uncovered and the end of the game. Only public facts: a covered card's colour is public."""
    new = apply_classic(state, action, version=version)
    events: list[ev.Event] = []
    if isinstance(action, TeamGuess):
        events.append(ev.CardCovered(action.card, action.team, new.key.cards[action.card]))
    if new.over and not state.over:
        players_lost = new.rules.variant == "duo" and new.winner != new.players
        events.append(ev.GameLost(new.reason or "") if players_lost else ev.GameWon(None))
    return new, events


def can_penalise(state: ClassicState) -> bool:
    """Rules §2: a clue in play that broke the clue rules may be penalised once (while its team guesses)."""
    return state.phase == "guess" and bool(state.clues) and not state.clues[-1].penalty


def penalty_for(state: ClassicState) -> TeamPenalty:
    """Rules §2 invalid clue: the other spymaster covers one of their own cards. The box picks it with the
    game's seed (the card becomes public once covered); in duo it is the box's own choice."""
    if not can_penalise(state):
        raise WrongPhase("no clue in play may be penalised")
    team = state.turn
    if state.rules.variant == "duo":
        return TeamPenalty(team, duo_cover_choice(state))
    opponent = other_team(team)
    choices = [i for i, c in enumerate(state.key.cards) if c == opponent and i not in state.covered]
    return TeamPenalty(team, random.Random(f"{state.seed}:{state.version}").choice(choices))


def _apply(state: ClassicState, action: ClassicAction) -> ClassicState:
    if isinstance(action, Cover):
        return _apply_cover(state, action)
    if state.phase == "cover":
        raise WrongPhase(f"the box (team {state.turn}) covers one of its cards first")
    if isinstance(action, TeamClue):
        return _apply_clue(state, action)
    if state.phase != "guess":
        raise WrongPhase("waiting for the spymaster's clue")
    if isinstance(action, TeamStop):
        if state.guesses_made == 0:
            raise CannotStop("a team must make at least one guess before it stops")
        return _end_turn(state)
    if isinstance(action, TeamPenalty):
        return _apply_penalty(state, action)
    return _apply_guess(state, action)


def _apply_cover(state: ClassicState, action: Cover) -> ClassicState:
    if state.phase != "cover":
        raise WrongPhase("the box covers a card only after the players' turn (duo)")
    if (not 0 <= action.card < len(state.cards) or action.card in state.covered
            or state.key.cards[action.card] != action.team):
        raise CardNotPlayable(f"card {action.card} is not an uncovered card of team {action.team}")
    state = replace(state, covered=state.covered | {action.card})
    done = _after_cover(state)
    return done if done else replace(state, phase="clue", turn=state.players)


def _apply_clue(state: ClassicState, action: TeamClue) -> ClassicState:
    if state.phase != "clue":
        raise WrongPhase("a clue has been given: the team is guessing")
    if action.number is not None and not 0 <= action.number <= MAX_NUMBER:
        raise IllegalAction(f"the clue number must be 0 to {MAX_NUMBER} or unlimited")
    check_clue_length(action.word)
    if action.word is not None and not action.override:
        visible = tuple(w for i, w in enumerate(state.cards) if i not in state.covered)
        refuse_invalid(action.word, visible, language=state.rules.language, strict=state.rules.clues == "strict",
                       pictures=state.rules.kind == "pictures")
    entry = TeamClueEntry(action.team, action.word, action.number, action.override)
    return replace(state, phase="guess", clues=state.clues + (entry,), guesses_made=0)


def _apply_penalty(state: ClassicState, action: TeamPenalty) -> ClassicState:
    last = state.clues[-1]
    if last.penalty:
        raise IllegalAction("this clue has already been penalised")
    opponent = other_team(action.team)
    if (not 0 <= action.cover < len(state.cards) or action.cover in state.covered
            or state.key.cards[action.cover] != opponent):
        raise CardNotPlayable(f"card {action.cover} is not an uncovered card of team {opponent}")
    state = replace(state, covered=state.covered | {action.cover},
                    clues=state.clues[:-1] + (replace(last, penalty=True),))
    done = _after_cover(state)
    if done:
        return done
    # The penalty ends the turn like any other end of turn: in duo the box then covers one more card.
    return _end_turn(state)


def _apply_guess(state: ClassicState, action: TeamGuess) -> ClassicState:
    card = action.card
    if not 0 <= card < len(state.cards):
        raise CardNotPlayable(f"there is no card {card}")
    if card in state.covered:
        raise CardNotPlayable(f"card {card} is already covered")
    last = state.clues[-1]
    state = replace(state, covered=state.covered | {card}, guesses_made=state.guesses_made + 1,
                    clues=state.clues[:-1] + (replace(last, guesses=last.guesses + (card,)),))
    colour = state.key.cards[card]
    if colour == "X":  # rules §2: the guessing team loses at once
        state = replace(state, assassin=card)
        winner = other_team(action.team)
        return _win(state, winner, "assassin")
    done = _after_cover(state)
    if done:
        return done
    if colour != action.team:
        return _end_turn(state)
    left_now = state.guesses_left
    if left_now is not None and left_now <= 0:
        return _end_turn(state)
    return state


def duo_cover_choice(state: ClassicState) -> int:
    """The card the box covers in duo, picked with the game's seed (deterministic for replay).

    In the cover phase it is the box's end-of-turn cover; while the players guess (duo only) it is the card
    the box covers if their clue is penalised (``TeamPenalty(players, duo_cover_choice(state))``).
    """
    if state.phase == "cover":
        box = state.turn
    elif state.phase == "guess" and state.rules.variant == "duo":
        box = other_team(state.players)
    else:
        raise WrongPhase("no cover is due")
    choices = [i for i, c in enumerate(state.key.cards) if c == box and i not in state.covered]
    return random.Random(f"{state.seed}:{state.version}").choice(choices)


def legal_classic_actions(state: ClassicState) -> list[ClassicAction]:
    actions: list[ClassicAction] = []
    team = state.turn
    if state.over:
        return actions
    if state.phase == "cover":
        return [Cover(team, i) for i, c in enumerate(state.key.cards) if c == team and i not in state.covered]
    if state.phase == "clue":
        actions.extend(TeamClue(team, None, n) for n in [*range(MAX_NUMBER + 1), None])
        return actions
    actions.extend(TeamGuess(team, i) for i in range(len(state.cards)) if i not in state.covered)
    if state.guesses_made > 0:
        actions.append(TeamStop(team))
    if not state.clues[-1].penalty:
        opponent = other_team(team)
        actions.extend(TeamPenalty(team, i) for i, c in enumerate(state.key.cards)
                       if c == opponent and i not in state.covered)
    return actions


# --- views --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClassicCardView:
    index: int
    content: str  # a word, or a picture id in Pictures
    colour: str | None  # R/B/N/X once covered, else None

    @property
    def covered(self) -> bool:
        return self.colour is not None


@dataclass(frozen=True)
class ClassicPublicView:
    mode: str  # "classic" | "pictures"
    variant: str
    version: int
    columns: int
    rows: int
    cards: tuple[ClassicCardView, ...]
    phase: ClassicPhase
    turn: Team
    start: Team  # the lights on the key card's edge are public
    players: Team | None  # the people's team in duo
    clue: TeamClueEntry | None
    clues: tuple[TeamClueEntry, ...]
    guesses_left: int | None
    left: dict[str, int]  # cards left per team (public: the key's composition is known)
    winner: Team | None
    reason: str | None
    language: str


@dataclass(frozen=True)
class SpymasterView:
    public: ClassicPublicView
    key: str


def classic_public_view(state: ClassicState) -> ClassicPublicView:
    cards = tuple(ClassicCardView(i, c, state.key.cards[i] if i in state.covered else None)
                  for i, c in enumerate(state.cards))
    return ClassicPublicView(
        mode=state.rules.kind,
        variant=state.rules.variant,
        version=state.version,
        columns=state.rules.columns,
        rows=state.rules.rows,
        cards=cards,
        phase=state.phase,
        turn=state.turn,
        start=state.key.start,
        players=state.players if state.rules.variant == "duo" else None,
        clue=state.clues[-1] if state.phase == "guess" else None,
        clues=state.clues,
        guesses_left=state.guesses_left,
        left={t: left(state, t) for t in TEAMS},
        winner=state.winner,
        reason=state.reason,
        language=state.rules.language,
    )


def spymaster_view(state: ClassicState) -> SpymasterView:
    return SpymasterView(classic_public_view(state), state.key.cards)


def guesser_view(state: ClassicState) -> ClassicPublicView:
    return classic_public_view(state)
