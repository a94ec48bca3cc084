"""The public face: `century.__all__` is the supported API, every name of it imports on first
use, the package ships ``py.typed``, and a user's program type-checks against it with
`mypy --strict` (`typing/uses_api.py`) while its typical mistakes are caught
(`typing/misuses_api.py`, each line marked ``# E: <code>``: the negative control)."""

from __future__ import annotations

import importlib.resources
import re
import subprocess
import sys
from pathlib import Path

import pytest

import century

TYPING = Path(__file__).parent / "typing"


def test_every_name_of_the_api_imports() -> None:
    for name in century.__all__:
        assert getattr(century, name) is not None, name
    assert set(century.__all__) <= set(dir(century))
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        _ = century.no_such_thing  # type: ignore[attr-defined]


def test_importing_the_package_imports_no_stage() -> None:
    found = subprocess.run(
        [sys.executable, "-c", "import century, sys; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    loaded = [name for name in eval(found) if name.startswith("century.")]
    assert loaded == ["century.base", "century.base.version"]  # the version only


def test_the_version_is_the_projects() -> None:
    import tomllib

    from century.base.version import __version__

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8"))
    assert century.__version__ == __version__ == project["project"]["version"]


def test_the_package_is_typed() -> None:
    assert importlib.resources.files("century").joinpath("py.typed").is_file()


def mypy(path: Path, cwd: Path) -> tuple[int, list[tuple[int, str]]]:
    """Exit status and (line, error code) of each error of ``mypy --strict PATH``, run from
    `cwd` (away from the project's own configuration), finding `century` as installed."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cwd / ".mypy"), str(path)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = re.findall(r"^.*?:(\d+): error: .*\[([a-z-]+)\]$", done.stdout, re.M)
    return done.returncode, [(int(line), code) for line, code in errors]


@pytest.mark.slow
def test_a_program_using_the_api_passes_mypy_strict(tmp_path: Path) -> None:
    status, errors = mypy(TYPING / "uses_api.py", tmp_path)
    assert (status, errors) == (0, [])


@pytest.mark.slow
def test_mistakes_against_the_api_are_caught(tmp_path: Path) -> None:
    source = (TYPING / "misuses_api.py").read_text(encoding="utf-8").splitlines()
    expected = [
        (number, found.group(1))
        for number, line in enumerate(source, 1)
        if (found := re.search(r"# E: ([a-z-]+)$", line))
    ]
    assert len(expected) >= 6
    status, errors = mypy(TYPING / "misuses_api.py", tmp_path)
    assert status == 1
    assert errors == expected
