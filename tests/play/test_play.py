"""`century play`: a scripted terminal game against bots, saved and replayed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from century import cli
from century.engine import load_engine

from helpers import bundled_rulesets, spice_road

runner = CliRunner()


def play(args: list[str], lines: list[str]):
    return runner.invoke(cli.app, ["play", "spice-road", *args], input="\n".join(lines) + "\n")


def test_scripted_game_help_mistakes_a_legal_move_and_quit(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    legal = load_engine(spice_road()).new_game(2, 42).legal_moves()
    illegal = "claim 1"
    assert illegal not in legal
    result = play(
        ["--seed", "42", "--bots", "greedy", "--record", str(record)],
        ["help", "fly to the moon", illegal, legal[0].upper(), "moves", "quit"],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "acquire <slot> <cubes>" in out  # help
    assert "illegal move: 'fly to the moon'" in out
    assert "illegal move: 'claim 1'" in out and "cannot pay" in out
    assert f"seat 1 (you): {legal[0]}" in out
    assert "seat 2 (greedy):" in out
    assert "Point cards:" in out and "Merchant cards:" in out and "caravan" in out
    assert "Your hand:" in out and "Legal moves:" in out
    assert "\x1b[" not in out  # no colour when stdout is not a terminal
    assert f"record saved to {record}" in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["rules"] == "spice-road" and data["seed"] == 42 and data["players"] == 2
    assert data["moves"][0] == legal[0]
    assert len(data["moves"]) == 2  # ours and the bot's answer
    assert data["seats"] == ["human", "greedy"]  # the record names who played
    replayed = load_engine(spice_road()).replay(data)
    assert {**replayed.record(), "seats": data["seats"]} == data
    assert replayed.current_player == 0


def test_moves_by_number_and_a_whole_game_to_the_end(tmp_path: Path) -> None:
    record = tmp_path / "whole.json"
    result = play(
        [
            "--seed",
            "5",
            "--seat",
            "2",
            "--players",
            "3",
            "--bots",
            "greedy,random",
            "--record",
            str(record),
        ],
        ["1"] * 3000,
    )
    assert result.exit_code == 0, result.output
    assert "Game over. Scores:" in result.output
    assert "seat 1 (greedy):" in result.output and "seat 3 (random):" in result.output
    data = json.loads(record.read_text(encoding="utf-8"))
    state = load_engine(spice_road()).replay(data)
    assert state.is_over()
    scores = ", ".join(f"seat {i + 1} {s}" for i, s in enumerate(state.scores()))
    assert f"Game over. Scores: {scores}" in result.output


def test_hint_and_colour(tmp_path: Path) -> None:
    result = play(
        ["--seed", "1", "--colour", "--record", str(tmp_path / "r.json")], ["hint", "quit"]
    )
    assert result.exit_code == 0, result.output
    assert "the greedy bot would play:" in result.output
    assert "\x1b[1;38;2;" in result.output  # cubes drawn in their resource colour


def test_end_of_input_saves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    result = play(["--seed", "9", "--record", str(record)], ["play +yy"])
    assert result.exit_code == 0
    assert "end of input" in result.output
    assert json.loads(record.read_text(encoding="utf-8"))["moves"][0] == "play +yy"


def test_bad_options_are_reported_without_traceback(tmp_path: Path) -> None:
    for args, message in [
        (["--seat", "3"], "--seat must be between 1 and 2"),
        (["--players", "7"], "2 to 5 players"),
        (["--bots", "greedy,greedy"], "2 bots for 1 other seats"),
        (["--bots", "wizard"], "unknown bot"),
    ]:
        result = play([*args, "--record", str(tmp_path / "x.json")], ["quit"])
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output
        assert "Traceback" not in result.output


def test_play_in_a_subprocess(tmp_path: Path) -> None:
    record = tmp_path / "sub.json"
    proc = subprocess.run(
        [sys.executable, "-m", "century", "play", "golem", "--seed", "2", "--record", str(record)],
        input="rest\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "seat 1 (you): rest" in proc.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["rules"] == "golem" and data["moves"][0] == "rest"
    golem = load_engine(bundled_rulesets()["golem"])
    assert golem.replay(data).record()["moves"] == data["moves"]


def test_an_unwritable_record_path_is_refused_before_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = play(["--seed", "1", "--record", str(blocker / "game.json")], ["rest", "quit"])
    assert result.exit_code == 2
    assert "is a file, not a folder" in result.output
    assert "your move>" not in result.output  # refused before any work
    assert "Traceback" not in result.output


COMPOSED_DECK = """\
effect,copies
choose (gain YYY | upgrade 2),10
gain YY then upgrade 1,10
repeat (pay Y then gain R) max 2,10
pay_any 2 then gain B,10
"""


def test_composed_cards_in_the_terminal(tmp_path: Path) -> None:
    """A merchant deck of composed cards (a table): the card's text, one entry per card with
    its ways asked next, the whole move typed again at the entry's prompt, and a misspelt
    card or choice answered with the move meant."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "composed.yaml").write_text(
        "id: composed\nextends: spice-road\ndecks: {merchant: merchant.csv}\n", "utf-8"
    )
    (rules / "merchant.csv").write_text(COMPOSED_DECK, "utf-8")
    record = tmp_path / "game.json"
    lines = [
        "help",
        "acquire 1",  # the leftmost card, {+yyy/up2} with seed 3
        "play {+yyy/up3}",
        "p {+yyy/up2}",
        "yy",
        "play {+yyy/up2} o2 ry",
        "quit",
    ]
    result = runner.invoke(
        cli.app,
        ["play", "composed", "--rules", str(rules), "--seed", "3", "--record", str(record)],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "play <card> <choices>" in out and "play {+yyy/up2} o2 y " in out  # help
    assert "1: {+yyy/up2}(either (+YYY) or (upgrade 2))" in out
    assert "[3] {+yyy/up2} o1-2 ·4" in out
    assert "N ways to play the card, or to pay, leave or upgrade cubes" in out
    assert "did you mean 'play {+yyy/up2}'?" in out
    assert "play {+yyy/up2}: 4 ways. Enter: play {+yyy/up2} o" in out
    assert "did you mean 'play {+yyy/up2} o2 yy'?" in out
    assert "seat 1 (you): play {+yyy/up2} o2 ry" in out  # typed again, cubes in any order
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["moves"][2] == "play {+yyy/up2} o2 yr"
