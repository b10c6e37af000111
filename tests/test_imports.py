"""The import graph of the project's own packages: no cycles, and the layers point one way.

Every ``import`` statement counts, at the top of a module or inside a function: a cycle that
only closes at call time still ties two modules together (neither can be read, tested or
replaced without the other) and turns into an import error as soon as one import moves up.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simcore", "strategies", "experiments")

# Edges from simcore into a higher layer that are known and being removed (none now: the
# last, Game.configure importing strategies.registry, went when the strategies package began
# registering its lookup with simcore.game.use_strategies). Nothing may be added here.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file (``from a import b`` counts
    as importing ``a.b`` when that is a module, else ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # the module itself, or the nearest enclosing project module (a package)
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_is_read_from_every_module():
    graph = import_graph()
    assert {"simcore.game", "experiments.cli", "strategies.registry"} <= set(graph)
    # imports inside functions count
    assert "experiments.running.runner" in graph["experiments.cli.play"]
    assert "simcore.rules_data" in graph["simcore.game"]


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_simcore_imports_neither_strategies_nor_experiments():
    upward = {(name, target) for name, targets in import_graph().items()
              if name.startswith("simcore") for target in targets
              if target.split(".")[0] in ("strategies", "experiments")}
    extra = sorted(upward - KNOWN_UPWARD)
    assert not extra, f"simcore imports a higher layer: {extra}"


def test_strategies_do_not_import_experiments():
    upward = {(name, target) for name, targets in import_graph().items()
              if name.startswith("strategies") for target in targets
              if target.startswith("experiments")}
    assert not upward, f"strategies import experiments: {sorted(upward)}"


# The rooms of experiments and the rooms each may import (besides its own, simcore and
# strategies): a room sees only those below it. stats and storage are the floor, what a person
# reads stands on them, playing on that, what the playouts say on all three; bench's
# measurements stand alone; the command line, at the top, is imported by nothing but the
# console script.
ROOMS_MAY_IMPORT: dict[str, set[str]] = {
    "experiments.stats": set(),
    "experiments.storage": set(),
    "experiments.speed": set(),
    "experiments.reporting": {"experiments.stats", "experiments.storage"},
    "experiments.running": {"experiments.stats", "experiments.storage",
                            "experiments.reporting"},
    "experiments.analysis": {"experiments.stats", "experiments.storage",
                             "experiments.reporting", "experiments.running"},
    # the web pages over the same library: what cli offers, but handed the parser by serve
    "experiments.workbench": {"experiments.stats", "experiments.storage",
                              "experiments.reporting", "experiments.running",
                              "experiments.analysis"},
    "experiments.cli": {"experiments.stats", "experiments.storage", "experiments.reporting",
                        "experiments.running", "experiments.analysis", "experiments.speed",
                        "experiments.workbench"},
}


def room_of(module: str) -> str:
    """``experiments.running.sweep`` -> ``experiments.running``; outside experiments, the
    package (``simcore``); the experiments package itself and its ``__main__`` as they are."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "experiments" and len(parts) > 1 else parts[0]


def test_every_module_of_experiments_is_in_a_room():
    rooms = set(ROOMS_MAY_IMPORT) | {"experiments", "experiments.__main__"}
    homeless = sorted(m for m in import_graph() if m.startswith("experiments")
                      and room_of(m) not in rooms)
    assert not homeless, f"modules of experiments in no room: {homeless}"


def test_each_room_imports_only_the_rooms_below_it():
    wrong = sorted((name, target) for name, targets in import_graph().items()
                   if room_of(name) in ROOMS_MAY_IMPORT for target in targets
                   if target.startswith("experiments") and room_of(target) != room_of(name)
                   and room_of(target) not in ROOMS_MAY_IMPORT[room_of(name)])
    assert not wrong, f"a room imports one it may not: {wrong}"


def test_nothing_but_the_console_script_imports_the_command_line():
    users = sorted(name for name, targets in import_graph().items()
                   if room_of(name) != "experiments.cli" and name != "experiments.__main__"
                   and any(room_of(t) == "experiments.cli" for t in targets))
    assert not users, f"modules importing experiments.cli: {users}"
