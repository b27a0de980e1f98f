"""Duet key cards: 25 (side A, side B) pairs following the template of rules §1.

Text form: two strings of 25 characters G (green agent), N (bystander), X (assassin), card order row-major as seat A
reads the table. ``key.a[i]`` is what seat A's side says of card i.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .board import DUET as DUET_BOARD
from .errors import BadKey
from .seats import Seat

#: Rules §1 "Key-card structure": how many cards carry each (side A, side B) pair.
TEMPLATE: dict[tuple[str, str], int] = {
    ("G", "G"): 3, ("G", "N"): 5, ("G", "X"): 1,
    ("N", "G"): 5, ("N", "N"): 7, ("N", "X"): 1,
    ("X", "G"): 1, ("X", "N"): 1, ("X", "X"): 1,
}
CARDS = DUET_BOARD.cards  # engine.board: 5 x 5
GREENS_PER_SIDE = 9
TOTAL_GREENS = 15


@dataclass(frozen=True)
class DuetKey:
    """Both sides of one key card."""

    a: str
    b: str

    def __post_init__(self) -> None:
        problem = template_problem(self.a, self.b)
        if problem:
            raise BadKey(problem)

    def side(self, seat: Seat) -> str:
        return self.a if seat == "A" else self.b

    def pair(self, card: int) -> tuple[str, str]:
        return self.a[card], self.b[card]

    def greens(self) -> frozenset[int]:
        """Every card green on at least one side (15 of them)."""
        return frozenset(i for i in range(CARDS) if "G" in (self.a[i], self.b[i]))

    def __str__(self) -> str:
        return f"{self.a}/{self.b}"


def template_problem(a: object, b: object) -> str | None:
    """Why (a, b) is not a valid key, or None."""
    for name, side in (("A", a), ("B", b)):
        if not isinstance(side, str):
            return f"key side {name} must be a string of 25 characters G/N/X"
        if len(side) != CARDS:
            return f"key side {name} has {len(side)} characters, not 25"
        bad = sorted(set(side) - set("GNX"))
        if bad:
            return f"key side {name} has characters other than G, N, X: {''.join(bad)}"
    assert isinstance(a, str) and isinstance(b, str)
    counts = Counter(zip(a, b, strict=True))
    for pair, wanted in TEMPLATE.items():
        got = counts.get(pair, 0)
        if got != wanted:
            return (f"key has {got} card(s) {pair[0]} on side A and {pair[1]} on side B; "
                    f"a Duet key card has {wanted}")
    return None


def parse_key(a: object, b: object) -> DuetKey:
    """A key from its two text sides; BadKey with the reason otherwise."""
    problem = template_problem(a, b)
    if problem:
        raise BadKey(problem)
    assert isinstance(a, str) and isinstance(b, str)
    return DuetKey(a, b)


def random_key(rng: random.Random) -> DuetKey:
    """A random placement of the 25 template pairs (the game's own seeded generator, never the global one)."""
    pairs = [pair for pair, n in TEMPLATE.items() for _ in range(n)]
    rng.shuffle(pairs)
    return DuetKey("".join(p[0] for p in pairs), "".join(p[1] for p in pairs))
