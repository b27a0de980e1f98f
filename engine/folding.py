"""Folding a word for comparison (``normalize``): the one spelling the clue checker, the word packs and the
family tables compare (a leaf module: ``engine.clues`` and ``engine.families`` both use it)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ĳ": "ij", "ø": "o", "ł": "l", "đ": "d"})


@lru_cache(maxsize=16384)  # the same words (a pack's, a board's, the deck of used words) are folded again and again
def normalize(word: str) -> str:
    """Casefold, drop accents (NFKD minus combining marks), strip spaces: " École " -> "ecole".

    Ligatures are spelled out the way the box's letter picker spells them: cœur -> coeur, nævus -> naevus,
    Straße -> strasse (casefold does ß)."""
    # Compatibility forms (𝒜, ﬁ) must be decomposed before casefolding, and casefolding may compose again.
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", word).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_LIGATURES).strip()
