"""Showing a game in the terminal: rows, caravans, hands and coins, legal moves, help."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from century.engine.choices import Choice, is_marker
from century.model.text import shown

if TYPE_CHECKING:
    from century.engine import Engine
    from century.model.ruleset import Coin, Ruleset
    from century.runtime.engine import Card, State, View

HELP = """\
Type the number of a listed move, a move in the notation below, or the start of one
(a 6, p up2); an entry marked ·N (N ways to play the card, or cubes to pay, leave or
upgrade) asks which next, Enter taking its default, or takes them on the same line
(6 yy, acquire 6 yy).
  rest                    take your played cards back into your hand
  play <card>             play a card that gains cubes, e.g. play {gain}
  play <card> x<k>        play a trade card k times in a row (alone: Enter, the most)
  play <card> <cubes>     play an upgrade card: one letter per single-rank step,
                          naming the cube that rises (the same cube may rise again)
  play <card> <choices>   play a card of several steps: its choices in step order, e.g.
                          play {composed} — o<i>: the i-th option of a choice, x<k>: a
                          repeat done k times (then each time's choices), the cubes of an
                          upgrade or of a "pay any" (alone: Enter, the greedy bot's choice)
  acquire <slot> <cubes>  take the merchant card in that slot (1 = leftmost), placing
                          one cube on each card to its left (alone: Enter, the cheapest)
  claim <slot>            pay for the point card in that slot and take it
  discard <cubes>         return cubes when your caravan is over its limit
Cubes are written with the letters {codes} (lowest rank first), in any case.
Commands: help · moves (the list again) · moves all (every move in full) · hint (what the
greedy bot would do) · quit
"""


class Painter:
    """Cube letters and headings, in colour only when asked to."""

    def __init__(self, ruleset: Ruleset, colour: bool) -> None:
        self.colour = colour
        self.rgb = {r.code.lower(): _rgb(r.colour) for r in ruleset.resources}
        self.codes = ruleset.codes

    def cubes(self, text: str) -> str:
        """A cube string, each letter in its resource's colour."""
        if not text:
            return "-"
        if not self.colour:
            return text.upper()
        out = []
        for letter in text:
            rgb = self.rgb.get(letter.lower())
            out.append(
                f"\x1b[1;38;2;{rgb[0]};{rgb[1]};{rgb[2]}m{letter.upper()}\x1b[0m"
                if rgb
                else letter.upper()
            )
        return "".join(out)

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.colour else text


def _rgb(colour: str) -> tuple[int, int, int] | None:
    text = colour.lstrip("#")
    if len(text) != 6:
        return None
    try:
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
    except ValueError:
        return None


def draw(
    engine: Engine,
    state: State,
    ruleset: Ruleset,
    you: int | None,
    labels: list[str],
    paint: Painter,
    width: int = 0,
) -> str:
    """The position (a state of `engine`) as text: rows, coins, every player's caravan and
    cards, and the hand and played cards of seat `you` (None: no one's); wrapped between
    cards (never inside one) to `width` columns (0: not wrapped), each row's later lines
    indented under its first card."""
    view = state.view()

    def card(index: int) -> str:
        return card_text(engine, engine.CARDS[index], paint)

    lines = [paint.bold(f"Round {view.rounds() + 1}")]
    row = []
    for slot, index in enumerate(view.point_row):
        point_card = engine.POINT_CARDS[index]
        pile = view.coin_pile(slot)
        extra = f" +{_pile_label(view, ruleset, pile)}" if pile >= 0 else ""
        cost = paint.cubes(ruleset.cubes(point_card.cost))
        row.append(f"{slot + 1}: {cost} = {point_card.points}{extra}")
    lines += _wrap("Point cards:    ", row or ["(none left)"], "   ", width)
    row = []
    for slot, (index, cubes) in enumerate(zip(view.merchant_row, view.merchant_cubes, strict=True)):
        on = ruleset.cubes(cubes.vector)
        row.append(f"{slot + 1}: {card(index)}" + (f" [{paint.cubes(on)}]" if on else ""))
    lines += _wrap("Merchant cards: ", row or ["(none left)"], "   ", width)
    for seat in range(view.players):
        mark = "*" if seat == view.current_player else " "
        held = zip(ruleset.coins, view.coins(seat), strict=True)
        coins = ", ".join(f"{n} {coin.id}" for coin, n in sorted(held, key=_by_id) if n) or "none"
        caravan = view.caravan(seat)
        parts = [
            f"caravan {paint.cubes(caravan.text)} ({caravan.size}/{ruleset.caravan_limit})",
            f"point cards {len(view.point_cards(seat))}",
            f"coins {coins}",
            f"score {view.score(seat)}",
        ]
        lines += _wrap(f"{mark} seat {seat + 1} ({labels[seat]}): ", parts, " · ", width)
    if you is not None:
        hand = [card(c) for c in sorted(view.hand(you))]
        lines += _wrap("Your hand:   ", hand or ["-"], " ", width)
        played = [card(c) for c in sorted(view.played(you))]
        lines += _wrap("Played:      ", played or ["-"], " ", width)
    return "\n".join(lines)


ESCAPE = re.compile("\x1b\\[[0-9;]*m")
"""The colour codes `Painter` writes: no width on the screen."""


def visible_width(text: str) -> int:
    """The columns `text` takes on the screen (colour codes take none)."""
    return len(ESCAPE.sub("", text))


def _wrap(label: str, items: list[str], sep: str, width: int) -> list[str]:
    """`label` and the `items` joined by `sep`, in lines of at most `width` columns (0: one
    line), broken only between items; later lines indented to the first item (a line holds at
    least one item, however long)."""
    if width <= 0:
        return [label + sep.join(items)]
    indent = " " * min(visible_width(label), max(0, width // 3))
    lines: list[str] = []
    line, empty = label, True
    for item in items:
        if not empty and visible_width(line + sep + item) > width:
            lines.append(line)
            line, empty = indent, True
        line += item if empty else sep + item
        empty = False
    lines.append(line)
    return lines


def _by_id(held: tuple[Coin, int]) -> str:
    return held[0].id


def _pile_label(view: View, ruleset: Ruleset, pile: int) -> str:
    """A coin pile as its name, value and the coins left."""
    coin = ruleset.coins[pile]
    name = shown(coin.name, "en", coin.id)
    return f"{name} ({coin.value}), {view.coin_count(pile)} left"


def card_text(engine: Engine, card: Card, paint: Painter) -> str:
    """A merchant card of `engine` as its id followed by its effect (the engine's
    `effect_text`) with coloured cubes."""
    parts = engine.effect_text(card.effect, engine.CODES)  # words and cube strings, alternating
    effect = "".join(paint.cubes(part) if odd else part for odd, part in _alternating(parts))
    return f"{card.id}({effect})"


def _alternating(parts: tuple[str, ...]) -> list[tuple[bool, str]]:
    return [(index % 2 == 1, part) for index, part in enumerate(parts)]


def list_choices(choices: list[Choice], width: int = 96) -> str:
    """The entries, numbered, one wrapped line per verb; ``·N``: N ways to pay, leave or
    upgrade cubes, or to play a composed card (asked next, with a default)."""
    lines = ["Legal moves:"]
    verbs: dict[str, list[str]] = {}
    for number, choice in enumerate(choices, 1):
        verbs.setdefault(choice.key.split()[0], []).append(f"[{number}] {choice.label}".strip())
    for verb, items in verbs.items():
        line = f"  {verb:<8}"
        for item in items:
            if len(line) + 2 + len(item) > width and line.strip() != verb:
                lines.append(line)
                line = " " * 10
            line += "  " + item
        lines.append(line.rstrip())
    if any(len(choice.options) > 1 for choice in choices):
        composed = any(
            " " in option or (option[:1] == "o" and is_marker(option))
            for choice in choices
            for option in choice.options
        )
        ways = (
            "to play the card, or to pay, leave or upgrade cubes"
            if composed
            else ("to pay, leave or upgrade cubes")
        )
        lines.append(f"  (·N: N ways {ways}, asked next with a default)")
    return "\n".join(lines)


def list_options(choice: Choice, width: int = 96, most: int = 200) -> str:
    """The options of an entry, numbered and wrapped (at most `most`)."""
    items = [f"[{n}] {option or '(none)'}" for n, option in enumerate(choice.options[:most], 1)]
    lines, line = [], " "
    for item in items:
        if len(line) + 2 + len(item) > width and line.strip():
            lines.append(line)
            line = " "
        line += " " + item
    lines.append(line)
    if len(choice.options) > most:
        lines.append(f"  ... and {len(choice.options) - most} more: type the start of one")
    return "\n".join(lines)


def list_all(moves: list[str], width: int = 96) -> str:
    """Every legal move in canonical notation (what scripts and records use), wrapped."""
    lines, line = [f"All {len(moves)} legal moves:"], " "
    for move in moves:
        if len(line) + 3 + len(move) > width and line.strip():
            lines.append(line)
            line = " "
        line += "  " + move
    lines.append(line)
    return "\n".join(lines)
