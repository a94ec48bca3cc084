"""The one-cell notation of card effects: it writes every effect the YAML can, reads back
the same steps, and says where the text goes wrong."""

from __future__ import annotations

import pytest
import yaml

from century.model.cards import to_steps
from century.model.notation import NotationError, parse, text_of, write

WRITTEN = {
    "gain YY then upgrade 1": "[gain: YY, upgrade: 1]",
    "repeat (pay RR then gain G)": "[repeat: [pay: RR, gain: G]]",
    "repeat (pay Y then gain R) max 2": "[{repeat: [pay: Y, gain: R], max: 2}]",
    "choose (gain YYY | upgrade 2)": "[choose: [[gain: YYY], [upgrade: 2]]]",
    "pay_any 2 then gain B": "[pay_any: 2, gain: B]",
    "choose (repeat (pay Y then gain R) max 2 | pay_any 1 then gain RR | upgrade 3)": (
        "[choose: [[{repeat: [pay: Y, gain: R], max: 2}], [pay_any: 1, gain: RR], [upgrade: 3]]]"
    ),
    "repeat (choose (pay Y then gain R | pay R then gain G)) max 3": (
        "[{repeat: [choose: [[pay: Y, gain: R], [pay: R, gain: G]]], max: 3}]"
    ),
}


@pytest.mark.parametrize(("text", "data"), WRITTEN.items())
def test_the_notation_reads_as_yaml_and_writes_back(text, data):
    steps = yaml.safe_load(data)
    assert parse(text).plain() == steps
    assert write(steps) == text


def test_words_in_any_case_and_brackets_without_spaces():
    assert parse("Choose(Gain YY Then Upgrade 1|Pay_Any 2)").plain() == [
        {"choose": [[{"gain": "YY"}, {"upgrade": 1}], [{"pay_any": 2}]]}
    ]


def test_the_models_steps_are_written_with_the_ladders_codes():
    steps = to_steps(yaml.safe_load(WRITTEN["pay_any 2 then gain B"]), lambda c: (0, 0, 0, 1))
    assert text_of(steps, "YRGB") == "pay_any 2 then gain B"


@pytest.mark.parametrize(
    ("text", "at", "message"),
    [
        ("", 0, "an empty effect"),
        ("gian YY", 0, "expected a step, got 'gian'"),
        ("gain", 4, "'gain' takes cubes"),
        ("gain then upgrade 1", 5, "'gain' takes cubes"),
        ("upgrade", 7, "'upgrade' takes a whole number"),
        ("gain YY upgrade 1", 8, "'upgrade' after a step"),
        ("repeat pay Y", 7, "expected '(', got 'pay'"),
        ("repeat (pay Y then gain R", 25, "expected ')', got the end"),
        ("choose (gain Y | )", 17, "expected a step, got ')'"),
        ("gain YY )", 8, "')' outside of a repeat or choose"),
        ("repeat (pay Y) max", 18, "'max' takes a whole number"),
        ("=gain YY", 0, "expected a step, got '=gain'"),
    ],
)
def test_errors_say_where(text, at, message):
    with pytest.raises(NotationError) as err:
        parse(text)
    assert (err.value.at, err.value.code) == (at, "C104")
    assert err.value.message.startswith(message)


def test_nesting_is_capped():
    with pytest.raises(NotationError) as err:
        parse("repeat (" * 150 + "gain Y" + ")" * 150)
    assert err.value.code == "C012"


def _effects():
    """Random effects: every step, repeats (with and without max) and choices nested."""
    from hypothesis import strategies as st

    cubes = st.text("YRGB", min_size=1, max_size=5)
    leaf = st.one_of(
        st.builds(lambda c: {"gain": c}, cubes),
        st.builds(lambda c: {"pay": c}, cubes),
        st.builds(lambda n: {"pay_any": n}, st.integers(1, 9)),
        st.builds(lambda n: {"upgrade": n}, st.integers(1, 9)),
    )

    def nested(steps):
        lists = st.lists(steps, min_size=1, max_size=3)
        return st.one_of(
            st.builds(
                lambda body, most: {"repeat": body, **({"max": most} if most else {})},
                lists,
                st.integers(0, 3),
            ),
            st.builds(lambda options: {"choose": options}, st.lists(lists, min_size=2, max_size=3)),
        )

    return st.lists(st.recursive(leaf, nested, max_leaves=8), min_size=1, max_size=3)


def test_any_effect_reads_back_as_written():
    """Random effects: written, then read, they are the same steps; written again, the same
    text; in capitals, the same steps (words in any case, cubes as written)."""
    from hypothesis import given, settings

    @settings(max_examples=100, deadline=None)
    @given(_effects())
    def check(steps):
        text = write(steps)
        assert parse(text).plain() == steps
        assert write(parse(text).plain()) == text
        assert parse(text.upper()).plain() == steps

    check()
