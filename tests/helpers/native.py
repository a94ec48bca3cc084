"""``pytest --native-engine``: the engine tests run against Spice Road's engine compiled with
mypyc. `serve_native` compiles it once into a folder and makes `century.engine.load_engine`
return it for that very source (every other ruleset keeps the pure module), so the test
modules, which import `load_engine` when they are collected, play the compiled engine."""

from __future__ import annotations

import hashlib
import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import century.engine as engine_package
from century.engine import generate, module_name
from century.engine.native import compile_native, extension_name, missing

from helpers.rulesets import spice_road


def serve_native(folder: Path) -> Any:
    """Compile Spice Road's engine into `folder` and serve it from `load_engine`; the
    compiled module (a usage error saying what is missing where it cannot be compiled)."""
    lacking = missing()
    if lacking:
        raise ValueError(f"--native-engine: {lacking}")
    ruleset = spice_road()
    source = generate(ruleset)
    name = module_name(ruleset)
    extension, data = compile_native(source, name)
    return _serve(folder, source, name, extension, data)


def serve_c(folder: Path) -> Any:
    """Generate and compile Spice Road's C engine into `folder` (or take the one the package
    was built with, ``CENTURY_C=1``) and serve it from `load_engine` for that very source, as
    `serve_native` serves the mypyc build (a usage error saying what is missing where it
    cannot be compiled)."""
    from century.engine.cbuild import compile_c
    from century.engine.cbuild import missing as missing_c
    from century.engine.cbundled import prebuilt
    from century.engine.cgen import generate_c

    lacking = missing_c()
    if lacking:
        raise ValueError(f"--c-engine: {lacking}")
    ruleset = spice_road()
    source = generate(ruleset)
    name = module_name(ruleset)
    extension, data = prebuilt(ruleset) or compile_c(generate_c(ruleset), name)[:2]
    return _serve(folder, source, name, extension, data)


def _serve(folder: Path, source: str, name: str, extension: str, data: bytes) -> Any:
    """Write the compiled engine `extension` beside its `source` in `folder`, import it, and
    make `load_engine` return it for that very source (every other ruleset keeps the pure
    module); the compiled module."""
    (folder / extension).write_bytes(data)
    (folder / f"{name}.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        compiled = importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    pure = engine_package.load_engine

    def load_engine(ruleset: Any) -> Any:
        if hashlib.sha256(generate(ruleset).encode("utf-8")).hexdigest() == digest:
            return compiled
        return pure(ruleset)

    engine_package.load_engine = load_engine
    return compiled


_C_ENGINES: dict[str, Any] = {}
_C_FOLDER: list[Any] = []


def c_engine(ruleset: Any) -> Any:
    """The C engine of `ruleset`, generated and compiled once per test session into a
    temporary folder (beside its Python source) and imported under its module name without
    staying in `sys.modules`; a test that needs one skips where no C compiler is found."""
    import tempfile

    import pytest

    from century.engine.cbuild import compile_c
    from century.engine.cbuild import missing as missing_c
    from century.engine.cgen import generate_c

    lacking = missing_c()
    if lacking:
        pytest.skip(f"no C engine here: {lacking}")
    source = generate(ruleset)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    found = _C_ENGINES.get(digest)
    if found is None:
        if not _C_FOLDER:
            _C_FOLDER.append(tempfile.TemporaryDirectory(prefix="century-c-engines-"))
        name = module_name(ruleset)
        folder = Path(_C_FOLDER[0].name) / digest[:16]
        folder.mkdir()
        extension, data, _ = compile_c(generate_c(ruleset), name)
        (folder / extension).write_bytes(data)
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
        earlier = sys.modules.pop(name, None)
        importlib.invalidate_caches()
        sys.path.insert(0, str(folder))
        try:
            found = _C_ENGINES[digest] = importlib.import_module(name)
        finally:
            sys.path.remove(str(folder))
            sys.modules.pop(name, None)
            if earlier is not None:
                sys.modules[name] = earlier
    return found


def assert_source_guard(
    built: Path, folder: Path, shown: str, printed: str, others: Iterable[str], option: str
) -> None:
    """Spice Road's compiled engine in `built`, copied alone into `folder`, loads (a new
    game's `shown` expression prints `printed`) and loads beside its own source, and refuses
    to load (ImportError asking for a rebuild with `option`) beside each of the `others`."""
    ext = extension_name("spice_road")
    shutil.copy(built / ext, folder / ext)
    source = (built / "spice_road.py").read_text(encoding="utf-8")
    script = f"import sys; sys.path.insert(0, {str(folder)!r}); import spice_road; print({shown})"

    def load() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-I", "-c", script], capture_output=True, text=True, cwd=folder
        )

    done = load()  # alone, without its source
    assert (done.returncode, done.stdout) == (0, printed), done.stderr
    (folder / "spice_road.py").write_text(source, encoding="utf-8")
    assert load().returncode == 0
    for other in (source + "# changed\n", *others):
        (folder / "spice_road.py").write_text(other, encoding="utf-8")
        done = load()
        assert done.returncode == 1
        assert "ImportError" in done.stderr and "was compiled from another" in done.stderr
        assert f"rebuild it (century engine GAME {option}) or delete it" in done.stderr


def engine_written(folder: Path, option: str) -> Path:
    """`century engine spice-road OPTION` run in `folder`, writing into ``folder/spice-road``
    as a user does: that folder."""
    out = folder / "spice-road"
    command = [sys.executable, "-m", "century", "engine", "spice-road", option, f"--out={out}"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    return out
