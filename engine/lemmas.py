"""Lemmas for the clue checker: simplemma's form -> lemma tables, one per language, loaded once and in the background.

simplemma (pure Python, no dependencies of its own) ships a lookup table per language built from open lexicons: it
maps inflected forms to their dictionary form (chevaux -> cheval, knives -> knife, flori -> floare, oameni -> om,
Bäume -> Baum, uova -> uovo). The clue checker uses it for the forms the Snowball stemmers cannot see (irregular
plurals, Romanian vowel changes, short words). It is data more than code, so it is wrapped here:

- ``preload(language)`` starts a daemon thread that loads the table (1.5 to 8 s and 30 to 110 MB per language on a
  desktop; German is the largest), so the box calls it at start for the interface language and the pack's language;
  ``ready`` says whether a table is in memory, ``load_seconds`` how long it took.
- ``lemmas(word, language)`` looks a word up. It waits for a table still loading (or loads it in the caller's thread
  when nobody preloaded it): the answer must not depend on timing, because a record replays every clue through the
  same checker. A box that preloads at start has its tables long before a clue has been spelled on the picker.
- Without simplemma installed the checker still works on the stemmers and the hand-written table ``EXTRA`` below.

``EXTRA`` adds lemmas the tables miss or give another reading of (Romanian "copii" is both "copies" and
"children"): they are added to the table's answer, never replacing it.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from array import array
from collections.abc import Iterable, Mapping

from engine.languages import REGISTRY

#: Game language -> simplemma language code (engine.languages).
LEMMA_CODES: dict[str, str] = {lang.code: lang.lemmas for lang in REGISTRY}
LEMMA_LANGUAGES = tuple(LEMMA_CODES)
_LEGACY = {lang.code: str.maketrans(dict(lang.legacy)) for lang in REGISTRY if lang.legacy}

#: Forms the tables miss or read another way, written by us: form (lower case, with its accents) -> lemmas.
EXTRA: dict[str, dict[str, tuple[str, ...]]] = {
    "fr": {
        "yeux": ("œil",), "cieux": ("ciel",), "aïeux": ("aïeul",), "bœufs": ("bœuf",), "œufs": ("œuf",),
        "travaux": ("travail",), "vitraux": ("vitrail",), "coraux": ("corail",), "émaux": ("émail",),
        "messieurs": ("monsieur",), "mesdames": ("madame",), "bonshommes": ("bonhomme",),
        "louve": ("loup",), "louves": ("loup",), "folle": ("fou",), "blanche": ("blanc",), "duchesse": ("duc",),
        "fraîche": ("frais",), "sèche": ("sec",), "longue": ("long",), "grosse": ("gros",), "vieille": ("vieux",),
        "belle": ("beau",), "nouvelle": ("nouveau",), "douce": ("doux",), "jumelle": ("jumeau",),
        "marine": ("marin",), "marines": ("marin",),
    },
    "en": {
        "teeth": ("tooth",), "geese": ("goose",), "mice": ("mouse",), "lice": ("louse",), "feet": ("foot",),
        "men": ("man",), "women": ("woman",), "children": ("child",), "oxen": ("ox",), "people": ("person",),
        "dice": ("die",), "knives": ("knife",), "wives": ("wife",), "wolves": ("wolf",), "leaves": ("leaf",),
        "loaves": ("loaf",), "halves": ("half",), "shelves": ("shelf",), "thieves": ("thief",),
        "cacti": ("cactus",), "fungi": ("fungus",), "octopi": ("octopus",), "criteria": ("criterion",),
        "lives": ("life", "live"), "calves": ("calf",), "scarves": ("scarf",), "hooves": ("hoof",),
    },
    "ro": {
        "copii": ("copil",), "copiii": ("copil",), "oameni": ("om",), "oamenii": ("om",), "fete": ("fată",),
        "fetele": ("fată",), "mese": ("masă",), "mesele": ("masă",), "seri": ("seară",), "sere": ("seră",),
        "flori": ("floare",), "școli": ("școală",), "ferestre": ("fereastră",), "ape": ("apă",),
        "nopți": ("noapte",), "ouă": ("ou",), "ouăle": ("ou",), "frați": ("frate",), "surori": ("soră",),
        "lucruri": ("lucru",), "capete": ("cap",), "oase": ("os",), "brațe": ("braț",), "degete": ("deget",),
        "zile": ("zi",), "stele": ("stea",), "mări": ("mare",), "văi": ("vale",), "târguri": ("târg",),
        "ziua": ("zi",), "zilele": ("zi",), "fiare": ("fier", "fiară"), "regină": ("rege",),
        "regine": ("rege",), "leoaică": ("leu",), "purcel": ("porc",), "ploi": ("ploaie",), "ploile": ("ploaie",),
    },
    "de": {
        "bäume": ("baum",), "häuser": ("haus",), "mäuse": ("maus",), "männer": ("mann",), "frauen": ("frau",),
        "kinder": ("kind",), "bücher": ("buch",), "hände": ("hand",), "füße": ("fuß",), "zähne": ("zahn",),
        "äpfel": ("apfel",), "mütter": ("mutter",), "väter": ("vater",), "vögel": ("vogel",), "gänse": ("gans",),
    },
    "it": {
        "uova": ("uovo",), "uomini": ("uomo",), "mani": ("mano",), "dita": ("dito",), "ossa": ("osso",),
        "braccia": ("braccio",), "labbra": ("labbro",), "ginocchia": ("ginocchio",), "buoi": ("bue",),
        "dei": ("dio",), "templi": ("tempio",), "lenzuola": ("lenzuolo",), "orecchie": ("orecchio",),
        "cagna": ("cane",), "cagne": ("cane",), "gatta": ("gatto",), "gatte": ("gatto",), "lupa": ("lupo",),
        "lupe": ("lupo",), "orsa": ("orso",), "ragazza": ("ragazzo",), "amica": ("amico",),
    },
}

_lock = threading.Lock()
_tables: dict[str, Mapping[str, str]] = {}
_loading: dict[str, threading.Event] = {}
_seconds: dict[str, float] = {}
_missing: set[str] = set()  # languages whose table could not be loaded (simplemma absent or broken)


class Words:
    """A set of words kept sorted in one bytes string (UTF-8, with where each starts): a frozenset of French's
    37,000 lemmas is 4.5 MB of string objects and hash table, this about half a megabyte; a look-up is a binary
    search (a few microseconds, and the checker remembers each word's answer)."""

    __slots__ = ("_blob", "_starts")

    def __init__(self, words: Iterable[str] = (), *, utf8: Iterable[bytes] = ()) -> None:
        given = utf8 if isinstance(utf8, (set, frozenset)) else set(utf8)
        ordered = sorted(given.union(w.encode() for w in words) if words else given)  # no copy of a given set
        self._blob = b"".join(ordered)
        starts = array("I", [0])
        for word in ordered:
            starts.append(starts[-1] + len(word))
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts) - 1

    def _word(self, i: int) -> bytes:
        return self._blob[self._starts[i]:self._starts[i + 1]]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        key = word.encode()
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._word(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo < len(self) and self._word(lo) == key


_heads: dict[str, Words] = {}  # per language, the table's lemmas (casefolded): words it knows as such
_NONE = Words()
_nouns: dict[str, frozenset[str]] = {}  # German: the table's capitalised lemmas (casefolded), its nouns


def _lemma_set(table: Mapping[str, str], capitals: set[str] | None = None) -> Words:
    """The table's lemmas, read in one pass over simplemma's front-coded stream (a fraction of a second; going
    through the mapping would decode a block per value, ten seconds and more). Empty when the stream's layout is
    not the one known here (the checker then knows the table's inflected forms only)."""
    try:
        from simplemma.strategies.dictionaries import frontcode  # type: ignore[import-not-found,unused-ignore]

        data, pos, rev = table._data, table._pos, table._rev  # type: ignore[attr-defined]
        found: set[bytes] = set()  # encoded: a third smaller than a set of strings while it is built
        for _, _, value in frontcode._iter_records(data, pos):
            lemma = (value[::-1] if rev else value).decode()
            found.add(lemma.casefold().encode())
            if capitals is not None and lemma[:1].isupper():
                capitals.add(lemma.casefold())
        return Words(utf8=found)
    except Exception:  # noqa: BLE001 - another simplemma: no lemma set
        return Words()


def _load(language: str) -> None:
    start = time.perf_counter()
    table: Mapping[str, str]
    try:
        from simplemma.strategies.dictionaries.stream_dictionary_factory import (  # type: ignore[import-not-found,unused-ignore]
            StreamDictionaryFactory,
        )

        table = StreamDictionaryFactory(cache_max_size=1).get_dictionary(LEMMA_CODES[language])
    except Exception:  # noqa: BLE001 - no lemmatizer: the stemmers and EXTRA still work
        table = {}
        with _lock:
            _missing.add(language)
    capitals: set[str] = set()
    heads = _lemma_set(table, capitals) if table else Words()
    with _lock:
        _tables[language] = table
        _heads[language] = heads
        _nouns[language] = frozenset(capitals)
        _seconds[language] = time.perf_counter() - start
        event = _loading.pop(language, None)
    if event is not None:
        event.set()


def preload(language: str) -> None:
    """Start loading ``language``'s table in a daemon thread (nothing if loaded, loading or unknown)."""
    if language not in LEMMA_LANGUAGES:
        return
    with _lock:
        if language in _tables or language in _loading:
            return
        _loading[language] = threading.Event()
    threading.Thread(target=_load, args=(language,), name=f"lemmas-{language}", daemon=True).start()


def ready(language: str) -> bool:
    """True when ``language``'s table is in memory (or could not be had: then lookups use ``EXTRA`` only)."""
    with _lock:
        return language in _tables


def available(language: str) -> bool:
    """True when a real table was loaded for ``language`` (False: simplemma missing; only ``EXTRA`` is used)."""
    return _table(language) is not None and language not in _missing


def load_seconds(language: str) -> float | None:
    """How long loading ``language``'s table took, None if it was not loaded."""
    with _lock:
        return _seconds.get(language)


def unload(language: str) -> None:
    """Forget a loaded table (frees its memory; the bench measures a fresh load with it)."""
    with _lock:
        _tables.pop(language, None)
        _heads.pop(language, None)
        _nouns.pop(language, None)
        _seconds.pop(language, None)
        _missing.discard(language)


def _table(language: str) -> Mapping[str, str] | None:
    if language not in LEMMA_LANGUAGES:
        return None
    with _lock:
        table = _tables.get(language)
        event = _loading.get(language)
    if table is not None:
        return table
    if event is None:
        _load(language)
    else:
        event.wait()
    with _lock:
        return _tables.get(language)


def spellings(word: str, language: str) -> tuple[str, ...]:
    """The ways a table may spell ``word`` typed on the box: as typed, lower case, and with the ligatures the
    picker cannot make (COEUR -> cœur, SOEUR -> sœur; NAEVUS -> nævus; STRASSE -> straße), German capitalised."""
    base = unicodedata.normalize("NFC", word.strip())
    lower = base.lower()
    found = [base, lower]
    if language == "fr":
        found += [lower.replace("oe", "œ"), lower.replace("ae", "æ")]
    if language == "de":
        # Case tells nouns from verbs (Schwamm, a sponge; schwamm, swam): a word written in lower case or as a noun
        # is read that way only; one typed in capitals (the picker's) is read both ways.
        if base[:1].isupper() and not base.isupper():
            found = [base]
        elif not base.islower():
            found = [lower, lower.capitalize()]
        else:
            found = [lower]
        found += [w.replace("ss", "ß") for w in found]
    legacy = _LEGACY.get(language)
    if legacy is not None:  # look-alike letters (Romanian's legacy cedilla ones)
        found += [lower.translate(legacy)]
    return tuple(dict.fromkeys(found))


def lemmas(word: str, language: str) -> frozenset[str]:
    """The lemmas of ``word`` (lower case, accents kept) from the table and ``EXTRA``; empty when unknown.

    Waits for a table still loading; unknown languages give ``EXTRA`` answers only (none)."""
    table = _table(language)
    extra = EXTRA.get(language, {})
    found: set[str] = set()
    for spelling in spellings(word, language):
        if table is not None:
            lemma = table.get(spelling)
            if lemma is not None:
                found.add(lemma.lower())
        found.update(extra.get(spelling.lower(), ()))
    return frozenset(found)


def known(word: str, language: str) -> bool:
    """True when ``word`` is a word the table knows: an inflected form, one of its lemmas, or one of ``EXTRA``."""
    if lemmas(word, language):
        return True
    with _lock:
        heads = _heads.get(language, _NONE)
    folded = unicodedata.normalize("NFC", word.strip()).casefold()
    return folded in heads or any(folded in values for values in EXTRA.get(language, {}).values())


def noun(word: str, language: str) -> bool:
    """German: True when the table has ``word`` as a noun (a capitalised lemma, or a form of one)."""
    table = _table(language)
    if table is None:
        return False
    with _lock:
        nouns = _nouns.get(language, frozenset())
    cap = unicodedata.normalize("NFC", word.strip()).capitalize()
    lemma = table.get(cap)
    return (lemma is not None and lemma[:1].isupper()) or cap.casefold() in nouns


def is_lemma(word: str, language: str) -> bool:
    """True when ``word`` is one of the table's lemmas (a dictionary form), not only an inflected form."""
    _table(language)
    with _lock:
        heads = _heads.get(language, _NONE)
    return unicodedata.normalize("NFC", word.strip()).casefold() in heads
