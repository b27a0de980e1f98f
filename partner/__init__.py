"""The box as a Codenames Duet partner: it gives clues and takes yours, from exported word vectors.

Run time needs numpy and the matrices written by `duetbox partner build` only. See docs/partner.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from partner import giver as _giver
from partner import guesser as _guesser
from partner import messages as _messages
from partner import noisy as _noisy
from partner import winprob as _winprob
from partner.assoc import AssocError, AssocTable
from partner.legal import Checker, engine_checker
from partner.paths import PLAY_SPACES, SPACES, built_spaces, space_path
from partner.prior import partner_agents_left, partner_prior, sudden_death_prior
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

#: The box's own settings (measured: docs/partner.md, "Tuning"). The legacy giver/guesser settings of
#: partner.giver and partner.guesser stay for the evaluation's stand-in partner.
BOX_NOISE = {"normal": _noisy.NoiseParams(), "easy": _noisy.NoiseParams(assassin=12.0, max_n=2)}
BOX_GUESSER = {
    "normal": _guesser.GuesserParams(tau=0.6, assassin_cost=12.0, min_green=0.65, memory_weight=0.5,
                                     trust_strength=2, trust_z=2.5, trust_gap=0.5, min_pointed=0.5,
                                     promise_green=0.3, promise_pointed=0.3, bystander_cost=0.0,
                                     clock=True),
    "easy": _guesser.GuesserParams(tau=0.6, assassin_cost=16.0, min_green=0.7, memory_weight=0.5,
                                   trust_strength=3, trust_z=2.5, trust_gap=0.8, min_pointed=0.6,
                                   promise_green=0.4, promise_pointed=0.4),
}
#: the least an assassin costs a guess past the first, in agents' worth (players: SNAKE at 8 % on DUST 2 lost a game)
ASSASSIN_PRICE_FLOOR = 6.0
#: the guesser of main before issue 28 (the eval's "before" rows: --box noisy)
BOX_GUESSER_NOISY = {
    "normal": _guesser.GuesserParams(tau=0.6, assassin_cost=12.0, min_green=0.65),
    "easy": _guesser.GuesserParams(tau=0.6, assassin_cost=16.0, min_green=0.7),
}
#: The clue giver that plays against the clock (issue 28): the chance of winning after the turn.
BOX_WIN = {"normal": _winprob.WinParams(), "easy": _winprob.WinParams(margin_a=1.5, min_last=0.55)}
#: per language: the English vectors (GloVe 50-d) agree less with a person's reading than the French ones (the
#: person model touched the box's assassin on 27 % of English games at σ 1.1, 10 % at 1.5; docs/partner.md)
BOX_WIN_LANG: dict[str, dict[str, float]] = {"en": {"sigma": 1.4, "margin_a": 1.5}}


def box_win(lang: str, difficulty: str = "normal") -> _winprob.WinParams:
    """The win-probability giver's settings of the box for a language and difficulty."""
    import dataclasses

    base = BOX_WIN[difficulty]
    extra = BOX_WIN_LANG.get(lang, {})
    return dataclasses.replace(base, **{k: max(v, getattr(base, k)) for k, v in extra.items()})
#: σ units added to a card's similarity per point of association strength (1..5), when giving and when reading
W_ASSOC_GIVE = 0.3
W_ASSOC_READ = 0.4
#: ... when the people-trusting guesser reads a person's clue (issue 28: readers follow table links ~1 σ a point)
W_ASSOC_READ_TRUST = 0.9
#: ... none in the scores of the win-probability giver, whose simulated reader knows table links on its own
#: (partner.winprob.WinParams.w_link, p_known)
W_ASSOC_GIVE_WIN = 0.0


_Clues = list[tuple[np.ndarray | None, float, float]]  # per clue: z per card (or None), targets unfound, weight


def _within(clues: _Clues, left: float) -> _Clues:
    """The clues' unfound targets scaled down to the partner's agents actually left (playtest fr3: PAPIER 2,
    whose two cards were found on a later clue, still counted two, and SALADE, a bystander, read "100 % green")."""
    total = sum(weight * remaining for z, remaining, weight in clues if z is not None and remaining > 0)
    if total <= left or total <= 0:
        return clues
    factor = left / total
    return [(z, remaining * factor, weight) for z, remaining, weight in clues]


class PartnerUnavailable(RuntimeError):
    """No partner for this language here; str() is a one-line reason fit for a screen."""


def available_languages(data_dir: str | None = None) -> list[str]:
    """Languages whose main space has been built into the data directory."""
    return [lang for lang, spaces in SPACES.items() if space_path(lang, spaces[0], data_dir).is_file()]


@dataclass
class _Received:
    word: str
    number: int
    considered: list[tuple[str, float, float]] = field(default_factory=list)  # word, P(green), P(assassin)
    guesses: list[str] = field(default_factory=list)
    reason: str = ""  # a partner.messages key
    reason_card: tuple[float, float] = (0.0, 0.0)  # P(green), P(assassin) of the card the reason is about
    sudden: bool = False
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
        assoc: AssocTable | None = None,
        clean: bool = False,
        noise: _noisy.NoiseParams | None = None,
        adaptive: bool = True,
        w_assoc_give: float = W_ASSOC_GIVE,
        w_assoc_read: float = W_ASSOC_READ,
        language: str | None = None,
        winprob: _winprob.WinParams | None = None,
        hub: bool = False,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}")
        if not spaces:
            raise PartnerUnavailable(f"no word vectors for {lang}")
        self.lang = lang
        self.difficulty = difficulty
        self.giver_spaces = list(spaces)
        self.guesser_spaces = list(guesser_spaces or spaces)
        self.assoc = assoc if assoc else None
        self.vocab = _giver.Vocabulary(
            self.giver_spaces, clean=clean, extra=self.assoc.all_associates() if self.assoc else ()
        )
        self.giver_params = giver_params or (_giver.EASY if difficulty == "easy" else _giver.GiverParams())
        self.guesser_params = guesser_params or (_guesser.EASY if difficulty == "easy" else _guesser.GuesserParams())
        self.checker = checker
        self.noise = noise
        self.winprob = winprob
        self.hub = hub  # correct hub cards (close to every word in the vectors) when giving and reading
        self.adaptive = adaptive  # grow bolder / follow closer while the partner reads well (legacy switches)
        self.w_assoc_give = w_assoc_give if self.assoc else 0.0
        self.w_assoc_read = w_assoc_read if self.assoc else 0.0
        #: the interface language of the "what I meant" texts (default: the partner's own language)
        self.language = language or lang
        self._rng = np.random.default_rng(noise.seed if noise else 0)
        self._scores: _giver.BoardScores | None = None
        self._mats: dict[str, np.ndarray] = {}
        self._hubs: dict[str, np.ndarray | None] = {}
        self._board: tuple[str, ...] = ()
        self._given: dict[str, tuple[int, ...]] = {}
        self._log: list[tuple[str, object]] = []
        self._received: dict[tuple[int, str], _Received] = {}

    # ------------------------------------------------------------------ loading

    @classmethod
    def load(
        cls,
        lang: str,
        data_dir: str | None = None,
        difficulty: str = "normal",
        assoc_path: str | None = None,
        language: str | None = None,
    ) -> Partner:
        """Load the built spaces of `lang` (up to two) and its association table (the bundled one, or
        `assoc_path`). Raises PartnerUnavailable with a one-line reason."""
        if lang not in SPACES:
            raise PartnerUnavailable(f"no solo partner for language {lang!r}: no word-vector model for it")
        names = built_spaces(lang, data_dir)[:PLAY_SPACES]
        if not names:
            raise PartnerUnavailable(f"solo partner for {lang!r} not built: run `duetbox partner build --lang {lang}`")
        try:
            spaces = [VectorSpace.load(space_path(lang, n, data_dir)) for n in names]
        except SpaceError as exc:
            raise PartnerUnavailable(str(exc)) from exc
        try:
            assoc = AssocTable.load(assoc_path, lang) if assoc_path else AssocTable.bundled(lang)
        except (OSError, AssocError) as exc:
            raise PartnerUnavailable(str(exc).splitlines()[0]) from exc
        if difficulty not in DIFFICULTIES:
            raise PartnerUnavailable(f"unknown difficulty {difficulty!r}")
        return cls.box(lang, spaces, difficulty, assoc, language)

    @classmethod
    def box(
        cls,
        lang: str,
        spaces: Sequence[VectorSpace],
        difficulty: str = "normal",
        assoc: AssocTable | None = None,
        language: str | None = None,
        **overrides: object,
    ) -> Partner:
        """The box as it plays (what `load` returns) from spaces already loaded: clues from the first space,
        guessing on all, clean vocabulary, the association table, noise-aware clues, the cautious guesser.
        `overrides` replace constructor arguments (the evaluation's sweeps)."""
        # Measured (docs/partner.md): consensus clues avoid some assassins with a distant partner but win no
        # game with a near one, in either difficulty; so clues come from the first space and guessing averages
        # every space (which helped). Consensus stays available through the constructor and the eval command.
        args: dict[str, object] = {
            "guesser_spaces": list(spaces),
            "checker": engine_checker(lang),
            "guesser_params": BOX_GUESSER[difficulty],
            "assoc": assoc,
            "clean": True,
            "noise": BOX_NOISE[difficulty],
            "winprob": box_win(lang, difficulty),
            "hub": True,
            "w_assoc_give": W_ASSOC_GIVE_WIN,
            "w_assoc_read": W_ASSOC_READ_TRUST,
            "adaptive": False,
            "language": language,
        }
        args.update(overrides)
        return cls(lang, list(spaces[:1]), difficulty, **args)  # type: ignore[arg-type]

    def new_game(self) -> None:
        self._given.clear()
        self._log.clear()
        self._received.clear()

    # ------------------------------------------------------------------ board cache

    def _prepare(self, board: Sequence[str]) -> _giver.BoardScores:
        key = tuple(normalize(w) for w in board)
        if self._scores is None or key != self._board:
            self._board = key
            self._scores = _giver.BoardScores(self.vocab, key, self.lang, self.assoc, self.w_assoc_give, self.hub)
            self._mats = {s.key: s.board_matrix(key)[0] for s in self.guesser_spaces}
            self._hubs = {
                s.key: _giver.hub_shift(s.z(s.clue_vecs @ self._mats[s.key].T)) if self.hub else None
                for s in self.guesser_spaces
            }
        return self._scores

    def prepare_board(self, board: Sequence[str], covered: Collection[int] = ()) -> None:
        """Do the per-board work now (at most about a second) so that the first clue is quick."""
        scores = self._prepare(board)
        scores.legal([w for i, w in enumerate(self._board) if i not in covered])

    # ------------------------------------------------------------------ giving

    def give_clue(
        self,
        board: Sequence[str],
        my_side: str,
        covered: Collection[int],
        history: Sequence[Turn] = (),
        tokens: int | None = None,
    ) -> ClueChoice | None:
        """The box's clue for its remaining greens, or None when it has none left to clue. `tokens`: timer tokens
        left in the bank (default: 9 minus the turns played)."""
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
        if self.winprob is not None:
            found = sum(1 for t in history for _, r in t.guesses if r == "G")
            bank = tokens if tokens is not None else max(9 - len(history), 0)
            choice = _winprob.choose_winprob(
                scores,
                self.vocab,
                targets,
                bystanders,
                assassins,
                visible,
                self.winprob,
                tokens=bank,
                partner_left=max(15 - found - len(targets), 0),
                lang=self.lang,
                banned=banned,
                leftovers=leftovers,
                checker=self.checker,
                rng=self._rng,
            )
        elif self.noise is not None:
            choice = _noisy.choose_noisy(
                scores,
                self.vocab,
                targets,
                bystanders,
                assassins,
                visible,
                self.noise,
                sigma=self._noise_now(mine),
                banned=banned,
                leftovers=leftovers,
                checker=self.checker,
                rng=self._rng,
            )
        else:
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

    def _verdicts(self, mine: Sequence[Turn]) -> list[bool]:
        """Per clue of mine with guesses: whether the partner's first guesses were exactly the cards I meant."""
        verdicts = []
        for t in mine:
            meant = set(t.targets or self._given.get(normalize(t.word), ()))
            if not meant or not t.guesses:
                continue
            first = [card for card, _ in t.guesses[: len(meant)]]
            verdicts.append(set(first) <= meant and len(first) == len(meant))
        return verdicts

    def _noise_now(self, mine: Sequence[Turn]) -> float:
        """The partner's reading noise as the box believes it now: each clue read as meant lowers it, each misread
        raises it, by the factor (1 ± adapt), within half and twice the starting level."""
        assert self.noise is not None
        sigma = self.noise.sigma
        if self.noise.adapt:
            for ok in self._verdicts(mine):
                sigma *= (1 - self.noise.adapt) if ok else (1 + self.noise.adapt)
            sigma = float(np.clip(sigma, 0.5 * self.noise.sigma, 2.0 * self.noise.sigma))
        return sigma

    def _giver_params_now(self, mine: Sequence[Turn]) -> _giver.GiverParams:
        """Bolder while the partner has understood every clue so far; the plain parameters otherwise.

        A clue was understood when the guesses of its turn hit the meant cards, in any order, before anything
        else. The box cannot know how its partner reads words; this is how it learns during the game.
        """
        verdicts = self._verdicts(mine)
        # A "careful after a misread" mode was measured too: it cost more wins than it saved assassins.
        if self.adaptive and verdicts and all(verdicts):
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
                hub = self._hubs.get(s.key)
                zs.append(z if hub is None else z - hub)
        bonus = self._assoc_bonus(word)
        if not zs:
            # no vector for the word: the table alone reads it (below a random word elsewhere)
            return None if bonus is None else bonus - 1.0
        mean: np.ndarray = np.mean(zs, axis=0)
        return mean if bonus is None else mean + bonus

    def _assoc_bonus(self, word: str) -> np.ndarray | None:
        """A person's clue read through the association table: a card the clue is an associate of gets
        `w_assoc_read` σ per point of strength (cards sharing a vector row are told apart this way)."""
        if not self.assoc or not self.w_assoc_read:
            return None
        pointed = self.assoc.pointed(word)
        if not pointed:
            lemma = self._lemma(word)
            pointed = self.assoc.pointed(lemma) if lemma != word else {}
        if not pointed:
            return None
        return np.array([self.w_assoc_read * pointed.get(w, 0) for w in self._board], dtype=np.float64)

    def _lemma(self, word: str) -> str:
        """The clue word's likely singular (chevaux → cheval, pommes → pomme) for the table lookup; no
        lemmatizer is loaded on the box."""
        w = normalize(word)
        for plural, singular in (("aux", "al"), ("eux", "eu"), ("s", ""), ("x", "")):
            if w.endswith(plural) and len(w) > len(plural) + 2:
                cand = w[: len(w) - len(plural)] + singular
                if self.assoc and (self.assoc.pointed(cand) or cand in self.assoc.forward):
                    return cand
        return w

    def _guesser_params_now(self, history: Sequence[Turn]) -> _guesser.GuesserParams:
        """Follow the partner's numbers more closely while every guess on its clues has been right."""
        turns = [t for t in history if t.giver == PARTNER and t.guesses]
        results = [r for t in turns for _, r in t.guesses]
        if self.adaptive and self.difficulty == "normal" and results and all(r == "G" for r in results):
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
        tokens: int | None = None,
        agents_left: int | None = None,
    ) -> GuessChoice | None:
        """The next card to touch for the partner's clue, or None to stop. `tokens`: timer tokens in the bank;
        `agents_left`: agents not found yet on the table (both sides), which sudden death reads.

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
        if sudden_death and agents_left is not None:
            mine_left = sum(1 for i, c in enumerate(my_side) if c == "G" and i not in covered)
            prior = sudden_death_prior(prior, my_side, touchable, agents_left, mine_left)
        hits = sum(1 for _, r in turn_guesses if r == "G")
        clues = self._clues_read(clue_word, clue_number, hits, history, sudden_death)
        if sudden_death:
            clues = _within(clues, partner_agents_left(prior, touchable))
        params = self._guesser_params_now(history)
        if params.clock and not sudden_death and hits:
            params = dataclasses.replace(
                params, assassin_cost=self._assassin_price(my_side, covered, history, turn_guesses, tokens)
            )
        a = _guesser.assess(prior, touchable, clues, params, sudden_death)
        card = int(np.argmax(a.value))
        if sudden_death and params.trust_strength > 0:
            card = _guesser.sudden_death_card(a, touchable)
        go, reason = _guesser.should_continue(a, card, params, hits, sudden_death, clue_number or 0)
        if clue_word and not sudden_death and hits < (clue_number or 0) and params.trust_strength > 0:
            risky = prior[:, 2] >= 0.2  # cards my key makes a likely assassin on the partner's side
            links = np.array([self.assoc.strength(clue_word, w) if self.assoc else 0 for w in self._board])
            trusted = _guesser.trusted_card(clues[0][0], links, touchable, risky, params)
            if trusted is not None:
                card, go, reason = trusted, True, "go_on"
        entry = self._received.get((len(history), clue_word or ""))
        if entry is None:
            entry = _Received(clue_word or "", clue_number or 0, turn=len(history), sudden=clue_word is None)
            self._received[(len(history), clue_word or "")] = entry
            self._log.append(("received", entry))
            top = [int(i) for i in np.argsort(-a.value)[:4] if touchable[i]]
            entry.considered = [(self._board[i], float(a.green[i]), float(a.assassin[i])) for i in top]
        entry.reason = reason
        entry.reason_card = (float(a.green[card]), float(a.assassin[card]))
        if not go:
            return None
        self._note_touch(entry, card, float(a.green[card]), float(a.assassin[card]))
        return GuessChoice(card, float(a.green[card]), float(a.assassin[card]), float(a.value[card]))

    def _clues_read(
        self, clue_word: str | None, clue_number: int | None, hits: int, history: Sequence[Turn], sudden_death: bool
    ) -> _Clues:
        """The person's clues the guess weighs: this one (its targets not yet found), then the older ones with
        theirs, at `memory_weight` (in sudden death at full weight: they are all there is)."""
        params = self.guesser_params
        clues: _Clues = []
        if clue_word and not sudden_death:
            clues.append((self._clue_z(clue_word), max(clue_number or 1, 1) - hits, 1.0))
        for t in history:
            if t.giver != PARTNER:
                continue
            found = sum(1 for _, r in t.guesses if r == "G")
            weight = 1.0 if sudden_death else params.memory_weight
            left: float = max(t.number, 1) - found
            if sudden_death and left <= 0 and params.trust_strength > 0:
                # the person's agents left were hinted by some clue more likely than by none (playtest: SMOKE
                # "86 % green" with no clue near it): a met clue still counts, at half a card and half weight
                left, weight = 0.5, 0.5
            clues.append((self._clue_z(t.word), left, weight))
        return clues

    def _note_touch(self, entry: _Received, card: int, green: float, assassin: float) -> None:
        """The touched card, and among what the box says it weighed: a later card of the turn (or one a table
        link chose) was missing from the first call's top four (playtests: "it touched SAILOR, not in its list")."""
        if all(word != self._board[card] for word, _, _ in entry.considered):
            entry.considered.append((self._board[card], green, assassin))
        entry.guesses.append(self._board[card])

    def _assassin_price(
        self,
        my_side: str,
        covered: Collection[int],
        history: Sequence[Turn],
        turn_guesses: Sequence[tuple[int, str]],
        tokens: int | None,
    ) -> float:
        """How many greens' worth of winning chance an assassin costs now, from the value table: touching on
        risks V(stop) (a bystander ends the turn for the same token as a stop) to win V(one more agent) − V(stop).
        """
        clock = (self.winprob or _winprob.WinParams()).clock
        table = _winprob.value_table(clock)
        found = sum(1 for t in history for _, r in t.guesses if r == "G") + sum(1 for _, r in turn_guesses if r == "G")
        mine = sum(1 for i, c in enumerate(my_side) if c == "G" and i not in covered)
        theirs = max(15 - found - mine, 0)
        bank = tokens if tokens is not None else max(9 - len(history), 1)
        t = int(np.clip(bank - 1, 0, _winprob.MAX_TOKENS))
        a, h = min(mine, _winprob.MAX_AGENTS), min(theirs, table.shape[1] - 1)
        stop = float(table[a, h, t, 0])
        more = float(table[a, max(h - 1, 0), t, 0])
        gain = max(more - stop, 1e-6)
        return float(np.clip(stop / gain, ASSASSIN_PRICE_FLOOR, 30.0))

    # ------------------------------------------------------------------ explaining

    def explain(self, history: Sequence[Turn] = (), language: str | None = None) -> list[str]:
        """What I meant: per clue given, the words meant; per clue received, the words weighed and why, in the
        interface language (`language`, else the one the partner was made with; partner.messages).

        With the game's `history`, a turn that ended on a wrong guess says so instead of the last reason.
        """
        lang = language or self.language
        say = _messages.say
        pct = _messages.percent
        lines = []
        for kind, item in self._log:
            if kind == "gave":
                assert isinstance(item, ClueChoice)
                meant = say(lang, "and").join(self._board[i] for i in item.targets)
                key = "gave_fallback" if item.fallback else "gave"
                line = say(lang, key, word=item.word.upper(), number=item.number, meant=meant)
                table = self.assoc
                linked = [self._board[i] for i in item.targets if table and table.strength(item.word, self._board[i])]
                if linked:  # the clue came from what people associate with these cards
                    line += " " + say(lang, "table", cards=say(lang, "and").join(linked))
                lines.append(line)
            else:
                assert isinstance(item, _Received)
                guessed = say(lang, "and").join(item.guesses) or say(lang, "nothing")
                green, assassin = item.reason_card
                reason = say(lang, item.reason or "go_on", green=pct(green, lang), assassin=pct(assassin, lang))
                turn = history[item.turn] if item.turn < len(history) else None
                if turn is not None and turn.word == item.word and turn.guesses and turn.guesses[-1][1] != "G":
                    reason = say(lang, "wrong")
                considered = say(lang, "sep").join(
                    say(lang, "considered", word=w, green=pct(g, lang), assassin=pct(x, lang))
                    for w, g, x in item.considered
                )
                key = "received_sd" if item.sudden else "received"
                lines.append(
                    say(lang, key, word=item.word.upper(), number=item.number, considered=considered,
                        guessed=guessed, reason=reason)
                )
        return lines
