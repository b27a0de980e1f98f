"""One definition of each vocabulary (issue 25): a language, a button and a seat are written in one module each and
every other list is derived from it. The Settings once kept its own ``("fr", "en", "ro")`` and German and Italian
could not be chosen on the box; this walks every module's literals and fails on such a copy."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from engine.languages import CODES
from hardware.base import BUTTONS, DIRECTIONS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "hardware", "device", "partner", "bench", "common", "tools")
HOMES = {"languages": "engine/languages.py", "buttons": "hardware/base.py", "seats": "engine/seats.py"}


def _files() -> Iterator[tuple[str, ast.AST]]:
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text("utf-8"))


def _strings(node: ast.AST) -> list[str] | None:
    """The elements of a tuple, list or set literal when every one is a string constant."""
    if not isinstance(node, (ast.Tuple, ast.List, ast.Set)) or not node.elts:
        return None
    out = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return out if len(out) == len(node.elts) else None


def language_copies(source: str, tree: ast.AST) -> list[str]:
    """A collection of two or more language codes, or a code -> name table (a voice, a stemmer per language);
    a table of figures or of texts per language is data, not a copy of the list."""
    found = []
    for node in ast.walk(tree):
        items = _strings(node)
        if items is not None and len(items) >= 2 and set(items) <= set(CODES):
            found.append(f"{source}:{node.lineno} {items}")
        if isinstance(node, ast.Dict) and len(node.keys) >= 2:
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            plain = all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.values)
            if plain and len(keys) == len(node.keys) and set(keys) <= set(CODES):
                found.append(f"{source}:{node.lineno} {{{', '.join(map(str, keys))}: ...}}")
    return found


def button_copies(source: str, tree: ast.AST) -> list[str]:
    """A collection of four or more button names (the directions, the seat's buttons, all of them): a subset of
    three or fewer is a screen's own choice ("ok", "stop", "menu" close a page), a longer one a copy of the list."""
    found = []
    for node in ast.walk(tree):
        items = _strings(node)
        if items is not None and len(items) >= len(DIRECTIONS) and set(items) <= set(BUTTONS):
            found.append(f"{source}:{node.lineno} {items}")
    return found


def seat_copies(source: str, tree: ast.AST) -> list[str]:
    """``Literal["A", "B"]`` or a ``("A", "B")`` collection: the seats are ``engine.seats.Seat`` and ``SEATS``."""
    found = []
    literal = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
            items = _strings(node.slice)
            if items is not None and set(items) == {"A", "B"}:
                found.append(f"{source}:{node.lineno} Literal{items}")
                literal.add(id(node.slice))
        items = _strings(node) if id(node) not in literal else None
        if items is not None and sorted(items) == ["A", "B"]:
            found.append(f"{source}:{node.lineno} {items}")
    return found


def _copies(check: object, home: str) -> list[str]:
    return [hit for source, tree in _files() if source != home for hit in check(source, tree)]  # type: ignore[operator]


def test_the_language_list_is_written_once() -> None:
    assert _copies(language_copies, HOMES["languages"]) == []


def test_the_button_list_is_written_once() -> None:
    assert _copies(button_copies, HOMES["buttons"]) == []


def test_the_seats_are_defined_once() -> None:
    assert _copies(seat_copies, HOMES["seats"]) == []


def test_each_check_finds_the_copy_it_guards_against() -> None:
    # the stale copy issue 25 found, and the others that were there then
    stale = ast.parse('LANGS = ("fr", "en", "ro")\nVOICES = {"fr": "fr", "en": "en"}\n')
    assert len(language_copies("x.py", stale)) == 2
    assert button_copies("x.py", ast.parse('if b in ("up", "down", "left", "right"): pass')) != []
    assert button_copies("x.py", ast.parse('if b in ("ok", "stop", "menu"): pass')) == []
    assert len(seat_copies("x.py", ast.parse('Seat = Literal["A", "B"]\nfor s in ("A", "B"): pass'))) == 2
