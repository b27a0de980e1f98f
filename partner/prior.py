"""What my own key side says about my partner's (Rules §1, key-card structure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

LABELS = "GNX"  # green, bystander (neutral), assassin

#: TEMPLATE[mine][theirs]: how many of the 25 cards have that pair of labels (the table is symmetric).
TEMPLATE: dict[str, dict[str, int]] = {
    "G": {"G": 3, "N": 5, "X": 1},
    "N": {"G": 5, "N": 7, "X": 1},
    "X": {"G": 1, "N": 1, "X": 1},
}


def partner_prior(
    my_side: str, known: Mapping[int, str] | None = None, candidates: Iterable[int] | None = None
) -> np.ndarray:
    """(25, 3) probabilities of G/N/X on the partner's side for each card, from my side and what is known.

    `known` maps cards to their partner-side label when it has been revealed (my earlier guesses). Cards whose
    partner label is unknown are exchangeable within their category of my side, so each gets the category's
    remaining counts divided by the number of unknown cards in it (covered cards whose partner label I never
    saw stay in that count). Known cards get a one-hot row. `candidates` is accepted for symmetry and ignored.
    """
    known = dict(known or {})
    out = np.zeros((len(my_side), 3))
    remaining = {c: dict(TEMPLATE[c]) for c in TEMPLATE}
    unknown = {c: 0 for c in TEMPLATE}
    for i, mine in enumerate(my_side):
        label = known.get(i)
        if label is None:
            unknown[mine] += 1
        else:
            remaining[mine][label] = max(0, remaining[mine][label] - 1)
    for i, mine in enumerate(my_side):
        label = known.get(i)
        if label is not None:
            out[i, LABELS.index(label)] = 1.0
            continue
        counts = np.array([remaining[mine][x] for x in LABELS], dtype=float)
        total = counts.sum()
        out[i] = counts / total if total > 0 else np.array([0.0, 1.0, 0.0])
    return out


def sudden_death_prior(
    prior: np.ndarray, my_side: str, touchable: np.ndarray, agents_left: int, mine_left: int
) -> np.ndarray:
    """The prior of sudden death, when the box touches for its partner: the agents left on the table count.

    Every agent not found is green on one side at least; so the partner's agents among the cards that are not
    mine are exactly `agents_left` minus my own agents left (playtest fr3: with my two agents the only ones left,
    the partner's last agent had to be one of them, yet a bystander of mine weighed 30 %). Those cards share that
    many greens in proportion to their key prior; a card of mine keeps its prior (it may be a shared agent).
    `mine_left`: my agents not found (touchable or not)."""
    out = prior.copy()
    theirs = max(agents_left - mine_left, 0)
    other = touchable & np.array([c != "G" for c in my_side])
    mass = float(out[other, 0].sum())
    scale = theirs / mass if mass > 0 else 0.0
    green = np.minimum(out[other, 0] * scale, 1.0)
    rest = out[other, 1:]
    rest_sum = rest.sum(axis=1, keepdims=True)
    share = np.where(rest_sum > 0, rest / np.maximum(rest_sum, 1e-12), np.array([[1.0, 0.0]]))
    out[other, 0] = green
    out[other, 1:] = share * (1.0 - green)[:, None]
    # the partner has an agent left (else I would not be touching): when none can be elsewhere, it is one of mine
    own = touchable & np.array([c == "G" for c in my_side])
    own_mass = float(out[own, 0].sum())
    if theirs == 0 and 0 < own_mass < 1.0:
        lifted = out[own, 0] / own_mass
        rest = out[own, 1:]
        rest_sum = np.maximum(rest.sum(axis=1, keepdims=True), 1e-12)
        out[own, 0] = lifted
        out[own, 1:] = rest / rest_sum * (1.0 - lifted)[:, None]
    return out


def partner_agents_left(prior: np.ndarray, touchable: np.ndarray) -> float:
    """How many of the partner's agents are still to find among the touchable cards (the sum of their chances)."""
    return float(prior[touchable, 0].sum())
