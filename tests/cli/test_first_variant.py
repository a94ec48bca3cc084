"""The designer's loop as a new user meets it: a first variant made in an empty folder is found
by the next command typed, its errors stand where the user wrote them, and the rule sheets
state the change."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli
from century.base.resources import package_dir


def invoke(folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str, input: str | None = None):
    monkeypatch.chdir(folder)
    return CliRunner().invoke(cli.app, list(args), input=input, catch_exceptions=False)


def pdf_text(path: Path) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages)
    return re.sub(r"\u00ad\s*\n?", "", text).replace("\u00a0", " ")  # soft hyphens, no-break spaces


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow
def test_new_show_edit_validate_build_sheets_in_an_empty_folder(tmp_path, monkeypatch):
    made = invoke(tmp_path, monkeypatch, "new", "house", "--from", "spice-road")
    assert made.exit_code == 0, made.output
    variant = tmp_path / "rules" / "house.yaml"
    text = variant.read_text(encoding="utf-8")
    assert {p.name for p in tmp_path.iterdir()} == {"rules", "schema", "README.md"}
    assert (tmp_path / "schema" / "variant.schema.json").is_file()
    assert (
        'name: {en: "Century: Spice Road – House", de: "Century: Die Gewürzstraße – House", '
        'fr: "Century: La Route des épices – House"}' in text
    )
    # the commands the file's own comment names work as written, here
    named = re.findall(r"`?(century (?:show|sheets|play) house)`?", text)
    assert "century show house" in named and "century sheets house" in named
    shown = invoke(tmp_path, monkeypatch, "show", "house")
    assert shown.exit_code == 0, shown.output
    assert "id: house  # rules/house.yaml:" in shown.stdout
    assert "# <bundled>/rules/spice-road.yaml:" in shown.stdout

    edit(variant, "# caravan_limit: 12", "caravan_limit: 12")
    checked = invoke(tmp_path, monkeypatch, "validate")
    assert checked.exit_code == 0, checked.output
    assert checked.stderr.startswith("checked 1 game (house) in ")
    built = invoke(tmp_path, monkeypatch, "build")
    assert built.exit_code == 0, built.output
    assert sorted(p.name for p in (tmp_path / "build").iterdir()) == ["house"]  # not the bundled
    assert invoke(tmp_path, monkeypatch, "sheets", "house").exit_code == 0
    english = pdf_text(tmp_path / "build" / "house" / "rules-en-a4.pdf")
    german = pdf_text(tmp_path / "build" / "house" / "rules-de-a4.pdf")
    assert "at most 12 spices" in english and "Century: Spice Road – House" in english
    assert "Höchstens 12 Gewürze" in german and "Die Gewürzstraße – House" in german
    assert json.loads((tmp_path / "build" / "house" / "ruleset.json").read_text("utf-8"))[
        "sources"
    ][0].startswith("<bundled>/rules/")


@pytest.mark.slow
def test_every_command_finds_the_first_variant(tmp_path, monkeypatch):
    assert invoke(tmp_path, monkeypatch, "new", "house", "--from", "golem").exit_code == 0
    for args in (
        ("cards", "house", "--lang", "en", "--no-kit"),
        ("engine", "house"),
        ("diff", "golem", "house"),
        ("simulate", "house", "--games", "4", "--players", "2", "--bots", "random"),
    ):
        result = invoke(tmp_path, monkeypatch, *args)
        assert result.exit_code == 0, (args, result.output)
    played = invoke(tmp_path, monkeypatch, "play", "house", "--players", "2", input="quit\n")
    assert played.exit_code == 0, played.output
    assert (tmp_path / "build" / "records").is_dir()
    assert invoke(tmp_path, monkeypatch, "deck", "export", "house", "point").exit_code == 0


@pytest.mark.parametrize("how", [(), ("--dir", "rules")])
def test_new_in_an_empty_rules_folder(tmp_path, monkeypatch, how):
    (tmp_path / "rules").mkdir()
    made = invoke(tmp_path, monkeypatch, "new", "house", "--from", "spice-road", *how)
    assert made.exit_code == 0, made.output
    assert (tmp_path / "rules" / "house.yaml").is_file()
    assert invoke(tmp_path, monkeypatch, "show", "house", "--no-sources").exit_code == 0
    assert invoke(tmp_path, monkeypatch, "validate").exit_code == 0


def test_a_variants_value_is_where_its_errors_stand(tmp_path, monkeypatch):
    assert invoke(tmp_path, monkeypatch, "new", "house", "--from", "spice-road").exit_code == 0
    variant = tmp_path / "rules" / "house.yaml"
    edit(variant, "# caravan_limit: 12", "caravan_limit: 2")
    line = variant.read_text("utf-8").splitlines().index("caravan_limit: 2") + 1
    result = invoke(tmp_path, monkeypatch, "validate", "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert len(found) == 7
    assert {(d["file"], d["line"], d["col"]) for d in found} == {("rules/house.yaml", line, 16)}
    seat = next(d for d in found if d["code"] == "C311")
    assert seat["path"] == "caravan_limit"
    [related] = seat["related"]
    assert related["file"] == "<bundled>/rules/spice-road.yaml"
    assert f"inherited from <bundled>/rules/spice-road.yaml:{related['line']}:" in seat["message"]
    text = invoke(tmp_path, monkeypatch, "validate").stderr
    assert str(package_dir("data")) not in text and "site-packages" not in text
    summary = text.strip().splitlines()[-1]
    assert summary.startswith("checked 1 game (house) in 8 files") and len(summary) <= 100


def test_the_summary_fits_the_terminal(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    result = invoke(tmp_path, monkeypatch, "validate")
    [summary] = result.stderr.strip().splitlines()
    assert len(summary) <= 60 and summary.endswith(": 0 errors, 0 warnings")


@pytest.mark.slow
def test_init_lays_out_a_project_that_builds_its_own_game(tmp_path, monkeypatch):
    made = invoke(tmp_path, monkeypatch, "init", "Tavern Rules", "--from", "spice-road")
    assert made.exit_code == 0, made.output
    project = tmp_path / "Tavern Rules"
    assert (project / "rules" / "tavern-rules.yaml").is_file()
    readme = (project / "README.md").read_text("utf-8")
    assert "century show tavern-rules" in readme and "rules/tavern-rules.yaml" in readme
    assert "cd 'Tavern Rules' && century show tavern-rules" in made.stdout
    checked = invoke(project, monkeypatch, "validate")
    assert checked.exit_code == 0 and "checked 1 game (tavern-rules)" in checked.stderr
    again = invoke(tmp_path, monkeypatch, "init", "Tavern Rules", "--from", "spice-road")
    assert again.exit_code == 1 and "already holds rules files" in again.stderr


@pytest.mark.slow
def test_titles_are_asked_for_or_derived(tmp_path, monkeypatch):
    made = invoke(
        tmp_path,
        monkeypatch,
        *("new", "night-market", "--from", "spice-road"),
        *("--title", "Night Market", "--title", "de=Nachtmarkt"),
    )
    assert made.exit_code == 0, made.output
    text = (tmp_path / "rules" / "night-market.yaml").read_text("utf-8")
    assert 'name: {en: "Night Market", de: "Nachtmarkt", fr: "Night Market"}' in text
    refused = invoke(tmp_path, monkeypatch, "new", "x", "--from", "spice-road", "--title", "it=X")
    assert refused.exit_code == 2 and "'it' is not a language of the game" in refused.stderr
    missing = invoke(tmp_path, monkeypatch, "new", "y")
    assert missing.exit_code == 2 and "--from GAME (known: golem, night-market," in missing.stderr


@pytest.mark.slow
def test_an_example_look_is_laid_out_that_validates_and_never_replaces_a_file(
    tmp_path, monkeypatch
):
    """`--example-look` writes a back, a card picture, an icon of the first resource and a
    font into rules/art/, each usable as it is under `look:` (no warning even with
    --strict), and refuses, before writing anything, to replace a file there."""
    made = invoke(tmp_path, monkeypatch, "new", "house", "--from", "spice-road", "--example-look")
    assert made.exit_code == 0, made.output
    art = tmp_path / "rules" / "art"
    names = sorted(p.name for p in art.iterdir())
    assert {"back.svg", "merchant.png", "DejaVuSans-Bold.ttf"} <= set(names), names
    resource = [n for n in names if n.endswith(".svg") and n != "back.svg"]
    assert len(resource) == 1
    look = (
        "look:\n  card_size: tarot\n"
        "  decks: {merchant: {back: art/back.svg, art: art/merchant.png}}\n"
        "  fonts: {title: art/DejaVuSans-Bold.ttf, text: art/DejaVuSans-Bold.ttf}\n"
        f"  icons: {{{resource[0][:-4]}: art/{resource[0]}}}\n"
    )
    variant = tmp_path / "rules" / "house.yaml"
    variant.write_text(variant.read_text("utf-8") + look, encoding="utf-8")
    checked = invoke(tmp_path, monkeypatch, "validate", "--strict")
    assert checked.exit_code == 0, checked.output
    other = tmp_path / "other"
    (other / "rules" / "art").mkdir(parents=True)
    (other / "rules" / "art" / "merchant.png").write_bytes(b"mine")
    again = invoke(other, monkeypatch, "new", "other", "--from", "spice-road", "--example-look")
    assert again.exit_code == 1 and "merchant.png exists" in again.output, again.output
    assert (other / "rules" / "art" / "merchant.png").read_bytes() == b"mine"
    assert sorted(p.name for p in (other / "rules").rglob("*")) == ["art", "merchant.png"]
