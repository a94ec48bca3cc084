"""The limits: every cap is a named constant listed in the docs with its value and meaning; the
move-table bound is an upper bound of what the engine lists; the prose sandbox refuses bombs at
once."""

from __future__ import annotations

import dataclasses
import random
import re
import time
from collections.abc import Callable

import pytest

from century.base import limits
from century.engine import load_engine
from century.engine.size import move_bound
from century.model.ruleset import Ruleset

from helpers import (
    BUNDLED,
    bundled_rulesets,
    changed,
    decisions,
    docs_generator,
    five_ranks,
    position,
    spice_road,
)


def test_every_limit_is_in_the_docs_with_its_value_and_meaning():
    """The docs' table of caps (generated from limits.py when the site is built) has every
    cap with its value and a docstring saying what it bounds."""
    table = docs_generator().limits_table()
    found = re.findall(r"^\| `([A-Z_]+)` \| ([\d_.,]+) \| (.*) \|$", table, flags=re.M)
    assert all(meaning.strip() for _, _, meaning in found), found
    rows = {name: value for name, value, _ in found}
    caps = {n: v for n, v in vars(limits).items() if n.isupper() and isinstance(v, int | float)}
    assert caps, "limits.py defines the caps"
    assert {n: float(v.replace(",", "").replace("_", "")) for n, v in rows.items()} == caps


# -- the move-table bound ----------------------------------------------------------------------


def measured_moves(engine, players: int, games: int, seed: int) -> int:
    """The longest `legal_moves()` over random playouts."""
    most = 0
    for game in range(games):
        rng = random.Random(seed + game)
        state = engine.new_game(players, seed + game)
        for _ in decisions(state):
            moves = state.legal_moves()
            most = max(most, len(moves))
            state.play(moves[rng.randrange(len(moves))])
    return most


def rich_position(engine, ruleset, players: int, rng: random.Random):
    """A random state near the worst case: a caravan at the limit spread over the ranks, every
    merchant card in the hand, full rows."""
    ranks = len(ruleset.resources)
    cubes = [ruleset.codes[i % ranks].lower() for i in range(ruleset.caravan_limit)]
    rng.shuffle(cubes)
    caravan = "".join(sorted(cubes, key=ruleset.codes.lower().index))
    cards = list(dict.fromkeys(c.id for c in (*ruleset.starting_cards, *ruleset.merchant_deck)))
    points = [p.id for p in ruleset.point_deck]
    rng.shuffle(points)
    seats = [{"caravan": caravan, "hand": cards}] + [{} for _ in range(players - 1)]
    row = rng.sample(cards, min(ruleset.merchant_row, len(cards)))
    return position(engine, players, seats, merchant_row=row, point_row=points[: ruleset.point_row])


VARIANTS: dict[str, Callable[[], Ruleset]] = {
    **{game: lambda game=game: bundled_rulesets()[game] for game in BUNDLED},
    "five-ranks": lambda: five_ranks(spice_road()),
    "row-8": lambda: changed(spice_road(), id="row-8", merchant_row=8),
    "small-caravan": lambda: changed(
        spice_road(), id="small-caravan", caravan_limit=5, merchant_row=9
    ),
    "five-ranks-row-7": lambda: changed(
        five_ranks(), id="five-ranks-row-7", merchant_row=7, caravan_limit=9
    ),
}
"""The rulesets the bound is checked on, built when a test runs (a data error in the bundled
rules then fails the tests with its diagnostics, not their collection)."""


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_move_bound_is_an_upper_bound_of_the_engine(variant):
    ruleset = VARIANTS[variant]()
    engine = load_engine(ruleset)
    bound = move_bound(ruleset).per_decision
    rng = random.Random(ruleset.id)
    rich = max(len(rich_position(engine, ruleset, 2, rng).legal_moves()) for _ in range(5))
    played = measured_moves(engine, 2, 3, 11)
    assert max(rich, played) <= bound
    assert rich > bound // 3, f"the bound ({bound}) should not be far above the worst ({rich})"


def test_the_example_of_a_12_card_row_and_20_cube_caravans():
    ruleset = changed(spice_road(), merchant_row=12, caravan_limit=20)
    assert 4_900_000 < move_bound(ruleset).per_decision < 5_000_000
    assert move_bound(ruleset).per_decision > limits.MAX_MOVES


# -- prose bombs -------------------------------------------------------------------------------

BOMBS = {
    "power": "{{ 9**(9**9) }}",
    "product": "{% set x = 2**4000 %}{{ x * x * x }}",
    "repeat": '{{ "x" * 10**10 }}',
    "huge range": "{% for i in range(10**9) %}{% endfor %}",
    "nested loops": "{% for i in range(5000) %}{% for j in range(5000) %}{% endfor %}{% endfor %}",
    "doubling": "{% set l0 = ['ab'] %}"
    + "".join(f"{{% set l{i + 1} = [l{i}, l{i}] %}}" for i in range(60))
    + "{{ l60|length }}",
    "replace": "{{ ('x' * 10000)|replace('', 'y' * 10000) }}",
    "output": "{% for i in range(10000) %}{{ 'x' * 10000 }}{% endfor %}",
    "format width": "{{ '{:>999999999}'.format(1) }}",
    "percent": "{{ '%999999999d' % 1 }}",
    "to_bytes": "{{ (1).to_bytes(10**9, 'big') }}",
    "macro": "{% macro f() %}{{ f() }}{{ f() }}{% endmacro %}{{ f() }}",
}


@pytest.mark.parametrize("source", BOMBS.values(), ids=BOMBS.keys())
def test_a_prose_bomb_is_refused_by_a_limit_before_it_runs_long(source):
    """Each bomb is stopped by a size, step or syntax limit, never by the deadline (which
    would mean it ran for PROSE_SECONDS first); no wall-clock time is asserted."""
    from century.prose import ProseError, prose_texts

    base = spice_road()
    prose = {lang: dict(text) for lang, text in base.prose.items()}
    prose["en"]["goal"] = source
    ruleset = dataclasses.replace(base, prose=prose)
    with pytest.raises(ProseError) as refused:
        prose_texts(ruleset, "en")
    assert refused.value.code == "C403" and refused.value.key == "goal"
    assert "PROSE_SECONDS" not in str(refused.value), refused.value


def test_the_deadline_stops_a_slow_template():
    from century.prose.sandbox import Budget, SandboxLimit, environment, run_template

    env = environment(lambda value: value)
    slow = env.from_string("{% for i in range(9000) %}{{ (s|list|sort)[0] }}{% endfor %}")
    with pytest.raises(SandboxLimit, match="PROSE_SECONDS"):
        run_template(slow, {"s": "x" * 19000}, Budget(seconds=0.05))


def test_printing_an_object_is_an_error_not_a_difference_between_builds():
    from century.prose import ProseError, prose_texts

    base = spice_road()
    for source in ("{{ resources|map(attribute='items')|list }}", "{{ t.resources.upper }}"):
        prose = {lang: dict(text) for lang, text in base.prose.items()}
        prose["en"]["goal"] = source
        with pytest.raises(ProseError) as refused:
            prose_texts(dataclasses.replace(base, prose=prose), "en")
        assert refused.value.code == "C404"


@pytest.mark.slow
def test_the_bundled_prose_passes_on_a_machine_ten_times_slower(monkeypatch):
    """The same rules pass on every machine: the prose's deadline is a backstop that a
    machine ten times slower than this one (its CPU clock run ten times as fast) stays under."""
    import types

    from typer.testing import CliRunner

    from century import cli
    from century.prose import sandbox

    real = time.thread_time
    start = real()
    slowed = types.SimpleNamespace(thread_time=lambda: start + (real() - start) * 10)
    monkeypatch.setattr(sandbox, "time", slowed)
    result = CliRunner().invoke(cli.app, ["validate"])
    assert result.exit_code == 0, result.output
    assert "C403" not in result.output


@pytest.mark.slow
def test_a_call_on_a_long_text_counts_the_steps_of_its_size():
    from century.prose.sandbox import Budget, SandboxLimit, environment, run_template

    env = environment(lambda value: value)
    slow = env.from_string("{% for i in range(9000) %}{{ (s|list|sort)[0] }}{% endfor %}")
    with pytest.raises(SandboxLimit, match="PROSE_MAX_STEPS"):
        run_template(slow, {"s": "x" * 19000}, Budget(seconds=3600))
