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
from functools import cache

import snowballstemmer  # type: ignore[import-untyped,unused-ignore]

from . import families, lemmas
from .errors import InvalidClue
from .folding import normalize as normalize  # re-exported: engine.clues.normalize is the public name
from .languages import REGISTRY
from .pictures_deck import visible_names

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

# Languages whose nouns end in an inflectional vowel a compound's derivatives drop (ro unde -> unduire).
_FINAL_VOWEL_LANGUAGES = tuple(lang.code for lang in REGISTRY if lang.final_vowel)
_COMBINING_FOLDED = frozenset(
    ("micro", "macro", "mini", "maxi", "tele", "auto", "foto", "photo", "radio", "aero", "hydro", "bio", "geo", "eco",
     "electro", "super", "hyper", "ultra", "multi", "poly", "mono", "semi", "demi", "inter", "extra", "pseudo",
     "termo", "thermo", "video", "moto", "porte", "grand"))
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
    if len(other) >= MIN_PART_LETTERS and other in folded:
        return "contains"
    if len(folded) >= MIN_PART_LETTERS and folded in other:
        return "contained_in"
    infos = [_info(part, language) for part in parts] if len(parts) > 1 else [mine]
    if any(_forms(info, theirs, language) or _family(info, theirs, language) for info in infos):
        return "same_stem"
    if any(_compound_part(info, theirs, language) for info in infos):
        return "same_stem"
    if language != "en" and any(_compound_with(info, theirs, language) for info in infos):
        return "same_stem"
    return None


@dataclass(frozen=True)
class _Info:
    """What the checker knows of one word: its folded and raw spellings, lemmas, prefix-free roots, parts."""

    folded: str
    raw: str
    keys: frozenset[str]  # the folded word and its folded lemmas
    known: bool  # the lemma table knows the word
    roots: tuple[str, ...]  # folded remainders after a known prefix, when the remainder is a known word
    language: str

    @property
    def parts(self) -> tuple[str, ...]:
        """Folded parts of a compound (MICROUNDE: micro, unde), () when not one; worked out for visible words only."""
        return families.parts(self.raw, self.language)


@cache
def _info(word: str, language: str) -> _Info:
    raw = _raw(word, language)
    folded = normalize(word)
    found = lemmas.lemmas(word.strip(), language)
    keys = frozenset({folded} | {normalize(lemma) for lemma in found})
    return _Info(folded, raw, keys, bool(found), families.roots(raw, language), language)


def _forms(a: _Info, b: _Info, language: str) -> bool:
    """One word is a form of the other: a shared lemma (chevaux/cheval, flori/floare, mice/mouse, rois/roi), or,
    for a word the lemma table does not know, the same stem with at most a 3-letter ending (a custom pack's words)."""
    if a.keys & b.keys:
        return True
    if a.known and b.known:
        return False  # two words the table knows, with different lemmas (marin / marine): not one word's forms
    stem = _stemmer(language)
    short, long = sorted((a.folded, b.folded), key=len)
    return stem(short) == stem(long) and long.startswith(short) and len(long) - len(short) <= 3


def _family(a: _Info, b: _Info, language: str) -> bool:
    """Same family: a shared stem (on the words, their lemmas, and their roots after a known prefix)."""
    stem = _stemmer(language)
    suffixes = families.SUFFIXES.get(language, ())
    if _same_family(a.folded, b.folded, stem, suffixes) or _same_family(a.raw, b.raw, stem, suffixes):
        return True
    skeleton = _SKELETONS.get(language)  # Italian uo/o only: Romanian's oa/o and ea/e refused too many look-alikes
    if skeleton is not None and _same_family(skeleton(a.folded), skeleton(b.folded), stem, suffixes):
        return True  # floare / florar, școală / școlar, scuola / scolaro
    left = a.keys | set(a.roots)
    # the visible word as written and its roots, not its table lemmas: a card's noun may read as a verb form there
    # (letto, a bed, is also "read", leggere); its own forms are _forms' business
    right = {b.folded} | set(b.roots)
    return any(_same_family(x, y, stem, derived=True) for x in left for y in right if (x, y) != (a.folded, b.folded))


def _compound_with(a: _Info, b: _Info, language: str) -> bool:
    """The clue is a prefix and a visible word (CONTRABAS with BAS on the table, the Romanian rules' example);
    longer visible words inside a clue are refused as "contains" already. Not in English, whose rules allow
    SPARROW for ROW ("don't be too strict"), nor with any head word (DISCURS holds URS by chance)."""
    clue, shown = a.folded, b.folded
    if len(shown) < 3 or not clue.endswith(shown) or len(a.raw) != len(clue):
        return False
    head = a.raw[: len(clue) - len(shown)]
    return len(head) > MIN_PART_LETTERS and head in families.PREFIXES.get(language, ())


def _compound_part(a: _Info, b: _Info, language: str) -> bool:
    """The clue is, holds or belongs to the family of a part of a visible compound (MICROUNDE: micro, microscop,
    unduire; HORSESHOE: snowshoe), but a part that only happens to be in the clue is not (microb, tunde, and
    réparation holds para- by chance): a part held must start or end the clue, next to a word of its own."""
    clue, raw = a.folded, a.raw
    stem = _stemmer(language)
    own = a.keys | set(a.roots)  # the clue, its lemmas, its roots under a prefix (unhorsed -> horsed)
    for part in b.parts:
        if part in own:
            return True
        # a lemma and a part share a stem: 5 letters at least (porte is no family of AÉROPORT's port)
        if any(_same_family(x, part, stem, derived=True) and len(stem(x)) > MIN_PART_LETTERS
               and (stem(x) == stem(part) or abs(len(x) - len(part)) >= 3) for x in a.keys):
            return True  # but a part and a letter or two is another word (microb)
        # a root and a part: both guessed at, so they must share a longer stem (beachten -> achten / Achterbahn)
        if any(_same_family(x, part, stem, derived=True) and len(stem(x)) > MIN_PART_LETTERS for x in a.roots):
            return True
        if any(part in _info(x, language).keys for x in a.roots):
            return True  # unhorsed -> horsed, a form of HORSESHOE's part horse
        if len(clue) - len(part) >= MIN_PART_LETTERS:
            spelled = raw if len(raw) == len(clue) else clue  # ligatures make the folded word longer
            if clue.startswith(part) and lemmas.known(spelled[len(part):], language):
                return True
            if clue.endswith(part) and lemmas.known(spelled[: len(spelled) - len(part)], language):
                return True
        if language in _FINAL_VOWEL_LANGUAGES and part[-1] in "aeiou" and len(part) >= MIN_PART_LETTERS \
                and normalize(part) not in _COMBINING_FOLDED:
            root = part[:-1]  # unde (waves) -> und-: unduire
            ending = clue[len(root):]
            if clue.startswith(root) and len(ending) >= 3 and ending[0] in "aeiou" and stem(clue).startswith(root):
                return True
    return False


def _same_family(a: str, b: str, stem: Callable[[str], str], suffixes: tuple[str, ...] = (),
                 derived: bool = False) -> bool:
    """True when two words look like one family: same stem, or the shorter stem starts the other word.

    Snowball stems "chanter" to "chant" but leaves "chanteur" whole, so equality alone misses derived words; a
    stem of 4+ letters that begins the other word (chant- / chanteur) is taken as the same family. A 3-letter
    stem counts only when the other word adds one of the language's derivational ``suffixes`` (rou- / rouage,
    run- / runner, but not rou- / rouge, cas- / castor). Words under 4 letters never count (mer / merle).
    ``derived`` words (a root under a prefix, a lemma, a compound's part) need a 5-letter stem to extend into the
    other word (chanter / chanteur; but gefahr -> fahr is no root of Fahrrad, nor angehen -> gehen of Gehirn).
    """
    sa, sb = stem(a), stem(b)
    if sa == sb and sa:
        return True
    (short_word, short_stem), (long_word, long_stem) = sorted(((a, sa), (b, sb)), key=lambda p: len(p[1]))
    if len(short_word) < MIN_PART_LETTERS or len(short_stem) < 3:
        return False
    if not (long_word.startswith(short_stem) and long_stem.startswith(short_stem)):
        return False
    if derived:
        return len(short_stem) > MIN_PART_LETTERS
    if len(short_stem) >= MIN_PART_LETTERS:
        return True
    return len(long_word) - len(short_stem) >= 3 and long_word.endswith(suffixes)


def _alternations(*pairs: tuple[str, str]) -> Callable[[str], str]:
    def skeleton(word: str) -> str:
        for old, new in pairs:
            word = word.replace(old, new)
        return word

    return skeleton


# Vowel alternations inside a family, on folded words: Romanian oa/o and ea/e (floare, florar; fereastră,
# ferestre), Italian uo/o (scuola, scolaro; fuoco, focolare).
_SKELETONS: dict[str, Callable[[str], str]] = {
    "it": _alternations(("uo", "o"),),
}


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
    stemmer = snowballstemmer.stemmer(algorithm)

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
