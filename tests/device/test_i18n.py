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
        if "render" in path.parts:
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
    assert tr("over.summary_clues", n=1) == {"de": "Hinweise: 1", "it": "Indizi: 1"}[language]
