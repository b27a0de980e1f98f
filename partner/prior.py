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
