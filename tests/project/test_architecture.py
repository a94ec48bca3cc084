"""The package's folders are its layers, and they import one way, as `MAY_IMPORT` says: no
module imports a later stage, the copied sources (`century.runtime`) import nothing of the
package and nothing beyond the standard library and the library an adapter adapts, targets
read the model and the shared libraries and never another target, and commands never import
the command-line root. The package's root holds only its face (``__init__.py``) and its entry
point (``__main__.py``).

Imports are read from the source (function bodies and ``TYPE_CHECKING`` blocks included):
``import century.x``, ``from century.x import y`` (``y`` a module or a name), ``from century
import x``, relative imports, and ``importlib.import_module("century.x")``. Every rule is
shown to fail on a violation planted in a copy of a module's source."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import century

PACKAGE = Path(century.__file__).resolve().parent

FACE = "century"
"""The package itself: its face, the supported API, which names what the layers hold (typed
imports, imported on first use) and is imported by none of them."""

ENTRY = "century.__main__"
"""``python -m century``: the command line."""

MAY_IMPORT = {
    "base": set(),  # what every layer may use: diagnostics, limits, inputs, output, resources
    "runtime": set(),  # the copied sources: see `test_the_copied_sources_import_no_more`
    "model": {"base"},
    "engine": {"base", "model", "runtime"},
    "frontend": {"base", "model"},
    "prose": {"base", "model"},
    "checks": {"base", "model", "runtime", "engine", "frontend", "prose"},
    "pipeline": {"base", "model", "frontend", "prose", "checks"},
    "shared": {"base", "model", "runtime", "engine", "prose"},
    "targets": {"base", "model", "runtime", "engine", "prose", "shared"},
    "bots": {"base", "model", "runtime", "engine"},
    "simulation": {"base", "model", "runtime", "engine", "bots"},
    "reports": {"base", "model", "runtime", "engine", "bots", "simulation"},
    "experiments": {"base", "model", "runtime", "engine", "bots", "simulation", "reports"},
    # the table in the browser: the engine and the bots play, and the card images are drawn
    # as the images target draws them (its plan and render), so a variant's look comes along
    "serve": {"base", "model", "runtime", "engine", "shared", "targets", "bots", "simulation"},
    "cli": {
        *("base", "model", "runtime", "engine", "frontend", "prose", "checks", "pipeline"),
        *("shared", "targets", "bots", "simulation", "reports", "experiments", "serve"),
    },
    "entry": {"cli"},
    "face": {"base", "model", "engine", "pipeline", "targets", "simulation", "experiments"},
}
"""What each layer may import besides itself. A layer is a folder of the package (its name
is the folder's); the face and the entry point are the root's two modules."""

COPIED_MAY_IMPORT = {
    "century.runtime.pettingzoo": {"gymnasium", "numpy", "pettingzoo"},
    "century.runtime.openspiel": {"numpy", "pyspiel", "open_spiel"},
}
"""Besides the standard library, what a copied source may import: the library it adapts."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> list[tuple[str, Path]]:
    return [
        (module_name(path), path)
        for path in sorted(PACKAGE.rglob("*.py"))
        if "data" not in path.relative_to(PACKAGE).parts
    ]


KNOWN = {name for name, _ in modules()}


def exists(name: str) -> bool:
    """Whether `name` is a module of the package (a new one planted in a test counts too)."""
    return name in KNOWN


def layer(module: str) -> str:
    """The layer of a module: the folder it lies in below the package (`MAY_IMPORT`), the
    face or the entry point; AssertionError for a module at the root or in a new folder."""
    if module == FACE:
        return "face"
    if module == ENTRY:
        return "entry"
    parts = module.split(".")
    if len(parts) == 2 and not (PACKAGE / parts[1]).is_dir():
        raise AssertionError(
            f"{module} is a module at the package's root: move it into a layer's folder"
        )
    if parts[1] not in MAY_IMPORT:
        raise AssertionError(f"{module} is in no layer: name its folder in MAY_IMPORT")
    return parts[1]


def _package(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """Every `century` module `source` (the text of `module`) imports, resolved: a name
    imported from a package is the module of that name if there is one, else the package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, up level - 1 packages
                package = _package(module, is_package).split(".")
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append(full if exists(full) else base)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(node.args[0].value)
    return [name for name in found if name == "century" or name.startswith("century.")]


def _target(module: str) -> str | None:
    """The target a module belongs to (``century.targets.cards.x`` -> ``cards``), or None."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "targets" else None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def _outside_type_checking(source: str) -> str:
    """`source` without the bodies of its ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if _is_type_checking(node):
            node.body = [ast.Pass()]
    return ast.unparse(tree)


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """What `source` (the text of `module`) imports against the rules."""
    own = layer(module)
    found = []
    if own == "runtime":
        found += [
            f"{module} (runtime) imports {name} outside a TYPE_CHECKING block"
            for name in imports(_outside_type_checking(source), module, is_package)
        ]
    for name in imports(source, module, is_package):
        other = layer(name)
        if other != own and other not in MAY_IMPORT[own]:
            found.append(f"{module} ({own}) imports {name} ({other})")
        elif own == "targets" and _target(module) is None and _target(name) is not None:
            found.append(f"the target registry {module} imports a target: {name}")
        elif own == "targets" and _target(name) not in (None, _target(module)):
            found.append(f"{module} imports another target: {name}")
        elif own == "cli" and module != "century.cli" and name == "century.cli":
            found.append(f"the command module {module} imports the command-line root")
    return found


MODULES = modules()


def test_every_module_is_in_a_layer():
    assert len(MODULES) > 60
    for name, _ in MODULES:
        assert layer(name) in MAY_IMPORT


@pytest.mark.parametrize(("name", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_every_module_imports_what_its_layer_may(name, path):
    source = path.read_text(encoding="utf-8")
    assert violations(name, source, path.name == "__init__.py") == []


PLANTED = [
    ("century.model.text", "from century.cli.common import fail", "imports century.cli.common"),
    ("century.model.text", "from century import cli", "imports century.cli (cli)"),
    ("century.model.text", "from ..bots import registry", "imports century.bots.registry"),
    ("century.model.text", "from .. import pipeline", "imports century.pipeline"),
    ("century.model.text", "import century.targets", "imports century.targets"),
    ("century.model.text", "importlib.import_module('century.cli')", "imports century.cli"),
    ("century.runtime.engine", "from century.model import text", "imports century.model.text"),
    ("century.runtime.engine", "from . import actions", "century.runtime.actions outside"),
    ("century.checks.prose", "from century.targets.sheets import render", "century.targets"),
    ("century.checks.prose", "from century.pipeline import compile_paths", "century.pipeline"),
    ("century.engine.size", "from century.frontend.loader import Node", "century.frontend"),
    ("century.prose", "from century.checks import CHECKS", "imports century.checks"),
    ("century.targets.ruleset_json", "from century.frontend.loader import Node", "frontend"),
    ("century.targets.ruleset_json", "from century.pipeline import compile_paths", "pipeline"),
    ("century.targets.tts", "from century.targets.images import plan", "another target"),
    ("century.targets.tts", "from ..images import plan", "another target"),
    ("century.targets.tts", "from century.targets import images", "another target"),
    ("century.targets", "from century.targets import cards", "registry"),
    ("century.shared.cards.faces", "from century.targets import Target", "century.targets"),
    ("century.bots.registry", "from century.targets.engine import load_engine", "century.targets"),
    ("century.bots.registry", "from century.shared.rl import load", "century.shared.rl"),
    ("century.cli.engine", "from century.cli import app", "command-line root"),
    ("century.cli.engine", "from century import cli", "command-line root"),
    ("century.cli.engine", "from .. import cli", "command-line root"),
    ("century.newmodule", "", "a module at the package's root"),
    ("century.newfolder.tool", "", "in no layer"),
    ("century.runtime.actions", "import century.runtime.engine", "outside a TYPE_CHECKING"),
    ("century.runtime", "from century.base import limits", "imports century.base.limits"),
    ("century.model.text", "from century import compile_paths", "imports century (face)"),
    ("century.bots.registry", "import century", "imports century (face)"),
    ("century", "from century.cli import app", "imports century.cli (cli)"),
]


@pytest.mark.parametrize(("module", "planted", "message"), PLANTED)
def test_every_rule_fails_on_a_planted_violation(module, planted, message):
    path = {name: path for name, path in MODULES}.get(module)
    source = path.read_text(encoding="utf-8") if path else ""
    is_package = path is not None and path.name == "__init__.py"
    try:
        found = violations(
            module, f"{source}\n\ndef planted():\n    {planted or 'pass'}\n", is_package
        )
    except AssertionError as err:
        found = [str(err)]
    assert any(message in problem for problem in found), found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of `graph` (module -> the modules it imports): one per strongly
    connected group of modules that import each other, through any path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
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

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (a package's import of its own submodule
    aside: that is how a package is made of modules)."""
    found: dict[str, set[str]] = {}
    for name, path in MODULES:
        source = path.read_text(encoding="utf-8")
        found[name] = {
            other
            for other in imports(source, name, path.name == "__init__.py")
            if other != name and not other.startswith(name + ".")
        }
    return found


def test_no_modules_import_each_other():
    assert cycles(graph()) == []


def test_a_planted_cycle_is_found():
    planted = graph()
    planted["century.reports.report"].add("century.simulation.ladder")  # bot_rows reads the ladder
    planted["century.simulation.ladder"].add(
        "century.reports.report"
    )  # as wilson once came from there
    assert ["century.reports.report", "century.simulation.ladder"] in cycles(planted)


def test_the_root_holds_only_the_face_and_the_entry_point():
    assert sorted(path.name for path in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py"]
    folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert folders == set(MAY_IMPORT) - {"face", "entry"}


def copied_imports(module: str, source: str) -> list[str]:
    """The top-level packages `source` (a copied source, `module`) imports beyond the standard
    library and what `COPIED_MAY_IMPORT` allows it (its ``TYPE_CHECKING`` imports aside)."""
    found = []
    for node in ast.walk(ast.parse(_outside_type_checking(source))):
        if isinstance(node, ast.Import):
            found += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append(node.module.split(".")[0])
    allowed = set(sys.stdlib_module_names) | COPIED_MAY_IMPORT.get(module, set())
    return sorted(set(found) - allowed - {"__future__"})


COPIED = [(name, path) for name, path in MODULES if layer(name) == "runtime"]


@pytest.mark.parametrize(("name", "path"), COPIED, ids=[name for name, _ in COPIED])
def test_the_copied_sources_import_no_more(name, path):
    assert copied_imports(name, path.read_text(encoding="utf-8")) == []


def test_a_copied_source_importing_a_library_fails():
    source = (PACKAGE / "runtime" / "actions.py").read_text(encoding="utf-8")
    assert copied_imports("century.runtime.actions", source + "\nimport numpy\n") == ["numpy"]
    assert copied_imports("century.runtime.openspiel", "import numpy\nimport yaml\n") == ["yaml"]
