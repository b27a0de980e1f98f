"""Message catalogs: every string the box shows comes from ``device/locales/<language>.toml``.

French is the default; English and Romanian are complete too (a test checks that every catalog has every key
the code uses). A catalog maps a dotted key to a text with ``{name}`` fields. A missing key falls back to
French, then to the key itself, so a gap shows as a visible key rather than a crash."""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from importlib import resources
from typing import Any

log = logging.getLogger("duetbox.i18n")

LANGUAGES: tuple[str, ...] = ("fr", "en", "ro", "de", "it")
DEFAULT_LANGUAGE = "fr"


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = str(value)
    return out


@cache
def catalog(language: str) -> dict[str, str]:
    """The flattened catalog of ``language`` (ValueError for a language without one)."""
    if language not in LANGUAGES:
        raise ValueError(f"no messages for language {language!r} (known: {', '.join(LANGUAGES)})")
    text = resources.files("device").joinpath("locales", f"{language}.toml").read_text("utf-8")
    return _flatten(tomllib.loads(text))


class Translator:
    """``tr("menu.duet")`` or ``tr("over.score", score=12)`` in one language."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._messages = catalog(self.language)
        self._fallback = catalog(DEFAULT_LANGUAGE)

    def __call__(self, key: str, **fields: Any) -> str:
        text = self._messages.get(key) or self._fallback.get(key)
        if text is None:
            log.warning("no message %r", key)
            return key
        try:
            return text.format(**fields) if fields else text
        except (KeyError, IndexError, ValueError):
            log.warning("message %r does not fit its fields %s", key, sorted(fields))
            return text

    def has(self, key: str) -> bool:
        return key in self._messages
