"""The package layout keeps its promises: imports point down the data flow and never in a circle.

``docs/architecture.md`` draws the layers: ``tarock`` (the rules library) <- ``ingest`` <- ``analysis`` <-
``dashboards``, with ``tarock/cli.py`` the one module that may import every layer.  The import graph is read
from the source (every ``import`` statement, those inside functions too), so a cycle hidden behind a lazy
import fails here as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tests.support.paths import ROOT

ROOT = ROOT
PACKAGES = ("tarock", "ingest", "analysis", "dashboards")
LAYER = {"tarock": 0, "ingest": 1, "analysis": 2, "dashboards": 3}
ENTRY = "tarock.cli"
"""The command line's entry module: the one place that may import every layer."""


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports anywhere in its source (the module itself when it names one)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            named = [f"{base}.{alias.name}" for alias in node.names]
            # the package itself only when a name is not a sub-module of it
            targets = named + ([base] if any(n not in MODULES for n in named) else [])
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def _entry_points() -> set[str]:
    """The modules ``tarock/__init__.py`` loads on first use of a public name (its ``_ENTRY_POINTS``)."""
    tree = ast.parse((ROOT / "tarock" / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if isinstance(target, ast.Name) and target.id == "_ENTRY_POINTS" and node.value is not None:
                return set(ast.literal_eval(node.value).values())
    return set()


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}
GRAPH["tarock"] |= _entry_points()


def _parents(name: str) -> set[str]:
    """A module's enclosing packages, which Python imports first (``a.b.c`` -> ``a``, ``a.b``)."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))} & MODULES.keys()


def test_the_graph_is_read() -> None:
    # a sanity check of the reader itself: the engine imports the game and the cards
    assert {"tarock.game", "tarock.cards"} <= GRAPH["tarock.engine"]
    assert {"tarock.engine", "tarock.formats.reader"} <= GRAPH["tarock"]
    assert len(MODULES) > 80


def test_no_import_cycle() -> None:
    """Depth-first search for a back edge, a package's own __init__ edges included."""
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH[node] - _parents(node)):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(GRAPH):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != ENTRY))
def test_imports_point_down_the_data_flow(name: str) -> None:
    layer = LAYER[name.split(".")[0]]
    upward = sorted(t for t in GRAPH[name] if LAYER[t.split(".")[0]] > layer)
    assert not upward, f"{name} imports a later layer: {upward}"


def test_analysis_takes_nothing_from_ingest_rows() -> None:
    offenders = sorted(n for n in MODULES if n.startswith("analysis") and "ingest.rows" in GRAPH[n])
    assert not offenders, offenders


def test_scripts_and_benchmarks_do_not_import_tests() -> None:
    offenders = []
    for folder in ("scripts", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "tests"]
    assert not offenders, offenders


def test_the_rules_library_is_packaged_by_concern() -> None:
    top = [p for p in (ROOT / "tarock").glob("*.py")]
    packages = [p for p in (ROOT / "tarock").iterdir() if (p / "__init__.py").exists()]
    assert len(top) <= 15, sorted(p.name for p in top)
    assert len(packages) >= 4, packages
