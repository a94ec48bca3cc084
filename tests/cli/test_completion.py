"""Shell completion of the values the commands take, as the shell asks for it (bash's
protocol: the words so far, the index of the one being completed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.bots.registry import BOTS
from century.targets import targets

from helpers import ROOT, compiled


def complete(*words: str, cwd: Path = ROOT) -> list[str]:
    """What Tab offers after `century WORDS...` (the last word is the one being typed)."""
    line = " ".join(("century", *words))
    result = CliRunner().invoke(
        cli.app,
        [],
        prog_name="century",
        env={
            "_CENTURY_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words)),
        },
    )
    assert result.exit_code == 0, result.output
    return result.stdout.split()


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a rules file of its own, as the working folder."""
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(cli.app, ["new", "house-rules", "--from", "spice-road"])
    assert made.exit_code == 0, made.output
    return tmp_path


def test_game_ids_complete_from_the_bundled_rules() -> None:
    assert complete("play", "spice") == ["spice-road", "spice-road-classic"]
    assert complete("sheets", "") == sorted(compiled().rulesets)
    assert complete("diff", "spice-road", "spice-road-c") == ["spice-road-classic"]


def test_game_ids_include_the_working_folders_and_rules_ones(elsewhere: Path) -> None:
    assert complete("show", "h") == ["house-rules"]
    other = elsewhere / "other.yaml"
    other.write_text("id: 'other-game'\n", encoding="utf-8")
    assert complete("show", "--rules", str(other), "o") == ["other-game"]


def test_bot_names_complete_also_as_the_next_of_a_list() -> None:
    assert set(complete("simulate", "--bots", "")) == {*BOTS, "auto"}
    assert complete("play", "spice-road", "--bots", "greedy,pl") == ["greedy,planner"]
    assert complete("bots", "spice-road", "--bots", "gr") == ["greedy"]
    assert set(complete("play", "spice-road", "--bots", "")) == set(BOTS)  # no auto: simulate's


def test_languages_complete_to_the_named_games() -> None:
    languages = compiled().rulesets["spice-road"].languages
    assert sorted(complete("cards", "spice-road", "--lang", "")) == sorted(languages)
    assert complete("sheets", "spice-road", "-l", "e") == ["en"]
    assert complete("cards", "no-such-game", "--lang", "") == []


def test_languages_of_a_variant_in_the_working_folder(elsewhere: Path) -> None:
    assert sorted(complete("sheets", "house-rules", "--lang", "")) == ["de", "en", "fr"]


def test_targets_papers_and_decks_complete() -> None:
    assert complete("build", "--target", "") == sorted(targets())
    assert complete("build", "-t", "pe") == ["pettingzoo"]
    assert complete("cards", "spice-road", "--paper", "") == ["a4", "letter"]
    assert complete("deck", "export", "spice-road", "m") == ["merchant"]


def test_a_broken_rules_folder_completes_to_what_it_can(elsewhere: Path) -> None:
    """A rules file that does not load: the other games' ids and languages still complete,
    and nothing is printed but the values."""
    (elsewhere / "rules" / "broken.yaml").write_bytes(b"id: [\n\xff\xfe")
    assert complete("show", "h") == ["house-rules"]
    assert sorted(complete("cards", "house-rules", "--lang", "")) == ["de", "en", "fr"]


def test_card_ids_complete_from_the_named_game() -> None:
    """`experiment --remove` offers the game's card ids, `--replace` the same as ``ID=``."""
    ruleset = compiled().rulesets["spice-road"]
    ids = [
        c.id
        for deck in (ruleset.starting_cards, ruleset.merchant_deck, ruleset.point_deck)
        for c in deck
    ]
    assert complete("experiment", "spice-road", "--remove", "") == list(dict.fromkeys(ids))
    first = ruleset.merchant_deck[0].id
    assert first in complete("experiment", "spice-road", "--remove", first)
    replacing = complete("experiment", "spice-road", "--replace", first)
    assert replacing and all(word.endswith("=") for word in replacing)
    assert f"{first}=" in replacing
    assert complete("experiment", "no-such-game", "--remove", "") == []
    assert complete("experiment", "spice") == ["spice-road", "spice-road-classic"]


def test_card_ids_of_a_variant_in_the_working_folder(elsewhere: Path) -> None:
    base = compiled().rulesets["spice-road"]
    assert complete("experiment", "house-rules", "--remove", base.point_deck[0].id) != []
