"""How many screen lines the move list of `century play` takes, over random games.

Run: python benchmarks/bench_play_lines.py [--games 60] [--game spice-road] [--width 96]
Plays GAMES seeded games between random bots (2 to 5 players in turn) and, at every decision,
lays out the legal moves twice: as they were listed before moves were grouped (every move
numbered, one wrapped block per verb) and as `century play` lists them now (one entry per
card or slot, the cubes asked next). Prints the largest and the median of each, and the
decision with the most legal moves.
"""

from __future__ import annotations

import argparse
import random
import statistics

from century.cli.screen.table import list_choices
from century.engine import load_engine
from century.engine.choices import group_moves
from century.pipeline import compile_paths


def flat_listing(moves: list[str], width: int) -> str:
    """The list as `century play` printed it before: every move numbered, by verb."""
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--width", type=int, default=96)
    args = parser.parse_args()
    ruleset = compile_paths().rulesets[args.game]
    engine = load_engine(ruleset)
    before: list[int] = []
    after: list[int] = []
    most = (0, "")
    for game in range(args.games):
        rng = random.Random(game)
        players = ruleset.players_min + game % (ruleset.players_max - ruleset.players_min + 1)
        state = engine.new_game(players, game)
        while not state.is_over():
            moves = state.legal_moves()
            before.append(len(flat_listing(moves, args.width).splitlines()))
            choices = group_moves(moves, ruleset.codes)
            after.append(len(list_choices(choices, args.width).splitlines()))
            if len(moves) > most[0]:
                most = (len(moves), state.view().caravan(state.current_player).text)
            state.play(rng.choice(moves))
    print(f"{args.game}: {args.games} random games, {len(before)} decisions, width {args.width}")
    print(f"  most legal moves in one decision: {most[0]} (caravan {most[1]})")
    for label, lines in (("before (every move)", before), ("after (grouped)", after)):
        print(
            f"  {label:<20} lines: largest {max(lines)}, median {statistics.median(lines):g}, "
            f"99th percentile {sorted(lines)[int(0.99 * (len(lines) - 1))]}"
        )


if __name__ == "__main__":
    main()
