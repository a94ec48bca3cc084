"""The card and game-quality figures of the balance report (report version 3): times on offer
and pick rate by market slot, takers against matched passers with Newcombe's interval, point
cards' value for cost and turns to pay, lead changes and the round leader's win rate; and
the charts' axis titles and labels."""

from __future__ import annotations

import json
import math
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from century import cli
from century.pipeline import compile_paths
from century.reports.charts import LABEL_CHARS
from century.reports.report import REPORT_VERSION, build_report, report_html
from century.simulation.aggregate import Aggregate
from century.simulation.config import SimConfig
from century.simulation.simulate import iter_results
from century.simulation.stats import Z95, newcombe, wilson

from helpers import HOSTILE, USELESS, hostile

runner = CliRunner()


def spice_road():
    return compile_paths().rulesets["spice-road"]


# -- the interval ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "published"),
    [  # Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10
        ((56, 70, 48, 80), (0.0524, 0.3339)),
        ((9, 10, 3, 10), (0.1705, 0.8090)),
        ((6, 7, 2, 7), (0.0582, 0.8062)),
        ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ],
)
def test_newcombes_interval_matches_the_published_examples(
    counts: tuple[int, int, int, int], published: tuple[float, float]
) -> None:
    x1, n1, x2, n2 = counts
    d, lo, hi = newcombe(x1, n1, x2, n2)
    assert d == pytest.approx(x1 / n1 - x2 / n2)
    assert (round(lo, 4), round(hi, 4)) == published


def test_newcombes_interval_is_the_wilson_limits_combined() -> None:
    """A direct computation from the two Wilson intervals, written out from the definition
    (the Wilson limits solved from the score equation |p - P| = z sqrt(P(1-P)/n))."""

    def wilson_direct(x: int, n: int) -> tuple[float, float]:
        p, z2 = x / n, Z95 * Z95
        a, b, c = 1 + z2 / n, -(2 * p + z2 / n), p * p  # a P² + b P + c = 0
        root = math.sqrt(b * b - 4 * a * c)
        return (-b - root) / (2 * a), (-b + root) / (2 * a)

    for x1, n1, x2, n2 in ((30, 100, 45, 120), (1, 9, 7, 8), (200, 400, 180, 410)):
        l1, u1 = wilson_direct(x1, n1)
        l2, u2 = wilson_direct(x2, n2)
        assert wilson(x1, n1) == pytest.approx((l1, u1))
        p1, p2 = x1 / n1, x2 / n2
        low = p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
        assert newcombe(x1, n1, x2, n2) == pytest.approx((p1 - p2, low, high))


# -- figures from known games ------------------------------------------------------------------


def _game(**fields: Any) -> dict[str, Any]:
    """A made-up two-player game result with the fields the aggregate reads."""
    base: dict[str, Any] = {
        "index": 0,
        "seed": 0,
        "scores": [10, 5],
        "winner": 0,
        "rounds": 3,
        "turns": [3, 3],
        "point_cards": [[], []],
        "merchant_cards": [[], []],
        "coins": [{}, {}],
        "bots": ["greedy", "greedy"],
        "offered": [[], []],
        "market": {},
        "point_offers": {},
        "claim_turns": [[], []],
        "round_scores": [],
    }
    return {**base, **fields}


def test_known_games_give_known_pick_rates_turns_and_leads() -> None:
    """Two made-up games: a card on offer 8 turns (5 in slot 1, 3 in slot 3) and taken twice
    from slot 1 by the winners; a point card in the row 10 turns and claimed by seat 1 at
    its turns 2 and 7; the scores per round of a game whose lead changes three times."""
    rs = spice_road()
    card, point = rs.merchant_deck[0].id, rs.point_deck[0].id
    total = Aggregate(rs, SimConfig(2, 2, ("greedy", "greedy"), 0))
    first = _game(
        merchant_cards=[[card], []],
        offered=[[card], [card]],
        market={card: {"offers": [3, 0, 2], "taken": [1, 0, 0]}},
        point_cards=[[point, point], []],
        claim_turns=[[2, 7], []],
        point_offers={point: 10},
        round_scores=[[1, 0], [1, 2], [3, 2], [3, 3], [3, 5]],
        winner=1,
        scores=[3, 5],
    )
    second = _game(
        merchant_cards=[[card], []],
        offered=[[card], [card]],
        market={card: {"offers": [2, 0, 1], "taken": [1, 0, 0]}},
        round_scores=[[0, 0], [2, 1]],
    )
    total.add(first)
    total.add(second)
    report = build_report(total)
    row = next(c for c in report["merchant_cards"] if c["id"] == card)
    assert (row["offers"], row["taken"], row["pick_rate"]) == (8, 2, 0.25)
    assert row["offers_by_slot"] == [5, 0, 3]
    assert row["taken_by_slot"] == [2, 0, 0]
    assert row["pick_rate_by_slot"] == [0.4, None, 0.0]
    # takers: seat 1 of both games (one won); passers: seat 2 of both (one won)
    assert (row["takers"], row["takers_won"], row["passers"], row["passers_won"]) == (2, 1, 2, 1)
    # each game one unit: the taker's win is the leaver's loss, so the difference of one game
    # is +1 or -1 and its standard error over two games is 1 (wider than Newcombe's)
    _, lo, hi = newcombe(1, 2, 1, 2)
    assert row["takers_vs_passers"] == {
        "difference": 0.0,
        "ci95": [-1.0, 1.0],
        "p": 1.0,
        "significant": False,
        "tests": 1,
    }
    assert lo > -1.0 and hi < 1.0
    prow = next(c for c in report["point_cards"] if c["id"] == point)
    assert (prow["offers"], prow["taken"], prow["pick_rate"]) == (10, 2, 0.2)
    assert prow["turns_to_pay"] == 3.5  # turns 2 and 7: 2, then 5
    quality = report["game_quality"]
    assert quality["lead_changes"]["histogram"] == {"0": 1, "3": 1}
    # first game: leaders after rounds 1..5 are seat 1, 2, 1, (tie), 2; seat 2 won
    # second game: a tie after round 1, seat 1 ahead after round 2; seat 1 won
    leaders = {q["round"]: (q["games"], q["leader_won"]) for q in quality["leader_wins"]}
    assert leaders == {1: (1, 0), 2: (2, 2), 3: (1, 0), 5: (1, 1)}
    starting = {c.id for c in rs.starting_cards} - {c.id for c in rs.merchant_deck}
    assert starting and not starting & {c["id"] for c in report["merchant_cards"]}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, list[dict[str, Any]], dict]:
    """40 seeded greedy games of Spice Road with a useless card added: the ruleset, every
    game's result and the report."""
    rules = tmp_path_factory.mktemp("rules")
    (rules / "useless.yaml").write_text(USELESS, encoding="utf-8")
    rs = compile_paths([rules]).rulesets["spice-road-useless"]
    config = SimConfig(40, 2, ("greedy", "greedy"), 11)
    results = list(iter_results(rs, config))
    total = Aggregate(rs, config)
    for result in results:
        total.add(result)
    return rs, results, build_report(total)


def test_a_card_no_bot_pays_for_sinks_to_the_free_slot(played: Any) -> None:
    """Greedy bots never pay a cube for the useless card: it drifts to the first (free) slot,
    where it is taken at most now and then for the cubes lying on it."""
    _, _, report = played
    row = next(c for c in report["merchant_cards"] if c["id"] == "bbbb-y")
    assert sum(row["offers_by_slot"]) == row["offers"] > 40
    assert row["offers_by_slot"][0] == max(row["offers_by_slot"])
    assert set(row["taken_by_slot"][1:]) == {0}
    assert row["pick_rate_by_slot"][1:] == [0.0] * (len(row["offers_by_slot"]) - 1)
    rates = sorted(c["pick_rate"] for c in report["merchant_cards"] if c["pick_rate"] is not None)
    assert row["pick_rate"] < 0.01 and row["pick_rate"] < rates[len(rates) // 2]
    assert row["passers"] > 10


def test_times_on_offer_and_takes_match_a_recount_of_the_games(played: Any) -> None:
    """Each turn shows every card of both rows once (while the decks last), and the takes
    by slot add up to the cards each seat ended with."""
    rs, results, report = played
    checked = 0
    for r in results:
        turns = sum(r["turns"])
        assert sum(r["point_offers"].values()) == rs.point_row * turns
        bought = sum(len(cards) for cards in r["merchant_cards"])
        if bought <= len(rs.merchant_deck) - rs.merchant_row:
            offers = sum(sum(c["offers"]) for c in r["market"].values())
            assert offers == rs.merchant_row * turns
            checked += 1
        taken = {card: sum(c["taken"]) for card, c in r["market"].items() if sum(c["taken"])}
        held: dict[str, int] = {}
        for cards in r["merchant_cards"]:
            for card in cards:
                held[card] = held.get(card, 0) + 1
        assert taken == held
    assert checked >= 30
    for row in report["merchant_cards"]:
        assert sum(row["taken_by_slot"]) == row["taken"]
        if row["offers"]:
            assert row["pick_rate"] == round(row["taken"] / row["offers"], 4)


def test_point_cards_value_for_cost_and_turns_to_pay(played: Any) -> None:
    rs, results, report = played
    for row in report["point_cards"]:
        card = next(c for c in rs.point_deck if c.id == row["id"])
        value = sum(w * n for w, n in zip(rs.value_weights, card.cost, strict=True))
        assert row["cube_value"] == value and row["points"] == card.points
        assert row["points_per_cube_value"] == round(card.points / value, 4)
    paid = 0
    for r in results:
        for seat, turns in enumerate(r["claim_turns"]):
            assert len(turns) == len(r["point_cards"][seat])
            assert turns == sorted(turns) and (not turns or turns[-1] <= r["turns"][seat])
            paid += turns[-1] if turns else 0
    rows = [c for c in report["point_cards"] if c["taken"]]
    assert sum(c["turns_to_pay"] * c["taken"] for c in rows) == pytest.approx(paid, abs=0.01)


def test_scores_per_round_end_at_the_final_scores(played: Any) -> None:
    _, results, report = played
    for r in results:
        assert len(r["round_scores"]) == r["rounds"]
        assert r["round_scores"][-1] == r["scores"]  # the last round is played to its end
    quality = report["game_quality"]
    assert quality["lead_changes"]["n"] == len(results)
    last = max(quality["leader_wins"], key=lambda q: q["round"])
    assert 0 <= last["leader_won"] <= last["games"]


# -- the CLI and the page ----------------------------------------------------------------------


def _simulate(out: Path, workers: int) -> Any:
    args = ["simulate", "spice-road", "--games", "10", "--bots", "greedy", "--seed", "4", "-q"]
    return runner.invoke(cli.app, [*args, "--workers", str(workers), "--out", str(out)])


def _svgs(html: str) -> list[str]:
    return re.findall(r"<svg .*?</svg>", html, re.S)


def test_the_report_has_the_new_figures_the_same_for_one_and_two_workers(tmp_path: Path) -> None:
    assert _simulate(tmp_path / "one", 1).exit_code == 0
    assert _simulate(tmp_path / "two", 2).exit_code == 0
    one = (tmp_path / "one" / "report.json").read_bytes()
    assert one == (tmp_path / "two" / "report.json").read_bytes()
    report = json.loads(one)
    assert report["report_version"] == REPORT_VERSION == 3
    for key in ("offers", "offers_by_slot", "pick_rate_by_slot", "takers_vs_passers"):
        assert all(key in c for c in report["merchant_cards"])
    for key in ("cube_value", "points_per_cube_value", "turns_to_pay", "pick_rate"):
        assert all(key in c for c in report["point_cards"])
    assert {"lead_changes", "leader_wins"} <= set(report["game_quality"])
    html = (tmp_path / "one" / "report.html").read_text(encoding="utf-8")
    assert html == (tmp_path / "two" / "report.html").read_text(encoding="utf-8")
    for heading in (
        "Merchant cards: times on offer, pick rate",
        "<th>pick rate by slot</th>",
        "<th>points per cube value</th>",
        "<th>turns to pay</th>",
        "Game quality: lead changes",
        "<th>the leader won</th>",
    ):
        assert heading in html
    svgs = _svgs(html)
    assert len(svgs) == 11
    for svg in svgs:  # a value-axis title and a rotated category-axis title in every chart
        assert len(re.findall(r'font-weight="bold"', svg)) >= 2, svg[:200]
        assert 'transform="rotate(-90' in svg
    for title in ("win rate (95% Wilson interval)", "taken / turns on offer", "rounds played"):
        assert f">{title}<" in html


def test_long_names_are_shortened_in_charts() -> None:
    rs = hostile(spice_road())
    config = SimConfig(4, 2, ("greedy", "greedy"), 2)
    total = Aggregate(rs, config)
    for result in iter_results(rs, config):
        total.add(result)
    html = report_html([build_report(total)])
    assert len(HOSTILE) > LABEL_CHARS
    for svg in _svgs(html):
        labels = re.findall(r"<text [^>]*>(?:<title>.*?</title>)?([^<]*)<", svg, re.S)
        assert all(len(unescape(label)) <= 40 for label in labels)  # legend names at most 40
        assert "…" not in svg or "<title>" in svg  # the full name stays in a tooltip


def test_compare_overlays_both_sides_on_one_chart(tmp_path: Path) -> None:
    args = ["simulate", "--compare", "spice-road", "spice-road-classic", "--games", "6"]
    result = runner.invoke(cli.app, [*args, "--bots", "greedy", "-q", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "compare.html").read_text(encoding="utf-8")
    a = json.loads((tmp_path / "report-a.json").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "report-b.json").read_text(encoding="utf-8"))
    svgs = _svgs(html)
    assert len(svgs) == 11  # one chart per figure, not one per side
    (seats,) = [s for s in svgs if 'aria-label="Win rate per seat"' in s]
    for colour, side in zip(("#3b6ea8", "#d1843b"), (a, b), strict=True):
        assert f">{side['name']}<" in seats  # in the legend
        assert seats.count(f'fill="{colour}"><title>') == 2  # a bar per seat
    assert "share of games" in html  # histograms of both sides as shares, one scale
