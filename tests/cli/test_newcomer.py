"""What a newcomer runs into first, answered in century's own words: a misspelt game id, base
game or move gets a guess, a bad number of games is said plainly, and a missing file is not
given a made-up line and column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.cli import plain_usage

runner = CliRunner()


def century(*args: str, input: str | None = None):
    return runner.invoke(cli.app, list(args), input=input)


@pytest.mark.parametrize("command", ["show", "ruleset", "deck export"])
def test_an_unknown_game_id_gets_a_guess(command: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = [*command.split(), "spice-raod", *(["merchant"] if command == "deck export" else [])]
    result = century(*args)
    assert result.exit_code == 2
    assert "unknown game 'spice-raod'; did you mean 'spice-road'" in result.stderr
    assert "(known: golem, spice-road, spice-road-classic)" in result.stderr
    far = century("show", "zzz")
    assert "did you mean" not in far.stderr and "unknown game 'zzz' (known:" in far.stderr


def test_an_unknown_base_game_gets_a_guess_and_never_lists_the_variant(
    tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-raod\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = century("validate", "--format", "json")
    [found] = json.loads(result.stdout)
    assert found["code"] == "C201"
    assert found["hint"] == (
        "did you mean 'spice-road'? (known: golem, spice-road, spice-road-classic)"
    )
    (tmp_path / "rules" / "house.yaml").write_text("id: house\nextends: zzz\n", encoding="utf-8")
    [found] = json.loads(century("validate", "--format", "json").stdout)
    assert found["hint"] == "known: golem, spice-road, spice-road-classic"


def test_a_misspelt_move_gets_a_guess(tmp_path: Path) -> None:
    result = century(
        "play", "spice-road", "--seed", "1", "--record", str(tmp_path / "game.json"),
        input="aquire 2\nrset\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "illegal move: 'aquire 2'" in result.output
    assert "did you mean 'acquire 2'?" in result.output
    assert "did you mean 'rest'?" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "spice-road", "--games", "0"],
        ["experiment", "spice-road", "--remove", "yy-rr", "--games", "0"],
        ["bots", "spice-road", "--games", "0"],
    ],
)
def test_no_games_is_said_in_centurys_words(args: list[str], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = century(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --games must be 1 or more")
    assert "Input should" not in result.stderr and "Invalid value" not in result.stderr
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        (
            "Invalid value for '--games' / '-n': Input should be greater than or equal to 1",
            "--games must be 1 or more",
        ),
        (
            "Invalid value for '--games' / '-n': Input should be less than or equal to 9",
            "--games must be at most 9",
        ),
        ("Invalid value for '--games' / '-n': 0 is not in the range x>=1.", "--games must be 1 or "
         "more, not 0"),
        (
            "Invalid value for '--games' / '-n': 0 is not in the range 1<=x<=1000000.",
            "--games must be 1 or more and at most 1000000, not 0",
        ),
        (
            "Invalid value for '--games' / '-n' (env var: 'None'): 0 is not in the range "
            "1<=x<=1000000.",
            "--games must be 1 or more and at most 1000000, not 0",
        ),
        (
            "Invalid value for '--workers' / '-w': 'x' is not a valid integer.",
            "--workers must be a whole number, not 'x'",
        ),
        ("No such option: --lang", "No such option: --lang"),
    ],
)  # fmt: skip
def test_typers_words_for_a_bad_number_become_centurys(said: str, plain: str) -> None:
    """Newer typers say it in pydantic's words, older ones in click's: both read the same."""
    assert plain_usage(said) == plain


def test_a_missing_file_has_no_made_up_line_and_column(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = century("build", "nosuch.yaml")
    assert result.exit_code == 1
    assert result.stderr.startswith("nosuch.yaml: error C001: no such file or folder: nosuch.yaml")
    assert ":1:1" not in result.stderr
    [found] = json.loads(century("validate", "--format", "json", "nosuch.yaml").stdout)
    assert (found["line"], found["col"]) == (0, 0)
    github = century("validate", "--format", "github", "nosuch.yaml").stdout
    assert github.startswith("::error file=nosuch.yaml,title=C001 ")
    sarif = json.loads(century("validate", "--format", "sarif", "nosuch.yaml").stdout)
    [location] = sarif["runs"][0]["results"][0]["locations"]
    assert location == {"physicalLocation": {"artifactLocation": {"uri": "nosuch.yaml"}}}
    replay = century("replay", "missing.json")
    assert replay.exit_code == 1 and "missing.json: error C001: no such file" in replay.stderr


@pytest.mark.parametrize("delimiter", [";", ","])
def test_a_caret_in_a_table_stops_at_its_cell_whatever_the_delimiter(
    delimiter: str, tmp_path: Path, monkeypatch
) -> None:
    """German and French spreadsheets save CSV with ``;``: the caret stays under the cell."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "cards").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ndecks: {merchant: ../cards/merchant.csv}\n",
        encoding="utf-8",
    )
    rows = ["kind;get;pay;steps", "trade;GX;B;", *["gain;YR;;"] * 7]
    table = "\n".join(row.replace(";", delimiter) for row in rows) + "\n"
    (tmp_path / "cards" / "merchant.csv").write_text(table, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = century("validate")
    frame = result.stderr.split("error C302", 1)[1].splitlines()
    source, carets = frame[2], frame[3]
    assert source.endswith(f"trade{delimiter}GX{delimiter}B{delimiter}")
    assert carets.rstrip().endswith(" ^^") and carets.index("^") == source.index("GX")


def test_the_reports_figures_have_one_precision(tmp_path: Path, monkeypatch) -> None:
    """No four-decimal means beside one-decimal percentages: every measured figure that is
    not a percentage has two decimals, as the differences have."""
    import re

    monkeypatch.chdir(tmp_path)
    args = ["simulate", "spice-road", "-n", "6", "-b", "greedy", "-w", "1", "-q", "-o", "rep"]
    result = century(*args)
    assert result.exit_code == 0, result.output
    html = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    text = re.sub(r"<svg.*?</svg>|<style.*?</style>", "", html, flags=re.S)
    assert not re.findall(r"\d\.\d{3,}", text)
    two = r"\d+\.\d\d"
    assert re.search(rf"Rounds: mean {two} \(95% interval {two}–{two}\), sd {two}", text)
    assert re.search(rf"Winning score: mean {two},", text)
    assert re.search(rf"<td>{two}</td><td>{two}</td></tr>", text)  # a seat's mean score and sd


@pytest.mark.parametrize("width", [60, 80, 100])
def test_the_board_is_wrapped_to_the_terminal_between_cards(width: int) -> None:
    """At 80 or 100 columns no card or coin label is cut in the middle: each line fits, and
    every card is whole on one line (colour codes take no width)."""
    from century.cli.screen.table import Painter, card_text, draw, visible_width
    from century.engine import load_engine

    from helpers import spice_road

    ruleset = spice_road()
    engine = load_engine(ruleset)
    state = engine.new_game(4, 7)
    paint = Painter(ruleset, colour=True)
    labels = ["you", "greedy", "greedy", "greedy"]
    board = draw(engine, state, ruleset, 0, labels, paint, width=width)
    lines = board.splitlines()
    assert all(visible_width(line) <= width for line in lines), board
    view = state.view()
    cards = [card_text(engine, engine.CARDS[i], paint) for i in view.merchant_row]
    cards += [card_text(engine, engine.CARDS[i], paint) for i in view.hand(0)]
    assert all(any(card in line for line in lines) for card in cards)
    for label in ("gold coin (3), 8 left", "silver coin (1), 8 left"):  # whole on a line
        assert any(label in line for line in lines), label
    whole = draw(engine, state, ruleset, 0, labels, paint)  # no width: one line per row
    assert len(whole.splitlines()) == 5 + len(labels)  # round, rows, seats, hand, played


def test_play_wraps_the_board_to_the_columns_of_the_terminal(tmp_path: Path) -> None:
    record = str(tmp_path / "game.json")
    result = runner.invoke(
        cli.app,
        ["play", "spice-road", "--seed", "7", "--players", "4", "--record", record],
        input="quit\n",
        env={"COLUMNS": "60"},
    )
    assert result.exit_code == 0, result.output
    board = result.output.split("Round 1", 1)[1].split("Legal moves", 1)[0]
    assert max(len(line) for line in board.splitlines()) <= 60
    assert "\n                3: " in board  # a row goes on under its first card


@pytest.mark.parametrize("sources", [True, False])
def test_show_names_every_cards_id(sources: bool, tmp_path: Path, monkeypatch) -> None:
    """The ids `remove:`, `replace:` and `experiment --remove` take, where a designer reads the
    game: each card's line ends in ``# id ...`` (before its source), the YAML unchanged."""
    import re

    import yaml

    from helpers import spice_road

    monkeypatch.chdir(tmp_path)
    result = century("show", "spice-road", *([] if sources else ["--no-sources"]))
    assert result.exit_code == 0, result.output
    shown = re.findall(r"^\s+- \{.*\}  # id (\S+)", result.stdout, re.M)
    ruleset = spice_road()
    decks = (ruleset.merchant_deck, ruleset.point_deck, ruleset.starting_cards)
    assert sorted(shown) == sorted({card.id for deck in decks for card in deck})
    assert re.search(r"- \{kind: trade, pay: YY, get: G\}  # id yy-g", result.stdout)
    if sources:
        assert re.search(r"# id yy-g · <bundled>/cards/spice-road/merchant\.yaml:\d+$",
                         result.stdout, re.M)  # fmt: skip
    else:
        assert yaml.safe_load(result.stdout)["id"] == "spice-road"


def test_build_given_a_game_id_says_what_it_takes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    typo = century("build", "spice-raod")
    assert typo.exit_code == 2
    assert typo.stderr.startswith(
        "error: no file or folder 'spice-raod' (did you mean the game 'spice-road'?): "
        "`century build` takes rules files or folders"
    )
    game = century("build", "spice-road")
    assert game.exit_code == 2 and game.stderr.startswith("error: 'spice-road' is a game id: ")
    assert not (tmp_path / "build").exists()
    other = century("build", "nosuch")  # no game near it: the missing path, as validate says
    assert other.exit_code == 1 and other.stderr.startswith("nosuch: error C001:")


@pytest.mark.parametrize(("named", "kind"), [("point", "merchant"), ("merchant", "point")])
def test_a_deck_of_the_wrong_kind_is_an_error_not_a_crash(
    named: str, kind: str, tmp_path: Path, monkeypatch
) -> None:
    """The checks after C307 read each deck as its own kind (a point card's cost): they are
    not run on a deck of another kind."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "cards").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        f"id: house\nextends: spice-road\ndecks: {{{named}: ../cards/deck.yaml}}\n",
        encoding="utf-8",
    )
    card = "{kind: gain, get: YY}" if kind == "merchant" else "{cost: YYRR, points: 6}"
    (tmp_path / "cards" / "deck.yaml").write_text(
        f"deck: {kind}\ncards:\n  - {card}\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = century("validate", "--format", "json")
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert result.exit_code == 1 and not crashed, result.output
    found = json.loads(result.stdout)
    assert any(
        d["code"] == "C307" and d["message"] == f"a {kind} deck is used as the {named} deck"
        for d in found
    )
