"""Showing a game in the terminal: rows, caravans, hands and coins, legal moves, help."""

from __future__ import annotations

from typing import Any

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

    def __init__(self, ruleset: Any, colour: bool) -> None:
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


def render(state: Any, ruleset: Any, you: int, labels: list[str], paint: Painter) -> str:
    """The position as text: rows, coins, every player's caravan and cards, your hand."""
    from century.play.bots import card_book, read_view

    data = state.to_dict()
    book = card_book(ruleset)
    view = read_view(data, book)
    lines = [paint.bold(f"Round {data.get('rounds', 0) + 1}")]
    piles = _piles(data, ruleset)
    row = []
    for slot, card_id in enumerate(view.point_row, 1):
        cost, pts = book.points.get(card_id, ((), 0))
        extra = f" +{piles[slot]}" if slot in piles else ""
        row.append(f"{slot}: {paint.cubes(ruleset.cubes(cost))} = {pts}{extra}")
    lines.append("Point cards:    " + ("   ".join(row) or "(none left)"))
    row = []
    for slot, card_id in enumerate(view.merchant_row, 1):
        on = ruleset.cubes(view.merchant_cubes[slot - 1])
        row.append(
            f"{slot}: {card_text(card_id, book, paint)}" + (f" [{paint.cubes(on)}]" if on else "")
        )
    lines.append("Merchant cards: " + ("   ".join(row) or "(none left)"))
    scores = state.scores()
    for seat, p in enumerate(data["seats"]):
        pv = view.players[seat]
        mark = "*" if seat == state.current_player else " "
        coins = ", ".join(f"{n} {pile}" for pile, n in sorted(p["coins"].items()) if n) or "none"
        cubes = paint.cubes(ruleset.cubes(pv.caravan))
        lines.append(
            f"{mark} seat {seat + 1} ({labels[seat]}): caravan {cubes}"
            f" ({sum(pv.caravan)}/{ruleset.caravan_limit}) · point cards {len(p['point_cards'])}"
            f" · coins {coins} · score {scores[seat]}"
        )
    me = view.players[you]
    lines.append("Your hand:   " + (" ".join(card_text(c, book, paint) for c in me.hand) or "-"))
    lines.append("Played:      " + (" ".join(card_text(c, book, paint) for c in me.played) or "-"))
    return "\n".join(lines)


def _piles(data: dict, ruleset: Any) -> dict[int, str]:
    """Point-row slot -> a label of the coin pile above it: name, value, coins left."""
    from century.play.report import display_name

    coins = {c.id: c for c in ruleset.coins}
    shown: dict[int, str] = {}
    for pile_id, pile in data.get("coins", {}).items():
        coin = coins.get(pile_id)
        if coin and pile["count"] > 0 and pile["position"] not in shown:
            name = display_name(coin.name, coin.id)
            shown[pile["position"]] = f"{name} ({coin.value}), {pile['count']} left"
    return shown


def card_text(card_id: str, book: Any, paint: Painter) -> str:
    """A merchant card as its id followed by its effect with coloured cubes."""
    card = book.merchants.get(card_id)
    if card is None:
        return card_id
    codes = paint.codes
    if card.kind == "gain":
        effect = "+" + paint.cubes(_cubes(codes, card.get))
    elif card.kind == "trade":
        effect = paint.cubes(_cubes(codes, card.pay)) + ">" + paint.cubes(_cubes(codes, card.get))
    else:
        effect = f"upgrade {card.steps}"
    return f"{card_id}({effect})"


def _cubes(codes: str, vector: Any) -> str:
    return "".join(code * n for code, n in zip(codes, vector, strict=True))


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
