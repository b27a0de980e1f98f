"""The languages of the box: one entry each, and every list of languages is derived from here.

The settings' language row, the interface catalogs (``device/locales/<code>.toml``), the bundled word packs, the
clue checker's stemmers and lemma tables, the picture names a clue may not give, the spoken voices and the solo
partner's texts all read this registry; ``tests/structure/test_vocabularies.py`` fails when a module keeps its own
list. Adding a language is one entry here plus its data files (catalog, pack, picture names, partner texts).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One language and what each part of the box needs of it."""

    code: str  # ISO 639-1: records, settings, file names ("fr")
    native: str  # its name in itself, as the settings show it (the catalogs' ``lang.<code>`` agree: a test)
    stemmer: str  # the Snowball algorithm of the clue checker and the partner ("french")
    lemmas: str  # simplemma's language code for the clue checker's irregular forms
    voice: str  # espeak-ng's voice for spoken announcements
    letters: tuple[str, ...] = ()  # typography: the picker's letters after A-Z (capitals)
    legacy: tuple[tuple[str, str], ...] = ()  # typography: look-alike letters folded to the right ones first
    final_vowel: bool = False  # nouns end in an inflectional vowel derivatives drop (ro unde -> unduire)
    doubled_a: bool = False  # a- before a doubled consonant makes verbs (fr accrocher -> crocher, it appendere)
    short_heads: bool = False  # a compound's head may be a short word (en/de schatz + truhe; Romance: porte-)
    undoubles: bool = False  # a doubled final consonant comes off a base (en runner -> run, fr)
    romance: bool = False  # bases come out from under a prefix (it imbarcare -> barc, ro înnorat -> nor)

    @property
    def catalog(self) -> str:
        """The interface catalog's file in ``device/locales``."""
        return f"{self.code}.toml"

    @property
    def pack(self) -> str:
        """The bundled word pack of the language (``engine/data/words/<pack>.txt``)."""
        return self.code


REGISTRY: tuple[Language, ...] = (
    Language("fr", "Français", "french", "fr", "fr", tuple("ÉÈÊÀÇŒ"), doubled_a=True, undoubles=True, romance=True),
    Language("en", "English", "english", "en", "en", short_heads=True, undoubles=True),
    Language("ro", "Română", "romanian", "ro", "ro", tuple("ĂÂÎȘȚ"),
             legacy=(("ş", "ș"), ("ţ", "ț"), ("Ş", "Ș"), ("Ţ", "Ț")), final_vowel=True, romance=True),
    Language("de", "Deutsch", "german", "de", "de", tuple("ÄÖÜß"), short_heads=True),
    Language("it", "Italiano", "italian", "it", "it", tuple("ÀÈÉÌÒÙ"), doubled_a=True, romance=True),
)

#: Every language code, in the order the settings offer them.
CODES: tuple[str, ...] = tuple(lang.code for lang in REGISTRY)
DEFAULT = "fr"
_BY_CODE = {lang.code: lang for lang in REGISTRY}


def language(code: str) -> Language:
    """The language of ``code``; ValueError for one the box does not know."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"unknown language {code!r} (known: {', '.join(CODES)})") from None


def known(code: object) -> bool:
    return isinstance(code, str) and code in _BY_CODE
