"""`century simulate`: seeded, order-independent simulations and the balance report."""

from __future__ import annotations

import json
import math
import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from century import cli
from century.engine import load_engine
from century.pipeline import compile_paths
from century.reports.report import build_report, report_html
from century.simulation.compare import games_needed
from century.simulation.config import SimConfig, seat_bots
from century.simulation.game import play_game
from century.simulation.simulate import chunks, simulate
from century.simulation.stats import Z95, wilson

from helpers import HOSTILE, ROOT, five_ranks, hostile

runner = CliRunner()


def ruleset():
    return compile_paths().rulesets["spice-road"]


CONFIG = SimConfig(games=12, players=2, bots=("greedy", "random"), seed=5)


def test_results_are_identical_for_one_and_two_workers() -> None:
    one = build_report(simulate(ruleset(), CONFIG, workers=1))
    two = build_report(simulate(ruleset(), CONFIG, workers=2))
    assert one == two
    assert one["results_digest"] == two["results_digest"]


def test_a_later_look_warms_the_engine_once_in_the_parent(monkeypatch) -> None:
    """A sequential comparison plays its games in looks, each through a new pool: the parent
    warms the engine for the looks after the first (once per process), so no look's workers
    start cold, and the games are the same."""
    import multiprocessing

    from century.simulation import simulate as simulate_module

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("workers inherit a warm engine only when forked")
    primed: list[int] = []
    real = simulate_module.prime
    monkeypatch.setattr(simulate_module, "prime", lambda *a: (primed.append(1), real(*a))[1])
    game = ruleset()
    first = list(simulate_module.iter_results(game, CONFIG, workers=2))
    assert primed == []  # a short run: not worth warming
    later = list(simulate_module.iter_results(game, CONFIG, workers=2, first=6))
    assert primed == [1]
    assert later == first[6:]


def test_results_are_identical_on_a_local_dask_cluster() -> None:
    pytest.importorskip(
        "distributed", reason="the optional 'cluster' extra (dask) is not installed"
    )
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1) as cluster:
        on_dask = build_report(simulate(ruleset(), CONFIG, cluster=cluster.scheduler_address))
    assert on_dask == build_report(simulate(ruleset(), CONFIG, workers=1))


def test_another_seed_gives_other_games() -> None:
    other = SimConfig(games=12, players=2, bots=("greedy", "random"), seed=6)
    a = build_report(simulate(ruleset(), CONFIG))
    b = build_report(simulate(ruleset(), other))
    assert a["results_digest"] != b["results_digest"]


def test_report_figures_match_a_recount_of_the_games() -> None:
    rs = ruleset()
    config = SimConfig(games=10, players=3, bots=("greedy", "random", "greedy"), seed=2)
    report = build_report(simulate(rs, config))
    engine = load_engine(rs)
    games = [play_game(engine, rs, config, i) for i in range(config.games)]
    wins = Counter(g["winner"] for g in games)
    assert [s["wins"] for s in report["seats"]] == [wins[i] for i in range(3)]
    assert sum(s["wins"] for s in report["seats"]) == config.games
    for seat in report["seats"]:
        lo, hi = seat["ci95"]
        assert lo <= seat["win_rate"] <= hi
        assert [round(x, 4) for x in wilson(seat["wins"], config.games)] == [lo, hi]
    rounds = [g["rounds"] for g in games]
    assert report["rounds"]["mean"] == round(sum(rounds) / len(rounds), 4)
    assert (report["rounds"]["min"], report["rounds"]["max"]) == (min(rounds), max(rounds))
    taken = Counter(card for g in games for cards in g["point_cards"] for card in cards)
    by_id = {row["id"]: row for row in report["point_cards"]}
    assert {k: v["taken"] for k, v in by_id.items() if v["taken"]} == dict(taken)
    by_winner = Counter(card for g in games for card in g["point_cards"][g["winner"]])
    for card, n in taken.items():
        assert by_id[card]["winners_share"] == round(by_winner[card] / n, 4)
    merchants = Counter(card for g in games for cards in g["merchant_cards"] for card in cards)
    assert {r["id"]: r["taken"] for r in report["merchant_cards"] if r["taken"]} == dict(merchants)
    for coin in report["coins"]:
        total = sum(c.get(coin["id"], 0) for g in games for c in g["coins"])
        assert coin["taken_per_game"] == round(total / config.games, 4)
        assert coin["supply"] == next(c for c in rs.coins if c.id == coin["id"]).count(3)
    mean0 = sum(g["scores"][0] for g in games) / config.games
    assert report["seats"][0]["score"]["mean"] == round(mean0, 4)


def test_report_of_a_variant_keeps_hostile_names_as_text() -> None:
    variant = hostile(five_ranks())
    config = SimConfig(games=3, players=2, bots=("greedy", "greedy"), seed=1)
    report = build_report(simulate(variant, config))
    assert [c["id"] for c in report["coins"]] == [coin.id for coin in variant.coins]
    assert len(report["coins"]) == 3
    html = report_html([report])
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert HOSTILE not in html
    _check_page(html)


def _check_page(html: str) -> None:
    """Self-contained (no network assets) and every chart is well-formed SVG."""
    assert "<script" not in html and "src=" not in html and "@import" not in html
    assert "href=" not in html
    svgs = html.split("<svg")[1:]
    assert len(svgs) >= 6
    for part in svgs:
        ET.fromstring("<svg" + part.split("</svg>")[0] + "</svg>")


def _simulate_cli(out: Path, workers: int):
    """`century simulate` of 8 seeded greedy-vs-random games into `out`."""
    args = ["simulate", "spice-road", "--games", "8", "--bots", "greedy,random"]
    return runner.invoke(
        cli.app, [*args, "--seed", "3", "--workers", str(workers), "--out", str(out)]
    )


def test_cli_writes_the_json_and_html_report(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    result = _simulate_cli(out, workers=1)
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["config"] == {
        "games": 8,
        "players": 2,
        "bots": ["greedy", "random"],
        "seed": 3,
        "rotate": False,
    }
    assert report["seats"][0]["wins"] == 8  # greedy beats random
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Win rate per seat" in html and "Game length" in html
    _check_page(html)
    assert "seat 1 greedy 100.0%" in result.output
    again = tmp_path / "again"
    assert _simulate_cli(again, workers=2).exit_code == 0
    assert (again / "report.json").read_bytes() == (out / "report.json").read_bytes()
    assert (again / "report.html").read_bytes() == (out / "report.html").read_bytes()


def test_cli_compare_puts_two_games_side_by_side(tmp_path: Path) -> None:
    first = tmp_path / "first"
    args = ["simulate", "spice-road", "--games", "4", "--bots", "greedy", "-q"]
    runner.invoke(cli.app, [*args, "--out", str(first)])
    result = runner.invoke(
        cli.app,
        [
            "simulate",
            "--compare",
            str(first / "report.json"),
            "golem",
            "--games",
            "4",
            "--bots",
            "greedy,random",
            "--out",
            str(tmp_path / "cmp"),
        ],
    )
    assert result.exit_code == 0, result.output
    a = json.loads((tmp_path / "cmp" / "report-a.json").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "cmp" / "report-b.json").read_text(encoding="utf-8"))
    assert (a["game"], b["game"]) == ("spice-road", "golem")
    html = (tmp_path / "cmp" / "compare.html").read_text(encoding="utf-8")
    assert "grid-template-columns: repeat(2" in html
    assert html.count('aria-label="Win rate per seat"') == 1  # both sides on one chart
    assert "Differences (Century: Golem Edition minus Century: Spice Road, 95% intervals)" in html
    pa, pb = a["seats"][0]["win_rate"], b["seats"][0]["win_rate"]
    delta = 100 * (pb - pa)
    assert f"{delta:+.1f} points" in html
    half = Z95 * math.sqrt(pa * (1 - pa) / 4 + pb * (1 - pb) / 4)  # independent samples
    lo, hi = (100 * round(pb - pa + sign * half, 4) for sign in (-1, 1))
    assert f"{lo:+.1f} to {hi:+.1f}" in html
    assert "two independent samples" in html
    assert "b minus a (95% intervals; * significant):" in result.output
    needed = games_needed(max((s["win_rate"] for s in b["seats"]), key=lambda p: p * (1 - p)), 0.01)
    assert b["games_needed"]["1%"] == needed  # n = z² p (1 - p) / m², the seat nearest a half
    assert f"a ±1% seat advantage needs {needed:,} games" in result.output
    assert f"±1% answer needs {needed:,} games" in html
    assert f"win rate, seat 1: {delta:+.1f} points [{lo:+.1f}, {hi:+.1f}]" in result.output
    _check_page(html)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "spice-road", "--bots", "greedy,random,greedy"], "3 bots for 2 players"),
        (["simulate", "spice-road", "--bots", "chess"], "unknown bot"),
        (["simulate", "spice-road", "--players", "9"], "2 to 5 players"),
        (["simulate", "nope"], "unknown game"),
        (["simulate"], "--compare"),
        (["simulate", "--compare", "x.json", "spice-road", "--games", "1"], "unknown game"),
    ],
)
def test_cli_errors_are_clear(args: list[str], message: str) -> None:
    result = runner.invoke(cli.app, args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_seeds_bots_and_chunks() -> None:
    assert seat_bots("greedy", 3) == ("greedy",) * 3
    assert seat_bots("greedy, random", 2) == ("greedy", "random")
    with pytest.raises(ValueError):
        seat_bots("greedy,random", 3)
    parts = chunks(103, 25)
    assert [len(p) for p in parts] == [25, 25, 25, 25, 3]
    assert [i for p in parts for i in p] == list(range(103))


def test_cluster_without_the_extra_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hide dask whether or not it is installed: the import fails as without the extra.
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    result = runner.invoke(
        cli.app,
        [
            "simulate",
            "spice-road",
            "--games",
            "2",
            "--cluster",
            "tcp://127.0.0.1:1",
            "-q",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 2
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [required] = project["optional-dependencies"]["cluster"]
    package = re.match(r"[A-Za-z0-9_.\[\]-]+", required).group()  # dask[distributed]
    assert f"pip install '{package}' (installed with pipx: pipx inject " in result.output
    assert f"{project['name']} '{package}'; in a checkout: pip install -e '.[cluster]')" in (
        result.output
    )


@pytest.mark.slow
@pytest.mark.parametrize("bots", [("planner", "search"), ("expert:1", "planner")])
def test_search_bots_give_the_same_results_for_one_and_two_workers(
    bots: tuple[str, str],
) -> None:
    config = SimConfig(games=2, players=2, bots=bots, seed=9)
    one = build_report(simulate(ruleset(), config, workers=1))
    two = build_report(simulate(ruleset(), config, workers=2))
    assert one == two


def test_rotated_seats_move_the_bots_on_each_game() -> None:
    config = SimConfig(games=6, players=3, bots=("greedy", "random", "random"), seed=4, rotate=True)
    assert [config.seating(i).index("greedy") for i in range(4)] == [0, 1, 2, 0]
    total = simulate(ruleset(), config)
    assert total.bot_seats == {"greedy": 6, "random": 12}
    assert total.bot_wins["greedy"] + total.bot_wins["random"] == 6
    report = build_report(total)
    assert {s["bot"] for s in report["seats"]} == {"rotating"}
    assert [b["spec"] for b in report["bots"]] == ["greedy", "random"]


def test_the_summary_says_how_much_the_sample_leaves_open(tmp_path: Path) -> None:
    result = _simulate_cli(tmp_path, workers=1)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    for seat in report["seats"]:
        lo, hi = seat["advantage_ci95"]
        assert lo <= seat["advantage"] <= hi
        assert seat["advantage"] == round(seat["win_rate"] - 1 / 2, 4)
        half = 100 * (hi - lo) / 2
        assert f"seat {seat['seat']} advantage: {100 * seat['advantage']:+.1f}% ± {half:.1f}%" in (
            result.output
        )
    lo, hi = report["rounds"]["mean_ci95"]
    assert lo <= report["rounds"]["mean"] <= hi
    assert "advantage" in (tmp_path / "report.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_auto_picks_the_strongest_bot_that_fits_the_budget(tmp_path: Path) -> None:
    args = ["simulate", "spice-road", "--games", "2", "-q", "--workers", "1"]
    roomy = runner.invoke(cli.app, [*args, "--time-budget", "3600", "--out", str(tmp_path / "a")])
    assert roomy.exit_code == 0, roomy.output
    assert "bots: planner in every seat" in roomy.output
    report = json.loads((tmp_path / "a" / "report.json").read_text(encoding="utf-8"))
    assert report["config"]["bots"] == ["planner", "planner"]
    # 100000 games fit in no budget of a second: the fastest bot it tried is named
    from century.simulation.simulate import pick_bot

    spec, estimate = pick_bot(ruleset(), 2, 100000, 1, 1.0)
    assert spec == "greedy" and estimate > 1.0


@pytest.mark.slow
def test_the_expert_plays_a_simulation_against_the_planner(tmp_path: Path) -> None:
    args = ["simulate", "spice-road", "--games", "2", "--bots", "expert:1,planner", "-q"]
    result = runner.invoke(cli.app, [*args, "--workers", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["config"]["bots"] == ["expert:1", "planner"]
    expert = next(b for b in report["bots"] if b["spec"] == "expert:1")
    assert "sampled deals" in expert["summary"]


@pytest.mark.slow
def test_the_bot_ladder_ranks_the_bots_and_the_report_names_their_strength(
    tmp_path: Path,
) -> None:
    ladder = runner.invoke(
        cli.app,
        [
            "bots",
            "spice-road",
            "--games",
            "6",
            "--bots",
            "random,greedy",
            "-q",
            "--out",
            str(tmp_path),
        ],
    )
    assert ladder.exit_code == 0, ladder.output
    assert "Bot ladder for spice-road: 2 players, 6 games per pairing" in ladder.output
    assert "Strongest first (mean win rate against the others): greedy (100%), random (0%)" in (
        ladder.output
    )
    data = json.loads((tmp_path / "ladder.json").read_text(encoding="utf-8"))
    cells = {(p["bot"], p["against"]): p for p in data["pairings"]}
    assert cells[("greedy", "random")]["wins"] == 6 and cells[("random", "greedy")]["wins"] == 0
    assert cells[("greedy", "random")]["ci95"][0] > 0.5
    assert cells[("greedy", "greedy")]["rounds"] > 20
    assert "100% [61-100]" in ladder.output
    args = ["simulate", "spice-road", "--games", "2", "--bots", "greedy,random", "-q"]
    sim = runner.invoke(cli.app, [*args, "--out", str(tmp_path)])
    assert sim.exit_code == 0, sim.output
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    greedy = next(b for b in report["bots"] if b["spec"] == "greedy")
    assert greedy["strength"]["rank"] == 1 and greedy["strength"]["of"] == 2
    assert greedy["strength"]["against"]["random"]["win_rate"] == 1.0
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "rank 1 of 2" in html and "one-step heuristics" in html
    _check_page(html)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bots", "spice-road", "--bots", "greedy"], "two or more different bots"),
        (["bots", "spice-road", "--bots", "greedy,chess"], "unknown bot"),
        (["bots", "spice-road", "--players", "9"], "2 to 5 players"),
        (["bots", "nope"], "unknown game"),
        (["bots", "spice-road", "--bots", "planner,expert:0"], "bad bot option in 'expert:0'"),
        (["simulate", "spice-road", "--bots", "expert:x"], "bad bot option in 'expert:x'"),
        (["play", "spice-road", "--bots", "expert:0"], "bad bot option in 'expert:0'"),
    ],
)
def test_ladder_errors_are_clear(args: list[str], message: str) -> None:
    result = runner.invoke(cli.app, args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_report_of_another_version_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"report_version": 2, "game": "x"}), encoding="utf-8")
    result = runner.invoke(cli.app, ["simulate", "--compare", str(old), "spice-road"])
    assert result.exit_code == 1
    assert "another version of century" in result.output


def _ladder_cli(out: Path) -> Result:
    args = ["bots", "spice-road", "--games", "2", "--bots", "random,greedy", "-q"]
    return runner.invoke(cli.app, [*args, "--out", str(out)])


@pytest.mark.slow
def test_the_ladder_is_listed_in_the_manifest_and_spares_a_users_file(tmp_path: Path) -> None:
    from century.base.output import MANIFEST

    result = _ladder_cli(tmp_path / "ours")
    assert result.exit_code == 0, result.output
    listed = json.loads((tmp_path / "ours" / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert listed == ["ladder.json"]
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "ladder.json").write_text("my notes", encoding="utf-8")
    refused = _ladder_cli(theirs)
    assert refused.exit_code == 1
    assert "files century did not write" in refused.output
    assert (theirs / "ladder.json").read_text(encoding="utf-8") == "my notes"


@pytest.mark.slow
@pytest.mark.parametrize(
    "change",
    [
        lambda data: json.dumps([data]),
        lambda data: json.dumps({**data, "ranking": [{"bot": "greedy"}]}),
        lambda data: json.dumps({**data, "pairings": [{**data["pairings"][0], "ci95": "wide"}]}),
        lambda data: json.dumps({**data, "games": "many"}),
        lambda data: json.dumps({**data, "source_hash": "another game"}),
    ],
)
def test_a_broken_ladder_file_leaves_the_bots_unmeasured(
    tmp_path: Path, change: Callable[[dict[str, Any]], str]
) -> None:
    from century.simulation.ladder import LADDER_FILE, read_ladder

    assert _ladder_cli(tmp_path).exit_code == 0
    path = tmp_path / LADDER_FILE
    assert read_ladder(tmp_path, ruleset(), 2) is not None
    path.write_text(change(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    assert read_ladder(tmp_path, ruleset(), 2) is None
    args = ["simulate", "spice-road", "--games", "2", "--bots", "greedy,random", "-q"]
    sim = runner.invoke(cli.app, [*args, "--out", str(tmp_path)])
    assert sim.exit_code == 0, sim.output
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert all(bot["strength"] is None for bot in report["bots"])
    assert "not measured" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_warm_up_and_card_worths_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with many caravans (many ranks, a large limit) builds its tables as play meets
    them, and bots average a card's worth over a bounded sample of caravans."""
    from century.bots.knowledge import Knowledge

    engine = load_engine(five_ranks())
    monkeypatch.setattr(engine, "WARM_LIMIT", 100)
    assert engine.warm_up() == 0
    monkeypatch.setattr(Knowledge, "WORTH_SAMPLE", 20)
    know = Knowledge(engine, five_ranks())
    assert 10 <= len(know._worth_vectors) <= 20
    assert len(know.card_worth) == len(engine.CARDS)


@pytest.mark.slow
def test_recheck_replays_the_seat_win_rates_with_the_expert(tmp_path: Path) -> None:
    args = ["simulate", "spice-road", "--games", "4", "--bots", "greedy", "-q"]
    result = runner.invoke(
        cli.app, [*args, "--workers", "1", "--recheck", "expert:1", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "recheck with expert:1 in every seat, 4 games (95% intervals):" in result.output
    lines = [line for line in result.output.splitlines() if "with expert:1:" in line]
    assert [line.split()[:2] for line in lines] == [["seat", "1"], ["seat", "2"]]
    assert all(line.endswith(("holds", "does not hold")) for line in lines)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["config"]["bots"] == ["greedy", "greedy"]  # the report is the simulation's


def test_a_recheck_says_where_a_seat_finding_does_not_hold() -> None:
    from century.simulation.recheck import recheck_games, seat_findings

    def report(bot: str, *rates: tuple[float, float, float]) -> dict[str, Any]:
        seats = [
            {"seat": i + 1, "bot": bot, "win_rate": rate, "ci95": [lo, hi]}
            for i, (rate, lo, hi) in enumerate(rates)
        ]
        return {"config": {"players": len(rates)}, "seats": seats}

    found = report("planner", (0.56, 0.53, 0.59), (0.44, 0.41, 0.47))
    same_side = report("expert", (0.52, 0.45, 0.59), (0.48, 0.41, 0.55))
    other_side = report("expert", (0.48, 0.41, 0.55), (0.52, 0.45, 0.59))
    apart = report("expert", (0.40, 0.33, 0.47), (0.60, 0.53, 0.67))
    assert [holds for _, holds in seat_findings(found, same_side)] == [True, True]
    assert [holds for _, holds in seat_findings(found, other_side)] == [False, False]
    assert [holds for _, holds in seat_findings(found, apart)] == [False, False]
    even = report("planner", (0.51, 0.45, 0.57), (0.49, 0.43, 0.55))
    assert [holds for _, holds in seat_findings(even, other_side)] == [True, True]
    line, _ = seat_findings(found, apart)[0]
    assert line == "seat 1 56.0% [53.0-59.0] here, 40.0% [33.0-47.0] with expert: does not hold"
    assert [recheck_games(n) for n in (4, 100, 1000)] == [4, 20, 100]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["spice-road", "--recheck", "expert:0"], "--recheck: bad bot option in 'expert:0'"),
        (["spice-road", "--recheck", "chess"], "--recheck: unknown bot 'chess'"),
        (["--compare", "spice-road", "spice-road", "--recheck", "expert"], "name one GAME"),
    ],
)
def test_recheck_errors_are_clear(args: list[str], message: str) -> None:
    result = runner.invoke(cli.app, ["simulate", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
