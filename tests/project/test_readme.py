"""The README: one screen or two, its two commands as CI runs them, its first variant in five
lines runs, and its links lead to pages of the docs site. The engine example it used to hold
runs as written on its docs page (docs/reference/engine-api.md)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import ROOT

README = ROOT / "README.md"
ENGINE_PAGE = ROOT / "docs" / "reference" / "engine-api.md"
SET_UP = "python3 -m venv .venv && . .venv/bin/activate"
BUILD = f"{SET_UP} && pip install -e . && century build"
TEST = f"{SET_UP} && pip install -e '.[test,cluster,rl,watch,serve,docs]' && python -m pytest"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_readme_fits_one_screen_or_two():
    assert len(readme().splitlines()) < 150


def test_the_readme_has_the_two_commands_and_ci_installs_what_it_says():
    blocks = re.findall(r"```sh\n(.*?)```", readme(), re.S)
    assert BUILD in [b.strip() for b in blocks]
    assert TEST in [b.strip() for b in blocks]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test,cluster,rl,watch,serve,docs]'" in ci
    assert "'.[test,cluster,rl,watch,serve,docs]'" in ci.split("lowest versions", 2)[-1]


@pytest.mark.slow
def test_the_first_variant_in_five_lines_runs(tmp_path):
    [block] = [b for b in re.findall(r"```sh\n(.*?)```", readme(), re.S) if "century new" in b]
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert len(lines) == 5, lines
    env_path = f"{sys.executable.rsplit('/', 1)[0]}:/usr/bin:/bin"
    done = subprocess.run(
        ["bash", "-e", "-c", block],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": env_path, "NO_COLOR": "1", "HOME": str(tmp_path)},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "build" / "house" / "rules-en-a4.pdf").is_file()
    assert "caravan_limit: 12" in (tmp_path / "rules" / "house.yaml").read_text("utf-8")


def test_the_readme_links_lead_to_pages_of_the_docs():
    links = re.findall(r"\]\((docs/[^)#]+)", readme())
    assert len(links) >= 8, links
    for link in links:
        assert (ROOT / link).is_file(), link


def test_engine_example_runs(run, tmp_path):
    out = tmp_path / "build"
    assert run("engine", "spice-road", "--out", str(out / "spice-road")).exit_code == 0
    page = ENGINE_PAGE.read_text(encoding="utf-8")
    [example] = [b for b in re.findall(r"```python test\n(.*?)```", page, re.S) if "new_game" in b]
    example = example.replace('"build/spice-road"', repr(str(out / "spice-road")))
    example += "\nassert game.replay(record).to_dict() == state.to_dict()\nprint('ok')\n"
    result = subprocess.run(
        [sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
