"""What the learning targets (``pettingzoo``, ``openspiel``) share.

Each writes three modules side by side: the game's engine, ``<game>_actions.py`` (the action
codec, copied from `century.runtime.actions`) and its own adapter (from the module of
`century.runtime` of the target's name). A generated module finds the one it needs by name,
in its own package or on ``sys.path``; the names are the only values in its constants block.
For type checkers, a copied source imports the package's modules (``import
century.runtime.engine as engine``); a generated copy imports the game's modules beside it
instead. `load` imports such a set in memory as one package.
"""

from __future__ import annotations

import hashlib
import re
import sys
import types
from dataclasses import dataclass
from functools import partial

from century import runtime as copies
from century.engine import HEADER, context, module_name
from century.engine import generate as generate_engine
from century.engine.literals import LINE, assign
from century.engine.native import compile_native
from century.model.ruleset import Ruleset

_LOADED: dict[str, dict[str, types.ModuleType]] = {}


TYPED = {"engine": "century.runtime.engine", "actions": "century.runtime.actions"}
"""The package's modules a copied source imports for type checkers, by the name it binds."""


def fill_module(
    ruleset: Ruleset, source: str, constants: dict[str, str], modules: dict[str, str]
) -> str:
    """`source` headed like the engine, its constants block holding `constants`, and its
    imports for type checkers naming the generated `modules` (by the name they are bound to,
    as in `TYPED`)."""
    block = "".join(f"{name} = {assign(name, value)}\n" for name, value in constants.items())
    head = f"{HEADER}# Source hash: {context(ruleset)['source_hash_comment']}\n"
    for bound, generated in modules.items():
        typed = re.compile(rf"^( *)import {re.escape(TYPED[bound])} as {bound}$", re.M)
        source = typed.sub(partial(_import_line, module=generated, bound=bound), source)
    return head + copies.fill(source, block)


def _import_line(found: re.Match[str], module: str, bound: str) -> str:
    """``import module as bound`` (indented as `found`), with a noqa comment where a long
    game id makes it long."""
    line = f"{found[1]}import {module} as {bound}"
    return line + "  # noqa: E501" if len(line) > LINE else line


def codec_sources(ruleset: Ruleset) -> dict[str, str]:
    """Module name -> source: the engine and the action codec ``<game>_actions``."""
    engine = module_name(ruleset)
    return {
        engine: generate_engine(ruleset),
        f"{engine}_actions": fill_module(
            ruleset, copies.source("actions"), {"ENGINE_MODULE": engine}, {"engine": engine}
        ),
    }


def sources(ruleset: Ruleset, adapter: str, adapter_source: str) -> dict[str, str]:
    """`codec_sources` and the adapter ``<game>_<adapter>`` (whose constants block names the
    codec as ``ACTIONS_MODULE``)."""
    modules = codec_sources(ruleset)
    codec = list(modules)[-1]
    adapter_name = f"{module_name(ruleset)}_{adapter}"
    names = {"engine": module_name(ruleset), "actions": codec}
    adapter_module = fill_module(ruleset, adapter_source, {"ACTIONS_MODULE": codec}, names)
    return {**modules, adapter_name: adapter_module}


@dataclass(frozen=True)
class Adapter:
    """A learning target's modules: the engine, the action codec and the adapter ``<game>_
    <name>``, copied from `century.runtime` (the module of the same `name`); the target's
    `Target` writes them with `render`."""

    name: str

    def generate(self, ruleset: Ruleset) -> dict[str, str]:
        """Module name -> source: the engine, the action module and the adapter."""
        return sources(ruleset, self.name, copies.source(self.name))

    def load(self, ruleset: Ruleset) -> types.ModuleType:
        """The adapter imported in memory, with the modules it imports (which need the
        target's libraries: the ``rl`` extra)."""
        modules = self.generate(ruleset)
        return load(modules)[list(modules)[-1]]

    def render(self, ruleset: Ruleset, options: object) -> dict[str, bytes]:
        """The three modules, as files; with ``options.native`` (`century.targets.Native`)
        the engine and the action codec compiled beside them too (`native_files`)."""
        modules = self.generate(ruleset)
        files = module_files(modules)
        if getattr(options, "native", False):
            files.update(native_files(modules))
        return files


_TYPED_ENGINE = re.compile(
    r"^if TYPE_CHECKING:[^\n]*\n    import (\w+) as engine\nelse:\n"
    r"    engine = _sibling\(ENGINE_MODULE\)\n",
    re.M,
)


def native_codec(source: str) -> str:
    """The action codec's source as mypyc compiles it: the engine imported by its name, as a
    compiled module is always imported (mypyc takes the import for types only when it is
    under ``TYPE_CHECKING``, and would never run the other branch)."""
    compiled, found = _TYPED_ENGINE.subn(r"import \1 as engine\n", source, count=1)
    if not found:
        raise ValueError("the action codec no longer imports its engine as native_codec expects")
    return compiled


def native_files(modules: dict[str, str]) -> dict[str, bytes]:
    """The engine and the action codec of `modules` (`codec_sources` first) compiled with
    mypyc, one extension each (`century.engine.native`: `NativeError` says what is missing).
    The adapter stays Python: its time goes to its learning library."""
    engine, codec = list(modules)[:2]
    found = dict([compile_native(modules[engine], engine)])
    compiled = native_codec(modules[codec])
    found.update([compile_native(modules[codec], codec, compiled, {engine: modules[engine]})])
    return found


def load_actions(ruleset: Ruleset) -> types.ModuleType:
    """The action codec imported in memory (standard library only)."""
    modules = codec_sources(ruleset)
    return load(modules)[list(modules)[-1]]


def module_files(modules: dict[str, str]) -> dict[str, bytes]:
    """Each module as the file ``<name>.py``."""
    return {f"{name}.py": source.encode("utf-8") for name, source in modules.items()}


def load(modules: dict[str, str]) -> dict[str, types.ModuleType]:
    """Import `modules` (in order) in memory as one package; cached per source text."""
    digest = hashlib.sha256(repr(sorted(modules.items())).encode("utf-8")).hexdigest()
    loaded = _LOADED.get(digest)
    if loaded is not None:
        return loaded
    package = types.ModuleType(f"century_rl_{digest[:16]}")
    package.__path__ = []
    names = [package.__name__]
    sys.modules[package.__name__] = package
    loaded = {}
    try:
        for name, source in modules.items():
            module = types.ModuleType(f"{package.__name__}.{name}")
            module.__package__ = package.__name__
            module.__file__ = f"<generated {module.__name__}>"
            sys.modules[module.__name__] = module
            names.append(module.__name__)
            exec(compile(source, module.__file__, "exec"), module.__dict__)
            setattr(package, name, module)
            loaded[name] = module
    except BaseException:
        for name in names:
            sys.modules.pop(name, None)
        raise
    _LOADED[digest] = loaded
    return loaded
