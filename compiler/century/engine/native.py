"""The generated engine compiled to a CPython extension module with mypyc (``--native``).

`compile_native(source, name)` compiles an engine module's source in a temporary folder and
returns the extension's file name (``<name>`` plus this interpreter's extension suffix, such as
``.cpython-311-x86_64-linux-gnu.so``) and bytes; it writes nothing else. Placed beside
``<name>.py`` the extension is what ``import <name>`` loads (Python prefers an extension to a
source file), and it refuses to load (ImportError) once that ``.py`` is no longer the source
it was compiled from, so a stale extension never plays other rules. The pure-Python module
stays the reference: the compiled one plays the same moves (`tests/engine/test_native.py`).

What is missing to compile (mypyc, a C compiler, Python's headers) is a `NativeError`
naming it, raised before any work.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES

from century.base.extras import install_hint
from century.base.scratch import scratch
from century.engine.cc import last_lines, missing_compiler, run

COMPILE_TIMEOUT = 900.0
"""Seconds a compile may take before it is given up (a quiet machine takes 20-60)."""

_GUARD = '''

def _check_source() -> None:
    """Refuse to load once the .py beside this compiled engine is not its source."""
    import hashlib
    import os
    from importlib.machinery import PathFinder

    found = PathFinder.find_spec(__name__)  # the file being loaded (__file__ is not set yet)
    where = found.origin if found is not None else None
    if not where or os.path.basename(where) != {extension!r}:
        return  # loaded some other way: nothing to compare
    path = os.path.join(os.path.dirname(where), {source!r})
    try:
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return  # no source beside it: the compiled engine alone
    if digest != {digest!r}:
        raise ImportError(
            f"{{where}} was compiled from another {{path}}: "
            "rebuild it (century engine GAME --native) or delete it"
        )


_check_source()
'''


_HINT = install_hint("native", "mypy[mypyc]")


class NativeError(ValueError):
    """The engine cannot be compiled here (what is missing), or the compile failed: `log`,
    the compiler's last lines, each printed on its own line."""

    def __init__(self, message: str, log: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.log = log


def missing() -> str:
    """What this machine lacks to compile an engine ("" when nothing): mypyc, setuptools
    (which mypyc builds with), a C compiler or Python's headers."""
    if importlib.util.find_spec("mypyc") is None:
        return f"mypyc is not installed: {_HINT}"
    if importlib.util.find_spec("setuptools") is None:
        return f"setuptools (which mypyc builds with) is not installed: {_HINT}"
    empty = "CC is set but empty: unset it, or set it to a C compiler such as cc or gcc"
    return missing_compiler(empty, look_up=os.name != "nt")  # Windows: setuptools finds MSVC


def extension_name(name: str) -> str:
    """The file name of the compiled module `name` for this interpreter."""
    return name + (sysconfig.get_config_var("EXT_SUFFIX") or EXTENSION_SUFFIXES[0])


def native_source(source: str, name: str, compiled: str | None = None) -> str:
    """What is compiled: `compiled` (else `source`) and a check, run on import, that the
    ``.py`` beside the extension (if any) is still `source`."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    guard = _GUARD.format(extension=extension_name(name), source=f"{name}.py", digest=digest)
    return (source if compiled is None else compiled) + guard


def compile_native(
    source: str, name: str, compiled: str | None = None, beside: dict[str, str] | None = None
) -> tuple[str, bytes]:
    """The module `name` of `source` compiled with mypyc: (file name, bytes). `compiled` is
    the text compiled when it differs from `source` (the ``.py`` the extension stands in
    for); `beside` names the modules it imports (name -> source), read for their types and
    not compiled. Built in a temporary folder that is removed; `NativeError` says what is
    missing or why it failed."""
    lacking = missing()
    if lacking:
        raise NativeError(f"cannot compile the engine natively: {lacking}")
    with scratch("native") as tmp:
        folder = str(tmp)
        for other, text in (beside or {}).items():
            (tmp / f"{other}.py").write_text(text, encoding="utf-8")
        text = native_source(source, name, compiled)
        (tmp / f"{name}.py").write_text(text, encoding="utf-8")
        env = {
            **os.environ,
            "MYPYC_OPT_LEVEL": "3",
            "MYPYC_DEBUG_LEVEL": "0",  # no debug info: no paths of the temporary folder
            "CFLAGS": f"{os.environ.get('CFLAGS', '')} -ffile-prefix-map={folder}=.".strip(),
            "MYPY_CACHE_DIR": str(tmp / ".mypy_cache"),
            "PYTHONHASHSEED": "0",
            "SOURCE_DATE_EPOCH": "0",
        }
        command = [sys.executable, "-m", "mypyc", "--config-file", os.devnull, f"{name}.py"]
        status, output = run(command, tmp, "mypyc", COMPILE_TIMEOUT, NativeError, env)
        built = tmp / extension_name(name)
        if status != 0 or not built.is_file():
            log = last_lines(output)
            raise NativeError(f"mypyc failed (exit {status}); its last lines:", log)
        return built.name, built.read_bytes()
