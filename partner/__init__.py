"""The box as a Codenames Duet partner: it gives clues and takes yours, from exported word vectors.

Run time needs numpy and the matrices written by `duetbox partner build` only. See docs/partner.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from partner import giver as _giver
from partner import guesser as _guesser
from partner.legal import Checker, engine_checker
from partner.paths import PLAY_SPACES, SPACES, built_spaces, space_path
from partner.prior import partner_prior
from partner.space import SpaceError, VectorSpace
from partner.text import fold, normalize, stem
from partner.turns import ME, PARTNER, ClueChoice, GuessChoice, Turn, known_partner_labels, marked_for_partner

__all__ = [
    "ClueChoice",
    "GuessChoice",
    "Partner",
    "PartnerUnavailable",
    "Turn",
    "ME",
    "PARTNER",
    "available_languages",
]

DIFFICULTIES = ("easy", "normal")


class PartnerUnavailable(RuntimeError):
    """No partner for this language here; str() is a one-line reason fit for a screen."""


def available_languages(data_dir: str | None = None) -> list[str]:
    """Languages whose main space has been built into the data directory."""
    return [lang for lang, spaces in SPACES.items() if space_path(lang, spaces[0], data_dir).is_file()]


@dataclass
class _Received:
    word: str
    number: int
    considered: list[str] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)
    reason: str = ""
    turn: int = 0  # index of this clue's turn in the history


class Partner:
    """A Duet partner for one game at a time (call `new_game()` between games to clear its explanations).

    Cards are indices 0..24 into `board`; `my_side` is the box's key side as 25 letters G/N/X; `covered`
    holds the cards out of play for both seats (agent tiles, and bystanders marked for both); `history` is a
    sequence of `Turn`, oldest first, for finished turns.
    """

    def __init__(
        self,
        lang: str,
        spaces: Sequence[VectorSpace],
        difficulty: str = "normal",
        guesser_spaces: Sequence[VectorSpace] | None = None,
        checker: Checker | None = None,
        giver_params: _giver.GiverParams | None = None,
        guesser_params: _guesser.GuesserParams | None = None,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}")
        if not spaces:
            raise PartnerUnavailable(f"no word vectors for {lang}")
        self.lang = lang
        self.difficulty = difficulty
        self.giver_spaces = list(spaces)
        self.guesser_spaces = list(guesser_spaces or spaces)
        self.vocab = _giver.Vocabulary(self.giver_spaces)
        self.giver_params = giver_params or (_giver.EASY if difficulty == "easy" else _giver.GiverParams())
        self.guesser_params = guesser_params or (_guesser.EASY if difficulty == "easy" else _guesser.GuesserParams())
        self.checker = checker
        self._scores: _giver.BoardScores | None = None
        self._mats: dict[str, np.ndarray] = {}
        self._board: tuple[str, ...] = ()
        self._given: dict[str, tuple[int, ...]] = {}
        self._log: list[tuple[str, object]] = []
        self._received: dict[tuple[int, str], _Received] = {}

    # ------------------------------------------------------------------ loading

    @classmethod
    def load(cls, lang: str, data_dir: str | None = None, difficulty: str = "normal") -> Partner:
        """Load the built spaces of `lang` (up to two). Raises PartnerUnavailable with a one-line reason."""
        if lang not in SPACES:
            raise PartnerUnavailable(f"no solo partner for language {lang!r}: no word-vector model for it")
        names = built_spaces(lang, data_dir)[:PLAY_SPACES]
        if not names:
            raise PartnerUnavailable(f"solo partner for {lang!r} not built: run `duetbox partner build --lang {lang}`")
        try:
            spaces = [VectorSpace.load(space_path(lang, n, data_dir)) for n in names]
        except SpaceError as exc:
            raise PartnerUnavailable(str(exc)) from exc
        # Measured (docs/partner.md): consensus clues avoid some assassins with a distant partner but win no
        # game with a near one, in either difficulty; so clues come from the first space and guessing averages
        # every space (which helped). Consensus stays available through the constructor and the eval command.
        givers = spaces[:1]
        return cls(lang, givers, difficulty, guesser_spaces=spaces, checker=engine_checker(lang))

    def new_game(self) -> None:
        self._given.clear()
        self._log.clear()
        self._received.clear()

    # ------------------------------------------------------------------ board cache

    def _prepare(self, board: Sequence[str]) -> _giver.BoardScores:
        key = tuple(normalize(w) for w in board)
        if self._scores is None or key != self._board:
            self._board = key
            self._scores = _giver.BoardScores(self.vocab, key, self.lang)
            self._mats = {s.key: s.board_matrix(key)[0] for s in self.guesser_spaces}
        return self._scores

    def prepare_board(self, board: Sequence[str], covered: Collection[int] = ()) -> None:
        """Do the per-board work now (at most about a second) so that the first clue is quick."""
        scores = self._prepare(board)
        scores.legal([w for i, w in enumerate(self._board) if i not in covered])

    # ------------------------------------------------------------------ giving

    def give_clue(
        self, board: Sequence[str], my_side: str, covered: Collection[int], history: Sequence[Turn] = ()
    ) -> ClueChoice | None:
        """The box's clue for its remaining greens, or None when it has none left to clue."""
        scores = self._prepare(board)
        covered = set(covered)
        gone_for_partner = marked_for_partner(history)
        targets = [i for i, c in enumerate(my_side) if c == "G" and i not in covered]
        bystanders = [i for i, c in enumerate(my_side) if c == "N" and i not in covered and i not in gone_for_partner]
        assassins = [i for i, c in enumerate(my_side) if c == "X" and i not in covered]
        visible = [w for i, w in enumerate(self._board) if i not in covered]
        mine = [t for t in history if t.giver == ME]
        banned = {normalize(t.word) for t in mine} | set(self._given)
        leftovers = {i for t in mine for i in (t.targets or self._given.get(normalize(t.word), ()))} - covered
        choice = _giver.choose_clue(
            scores,
            self.vocab,
            targets,
            bystanders,
            assassins,
            visible,
            self._giver_params_now(mine),
            banned=banned,
            leftovers=leftovers,
            checker=self.checker,
        )
        if choice is not None:
            self._given[choice.word] = choice.targets
            self._log.append(("gave", choice))
        return choice

    def _giver_params_now(self, mine: Sequence[Turn]) -> _giver.GiverParams:
        """Bolder while the partner has understood every clue so far; the plain parameters otherwise.

        A clue was understood when the guesses of its turn hit the meant cards, in any order, before anything
        else. The box cannot know how its partner reads words; this is how it learns during the game.
        """
        verdicts = []
        for t in mine:
            meant = set(t.targets or self._given.get(normalize(t.word), ()))
            if not meant or not t.guesses:
                continue
            first = [card for card, _ in t.guesses[: len(meant)]]
            verdicts.append(set(first) <= meant and len(first) == len(meant))
        # A "careful after a misread" mode was measured too: it cost more wins than it saved assassins.
        if verdicts and all(verdicts):
            return _giver.BOLD
        return self.giver_params

    # ------------------------------------------------------------------ guessing

    def _clue_z(self, word: str) -> np.ndarray | None:
        zs = []
        for s in self.guesser_spaces:
            z = s.word_z(word, self._mats[s.key])
            if z is None:
                # typed without accents, or an unknown form (plural, feminine...): borrow a clue word with the
                # same letters, else the same stem
                same = np.flatnonzero(s.clue_fold == fold(word))
                if not len(same):
                    same = np.flatnonzero(s.clue_stem == stem(word, self.lang))
                if len(same):
                    z = s.z(self._mats[s.key] @ s.clue_vecs[int(same[0])])
            if z is not None:
                zs.append(z)
        return np.mean(zs, axis=0) if zs else None

    def _guesser_params_now(self, history: Sequence[Turn]) -> _guesser.GuesserParams:
        """Follow the partner's numbers more closely while every guess on its clues has been right."""
        turns = [t for t in history if t.giver == PARTNER and t.guesses]
        results = [r for t in turns for _, r in t.guesses]
        if self.difficulty == "normal" and results and all(r == "G" for r in results):
            return _guesser.BOLD
        # A careful mode after a wrong guess was measured: fewer assassins with a distant partner, but fewer
        # wins with a close one; not kept.
        return self.guesser_params

    def next_guess(
        self,
        board: Sequence[str],
        my_side: str,
        clue_word: str | None,
        clue_number: int | None,
        covered: Collection[int],
        marks_for_me: Collection[int],
        history: Sequence[Turn] = (),
        sudden_death: bool = False,
        turn_guesses: Sequence[tuple[int, str]] = (),
    ) -> GuessChoice | None:
        """The next card to touch for the partner's clue, or None to stop.

        `turn_guesses` are this turn's guesses so far (card, result). In sudden death `clue_word` may be None
        and the box always guesses (earlier clues and the key-card prior guide it). At least one guess a turn.
        """
        self._prepare(board)
        blocked = set(covered) | set(marks_for_me)
        touchable = np.array([i not in blocked for i in range(len(my_side))])
        if not touchable.any():
            return None
        known = known_partner_labels(history, turn_guesses)
        prior = partner_prior(my_side, known)
        params = self.guesser_params
        clues: list[tuple[np.ndarray | None, float, float]] = []
        hits = sum(1 for _, r in turn_guesses if r == "G")
        if clue_word and not sudden_death:
            clues.append((self._clue_z(clue_word), max(clue_number or 1, 1) - hits, 1.0))
        for t in history:
            if t.giver != PARTNER:
                continue
            found = sum(1 for _, r in t.guesses if r == "G")
            weight = 1.0 if sudden_death else params.memory_weight
            clues.append((self._clue_z(t.word), max(t.number, 1) - found, weight))
        params = self._guesser_params_now(history)
        a = _guesser.assess(prior, touchable, clues, params, sudden_death)
        card = int(np.argmax(a.value))
        go, reason = _guesser.should_continue(a, card, params, hits, sudden_death)
        entry = self._received.get((len(history), clue_word or ""))
        if entry is None:
            entry = _Received(clue_word or "(sudden death)", clue_number or 0, turn=len(history))
            self._received[(len(history), clue_word or "")] = entry
            self._log.append(("received", entry))
            top = [int(i) for i in np.argsort(-a.value)[:4] if touchable[i]]
            entry.considered = [f"{self._board[i]} ({a.green[i]:.0%} green, {a.assassin[i]:.0%} assassin)" for i in top]
        entry.reason = reason
        if not go:
            return None
        entry.guesses.append(self._board[card])
        return GuessChoice(card, float(a.green[card]), float(a.assassin[card]), float(a.value[card]))

    # ------------------------------------------------------------------ explaining

    def explain(self, history: Sequence[Turn] = ()) -> list[str]:
        """What I meant: per clue given, the words meant; per clue received, the words weighed and why.

        With the game's `history`, a turn that ended on a wrong guess says so instead of the last reason.
        """
        lines = []
        for kind, item in self._log:
            if kind == "gave":
                assert isinstance(item, ClueChoice)
                meant = ", ".join(self._board[i] for i in item.targets)
                note = " (no safe clue: the least risky one)" if item.fallback else ""
                lines.append(f"I said {item.word.upper()} {item.number}: I meant {meant}{note}")
            else:
                assert isinstance(item, _Received)
                guessed = ", ".join(item.guesses) or "nothing"
                reason = item.reason
                turn = history[item.turn] if item.turn < len(history) else None
                if turn is not None and turn.word == item.word and turn.guesses and turn.guesses[-1][1] != "G":
                    reason = "the turn ended on a wrong guess"
                lines.append(
                    f"You said {item.word.upper()} {item.number}: I considered {'; '.join(item.considered)};"
                    f" I touched {guessed}; {reason}"
                )
        return lines
