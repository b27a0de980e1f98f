"""The import rules of docs/architecture.md, checked by walking every module's imports (issue 12)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("engine", "hardware", "device", "partner", "bench", "common")


def _modules(package: str) -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported project module, line, at module level) for every import statement of the module."""
    tree = ast.parse(path.read_text("utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int, bool]] = []
    top = {id(n) for n in tree.body}
    top |= {id(n) for node in tree.body if isinstance(node, ast.If) for n in node.body}  # TYPE_CHECKING blocks
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for target in targets:
            if target.split(".")[0] in PROJECT:
                found.append((target, node.lineno, id(node) in top))
    return found


ALL = {n: p for pkg in PROJECT for n, p in _modules(pkg).items()}


def _known(target: str) -> str | None:
    while target and target not in ALL:
        target = target.rpartition(".")[0]
    return target or None


def test_engine_imports_neither_device_nor_hardware() -> None:
    bad = [(n, t) for n, p in _modules("engine").items() for t, _, _ in _imports(n, p)
           if t.split(".")[0] in ("device", "hardware", "partner")]
    assert bad == []


def test_hardware_never_imports_device() -> None:
    bad = [(n, t) for n, p in _modules("hardware").items() for t, _, _ in _imports(n, p)
           if t.split(".")[0] in ("device", "partner")]
    assert bad == []


def test_screens_never_import_the_app_or_its_loop() -> None:
    bad = [(n, t) for n, p in _modules("device").items() if n.startswith("device.screens")
           for t, _, _ in _imports(n, p) if _known(t) in ("device.app", "device.inputs", "device.navigation")]
    assert bad == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def test_screens_see_neither_the_storage_nor_the_game_controller() -> None:
    # issue 25: screens get narrow seams (device.seams: the game API, the saved data they may use), not the
    # database or the controller; the renderers, models only
    screens = [(n, p) for n, p in _modules("device").items()
               if n.startswith(("device.screens", "device.render")) or n == "device.remote.screens"]
    bad = [(n, t) for n, p in screens for t, _, _ in _imports(n, p)
           if _known(t) in ("device.storage", "device.game", "device.app", "device.preferences")]
    assert bad == []


def test_device_has_no_import_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for name, path in _modules("device").items():
        graph[name] = {k for t, _, _ in _imports(name, path)
                       if (k := _known(t)) is not None and k.startswith("device") and k != name}
        # importing device.screens.x also runs the package device.screens: no edge for that (it is empty)
    assert _cycles(graph) == []


def test_no_import_cycle_anywhere_even_through_function_local_imports() -> None:
    # issue 25: hardware/box.py (then the open_box factory) and its backends imported each other lazily
    # (a module's own parent packages are left out: Python runs them first anyway, `from partner import giver`)
    graph = {name: {k for t, _, _ in _imports(name, path)
                    if (k := _known(t)) is not None and k != name and not name.startswith(k + ".")}
             for name, path in ALL.items()}
    assert _cycles(graph) == []


def test_the_benchmarks_and_the_neutral_package_sit_outside_the_app() -> None:
    # issue 25: the app never imports its benchmarks; common/ (read by engine and hardware) imports nothing of ours
    bad = [(n, t) for n, p in ALL.items() for t, _, _ in _imports(n, p)
           if (n.split(".")[0] != "bench" and t.split(".")[0] == "bench")
           or (n.split(".")[0] == "common" and t.split(".")[0] != "common")]
    assert bad == []
    assert not [n for n in _modules("device") if "bench" in n]


def test_hardware_reads_files_through_the_neutral_package_not_the_engine() -> None:
    # of the engine, hardware takes the seats alone (one definition of a seat: engine/seats.py)
    bad = [(n, t) for n, p in _modules("hardware").items() for t, _, _ in _imports(n, p)
           if t.split(".")[0] in ("engine", "device", "partner") and _known(t) != "engine.seats"]
    assert bad == []


#: Function-local imports of the project's own modules still allowed, each with its reason. Everything else
#: imports at the top of the module.
LAZY_ALLOWED = {
    # optional heavy dependencies: the solo partner needs numpy (the `ai` extra); the box runs without it
    "device/solo.py", "device/screens/solo.py", "device/commands/partner.py",
    # one module per subcommand, imported when that subcommand runs (`duetbox --help` stays fast)
    "device/cli.py", "device/docs.py", "device/commands/run.py", "bench/command.py",
    "device/commands/export.py", "device/commands/hw_test.py", "device/commands/words.py",
    # the backends: `import hardware` must work without pygame or the Pi libraries
    "hardware/factory.py",
}


def test_no_function_local_import_of_the_project_outside_the_allowed_list() -> None:
    bad = sorted({str(p.relative_to(ROOT)) for n, p in ALL.items() for _, _, top in _imports(n, p) if not top}
                 - LAZY_ALLOWED)
    assert bad == []


def test_the_game_core_has_no_function_local_import() -> None:
    # the parts issue 12 restructured: loop, services, screens, sessions, records
    core = [p for n, p in ALL.items() if n.startswith(("device.screens", "engine.record", "engine.session"))
            or n in ("device.app", "device.game", "device.inputs", "device.navigation", "device.services.audio",
                     "device.preferences", "engine.duet", "engine.classic")]
    lazy = [(str(p.relative_to(ROOT)), line) for p in core
            for _, line, top in _imports(".".join(p.relative_to(ROOT).with_suffix("").parts), p) if not top]
    lazy = [x for x in lazy if x[0] != "device/screens/solo.py"]  # the partner (numpy) only, see above
    assert lazy == []
