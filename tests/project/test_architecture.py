"""The package's layers import one way, as `MAY_IMPORT` says: no module imports a later stage,
the engine's runtime imports nothing of the package, targets read the model and the shared
libraries and never another target, and commands never import the command-line root.

Imports are read from the source (function bodies and ``TYPE_CHECKING`` blocks included):
``import century.x``, ``from century.x import y`` (``y`` a module or a name), ``from century
import x``, relative imports, and ``importlib.import_module("century.x")``. Every rule is
shown to fail on a violation planted in a copy of a module's source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import century

PACKAGE = Path(century.__file__).resolve().parent

FACE = "century"
"""The package itself: its face, the supported API, which names what the layers hold (typed
imports, imported on first use) and is imported by none of them."""

ROOT_MODULES = {
    "century.diagnostics",
    "century.resources",
    "century.limits",
    "century.inputs",
    "century.output",
    "century.sandbox",
    "century.codecache",
    "century.extras",
    "century.explanations",
    "century.assets",
    "century.colours",
}
"""The modules of the root layer: what every stage may use. A new top-level module must be
named here or given a layer of its own (`LAYERS`)."""

LAYERS = {
    "century.__main__": "entry",
    "century.engine.runtime": "runtime",
    "century.model": "model",
    "century.engine": "engine",
    "century.frontend": "frontend",
    "century.prose": "prose",
    "century.checks": "checks",
    "century.pipeline": "pipeline",
    "century.render": "render",
    "century.targets": "targets",
    "century.play": "play",
    "century.serve": "serve",
    "century.cli": "cli",
}
"""The layer of a module: the longest prefix named here decides (else `ROOT_MODULES`)."""

MAY_IMPORT = {
    "root": {"root"},
    "runtime": set(),  # standard library only: it is copied into every generated engine
    "model": {"root"},
    "engine": {"root", "model", "runtime"},
    "frontend": {"root", "model"},
    "prose": {"root", "model"},
    "checks": {"root", "model", "runtime", "engine", "frontend", "prose"},
    "pipeline": {"root", "model", "frontend", "prose", "checks"},
    "render": {"root", "model", "runtime", "engine", "prose"},
    "targets": {"root", "model", "runtime", "engine", "prose", "render"},
    "play": {"root", "model", "runtime", "engine"},
    # the table in the browser: the engine and the bots play, and the card images are drawn
    # as the images target draws them (its plan and render), so a variant's look comes along
    "serve": {"root", "model", "runtime", "engine", "render", "targets", "play"},
    "cli": {
        *("root", "model", "runtime", "engine", "frontend", "prose", "checks", "pipeline"),
        *("render", "targets", "play", "serve"),
    },
    "entry": {"cli"},
    "face": {"root", "model", "engine", "pipeline", "targets", "play"},
}
"""What each layer may import besides itself (the runtime: not even itself)."""


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
    """The layer of a module (`LAYERS`, `ROOT_MODULES`); AssertionError for one in none."""
    if module == FACE:
        return "face"
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        found = LAYERS.get(".".join(parts[:size]))
        if found:
            return found
    if module in ROOT_MODULES:
        return "root"
    raise AssertionError(f"{module} is in no layer: name it in ROOT_MODULES or LAYERS")


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
                if base == FACE and alias.name.startswith("__"):
                    continue  # the face's own dunders (its version) import none of its API
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


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """What `source` (the text of `module`) imports against the rules."""
    own = layer(module)
    found = []
    for name in imports(source, module, is_package):
        other = layer(name)
        if own == "runtime" or (other != own and other not in MAY_IMPORT[own]):
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
    ("century.model.text", "from ..play import bots", "imports century.play.bots"),
    ("century.model.text", "from .. import pipeline", "imports century.pipeline"),
    ("century.model.text", "import century.targets", "imports century.targets"),
    ("century.model.text", "importlib.import_module('century.cli')", "imports century.cli"),
    ("century.engine.runtime", "from century.model import text", "imports century.model.text"),
    ("century.engine.runtime", "from . import literals", "imports century.engine.literals"),
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
    ("century.render.cards.faces", "from century.targets import Target", "century.targets"),
    ("century.play.bots", "from century.targets.engine import load_engine", "century.targets"),
    ("century.play.bots", "from century.render.rl import load", "century.render.rl"),
    ("century.cli.engine", "from century.cli import app", "command-line root"),
    ("century.cli.engine", "from century import cli", "command-line root"),
    ("century.cli.engine", "from .. import cli", "command-line root"),
    ("century.newmodule", "", "in no layer"),
    ("century.model.text", "from century import compile_paths", "imports century (face)"),
    ("century.play.bots", "import century", "imports century (face)"),
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
    planted["century.play.report"].add("century.play.ladder")  # bot_rows reads the ladder
    planted["century.play.ladder"].add("century.play.report")  # as wilson once came from there
    assert ["century.play.ladder", "century.play.report"] in cycles(planted)
