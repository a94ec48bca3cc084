"""The wheel's native build: the bots and the simulation loop compiled with mypyc.

Off unless ``CENTURY_NATIVE=1`` is set when the wheel is built (``CENTURY_NATIVE=1 pip install
.``): then mypyc (a build dependency only then) compiles the modules listed under
``[tool.hatch.build.targets.wheel.hooks.custom] modules`` in pyproject.toml, and the wheel
holds each compiled extension beside its source, tagged for this interpreter and platform.
Without a C compiler or Python's headers it says so and builds the pure wheel. Editable
installs and the sdist are never compiled. `century.bots.compiled` tells at run time which
build runs.
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

BUILD_REQUIRES = ["mypy[mypyc]>=1.10", "setuptools>=61"]
"""What the native build needs (mypyc builds its extensions with setuptools)."""

SOURCES = "compiler"
"""The folder that holds the package, as mypy imports it."""


def enabled() -> bool:
    """Whether this build compiles (the `SWITCH` variable set to 1, true or yes)."""
    return os.environ.get(SWITCH, "").strip().lower() in {"1", "true", "yes"}


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
        return BUILD_REQUIRES if enabled() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version != "standard" or not enabled():
            return
        missing = lacking()
        if missing:
            self.app.display_warning(f"{SWITCH}: {missing}; building the pure-Python wheel")
            return
        modules = self.config.get("modules", [])
        self.app.display_info(f"{SWITCH}: compiling {len(modules)} modules with mypyc")
        self._folder = tempfile.mkdtemp(prefix="century-native-")
        built = compile_modules(Path(self.root), modules, Path(self._folder))
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
