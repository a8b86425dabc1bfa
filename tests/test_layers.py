"""The core's layers and the plugins' facade, checked on the source (see docs/design.md, "Layers").

Every ``import`` counts, at module level or inside a function; for the layer rule, imports
under ``if TYPE_CHECKING:`` are left out (they never run). The rules:

* a core module imports only from its own layer or lower ones, the layer being read off
  its subpackage (``_base`` < ``_model`` < the plugin API < ``_build`` < ``_builtin`` <
  ``_registry`` < ``_services`` < the faces), and the import graph has no cycle, even
  counting imports under ``if TYPE_CHECKING:``;
* a plugin imports the core only through ``tcfg`` and its facade ``tcfg.plugin``, another
  plugin only through that plugin's top-level package (and declares it as a dependency),
  and its own modules without a cycle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core" / "tcfg"
PLUGIN_PACKAGES = sorted(
    [*ROOT.glob("plugins/*/tcfg_*"), *ROOT.glob("docs/example_plugin/tcfg_*")], key=lambda p: p.name
)

#: The core's layers, lowest first: a subpackage (or a top-level module) per layer.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("_base",)),
    ("model", ("_model",)),
    ("plugin API", ("hookspecs", "plugin")),
    ("builder", ("_build",)),
    ("built-in plugin", ("_builtin",)),
    ("registry", ("_registry",)),
    ("services", ("_services",)),
    ("faces", ("testing", "__init__", "__main__", "cli", "compat")),
)
#: What a plugin may import from the core.
FACADE = {"tcfg", "tcfg.plugin", "tcfg.testing"}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of core module ``module`` (dotted, relative to ``tcfg``)."""
    head = module.split(".")[0]
    for index, (_name, names) in enumerate(LAYERS):
        if head in names:
            return index
    raise AssertionError(f"core module {module} belongs to no layer: put it in one of {LAYERS}")


def imports(path: Path, type_checking: bool = False) -> Iterator[tuple[str, list[str], int]]:
    """``(module, names, line)`` of every import in ``path`` (those under TYPE_CHECKING if ``type_checking``).

    ``import a.b`` is ``("a.b", [], line)``; ``from a import b, c`` is ``("a", ["b", "c"], line)``,
    with relative imports made absolute.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if not type_checking and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([path.parent.name, *filter(None, [base])])
            yield base, [alias.name for alias in node.names], node.lineno


def module_names(package: Path) -> dict[str, Path]:
    """Every module of ``package``, subpackages included, by dotted name (``_model.target``; ``__init__``)."""
    found: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        found[".".join(parts)] = path
    return found


def sibling_edges(package: Path, type_checking: bool = False) -> dict[str, dict[str, int]]:
    """Per module of ``package``: the modules of the package it imports, with the line of the first import.

    ``from pkg.sub import name`` is an edge to ``sub.name`` if that is a module, else to
    ``sub``; importing the package itself (``import pkg``, ``from pkg import name`` where
    ``name`` is no module) is an edge to ``__init__``.
    """
    modules = module_names(package)
    edges: dict[str, dict[str, int]] = {m: {} for m in modules}
    for module, path in modules.items():
        for imported, names, line in imports(path, type_checking):
            parts = imported.split(".")
            if parts[0] != package.name:
                continue
            prefix = ".".join(parts[1:])
            candidates = [f"{prefix}.{n}" if prefix else n for n in names] or [prefix or "__init__"]
            for candidate in candidates:
                pieces = candidate.split(".")
                while pieces and ".".join(pieces) not in modules:
                    pieces.pop()
                other = ".".join(pieces) if pieces else (prefix or "__init__")
                if other in modules and other != module:
                    edges[module].setdefault(other, line)
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_core_module_imports_only_lower_layers() -> None:
    wrong = [
        f"core/tcfg/{module}:{line} imports {other} ({LAYERS[layer_of(other)][0]}), "
        f"above its own layer ({LAYERS[layer_of(module)][0]})"
        for module, targets in sorted(sibling_edges(CORE).items())
        for other, line in sorted(targets.items())
        if layer_of(other) > layer_of(module)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("package", [CORE, *PLUGIN_PACKAGES], ids=lambda p: p.name)
def test_no_import_cycle_even_counting_type_checking_imports(package: Path) -> None:
    assert cycles(sibling_edges(package, type_checking=True)) == []


def test_every_core_subpackage_is_a_docstring_only() -> None:
    """A wing's ``__init__`` says what it holds and imports nothing (no facade inside the core)."""
    for init in sorted(CORE.glob("*/__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init} has no docstring"
        assert len(tree.body) == 1, f"{init} holds more than its docstring"


def test_no_core_module_is_over_600_lines() -> None:
    long = {path.relative_to(ROOT): n for path in CORE.rglob("*.py") if (n := len(path.read_text().splitlines())) > 600}
    assert not long, long


@pytest.mark.parametrize("package", PLUGIN_PACKAGES, ids=lambda p: p.name)
def test_plugins_use_only_the_facade(package: Path) -> None:
    plugin_names = {p.name for p in PLUGIN_PACKAGES}
    pyproject = (package.parent / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = re.search(r"^dependencies = \[(.*?)\]", pyproject, re.M | re.S)
    declared = dependencies.group(1) if dependencies else ""
    wrong = []
    for path in sorted(package.glob("*.py")):
        # Every import, TYPE_CHECKING ones included: a plugin's types come from the facade too.
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            for name in names:
                top = name.split(".")[0]
                if top == "tcfg" and name not in FACADE:
                    wrong.append(f"{where} imports {name}; import from tcfg.plugin (or tcfg)")
                elif top in plugin_names and top != package.name:
                    if name != top:
                        wrong.append(f"{where} imports {name}; use {top}'s public API (import from {top})")
                    distribution = "tcfg-plugin-" + top.removeprefix("tcfg_").replace("_", "-")
                    if distribution not in declared:
                        wrong.append(f"{where} imports {top} without declaring {distribution} a dependency")
    assert not wrong, "\n".join(wrong)


def test_the_checker_sees_a_cycle_and_an_upward_import(tmp_path: Path) -> None:
    """The rules above can fail: a made-up package with a function-local cycle is caught."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("from pkg import b\n", encoding="utf-8")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import c\n"
        "def f():\n    from pkg.a import x\n",
        encoding="utf-8",
    )
    (package / "c.py").write_text("import pkg.a\n", encoding="utf-8")
    edges = sibling_edges(package)
    assert edges == {"a": {"b": 1}, "b": {"a": 5}, "c": {"a": 1}}
    assert cycles(edges) == [["a", "b"]]
    assert cycles(sibling_edges(package, type_checking=True)) == [["a", "b", "c"]]
    assert layer_of("_model.target") < layer_of("_build.pipeline") < layer_of("_registry.registry") < layer_of("cli")
