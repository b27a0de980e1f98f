"""A game mode and the board have one home each (issue 25): no mode's kind ("duet", "hotseat"...) and no literal
25 or 5 × 5 board is written outside ``device/modes.py`` and ``engine/board.py``. A mode was once split across
``session.mode``, ``game.kind`` and option flags dispatched in eleven places, and the Duet board was a literal 25
at eighteen sites; this walks every module of the app and fails on such a copy."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from device.modes import modes

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("device", "bench")
HOMES = ("device/modes.py",)
KINDS = frozenset(m.kind for m in modes())
#: Names a grid's size goes by; a default of 5 for one of them is a 5 x 5 board.
GRID_NAMES = frozenset({"columns", "rows", "cols", "n", "cards", "size"})


def _files() -> Iterator[tuple[str, ast.AST]]:
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            source = str(path.relative_to(ROOT))
            if source not in HOMES:
                yield source, ast.parse(path.read_text("utf-8"))


#: Words that are a mode's kind but mean something else there, each with its reason.
ALLOWED = {
    ("device/screens/play.py", "mission"): "the label.mission message key (the city's name on the board)",
    ("device/render/shared.py", "mission"): "the views' field `mission` (the city), read with getattr",
    ("device/screens/attract.py", "duet"): "a word the attract screen's animation spells",
    ("device/screens/attract.py", "mission"): "a word the attract screen's animation spells",
    ("device/commands/partner.py", "solo"): "`duetbox partner eval --setup solo`: who plays which seat",
    ("device/remote/inputs.py", "remote"): "the network thread's wake-up event, not a mode",
}


def _field_names(node: ast.AST) -> list[ast.AST]:
    """The constants ``node`` uses as a field's name: a dict's keys, ``x["key"]``, ``x.get("key")``,
    ``getattr(x, "key")``."""
    if isinstance(node, ast.Dict):
        return [k for k in node.keys if k is not None]
    if isinstance(node, ast.Subscript):
        return [node.slice]
    if isinstance(node, ast.Call) and node.args:
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name == "get":
            return [node.args[0]]
        if name == "getattr" and len(node.args) > 1:
            return [node.args[1]]
    return []


def _screen_names(node: ast.AST) -> list[ast.AST]:
    """The constants ``node`` uses as a screen's name: a screen class's ``name = "classic"``, the saved screen
    state's ``{"screen": "classic"}`` and ``ui.get("screen") == "classic"`` (kept on disk as they are)."""
    if isinstance(node, ast.ClassDef):
        return [item.value for item in node.body
                if isinstance(item, ast.Assign) and [getattr(t, "id", None) for t in item.targets] == ["name"]]
    if isinstance(node, ast.Dict):
        return [v for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and k.value == "screen"]
    if isinstance(node, ast.Compare) and len(node.comparators) == 1 and isinstance(node.left, ast.Call) \
            and any(isinstance(a, ast.Constant) and a.value == "screen" for a in node.left.args):
        return [node.comparators[0]]
    return []


def _not_modes(tree: ast.AST) -> set[int]:
    """String constants that are a field's name or a screen's, not a mode (the saved options, records and screen
    states keep their keys and names)."""
    return {id(c) for node in ast.walk(tree) for c in _field_names(node) + _screen_names(node)}


def mode_strings(source: str, tree: ast.AST) -> list[str]:
    fields = _not_modes(tree)
    return [f"{source}:{node.lineno} {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in KINDS and id(node) not in fields
            and (source, node.value) not in ALLOWED]


def board_literals(source: str, tree: ast.AST) -> list[str]:
    """A literal 25 (a card count), ``divmod(card, 5)`` or ``card % 5`` (a row and column), or a grid size
    defaulting to 5 (a parameter or a field named columns, rows...)."""
    found = []
    divisors = {id(n.right) for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.FloorDiv)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value == 25 \
                and id(node) not in divisors:  # min(w, h) // 25: a line's width in a drawing
            found.append(f"{source}:{node.lineno} 25")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "divmod" \
                and len(node.args) == 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == 5:
            found.append(f"{source}:{node.lineno} divmod(_, 5)")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.right, ast.Constant) \
                and node.right.value == 5:
            found.append(f"{source}:{node.lineno} % 5")
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id in GRID_NAMES \
                and isinstance(node.value, ast.Constant) and node.value.value == 5:
            found.append(f"{source}:{node.lineno} {node.target.id} = 5")
        if isinstance(node, ast.arguments):
            args = node.posonlyargs + node.args
            pairs = list(zip(args[len(args) - len(node.defaults):], node.defaults, strict=True))
            pairs += [(a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True) if d is not None]
            found += [f"{source}:{d.lineno} {a.arg}={d.value}" for a, d in pairs
                      if a.arg in GRID_NAMES and isinstance(d, ast.Constant) and d.value in (5, 25)]
    return found


def test_no_mode_kind_is_written_outside_the_mode_registry() -> None:
    assert [hit for source, tree in _files() for hit in mode_strings(source, tree)] == []


def test_no_literal_board_outside_the_board_and_mode_modules() -> None:
    assert [hit for source, tree in _files() for hit in board_literals(source, tree)] == []


def test_each_scan_finds_what_it_guards_against() -> None:
    tree = ast.parse('if kind == "hotseat": pass\nclass S:\n    name = "classic"\nx = {"screen": "classic"}\n'
                     'o.get("solo")\n')
    assert mode_strings("x.py", tree) == ["x.py:1 'hotseat'"]
    board = ast.parse("def f(card, columns=5):\n    return divmod(card, 5), card % 5, 0 <= card < 25\n")
    assert len(board_literals("x.py", board)) == 4
