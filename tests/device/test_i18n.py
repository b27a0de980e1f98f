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
