"""The clue giver that plays against the clock: each (clue, number) is scored by the chance of winning the game.

For each candidate clue the box simulates noisy readings of it (as `partner.noisy` does: the reader's similarity
to each card is the box's, association links included, plus Gaussian noise), and for n = 1..3 gets the
distribution of the greens found this turn and the chance of an assassin. A value table gives the chance of
winning from (the box's agents left, the partner's agents left, timer tokens left, whose clue is next), with
the real bank of the game (9, 10 or 11 tokens) and sudden death at the end; the clue's worth is

    sum over readings of V(agents left after the reading, tokens − 1, the partner's turn), 0 on an assassin.

So a 2 or a 3 is given when the clock needs it and the risk is worth it, and a 1 when the game can afford it.
Clue numbers are honest: the n-th meant card (the box's n-th closest target) must be in the reader's first n
cards in at least `min_last` of the readings. Clues a person would link to a card that is not the box's agent
are refused: any association-table link to one of the box's assassins (either direction), a strong link (4+) to
a bystander, or an assassin closer in the vectors than `margin_a` σ under the weakest meant target. Rare words
are refused below a frequency floor per language (`ZIPF_FLOOR`), except words of the association table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from partner.giver import BoardScores, Vocabulary, allowed
from partner.legal import Checker
from partner.noisy import relaxed_rank
from partner.turns import ClueChoice

#: below this wordfreq Zipf a clue word is too rare for a reader (playtests: hydrocarbon 3.0, conglomerate 3.4,
#: homophobia 3.3 were not understood; kennel 3.2 and scorpion 3.4 were), unless the association table lists it
ZIPF_FLOOR = {"fr": 3.2, "en": 3.4}
MAX_TOKENS = 11
MAX_AGENTS = 9


@dataclass(frozen=True)
class ClockParams:
    """The value table's model of the turns to come (greens found by a turn, assassin risk, sudden death)."""

    # P(0, 1, 2, 3 greens) on a box clue and on a partner clue (the mass beyond the agents left folds onto them)
    # (playtests: the box's own turns brought about one agent; people's 2-clues about 1.5)
    box_turn: tuple[float, float, float, float] = (0.15, 0.65, 0.17, 0.03)
    partner_turn: tuple[float, float, float, float] = (0.15, 0.45, 0.3, 0.1)
    box_assassin: float = 0.03  # per future box clue
    partner_assassin: float = 0.04  # per future partner clue
    sudden_card: float = 0.5  # chance a sudden-death touch is an agent


@dataclass(frozen=True)
class WinParams:
    sigma: float = 1.1  # the reader's noise, σ units of the box's space
    readings: int = 200
    candidates: int = 80
    per_target: int = 4
    max_n: int = 3
    w_link: float = 1.0  # σ per point of table strength for a reader who knows the link (issue 28: ~1 σ)
    p_known: float = 0.2  # the chance a reader knows a link, per point of its strength (5: everyone, 1: one in 5)
    min_last: float = 0.5  # the n-th meant card must be read in the first n this often
    margin_a: float = 1.0  # an assassin must stay this far (σ) under the weakest meant card
    bystander_link: int = 4  # refuse a clue the table links this strongly to a bystander
    # in a clue for 2+ cards, each meant card must be linked by the table (this strong) or this close in the
    # vectors: players read the box's 1s well and its vector-only 2nd cards as fillers (ARCHER 2 -> rempart,
    # VOLEUR; HOST 2 -> party, SPOT)
    group_link: int = 2
    table_strength: int = 3  # a clue the table links to 2+ targets this strongly is always a candidate
    group_z: float = 3.0
    w_freq: float = 0.002  # tie-break toward frequent words (in win probability per Zipf point)
    leftover_bonus: float = 0.002
    seed: int = 12345
    clock: ClockParams = ClockParams()


@dataclass(frozen=True)
class _Expected:
    """Scores as an average reader sees them (for the candidate pre-selection of partner.noisy.relaxed_rank)."""

    low: np.ndarray
    high: np.ndarray


def _turn_dist(base: tuple[float, ...], left: int) -> np.ndarray:
    out = np.zeros(left + 1)
    for k, p in enumerate(base):
        out[min(k, left)] += p
    return out


@lru_cache(maxsize=16)
def value_table(clock: ClockParams) -> np.ndarray:
    """V[a, h, t, who]: the chance of winning with `a` agents the box's clues must deliver, `h` agents the
    partner's clues must deliver, `t` tokens left, and `who` (0 box, 1 partner) to clue next."""
    v = np.zeros((MAX_AGENTS + 1, MAX_AGENTS + 7, MAX_TOKENS + 1, 2))
    sd = clock.sudden_card
    for t in range(MAX_TOKENS + 1):
        for a in range(MAX_AGENTS + 1):
            for h in range(v.shape[1]):
                for who in (0, 1):
                    if a == 0 and h == 0:
                        v[a, h, t, who] = 1.0
                        continue
                    if t == 0:
                        v[a, h, t, who] = sd ** (a + h)
                        continue
                    giver = who
                    if giver == 0 and a == 0:
                        giver = 1
                    if giver == 1 and h == 0:
                        giver = 0
                    if giver == 0:
                        dist = _turn_dist(clock.box_turn, a)
                        v[a, h, t, who] = (1 - clock.box_assassin) * sum(
                            p * v[a - k, h, t - 1, 1] for k, p in enumerate(dist)
                        )
                    else:
                        dist = _turn_dist(clock.partner_turn, h)
                        v[a, h, t, who] = (1 - clock.partner_assassin) * sum(
                            p * v[a, h - k, t - 1, 0] for k, p in enumerate(dist)
                        )
    return v


def after_turn_values(a: int, h: int, tokens: int, clock: ClockParams, m: int) -> np.ndarray:
    """V after this box clue finds k = 0..m greens: the partner clues next (the box again if it has none)."""
    v = value_table(clock)
    a, h = min(a, MAX_AGENTS), min(max(h, 0), v.shape[1] - 1)
    t = int(np.clip(tokens - 1, 0, MAX_TOKENS))
    return np.array([v[max(a - k, 0), h, t, 1] for k in range(m + 1)])


def simulate_win(
    z: np.ndarray, labels: np.ndarray, order: np.ndarray, sigma: float, readings: int, max_n: int,
    values: np.ndarray, rng: np.random.Generator, bonus: np.ndarray | None = None,
    p_known: np.ndarray | float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate (rows of z: candidates × touchable cards) and n = 1..max_n: the mean chance of winning
    after the turn, the mean greens found, and how often the n-th meant card (order[:, n-1], a column of z) is
    among the reader's first n cards. labels: 0 green, 1 bystander, 2 assassin. `bonus` (same shape as z): what
    a table link adds for a reader who knows it, which each reading does for each link with chance `p_known` (a
    number, or one per link in the shape of z)."""
    k, c = z.shape
    m = min(max_n, c)
    noisy = z[None, :, :] + sigma * rng.standard_normal((readings, k, c), dtype=np.float32)
    if bonus is not None and bonus.any():
        noisy += bonus[None, :, :] * (rng.random((readings, k, c), dtype=np.float32) < p_known)
    top = np.argpartition(-noisy, m - 1, axis=2)[:, :, :m]
    srt = np.argsort(-np.take_along_axis(noisy, top, axis=2), axis=2)
    top = np.take_along_axis(top, srt, axis=2)  # readings × k × m, the reader's cards in order
    lab = labels[top]
    lead = np.cumprod(lab == 0, axis=2)
    greens = np.cumsum(lead, axis=2)  # greens found with n = 1..m (stops at the first non-green)
    before = np.concatenate([np.ones((readings, k, 1), dtype=bool), lead[:, :, :-1].astype(bool)], axis=2)
    dead = np.cumsum(before & (lab == 2), axis=2) > 0
    win = np.where(dead, 0.0, values[greens]).mean(axis=0)
    last = np.zeros((k, m))
    for n in range(1, m + 1):
        want = order[:, n - 1][None, :, None]
        last[:, n - 1] = (top[:, :, :n] == want).any(axis=2).mean(axis=0)
    return win, greens.mean(axis=0), last


def table_candidates(scores: BoardScores, targets: Sequence[int], ok: np.ndarray, strength: int) -> np.ndarray:
    """The clues the table links to 2+ of the targets at `strength` or more (the clue-centred table first: what a
    person says for two cards), among those the box may say: candidates whatever the vectors think of them."""
    if len(targets) < 2:
        return np.zeros(0, dtype=np.int64)
    linked = (scores.strength[:, list(targets)] >= strength).sum(axis=1) >= 2
    found: np.ndarray = np.flatnonzero(linked & ok)
    return found


def _sayable(
    scores: BoardScores, vocab: Vocabulary, visible: Sequence[str], banned: Iterable[str],
    bystanders: Sequence[int], assassins: Sequence[int], params: WinParams, lang: str,
) -> np.ndarray:
    """Candidates the box may say now: legal, not banned, frequent enough (or a table word), and linked by the
    table to none of its assassins and to no bystander at `bystander_link` or more."""
    ok = allowed(scores, vocab, visible, banned)
    floor = ZIPF_FLOOR.get(lang, 0.0)
    ok &= (vocab.zipf >= floor) | vocab.from_table | (scores.strength.max(axis=1, initial=0.0) > 0)
    if assassins:  # a person links the clue to one of my assassins through the table: never
        ok &= scores.strength[:, list(assassins)].max(axis=1) == 0
    if bystanders:
        ok &= scores.strength[:, list(bystanders)].max(axis=1) < params.bystander_link
    return ok


def _refused(
    scores: BoardScores, cand: np.ndarray, targets: Sequence[int], assassins: Sequence[int], zt: np.ndarray,
    order: np.ndarray, last: np.ndarray, params: WinParams, m: int, seen: np.ndarray,
) -> np.ndarray:
    """Per candidate and n = 1..m, whether the clue is refused: a dishonest number (its n-th meant card rarely
    read), a filler among its meant cards, or an assassin too close in the vectors."""
    refused: np.ndarray = last < params.min_last
    if m >= 2:
        linked = scores.strength[np.ix_(cand, np.asarray(targets, dtype=np.int64))] >= params.group_link
        plain = linked | (zt >= params.group_z)
        every = np.logical_and.accumulate(np.take_along_axis(plain, order[:, :m], axis=1), axis=1)
        refused[:, 1:] |= ~every[:, 1:]
    if assassins:
        worst_x = scores.high[np.ix_(cand, np.asarray(assassins, dtype=np.int64))].max(axis=1)
        # the weakest meant card's z for n = 1..m as an average reader sees it: the vectors plus the table links
        # it knows (`seen`); a table-linked card stands out of the vectors' noise for a person (playtest boards:
        # MUSIQUE 2 for DISQUE and CASSETTE, both in the table, was refused for an assassin at z 0.2)
        nth = np.minimum.accumulate(np.take_along_axis(seen, order[:, :m], axis=1), axis=1)
        refused |= nth - worst_x[:, None] < params.margin_a
    return refused


def choose_winprob(
    scores: BoardScores,
    vocab: Vocabulary,
    targets: Sequence[int],
    bystanders: Sequence[int],
    assassins: Sequence[int],
    visible: Sequence[str],
    params: WinParams,
    tokens: int,
    partner_left: int,
    lang: str,
    banned: Iterable[str] = (),
    leftovers: Iterable[int] = (),
    checker: Checker | None = None,
    rng: np.random.Generator | None = None,
) -> ClueChoice | None:
    """The (clue, n) with the best chance of winning the game after the turn; None when there is nothing to
    clue. `tokens`: timer tokens left before this clue; `partner_left`: agents only the partner's clues can
    deliver."""
    targets = list(targets)
    if not targets:
        return None
    ok = _sayable(scores, vocab, visible, banned, bystanders, assassins, params, lang)
    if not ok.any():
        return None
    bad = list(bystanders) + list(assassins)
    link = params.w_link * scores.strength  # what a table link adds for a reader who knows it
    known = np.clip(params.p_known * scores.strength, 0.0, 1.0)  # how likely a reader knows it
    expected = _Expected(scores.low + known * link, scores.high + known * link)
    cand = relaxed_rank(expected, targets, bad, ok, params.candidates, params.per_target)  # type: ignore[arg-type]
    first: np.ndarray = table_candidates(scores, targets, ok, params.table_strength)
    cand = np.union1d(first, cand[ok[cand]]).astype(np.int64)
    if not len(cand):
        return None
    labels = np.array([0] * len(targets) + [1] * len(bystanders) + [2] * len(assassins), dtype=np.int64)
    tcols = np.asarray(targets, dtype=np.int64)
    zt = scores.low[np.ix_(cand, tcols)]  # vectors only (a reader who knows no link)
    z = np.concatenate([zt, scores.high[np.ix_(cand, np.asarray(bad, dtype=np.int64))]], axis=1).astype(np.float32)
    cols = np.asarray(targets + bad, dtype=np.int64)
    bonus = link[np.ix_(cand, cols)].astype(np.float32)
    p_known = known[np.ix_(cand, cols)].astype(np.float32)
    # the box's meant cards, closest first for an average reader (columns of z)
    order = np.argsort(-(zt + (p_known * bonus)[:, : len(targets)]), axis=1)
    rng = rng if rng is not None else np.random.default_rng(params.seed)
    m = min(params.max_n, len(targets))
    values = after_turn_values(len(targets), partner_left, tokens, params.clock, m)
    win, greens, last = simulate_win(
        z, labels, order, params.sigma, params.readings, m, values, rng, bonus, p_known
    )
    seen = zt + (p_known * bonus)[:, : len(targets)]
    refused = _refused(scores, cand, targets, assassins, zt, order, last, params, m, seen)
    worth = np.where(refused, win - 1.0, win)  # refused clues only when nothing else is left (then flagged)
    left = np.isin(np.array(targets), list(leftovers))
    if left.any():
        worth = worth + params.leftover_bonus * np.cumsum(left[order[:, :m]], axis=1)
    worth = worth + params.w_freq * (vocab.zipf[cand, None] - 3.0)
    flat = np.argsort(-worth, axis=None)
    picks: list[tuple[int, int, float]] = []
    for f in flat[:200]:
        ci, ni = divmod(int(f), m)
        c = int(cand[ci])
        if any(c == a for a, _, _ in picks):
            continue
        if checker is not None and not checker(vocab.words[c], visible):
            continue
        picks.append((c, ni + 1, float(worth[ci, ni])))
        if len(picks) >= 4:
            break
    if not picks:
        return None
    c, n, value = picks[0]
    ci = int(np.flatnonzero(cand == c)[0])
    picked = tuple(int(targets[j]) for j in order[ci, :n])
    return ClueChoice(vocab.words[c], n, picked, value, value <= 0, tuple(vocab.words[a] for a, _, _ in picks[1:]))
