"""Game states for renderer tests and sample images, built with the real engine."""

from __future__ import annotations

import random

from engine import duet
from engine.actions import Clue, Guess, Stop
from engine.keycard import DuetKey, random_key

WORDS = (
    "forêt",
    "fleuve",
    "île",
    "ambassadeur",
    "château",
    "știință",
    "pădure",
    "pâine",
    "été",
    "glacier",
    "vallée",
    "grotte",
    "cascade",
    "marais",
    "prairie",
    "colline",
    "désert",
    "volcan",
    "océan",
    "lac",
    "éléphant",
    "țară",
    "mer",
    "plage",
    "montagne",
)


def key(seed: int = 7) -> DuetKey:
    return random_key(random.Random(seed))


def first(side: str, kind: str, exclude: set[int] | frozenset[int] = frozenset()) -> int:
    return next(i for i, c in enumerate(side) if c == kind and i not in exclude)


def mid_game(k: DuetKey | None = None, rules: duet.DuetRules | None = None) -> duet.DuetState:
    """A clued, an agent found by B, a bystander marked for B; then B clued, A found an agent and stopped,
    then A clued and B is guessing."""
    k = k or key()
    s = duet.new_game(WORDS, k, rules)
    s, _ = duet.apply(s, Clue("A", "rivière", 2))
    g = first(k.a, "G")
    s, _ = duet.apply(s, Guess("B", g))
    n = next(i for i, c in enumerate(k.a) if c == "N" and k.b[i] != "X")
    s, _ = duet.apply(s, Guess("B", n))
    s, _ = duet.apply(s, Clue("B", None, 1))
    g2 = first(k.b, "G", s.found | s.marks_b)
    s, _ = duet.apply(s, Guess("A", g2))
    s, _ = duet.apply(s, Stop("A"))
    s, _ = duet.apply(s, Clue("A", "royaume", 3))
    return s


def assassin_loss(k: DuetKey | None = None) -> duet.DuetState:
    k = k or key()
    s = duet.new_game(WORDS, k)
    s, _ = duet.apply(s, Clue("A", "hiver", 1))
    s, _ = duet.apply(s, Guess("B", first(k.a, "X")))
    return s


def sudden_death(k: DuetKey | None = None) -> duet.DuetState:
    """A two-token game: two bystander hits empty the bank and start sudden death."""
    k = k or key()
    s = duet.new_game(WORDS, k, duet.DuetRules(tokens=2))
    marked: set[int] = set()
    for giver, guesser in (("A", "B"), ("B", "A")):
        side = k.side(giver)
        s, _ = duet.apply(s, Clue(giver, None, 1))
        n = next(i for i, c in enumerate(side) if c == "N" and i not in marked)
        marked.add(n)
        s, _ = duet.apply(s, Guess(guesser, n))
    assert s.phase == "sudden_death"
    return s


def won(k: DuetKey | None = None) -> duet.DuetState:
    k = k or key()
    s = duet.new_game(WORDS, k)
    s, _ = duet.apply(s, Clue("A", None, 9))
    for i, c in enumerate(k.a):
        if c == "G":
            s, _ = duet.apply(s, Guess("B", i))
    s, _ = duet.apply(s, Stop("B"))
    s, _ = duet.apply(s, Clue("B", None, 9))
    for i, c in enumerate(k.b):
        if c == "G" and i not in s.found:
            s, _ = duet.apply(s, Guess("A", i))
    assert s.phase == "won", s.phase
    return s


def double_mark(k: DuetKey | None = None) -> duet.DuetState:
    """A mission with no innocent-face token: a bystander costs two tokens (rules §1 missions)."""
    k = k or key()
    s = duet.new_game(WORDS, k, duet.DuetRules(tokens=8, mistakes=0), mission="Vatican")
    s, _ = duet.apply(s, Clue("A", None, 1))
    n = next(i for i, c in enumerate(k.a) if c == "N" and k.b[i] != "X")
    s, _ = duet.apply(s, Guess("B", n))
    return s


def new_state(k: DuetKey | None = None, tokens: int = 9) -> duet.DuetState:
    return duet.new_game(WORDS, k or key(), duet.DuetRules(tokens=tokens))
