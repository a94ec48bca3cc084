"""Card experiments (`century experiment`) and the intervals of comparisons: paired
intervals against a direct computation, seeded experiments whose effect is known, and the
command as a user runs it."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.experiments.changes import CardChanges, run_experiment
from century.pipeline import compile_paths
from century.simulation.compare import games_needed, paired, sample_sizes, unpaired
from century.simulation.config import SimConfig
from century.simulation.stats import Z95

from helpers import USELESS

runner = CliRunner()


def test_paired_intervals_match_a_direct_computation() -> None:
    wa = [0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0]
    wb = [0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0]
    ra = [40, 42, 39, 45, 41, 40, 38, 44, 43, 40, 41, 42]
    rb = [38, 41, 40, 44, 40, 37, 38, 42, 41, 41, 39, 40]
    rows = paired((wa, wb), (ra, rb), 2)
    for seat, found in enumerate(rows[:2]):
        diffs = [int(y == seat) - int(x == seat) for x, y in zip(wa, wb, strict=True)]
        mean = statistics.fmean(diffs)
        half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        assert found["difference"] == round(mean, 4)
        assert found["ci95"] == [round(mean - half, 4), round(mean + half, 4)]
        assert found["significant"] == (mean - half > 0 or mean + half < 0)
    diffs = [y - x for x, y in zip(ra, rb, strict=True)]
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert rows[2]["figure"] == "game length (rounds, mean)"
    assert rows[2]["ci95"] == [round(mean - half, 4), round(mean + half, 4)]
    assert rows[2]["significant"]  # 1.25 rounds shorter, and consistently so


def test_unpaired_intervals_and_the_games_an_answer_needs() -> None:
    def report(rate: float, games: int, mean: float, sd: float) -> dict:
        dist = {"n": games, "mean": mean, "sd": sd}
        return {
            "config": {"games": games},
            "seats": [{"seat": 1, "win_rate": rate}, {"seat": 2, "win_rate": 1 - rate}],
            "rounds": dist,
            "winner_score": dist,
            "margin": dist,
        }

    a, b = report(0.5, 1000, 40.0, 4.0), report(0.56, 2000, 39.0, 5.0)
    rows = unpaired(a, b)
    half = Z95 * math.sqrt(0.25 / 1000 + 0.56 * 0.44 / 2000)
    assert rows[0]["ci95"] == [round(0.06 - half, 4), round(0.06 + half, 4)]
    assert rows[0]["significant"]  # 6 points with a margin of about 3.7
    half = Z95 * math.sqrt(16 / 1000 + 25 / 2000)
    assert rows[2]["ci95"] == [round(-1 - half, 4), round(-1 + half, 4)]
    # n = z² p (1 - p) / m²: 9,604 games for ±1% at an even chance, 2,401 for ±2%
    assert games_needed(0.5, 0.01) == 9604
    assert games_needed(0.5, 0.02) == 2401
    assert sample_sizes(b) == {"1%": games_needed(0.56, 0.01), "2%": games_needed(0.56, 0.02)}


def test_the_same_card_put_back_has_no_effect_at_all() -> None:
    """A card replaced by itself leaves every paired game as it was: every difference is
    zero, with a zero interval."""
    rs = compile_paths().rulesets["spice-road"]
    config = SimConfig(12, 2, ("greedy", "greedy"), seed=5)
    report = run_experiment(rs, rs, config, CardChanges())
    for effect in report["effects"]:
        assert effect["difference"] == 0
        assert effect["ci95"] == [0, 0]
        assert not effect["significant"]


def test_a_huge_seat_advantage_is_detected() -> None:
    """The changed side seats a random bot against seat 1's greedy bot: seat 1's win rate
    rises from about a half to nearly all, and the experiment says so."""
    rs = compile_paths().rulesets["spice-road"]
    config = SimConfig(30, 2, ("greedy", "greedy"), seed=3)
    changed = SimConfig(30, 2, ("greedy", "random"), seed=3)
    report = run_experiment(rs, rs, config, CardChanges(), changed_config=changed)
    seat1, seat2, _ = report["effects"]
    assert seat1["significant"] and seat1["ci95"][0] > 0.2
    assert seat2["significant"] and seat2["ci95"][1] < -0.2


def _experiment(tmp_path: Path, *args: str) -> tuple[int, str, dict | None, str]:
    out = tmp_path / "out"
    result = runner.invoke(cli.app, ["experiment", *args, "-q", "--out", str(out)])
    if result.exit_code:
        return result.exit_code, result.output, None, ""
    html = (out / "experiment.html").read_text(encoding="utf-8")
    return 0, result.output, json.loads((out / "experiment.json").read_text("utf-8")), html


@pytest.mark.slow
def test_removing_a_card_no_bot_buys_is_within_noise(tmp_path: Path) -> None:
    """A card next to no one should buy, taken out of the deck: the deals change (the deck
    is shuffled without it) but no figure beyond noise."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "useless.yaml").write_text(USELESS, encoding="utf-8")
    code, output, report, html = _experiment(
        tmp_path,
        "spice-road-useless",
        "--rules",
        str(rules),
        "--remove",
        "bbbb-y",
        "--games",
        "120",
        "--workers",
        "1",
    )
    assert code == 0, output
    assert report is not None
    assert report["changes"] == {"remove": ["bbbb-y"], "add": [], "replace": {}, "set": []}
    taken = {c["id"]: c["taken"] for c in report["base"]["merchant_cards"]}
    assert taken["bbbb-y"] < 120 * 0.1  # in fewer than one game in ten
    assert "bbbb-y" not in {c["id"] for c in report["changed"]["merchant_cards"]}
    assert not any(effect["significant"] for effect in report["effects"])
    assert "win rate, seat 1:" in output and "paired games" in output
    assert "spice-road-useless (removed bbbb-y): 120 paired games" in output
    assert "Differences (" in html and "paired differences" in html
    assert "The change: removed bbbb-y." in html
    (card,) = report["cards"]  # the removed card, in the game that has it
    row = next(c for c in report["base"]["merchant_cards"] if c["id"] == "bbbb-y")
    assert (card["card"], card["takers"], card["passers"]) == (
        "bbbb-y",
        row["takers"],
        row["passers"],
    )
    rates = row["takers_won"] / row["takers"] - row["passers_won"] / row["passers"]
    assert card["difference"] == round(rates, 4)
    assert card["ci95"] == row["takers_vs_passers"]["ci95"]  # Newcombe's, as in the report
    assert "win rate of bbbb-y's takers (base game)" in output
    assert "their takers against the players who left them" in html
    assert "±1% answer needs" in html


@pytest.mark.slow
def test_experiments_give_the_same_results_with_one_and_two_workers(tmp_path: Path) -> None:
    """--add and --replace in the decks' syntax; one and two worker processes write the same
    report."""
    args = [
        "spice-road",
        "--add",
        "{kind: gain, get: YYYYY}",
        "--replace",
        "yy-g={kind: trade, pay: Y, get: G}",
        "--games",
        "24",
    ]
    one = _experiment(tmp_path / "one", *args, "--workers", "1")
    two = _experiment(tmp_path / "two", *args, "--workers", "2")
    assert one[0] == two[0] == 0, one[1] + two[1]
    assert one[2] == two[2]
    assert one[2] is not None
    assert (
        "(added {kind: gain, get: YYYYY}; replaced yy-g by {kind: trade, pay: Y, get: G})"
        in (one[1])
    )
    changed = {c["id"] for c in one[2]["changed"]["merchant_cards"]}
    assert {"+yyyyy", "y-g"} <= changed and "yy-g" not in changed


@pytest.mark.slow
def test_a_variant_is_changed_like_the_base_game(tmp_path: Path) -> None:
    """The Golem Edition (a variant with its own resource codes) is changed without code."""
    golem = compile_paths().rulesets["golem"]
    card = golem.merchant_deck[0].id
    code, output, report, _ = _experiment(
        tmp_path, "golem", "--remove", card, "--games", "6", "--workers", "1"
    )
    assert code == 0, output
    assert report is not None and report["game"] == "golem"
    assert card not in {c["id"] for c in report["changed"]["merchant_cards"]}


@pytest.mark.slow
def test_bad_changes_are_refused_with_a_located_message(tmp_path: Path) -> None:
    code, output, _, _ = _experiment(tmp_path, "spice-road", "--remove", "yy-gg", "--games", "2")
    assert code == 2 and "no card 'yy-gg' in spice-road (did you mean" in output
    code, output, _, _ = _experiment(tmp_path, "spice-road", "--add", "[1, 2]", "--games", "2")
    assert code == 2 and "--add '[1, 2]' is not a card" in output
    code, output, _, _ = _experiment(tmp_path, "spice-road", "--replace", "yy-g", "--games", "2")
    assert code == 2 and "write ID=CARD" in output
    code, output, _, _ = _experiment(tmp_path, "spice-road", "--games", "2")
    assert code == 2 and "name a change" in output
    code, output, _, _ = _experiment(
        tmp_path, "spice-road", "--add", "{kind: gain, get: QQ}", "--games", "2"
    )
    assert code == 1  # the checks of the rules, with their codes, in the user's own words
    assert "--add:1:19: error C302: unknown resource code Q in 'QQ'" in output
    assert "century-experiment-" not in output and "changed.yaml" not in output
    assert not (tmp_path / "out").exists()


def test_passers_are_the_players_who_had_a_card_on_offer_and_left_it() -> None:
    from century.engine import load_engine
    from century.simulation.aggregate import Aggregate
    from century.simulation.game import play_game

    rs = compile_paths().rulesets["spice-road"]
    config = SimConfig(6, 2, ("greedy", "greedy"), seed=1)
    engine = load_engine(rs)
    results = [play_game(engine, rs, config, i) for i in range(config.games)]
    total = Aggregate(rs, config)
    for result in results:
        total.add(result)
    for card_id, tally in total.merchants.items():
        left = [
            (r, seat)
            for r in results
            for seat in range(2)
            if card_id in r["offered"][seat] and card_id not in r["merchant_cards"][seat]
        ]
        assert tally.passers == len(left)
        assert tally.passers_won == sum(r["winner"] == seat for r, seat in left)
    assert sum(t.passers for t in total.merchants.values()) > 10
