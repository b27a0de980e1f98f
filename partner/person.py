"""A yardstick that reads and clues like a person (issue 28): `duetbox partner eval --reader person`.

**Reading.** A person's closeness of a clue to a card is a vector similarity in a space near the box's (the box's
space with persistent noise `space_noise` on its vectors: people and the box share most, not all, of what words
mean), plus `w_link` σ per point of strength when the person knows the link, plus a fresh noise `sigma` per
clue and card. The links come from the **second association set** (`partner/data/assoc2/<lang>.tsv`, written
blind by a different engineer, never from the box's table), and each link is known with chance `p_known` (drawn
once per game, clue and card). The person touches the closest cards in order, up to the clue's number, and stops
early only when the next card is no closer than `stop_z` (no link and nothing in the vectors). In sudden death it
touches the card closest to an earlier clue of the box that still has targets to find.

**Cluing.** A person clues with the words they link to their agents: the second set's associates of their
agents (clean: partner.clean.allowed, and legal on the table) that link one agent at strength `clue_strength`
or more, up to two more at `more_strength` or more, and none of their bystanders or assassins at `bad_strength`;
the largest such group first, the strongest links as a tie-break. Without a group of two, it weighs the clean
vocabulary in its own vectors with its table's links (the noise-aware giver of partner.noisy on the person's
space and the second set), which gives 1s, 2s and 3s as a careful person would.

The parameters are fitted on the blind readings of partner/data/calibration (tools/person_calibration.py): per
cell (target linked by a person-written table or not, clue number, position of the target), the share of meant
targets the readers picked. Boards of `--reader person` are drawn from the pack words the second set covers, so
that every card has a person's links.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from partner import Partner
from partner import clean as _clean
from partner import noisy as _noisy
from partner.assoc import AssocTable
from partner.legal import engine_checker
from partner.space import VectorSpace
from partner.text import normalize
from partner.turns import ME, ClueChoice, GuessChoice, Turn


@dataclass(frozen=True)
class PersonParams:
    space_noise: float = 1.0  # persistent noise on the vectors (the person's meanings are not the box's)
    sigma: float = 0.6  # fresh noise per clue and card (σ)
    w_link: float = 1.2  # σ per point of strength of a known link
    p_known: float = 0.85  # chance the person knows a link of the second set
    stop_z: float = 0.5  # stop before the number when the next card is no closer than this
    clue_strength: int = 3  # a link this strong makes a card the person's first target...
    more_strength: int = 2  # ... and this strong one of its second and third targets
    bad_strength: int = 2  # a link this strong to a bad card rules a clue out
    max_n: int = 3
    w_give: float = 0.8  # σ per point of its own table's strength when it weighs a clue in the vectors


#: fitted on partner/data/calibration (tools/person_calibration.py; docs/partner.md, "The person model")
PERSON = {
    "fr": PersonParams(space_noise=1.5, sigma=0.4, w_link=1.2, p_known=0.9),
    "en": PersonParams(space_noise=1.0, sigma=0.4, w_link=1.2, p_known=0.9),
}


def second_set(lang: str) -> AssocTable | None:
    """The second association set shipped in partner/data/assoc2/<lang>.tsv, or None."""
    ref = resources.files("partner").joinpath("data", "assoc2", f"{lang}.tsv")
    if not ref.is_file():
        return None
    return AssocTable.parse(lang, ref.read_text("utf-8").splitlines(), f"partner/data/assoc2/{lang}.tsv")


def _unit(*parts: object) -> float:
    """A fixed pseudo-random number in [0, 1) for these parts (the same link is known or not all game)."""
    h = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") / 2**64


class PersonModel(Partner):
    """A person at one seat: reads the box's clues and gives its own (see the module docstring)."""

    def __init__(
        self, lang: str, space: VectorSpace, table: AssocTable, params: PersonParams | None = None, seed: int = 0
    ) -> None:
        self.params = params or PERSON.get(lang, PersonParams())
        noisy = space.perturbed(self.params.space_noise, seed=7 + seed) if self.params.space_noise else space
        super().__init__(lang, [noisy], "normal", checker=engine_checker(lang), assoc=table, clean=True,
                         noise=_noisy.NoiseParams(seed=11 + seed), adaptive=False,
                         w_assoc_give=self.params.w_give, w_assoc_read=0.0)
        self.table = table
        self.seed = seed
        self.game = 0
        self._rng_np = np.random.default_rng(seed)

    def new_game(self) -> None:
        super().new_game()
        self.game += 1

    # ------------------------------------------------------------------ reading

    def closeness(self, word: str) -> np.ndarray:
        """The person's closeness of `word` to each card this game (σ units)."""
        p = self.params
        base = self._clue_z(word)
        z = np.zeros(len(self._board)) if base is None else np.asarray(base, dtype=np.float64)
        out = z.copy()
        for j, card in enumerate(self._board):
            s = self.table.strength(word, card)
            if s and _unit("known", self.seed, self.game, word, card) < p.p_known:
                out[j] += p.w_link * s
            u1 = max(_unit("n1", self.seed, self.game, word, card), 1e-12)
            u2 = _unit("n2", self.seed, self.game, word, card)
            out[j] += p.sigma * float(np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2))
        return out

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
        self._prepare(board)
        blocked = set(covered) | set(marks_for_me)
        touchable = np.array([i not in blocked for i in range(len(board))])
        if not touchable.any():
            return None
        if sudden_death or not clue_word:
            best = np.full(len(board), -np.inf)
            for t in history:
                found = sum(1 for _, r in t.guesses if r == "G")
                if t.giver == ME or t.number <= found or not t.word:  # ME here is the person; PARTNER the box
                    continue
                best = np.maximum(best, self.closeness(t.word))
            if not np.isfinite(best[touchable]).any():
                best = np.zeros(len(board))
            score = np.where(touchable, best, -np.inf)
            card = int(np.argmax(score))
            return GuessChoice(card, 0.0, 0.0, float(score[card]))
        hits = sum(1 for _, r in turn_guesses if r == "G")
        if hits >= max(clue_number or 1, 1):
            return None
        score = np.where(touchable, self.closeness(clue_word), -np.inf)
        card = int(np.argmax(score))
        if hits and score[card] < self.params.stop_z:
            return None
        return GuessChoice(card, 0.0, 0.0, float(score[card]))

    # ------------------------------------------------------------------ cluing

    def give_clue(
        self,
        board: Sequence[str],
        my_side: str,
        covered: Collection[int],
        history: Sequence[Turn] = (),
        tokens: int | None = None,
    ) -> ClueChoice | None:
        self._prepare(board)
        covered = set(covered)
        agents = [i for i, c in enumerate(my_side) if c == "G" and i not in covered]
        if not agents:
            return None
        bad = [i for i, c in enumerate(my_side) if c != "G" and i not in covered]
        visible = [w for i, w in enumerate(self._board) if i not in covered]
        said = {normalize(t.word) for t in history if t.word}
        choice = self._table_clue(agents, bad, visible, said)
        if choice is None or choice.number < 2:  # Partner.give_clue logs its own choice
            return super().give_clue(board, my_side, covered, history, tokens)
        self._given[choice.word] = choice.targets
        self._log.append(("gave", choice))
        return choice

    def _table_clue(
        self, agents: list[int], bad: list[int], visible: list[str], said: set[str]
    ) -> ClueChoice | None:
        p = self.params
        candidates: dict[str, dict[int, int]] = {}
        for i in agents:
            for word, s in self.table.associates(self._board[i]).items():
                candidates.setdefault(word, {})[i] = s
        best: tuple[tuple[int, float], str, tuple[int, ...]] | None = None
        for word, links in candidates.items():
            if word in said or " " in word or "-" in word or not _clean.allowed(word, self.lang):
                continue
            if max(links.values()) < p.clue_strength:
                continue
            strong = {i: s for i, s in links.items() if s >= p.more_strength}
            if any(self.table.strength(word, self._board[j]) >= p.bad_strength for j in bad):
                continue
            targets = tuple(sorted(strong, key=lambda i: -strong[i])[: p.max_n])
            key = (len(targets), sum(strong[i] for i in targets) / len(targets))
            if best is not None and key <= best[0]:
                continue
            if self.checker is not None and not self.checker(word, visible):
                continue
            best = (key, word, targets)
        if best is None:
            return None
        _, word, targets = best
        return ClueChoice(word, len(targets), targets)



def person_pack_words(table: AssocTable, pack_words: Sequence[str]) -> list[str]:
    """The pack words the second set covers (the boards of --reader person)."""
    covered = set(table.forward)
    return [w for w in pack_words if normalize(w) in covered]
