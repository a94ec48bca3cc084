"""`century play` as a person plays it: the moves grouped by card and slot so a decision fits
a screen, the cubes asked next with a default, prefixes, driven through a pseudo-terminal."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest

from century.cli.screen.table import list_choices
from century.engine import load_engine
from century.engine.choices import group_moves

from helpers import ROOT, spice_road

pexpect_runs = pytest.mark.skipif(
    sys.platform == "win32", reason="pexpect drives pseudo-terminals, which are POSIX's"
)


def largest_decision():
    """A Spice Road position like the largest of 60 random games (1,135 moves): a caravan of
    ten mixed cubes, three trade cards and the upgrade in hand, a full merchant row."""
    engine = load_engine(spice_road())
    data = engine.new_game(2, 1).to_dict(moves=False)
    hand = ["yyy-rg", "b-yrg", "gg-yyrrr"]
    data["merchant_deck"] = [card for card in data["merchant_deck"] if card not in hand]
    data["seats"][0]["caravan"] = "yyyrrrggbb"
    data["seats"][0]["hand"] += hand
    return engine.State.from_dict(data)


def test_the_largest_decision_fits_a_screen_one_entry_per_card_and_slot() -> None:
    state = largest_decision()
    moves = state.legal_moves()
    assert len(moves) > 1000
    choices = group_moves(moves, spice_road().codes)
    assert sorted(choice.move(o) for choice in choices for o in choice.options) == sorted(moves)
    listed = list_choices(choices, 96)
    assert len(listed.splitlines()) <= 10, listed
    assert "[11] 6 ·780" in listed and "[4] b-yrg x1-2" in listed
    by_key = {choice.key: choice for choice in choices}
    assert by_key["acquire 6"].default == "yyyrr"  # the cheapest five cubes to leave
    assert by_key["acquire 6"].why == "the cheapest cubes"
    assert by_key["play b-yrg"].default == "x2"  # the most trades
    assert by_key["rest"].options == ("",)


def test_the_default_of_an_upgrade_is_the_best_by_the_score_given() -> None:
    moves = ["play up2 yy", "play up2 yr", "play up2 y", "rest"]
    scores = {"play up2 yr": 5.0, "play up2 yy": 1.0}
    (upgrade, rest) = group_moves(moves, "yrgb", lambda move: scores.get(move, 0.0))
    assert upgrade.default == "yr" and upgrade.why == "the greedy bot's choice"
    assert upgrade.label == "up2 ·3" and rest.label == ""


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "COLUMNS", "LINES")}


@pytest.fixture
def terminal(tmp_path: Path):
    """`century play spice-road --seed 7` in a pseudo-terminal, 100 columns wide."""
    record = tmp_path / "game.json"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "century", "play", "spice-road", "--seed", "7", "--record", str(record)],
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 100),
        env={**_environment(), "NO_COLOR": "1", "TERM": "xterm"},
    )
    yield child, record
    child.close(force=True)


@pytest.mark.slow
@pexpect_runs
def test_play_in_a_terminal_asks_for_the_cubes_with_a_default(terminal) -> None:
    """Through a pseudo-terminal, as a person plays: the list names each card once with its
    number of ways; a prefix picks an entry, Enter takes its default, `?` lists the ways and a
    number or the cubes on the same line pick one; the record names the bots."""
    child, record = terminal
    child.expect("your move> ")
    listed = child.before
    assert "[2] up2 ·3" in listed and "[7]" in listed and "[8]" not in listed
    child.sendline("p up")  # the start of `play up2`
    child.expect(r"play up2: 3 ways\. Enter: play up2 yy \(the greedy bot's choice\)")
    child.expect("play up2> ")
    child.sendline("")
    child.expect(r"seat 1 \(you\): play up2 yy")
    child.expect("your move> ")
    assert "[4] 3 ·3" in child.before  # acquire 3: three ways to leave two cubes
    child.sendline("a 3 r")  # an entry and the start of its cubes on one line
    child.expect(r"2 ways of acquire 3 start with 'r': ry rr")
    child.expect("acquire 3> ")
    child.sendline("?")
    child.expect(r"\[1\] yr\s+\[2\] ry\s+\[3\] rr")
    child.expect("acquire 3> ")
    child.sendline("2")
    child.expect(r"seat 1 \(you\): acquire 3 ry")
    child.expect("your move> ")
    child.sendline("a")
    child.expect("'a' could be acquire 1, acquire 2: type more of it")
    child.expect("your move> ")
    child.sendline("3")  # acquire 2, whose one way needs no question
    child.expect(r"seat 1 \(you\): acquire 2 r")
    child.expect("your move> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["seats"] == ["human", "greedy"]
    assert data["moves"][0::2] == ["play up2 yy", "acquire 3 ry", "acquire 2 r"]


def test_a_composed_cards_moves_are_one_entry_with_the_range_of_their_first_choice() -> None:
    from century.engine.choices import near_options

    moves = [
        "play {+yyy/up2} o1",
        "play {+yyy/up2} o2 y",
        "play {+yyy/up2} o2 yr",
        "play {any1-+b}x2 x1 y",
        "play {any1-+b}x2 x2 y r",
        "play +yy.up1 y",
        "play +yy.up1 r",
        "rest",
    ]
    scores = {"play {+yyy/up2} o2 yr": 3.0}
    choose, repeat, steps, rest = group_moves(moves, "yrgb", lambda m: scores.get(m, 0.0))
    assert choose.options == ("o1", "o2 y", "o2 yr")
    assert (choose.label, choose.default, choose.why) == (
        "{+yyy/up2} o1-2 ·3",
        "o2 yr",
        "the greedy bot's choice",
    )
    assert repeat.label == "{any1-+b}x2 x1-2 ·2" and steps.label == "+yy.up1 ·2"
    assert sorted(c.move(o) for c in (choose, repeat, steps, rest) for o in c.options) == sorted(
        moves
    )
    assert near_options(choose, "ry") == ["o2 yr"]  # the cubes without o2, in any order
    assert near_options(repeat, "y r") == ["x2 y r"]
    assert near_options(choose, "o2 yq") == ["o2 y", "o2 yr"]  # close in spelling
    assert near_options(choose, "o3") == []
