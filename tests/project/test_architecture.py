"""The package's layers import one way: no module imports a later stage, commands never
import the command-line root, and targets read the model, not the stages before it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import century

PACKAGE = Path(century.__file__).resolve().parent

LAYERS = [
    {"century", "century.diagnostics", "century.resources", "century.output"},
    {"century.model"},
    {"century.engine"},
    {"century.frontend"},
    {"century.prose"},
    {"century.checks"},
    {"century.pipeline"},
    {"century.render", "century.targets"},
    {"century.play"},
    {"century.cli"},
]
"""The layers in data-flow order; a module may import its own layer and earlier ones."""


def layer(module: str) -> int:
    """The layer of a module: the longest matching prefix decides."""
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        prefix = ".".join(parts[:size])
        for index, members in enumerate(LAYERS):
            if prefix in members:
                return index
    raise AssertionError(f"{module} is in no layer")


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = [p for p in relative.parts if p != "__init__"]
        if "data" not in parts:
            found.append((".".join(parts), path))
    return found


def imports(path: Path) -> list[str]:
    """Every `century` module imported anywhere in the file (function bodies included)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("century"):
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names if a.name.startswith("century")]
    return names


MODULES = modules()


def test_every_module_is_in_a_layer():
    assert len(MODULES) > 40
    for name, _ in MODULES:
        layer(name)


@pytest.mark.parametrize(("name", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_no_module_imports_a_later_stage(name, path):
    if name == "century.__main__":
        return  # the entry point runs the command line
    later = [i for i in imports(path) if layer(i) > layer(name)]
    assert later == [], f"{name} (layer {layer(name)}) imports {later}"


def test_commands_never_import_the_command_line_root():
    for name, path in MODULES:
        if name.startswith("century.cli.") and path.name != "__init__.py":
            assert "century.cli" not in imports(path), name
