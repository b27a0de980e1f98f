"""The clue giver: one matrix product per board, margins in sigma units, consensus of several spaces."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from partner import clean as _clean
from partner.assoc import AssocTable
from partner.legal import Checker, LegalIndex, candidate_mask
from partner.space import VectorSpace
from partner.text import NOT_CLUES, fold, normalize, stems
from partner.turns import ClueChoice

SHARED_ROW_PENALTY = 1.0  # sigma units


@dataclass(frozen=True)
class GiverParams:
    min_z: float = 1.0  # the weakest target must stand this far above a random word
    margin_n: float = 0.0  # ... and this far above the closest bystander the partner may still touch
    margin_a: float = 1.0  # ... and this far above the closest assassin
    max_n: int = 2  # targets allowed at the plain margins
    hard_max_n: int = 4  # more targets only with `big_margin` extra slack per extra target
    big_margin: float = 0.75
    w_slack: float = 0.4
    w_freq: float = 0.15
    leftover_bonus: float = 0.25  # prefer re-cluing words an earlier clue meant but the partner missed


#: once the partner has understood every clue so far (see Partner._giver_params_now)
BOLD = GiverParams(min_z=1.0, margin_n=0.0, margin_a=0.5, max_n=3, hard_max_n=4, big_margin=0.5)
EASY = GiverParams(min_z=1.5, margin_n=0.5, margin_a=2.0, max_n=2, hard_max_n=3)


EXTRA_ZIPF = 3.5  # associates from the table that the export's clue vocabulary lacks: no frequency at run time


class Vocabulary:
    """Clue candidates common to every space, with their vectors in each (the first space leads).

    `clean`: keep only words the box may say (partner.clean: blocklist, function words, the generated clue
    vocabulary, the team's review). `extra`: more candidates (the association table's words), kept when every
    space has a vector for them and, with `clean`, they are allowed too.
    """

    def __init__(self, spaces: Sequence[VectorSpace], clean: bool = False, extra: Iterable[str] = ()) -> None:
        if not spaces:
            raise ValueError("at least one space is needed")
        self.spaces = list(spaces)
        lead = spaces[0]
        lang = lead.lang
        banned = NOT_CLUES.get(lang, frozenset())

        def ok(w: str) -> bool:
            return w not in banned and (not clean or _clean.allowed(w, lang)) and all(w in s for s in spaces[1:])

        keep = [i for i, w in enumerate(lead.clue_words) if ok(w)]
        self.words = [lead.clue_words[i] for i in keep]
        known = set(self.words)
        more = [w for w in dict.fromkeys(normalize(e) for e in extra) if w not in known and w in lead and ok(w)]
        more = [w for w in more if " " not in w and "-" not in w and "'" not in w and len(w) >= 3]
        self.words += more
        self.fold = np.concatenate([lead.clue_fold[keep], np.array([fold(w) for w in more], dtype=str)])
        self.stem = np.concatenate([lead.clue_stem[keep], np.array(stems(more, lang), dtype=str)])
        self.zipf = np.concatenate([lead.clue_zipf[keep], np.full(len(more), EXTRA_ZIPF, dtype=np.float32)])
        self.from_table = np.concatenate([np.zeros(len(keep), dtype=bool), np.ones(len(more), dtype=bool)])
        self.vecs = []
        self.rows = []
        for s in spaces:
            rows = np.array([s.row(w) for w in self.words], dtype=np.int64)
            self.rows.append(rows)
            self.vecs.append(np.asarray(s.vectors[rows], dtype=np.float32))
        self.position = {w: i for i, w in enumerate(self.words)}
        self.tables = LegalIndex(self.fold, self.stem)


def hub_shift(z: np.ndarray) -> np.ndarray:
    """Per card (columns of z: clue words × cards), how far its median similarity to every clue word stands above
    the board's typical card: a *hub* (spaCy's *brique*, *cible*, *coquillage*) is close to everything in the
    vectors and to nothing in particular for a person (playtest fr1: CONTAGION 3 and FICTION 2 both meant BRIQUE).
    Subtracted from a target's z; a bad card keeps its full z."""
    med = np.median(z, axis=0)
    shift: np.ndarray = np.maximum(med - float(np.median(med)), 0.0).astype(np.float32)
    return shift


class BoardScores:
    """Per board: the z-similarity of every candidate to every card in every space, and the legality mask."""

    def __init__(
        self, vocab: Vocabulary, board: Sequence[str], lang: str, assoc: AssocTable | None = None, w_assoc: float = 0.0,
        hub: bool = False,
    ) -> None:
        self.board = [normalize(w) for w in board]
        # strength[c, card]: how strongly the association table links candidate c to the card (0 = silent)
        self.strength = np.zeros((len(vocab.words), len(self.board)), dtype=np.float32)
        if assoc:
            for j, w in enumerate(self.board):
                for a, s in assoc.associates(w).items():
                    k = vocab.position.get(a)
                    if k is not None:
                        self.strength[k, j] = s
        self.z = []
        self.hub: list[np.ndarray] = []
        for space, vecs in zip(vocab.spaces, vocab.vecs, strict=True):
            mat, known = space.board_matrix(self.board)
            z = space.z(vecs @ mat.T)
            z[:, ~known] = 0.0  # unknown board word: no evidence either way
            self.z.append(z.astype(np.float32))
            self.hub.append(hub_shift(z) if hub else np.zeros(len(self.board), dtype=np.float32))
        # consensus: a target must be close in every space (a hub card counts only what stands out for it)
        self.low = np.minimum.reduce([z - h for z, h in zip(self.z, self.hub, strict=True)])
        # Cards sharing a vector row with another card are one word to the box, not to a person: aiming at them
        # needs a larger margin (e.g. escargot = mammouth = éléphant in the spaCy md table).
        for space in vocab.spaces:
            rows = [space.row(w) for w in self.board]
            shared = [i for i, r in enumerate(rows) if r is not None and rows.count(r) > 1]
            if shared:
                # ... unless the association table tells the card apart (it names the candidate for this card)
                told_apart = self.strength[:, shared] > 0
                self.low[:, shared] -= np.where(told_apart, 0.0, SHARED_ROW_PENALTY)
        self.high = np.maximum.reduce(self.z)  # ... and a bad card far in every space
        if w_assoc:
            # what a person thinks of: a table associate of a card is that much closer to it, for good and bad cards
            bonus = w_assoc * self.strength
            self.low = self.low + bonus
            self.high = self.high + bonus
        self._vocab = vocab
        self._lang = lang
        self._legal_for: tuple[str, ...] | None = None
        self._legal = np.ones(len(vocab.words), dtype=bool)
        self._per_word: dict[str, np.ndarray] = {}
        # the table proposes candidates for the cards of this board: its words that name none of them stay out
        self._table_ok = ~vocab.from_table | (self.strength.max(axis=1, initial=0.0) > 0)

    def legal(self, visible: Sequence[str]) -> np.ndarray:
        """Candidates legal with these visible words: the AND of one cached mask per word (covering a card only
        frees candidates, so later clues of the board cost almost nothing)."""
        key = tuple(visible)
        if key != self._legal_for:
            v = self._vocab
            mask = self._table_ok.copy()
            for w in visible:
                one = self._per_word.get(w)
                if one is None:
                    one = candidate_mask(v.fold, v.stem, v.rows, [w], v.spaces, self._lang, v.tables)
                    self._per_word[w] = one
                mask &= one
            self._legal = mask
            self._legal_for = key
        return self._legal


def allowed(scores: BoardScores, vocab: Vocabulary, visible: Sequence[str], banned: Iterable[str]) -> np.ndarray:
    """The vocabulary's words that may be given as a clue now: legal on this table, and not ``banned``."""
    ok = scores.legal(visible).copy()
    for word in banned:
        k = vocab.position.get(normalize(word))
        if k is not None:
            ok[k] = False
    return ok


def choose_clue(
    scores: BoardScores,
    vocab: Vocabulary,
    targets: Sequence[int],
    bystanders: Sequence[int],
    assassins: Sequence[int],
    visible: Sequence[str],
    params: GiverParams,
    banned: Iterable[str] = (),
    leftovers: Iterable[int] = (),
    checker: Checker | None = None,
) -> ClueChoice | None:
    """Best (clue, n) for the given cards, or None when there is nothing to clue."""
    targets = list(targets)
    if not targets:
        return None
    ok = allowed(scores, vocab, visible, banned)
    t = scores.low[:, targets]
    order = np.argsort(-t, axis=1)
    ts = np.take_along_axis(t, order, axis=1)
    big = -1e9
    bad_n = scores.high[:, list(bystanders)].max(axis=1) if bystanders else np.full(len(ok), big)
    bad_a = scores.high[:, list(assassins)].max(axis=1) if assassins else np.full(len(ok), big)
    left = np.isin(np.array(targets), list(leftovers))
    left_cum = np.cumsum(left[order], axis=1)
    freq = params.w_freq * (vocab.zipf - 3.0)
    best_score = np.full(len(ok), -np.inf)
    best_k = np.zeros(len(ok), dtype=int)
    best_slack = np.full(len(ok), -np.inf)
    for k in range(1, min(params.hard_max_n, len(targets)) + 1):
        tk = ts[:, k - 1]
        slack = np.minimum.reduce([tk - bad_n - params.margin_n, tk - bad_a - params.margin_a, tk - params.min_z])
        if k > params.max_n:
            slack = slack - params.big_margin * (k - params.max_n)
        score = k + params.w_slack * np.minimum(slack, 2.0) + freq + params.leftover_bonus * left_cum[:, k - 1]
        better = (slack >= 0) & (score > best_score)
        best_score = np.where(better, score, best_score)
        best_k = np.where(better, k, best_k)
        best_slack = np.where(better, slack, best_slack)
    valid = ok & (best_k > 0)
    fallback = not valid.any()
    if fallback:
        # Nothing meets the thresholds: the single-card clue whose weakest condition fails least.
        tk = ts[:, 0]
        slack = np.minimum.reduce([tk - bad_n - params.margin_n, tk - bad_a - params.margin_a, tk - params.min_z])
        best_score = np.where(ok, slack + 0.5 * freq, -np.inf)
        best_k = np.ones(len(ok), dtype=int)
        best_slack = slack
        valid = ok
    if not valid.any():
        return None
    ranked = np.argsort(-np.where(valid, best_score, -np.inf))
    alternatives: list[str] = []
    for c in ranked[:40]:
        if not valid[c]:
            break
        word = vocab.words[c]
        if checker is not None and not checker(word, visible):
            continue
        alternatives.append(word)
        if len(alternatives) == 1:
            chosen = int(c)
        if len(alternatives) >= 4:
            break
    if not alternatives:
        return None
    k = int(best_k[chosen])
    picked = tuple(int(targets[j]) for j in order[chosen, :k])
    return ClueChoice(alternatives[0], k, picked, float(best_slack[chosen]), fallback, tuple(alternatives[1:]))
