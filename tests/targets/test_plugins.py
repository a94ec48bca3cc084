"""Targets from other packages: a plug-in installed beside century names its target under the
``century.targets`` entry-point group, and `century build` and its own command write it.

The plug-in is installed the way an installer leaves a package: its module and a
``.dist-info`` folder with ``METADATA`` and ``entry_points.txt`` in a folder on the path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT

pytestmark = pytest.mark.slow

PLUGIN = '''\
"""A target that lists the game's merchant cards, one id a line."""

from century.targets import Target


def render(ruleset, options):
    ids = [card.id for card in ruleset.merchant_deck]
    return {"card-ids.txt": ("\\n".join(ids) + "\\n").encode()}


TARGET = Target(name="card-ids", summary="the merchant cards' ids", render=render)
'''


def install(site: Path, name: str, entry: str, module: str = PLUGIN) -> None:
    """Install a one-module plug-in distribution `name` into `site`, naming `entry` (an
    entry point's value) under ``century.targets``."""
    package = name.replace("-", "_")
    (site / f"{package}.py").write_text(module, encoding="utf-8")
    info = site / f"{package}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[century.targets]\n{name} = {entry}\n", encoding="utf-8"
    )


def century(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`century ARGS` with `site` on the path, as an installed plug-in is."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT / "tests")]))
    return subprocess.run(
        [sys.executable, "-m", "century", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_plugin_target_is_built_and_has_its_command(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "century-card-ids", "century_card_ids:TARGET")

    built = century(site, "build", "--target", "card-ids", "-o", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    games = sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir())
    assert games, built.stdout
    for game in games:
        ids = (tmp_path / "out" / game / "card-ids.txt").read_text("utf-8").split()
        assert ids and len(ids) == len(set(ids)), game

    alone = century(site, "card-ids", games[0], "-o", "one", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert (tmp_path / "one" / "card-ids.txt").read_text("utf-8") == (
        tmp_path / "out" / games[0] / "card-ids.txt"
    ).read_text("utf-8")

    listed = century(site, "--help", cwd=tmp_path)
    assert "card-ids" in listed.stdout


def test_a_broken_plugin_is_left_out_and_said(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "century-broken", "century_broken:TARGET", module="raise ImportError('no')\n")
    install(site, "century-wrong", "century_wrong:TARGET", module="TARGET = 'a string'\n")

    built = century(site, "build", "-o", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "plug-in target 'century_broken:TARGET' left out: it failed to load" in built.stderr
    assert "ImportError: no" in built.stderr
    assert "plug-in target 'century_wrong:TARGET' left out: it is a str" in built.stderr
    assert "Traceback" not in built.stderr


def test_a_failing_plugin_is_named_in_a_located_error(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    module = PLUGIN.replace("ids = [", "ids = 1 / 0 or [")
    install(site, "century-card-ids", "century_card_ids:TARGET", module=module)
    built = century(site, "build", "--target", "card-ids", "-o", "out", cwd=tmp_path)
    assert built.returncode == 1, built.stderr
    assert "plug-in target card-ids (century_card_ids:TARGET) failed" in built.stderr
    assert "ZeroDivisionError" in built.stderr
    assert "bug in century" not in built.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.txt"))


def test_a_plugin_cannot_take_a_builtin_name(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    module = PLUGIN.replace('name="card-ids"', 'name="engine"')
    install(site, "century-engine-too", "century_engine_too:TARGET", module=module)
    built = century(site, "build", "--target", "engine", "-o", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "left out: the name 'engine' is taken" in built.stderr
    assert not list((tmp_path / "out").glob("*/card-ids.txt"))


ESCAPING = '''\
"""A target whose file name leaves its output folder."""

import os

from century.targets import Target


def render(ruleset, options):
    return {os.environ["PLUGIN_NAME"]: b"written by a plug-in"}


TARGET = Target(name="escape", summary="a file outside", render=render)
'''


@pytest.mark.parametrize("name", ["../../x", "a/../../../x", "ABSOLUTE"])
def test_a_plugins_file_name_outside_its_folder_is_its_error(tmp_path: Path, name: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "century-escape", "century_escape:TARGET", module=ESCAPING)
    work = tmp_path / "a" / "b" / "c"
    work.mkdir(parents=True)
    victim = tmp_path / "x"
    name = str(victim) if name == "ABSOLUTE" else name
    os.environ["PLUGIN_NAME"] = name
    try:
        built = century(site, "build", "--target", "escape", "-o", "out", cwd=work)
        alone = century(site, "escape", "spice-road", "-o", "one", cwd=work)
    finally:
        del os.environ["PLUGIN_NAME"]
    for done in (built, alone):
        assert done.returncode == 1, done.stdout + done.stderr
        assert "plug-in target escape (century_escape:TARGET)" in done.stderr
        assert f"the file name {name!r}" in done.stderr
        assert "Traceback" not in done.stderr and "bug in century" not in done.stderr
    assert not victim.exists() and not (tmp_path / "a" / "x").exists()
    assert not list(tmp_path.rglob("x"))
    assert not list((work / "out").rglob("*")) if (work / "out").exists() else True


BROKEN_RENDER = {
    "nul-name": ('{"a\\0b.txt": b"x"}', "the file name 'a\\x00b.txt' holds a NUL character"),
    "str-value": ('{"a.txt": "text\\0"}', "the file 'a.txt' holds a str, not bytes"),
    "exit": ("raise SystemExit(9)", "failed: SystemExit: 9"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_RENDER))
def test_a_plugins_broken_files_or_exit_are_told_as_its_own(tmp_path: Path, case: str) -> None:
    body, said = BROKEN_RENDER[case]
    returned = body if body.startswith("raise") else f"return {body}"
    module = ESCAPING.replace(
        'return {os.environ["PLUGIN_NAME"]: b"written by a plug-in"}', returned
    )
    site = tmp_path / "site"
    site.mkdir()
    install(site, "century-escape", "century_escape:TARGET", module=module)
    built = century(site, "build", "--target", "escape", "-o", "out", cwd=tmp_path)
    assert built.returncode == 1, built.stdout + built.stderr
    assert "plug-in target escape (century_escape:TARGET)" in built.stderr
    assert said in built.stderr, built.stderr
    assert "bug in century" not in built.stderr and "Traceback" not in built.stderr


def test_a_plugin_that_hangs_on_import_hangs_no_command(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "century-hang", "century_hang:TARGET", module="import time\ntime.sleep(600)\n")
    os.environ["CENTURY_PLUGIN_SECONDS"] = "1"
    try:
        version = century(site, "--version", cwd=tmp_path)
        listed = century(site, "--help", cwd=tmp_path)
    finally:
        del os.environ["CENTURY_PLUGIN_SECONDS"]
    assert version.returncode == 0 and version.stdout.startswith("century "), version.stderr
    assert "century_hang" not in version.stderr
    assert listed.returncode == 0, listed.stderr
    assert "build" in listed.stdout
    assert (
        "plug-in target 'century_hang:TARGET' left out: it did not load within 1 s" in listed.stderr
    )
