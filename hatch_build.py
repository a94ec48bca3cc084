"""The wheel's native builds: the bots and the simulation loop compiled with mypyc, and the
bundled games' C engines.

Off unless ``CENTURY_NATIVE=1`` is set when the wheel is built (``CENTURY_NATIVE=1 pip install
.``): then mypyc (a build dependency only then) compiles the modules listed under
``[tool.hatch.build.targets.wheel.hooks.custom] modules`` in pyproject.toml, and the wheel
holds each compiled extension beside its source, tagged for this interpreter and platform.
``CENTURY_C=1`` (alone or beside it) generates every bundled game's C engine with the
package's own generator (its dependencies become build dependencies only then) and compiles
it with the system C compiler into ``century/cengines/``, beside the engine source it was
made from (`century.engine.cbundled` finds them). Without a C compiler or Python's headers
either says so and builds the pure wheel. Editable installs and the sdist are never
compiled. `century.bots.compiled` tells at run time which build runs.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SWITCH = "CENTURY_NATIVE"
"""The environment variable that turns the native build on (1, true or yes)."""
C_SWITCH = "CENTURY_C"
"""The environment variable that compiles the bundled games' C engines in (1, true or yes)."""
C_FOLDER = "century/cengines"
"""Where the wheel holds the C engines (`century.engine.cbundled.FOLDER`)."""

BUILD_REQUIRES = ["mypy[mypyc]>=1.10", "setuptools>=61"]
"""What the native build needs (mypyc builds its extensions with setuptools)."""

SOURCES = "compiler"
"""The folder that holds the package, as mypy imports it."""


def enabled(switch: str = SWITCH) -> bool:
    """Whether this build compiles (the `switch` variable set to 1, true or yes)."""
    return os.environ.get(switch, "").strip().lower() in {"1", "true", "yes"}


def lacking() -> str:
    """What this machine lacks to compile ("" when nothing): a C compiler, Python's headers."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(compiler)
    if os.name != "nt" and (not words or shutil.which(words[0]) is None):  # Windows: MSVC
        return f"no C compiler found ({words[0] if words else 'CC is empty'})"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"Python's C headers are missing (no Python.h in {include})"
    return ""


SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

out, temp, *args = sys.argv[1:]
setup(
    name="century-native",
    ext_modules=mypycify(args, opt_level="3", debug_level="0"),
    script_args=["build_ext", "--build-lib", out, "--build-temp", temp],
)
"""


class NativeBuildHook(BuildHookInterface):
    """Adds the compiled modules to a standard wheel when `SWITCH` is set."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        found = list(BUILD_REQUIRES) if enabled() else []
        if enabled(C_SWITCH):  # the generator runs from the source tree, on its dependencies
            found += list(self.metadata.core.dependencies)
        return found

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        switches = [name for name in (SWITCH, C_SWITCH) if enabled(name)]
        if self.target_name != "wheel" or version != "standard" or not switches:
            return
        missing = lacking()
        if missing:
            for name in switches:
                self.app.display_warning(f"{name}: {missing}; building the pure-Python wheel")
            return
        self._folder = tempfile.mkdtemp(prefix="century-native-")
        built: dict[str, Path] = {}
        if enabled():
            modules = self.config.get("modules", [])
            self.app.display_info(f"{SWITCH}: compiling {len(modules)} modules with mypyc")
            built.update(compile_modules(Path(self.root), modules, Path(self._folder)))
        if enabled(C_SWITCH):
            self.app.display_info(f"{C_SWITCH}: compiling the bundled games' C engines")
            built.update(compile_c_engines(Path(self.root), Path(self._folder) / "c"))
        for target, path in built.items():
            build_data["force_include"][str(path)] = target
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def compile_modules(root: Path, modules: list[str], folder: Path) -> dict[str, Path]:
    """Compile `modules` (dotted names under `SOURCES`) with mypyc in `folder`: the wheel
    path of each extension built (the modules' and mypyc's shared one) and its file."""
    sources = root / SOURCES
    paths = [str(sources.joinpath(*name.split(".")).with_suffix(".py")) for name in modules]
    out = folder / "lib"
    env = {
        **os.environ,
        "MYPY_CACHE_DIR": str(folder / "mypy_cache"),
        "PYTHONHASHSEED": "0",
        "CFLAGS": f"{os.environ.get('CFLAGS', '')} -ffile-prefix-map={root}=.".strip(),
    }
    options = ["--config-file", os.devnull, "--ignore-missing-imports", "--follow-imports=silent"]
    command = [sys.executable, "-c", SETUP, str(out), str(folder / "temp"), *options, *paths]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-30:])
        raise RuntimeError(f"mypyc failed (exit {done.returncode}):\n{tail}")
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return {path.relative_to(out).as_posix(): path for path in sorted(out.rglob(f"*{suffix}"))}


C_ENGINES = """
import sys
from pathlib import Path

from century.engine import generate, module_name
from century.engine.cbuild import compile_c
from century.engine.cgen import generate_c
from century.pipeline import compile_paths

out = Path(sys.argv[1])
for ruleset in compile_paths().rulesets.values():
    name = module_name(ruleset)
    extension, data, _ = compile_c(generate_c(ruleset), name)
    (out / extension).write_bytes(data)
    (out / f"{name}.py").write_text(generate(ruleset), encoding="utf-8")
"""


def compile_c_engines(root: Path, folder: Path) -> dict[str, Path]:
    """Every bundled game's C engine generated from the source tree under `root` and compiled
    in `folder`: the wheel path of each file (the engine sources and the extensions)."""
    folder.mkdir(parents=True)
    path = os.pathsep.join(filter(None, [str(root / SOURCES), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}  # pip's build paths kept
    command = [sys.executable, "-c", C_ENGINES, str(folder)]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-30:])
        raise RuntimeError(f"the C engines failed to build (exit {done.returncode}):\n{tail}")
    return {f"{C_FOLDER}/{path.name}": path for path in sorted(folder.iterdir())}
