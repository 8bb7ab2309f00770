"""pyproject.toml: the package declares exactly the third-party distributions its code imports."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from conftest import ROOT

PACKAGE = ROOT / "tools" / "rulekb"


def imported_modules() -> set[str]:
    """The top-level modules rulekb's code imports, wherever the import statement stands."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"rulekb", "__future__"}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {normal(re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0]) for spec in project["dependencies"]}


def test_every_imported_distribution_is_declared_and_every_declared_one_imported():
    owners = packages_distributions()
    used = {normal(dist) for module in imported_modules() for dist in owners.get(module, [module])}
    assert used == declared()
