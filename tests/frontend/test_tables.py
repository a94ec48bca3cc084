"""Deck tables (CSV, TSV): read as YAML decks are, written by `century deck export`, and read
back into the same game. The broken tables are the case corpus in tests/cases/tables/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.base.diagnostics import DiagnosticError
from century.frontend.csvdeck import load_table
from century.pipeline import compile_paths

from helpers import COMPOSED as HALF_COMPOSED
from helpers import COMPOSED_ID, bundled_rulesets, position

DECKS = ("merchant", "point", "starting")
SAME_GAME = {"id", "name", "extends", "variant_of", "sources", "source_hash"}
"""The fields of a ruleset that name it, the game it extends and its files rather than say
how it plays."""


def invoke(folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(folder)
    return CliRunner().invoke(cli.app, list(args), catch_exceptions=False)


def plays(ruleset) -> dict:
    return {k: v for k, v in ruleset.to_json().items() if k not in SAME_GAME}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(bundled_rulesets()))
def test_every_bundled_deck_exported_and_read_back_is_the_same_game(game, tmp_path, monkeypatch):
    """Each deck of each bundled game, as CSV, TSV and YAML, named by a variant in a fresh
    project: the variant plays exactly as the game does."""
    (tmp_path / "rules").mkdir()
    files = {}
    for deck in DECKS:
        for fmt in ("csv", "tsv", "yaml"):
            name = f"cards/{deck}.{fmt}"
            result = invoke(tmp_path, monkeypatch, "deck", "export", game, deck, "--out", name)
            assert result.exit_code == 0, result.output
            files[deck, fmt] = name
    original = bundled_rulesets()[game]
    for fmt in ("csv", "tsv", "yaml"):
        decks = ", ".join(f"{deck}: ../{files[deck, fmt]}" for deck in DECKS)
        (tmp_path / "rules" / "again.yaml").write_text(
            f"id: again\nextends: {game}\ndecks: {{{decks}}}\n", encoding="utf-8"
        )
        compiled = compile_paths([tmp_path / "rules"])
        assert not compiled.diagnostics, [d.format() for d in compiled.diagnostics]
        assert plays(compiled.rulesets["again"]) == plays(original), fmt


def test_a_variants_changes_are_exported(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ncards:\n  merchant:\n    remove: [r-yyy]\n"
        "    add: [{kind: trade, pay: B, get: RRRR,"
        " name: {en: Spice Bazaar, de: Basar, fr: Bazar}}]\n",
        encoding="utf-8",
    )
    result = invoke(tmp_path, monkeypatch, "deck", "export", "house", "merchant")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "kind,get,pay,steps,name.en,name.de,name.fr"
    assert "trade,RRRR,B,,Spice Bazaar,Basar,Bazar" in lines
    assert "trade,YYY,R," not in lines
    assert len(lines) == 1 + 43


def test_a_table_reads_spreadsheet_habits():
    raw = (
        "\ufeffKind ; Get;pay;STEPS;copies;id;name.en;name.de\r\n"
        'trade;G;YY;;2;;"Bazaar; old";"Basar ""alt"""\r\n'
        "upgrade;;;3;;;;\r\n"
        'gain;YR;;;;+mine;" two\r\nlines";x\r\n'
        ";;;;;;;\r\n\r\n"
    ).encode()
    table = load_table(raw, "deck.csv", "merchant")
    cards = table.node.plain()["cards"]
    assert cards[0] == {
        "kind": "trade",
        "get": "G",
        "pay": "YY",
        "copies": 2,
        "name": {"en": "Bazaar; old", "de": 'Basar "alt"'},
    }
    assert cards[1] == {"kind": "upgrade", "steps": 3}
    assert cards[2]["id"] == "+mine"  # an id that starts with + is data, not a formula
    assert cards[2]["name"]["en"] == " two\nlines"  # quoted: kept as written
    assert len(cards) == 3  # empty rows are no cards
    third = table.node.value["cards"].value[2]
    assert (third.value["name"].value["en"].mark.line, third.mark.line) == (4, 4)
    assert table.node.value["cards"].value[1].value["steps"].mark.col == 11


def test_a_header_typo_gets_a_did_you_mean():
    with pytest.raises(DiagnosticError) as err:
        load_table(b"kind,get,pay,setps\nupgrade,,,3\n", "deck.csv", "merchant")
    [found] = err.value.diagnostics
    assert (found.code, found.line, found.col) == ("C101", 1, 14)
    assert found.hint == "did you mean 'steps'?"


@pytest.mark.parametrize(
    ("cell", "code"),
    [("=1+2", "C025"), ("@SUM(A1)", "C025"), ("+3", None), ("-1", None), ("-x", "C025")],
)
def test_formulas_are_refused_and_signed_numbers_are_numbers(cell, code):
    raw = f"kind,steps\nupgrade,{cell}\n".encode()
    if code is None:
        table = load_table(raw, "deck.csv", "merchant")
        assert table.node.plain()["cards"][0]["steps"] == int(cell)
        return
    with pytest.raises(DiagnosticError) as err:
        load_table(raw, "deck.csv", "merchant")
    assert [(d.code, d.line, d.col) for d in err.value.diagnostics] == [(code, 2, 9)]


def test_a_table_error_is_located_at_its_cell_in_text(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "cards").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ndecks: {point: ../cards/points.csv}\n", encoding="utf-8"
    )
    (tmp_path / "cards" / "points.csv").write_text(
        "cost;points\nYYRR;6\nYYXRR;7\n", encoding="utf-8"
    )
    result = invoke(tmp_path, monkeypatch, "validate")
    assert result.exit_code == 1
    assert "cards/points.csv:3:1: error C302: unknown resource code X in 'YYXRR'" in result.stderr
    built = invoke(tmp_path, monkeypatch, "build")
    assert built.exit_code == 1
    assert not (tmp_path / "build").exists()  # nothing written


def test_a_table_no_game_uses_is_reported(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text("id: house\nextends: spice-road\n", "utf-8")
    (tmp_path / "rules" / "loose.csv").write_text("cost,points\nYYRR,6\n", "utf-8")
    (tmp_path / "rules" / "notes.csv").write_text("date,what\n2024-01-01,tried it\n", "utf-8")
    result = invoke(tmp_path, monkeypatch, "validate", "--format", "json")
    assert result.exit_code == 0, result.output
    found = {(d["file"], d["code"], d["severity"]) for d in json.loads(result.stdout)}
    assert found == {
        ("rules/loose.csv", "C018", "warning"),
        ("rules/notes.csv", "C022", "warning"),  # not a deck table: skipped, never quoted
    }


def test_export_refuses_what_a_spreadsheet_would_run(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ncards:\n  merchant:\n"
        "    add: [{kind: gain, get: BB,"
        " name: {en: '=HYPERLINK(1)', de: Basar, fr: '=HYPERLINK(1)'}}]\n",
        encoding="utf-8",
    )
    result = invoke(tmp_path, monkeypatch, "deck", "export", "house", "merchant", "-o", "m.csv")
    assert result.exit_code == 1
    assert "which a spreadsheet reads as a formula" in result.stderr
    assert not (tmp_path / "m.csv").exists()
    assert (
        invoke(tmp_path, monkeypatch, "deck", "export", "house", "merchant", "-f", "yaml").exit_code
        == 0
    )


def test_export_never_replaces_a_file_unasked_nor_an_input(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "points.csv").write_text("cost,points\nYYRR,6\n" * 1, "utf-8")
    mine = tmp_path / "cards" / "mine.csv"
    mine.write_text("my notes\n", "utf-8")
    result = invoke(tmp_path, monkeypatch, "deck", "export", "spice-road", "point", "-o", str(mine))
    assert result.exit_code == 1 and "exists (use --force" in result.stderr
    assert mine.read_text("utf-8") == "my notes\n"
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ndecks: {merchant: ../cards/m.csv}\n", encoding="utf-8"
    )
    assert (
        invoke(
            tmp_path, monkeypatch, "deck", "export", "spice-road", "merchant", "-o", "cards/m.csv"
        ).exit_code
        == 0
    )
    again = invoke(
        tmp_path, monkeypatch, "deck", "export", "house", "merchant", "-o", "cards/m.csv", "--force"
    )
    assert again.exit_code == 1 and "is an input of this run" in again.stderr
    assert invoke(tmp_path, monkeypatch, "deck", "export", "house", "nope").exit_code == 2


COMPOSED = (
    "id: house\nextends: spice-road\ncards:\n  merchant:\n    add:\n"
    "      - {effect: [gain: YY, upgrade: 1],"
    " name: {en: 'Mixed, Bag', de: Beutel, fr: 'Mixed, Bag'}}\n"
    "      - {effect: [choose: [[gain: YYY], [upgrade: 2]]], copies: 2}\n"
    "      - {effect: [{repeat: [pay: Y, gain: R], max: 2}]}\n"
    "      - {effect: [pay_any: 2, gain: B], id: bag}\n"
    "      - {effect: [choose: [[{repeat: [pay: RR, gain: G]}], [pay_any: 1, gain: RR]]]}\n"
    "      - {effect: [{repeat: [gain: Y, upgrade: 1], max: 3}]}\n"
)


_CELLS = [
    "gain YY then upgrade 1",
    "choose (gain YYY | upgrade 2)",
    "repeat (pay Y then gain R) max 2",
    "pay_any 2 then gain B",
    "choose (repeat (pay RR then gain G) | pay_any 1 then gain RR)",
    "repeat (gain Y then upgrade 1) max 3",
]


@pytest.mark.parametrize("fmt", ["csv", "tsv", "yaml"])
def test_composed_cards_are_exported_in_the_effect_column_and_read_back(fmt, tmp_path, monkeypatch):
    """Composed cards go out in one `effect` cell each (short forms keep their kind columns)
    and come back as the same game."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(COMPOSED, encoding="utf-8")
    name = f"cards/merchant.{fmt}"
    result = invoke(tmp_path, monkeypatch, "deck", "export", "house", "merchant", "-o", name)
    assert result.exit_code == 0, result.output
    text = (tmp_path / name).read_text("utf-8")
    if fmt == "yaml":
        assert "  - {effect: [{gain: YY}, {upgrade: 1}], name: {en: 'Mixed, Bag'" in text
    else:
        rows = [line.split("\t" if fmt == "tsv" else ",") for line in text.splitlines()]
        assert rows[0][:5] == ["kind", "get", "pay", "steps", "effect"]
        assert [row[4] for row in rows[-6:]] == _CELLS
        assert ["trade", "RRRGG", "BB", "", ""] in [row[:5] for row in rows]
    (tmp_path / "rules" / "again.yaml").write_text(
        f"id: again\nextends: spice-road\ndecks: {{merchant: ../{name}}}\n", encoding="utf-8"
    )
    compiled = compile_paths([tmp_path / "rules"])
    assert not compiled.diagnostics, [d.format() for d in compiled.diagnostics]
    assert plays(compiled.rulesets["again"]) == plays(compiled.rulesets["house"])


def test_an_effect_cell_is_located_to_its_word():
    """The steps of an effect cell stand where they are written (after the spaces an unquoted
    cell drops, after a quote, on the lines of a quoted cell), and so does a notation error."""
    raw = (
        b"effect;name.en\n"
        b"  repeat (pay Y then gain R) max 2 ;y\n"
        b'"choose (gain YYY |\nupgrade 2)";z\n'
    )
    cards = load_table(raw, "deck.csv", "merchant").node.value["cards"].value
    repeat = cards[0].value["effect"].value[0]
    assert repeat.plain() == {"repeat": [{"pay": "Y"}, {"gain": "R"}], "max": 2}
    assert (repeat.mark.line, repeat.mark.col, repeat.value["max"].mark.col) == (2, 3, 34)
    upgrade = cards[1].value["effect"].value[0].value["choose"].value[1].value[0]
    assert (upgrade.mark.line, upgrade.mark.col, upgrade.value["upgrade"].mark.col) == (4, 1, 9)
    bad = b'effect;name.en\n"gain YY then\nupgrade 1 then gian R";x\n'
    with pytest.raises(DiagnosticError) as err:
        load_table(bad, "deck.csv", "merchant")
    [found] = err.value.diagnostics
    assert (found.code, found.line, found.col, found.message, found.hint) == (
        "C104",
        3,
        16,
        "effect: expected a step, got 'gian'",
        "did you mean 'gain'?",
    )


def test_composed_cards_from_a_table_play_in_a_built_engine(tmp_path):
    """Composed cards of a CSV merchant deck in a hand: the engine lists their plays and
    plays them (an upgrade's cubes, a choice, a repeat's times)."""
    from century.engine import load_engine

    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "table.yaml").write_text(
        "id: table\nextends: spice-road\ndecks: {merchant: merchant.csv}\n", encoding="utf-8"
    )
    (tmp_path / "rules" / "merchant.csv").write_text(
        "kind,get,pay,effect\ngain,YR,,\ntrade,G,YY,\ntrade,B,RR,\n"
        ",,,gain YY then upgrade 1\n,,,choose (gain YYY | upgrade 2)\n"
        ",,,repeat (pay Y then gain R) max 2\n",
        encoding="utf-8",
    )
    compiled = compile_paths([tmp_path / "rules"])
    assert not compiled.diagnostics, [d.format() for d in compiled.diagnostics]
    ruleset = compiled.rulesets["table"]
    assert [card.kind for card in ruleset.merchant_deck[3:]] == ["composed"] * 3
    engine = load_engine(ruleset)
    hand = ["+yy.up1", "{+yyy/up2}", "y-rx2"]
    state = position(engine, seats=[{"caravan": "yyr", "hand": hand}, {}])
    moves = state.legal_moves()
    assert {"play +yy.up1 y", "play +yy.up1 r", "play {+yyy/up2} o1"} <= set(moves)
    assert {"play {+yyy/up2} o2 yr", "play y-rx2 x1", "play y-rx2 x2"} <= set(moves)
    state.play("play {+yyy/up2} o2 yr")
    assert state.cubes(0) == "yrg"


def test_an_effect_the_notation_cannot_give_back_is_not_exported():
    from century.frontend.deckfile import ExportProblem, table

    assert table("merchant", [{"effect": [{"pay_any": 2}, {"gain": "B"}]}], ["en"]) == (
        b"effect\npay_any 2 then gain B\n"
    )
    with pytest.raises(ExportProblem, match="card 1 of the merchant deck: the effect 'gain THEN'"):
        table("merchant", [{"effect": [{"gain": "THEN"}]}], ["en"])


def test_a_row_without_kind_or_steps_is_told_either_will_do():
    from century.frontend.csvdeck import check_table

    table = load_table(b"effect,copies\ngain YY then upgrade 1,2\n,3\n", "deck.csv", "merchant")
    [found] = check_table(table)
    assert (found.code, found.line, found.col) == ("C102", 1, 1)
    assert found.hint == "add a 'kind' column, or write the card's steps in its 'effect' cell"


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_the_half_composed_market_is_exported_and_read_back(fmt, tmp_path, monkeypatch):
    """The tests' variant whose market is half composed cards: its merchant deck as a table
    plays as the variant does."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "composed.yaml").write_text(HALF_COMPOSED, encoding="utf-8")
    name = f"cards/merchant.{fmt}"
    result = invoke(tmp_path, monkeypatch, "deck", "export", COMPOSED_ID, "merchant", "-o", name)
    assert result.exit_code == 0, result.output
    text = (tmp_path / name).read_text("utf-8")
    assert "choose (repeat (pay YY then gain G) | repeat (pay RR then gain B))" in text
    (tmp_path / "rules" / "again.yaml").write_text(
        f"id: again\nextends: spice-road\ndecks: {{merchant: ../{name}}}\n", encoding="utf-8"
    )
    compiled = compile_paths([tmp_path / "rules"])
    assert not compiled.diagnostics, [d.format() for d in compiled.diagnostics]
    assert plays(compiled.rulesets["again"]) == plays(compiled.rulesets[COMPOSED_ID])


@pytest.mark.parametrize("fmt", ["csv", "yaml"])
def test_cards_own_texts_are_exported_per_language_and_read_back(fmt, tmp_path, monkeypatch):
    """A card's `text` goes out as text.<lang> columns (a YAML deck keeps it as it is) and
    comes back as the same texts, a comma and an icon mark in them."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\nlanguages: [en, de]\ncards:\n  merchant:\n    add:\n"
        '      - {kind: trade, pay: B, get: RRRR, text: {en: "Pay [B], then rest.", '
        'de: "Zahle [B], dann ruhe."}}\n',
        encoding="utf-8",
    )
    name = f"cards/merchant.{fmt}"
    result = invoke(tmp_path, monkeypatch, "deck", "export", "house", "merchant", "-o", name)
    assert result.exit_code == 0, result.output
    if fmt == "csv":
        lines = (tmp_path / name).read_text("utf-8").splitlines()
        assert lines[0] == "kind,get,pay,steps,text.en,text.de"
        assert 'trade,RRRR,B,,"Pay [B], then rest.","Zahle [B], dann ruhe."' in lines
    (tmp_path / "rules" / "again.yaml").write_text(
        f"id: again\nextends: spice-road\nlanguages: [en, de]\ndecks: {{merchant: ../{name}}}\n",
        encoding="utf-8",
    )
    compiled = compile_paths([tmp_path / "rules"])
    assert not compiled.diagnostics, [d.format() for d in compiled.diagnostics]
    again, house = compiled.rulesets["again"], compiled.rulesets["house"]
    assert plays(again) == plays(house)
    assert again.look is not None and house.look is not None
    assert (
        again.look.texts
        == house.look.texts
        == {"b-rrrr": {"en": "Pay [B], then rest.", "de": "Zahle [B], dann ruhe."}}
    )
