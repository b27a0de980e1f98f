"""Clue checker: the part of Rules §1 "Invalid clues" a machine can decide.

Strict rules (the default) refuse a clue that is empty, several words (spaces or hyphens), has digits or
other non-letters, is a visible word, contains a visible word or is contained in one (the shorter of the two
having at least 4 letters), or belongs to the same family as a visible word (same Snowball stem, or one stem
extending into the other word, see ``_same_family``). Flexible rules keep only the empty and visible-word
checks. Homophones, translations and references to positions or letters still need a human penalty.

Comparison ignores case and accents: ``normalize`` folds both sides.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from . import families, lemmas
from .errors import InvalidClue
from .folding import normalize as normalize  # re-exported: engine.clues.normalize is the public name
from .languages import REGISTRY
from .pictures_deck import visible_names
from .snowball import stemmer as snowball_stemmer

# Game language -> Snowball algorithm name (engine.languages).
STEMMER_LANGUAGES: dict[str, str] = {lang.code: lang.stemmer for lang in REGISTRY}

# Below this many letters a word is too short for the containment and family checks: "art" inside "party" is
# not the same word (rules-facts §6: the official texts warn against being too strict).
MIN_PART_LETTERS = 4

PROBLEM_CODES = (
    "empty",
    "several_words",
    "digits",
    "not_a_word",
    "visible",
    "contains",
    "contained_in",
    "same_stem",
)

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2018": "'"})
# Romanian is often typed with the legacy cedilla letters; the stemmer knows the comma-below ones.
_LEGACY = {lang.code: str.maketrans(dict(lang.legacy)) for lang in REGISTRY if lang.legacy}
# One token of letters; apostrophes only between letters (aujourd'hui, l'eau).
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


@dataclass(frozen=True)
class ClueProblem:
    """Why a clue is refused. ``word`` is the visible word involved ("" if none)."""

    code: str
    word: str = ""

    def message(self) -> str:
        """One English sentence for logs, tests and the CLI (screens translate ``code`` themselves)."""
        shown = self.word.upper()
        messages = {
            "empty": "The clue is empty",
            "several_words": "A clue must be a single word",
            "digits": "A clue may not contain digits",
            "not_a_word": "A clue may only contain letters",
            "visible": f"{shown} is on the table",
            "contains": f"The clue contains {shown}, which is on the table",
            "contained_in": f"The clue is part of {shown}, which is on the table",
            "same_stem": f"The clue is of the same family as {shown}, which is on the table",
        }
        return messages.get(self.code, f"Invalid clue ({self.code})")


def check_clue(
    word: str, visible: Sequence[str], *, language: str = "fr", strict: bool = True
) -> tuple[ClueProblem, ...]:
    """Return every problem of the clue ``word`` against the ``visible`` words; () means acceptable (see
    ``_check``). The answer is kept per board: the box checks a clue when it is entered and the engine again
    when it is given, and a refused clue is often entered again."""
    return _checked(word, tuple(visible), language, strict)


@lru_cache(maxsize=256)
def _checked(word: str, visible: tuple[str, ...], language: str, strict: bool) -> tuple[ClueProblem, ...]:
    return _check(word, visible, language=language, strict=strict)


def _check(
    word: str, visible: Sequence[str], *, language: str = "fr", strict: bool = True
) -> tuple[ClueProblem, ...]:
    """Return every problem of the clue ``word`` against the ``visible`` words; () means acceptable.

    Rules §1 "Invalid clues". At most one problem per visible word (the strongest: visible, then contains or
    contained_in, then same_stem), after the problems of the clue's own form. Raises ValueError for a language
    without a stemmer (see ``STEMMER_LANGUAGES``), even in flexible rules, so a bad setting is found at once.
    """
    _stemmer(language)  # raises ValueError for an unknown language
    clue = " ".join(word.translate(_APOSTROPHES).split()) if not strict else word.strip().translate(_APOSTROPHES)
    if not clue:
        return (ClueProblem("empty"),)
    problems: list[ClueProblem] = []
    if strict:
        problems.extend(_form_problems(clue))
    folded = normalize(clue)
    parts: list[str] = _WORD.findall(clue) if strict else []
    for shown in visible:
        # the visible word read the way the clue was (flexible rules collapse every kind of space, U+1680 too)
        other = (" ".join(shown.translate(_APOSTROPHES).split()) if not strict
                 else shown.strip().translate(_APOSTROPHES))
        if not other:
            continue
        problem = _against(folded, parts, clue, other, language, strict)
        if problem is not None:
            problems.append(ClueProblem(problem, shown.strip()))
    return tuple(problems)


def _form_problems(clue: str) -> list[ClueProblem]:
    problems: list[ClueProblem] = []
    if any(ch.isspace() or unicodedata.category(ch) == "Pd" for ch in clue):
        problems.append(ClueProblem("several_words"))
    if any(ch.isdigit() for ch in clue):
        problems.append(ClueProblem("digits"))
    # The separators and digits above are reported already; anything else must form one word of letters.
    rest = "".join(
        " " if ch.isspace() or ch.isdigit() or unicodedata.category(ch) == "Pd" else ch for ch in clue
    )
    if any(_WORD.fullmatch(chunk) is None for chunk in rest.split()):
        problems.append(ClueProblem("not_a_word"))
    return problems


def _against(folded: str, parts: list[str], clue: str, shown: str, language: str, strict: bool) -> str | None:
    other = normalize(shown)
    if folded == other:
        return "visible"
    mine = _info(clue, language)
    theirs = _info(shown, language)
    if not strict:
        # Flexible rules allow compounds, homonyms and puns, but never a visible word's own forms (CHIENS/chien).
        return "same_stem" if _forms(mine, theirs, language) else None
    infos = [_info(part, language) for part in parts] if len(parts) > 1 else [mine]
    for info in infos:
        relation = _relation(info, theirs, language)
        if relation is not None:
            return relation
    return None


def _relation(a: _Info, b: _Info, language: str) -> str | None:
    """How the clue ``a`` and the visible word ``b`` are one word or one family, None when they are not: the code
    says "contains" or "contained_in" when one is spelled inside the other, "same_stem" otherwise."""
    if _looks_like(a, b, language):
        return "contains"
    if _related(a, b, language):
        if len(b.folded) >= MIN_PART_LETTERS and b.folded in a.folded:
            return "contains"
        if len(a.folded) >= MIN_PART_LETTERS and a.folded in b.folded:
            return "contained_in"
        return "same_stem"
    return None


def _related(a: _Info, b: _Info, language: str) -> bool:
    if families.unrelated(a.folded, b.folded, language):
        return False  # two words that only look like one family (pesce / pesco, Eis / Eisen)
    return _forms(a, b, language) or _member(a, b) or _member(b, a) or _family(a, b, language)


def related(word: str, other: str, language: str) -> bool:
    """True when ``word`` and ``other`` are one word's forms, one family, or one a member of the other compound:
    what the strict checker refuses besides the visible word itself and, in Romanian, what only looks like it
    (BAS / bastion). The packs keep no two such words (tests/engine/test_words.py)."""
    _stemmer(language)  # raises ValueError for an unknown language
    a = _info(word.strip().translate(_APOSTROPHES), language)
    b = _info(other.strip().translate(_APOSTROPHES), language)
    return a.folded == b.folded or _related(a, b, language)


@dataclass(frozen=True)
class _Info:
    """What the checker knows of one word: its folded and raw spellings, lemmas, prefix-free roots, family."""

    folded: str
    raw: str
    keys: frozenset[str]  # the folded word and its folded lemmas
    known: bool  # the lemma table knows the word
    roots: tuple[str, ...]  # folded remainders after a known prefix, when the remainder is a known word
    language: str
    cores: frozenset[str]  # the forms its own base takes (families.cores), of the word and its lemmas
    bases: frozenset[str]  # what it is derived from by a suffix (families.bases), of the word and its lemmas

    @cached_property
    def parts(self) -> tuple[str, ...]:
        """Folded members of a compound (MICROUNDE: micro, unde; FAHRRAD: fahr, rad), () when not one."""
        return families.parts(self.raw, self.language)

    @cached_property
    def stem(self) -> str:
        """Its Snowball stem, folded (worked out once: each of the board's 25 comparisons asks for it)."""
        return families.stem(self.raw, self.language)


@cache
def _info(word: str, language: str) -> _Info:
    raw = _raw(word, language)
    folded = normalize(word)
    found = lemmas.lemmas(word.strip(), language)
    keys = frozenset({folded} | {normalize(lemma) for lemma in found})
    spellings = {raw} | {lemma.casefold() for lemma in found if " " not in lemma}
    cores: set[str] = set()
    bases: set[str] = set()
    for spelling in spellings:
        cores |= families.cores(spelling, language)
        bases |= families.bases(spelling, language)
    known = bool(found) or families.known(raw, language)
    return _Info(folded, raw, keys, known, families.roots(raw, language), language, frozenset(cores),
                 frozenset(bases))


def _forms(a: _Info, b: _Info, language: str) -> bool:
    """One word is a form of the other: a shared lemma (chevaux/cheval, flori/floare, mice/mouse, rois/roi), or,
    for a word the lemma table does not know, the same stem with at most a 3-letter ending (a custom pack's words)."""
    if families.unrelated(a.folded, b.folded, language):
        return False
    if a.keys & b.keys:
        return True
    if a.known and b.known:
        return False  # two words the table knows, with different lemmas (marin / marine): not one word's forms
    short, long = sorted((a, b), key=lambda info: len(info.folded))
    return (short.stem == long.stem
            and long.folded.startswith(short.folded) and len(long.folded) - len(short.folded) <= 3)


def _looks_like(a: _Info, b: _Info, language: str) -> bool:
    """The Romanian rules: nothing that looks like a visible word (BAS on the table: bastion, basculantă; but
    băștinaș), read on the letters as written: the clue starts with the whole visible word."""
    return language == "ro" and len(b.raw) >= 3 and a.raw.startswith(b.raw) and a.raw != b.raw


def _member(a: _Info, b: _Info) -> bool:
    """``a`` is a member of the compound ``b``, a form of one, or of one's family (MICROUNDE: micro, unde, microscop,
    unduire; HORSESHOE: horse, unhorsed, snowshoe; FAHRRAD: Rad, Räder; ARC-EN-CIEL: arc), or itself a compound with
    one of ``b``'s members (snowshoe / HORSESHOE). A word holding a member's letters by chance is none (microb,
    tunde: no word is left beside the member)."""
    members = b.parts
    if not members:
        return False
    language = a.language
    own_parts = set(a.parts)
    for member in members:
        if member in a.keys or member in a.roots or member in own_parts:
            return True
        info = _info(member, language)
        if info.keys & a.keys or _family(a, info, language):
            return True
    return False


def _family(a: _Info, b: _Info, language: str) -> bool:
    """One family: a base one is derived from is a form of the other's base (chanteur / chanter: chant; rouage /
    roue: rou; gattino / gatto: gatt; Sänger / singen: the Ablaut series sing), through a prefix too (enchanter ->
    chanter), or two words of one stem that are not two listed look-alikes (Eis / Eisen, pesce / pesco)."""
    if families.unrelated(a.folded, b.folded, language):
        return False
    lefts = [a] + [_info(root, language) for root in a.roots]
    rights = [b] + [_info(root, language) for root in b.roots]
    return any(_one_family(x, y) for x in lefts for y in rights)


def _one_family(a: _Info, b: _Info) -> bool:
    if a.keys & b.keys:
        return True  # a root under a prefix is the other word or one of its forms (unlock / LOCK)
    if a.bases & b.cores or b.bases & a.cores:
        return True
    if {"=" + b.folded, "=" + b.stem} & a.bases or {"=" + a.folded, "=" + a.stem} & b.bases:
        return True  # runner / run, maisonnette / maison: a doubled consonant before the suffix
    if {x for x in a.bases & b.bases if len(x) >= MIN_PART_LETTERS or x.startswith("@")}:
        return True  # chanteur / chanson: both on chant-
    stem_a, stem_b = a.stem, b.stem
    if stem_a != stem_b or len(stem_a) < 3:
        return False
    # One stem: a family (chanter / chante, canto / cantare, clou / clouer), unless both are words of their own
    # that differ only in a final vowel (pesce / pesco, lama / lame, pizza / pizzo): the lemma table tells them
    # apart, and a gender pair the table links (gatto / gatta) is one word's forms already.
    endings = (a.folded[len(stem_a):], b.folded[len(stem_b):])
    return not (a.known and b.known and all(len(e) <= 2 and set(e) <= set("aeiou") for e in endings))


def _raw(word: str, language: str) -> str:
    raw = word.casefold().strip()
    table = _LEGACY.get(language)
    return raw.translate(table) if table is not None else raw


@cache
def _stemmer(language: str) -> Callable[[str], str]:
    algorithm = STEMMER_LANGUAGES.get(language)
    if algorithm is None:
        known = ", ".join(sorted(STEMMER_LANGUAGES))
        raise ValueError(f"no clue checker for language {language!r} (known: {known})")
    stemmer = snowball_stemmer(algorithm)

    @cache
    def stem(word: str) -> str:
        return str(stemmer.stemWord(word))

    return stem


def prepare(visible: Sequence[str], language: str) -> None:
    """Work out now what the checker needs of each visible word (lemmas, roots, compound parts), so that the
    first clue on a new board is as quick as the next ones. The box calls it in a background thread when a game
    is dealt (``device.services.cluewarm``); the results are the same with or without it."""
    if language not in STEMMER_LANGUAGES:
        return
    for word in visible:
        if word.strip():
            _info(word.strip().translate(_APOSTROPHES), language).parts  # noqa: B018 - computed and cached


def refuse_invalid(word: str, visible: Sequence[str], *, language: str, strict: bool, pictures: bool) -> None:
    """Raise InvalidClue when ``word`` may not be given with ``visible`` on the table (rules §3): the visible cards'
    words, or, for pictures, the names of what they show (engine.pictures_deck.visible_names)."""
    if pictures:
        visible = visible_names(visible, language)
    problems = check_clue(word, visible, language=language, strict=strict)
    if problems:
        raise InvalidClue("; ".join(p.message() for p in problems), tuple(problems))
