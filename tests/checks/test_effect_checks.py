"""The checks of card effects say what is true: C506 counts the moves from one caravan, as
its message says; C317 refuses a repeat that never ends, paying or not, and lets a repeat
of upgrades (which runs out) be."""

from __future__ import annotations

from typer.testing import CliRunner

from century import cli
from century.checks.effects import most_from_one
from century.engine.effects import ways


def _validate(tmp_path, monkeypatch, cards: str) -> str:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli.app, ["new", "house", "--from", "spice-road"]).exit_code == 0
    game = tmp_path / "rules" / "house.yaml"
    game.write_text(game.read_text("utf-8") + "cards:\n  merchant:\n    add:\n" + cards)
    made = runner.invoke(cli.app, ["validate", str(game)])
    return f"{made.exit_code}\n{made.output}"


def test_moves_are_counted_from_one_caravan(tmp_path, monkeypatch):
    """1,013 different changes over all caravans, at most 153 from any one: accepted."""
    steps = (("repeat", (("pay_any", 2), ("upgrade", 2)), 3),)
    found = ways(steps, 4, 10)
    assert len({way.delta for way in found}) == 1013
    assert most_from_one(found, 10) == 153
    out = _validate(
        tmp_path,
        monkeypatch,
        "      - {id: c1, effect: [{repeat: [pay_any: 2, upgrade: 2], max: 3}]}\n",
    )
    assert out.startswith("0\n") and "C506" not in out, out


def test_the_best_caravan_is_found():
    """Paying a cube of each rank first: only a caravan holding all four can play it, and
    the count is of the changes that caravan leaves (a brute force over every caravan)."""
    from itertools import product

    steps = (("pay", (1, 1, 1, 1)), ("upgrade", 3), ("pay_any", 2))
    found = ways(steps, 4, 10)
    brute = max(
        len({w.delta for w in found if all(n <= c for n, c in zip(w.need, caravan, strict=True))})
        for caravan in product(range(11), repeat=4)
        if sum(caravan) <= 10
    )
    assert most_from_one(found, 10, over=0) == brute < len({w.delta for w in found})


def test_an_endless_repeat_that_pays_is_c317_and_upgrades_run_out(tmp_path, monkeypatch):
    cards = (
        "      - {id: grows, effect: [repeat: [pay: Y, gain: YY]]}\n"
        "      - {id: swap, effect: [repeat: [choose: [[pay: Y, gain: R], [pay: R, gain: YY]]]]}\n"
        "      - {id: ups, effect: [repeat: [upgrade: 1]]}\n"
    )
    out = _validate(tmp_path, monkeypatch, cards)
    assert out.count("error C317") == 2, out
    assert "card 'grows'" in out and "card 'swap'" in out and "'ups'" not in out
    assert "C506" not in out
