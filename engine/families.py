"""Word families for the clue checker: roots under known prefixes and the parts of compound words.

Rules §1 "Invalid clues" refuse a clue of the same family as a visible word (the French rules' own example:
ENCHANTER for CHANTEUR) and a part of a visible compound (the Romanian rules' MICROUNDE: micro, unde, microscop,
unduire; but microb and tunde are fine). Stems alone miss both, so this module adds two things, each checked against
the lemma table (``engine.lemmas``) so that a prefix or a part is only taken off when what remains is a real word:

- ``roots``: the word without a known prefix (enchanter -> chanter, décrocher -> crocher, unhappy -> happy), so that
  the stem comparison in ``engine.clues`` sees chanter/chanteur and crocher/crochet;
- ``parts``: the two halves of a compound (microunde -> micro + unde, horseshoe -> horse + shoe, Handschuh -> hand +
  schuh), each at least 4 letters and a word, or a combining form such as micro-, télé-, auto-.

The lists are ours; they were tuned on the corpora of ``tools/clue_corpora.py`` (see docs/rules.md): a prefix that
refused unrelated pairs there was left out (French a-, Italian s-).
"""

from __future__ import annotations

from functools import cache

from . import lemmas
from .folding import normalize
from .languages import REGISTRY

#: Prefixes a derived word may start with (lower case, with accents), longest tried first.
PREFIXES: dict[str, tuple[str, ...]] = {
    "fr": ("contre", "entre", "trans", "super", "sous", "anti", "para", "dés", "des", "dé", "de", "ré", "re", "en",
           "em", "in", "im", "ir", "il", "dis", "mé", "pré", "sur", "ex", "co"),
    "en": ("under", "super", "inter", "trans", "over", "fore", "anti", "out", "dis", "mis", "non", "pre", "sub",
           "un", "re", "de", "in", "im", "en", "em", "up", "be", "co"),
    "ro": ("contra", "supra", "anti", "stră", "răs", "des", "dez", "pre", "sub", "ne", "re", "în", "îm", "de"),
    "de": ("durch", "unter", "über", "nach", "miss", "ver", "ent", "zer", "vor", "aus", "ein", "auf", "mit", "un",
           "be", "er", "an", "ab", "zu", "um"),
    "it": ("contro", "sovra", "sopra", "anti", "stra", "tras", "dis", "pre", "ri", "re", "in", "im", "de"),
}

#: Combining forms that make compounds without being words themselves (MICROUNDE = micro + unde).
COMBINING: tuple[str, ...] = (
    "micro", "macro", "mini", "maxi", "tele", "télé", "auto", "foto", "photo", "radio", "aero", "aéro", "hydro",
    "bio", "geo", "géo", "eco", "éco", "electro", "électro", "super", "hyper", "ultra", "multi", "poly", "mono",
    "semi", "demi", "inter", "extra", "pseudo", "termo", "thermo", "video", "vidéo", "moto", "porte", "grand",
)

# Derivational endings a 3-letter stem must be followed by to make a family (ROUE / ROUAGE, RUN / RUNNER).
SUFFIXES: dict[str, tuple[str, ...]] = {
    "fr": ("age", "eur", "euse", "ier", "iere", "ette", "et", "on", "ment", "ee", "erie", "iste", "isme", "able",
           "ite", "ation", "aison", "ure", "ant", "ine", "eau", "elle"),
    "en": ("er", "ers", "ing", "ings", "ness", "ment", "ful", "less", "able", "ish", "ist", "ism", "ery", "ly",
           "ed", "ion", "ster", "let", "ling"),
    "ro": ("ar", "arie", "ime", "tor", "toare", "ire", "are", "ut", "ica", "el", "ie", "esc", "easca", "ist",
           "iste", "itor"),
    "de": ("er", "ung", "chen", "lein", "heit", "keit", "schaft", "isch", "erei", "in", "ling", "nis"),
    "it": ("ino", "ina", "etto", "etta", "ello", "ella", "one", "aio", "aia", "iere", "iera", "ista", "ata", "tore",
           "trice", "eria", "ezza", "mento", "zione"),
}

MIN_ROOT = 4  # letters left after a prefix, and in each part of a compound
_DOUBLED_A = frozenset(lang.code for lang in REGISTRY if lang.doubled_a)
_SHORT_HEADS = frozenset(lang.code for lang in REGISTRY if lang.short_heads)


def _suffixes(language: str) -> tuple[str, ...]:
    return SUFFIXES.get(language, ())


def _known(word: str, language: str) -> bool:
    # German nouns are capitalised in the table: ask both readings, as for a word typed in capitals.
    return lemmas.known(word.upper() if language == "de" else word, language)


def _folded(word: str) -> str:
    return normalize(word)


@cache
def roots(raw: str, language: str) -> tuple[str, ...]:
    """Folded remainders of ``raw`` (lower case, accents kept) after each known prefix, when they are words."""
    if not raw.isalpha():
        return ()
    found: list[str] = []
    for prefix in PREFIXES.get(language, ()):
        rest = raw[len(prefix):]
        if raw.startswith(prefix) and len(rest) >= MIN_ROOT and _known(rest, language):
            found.append(_folded(rest))
    # French and Italian a- before a doubled consonant (accrocher -> crocher, appendere -> pendere)
    if language in _DOUBLED_A and len(raw) > MIN_ROOT + 2 and raw[0] == "a" and raw[1] == raw[2] \
            and raw[1] not in "aeiouy" and _known(raw[2:], language):
        found.append(_folded(raw[2:]))
    return tuple(dict.fromkeys(found))


@cache
def parts(raw: str, language: str) -> tuple[str, ...]:
    """Folded parts of ``raw`` read as a compound of two words (or a combining form and a word); () if none."""
    if not raw.isalpha() or len(raw) < 2 * MIN_ROOT - 1:
        return ()
    head_letters = MIN_ROOT if language in _SHORT_HEADS else MIN_ROOT + 1  # Romance compounds: porte-, para-...
    for cut in range(3, len(raw) - MIN_ROOT + 1):  # the longest tail first: schatz + truhe, not schatzt + ruhe
        head, tail = raw[:cut], raw[cut:]
        if tail.endswith(_suffixes(language)) or not _known(tail, language):
            continue  # Kirschen is no compound of -chen, nor bouclier of bouc + lier, nor închisoare of -oare
        if language == "de" and not lemmas.known(tail.capitalize(), language):
            continue  # a German compound ends in a noun
        if head in COMBINING or (len(head) >= head_letters and _known(head, language)):
            return (_folded(head), _folded(tail))
        if language == "de" and head.endswith("s") and len(head) > MIN_ROOT and _known(head[:-1], language):
            return (_folded(head[:-1]), _folded(tail))  # the linking s of Arbeitszimmer
    return ()
