"""The letters the box's clue picker offers per language, and how a word comes out when spelled with them.

The picker has A-Z, each language's own letters, an apostrophe and a space (flexible rules allow multi-word clues:
POMME DE TERRE). A letter it lacks is typed without its accent (CHÂTEAU -> CHATEAU), a ligature in two letters
(ŒUF -> OEUF where Œ is missing). The clue checker folds both spellings alike (``engine.clues.normalize``); the
corpora of ``tools/clue_corpora.py`` type their clues with ``typed`` so they are measured as players enter them.
"""

from __future__ import annotations

import unicodedata

from engine.languages import REGISTRY

ALPHABET = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
EXTRA_LETTERS: dict[str, tuple[str, ...]] = {lang.code: lang.letters for lang in REGISTRY}
APOSTROPHE, SPACE = "'", " "
_SPELLED_OUT = {"Œ": "OE", "Æ": "AE", "ß": "SS", "Ø": "O"}


def picker_letters(language: str) -> tuple[str, ...]:
    """The picker's letters for ``language``, in order: A-Z, the language's own, apostrophe, space."""
    return ALPHABET + EXTRA_LETTERS.get(language, ()) + (APOSTROPHE, SPACE)


def typed(word: str, language: str) -> str:
    """``word`` as the picker spells it: upper case, letters it lacks without accents or spelled out."""
    allowed = set(picker_letters(language))
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", word):
        up = ch if ch == "ß" else ch.upper()
        if up in allowed:
            out.append(up)
        elif up in _SPELLED_OUT:
            out.append(_SPELLED_OUT[up])
        else:
            bare = "".join(c for c in unicodedata.normalize("NFD", up) if not unicodedata.combining(c))
            out.append(bare if all(c in allowed for c in bare) else up)
    return "".join(out)
