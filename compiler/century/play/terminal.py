"""Showing a game in the terminal: rows, caravans, hands and coins, legal moves, help."""

from __future__ import annotations

from typing import TYPE_CHECKING

from century.model.text import shown

if TYPE_CHECKING:
    from century.engine import Engine
    from century.engine.runtime import Card, State, View
    from century.model.ruleset import Coin, Ruleset

HELP = """\
Type a move in the notation below, or the number of a listed move.
  rest                    take your played cards back into your hand
  play <card>             play a card that gains cubes, e.g. play {gain}
  play <card> x<k>        play a trade card k times in a row
  play <card> <cubes>     play an upgrade card: one letter per single-rank step,
                          naming the cube that rises (the same cube may rise again)
  acquire <slot> <cubes>  take the merchant card in that slot (1 = leftmost), placing
                          one cube on each card to its left
  claim <slot>            pay for the point card in that slot and take it
  discard <cubes>         return cubes when your caravan is over its limit
Cubes are written with the letters {codes} (lowest rank first), in any case.
Commands: help · moves (list the legal moves) · hint (what the greedy bot would do) · quit
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


def render(
    engine: Engine, state: State, ruleset: Ruleset, you: int, labels: list[str], paint: Painter
) -> str:
    """The position (a state of `engine`) as text: rows, coins, every player's caravan and
    cards, your hand."""
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
    lines.append("Point cards:    " + ("   ".join(row) or "(none left)"))
    row = []
    for slot, (index, cubes) in enumerate(zip(view.merchant_row, view.merchant_cubes, strict=True)):
        on = ruleset.cubes(cubes.vector)
        row.append(f"{slot + 1}: {card(index)}" + (f" [{paint.cubes(on)}]" if on else ""))
    lines.append("Merchant cards: " + ("   ".join(row) or "(none left)"))
    for seat in range(view.players):
        mark = "*" if seat == view.current_player else " "
        held = zip(ruleset.coins, view.coins(seat), strict=True)
        coins = ", ".join(f"{n} {coin.id}" for coin, n in sorted(held, key=_by_id) if n) or "none"
        caravan = view.caravan(seat)
        lines.append(
            f"{mark} seat {seat + 1} ({labels[seat]}): caravan {paint.cubes(caravan.text)}"
            f" ({caravan.size}/{ruleset.caravan_limit}) · point cards"
            f" {len(view.point_cards(seat))} · coins {coins} · score {view.score(seat)}"
        )
    lines.append("Your hand:   " + (" ".join(card(c) for c in sorted(view.hand(you))) or "-"))
    lines.append("Played:      " + (" ".join(card(c) for c in sorted(view.played(you))) or "-"))
    return "\n".join(lines)


def _by_id(held: tuple[Coin, int]) -> str:
    return held[0].id


def _pile_label(view: View, ruleset: Ruleset, pile: int) -> str:
    """A coin pile as its name, value and the coins left."""
    coin = ruleset.coins[pile]
    name = shown(coin.name, "en", coin.id)
    return f"{name} ({coin.value}), {view.coin_count(pile)} left"


def card_text(engine: Engine, card: Card, paint: Painter) -> str:
    """A merchant card of `engine` as its id followed by its effect (the text of its kind's
    rules, `KindRules.text`) with coloured cubes."""
    rules = engine.KIND_RULES.get(card.kind)
    if rules is None:
        raise ValueError(f"no text for merchant cards of kind {card.kind!r}")
    parts = rules.text(card)  # words and cube strings, alternating
    effect = "".join(paint.cubes(part) if odd else part for odd, part in _alternating(parts))
    return f"{card.id}({effect})"


def _alternating(parts: tuple[str, ...]) -> list[tuple[bool, str]]:
    return [(index % 2 == 1, part) for index, part in enumerate(parts)]


def list_moves(moves: list[str], width: int = 96) -> str:
    """The legal moves, numbered, one wrapped line per kind of move."""
    groups: dict[str, list[str]] = {}
    for number, move in enumerate(moves, 1):
        groups.setdefault(move.split()[0], []).append(f"[{number}] {move}")
    lines = ["Legal moves:"]
    for verb, items in groups.items():
        line = f"  {verb:<8}"
        for item in items:
            if len(line) + 2 + len(item) > width and line.strip() != verb:
                lines.append(line)
                line = " " * 10
            line += "  " + item
        lines.append(line)
    return "\n".join(lines)
