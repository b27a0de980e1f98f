"""Message catalogs: every key the app uses exists in French, English and Romanian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from device.i18n import LANGUAGES, Translator, catalog

DEVICE = Path(__file__).resolve().parents[2] / "device"
_LITERAL = re.compile(r"""tr\(\s*"([a-z_]+\.[A-Za-z_.]+)\"""")
_PREFIX = re.compile(r"""tr\(\s*f"([a-z_]+\.[a-z_.]*)\{""")
_ITEM = re.compile(r"""Item\(\s*"([a-z_]+\.[A-Za-z_.]+)\"""")


def _used() -> tuple[set[str], set[str]]:
    keys, prefixes = set(), set()
    for path in DEVICE.rglob("*.py"):
        if "render" in path.relative_to(DEVICE).parts:  # device/render/ (not a checkout under some "render" folder)
            continue
        text = path.read_text("utf-8")
        keys |= set(_LITERAL.findall(text)) | set(_ITEM.findall(text))
        prefixes |= set(_PREFIX.findall(text))
    return keys, prefixes


@pytest.mark.parametrize("language", LANGUAGES)
def test_i18n_catalog_has_every_key_used(language: str) -> None:
    messages = catalog(language)
    keys, prefixes = _used()
    assert keys, "the scan found no keys: the pattern is wrong"
    missing = sorted(k for k in keys if k not in messages)
    assert missing == []
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in messages), prefix


def test_i18n_catalogs_have_the_same_keys() -> None:
    fr = set(catalog("fr"))
    for language in LANGUAGES:
        assert set(catalog(language)) == fr, language


def test_i18n_fields_match_across_languages() -> None:
    fields = re.compile(r"\{(\w+)\}")
    fr = catalog("fr")
    for language in LANGUAGES:
        for key, text in catalog(language).items():
            assert set(fields.findall(text)) == set(fields.findall(fr[key])), (language, key)


def test_i18n_translator_formats_and_falls_back() -> None:
    tr = Translator("en")
    assert tr("over.score", score=12) == "Score: 12"
    assert Translator("fr")("over.score", score=12) == "Score : 12"
    assert tr("no.such.key") == "no.such.key"
    assert Translator("xx").language == "fr"


FIVE = ("fr", "en", "ro", "de", "it")


def _catalog_file(language: str) -> dict[str, str]:
    """The catalog read straight from its file (not through LANGUAGES, so a dropped language is noticed)."""
    import tomllib

    from device.i18n import _flatten

    return _flatten(tomllib.loads((DEVICE / "locales" / f"{language}.toml").read_text("utf-8")))


def test_i18n_five_catalogs_have_the_same_keys_and_fields() -> None:
    assert set(FIVE) <= set(LANGUAGES)
    fields = re.compile(r"\{(\w*)\}")
    reference = _catalog_file("en")
    for language in FIVE:
        messages = _catalog_file(language)
        assert sorted(set(reference) - set(messages)) == [], (language, "missing")
        assert sorted(set(messages) - set(reference)) == [], (language, "extra")
        wrong = [key for key, text in messages.items()
                 if sorted(fields.findall(text)) != sorted(fields.findall(reference[key]))]
        assert wrong == [], language
        assert all(text.strip() for text in messages.values()), language


def test_i18n_every_catalog_names_every_language_in_that_language() -> None:
    for language in FIVE:
        names = {code: _catalog_file(language)[f"lang.{code}"] for code in FIVE}
        assert names == {"fr": "Français", "en": "English", "ro": "Română", "de": "Deutsch", "it": "Italiano"}


@pytest.mark.parametrize("language", ["de", "it"])
def test_i18n_german_and_italian_are_translated(language: str) -> None:
    messages, english = _catalog_file(language), _catalog_file("en")
    # Names, symbols and format-only texts may stay as they are; real sentences must not.
    same = [key for key, text in messages.items()
            if text == english[key] and sum(word.isalpha() for word in text.split()) > 1]
    assert same == []
    tr = Translator(language)
    assert tr("over.score", score=7) == {"de": "Punkte: 7", "it": "Punteggio: 7"}[language]
    assert tr("over.summary_clues", n=1) == {"de": "1 Hinweis", "it": "1 indizio"}[language]


# --- plurals (Babel's CLDR rules) ------------------------------------------------------------------------

def test_i18n_plural_tables_are_the_same_keys_and_valid_forms_in_each_language() -> None:
    from babel import Locale

    from device.i18n import PLURAL_FORMS, plurals

    assert plurals("fr"), "no plural message at all: the catalogs lost them"
    for language in LANGUAGES:
        rule = Locale.parse(language).plural_form
        for key, table in plurals(language).items():
            assert "other" in table, (language, key)
            forms = set(table) - {"count"}
            assert forms <= PLURAL_FORMS, (language, key)
            # only forms the language has (CLDR), and every form small counts need
            assert forms <= set(rule.tags) | {"other"}, (language, key, forms - set(rule.tags))
            needed = {rule(n) for n in range(0, 201)} - {"other"}
            assert needed <= forms, (language, key, needed - forms)
            field = table.get("count", "n")
            only_one = all(rule(n) != "one" for n in range(0, 201) if n != 1)  # "one" is 1 and nothing else
            for form in forms:
                if form == "one" and only_one:
                    continue  # may spell it: Romanian "un agent", not "1 agent"
                assert "{" + field + "}" in table[form], (language, key, form)


@pytest.mark.parametrize(
    ("language", "n", "text"),
    [
        ("fr", 1, "1 essai restant"),
        ("fr", 0, "0 essai restant"),  # French: 0 takes the singular
        ("fr", 2, "2 essais restants"),
        ("en", 1, "1 guess left"),
        ("en", 0, "0 guesses left"),
        ("ro", 1, "1 încercare rămasă"),
        ("ro", 2, "2 încercări rămase"),
        ("ro", 19, "19 încercări rămase"),
        ("ro", 20, "20 de încercări rămase"),  # Romanian: "de" from 20 on
        ("de", 1, "Noch 1 Tipp"),
        ("de", 3, "Noch 3 Tipps"),
        ("it", 1, "Ancora 1 tentativo"),
        ("it", 4, "Ancora 4 tentativi"),
    ],
)
def test_i18n_plural_form_follows_the_count(language: str, n: int, text: str) -> None:
    assert Translator(language)("classic.guesses_left", n=n) == text


def test_i18n_plural_count_field_and_no_count() -> None:
    assert Translator("fr")("over.summary_agents", found=1, total=15) == "1 agent sur 15"
    assert Translator("fr")("over.summary_agents", found=15, total=15) == "15 agents sur 15"
    assert Translator("ro")("over.summary_agents", found=21, total=25) == "21 de agenți din 25"
    # no count given: the "other" form, unformatted fields left as they are
    assert Translator("en")("over.summary_clues") == "{n} clues"


def test_i18n_no_number_next_to_a_fixed_plural_word() -> None:
    """A count field followed by a word in the plural ("{n} jetons") must be a plural table."""
    plural_after = re.compile(r"\{(n|left|taken|wins|losses|games|turns|mistakes|found)\} [a-zăâîșțéèê]+[sie]\b")
    for language in ("fr", "en", "ro"):
        messages = catalog(language)
        from device.i18n import plurals

        tables = plurals(language)
        bad = [k for k, t in messages.items() if k not in tables and plural_after.search(t)]
        assert bad == [], (language, bad)


def test_i18n_french_says_tu_throughout() -> None:
    vous = re.compile(r"\b(vous|votre|vos)\b|\b\w{3,}ez\b", re.IGNORECASE)
    offenders = [(k, t) for k, t in catalog("fr").items() if vous.search(t)]
    assert offenders == []
    # and the Solo partner's own texts ("what I meant"), which live in partner/messages.py
    from partner.messages import MESSAGES

    assert [(k, t) for k, t in MESSAGES["fr"].items() if vous.search(t)] == []


def test_i18n_romanian_and_italian_say_tu_to_one_player() -> None:
    # the second person plural (dumneavoastră / voi in Romanian, voi in Italian) crept into a few strings
    ro = re.compile(r"\b\w+(ați|eți|iți)\b")
    allowed_ro = {"toți", "săgeți", "agenți", "găsiți"}
    bad_ro = [(k, t) for k, t in catalog("ro").items()
              if any(m.group(0).lower() not in allowed_ro for m in ro.finditer(t))]
    assert bad_ro == []
    it = re.compile(r"\b(premete|tenete|guardate|provate|giocate a|scegliete|aspettate|rilasciate|toccate)\b")
    assert [(k, t) for k, t in catalog("it").items() if it.search(t)] == []


def test_i18n_every_character_is_in_the_bundled_fonts() -> None:
    """No text shows as an empty box: each character of every catalog has a glyph in DejaVu Sans (the OLEDs'
    face) and DejaVu Sans Condensed Bold (the cards')."""
    from PIL import ImageFont

    from device.render.text import CONDENSED_BOLD, REGULAR

    for path in (REGULAR, CONDENSED_BOLD):
        font = ImageFont.truetype(str(path), 20)
        missing_box = font.getmask("\U000f0000").getbbox()  # a private-use code point: the .notdef box

        notdef = bytes(font.getmask("\U000f0000"))

        def has(ch: str, font: ImageFont.FreeTypeFont = font, box: object = missing_box,
                notdef: bytes = notdef) -> bool:
            mask = font.getmask(ch)
            return mask.getbbox() != box or bytes(mask) != notdef

        assert not has("\u23f3"), "the check is blind: U+23F3 is known to be missing from DejaVu"
        for language in LANGUAGES:
            chars = {ch for text in catalog(language).values() for ch in text if not ch.isspace()}
            for table in __import__("device.i18n", fromlist=["plurals"]).plurals(language).values():
                chars |= {ch for text in table.values() for ch in text if not ch.isspace()}
            missing = sorted(ch for ch in chars if not has(ch))
            assert missing == [], (language, path.name, [hex(ord(c)) for c in missing])
