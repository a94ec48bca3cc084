"""The C engine compiled with the system C compiler (``--backend c``).

`compile_c(source, name)` compiles a C engine's source (`century.engine.cgen`) in a temporary
folder into a CPython extension module and returns its file name (``<name>`` plus this
interpreter's extension suffix) and bytes; it writes nothing else. Placed beside
``<name>.py`` the extension is what ``import <name>`` loads, and it refuses to load
(ImportError) once that ``.py`` is not the source it was generated from: the module holds the
SHA-256 of that source and checks it on import, so a stale or foreign extension never plays
other rules.

`missing()` says what this machine lacks to compile (a C compiler, Python's headers): the
commands ask it before any work, so a missing compiler is one line and nothing written.
"""

from __future__ import annotations

import os
import shlex
import sys
import sysconfig
import tempfile
from pathlib import Path

from century.engine.cc import compiler, last_lines, missing_compiler, run
from century.engine.native import extension_name

COMPILE_TIMEOUT = 600.0
"""Seconds a compile may take before it is given up (a quiet machine takes a few)."""
FLAGS = ("-O2", "-Wall", "-shared", "-fPIC")
"""The flags every compile gets, after the compiler's own words and before ``CFLAGS``."""


class CBuildError(ValueError):
    """The C engine cannot be compiled here (what is missing), or the compile failed."""


def missing() -> str:
    """What this machine lacks to compile a C engine ("" when nothing)."""
    return missing_compiler("no C compiler (CC is empty)")


def compile_c(source: str, name: str) -> tuple[str, bytes, str]:
    """The C engine `source` of the module `name` compiled: (file name, bytes, what the
    compiler printed: its warnings). `CBuildError` says what is missing or why it failed."""
    lacking = missing()
    if lacking:
        raise CBuildError(f"cannot compile the C engine: {lacking}")
    include = sysconfig.get_paths()["include"]
    extra = ["-undefined", "dynamic_lookup"] if sys.platform == "darwin" else []
    with tempfile.TemporaryDirectory(prefix="century-c-") as folder:
        tmp = Path(folder)
        (tmp / f"{name}.c").write_text(source, encoding="utf-8")
        built = tmp / extension_name(name)
        command = [
            *compiler(),
            *FLAGS,
            *shlex.split(os.environ.get("CFLAGS", "")),
            f"-I{include}",
            f"{name}.c",
            "-o",
            built.name,
            *extra,
        ]
        status, output = run(command, tmp, "the C compiler", COMPILE_TIMEOUT, CBuildError)
        if status != 0 or not built.is_file():
            tail = "\n".join(last_lines(output))
            raise CBuildError(f"the C compiler failed (exit {status}):\n{tail}")
        return built.name, built.read_bytes(), output
