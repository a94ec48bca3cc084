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
    assert f"what owning y-bbb = {BROKEN} from the start is worth" in html
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
    assert "verdict: at greedy: no effect shown (the interval covers zero)" in output


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
        (["--own", "{kind: trade, pay: Q, get: Y}"], 1, "--own:1:20: error C302"),
        (
            ["--own", "yy-rr", "--versus", "{kind: trade, pay: Q, get: Y}"],
            1,
            "--versus:1:20: error C302",
        ),
        (["--own", "yy-rr", "--versus", "yy-rx"], 2, "--versus 'yy-rx': no card of that id"),
        (["--versus", "yy-rr"], 2, "--versus B compares two versions of a card: give one --own A"),
        (["--own", "yy-rr", "--own", "+yr", "--versus", "yy-rr"], 2, "give one --own A"),
        (["--own", "yy-rr", "--remove", "yy-g"], 2, "--own, --own-all and --row measure the game"),
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
    assert code == 0 and "    verdict: " in placed, placed
    assert any(f"verdict: {word}" in placed for word in ("too strong", "within the band", "weak"))
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


def _planted_table(rs: object, levels: tuple[str, ...], low: float, high: float) -> None:
    """Write a reference table into the cache at the key `--own` looks it up by: the game's
    merchant cards spread evenly from `high` (the first) to `low` (the last) at every level,
    each ±5 points; a band planted to place measured cards in."""
    from century.experiments import owner

    plan = owner.Plan(60, 2, levels)
    ids = owner.merchant_ids(rs)  # type: ignore[arg-type]
    step = (high - low) / (len(ids) - 1)

    def entry(level: str, value: float) -> dict:
        effect = {
            "difference": value,
            "a": 0.5,
            "b": 0.5 + value,
            "ci95": [value - 0.05, value + 0.05],
        }
        length = {"difference": 0.0, "a": 40.0, "b": 40.0, "ci95": [-1.0, 1.0]}
        return {"bots": level, "owner": {**effect, "significant": True}, "length": length}

    cards = [
        {"card": card, "levels": [entry(level, high - i * step) for level in levels]}
        for i, card in enumerate(ids)
    ]
    table = {
        "own_version": owner.OWN_VERSION,
        "key": owner.table_key(rs, plan),  # type: ignore[arg-type]
        "game": rs.id,  # type: ignore[attr-defined]
        "source_hash": rs.source_hash,  # type: ignore[attr-defined]
        "plan": plan.to_json(),
        "cards": cards,
    }
    path = owner.table_path(rs, plan)  # type: ignore[arg-type]
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table), encoding="utf-8")


@pytest.mark.slow
def test_the_verdict_places_a_broken_an_ordinary_and_a_useless_card_in_the_band(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game whose cards are worth +10 to +30 points to their owners at greedy (planted in
    the cache): a broken card (+47 in 60 deals) is above every card, yy-rr (+13) within the
    band, and a useless one (+5) below every card; the HTML draws the card among them."""
    monkeypatch.setenv("CENTURY_CACHE_DIR", str(tmp_path / "cache"))  # the band stays here
    rs = compile_paths().rulesets["spice-road"]
    _planted_table(rs, ("greedy",), 0.10, 0.30)
    expected = [
        (
            BROKEN,
            "verdict: too strong: above every card of Century: Spice Road (+47 against "
            "the strongest, +30 +g; its interval lies wholly above it)",
        ),
        ("yy-rr", "verdict: within the band (rank "),
        (USELESS, "verdict: weak: below every card of Century: Spice Road (+5 against the weakest"),
    ]
    for card, line in expected:
        code, output, out = _run(
            tmp_path, "spice-road", "--own", card, "--games", "60", "--levels", "greedy"
        )
        assert code == 0 and line in output, output
        assert "across levels" not in output and "holds at every level" not in output
        report = json.loads((out / "own.json").read_text("utf-8"))
        assert report["bands"]["greedy"]["of"] == 44 - (card == "yy-rr")
        html = (out / "own.html").read_text("utf-8")
        name = report["card"]
        assert html.count(f"{name} (this card)") >= 2  # in the chart and in the table
        assert line.partition(": ")[2].partition(" (")[0] in html


def test_the_verdict_across_levels_is_said_only_when_more_than_one_ran() -> None:
    from century.reports.verdicts import across, band, sign_verdict

    def placed(rank: int) -> dict:
        return {
            "rank": rank,
            "of": 44,
            "strongest": {"card": "+b", "difference": 0.42},
            "weakest": {"card": "r-yyy", "difference": -0.03},
        }

    strong = {"difference": 0.48, "ci95": [0.42, 0.54]}
    both = {lv: band(strong, placed(1), "The Game") for lv in ("greedy", "planner")}
    assert across(both, "The Game") == (
        "too strong: above every card of The Game at both levels (greedy +48 against the "
        "strongest, +42 +b; planner +48 against the strongest, +42 +b)"
    )
    middle = band({"difference": 0.1, "ci95": [0.0, 0.2]}, placed(12), "The Game")
    assert middle["line"].startswith("within the band (rank 12 of 44 in The Game")
    weak = band({"difference": -0.1, "ci95": [-0.2, 0.0]}, placed(44), "The Game")
    assert weak["line"].startswith("weak: below every card of The Game (-10 against the weakest")
    mixed = across({"greedy": both["greedy"], "planner": middle}, "The Game")
    assert (
        mixed
        == "depends on the level: too strong at greedy, within the band at planner (rank 12 of 44)"
    )
    assert sign_verdict([strong], ["greedy"]) == "at greedy: owning the card helps"
    assert sign_verdict([strong, strong], ["greedy", "planner"]).startswith("holds at every level")


IMPROVED = "{kind: trade, pay: YY, get: RRY}"
"""yy-rr with one more turmeric in what it gives: a better version of yy-rr (planted)."""


def _versus(out: Path) -> dict:
    return json.loads((out / "versus.json").read_text("utf-8"))


@pytest.mark.slow
def test_versus_finds_a_better_version_on_the_same_deals_and_stops_when_sure(
    tmp_path: Path,
) -> None:
    code, output, out = _run(
        tmp_path,
        *("spice-road", "--own", "yy-rr", "--versus", IMPROVED, "--levels", "greedy"),
        *("--games", "200", "--stop", "sure"),
    )
    assert code == 0, output
    (level,) = _versus(out)["levels"]
    assert level["owner"]["ci95"][0] > 0 and level["owner"]["always_valid"]
    assert (
        level["stop"]["games"] < 200 and level["stop"]["reason"] == "the interval leaves out zero"
    )
    assert "verdict: B is stronger than A (+" in output
    assert f"A = yy-rr (yy-rr) or B = {IMPROVED} (yy-rry)" in output
    assert "B minus A" in (out / "versus.html").read_text("utf-8")
    assert level["stop"]["rule"].startswith("predictable plug-in")


@pytest.mark.slow
def test_versus_a_card_against_itself_claims_no_difference(tmp_path: Path) -> None:
    """The same card on both sides: every deal plays the same game, so the difference is
    exactly zero and says so; a copy written as data (another id, the same card) claims no
    difference either."""
    code, output, out = _run(
        tmp_path,
        "spice-road",
        "--own",
        "yy-rr",
        "--versus",
        "yy-rr",
        "--levels",
        "greedy",
        "--games",
        "30",
    )
    assert code == 0, output
    (level,) = _versus(out)["levels"]
    assert level["identical"] and level["owner"]["ci95"] == [0.0, 0.0]
    assert "rule" not in level["stop"]  # a fixed-size answer names no sequential rule
    assert "verdict: no difference: no deal's winner or length changed" in output
    copy = "{kind: trade, pay: YY, get: RR}"
    code, output, out = _run(
        tmp_path,
        "spice-road",
        "--own",
        "yy-rr",
        "--versus",
        copy,
        "--levels",
        "greedy",
        "--games",
        "60",
        "--stop",
        "sure",
    )
    assert code == 0, output
    (level,) = _versus(out)["levels"]
    assert _versus(out)["cards"] == {"a": "yy-rr", "b": "own-yy-rr"}
    assert not level["owner"]["significant"] and level["stop"]["games"] == 60


@pytest.mark.slow
def test_several_owned_cards_are_each_measured_and_each_report_kept(tmp_path: Path) -> None:
    code, output, out = _run(
        tmp_path,
        *("spice-road", "--own", "yy-rr", "--own", BROKEN, "--own", "+yr"),
        *("--levels", "greedy", "--games", "30"),
    )
    assert code == 0, output
    assert output.count("one seat owning ") == 3
    pages = {
        "own-1-yy-rr": "yy-rr",
        "own-2-y-bbb": "y-bbb",
        "own-3-_yr": "+yr",
    }
    for stem, card in pages.items():
        report = json.loads((out / f"{stem}.json").read_text("utf-8"))
        assert report["card"] == card
        assert f"owning {card}" in (out / f"{stem}.html").read_text("utf-8")
    broken = json.loads((out / "own-2-y-bbb.json").read_text("utf-8"))
    assert broken["levels"][0]["owner"]["ci95"][0] > 0.15  # measured, not the last card's
    index = (out / "index.html").read_text("utf-8")
    assert all(f'href="{stem}.html"' in index for stem in pages)
    assert not (out / "own.json").exists()
    alone, _, _ = _run(
        tmp_path, "spice-road", "--own", BROKEN, "--levels", "greedy", "--games", "30"
    )
    assert alone == 0
    again = json.loads((tmp_path / "out" / "own.json").read_text("utf-8"))
    assert again["levels"] == broken["levels"]  # the same deals, whichever cards ran beside


def test_a_card_placed_in_the_row_changes_only_the_row() -> None:
    rs = compile_paths().rulesets["spice-road"]
    engine = game_engine(rs)
    without = SimConfig(4, 2, ("greedy", "greedy"), seed=3, unseen="+yyr")
    placed = SimConfig(4, 2, ("greedy", "greedy"), seed=3, unseen="+yyr", row="+yyr", slot=2)
    for index in range(4):
        a = deal(engine, without, index, 50 + index).to_dict(moves=False)
        b = deal(engine, placed, index, 50 + index).to_dict(moves=False)
        row_a = [entry["card"] for entry in a["merchant_row"]]
        row_b = [entry["card"] for entry in b["merchant_row"]]
        assert row_b == [*row_a[:2], "+yyr", *row_a[2:-1]]
        assert b["merchant_deck"] == [row_a[-1], *a["merchant_deck"]]
        for key in ("seats", "point_row", "point_deck", "coins"):
            assert a[key] == b[key]


@pytest.mark.slow
def test_row_reports_who_takes_the_card_paired_and_replayable(tmp_path: Path) -> None:
    args = ["spice-road", "--row", "+yyr", "--slot", "3", "--levels", "greedy", "--games", "40"]
    code, output, out = _run(tmp_path, *args)
    assert code == 0, output
    first = (out / "row.json").read_bytes()
    (level,) = json.loads(first)["levels"]
    assert level["games"] == 40 and 0 < level["taken"] <= 40
    assert sum(level["taken_by_seat"]) == level["taken"]
    assert level["turn"]["first"] >= 1
    assert "in the merchant row at slot 3 from the start" in output
    assert "the seat that takes it: " in output
    assert "taker's turn (median, range)" in (out / "row.html").read_text("utf-8")
    code, _, out = _run(tmp_path, *args)
    assert code == 0 and (out / "row.json").read_bytes() == first  # the same deals, replayed
    for bad, message in [
        (["--slot", "9"], "--slot 9: the merchant row of spice-road has 6 slots"),
        (["--stop", "sure"], "--row plays a fixed number of deals"),
        (["--own", "yy-rr"], "--row measures one card in the row"),
    ]:
        code, output, _ = _run(tmp_path, *args, *bad)
        assert code == 2 and message in output, output
    code, output, _ = _run(tmp_path, "spice-road", "--own", "yy-rr", "--slot", "2")
    assert code == 2 and "--slot K places the card of --row" in output, output
    code, output, _ = _run(tmp_path, "spice-road", "--row", "yyrr", "--games", "2")
    assert code == 2 and "not a merchant card of spice-road" in output, output


@pytest.mark.slow
def test_owner_versus_and_row_give_the_local_answer_on_a_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip(
        "distributed", reason="the optional 'cluster' extra (dask) is not installed"
    )
    from dask.distributed import LocalCluster

    runs = {
        "own.json": ["--own", BROKEN, "--stop", "sure"],
        "versus.json": ["--own", "yy-rr", "--versus", IMPROVED],
        "row.json": ["--row", "+yyr", "--slot", "2"],
    }
    local = {}
    for name, args in runs.items():
        code, output, out = _run(
            tmp_path, "spice-road", *args, "--levels", "greedy", "--games", "30"
        )
        assert code == 0, output
        local[name] = (out / name).read_bytes()
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1) as cluster:
        for name, args in runs.items():
            code, output, out = _run(
                tmp_path,
                *("spice-road", *args, "--levels", "greedy", "--games", "30"),
                *("--cluster", cluster.scheduler_address),
            )
            assert code == 0, output
            assert (out / name).read_bytes() == local[name], name
    address = "tcp://127.0.0.1:9"
    code, output, out = _run(
        tmp_path / "unreachable", "spice-road", "--own", "yy-rr", "--cluster", address
    )
    assert code == 2 and f"cannot reach the Dask scheduler at {address}" in output, output
    assert not out.exists()
