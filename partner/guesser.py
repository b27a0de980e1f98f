"""The Duet-aware guesser: key-card prior × calibrated similarity, expected-value stopping."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GuesserParams:
    tau: float = 0.25  # temperature (sigma units) turning similarity into a share of the clue's targets
    memory_weight: float = 0.5  # how much an older, unfinished clue still counts
    assassin_cost: float = 8.0  # losing the game, counted in greens
    bystander_cost: float = 0.15  # a bystander ends the turn (as a stop would) but also marks the card
    min_green: float = 0.45  # never go on below this chance of green
    cap: float = 0.97  # no similarity makes a card certain
    # the person-trusting rules (issue 28); trust_strength 0 turns them off (the stand-in's and legacy guessers)
    trust_strength: int = 0  # a card the table links this strongly to the clue is one of its targets...
    trust_z: float = 9.0  # ... or a card this close in the vectors (σ)
    trust_gap: float = 0.5  # ... when no card the key makes risky is within this many σ of it
    trust_lead: float = 0.8  # a card trusted on the vectors alone must lead the next card by this many σ
    promise_green: float = 0.0  # while hits < number, go on down to this P(green) (0: min_green applies)
    min_pointed: float = 0.0  # after the first card, go on only to a card a clue points at this likely
    promise_pointed: float = 0.0  # ... and within the number, this likely
    clock: bool = False  # price the assassin by the value table (the chance of winning it throws away)


BOLD = GuesserParams(tau=0.2, min_green=0.4)
EASY = GuesserParams(assassin_cost=12.0, min_green=0.55)


@dataclass(frozen=True)
class Assessment:
    green: np.ndarray  # per card: chance of green on the clue giver's side
    assassin: np.ndarray
    value: np.ndarray  # expected value of touching it now (-inf for untouchable cards)
    pointed: np.ndarray | None = None  # per card: chance that a clue (this one or an older one) points at it


def target_share(
    z: np.ndarray, prior_green: np.ndarray, touchable: np.ndarray, remaining: float, tau: float, cap: float
) -> np.ndarray:
    """Chance that each card is one of the `remaining` cards a clue still points at."""
    out = np.zeros(len(z))
    if remaining <= 0 or not touchable.any():
        return out
    logits = np.where(touchable, z / tau + np.log(np.maximum(prior_green, 1e-6)), -np.inf)
    logits = logits - logits[touchable].max()
    w = np.exp(logits)
    share: np.ndarray = np.minimum(cap, remaining * w / w.sum())
    return share


def assess(
    prior: np.ndarray,
    touchable: np.ndarray,
    clues: Sequence[tuple[np.ndarray | None, float, float]],
    params: GuesserParams,
    sudden_death: bool = False,
) -> Assessment:
    """Combine the prior (25×3 G/N/X) with clues as (z per card or None, targets still unfound, weight)."""
    g0, x0 = prior[:, 0], prior[:, 2]
    miss = np.ones(len(prior))
    pointed = 0.0
    for z, remaining, weight in clues:
        if z is None or remaining <= 0:
            continue
        share = target_share(z, g0, touchable, remaining, params.tau, params.cap)
        miss *= 1.0 - weight * share
        pointed += weight * remaining
    p = 1.0 - miss
    greens_left = float(g0[touchable].sum()) or 1.0
    rest = max(0.0, greens_left - pointed) / greens_left  # share of green prior not explained by the clues
    green = p + (1.0 - p) * g0 * rest
    assassin = (1.0 - p) * x0
    bystander = np.clip(1.0 - green - assassin, 0.0, 1.0)
    cost_n = params.assassin_cost if sudden_death else params.bystander_cost
    value = green - params.assassin_cost * assassin - cost_n * bystander
    value = np.where(touchable, value, -np.inf)
    return Assessment(green, assassin, value, p)


def should_continue(
    a: Assessment, card: int, params: GuesserParams, hits_this_turn: int, sudden_death: bool, number: int = 0
) -> tuple[bool, str]:
    """Whether to touch `card` (the best one), and why: a key of partner.messages (its fields are the card's
    chances, filled in by the "what I meant" page)."""
    if sudden_death:
        return True, "sd"
    if hits_this_turn == 0:
        return True, "first"
    # Within the number a bystander costs what a stop costs (the turn ends, one token): only the assassin is a
    # real risk, so a promised card needs less (promise_green, promise_pointed) than one past the number
    promised = params.promise_green > 0 and hits_this_turn < number
    if a.green[card] < (params.promise_green if promised else params.min_green):
        return False, "low_green"
    need = params.promise_pointed if promised else params.min_pointed
    if need > 0 and a.pointed is not None and a.pointed[card] < need:
        # green only by the key card's odds: no clue points at it (playtest: CHICKEN 3 -> egg, thigh, SUGAR)
        return False, "low_green"
    if a.value[card] <= 0:
        return False, "risk"
    return True, "go_on"


def trusted_card(
    score: np.ndarray | None,
    links: np.ndarray,
    touchable: np.ndarray,
    risky: np.ndarray,
    params: GuesserParams,
) -> int | None:
    """A person's clue promises its number: the card to take next when the clue links it (table strength of at
    least `trust_strength`, or a z of `trust_z` that leads every other card by `trust_lead`) and no risky card
    (one the key makes a likely assassin) is within `trust_gap` σ of it; None when no card is that plain."""
    if score is None or params.trust_strength <= 0 or not touchable.any():
        return None
    s = np.where(touchable, score, -np.inf)
    card = int(np.argmax(s))
    rest = np.delete(s, card)
    lead = s[card] - float(rest.max()) if np.isfinite(rest).any() else np.inf
    by_vectors = s[card] >= params.trust_z and lead >= params.trust_lead
    if not (links[card] >= params.trust_strength or by_vectors):
        return None
    others = touchable & risky
    others[card] = False
    if others.any() and s[card] - float(s[others].max()) < params.trust_gap:
        return None
    return card


def sudden_death_card(a: Assessment, touchable: np.ndarray) -> int:
    """Sudden death: any wrong touch loses, so the card likeliest to be the partner's agent, the clues given
    (their leftovers) and the key's prior with the agents left on the table together."""
    return int(np.argmax(np.where(touchable, a.green, -np.inf)))
