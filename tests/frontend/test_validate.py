"""`century validate` on a user's own project: recursive folders, lone files checked with
the games that use them, the current folder as the default, and locations that name files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.base.diagnostics import CODES

from helpers import ROOT, docs_generator

MERCHANT = (ROOT / "cards" / "spice-road" / "merchant.yaml").read_text(encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A user's project: a variant in rules/ that uses its own merchant deck in cards/my/."""
    root = tmp_path / "myproj"
    (root / "rules").mkdir(parents=True)
    (root / "cards" / "my").mkdir(parents=True)
    (root / "rules" / "my-game.yaml").write_text(
        "id: my-game\nextends: spice-road\nname: {en: My game, de: Mein Spiel, fr: My game}\n"
        "decks: {merchant: ../cards/my/merchant.yaml}\n",
        encoding="utf-8",
    )
    (root / "cards" / "my" / "merchant.yaml").write_text(MERCHANT, encoding="utf-8")
    return root


def invoke(folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(folder)
    return CliRunner().invoke(cli.app, list(args), catch_exceptions=False)


def break_deck(project: Path) -> int:
    """Give one card of the project's deck an unknown code; return its line."""
    deck = project / "cards" / "my" / "merchant.yaml"
    lines = deck.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if "get: YR}" in line)
    lines[index] = lines[index].replace("get: YR}", "get: YX}")
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1


def test_a_project_folder_is_searched_recursively(project, monkeypatch):
    result = invoke(project.parent, monkeypatch, "validate", "myproj")
    assert result.exit_code == 0, result.output
    assert "checked 1 game (my-game) in" in result.stderr
    line = break_deck(project)
    result = invoke(project.parent, monkeypatch, "validate", "myproj")
    assert result.exit_code == 1
    assert f"myproj/cards/my/merchant.yaml:{line}:" in result.stderr
    assert "error C302: unknown resource code X in 'YX'" in result.stderr


def test_a_lone_deck_is_checked_with_the_games_that_use_it(project, monkeypatch):
    deck = "cards/my/merchant.yaml"
    clean = invoke(project, monkeypatch, "validate", deck)
    assert clean.exit_code == 0, clean.output
    assert "checked 1 game (my-game)" in clean.stderr
    line = break_deck(project)
    broken = invoke(project, monkeypatch, "validate", "--format", "json", deck)
    assert broken.exit_code == 1
    found = json.loads(broken.stdout)
    assert [(d["file"], d["line"], d["code"]) for d in found] == [(deck, line, "C302")]


def test_a_deck_no_game_uses_never_passes(tmp_path, monkeypatch):
    (tmp_path / "loose.yaml").write_text(MERCHANT.replace("get: YR}", "get: YX}"), "utf-8")
    result = invoke(tmp_path, monkeypatch, "validate", "loose.yaml")
    assert result.exit_code == 1
    assert "loose.yaml:1:1: error C018: no game uses this deck file" in result.stderr


def test_a_folder_without_rules_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    result = invoke(tmp_path, monkeypatch, "validate", "empty")
    assert result.exit_code == 1
    assert "empty: error C016: no rules files (*.yaml, *.csv, *.tsv) here" in result.stderr
    assert "century new NAME --from GAME --dir empty" in result.stderr
    assert invoke(tmp_path, monkeypatch, "validate", "nowhere").exit_code == 1


def test_no_argument_checks_the_current_folder(project, monkeypatch):
    result = invoke(project, monkeypatch, "validate")
    assert result.exit_code == 0, result.output
    assert "checked 1 game (my-game)" in result.stderr
    assert "under cards/, rules/, <bundled>:" in result.stderr
    elsewhere = invoke(project / "cards", monkeypatch, "validate")
    assert elsewhere.exit_code == 0
    assert "checked 3 games (golem, spice-road, spice-road-classic)" in elsewhere.stderr


def test_locations_in_messages_name_their_file(project, monkeypatch):
    variant = project / "rules" / "my-game.yaml"
    variant.write_text(
        variant.read_text(encoding="utf-8")
        + "cards: {merchant: {add: [{kind: upgrade, steps: 3}]}}\n",
        encoding="utf-8",
    )
    result = invoke(project, monkeypatch, "validate", "--format", "json")
    assert result.exit_code == 1
    [found] = json.loads(result.stdout)
    assert found["code"] == "C305" and found["file"] == "rules/my-game.yaml"
    assert re.search(r"first at cards/my/merchant\.yaml:\d+:\d+\)$", found["message"])
    [related] = found["related"]
    assert related["file"] == "cards/my/merchant.yaml"


def test_commands_find_the_current_folders_games(project, monkeypatch):
    shown = invoke(project, monkeypatch, "show", "my-game", "--no-sources")
    assert shown.exit_code == 0, shown.output
    assert "id: my-game" in shown.stdout
    unknown = invoke(project, monkeypatch, "show", "nope")
    assert unknown.exit_code == 2
    assert "known: golem, my-game, spice-road, spice-road-classic" in unknown.stderr


def test_new_writes_into_the_current_folder_with_a_working_modeline(project, monkeypatch):
    result = invoke(project, monkeypatch, "new", "house", "--from", "my-game")
    assert result.exit_code == 0, result.output
    created = project / "rules" / "house.yaml"
    modeline = created.read_text(encoding="utf-8").splitlines()[0]
    schema = modeline.split("$schema=", 1)[1]
    assert (created.parent / schema).resolve().is_file()
    assert (project / "schema" / "deck.schema.json").is_file()
    assert invoke(project, monkeypatch, "validate").exit_code == 0


def test_every_code_is_listed_in_the_docs():
    """The docs' table of codes (generated from the registry when the site is built) lists
    every code with its meaning, each linking to the code's page."""
    index = docs_generator().codes_index()
    rows = dict(re.findall(r"^\| \[`(C\d{3})`\]\(\1\.md\) \| (.+?) \|$", index, flags=re.M))
    shown = {code: re.sub(r"\\(.)", r"\1", cell) for code, cell in rows.items()}  # unescaped
    assert shown == CODES
    assert set(docs_generator().code_pages()) == set(CODES)
