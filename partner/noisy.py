"""The noise-aware clue choice: the partner reads every clue through noise; pick the clue that does best on average.

For each candidate clue the box simulates `readings` noisy readings: the partner's similarity of the clue to each
card it may touch is the box's own (in σ units, association bonus included) plus Gaussian noise of `sigma` σ. In
each reading the partner touches cards from the closest down, up to the clue's number, and stops at the first card
that is not green on the box's side. A reading is worth the greens found, minus `assassin` if it ends on an
assassin and `bystander` if it ends on a bystander. The box says the (clue, number) with the best mean worth.
This is the noisy-teammate model of the adaptive-teammate work (Archibald et al.); docs/partner.md has the sweeps
that set the numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from partner.giver import BoardScores, Vocabulary, allowed
from partner.legal import Checker
from partner.turns import ClueChoice


@dataclass(frozen=True)
class NoiseParams:
    sigma: float = 1.1  # the partner's reading noise, σ units of the box's space (measured: docs/partner.md)
    readings: int = 200
    candidates: int = 80  # clues simulated (the best by the plain score, plus the best few per target)
    per_target: int = 4
    max_n: int = 3
    assassin: float = 8.0  # an assassin loses the game: counted in greens
    bystander: float = 0.25  # a bystander ends the turn and marks the card
    w_freq: float = 0.05  # tie-break toward frequent words
    leftover_bonus: float = 0.1  # per card an earlier clue meant and the partner missed
    adapt: float = 0.0  # how much each read/misread clue moves sigma (0 = fixed); see Partner._noise_now
    seed: int = 12345


def relaxed_rank(
    scores: BoardScores, targets: Sequence[int], bad: Sequence[int], ok: np.ndarray, k: int, per: int
) -> np.ndarray:
    """Candidates worth simulating: the best by (n-th target − closest bad card) for n = 1..3, and per target."""
    t = scores.low[:, list(targets)]
    ts = -np.sort(-t, axis=1)
    worst_bad = scores.high[:, list(bad)].max(axis=1) if bad else np.zeros(len(ok))
    best = np.full(len(ok), -np.inf)
    for n in range(1, min(3, ts.shape[1]) + 1):
        nth = ts[:, n - 1]
        best = np.maximum(best, n + 0.6 * np.minimum(nth - worst_bad, 2.0) + 0.3 * np.minimum(nth, 3.0))
    best = np.where(ok, best, -np.inf)
    picks = list(np.argsort(-best)[:k])
    for j in range(t.shape[1]):
        single = np.where(ok, t[:, j] - worst_bad, -np.inf)
        picks.extend(np.argsort(-single)[:per])
    out = np.array(list(dict.fromkeys(int(p) for p in picks)), dtype=np.int64)
    kept: np.ndarray = out[np.isfinite(best[out]) | ok[out]]
    return kept


def simulate(
    z: np.ndarray, labels: np.ndarray, sigma: float, readings: int, max_n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate (rows of z: candidates × touchable cards) and n = 1..max_n: mean greens, P(assassin) and
    P(bystander) of a noisy reading. labels: 0 green, 1 bystander, 2 assassin (on the clue giver's side)."""
    k, c = z.shape
    m = min(max_n, c)
    noisy = z[None, :, :] + sigma * rng.standard_normal((readings, k, c), dtype=np.float32)
    top = np.argpartition(-noisy, m - 1, axis=2)[:, :, :m]
    order = np.argsort(-np.take_along_axis(noisy, top, axis=2), axis=2)
    top = np.take_along_axis(top, order, axis=2)
    lab = labels[top]  # readings × k × m
    green = lab == 0
    lead = np.cumprod(green, axis=2)  # still all green up to this guess
    greens = np.cumsum(lead, axis=2).mean(axis=0)  # k × m: greens found with n = 1..m
    before = np.concatenate([np.ones((readings, k, 1), dtype=bool), lead[:, :, :-1].astype(bool)], axis=2)
    ends_x = before & (lab == 2)
    ends_n = before & (lab == 1)
    p_x = np.cumsum(ends_x, axis=2).mean(axis=0)
    p_n = np.cumsum(ends_n, axis=2).mean(axis=0)
    return greens, p_x, p_n


def choose_noisy(
    scores: BoardScores,
    vocab: Vocabulary,
    targets: Sequence[int],
    bystanders: Sequence[int],
    assassins: Sequence[int],
    visible: Sequence[str],
    params: NoiseParams,
    sigma: float | None = None,
    banned: Iterable[str] = (),
    leftovers: Iterable[int] = (),
    checker: Checker | None = None,
    rng: np.random.Generator | None = None,
) -> ClueChoice | None:
    """The (clue, n) with the best expected worth against a noisy reader; None when there is nothing to clue."""
    targets = list(targets)
    if not targets:
        return None
    ok = allowed(scores, vocab, visible, banned)
    if not ok.any():
        return None
    bad = list(bystanders) + list(assassins)
    cand = relaxed_rank(scores, targets, bad, ok, params.candidates, params.per_target)
    cand = cand[ok[cand]]
    if not len(cand):
        return None
    labels = np.array([0] * len(targets) + [1] * len(bystanders) + [2] * len(assassins), dtype=np.int64)
    # a target's similarity as the box believes a person sees it (consensus low), a bad card's the high one
    z = np.concatenate([scores.low[np.ix_(cand, targets)], scores.high[np.ix_(cand, bad)]], axis=1).astype(np.float32)
    rng = rng if rng is not None else np.random.default_rng(params.seed)
    m = min(params.max_n, len(targets))  # never a number above the greens left
    greens, p_x, p_n = simulate(z, labels, params.sigma if sigma is None else sigma, params.readings, m, rng)
    worth = greens - params.assassin * p_x - params.bystander * p_n
    left = np.isin(np.array(targets), list(leftovers))
    if left.any():
        # meant cards (the best n targets by the box's own similarity) that an earlier clue meant too
        order = np.argsort(-scores.low[np.ix_(cand, targets)], axis=1)[:, :m]
        worth = worth + params.leftover_bonus * np.cumsum(left[order], axis=1)
    worth = worth + params.w_freq * (vocab.zipf[cand, None] - 3.0)
    flat = np.argsort(-worth, axis=None)
    alternatives: list[tuple[int, int]] = []
    for f in flat[:200]:
        ci, ni = divmod(int(f), m)
        c = int(cand[ci])
        if any(c == a for a, _ in alternatives):
            continue
        if checker is not None and not checker(vocab.words[c], visible):
            ok[c] = False
            continue
        alternatives.append((c, ni + 1))
        if len(alternatives) >= 4:
            break
    if not alternatives:
        return None
    c, n = alternatives[0]
    ci = int(np.flatnonzero(cand == c)[0])
    meant = np.argsort(-scores.low[c, targets])[:n]
    picked = tuple(int(targets[j]) for j in meant)
    value = float(worth[ci, n - 1])
    return ClueChoice(
        vocab.words[c], n, picked, value, value <= 0, tuple(vocab.words[a] for a, _ in alternatives[1:])
    )
