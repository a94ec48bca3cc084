"""A region of a card layout that ``extends`` another, which extends a third: the values
come down the chain to any depth, and a chain that comes back to its first region is a
located error (C328), in a variant validated as a user validates it."""

from __future__ import annotations

from typer.testing import CliRunner

from century import cli
from century.model.look import deck_regions, default_regions

SIZE = (63.0, 88.0)
CHAIN = {
    "title": {"x": 5, "y": 5, "width": 40, "height": 6, "size": 8},
    "text": {"extends": "title", "y": 60},
    "footer": {"extends": "text", "y": 80, "height": 4},
}


def test_a_region_takes_its_values_down_a_chain_of_any_depth():
    regions = deck_regions(SIZE, CHAIN, {})
    assert (regions["text"].x, regions["text"].y, regions["text"].width) == (5, 60, 40)
    footer = regions["footer"]
    assert (footer.x, footer.y, footer.width, footer.height, footer.size) == (5, 80, 40, 4, 8)
    # a deck's own layout may start the chain anew for its cards
    own = deck_regions(SIZE, CHAIN, {"title": {"x": 10}})
    assert (own["footer"].x, own["footer"].y) == (10, 80)


def test_a_cycle_resolves_to_defaults_without_recursing():
    cycle = {"title": {"extends": "text"}, "text": {"extends": "title", "y": 50}}
    regions = deck_regions(SIZE, cycle, {})
    default = default_regions(SIZE)
    # each region's chain stops where it would come back: the text starts from the title at
    # its default, the title from the text at its own
    assert (regions["text"].x, regions["text"].y) == (default["title"].x, 50)
    assert (regions["title"].x, regions["title"].y) == (default["text"].x, 50)


def variant(tmp_path, layout: str) -> CliRunner:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "laid.yaml").write_text(
        f"id: laid\nextends: spice-road\nlook:\n  layout:\n{layout}", encoding="utf-8"
    )
    return CliRunner()


def test_a_chain_validates_and_a_cycle_is_a_located_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = variant(
        tmp_path,
        "    title: {x: 4, y: 4, width: 55, height: 8}\n"
        "    footer: {extends: text, y: 80, height: 3}\n"
        "    text: {extends: title, y: 60}\n",
    )
    result = runner.invoke(cli.app, ["validate", "rules"])
    assert result.exit_code == 0, result.output
    assert "C328" not in result.output
    (tmp_path / "rules" / "laid.yaml").write_text(
        "id: laid\nextends: spice-road\nlook:\n  layout:\n"
        "    title: {extends: footer}\n    footer: {extends: title}\n",
        encoding="utf-8",
    )
    result = runner.invoke(cli.app, ["validate", "rules"])
    assert result.exit_code == 1, result.output
    assert (
        "rules/laid.yaml:5:22: error C328: the title region of the merchant cards extends "
        "footer, which extends title: a cycle"
    ) in result.output
    assert "Traceback" not in result.output
