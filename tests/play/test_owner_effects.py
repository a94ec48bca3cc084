"""Owner effects (`century experiment --own`, `--own-all`) and rule experiments (`--set`):
seeded runs whose answer is known (a broken card, a useless one, an A/A change, a seat given
better cubes), the deal an owner plays, and the cache of the reference table."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.pipeline import compile_paths
from century.simulation.config import SimConfig
from century.simulation.game import deal, game_engine

runner = CliRunner()

BROKEN = "{kind: trade, pay: Y, get: BBB}"
"""One turmeric into three cinnamon, repeatable: a card no game should have."""
USELESS = "{kind: trade, pay: BBBB, get: Y}"
"""Four cinnamon into one turmeric: a card no one should play."""


def _run(tmp_path: Path, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "out"
    result = runner.invoke(
        cli.app, ["experiment", *args, "-q", "--workers", "1", "--out", str(out)]
    )
    return result.exit_code, result.output, out


def _levels(out: Path) -> dict[str, dict]:
    report = json.loads((out / "own.json").read_text("utf-8"))
    return {level["bots"]: level for level in report["levels"]}


def test_the_owner_holds_one_more_copy_and_the_deal_is_otherwise_the_same() -> None:
    rs = compile_paths().rulesets["spice-road"]
    engine = game_engine(rs)
    plain = SimConfig(4, 2, ("greedy", "greedy"), seed=1)
    owned = SimConfig(4, 2, ("greedy", "greedy"), seed=1, owned="yy-rr")
    for index in range(4):
        a = deal(engine, plain, index, 100 + index).to_dict(moves=False)
        b = deal(engine, owned, index, 100 + index).to_dict(moves=False)
        owner = index % 2
        assert sorted(b["seats"][owner]["hand"]) == sorted([*a["seats"][owner]["hand"], "yy-rr"])
        assert b["seats"][1 - owner] == a["seats"][1 - owner]
        for key in ("merchant_row", "merchant_deck", "point_row", "point_deck", "coins"):
            assert a[key] == b[key]
    unseen = SimConfig(4, 2, ("greedy", "greedy"), seed=1, unseen="yy-rr")
    for index in range(40):  # the card is in no row or deck of any deal
        data = deal(engine, unseen, index, index).to_dict(moves=False)
        row = [entry["card"] for entry in data["merchant_row"]]
        assert "yy-rr" not in row + data["merchant_deck"]
        assert len(row) == rs.merchant_row


@pytest.mark.slow
def test_a_broken_card_is_worth_much_to_its_owner_at_both_levels(tmp_path: Path) -> None:
    code, output, out = _run(tmp_path, "spice-road", "--own", BROKEN, "--games", "40")
    assert code == 0, output
    levels = _levels(out)
    assert set(levels) == {"greedy", "planner"}  # the two levels by default
    for level in levels.values():
        assert level["owner"]["ci95"][0] > 0.2  # more than 20 points, surely
        assert level["length"]["ci95"][1] < 0  # and the games end sooner
    assert "across levels: holds at every level: owning the card helps" in output
    assert f"one seat owning {BROKEN} from the start (40 paired games per level" in output
    html = (out / "own.html").read_text("utf-8")
    assert f"what owning {BROKEN} from the start is worth" in html
    assert "century experiment spice-road --own-all --games 40 --levels greedy,planner" in output


@pytest.mark.slow
def test_a_useless_card_is_worth_nothing_to_its_owner(tmp_path: Path) -> None:
    code, output, out = _run(
        tmp_path, "spice-road", "--own", USELESS, "--games", "60", "--levels", "greedy"
    )
    assert code == 0, output
    (level,) = _levels(out).values()
    low, high = level["owner"]["ci95"]
    assert low <= 0 <= high and high - low < 0.4
    assert "no effect shown at any level" in output


@pytest.mark.slow
def test_an_a_a_change_covers_zero(tmp_path: Path) -> None:
    """yy-rr taken out and put back as the same card at the end of the deck: the deals
    change, the game does not; no figure moves beyond noise. (Each 95% interval misses zero
    one time in twenty by chance; the seed is fixed, so the test is deterministic.)"""
    code, output, _ = _run(
        tmp_path,
        "spice-road",
        "--remove",
        "yy-rr",
        "--add",
        "{kind: trade, pay: YY, get: RR, id: yy-rr-again}",
        "--games",
        "150",
        "--seed",
        "1",
    )
    assert code == 0, output
    report = json.loads((tmp_path / "out" / "experiment.json").read_text("utf-8"))
    for effect in report["effects"]:
        low, high = effect["ci95"]
        assert low <= effect["difference"] <= high and low < 0 < high, effect


@pytest.mark.slow
def test_set_gives_a_seat_better_cubes_and_that_seat_wins_more(tmp_path: Path) -> None:
    code, output, out = _run(tmp_path, "spice-road", "--set", "setup.seats.1=BBBB", "--games", "60")
    assert code == 0, output
    report = json.loads((out / "experiment.json").read_text("utf-8"))
    seat1, seat2, _ = report["effects"]
    assert seat1["ci95"][0] > 0.1 and seat2["ci95"][1] < -0.1
    assert report["changes"]["set"] == ["setup.seats.1=BBBB"]
    assert "spice-road (set setup.seats.1=BBBB): 60 paired games" in output
    html = (out / "experiment.html").read_text("utf-8")
    assert "<h1>Experiment: Century: Spice Road, set setup.seats.1=BBBB</h1>" in html


@pytest.mark.slow
def test_bad_settings_and_owned_cards_are_refused_in_the_users_words(tmp_path: Path) -> None:
    cases = [
        (
            ["--set", "setupx.seats.1=Y"],
            2,
            "'setupx' is not a rule section (did you mean 'setup'?)",
        ),
        (["--set", "setup.seats.9=Y"], 2, "'9' is not a seat of setup.seats (1 to 5)"),
        (["--set", "caravan_limit"], 2, "write PATH=VALUE"),
        (["--set", "setup.seats=YYY"], 2, "setup.seats is a list"),
        (["--set", "caravan_limit=abc"], 1, "--set caravan_limit=abc: not a valid change: C"),
        (["--own", "yy-rx"], 2, "no card of that id in spice-road (did you mean 'yy-rr'?)"),
        (["--own", "{kind: trade, pay: Q, get: Y}"], 1, "--own '{kind: trade, pay: Q, get: Y}'"),
        (["--own", "yy-rr", "--remove", "yy-g"], 2, "--own and --own-all measure the game"),
        (["--levels", "greedy", "--remove", "yy-g"], 2, "--levels is for --own"),
        (["--own", "yy-rr", "--levels", "greedy,greedy"], 2, "name each bot once"),
        (["--own", "yy-rr", "--bots", "planner,greedy"], 2, "--levels A,B for two"),
        (["--own", "yy-rr", "--levels", "greedy,wizard"], 2, "error: unknown bot 'wizard'"),
    ]
    for args, exit_code, message in cases:
        code, output, out = _run(tmp_path, "spice-road", *args, "--games", "2")
        assert code == exit_code and message in output, (args, output)
        assert "century-experiment-" not in output and "changed.yaml" not in output
        assert not out.exists()


def test_owning_a_point_card_comes_with_the_value_model_check(tmp_path: Path) -> None:
    code, output, out = _run(
        tmp_path,
        "spice-road",
        "--own",
        "{cost: YY, points: 20}",
        "--games",
        "20",
        "--levels",
        "greedy",
    )
    assert code == 0, output
    assert "point card 'yy' gives 20 points; the deck's value model says 2" in output
    assert "warning C309" in output
    report = json.loads((out / "own.json").read_text("utf-8"))
    assert report["value_model"]["strays"] and report["placements"] == {}
    assert "--own-all" not in output  # the reference table holds merchant cards


@pytest.mark.slow
def test_the_reference_table_is_cached_by_content(tmp_path: Path) -> None:
    """The table is measured once, read back the same from the cache, and measured again
    when the game's data change; --own then places a card in it."""
    rules = tmp_path / "rules"
    rules.mkdir()
    variant = "id: small-hand\nextends: spice-road\ncaravan_limit: {limit}\n"
    (rules / "small.yaml").write_text(variant.format(limit=10), encoding="utf-8")
    args = ["small-hand", "--rules", str(rules), "--own-all", "--games", "4", "--levels", "greedy"]
    code, first, out = _run(tmp_path, *args)
    assert code == 0, first
    table = json.loads((out / "reference.json").read_text("utf-8"))
    assert "[cached]" not in first and len(table["cards"]) == 43
    assert "Owner effect of each merchant card" in (out / "own.html").read_text("utf-8")
    code, again, out = _run(tmp_path, *args)
    assert code == 0 and "[cached]" in again
    assert json.loads((out / "reference.json").read_text("utf-8")) == table
    assert again.splitlines()[1:] == first.splitlines()[1:]
    (cached,) = (Path(os.environ["CENTURY_CACHE_DIR"]) / "owner-effects").glob("small-hand-*")
    cut = json.loads(cached.read_text("utf-8"))
    cached.write_text(json.dumps({**cut, "cards": cut["cards"][:2]}), encoding="utf-8")
    code, remeasured, out = _run(tmp_path, *args)  # a table cut short is measured again
    assert code == 0 and "[cached]" not in remeasured
    assert json.loads((out / "reference.json").read_text("utf-8")) == table
    code, placed, _ = _run(
        tmp_path,
        "small-hand",
        "--rules",
        str(rules),
        "--own",
        BROKEN,
        "--games",
        "4",
        "--levels",
        "greedy",
    )
    assert code == 0 and "the strongest today: " in placed, placed
    report = tmp_path / "report"
    simulated = runner.invoke(
        cli.app,
        [
            *("simulate", "small-hand", "--rules", str(rules), "-n", "4", "--bots", "greedy"),
            *("-q", "--workers", "1", "--out", str(report)),
        ],
    )
    assert simulated.exit_code == 0, simulated.output
    html = (report / "report.html").read_text("utf-8")  # the balance report draws the table
    assert "Merchant cards: what owning each is worth" in html
    assert "century experiment small-hand --own-all</code>" in html
    (rules / "small.yaml").write_text(variant.format(limit=9), encoding="utf-8")
    code, changed, out = _run(tmp_path, *args)
    assert code == 0 and "[cached]" not in changed
    assert json.loads((out / "reference.json").read_text("utf-8"))["key"] != table["key"]


def test_a_change_that_alters_no_game_says_so_instead_of_sizing_an_answer(
    tmp_path: Path,
) -> None:
    code, output, _ = _run(
        tmp_path,
        "spice-road",
        "--replace",
        "yy-rr={kind: trade, pay: YY, get: RR, id: yy-rr-copy}",
        "--games",
        "6",
    )
    assert code == 0, output
    assert "no game's winner changed in these 6 paired games" in output
    assert "needs 1 paired games" not in output
