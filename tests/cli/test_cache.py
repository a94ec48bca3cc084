"""The compiled prose templates `century validate` keeps between runs (`century.codecache`):
in the user's cache folder, never the project; a later run reads them instead of compiling;
a broken entry is compiled again and a folder that cannot be written is done without."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from century.codecache import CACHE_ENV


def validate(cwd: Path, **env: str | None) -> subprocess.CompletedProcess[str]:
    """`century validate` of the bundled games, run in `cwd` with `env` added to the
    environment (None removes the variable)."""
    base = {k: v for k, v in os.environ.items() if k not in env}
    done = subprocess.run(
        [sys.executable, "-m", "century", "validate"],
        cwd=cwd,
        env={**base, **{k: v for k, v in env.items() if v is not None}},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done


def entries(cache: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(cache.glob("*/*.jinja"))}


def test_a_second_run_reads_the_templates_the_first_compiled(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    assert len(kept) > 50  # one per distinct rule-sheet sentence with placeholders
    stamps = {path: path.stat().st_mtime_ns for path in kept}
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert entries(cache) == kept
    assert {path: path.stat().st_mtime_ns for path in kept} == stamps  # read, not rewritten


def test_a_broken_entry_is_compiled_again_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    for path in kept:
        path.write_bytes(b"not bytecode")
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert entries(cache) == kept


def test_an_entry_cut_short_is_compiled_again_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    for path, data in kept.items():
        path.write_bytes(data[: len(data) // 2])  # the header whole, the code cut
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert entries(cache) == kept


def test_a_cache_folder_that_cannot_be_made_is_done_without(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder\n", encoding="utf-8")
    plain = validate(tmp_path, **{CACHE_ENV: ""})  # empty: no cache
    done = validate(tmp_path, **{CACHE_ENV: str(blocked / "cache")})
    assert (done.stdout, done.stderr) == (plain.stdout, plain.stderr)
    assert blocked.read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the XDG cache folder")
def test_the_default_cache_is_the_users_not_the_projects(tmp_path):
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "notes.txt").write_text("mine\n", encoding="utf-8")
    validate(project, **{CACHE_ENV: None, "XDG_CACHE_HOME": None, "HOME": str(home)})
    assert [p.name for p in project.iterdir()] == ["notes.txt"]
    assert entries(home / ".cache" / "century")
