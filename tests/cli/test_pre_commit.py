"""The pre-commit hook (`.pre-commit-hooks.yaml`) run as pre-commit runs it: its entry with the
changed files that match its `files` pattern, in the project's folder."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import ROOT

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def run_hook(hook: dict, folder: Path, changed: list[str]) -> subprocess.CompletedProcess[str]:
    """The hook's entry with those of `changed` its pattern matches, as pre-commit calls it."""
    matched = [name for name in changed if re.search(hook["files"], name)]
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    bin_folder = str(Path(sys.executable).parent)  # where pip put the `century` script
    env["PATH"] = bin_folder + os.pathsep + env.get("PATH", "")
    return subprocess.run(
        [*shlex.split(hook["entry"]), *matched],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a variant of its own and a workflow file that is not rules data."""
    done = subprocess.run(
        [sys.executable, "-m", "century", "new", "house", "--from", "spice-road"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "ci.yaml").write_text("on: push\n", encoding="utf-8")
    return tmp_path


def test_the_hook_is_one_python_hook_running_century_validate() -> None:
    [hook] = HOOKS
    assert hook["id"] == "century-validate"
    assert hook["language"] == "python"  # pre-commit installs this repository to run it
    assert shlex.split(hook["entry"]) == ["century", "validate", "--"]  # names, never options


@pytest.mark.slow
def test_the_hook_passes_good_files_and_fails_a_broken_one_with_its_place(project: Path) -> None:
    [hook] = HOOKS
    changed = ["rules/house.yaml", ".github/ci.yaml", "README.md"]
    done = run_hook(hook, project, changed)
    assert done.returncode == 0, done.stdout + done.stderr
    variant = project / "rules" / "house.yaml"
    variant.write_text(
        variant.read_text(encoding="utf-8") + "caravan_limit: many\n", encoding="utf-8"
    )
    done = run_hook(hook, project, changed)
    assert done.returncode == 1
    assert re.search(r"rules/house\.yaml:\d+:\d+: error C\d+", done.stderr), done.stderr
    assert ".github" not in done.stderr  # the workflow file is not handed to the hook


@pytest.mark.parametrize(
    "name",
    [
        "rules/house.yaml",
        "rules/HOUSE.YAML",
        "rules/house.Yml",
        "cards/m.CSV",
        "a/rules/x.tsv",
        "rules/two\nlines.yaml",  # a name holding a line break is checked too
        "rules/sub\ndir/deck.csv",
    ],
)
def test_the_pattern_matches_every_rules_file_name(name: str) -> None:
    """Century reads rules files by their ending in any case; the hook hands them all over."""
    [hook] = HOOKS
    assert re.search(hook["files"], name)


@pytest.mark.slow
def test_a_file_named_like_an_option_is_checked_as_a_file(project: Path) -> None:
    """A name that looks like an option (a project's own `files:` pattern may hand one over)
    is read as a file: the hook ends century's options before the names."""
    [hook] = HOOKS
    (project / "--format=sarif.yaml").write_text("id: odd\nextends: nothing\n", "utf-8")
    done = run_hook({**hook, "files": r"\.yaml$"}, project, ["--format=sarif.yaml"])
    assert done.returncode == 1, done.stderr
    assert "--format=sarif.yaml:2:10: error C201: unknown base game 'nothing'" in done.stderr
