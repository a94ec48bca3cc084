"""Cards typed on the command line (`century experiment --add/--replace`): steps are taken
as in a deck, and a problem inside a card is shown in the text the user typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli

runner = CliRunner()


def _experiment(tmp_path: Path, *args: str):
    out = tmp_path / "out"
    result = runner.invoke(
        cli.app, ["experiment", "spice-road", *args, "-q", "--games", "2", "--out", str(out)]
    )
    return result, out


def test_a_card_with_steps_is_added_and_replaces_another(tmp_path):
    result, out = _experiment(
        tmp_path,
        "--add",
        "{effect: [gain: YY, upgrade: 1]}",
        "--replace",
        "yy-g={effect: [choose: [[gain: YYY], [upgrade: 2]]]}",
        "--workers",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert (
        "added {effect: [gain: YY, upgrade: 1]}; "
        "replaced yy-g by {effect: [choose: [[gain: YYY], [upgrade: 2]]]}"
    ) in result.output
    report = json.loads((out / "experiment.json").read_text("utf-8"))
    ids = {c["id"] for c in report["changed"]["merchant_cards"]}
    assert {"+yy.up1", "{+yyy/up2}"} <= ids and "yy-g" not in ids


@pytest.mark.slow
def test_a_problem_in_a_typed_card_is_shown_in_the_typed_text(tmp_path):
    result, out = _experiment(tmp_path, "--add", "{effect: [gain: YY, upgrade: 0]}")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:4] == [
        "--add:1:30: error C104: 0 is below the minimum 1 "
        "[at cards.merchant.add[0].effect[1].upgrade]",
        "  |",
        "1 | {effect: [gain: YY, upgrade: 0]}",
        "  |                              ^",
    ]
    assert "changed.yaml" not in result.stderr and not out.exists()
    result, _ = _experiment(
        tmp_path,
        "--add",
        "{kind: gain, get: YY}",
        "--add",
        "{effect: [gain: Y,\n  repeat: [gain: Q]]}",
    )
    assert result.exit_code == 1
    assert "--add #2:2:18: error C302: unknown resource code Q in 'Q'" in result.stderr
    assert "2 |   repeat: [gain: Q]]}" in result.stderr
    result, _ = _experiment(tmp_path, "--replace", "yy-g={effect: [repeat: [gain: Y]]}")
    assert result.exit_code == 1
    assert result.stderr.startswith("--replace:1:16: error C317: card '{+y}x'")
