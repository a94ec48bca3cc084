"""The trade arrow, which the legend defines as "as often as you can pay", marks only a
payment in a repeat without bound; a payment done once or in a bounded repeat has the plain
arrow (the icons of `century.prose.effect_tokens`, the same the card faces draw)."""

from __future__ import annotations

from century.prose import effect_tokens

PAY = ("pay", (1, 0, 0, 0))
GAIN = ("gain", (0, 1, 0, 0))


def test_only_a_repeat_without_bound_draws_the_trade_arrow():
    assert effect_tokens(((("repeat", (PAY, GAIN), 0)),), "YRGB") == ["cubes:Y", "arrow", "cubes:R"]
    bounded = effect_tokens((("repeat", (PAY, GAIN), 2),), "YRGB")
    assert "arrow" not in bounded and "pay" in bounded and bounded[-1] == "≤2×"
    nested = effect_tokens((("repeat", (("repeat", (PAY, GAIN), 3),), 0),), "YRGB")
    assert "arrow" not in nested  # the innermost repeat, bounded, says how often
    once = effect_tokens((PAY, GAIN, ("repeat", (("choose", ((PAY,), (GAIN,))),), 0)), "YRGB")
    assert once[:2] == ["cubes:Y", "pay"] and "arrow" in once[2:]
