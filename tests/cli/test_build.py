"""`century build` and `validate` as users run them: outputs, exit codes, atomic writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from century.base.output import atomic_dir, read_manifest

from helpers import ROOT


@pytest.mark.slow
def test_build_writes_every_game_byte_identically(run, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert run("build", "--out", str(first)).exit_code == 0
    assert run("build", "--out", str(second)).exit_code == 0
    games = sorted(p.name for p in first.iterdir())
    assert games == ["golem", "spice-road", "spice-road-classic"]
    for game in games:
        files = sorted(
            p.relative_to(first / game) for p in (first / game).rglob("*") if p.is_file()
        )
        assert files, game
        for rel in files:
            assert (first / game / rel).read_bytes() == (second / game / rel).read_bytes(), rel
    ruleset = json.loads((first / "golem" / "ruleset.json").read_text(encoding="utf-8"))
    assert ruleset["id"] == "golem" and ruleset["extends"] == ["spice-road"]
    assert not [p for p in first.iterdir() if p.name.startswith(".")]  # no temporary left


def test_build_refuses_bad_data_and_writes_nothing(run, tmp_path):
    out = tmp_path / "out"
    result = run("build", "tests/cases/invalid/unknown-key.yaml", "--out", str(out))
    assert result.exit_code == 1
    assert "unknown key 'caravan_limt'" in result.stderr
    assert not out.exists()


def test_atomic_dir_keeps_the_old_output_on_failure(tmp_path):
    dest = tmp_path / "game"
    dest.mkdir()
    (dest / "old.txt").write_text("old")
    with pytest.raises(RuntimeError), atomic_dir(dest) as tmp:
        (tmp / "new.txt").write_text("half")
        raise RuntimeError("target failed")
    assert [p.name for p in tmp_path.iterdir()] == ["game"]
    assert [p.name for p in dest.iterdir()] == ["old.txt"]
    with atomic_dir(dest) as tmp:
        (tmp / "new.txt").write_text("whole")
    assert sorted(p.name for p in dest.iterdir()) == [".century-manifest.json", "new.txt"]
    assert read_manifest(dest) == {"new.txt"}


def test_validate_exit_codes(run):
    clean = run("validate")
    assert clean.exit_code == 0, clean.output
    assert "0 errors, 0 warnings" in clean.stderr
    warn = "tests/cases/invalid/point-value.yaml"
    assert run("validate", warn).exit_code == 0
    assert run("validate", "--strict", warn).exit_code == 1
    assert run("validate", "--format", "yaml").exit_code == 2
    assert run("validate", "no/such/folder").exit_code == 1


def test_validate_json_is_a_list_of_located_diagnostics(run):
    result = run("validate", "--format", "json", "tests/cases/invalid/wrong-type.yaml")
    [diag] = json.loads(result.stdout)
    assert diag == {
        "code": "C103",
        "severity": "error",
        "file": "tests/cases/invalid/wrong-type.yaml",
        "line": 4,
        "col": 16,
        "path": "caravan_limit",
        "message": "expected a whole number, got 'ten'",
        "hint": "",
        "related": [],
    }


def test_schema_command_lists_and_writes(run, tmp_path):
    shown = run("schema")
    assert shown.exit_code == 0 and "variant.schema.json" in shown.stdout
    assert run("schema", "--write", str(tmp_path)).exit_code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        ".century-manifest.json",
        "deck.schema.json",
        "defs.schema.json",
        "game.schema.json",
        "prose.schema.json",
        "variant.schema.json",
    ]
    assert run("schema", "--write", str(tmp_path)).exit_code == 0  # its own files: replaced
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "game.schema.json").write_text("{}", encoding="utf-8")
    refused = run("schema", "--write", str(mine))
    assert refused.exit_code == 1 and "rules data (game.schema.json)" in refused.stderr
    assert (mine / "game.schema.json").read_text(encoding="utf-8") == "{}"


def test_every_yaml_file_names_its_schema():
    for path in [*ROOT.glob("rules/**/*.yaml"), *ROOT.glob("cards/**/*.yaml")]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        schema = (path.parent / first.split("=", 1)[1]).resolve()
        assert schema.is_file(), path


def test_console_script_runs_without_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "century", "validate", "tests/cases/invalid/python-tag.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "is not allowed" in result.stderr


@pytest.mark.slow
def test_build_out_over_a_folder_holding_a_users_file_keeps_it(run, tmp_path):
    out = tmp_path / "out"
    assert run("build", "--target", "ruleset", "--out", str(out)).exit_code == 0
    notes = out / "spice-road" / "notes.txt"
    notes.write_text("my notes", encoding="utf-8")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    refused = run("build", "--target", "ruleset", "--out", str(out))
    assert refused.exit_code == 1
    assert "holds files century did not write (notes.txt)" in refused.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    notes.unlink()
    assert run("build", "--target", "ruleset", "--out", str(out)).exit_code == 0


def test_build_works_where_folders_are_renamed_only_onto_free_names(run, tmp_path, monkeypatch):
    """As on Windows: a folder is renamed only onto a free name. Builds and rebuilds still
    write whole folders, take the lock (on a file, never the folder opened as a file) and
    remove the leftovers of a killed build under it."""
    import os as os_module
    from pathlib import Path

    real_replace = os_module.replace

    def replace_onto_free_names(src, dst):
        if Path(src).is_dir() and Path(dst).exists():
            raise PermissionError(5, "Access is denied", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os_module, "replace", replace_onto_free_names)
    out = tmp_path / "out"
    assert run("build", "--target", "ruleset", "--out", str(out)).exit_code == 0
    killed = out / ".century-tmp.spice-road.killed"
    killed.mkdir()
    again = run("build", "--target", "ruleset", "--target", "engine", "--out", str(out))
    assert again.exit_code == 0, again.stderr
    assert not killed.exists()
    game = out / "spice-road"
    assert sorted(read_manifest(game)) == ["ruleset.json", "spice_road.py"]
    assert {p.name for p in game.iterdir()} == {".century-manifest.json", *read_manifest(game)}


HOLD_LOCK = """
import sys
from pathlib import Path
from century.base.output import locked
with locked(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()  # until the test closes it
"""


def _holder(folder):
    """A process holding `folder`'s write lock until its input is closed."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def _build(out):
    return subprocess.Popen(
        [sys.executable, "-m", "century", "build", "--target", "ruleset", "--out", str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("ends", ["releases", "is killed"])
def test_a_build_waits_for_the_process_holding_the_folders_lock(tmp_path, ends):
    """Two processes writing into one folder take turns (the lock is `filelock`'s, so on
    Windows too): the build says it waits, writes nothing meanwhile, and goes on when the
    holder releases the lock or dies."""
    out = tmp_path / "out"
    holder = _holder(out)
    build = _build(out)
    try:
        assert build.stderr is not None
        assert build.stderr.readline().startswith(f"waiting for another century writing into {out}")
        assert build.poll() is None and not (out / "spice-road").exists()
        if ends == "releases":
            assert holder.stdin is not None
            holder.stdin.close()
        else:
            holder.kill()
        holder.wait(30)
        stdout, stderr = build.communicate(timeout=120)
    finally:
        holder.kill()
        build.kill()
    assert build.returncode == 0, stderr
    assert f"built {out / 'spice-road'}" in stdout
    assert read_manifest(out / "spice-road") == {"ruleset.json"}


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners and modes")
@pytest.mark.parametrize("planted", ["link", "shared"])
def test_a_lock_folder_that_is_not_the_users_own_is_not_used(tmp_path, monkeypatch, planted):
    """Another user may make the folder of the locks first (a link to theirs, or one all can
    write): century then locks in the user's cache folder, and refuses when that is no
    better, rather than take locks someone else can hold or swap."""
    from century.base import output

    temp, theirs = tmp_path / "tmp", tmp_path / "theirs"
    temp.mkdir()
    theirs.mkdir()
    shared = temp / f"{output.LOCKS}-{os.getuid()}"
    if planted == "link":
        shared.symlink_to(theirs)
    else:
        shared.mkdir()
        shared.chmod(0o777)
    monkeypatch.setattr(output.tempfile, "gettempdir", lambda: str(temp))
    cache = tmp_path / "cache"
    monkeypatch.setenv("CENTURY_CACHE_DIR", str(cache))
    lock = output.lock_file(tmp_path / "out")
    assert lock.parent == cache / "locks"
    with output.locked(tmp_path / "out"):
        assert not list(theirs.iterdir()) and not list(shared.iterdir())
    monkeypatch.setenv("CENTURY_CACHE_DIR", "")
    with pytest.raises(output.OutputError, match="is not a private folder of yours"):
        output.lock_file(tmp_path / "out")
