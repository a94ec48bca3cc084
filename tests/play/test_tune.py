"""`century tune`: a planted too-strong card brought back into the band with a proposal an
independent `experiment --own` confirms, the versions the search tries, bad input in the
tool's words, Ctrl-C keeping what is finished, and the same answer on a Dask cluster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.pipeline import compile_paths

runner = CliRunner()

PLANTED = "{kind: trade, pay: Y, get: RR}"
"""The game's yy-rr made y-rr: one turmeric into two saffron, far too strong."""


def _tune(out: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(cli.app, ["tune", *args, "-q", "--workers", "1", "--out", str(out)])
    return result.exit_code, result.output


def _planted_table(low: float, high: float) -> None:
    """A reference table of Spice Road at greedy in the cache (the test session's own):
    the merchant cards spread evenly from `high` to `low`, the band tune takes by default."""
    from century.experiments import owner

    rs = compile_paths().rulesets["spice-road"]
    plan = owner.Plan(60, 2, ("greedy",))
    ids = owner.merchant_ids(rs)
    step = (high - low) / (len(ids) - 1)

    def entry(value: float) -> dict:
        effect = {"difference": value, "a": 0.5, "b": 0.5 + value, "ci95": [value, value]}
        length = {"difference": 0.0, "a": 40.0, "b": 40.0, "ci95": [0.0, 0.0]}
        return {"bots": "greedy", "owner": {**effect, "significant": True}, "length": length}

    table = {
        "own_version": owner.OWN_VERSION,
        "key": owner.table_key(rs, plan),
        "game": rs.id,
        "source_hash": rs.source_hash,
        "plan": plan.to_json(),
        "cards": [{"card": c, "levels": [entry(high - i * step)]} for i, c in enumerate(ids)],
    }
    path = owner.table_path(rs, plan)
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table), encoding="utf-8")


def test_the_band_is_the_middle_half_of_the_games_cards() -> None:
    from century.experiments.tune import middle_half

    table = {
        "cards": [
            {"card": str(v), "levels": [{"bots": "greedy", "owner": {"difference": v / 100}}]}
            for v in range(9)  # 0 .. 8 points
        ]
    }
    assert middle_half(table, "greedy") == (0.02, 0.06)
    assert middle_half(table, "planner") is None


def test_a_band_rule_stops_when_the_interval_is_wholly_inside_or_outside() -> None:
    from century.simulation.sequential import (
        INSIDE,
        OUTSIDE,
        ConfidenceSequence,
        StopRule,
        reason,
    )

    rule = StopRule(10_000, band=(0.1, 0.9))
    inside, outside = ConfidenceSequence(), ConfidenceSequence()
    inside.extend([1, 0] * 200)  # a mean of 0.5
    outside.extend([-1, 0] * 200)  # a mean of -0.5
    assert reason([inside], rule, 400) == INSIDE
    assert reason([outside], rule, 400) == OUTSIDE
    few = ConfidenceSequence()
    few.extend([1, 0] * 5)  # too few games to say either
    assert reason([few], rule, 10) is None
    assert rule.to_json()["band"] == [0.1, 0.9] and "band" not in StopRule(10).to_json()


def test_versions_move_one_number_one_step_in_one_direction() -> None:
    from century.experiments.tune import tuned_card
    from century.experiments.versions import STRONGER, WEAKER, versions
    from century.model.ruleset import MerchantCard

    rs = compile_paths().rulesets["spice-road"]
    card = tuned_card(rs, "yy-rr")
    weaker = versions(rs, card, WEAKER, 40, 1)
    texts = [v.text for v in weaker]
    assert "{kind: trade, pay: YYY, get: RR}" in texts  # a cube more paid
    assert "{kind: trade, pay: YY, get: R}" in texts  # a cube less gained
    assert "{kind: trade, pay: YR, get: RR}" in texts  # a paid cube one rank up
    assert "{kind: trade, pay: YY, get: YR}" in texts  # a gained cube one rank down
    assert all(v.edits == 1 for v in weaker)
    stronger = [v.text for v in versions(rs, card, STRONGER, 40, 2)]
    assert "{kind: trade, pay: Y, get: RR}" in stronger  # the planted card, one edit away
    assert "{kind: trade, pay: YY, get: RRR}" in stronger
    assert not set(texts) & set(stronger)
    # a trade that would give back what it takes is never tried (a repeat without end)
    assert "{kind: trade, pay: R, get: RR}" not in stronger
    repeat = MerchantCard(
        "x", 1, (("repeat", (("pay", (1, 0, 0, 0)), ("gain", (0, 2, 0, 0))), 2),), {}
    )
    assert "{effect: [{repeat: [pay: Y, gain: RR], max: 1}]}" in [
        v.text for v in versions(rs, repeat, WEAKER, 40, 1)
    ]
    assert "{effect: [{repeat: [pay: Y, gain: RR], max: 3}]}" in [
        v.text for v in versions(rs, repeat, STRONGER, 40, 1)
    ]
    upgrade = tuned_card(rs, "up2")
    assert [v.text for v in versions(rs, upgrade, WEAKER, 40, 3)] == ["{kind: upgrade, steps: 1}"]


@pytest.mark.slow
def test_a_planted_too_strong_card_is_brought_back_into_the_band(tmp_path: Path) -> None:
    """y-rr (about +45 points to its owner at greedy) against a band of -10 to +40 (the
    middle half of a planted table): the proposal's interval lies inside the band, and
    `experiment --own` on other deals measures it inside the band too."""
    _planted_table(-0.40, 0.80)
    code, output = _tune(tmp_path / "out", "spice-road", PLANTED, "--level", "greedy")
    assert code == 0, output
    answer = json.loads((tmp_path / "out" / "tune.json").read_text("utf-8"))
    assert answer["bands"]["greedy"] == [-0.1, 0.5]
    assert answer["band_source"].startswith("the middle half of the game's 43 merchant cards")
    assert answer["screened"][0]["card"] == PLANTED
    assert answer["screened"][0]["owner"]["difference"] > 0.3
    assert answer["proposals"], output
    proposal = answer["proposals"][0]
    confirmed = next(c for c in answer["confirmed"] if c["card"] == proposal)
    (level,) = confirmed["levels"]
    low, high = level["owner"]["ci95"]
    assert low >= -0.1 and high <= 0.5 and level["place"] == "inside"
    assert level["stop"]["alpha"] == pytest.approx(0.05 / len(answer["confirmed"]))
    assert f"proposals: {proposal}" in output
    assert "multiple testing: each of the" in output
    html = (tmp_path / "out" / "tune.html").read_text("utf-8")
    assert proposal in html and "Multiple testing" in html
    result = runner.invoke(
        cli.app,
        [
            *("experiment", "spice-road", "--own", proposal, "--levels", "greedy"),
            *("--games", "300", "--seed", "7", "-q", "--workers", "1"),
            *("--out", str(tmp_path / "check")),
        ],
    )
    assert result.exit_code == 0, result.output
    check = json.loads((tmp_path / "check" / "own.json").read_text("utf-8"))
    effect = check["levels"][0]["owner"]["difference"]
    assert -0.1 <= effect <= 0.5, (proposal, effect)
    planted = answer["screened"][0]["owner"]["difference"]
    assert effect < planted - 0.1


def test_bad_input_is_refused_in_the_tools_words(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = _tune(out, "spice-road", "yy-rx", "--band", "0:10")
    assert code == 2 and "CARD 'yy-rx': no card of that id in spice-road" in output, output
    assert "did you mean 'yy-rr'?" in output
    for band in ("10", "20:10", "a:b", "0:200"):
        code, output = _tune(out, "spice-road", "yy-rr", "--band", band)
        assert code == 2 and f"--band {band!r}: write LO:HI" in output, output
    code, output = _tune(out, "spice-road", "yy-rr", "--level", "greedy,greedy", "--band", "0:9")
    assert code == 2 and "name each bot once" in output, output
    code, output = _tune(out, "spice-road", "yyrr", "--level", "greedy")
    assert code == 1 and "name the band of a point card with --band LO:HI" in output, output
    assert "Traceback" not in output and not out.exists()


@pytest.mark.slow
def test_a_band_out_of_reach_says_so_and_what_was_tried(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ("--level", "greedy", "--budget", "50")
    up1 = "{kind: upgrade, steps: 1}"
    code, output = _tune(out, "spice-road", up1, "--band", "-100:-90", *args)
    assert code == 1, output
    assert f"{up1}: no number of it can be changed to make it weaker" in output
    assert "lies above the band -100.0 to -90.0" in output
    code, output = _tune(
        out, "spice-road", "{kind: trade, pay: BBBB, get: Y}", "--band", "-100:-90"
    )
    assert code == 1, output
    assert "within 3 edits reaches the band -100.0 to -90.0 at greedy (tried" in output, output
    assert "{kind: trade, pay: BBBB, get: Y}: " in output  # the card and its versions, measured
    assert "Traceback" not in output and not out.exists()


def test_ctrl_c_keeps_the_versions_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the third measurement: the two finished are written and said."""
    from century.experiments import tune

    measured = tune.owner_effect
    calls = []

    def interrupted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return measured(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tune, "owner_effect", interrupted)
    out = tmp_path / "out"
    code, output = _tune(out, "spice-road", PLANTED, "--band", "-10:40", "--budget", "50")
    assert code == 130, output
    assert "interrupted; the 2 versions finished are kept in the report" in output
    answer = json.loads((out / "tune.json").read_text("utf-8"))
    assert answer["interrupted"] and len(answer["screened"]) == 2
    assert not answer["proposals"]
    assert "Interrupted" in (out / "tune.html").read_text("utf-8")


@pytest.mark.slow
def test_tune_gives_the_local_answer_on_a_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip(
        "distributed", reason="the optional 'cluster' extra (dask) is not installed"
    )
    from dask.distributed import LocalCluster

    args = ("spice-road", PLANTED, "--band", "-10:40", "--level", "greedy", "--budget", "100")
    code, output = _tune(tmp_path / "local", *args)
    assert code == 0, output
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1) as cluster:
        code, output = _tune(tmp_path / "dask", *args, "--cluster", cluster.scheduler_address)
    assert code == 0, output
    local = (tmp_path / "local" / "tune.json").read_bytes()
    assert (tmp_path / "dask" / "tune.json").read_bytes() == local
    address = "tcp://127.0.0.1:9"
    code, output = _tune(tmp_path / "unreachable", *args, "--cluster", address)
    assert code == 2 and f"cannot reach the Dask scheduler at {address}" in output, output
    assert not (tmp_path / "unreachable").exists()
