"""The fixture corpus: every broken file in tests/cases/invalid fails with its expected,
located message; every file in tests/cases/valid validates. tests/cases/tables/ holds the same
for deck tables (CSV, TSV): each case is a variant that names its table as a deck, and its
expectations name the table's cells.

A case states what it expects in comments:
    # expect: [FILE:]LINE:COL: SEVERITY CODE: MESSAGE   (FILE defaults to the case itself)
    # strict                                       (validate with --strict)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import CASES, ROOT, as_in_checkout

INVALID = sorted((CASES / "invalid").glob("*.yaml"))
VALID = sorted((CASES / "valid").glob("*.yaml"))
TABLES_INVALID = sorted((CASES / "tables" / "invalid").glob("*.yaml"))
TABLES_VALID = sorted((CASES / "tables" / "valid").glob("*.yaml"))
EXPECT = re.compile(
    r"^# expect: (?:(?P<file>[^:]+):)?(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>\w+) (?P<code>C\d{3}): (?P<msg>.*)$"
)


def expectations(case: Path) -> tuple[list[dict[str, str]], bool]:
    text = case.read_bytes().decode("utf-8", errors="replace")
    found = [m.groupdict() for line in text.splitlines() if (m := EXPECT.match(line))]
    return found, "# strict" in text.splitlines()


def test_corpus_is_large_enough():
    assert len(INVALID) >= 25 and len(TABLES_INVALID) >= 12
    cases = INVALID + TABLES_INVALID
    assert all(expectations(case)[0] for case in cases), "every invalid case expects something"


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", INVALID + TABLES_INVALID, ids=lambda p: f"{p.parent.parent.name}-{p.stem}"
)
def test_invalid_case(case: Path, run):
    expected, strict = expectations(case)
    rel = case.relative_to(ROOT).as_posix()
    args = ["validate", "--format", "json", rel] + (["--strict"] if strict else [])
    result = run(*args)
    assert result.exit_code == 1, result.output
    got = json.loads(result.stdout)
    for want in expected:
        file = want["file"] or rel
        matches = [
            d
            for d in got
            if as_in_checkout(d["file"]) == file
            and d["line"] == int(want["line"])
            and d["col"] == int(want["col"])
            and d["severity"] == want["sev"]
            and d["code"] == want["code"]
            and as_in_checkout(d["message"]).startswith(want["msg"])
        ]
        shown = "\n".join(
            f"{d['file']}:{d['line']}:{d['col']}: {d['code']}: {d['message']}" for d in got
        )
        assert matches, f"expected {want} in:\n{shown}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", VALID + TABLES_VALID, ids=lambda p: f"{p.parent.parent.name}-{p.stem}"
)
def test_valid_case(case: Path, run):
    rel = case.relative_to(ROOT).as_posix()
    result = run("validate", "--strict", rel)
    assert result.exit_code == 0, result.output


def test_text_output_is_compiler_style(run):
    result = run("validate", "tests/cases/invalid/unknown-key.yaml")
    assert result.exit_code == 1
    assert (
        "tests/cases/invalid/unknown-key.yaml:4:1: error C101: unknown key 'caravan_limt'"
        in result.stderr
    )
    assert "hint: did you mean 'caravan_limit'?" in result.stderr


@pytest.mark.slow
def test_all_problems_in_one_run(run):
    result = run("validate", "--format", "json", "tests/cases/invalid")
    assert result.exit_code == 1
    files = {d["file"] for d in json.loads(result.stdout)}
    assert len([f for f in files if f.startswith("tests/cases/invalid/")]) >= 25


PROBE = """
from pathlib import Path

import helpers.rulesets
from century.pipeline import compile_paths

helpers.rulesets.compile_paths = lambda: compile_paths([Path({rules!r}), Path({cards!r})])

from helpers import spice_road

BASE = spice_road()  # a table built as the module is collected, as some test modules do


def test_uses_the_rules():
    assert BASE.id
"""


@pytest.mark.slow
def test_a_data_error_in_the_rules_fails_the_tests_with_its_diagnostics(tmp_path):
    """The test helpers compile the rules; broken rules make the tests say what is wrong
    (the diagnostics), not fail on a game that is missing."""
    import os
    import shutil
    import subprocess
    import sys

    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    prose = tmp_path / "rules" / "prose" / "century.de.yaml"
    lines = prose.read_text(encoding="utf-8").splitlines(keepends=True)
    prose.write_text("".join(line for line in lines if "ref_title:" not in line), "utf-8")
    probe = tmp_path / "probe" / "test_probe.py"
    probe.parent.mkdir()
    probe.write_text(
        PROBE.format(rules=str(tmp_path / "rules"), cards=str(tmp_path / "cards")), "utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(probe)],
        cwd=probe.parent,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode != 0
    assert "BundledDataError: the rules do not compile" in done.stdout, done.stdout
    assert "error C315" in done.stdout and "ref_title" in done.stdout, done.stdout
    assert "KeyError" not in done.stdout
