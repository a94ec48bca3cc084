"""Card effects as steps: a corpus of composed cards with outcomes worked out by hand, a
property test of the engine's effects against a small step-by-step interpreter, and the
bundled games written in steps playing as their short forms do."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from century import pipeline
from century.engine import generate, load_engine, runtime
from century.engine.agree import disagreements
from century.model.cards import effect_data, to_steps

from helpers import ROOT, changed, decisions, spice_road

CODES = "yrgb"

# (effect as YAML, caravan, [(the move's words after the card, the caravan it leaves)]),
# every legal play in the engine's order, worked out by hand on the ladder y < r < g < b.
CORPUS: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("[gain: YY, upgrade: 1]", "", [("y", "yr")]),
    ("[gain: YY, upgrade: 1]", "g", [("y", "yrg"), ("g", "yyb")]),
    ("[choose: [[gain: YYY], [upgrade: 2]]]", "", [("o1", "yyy")]),
    ("[choose: [[gain: YYY], [upgrade: 2]]]", "y", [("o1", "yyyy"), ("o2 y", "r"), ("o2 yr", "g")]),
    ("[pay_any: 2, gain: B]", "yr", [("yr", "b")]),
    ("[pay_any: 2, gain: B]", "yyr", [("yy", "rb"), ("yr", "yb")]),
    ("[pay_any: 2, gain: B]", "y", []),
    ("[{repeat: [pay: Y, gain: R], max: 2}]", "yyy", [("x1", "yyr"), ("x2", "yrr")]),
    ("[{repeat: [pay: Y, gain: R], max: 2}]", "r", []),
    ("[repeat: [pay: RR, gain: G]]", "rrrrr", [("x1", "rrrg"), ("x2", "rgg")]),
    ("[pay: YY, gain: G]", "yyyy", [("", "yyg")]),
    ("[gain: Y, pay: YY]", "y", [("", "")]),
    ("[gain: Y, pay: YY]", "", []),
    ("[upgrade: 1, upgrade: 1]", "y", [("y r", "g")]),
    ("[upgrade: 1, upgrade: 1]", "yr", [("y r", "rg"), ("r g", "yb")]),
    ("[choose: [[pay: Y, gain: R], [pay: R, gain: Y]]]", "yr", [("o1", "rr"), ("o2", "yy")]),
    ("[choose: [[gain: Y], [gain: Y]]]", "", [("o1", "y")]),
    ("[choose: [[upgrade: 1], [pay: Y, gain: R]]]", "y", [("o1 y", "r")]),
    ("[{repeat: [pay_any: 1, gain: B], max: 2}]", "y", [("x1 y", "b")]),
    ("[pay_any: 1, upgrade: 1]", "yr", [("y r", "g"), ("r y", "r")]),
    ("[gain: R, choose: [[upgrade: 1], [gain: Y]]]", "", [("o1 r", "g"), ("o2", "yr")]),
    ("[repeat: [pay: B, gain: YYY]]", "bb", [("x1", "yyyb"), ("x2", "yyyyyy")]),
    ("[upgrade: 2]", "b", []),
    ("[upgrade: 2]", "gb", [("g", "bb")]),
    ("[{repeat: [upgrade: 1], max: 2}]", "y", [("x1 y", "r"), ("x2 y r", "g")]),
    ("[pay: G, choose: [[gain: RR], [gain: YYY]]]", "g", [("o1", "rr"), ("o2", "yyy")]),
    ("[choose: [[pay: YY, gain: G], [pay: R, gain: G]]]", "yyr", [("o1", "rg"), ("o2", "yyg")]),
    ("[gain: Y, repeat: [pay: YY, gain: R]]", "y", [("x1", "r")]),
    ("[gain: Y, repeat: [pay: YY, gain: R]]", "yyy", [("x1", "yyr"), ("x2", "rr")]),
    ("[pay_any: 1, gain: YY]", "g", [("g", "yy")]),
    (
        "[choose: [[repeat: [pay: Y, gain: R]], [upgrade: 1]]]",
        "yy",
        [("o1 x1", "yr"), ("o1 x2", "rr")],
    ),
    ("[upgrade: 1, gain: Y]", "y", [("y", "yr")]),
    ("[{repeat: [pay: Y, gain: R], max: 1}]", "yy", [("x1", "yr")]),
    (
        "[repeat: [choose: [[pay: Y, gain: R], [pay: R, gain: G]]]]",
        "y",
        [("x1 o1", "r"), ("x2 o1 o2", "g")],
    ),
    ("[gain: YY, pay_any: 2]", "r", [("yy", "r"), ("yr", "y")]),
    ("[gain: B, pay: Y]", "y", [("", "b")]),
    ("[pay_any: 1, gain: B]", "rg", [("r", "gb"), ("g", "rb")]),
    ("[upgrade: 3, gain: Y]", "", []),
    ("[upgrade: 3, gain: Y]", "g", [("g", "yb")]),
    (
        "[choose: [[gain: RR], [pay: Y, gain: G], [upgrade: 1]]]",
        "y",
        [("o1", "yrr"), ("o2", "g"), ("o3 y", "r")],
    ),
    ("[{repeat: [gain: Y], max: 3}]", "", [("x1", "y"), ("x2", "yy"), ("x3", "yyy")]),
    ("[pay: R, upgrade: 2]", "rr", [("r", "g"), ("rg", "b")]),
    ("[choose: [[pay_any: 1, gain: G], [gain: Y]]]", "b", [("o1 b", "g"), ("o2", "yb")]),
    ("[repeat: [pay: YY, gain: R], gain: Y]", "yyyy", [("x1", "yyyr"), ("x2", "yrr")]),
    ("[pay_any: 2, upgrade: 1]", "yyr", [("yy r", "g"), ("yr y", "r")]),
    ("[{repeat: [pay: G, gain: BB], max: 1}, upgrade: 1]", "g", []),
    ("[{repeat: [pay: G, gain: BB], max: 1}, upgrade: 1]", "yg", [("x1 y", "rbb")]),
]  # fmt: skip


def vector(cubes: str) -> tuple[int, ...]:
    return tuple(cubes.count(code) for code in CODES)


def text(vector: tuple[int, ...]) -> str:
    return "".join(code * n for code, n in zip(CODES, vector, strict=True))


def steps_of(effect: str) -> tuple[Any, ...]:
    return to_steps(yaml.safe_load(effect), lambda cubes: vector(cubes.lower()))


def plays(steps: tuple[Any, ...], caravan: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """The engine's plays of a card of `steps` from `caravan` (move -> caravan left)."""
    ways = runtime.effect_ways(steps, CODES, max(sum(caravan), 1))
    return runtime.effect_outcomes(caravan, ways, "play c")


@pytest.mark.parametrize(("effect", "caravan", "expected"), CORPUS)
def test_composed_cards_play_as_worked_out_by_hand(effect, caravan, expected):
    found = plays(steps_of(effect), vector(caravan))
    names = [(f"play c {words}" if words else "play c", vector(left)) for words, left in expected]
    assert list(found.items()) == names


def test_the_corpus_has_thirty_composed_cards():
    composed = {effect for effect, _, _ in CORPUS if not effect.startswith("[repeat: [pay:")}
    assert len(composed) >= 30


# -- a small step-by-step interpreter ---------------------------------------------------------


def interpret(steps: tuple[Any, ...], caravan: tuple[int, ...]) -> Iterator[Any]:
    """Every way to do `steps` from `caravan`, cube by cube: (its words, the caravan left)."""
    yield from _run(list(steps), list(caravan), ())


def _run(steps: list[Any], caravan: list[int], words: tuple[str, ...]) -> Iterator[Any]:
    if not steps:
        yield words, tuple(caravan)
        return
    step, rest = steps[0], steps[1:]
    op = step[0]
    if op == "gain":
        yield from _run(rest, [a + b for a, b in zip(caravan, step[1], strict=True)], words)
    elif op == "pay":
        left = [a - b for a, b in zip(caravan, step[1], strict=True)]
        if min(left) >= 0:
            yield from _run(rest, left, words)
    elif op == "pay_any":
        for paid in _submultisets(caravan, step[1]):
            left = [a - b for a, b in zip(caravan, paid, strict=True)]
            yield from _run(rest, left, (*words, text(tuple(paid))))
    elif op == "upgrade":
        for sources, left in _raises(caravan, step[1]):
            yield from _run(rest, left, (*words, "".join(sorted(sources, key=CODES.index))))
    elif op == "repeat":
        body, most = step[1], step[2] or 50
        for times in range(1, most + 1):
            unrolled = [("mark", f"x{times}")] + [s for _ in range(times) for s in body]
            yield from _run([*unrolled, *rest], caravan, words)
    elif op == "mark":
        yield from _run(rest, caravan, (*words, step[1]))
    else:  # choose
        for number, option in enumerate(step[1], 1):
            yield from _run([*option, *rest], caravan, (*words, f"o{number}"))


def _submultisets(caravan: list[int], size: int) -> Iterator[list[int]]:
    if not caravan:
        if size == 0:
            yield []
        return
    for n in range(min(size, caravan[0]) + 1):
        for tail in _submultisets(caravan[1:], size - n):
            yield [n, *tail]


def _raises(caravan: list[int], most: int) -> Iterator[tuple[str, list[int]]]:
    """Every sequence of 1..most single-rank raises, one cube at a time."""
    for rank in range(len(caravan) - 1):
        if caravan[rank]:
            left = list(caravan)
            left[rank] -= 1
            left[rank + 1] += 1
            yield CODES[rank], left
            if most > 1:
                for sources, further in _raises(left, most - 1):
                    yield CODES[rank] + sources, further


def _cubes(draw: Any, most: int) -> tuple[int, ...]:
    picked = draw(st.lists(st.sampled_from(range(4)), min_size=1, max_size=most))
    return tuple(picked.count(rank) for rank in range(4))


@st.composite
def effects(draw: Any, depth: int = 0) -> tuple[Any, ...]:
    """Random steps of every kind; an unbounded repeat always uses up cubes."""
    found = []
    for _ in range(draw(st.integers(1, 3 if depth == 0 else 2))):
        kinds = ["gain", "pay", "pay_any", "upgrade"] + (["repeat", "choose"] if depth < 2 else [])
        kind = draw(st.sampled_from(kinds))
        if kind in ("gain", "pay"):
            found.append((kind, _cubes(draw, 2)))
        elif kind in ("pay_any", "upgrade"):
            found.append((kind, draw(st.integers(1, 2))))
        elif kind == "repeat":
            if draw(st.booleans()):
                body = (("pay", _cubes(draw, 2)),)
                if draw(st.booleans()):
                    body += (("gain", _cubes(draw, 1)),)
                found.append(("repeat", body, 0))
            else:
                found.append(("repeat", draw(effects(depth + 1)), draw(st.integers(1, 2))))
        else:
            options = draw(st.lists(effects(depth + 1), min_size=2, max_size=3))
            found.append(("choose", tuple(options)))
    return tuple(found)


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(effects(), st.lists(st.sampled_from(range(4)), max_size=6))
def test_compiled_effects_agree_with_a_step_by_step_interpreter(steps, cubes):
    """From any caravan, the engine lists one move per caravan the steps can leave (what a
    cube-by-cube interpreter finds, no more and no fewer), each named by a way to it."""
    caravan = tuple(cubes.count(rank) for rank in range(4))
    try:
        found = plays(steps, caravan)
    except runtime.EffectTooLarge:
        reject()  # past the engine's cap (the checks' C506), not a disagreement
    ways = list(interpret(steps, caravan))
    assert set(found.values()) == {left for _, left in ways}
    spelt = {("play c " + " ".join(words)).strip(): left for words, left in ways}
    for move, left in found.items():
        assert spelt.get(move) == left, move


# -- the bundled games, written in steps --------------------------------------------------------


def _in_steps(folder) -> None:
    """Rewrite every deck file under `folder` with `effect:` steps in place of kinds."""
    for path in folder.rglob("*.yaml"):
        data = yaml.safe_load(path.read_text("utf-8"))
        if isinstance(data, dict) and "cards" in data and data.get("deck") != "point":
            for card in data["cards"]:
                if "kind" in card:
                    effect = effect_data(card)
                    for key in ("kind", "get", "pay", "steps"):
                        card.pop(key, None)
                    card["effect"] = effect
            path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")


@pytest.mark.slow
def test_bundled_games_written_in_steps_play_identically(tmp_path):
    """Every bundled game with its decks written as `effect:` steps generates the same engine
    and plays the same seeded games, move for move."""
    import shutil

    for name in ("rules", "cards"):
        shutil.copytree(ROOT / name, tmp_path / name)
    _in_steps(tmp_path / "cards")
    text = (tmp_path / "cards" / "spice-road" / "merchant.yaml").read_text("utf-8")
    assert "kind:" not in text and "repeat:" in text
    ours = pipeline.compile_paths([tmp_path / "rules", tmp_path / "cards"])
    bundled = pipeline.compile_paths()
    assert not [d for d in ours.diagnostics if d.severity == "error"]
    for game, ruleset in bundled.rulesets.items():
        mine = ours.rulesets[game]
        same = {"id": game, "sources": ruleset.sources, "source_hash": ruleset.source_hash}
        source = generate(changed(mine, **same))
        assert source == generate(ruleset), game
    a, b = load_engine(spice_road()), load_engine(ours.rulesets["spice-road"])
    for seed in range(20):
        rng = random.Random(seed)
        one, two = a.new_game(2 + seed % 3, seed), b.new_game(2 + seed % 3, seed)
        for _ in decisions(one):
            moves = one.legal_moves()
            assert moves == two.legal_moves()
            move = rng.choice(moves)
            one.play(move)
            two.play(move)
        assert one.scores() == two.scores()


def test_composed_cards_moves_outcomes_and_bounds_agree(base):
    """The in-package agreement check holds for a market of composed cards."""
    cards = [
        {"id": f"c{i}", "copies": 1, "name": {}, "effect": _json(steps_of(effect))}
        for i, effect in enumerate(sorted({effect for effect, _, _ in CORPUS}))
    ]

    def edit(data):
        data["merchant_deck"] += cards

    from helpers import edited

    engine = load_engine(edited(base, edit))
    assert disagreements(engine, 5) == []


def _json(steps: tuple[Any, ...]) -> list[Any]:
    from century.model.cards import steps_json

    return steps_json(steps)
