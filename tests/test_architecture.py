"""The package's shape (architecture issue): the import graph of tools/rulekb/ runs one way.

A maintainer reads the pipeline off the folder listing (load -> validate -> link -> check ->
render -> report); these tests keep it readable: no import cycle between modules, no stage
importing a later one, render and check never importing the importers or the commands, and no
private name (``_x``) taken from another package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tools" / "rulekb"
STAGES = ("rulekb.load", "rulekb.validate", "rulekb.link", "rulekb.check", "rulekb.render", "rulekb.report")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> tuple[set[str], list[str]]:
    """(the package's modules `name` imports, anywhere in the file; private names it takes from
    other packages)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    private: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:
                    found.add(f"{module}.{alias.name}")
                elif module in modules:
                    found.add(module)
                elif not module.startswith("rulekb") and alias.name.startswith("_") and module != "__future__":
                    private.append(f"{module}.{alias.name}")
            if not node.level and not module.startswith("rulekb") and any(
                    part.startswith("_") and not part.startswith("__") for part in module.split(".")):
                private.append(module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
    found.discard(name)
    return found, private


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules)[0] for name, path in modules.items()}


def _stage(module: str) -> int | None:
    for index, stage in enumerate(STAGES):
        if module == stage or module.startswith(stage + "."):
            return index
    return None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_tarjan_helper_finds_a_planted_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle(graph):
    assert _cycles(graph) == []


def test_no_stage_imports_a_later_stage(graph):
    later = [f"{m} -> {d}" for m, deps in graph.items() for d in deps
             if _stage(m) is not None and _stage(d) is not None and _stage(d) > _stage(m)]
    assert later == []


def test_render_check_and_card_lookup_never_import_importers_or_commands(graph):
    """Render and check read the knowledge base; `rulekb card` reads one card's entries and must
    answer in well under a second: none of them loads an importer or a command."""
    bad = [f"{m} -> {d}" for m, deps in graph.items() for d in deps
           if m.startswith(("rulekb.render", "rulekb.check", "rulekb.report", "rulekb.cardlookup"))
           and d.startswith(("rulekb.importers", "rulekb.commands"))]
    assert bad == []


def test_no_private_name_of_another_package():
    modules = _modules()
    private = [f"{name}: {p}" for name, path in modules.items() for p in _imports(name, path, modules)[1]]
    assert private == []


def test_the_private_name_detector_sees_one(tmp_path):
    source = tmp_path / "x.py"
    source.write_text("from json.encoder import c_make_encoder as _c\nfrom py3langid.modelio import _to_array\n")
    assert _imports("rulekb.x", source, {"rulekb.x": source})[1] == ["py3langid.modelio._to_array"]
