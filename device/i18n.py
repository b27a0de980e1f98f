"""Message catalogs: every string the box shows comes from ``device/locales/<language>.toml``.

French is the default; English, Romanian, German and Italian are complete too (a test checks that every catalog
has every key the code uses). A catalog maps a dotted key to a text with ``{name}`` fields. A missing key falls
back to French, then to the key itself, so a gap shows as a visible key rather than a crash.

Plurals: a key may be a table of CLDR plural forms instead of a text, e.g.
``guesses_left = { one = "{n} essai restant", other = "{n} essais restants" }`` (Romanian adds ``few``); the
form is chosen by Babel's plural rule of the language (``babel.Locale.plural_form``) from the field ``n``, or
from the field a ``count = "found"`` entry of the table names. ``other`` is required: it is the fallback for a
form the table does not give."""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import TypeGuard

from engine.languages import CODES, DEFAULT, language
from hardware.emulator import LEGEND_TEXTS

log = logging.getLogger("duetbox.i18n")

#: The CLDR plural categories a plural table may use (``count`` names its count field).
PLURAL_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})

LANGUAGES: tuple[str, ...] = CODES  # engine.languages: one catalog per language
DEFAULT_LANGUAGE = DEFAULT
#: A parsed catalog file: sections (tables) of texts and plural tables, as TOML gives them.
Table = Mapping[str, object]


def is_plural_table(value: object) -> TypeGuard[Mapping[str, str]]:
    """A table of plural forms (as opposed to a section of keys): only CLDR categories (and ``count``),
    ``other`` among them."""
    return (
        isinstance(value, dict)
        and "other" in value
        and set(value) <= PLURAL_FORMS | {"count"}
        and all(isinstance(v, str) for v in value.values())
    )


def _flatten(table: Table, prefix: str = "") -> dict[str, str]:
    """Dotted keys → texts; a plural table gives its ``other`` form (so every language has the same keys)."""
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if is_plural_table(value):
            out[name] = str(value["other"])
        elif isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = str(value)
    return out


def _plural_tables(table: Table, prefix: str = "") -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for key, value in table.items():
        if is_plural_table(value):
            out[f"{prefix}{key}"] = dict(value)
        elif isinstance(value, dict):
            out.update(_plural_tables(value, f"{prefix}{key}."))
    return out


@cache
def _raw(code: str) -> Table:
    if code not in LANGUAGES:
        raise ValueError(f"no messages for language {code!r} (known: {', '.join(LANGUAGES)})")
    text = resources.files("device").joinpath("locales", language(code).catalog).read_text("utf-8")
    return tomllib.loads(text)


@cache
def catalog(language: str) -> dict[str, str]:
    """The flattened catalog of ``language`` (ValueError for a language without one)."""
    return _flatten(_raw(language))


@cache
def plurals(language: str) -> dict[str, dict[str, str]]:
    """The plural tables of ``language``: key → {"one": ..., "other": ..., ["count": field]}."""
    return _plural_tables(_raw(language))


@cache
def plural_rule(language: str) -> Callable[[float], str]:
    """Babel's CLDR plural rule of ``language`` (a callable: number → "one", "few", "other"...)."""
    from babel import Locale

    return Locale.parse(language).plural_form


class Translator:
    """``tr("menu.duet")`` or ``tr("over.score", score=12)`` in one language."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._messages = catalog(self.language)
        self._fallback = catalog(DEFAULT_LANGUAGE)

    def __call__(self, key: str, **fields: object) -> str:
        """The message ``key`` with its ``{fields}`` filled in (any value: ``str.format`` writes it)."""
        text = self._plural(key, fields) or self._messages.get(key) or self._fallback.get(key)
        if text is None:
            log.warning("no message %r", key)
            return key
        try:
            return text.format(**fields) if fields else text
        except (KeyError, IndexError, ValueError):
            log.warning("message %r does not fit its fields %s", key, sorted(fields))
            return text

    def _plural(self, key: str, fields: Mapping[str, object]) -> str | None:
        """The form of a plural message that fits its count, or None for a plain message."""
        table = plurals(self.language).get(key)
        language = self.language
        if table is None and key not in self._messages:
            table, language = plurals(DEFAULT_LANGUAGE).get(key), DEFAULT_LANGUAGE
        if table is None:
            return None
        count = fields.get(table.get("count", "n"))
        if not isinstance(count, (int, float)) or isinstance(count, bool):
            return table["other"]
        return table.get(plural_rule(language)(abs(count))) or table["other"]

    def has(self, key: str) -> bool:
        return key in self._messages


def show_emulator_legend(box: object, language: str) -> None:
    """The emulator's side panel in ``language`` (other backends have no panel)."""
    set_legend = getattr(box, "set_legend", None)
    if set_legend is not None:
        set_legend(emulator_legend(language))


def emulator_legend(language: str) -> dict[str, str]:
    """The emulator's side-panel texts (``[emulator]``) in ``language``: the app hands them to the emulator, which
    never reads device's catalogs itself (hardware does not import device)."""
    tr = Translator(language)
    return {k: tr(f"emulator.{k}") for k in LEGEND_TEXTS if tr.has(f"emulator.{k}")}
