"""Word normalisation shared by the build and the run time: case, accents, stems."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import snowballstemmer

from engine.languages import REGISTRY

_STEMMER_NAMES = {lang.code: lang.stemmer for lang in REGISTRY}


def normalize(word: str) -> str:
    """Lower case, NFC, typographic apostrophe folded, surrounding spaces removed."""
    return unicodedata.normalize("NFC", word.strip().lower().replace("\u2019", "'"))


def fold(word: str) -> str:
    """Lower case without accents (œ → oe, æ → ae), for substring and prefix checks."""
    word = normalize(word).replace("œ", "oe").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=8)
def _stemmer(lang: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(_STEMMER_NAMES.get(lang, "english"))


def stem(word: str, lang: str) -> str:
    """Snowball stem of the folded word."""
    return fold(_stemmer(lang).stemWord(normalize(word)))


def stems(words: list[str], lang: str) -> list[str]:
    stemmer = _stemmer(lang)
    return [fold(s) for s in stemmer.stemWords([normalize(w) for w in words])]


#: Words the noun lists carry but that people read first as another part of speech: never used as clues.
NOT_CLUES: dict[str, frozenset[str]] = {
    "fr": frozenset(
        "plus moins rien travers tout bien mal avant après dessus dessous dehors devant derrière pendant contre "
        "personne pas fait tendre formant même autre non oui assez trop beaucoup peu grand petit jeune vieux "
        "nouveau premier dernier seul vrai haut bas fort long large ensemble propos cours suite part".split()
    ),
    "en": frozenset("more less nothing all well ill before after over under out down up yes no".split()),
}
