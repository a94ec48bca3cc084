"""`century play` (a game in the terminal against bots) and `century simulate`."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from compiler.cli import RulesOpt, load_game
from compiler.paths import BUILD

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


# -- terminal rendering ----------------------------------------------------------------------


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
    from compiler.bots import card_book, read_view

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
    from compiler.report import display_name

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


# -- century play --------------------------------------------------------------------------------


@dataclass
class Table:
    """A game in progress in the terminal: the state, who sits where, how to draw it."""

    state: Any
    engine: Any
    ruleset: Any
    you: int
    bots: dict[int, Any]
    labels: list[str]
    paint: Painter


def play(
    game: Annotated[
        str, typer.Argument(help="The game or variant id, e.g. from `century validate`.")
    ],
    players: Annotated[int, typer.Option(help="Number of players, you included.")] = 2,
    bots: Annotated[
        str,
        typer.Option(help="Bot for the other seats, or one per other seat: greedy,random,search."),
    ] = "greedy",
    seat: Annotated[int, typer.Option(help="Your seat, 1 = first to play.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Game seed (default: a random one).")] = None,
    record: Annotated[
        Path | None, typer.Option(help="Where to save the game record (default: under build/).")
    ] = None,
    colour: Annotated[
        bool | None, typer.Option("--colour/--no-colour", help="Colour (default: on a terminal).")
    ] = None,
    rules: RulesOpt = None,
) -> None:
    """Play a game in the terminal against bots; the record is saved when you leave."""
    ruleset = load_game(game, rules)
    if not ruleset.players_min <= players <= ruleset.players_max:
        _fail(f"{game} is for {ruleset.players_min} to {ruleset.players_max} players")
    if not 1 <= seat <= players:
        _fail(f"--seat must be between 1 and {players}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if colour is None:
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    table = _set_table(ruleset, players, _other_bots(bots, players), seat - 1, seed, colour)
    path = record or BUILD / "records" / f"{re.sub(r'[^A-Za-z0-9_-]', '_', game)}-{seed}.json"
    typer.echo(f"{_title(ruleset)}: {players} players, seed {seed}. You are seat {seat}.")
    typer.echo("Type help for the notation and the commands.")
    try:
        _loop(table)
    finally:
        _save(table.state, path)
    if table.state.is_over():
        _final(table)


def _other_bots(spec: str, players: int) -> list[str]:
    """One checked bot spec per seat other than yours."""
    from compiler.bots import check_spec

    specs = [s.strip() for s in spec.split(",") if s.strip()]
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        _fail(f"--bots names {len(specs)} bots for {players - 1} other seats")
    try:
        for s in specs:
            check_spec(s)
    except ValueError as err:
        _fail(str(err))
    return specs


def _set_table(
    ruleset: Any, players: int, specs: list[str], you: int, seed: int, colour: bool
) -> Table:
    """A new game with the bots seated around you."""
    from compiler.bots import make_bot
    from compiler.simulate import derive_seed

    engine = _load_engine(ruleset)
    others = iter(specs)
    bots: dict[int, Any] = {}
    labels = []
    for s in range(players):
        if s == you:
            labels.append("you")
            continue
        spec = next(others)
        bots[s] = make_bot(spec, ruleset, derive_seed(seed, "play", s))
        labels.append(spec)
    state = engine.new_game(players, seed)
    return Table(state, engine, ruleset, you, bots, labels, Painter(ruleset, colour))


def _final(table: Table) -> None:
    scores = table.state.scores()
    typer.echo("Game over. Scores: " + ", ".join(f"seat {i + 1} {s}" for i, s in enumerate(scores)))
    winner = table.state.winner()
    if winner == table.you:
        typer.echo("You win!")
    else:
        typer.echo(f"Seat {winner + 1} ({table.labels[winner]}) wins.")


def _loop(table: Table) -> None:
    """Alternate bot moves and your moves until the game ends or you leave."""
    from compiler.bots import GreedyBot

    advisor = GreedyBot(table.ruleset, 0)
    state, shown = table.state, False
    while not state.is_over():
        mover = state.current_player
        if mover != table.you:
            move = table.bots[mover].choose(state)
            state.play(move)
            typer.echo(f"seat {mover + 1} ({table.labels[mover]}): {move}")
            shown = False
            continue
        if not shown:
            typer.echo("")
            typer.echo(
                render(state, table.ruleset, table.you, table.labels, table.paint),
                color=table.paint.colour,
            )
            typer.echo(list_moves(state.legal_moves()))
            shown = True
        typer.echo("your move> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            typer.echo("\nend of input: leaving the game")
            return
        outcome = _command(table, " ".join(line.split()).lower(), advisor)
        if outcome == "leave":
            return
        shown = shown and outcome != "moved"


def _command(table: Table, text: str, advisor: Any) -> str:
    """Act on one line you typed: ``"leave"``, ``"moved"`` or ``"stay"`` (ask again)."""
    state = table.state
    moves = state.legal_moves()
    if text in ("quit", "exit", "q"):
        typer.echo("leaving the game")
        return "leave"
    if text in ("help", "h", "?"):
        typer.echo(_help(table.ruleset))
    elif text in ("moves", "m"):
        typer.echo(list_moves(moves))
    elif text == "hint":
        typer.echo(f"the greedy bot would play: {advisor.choose(state)}")
    elif text.isdigit() and not 1 <= int(text) <= len(moves):
        typer.echo(f"no move number {text}: choose 1 to {len(moves)}")
    elif text:
        move = moves[int(text) - 1] if text.isdigit() else text
        try:
            state.play(move)
        except table.engine.IllegalMove as err:
            typer.echo(f"illegal move: {err}. Type help for the notation, moves for the list.")
            return "stay"
        typer.echo(f"seat {table.you + 1} (you): {move}")
        return "moved"
    return "stay"


def _help(ruleset: Any) -> str:
    gains = [c.id for c in (*ruleset.starting_cards, *ruleset.merchant_deck) if c.kind == "gain"]
    return HELP.format(gain=gains[0] if gains else "<card>", codes=" ".join(ruleset.codes))


def _save(state: Any, path: Path) -> None:
    from compiler.output import atomic_write_bytes

    data = json.dumps(state.record(), indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write_bytes(path, data.encode())
    except OSError as err:
        typer.echo(f"error: cannot save the record to {path}: {err.strerror or err}", err=True)
        typer.echo(data, err=True)
        raise typer.Exit(1) from None
    typer.echo(f"record saved to {path}")


def _title(ruleset: Any) -> str:
    from compiler.report import ruleset_label

    return ruleset_label(ruleset)


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _load_engine(ruleset: Any) -> Any:
    from compiler.targets.engine import load_engine

    return load_engine(ruleset)


# -- century simulate ----------------------------------------------------------------------------


def simulate(
    game: Annotated[str | None, typer.Argument(help="The game or variant to simulate.")] = None,
    games: Annotated[int, typer.Option(help="Number of games.", min=1)] = 1000,
    players: Annotated[int, typer.Option(help="Players per game.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="One bot for every seat, or one per seat, e.g. greedy,random. "
            "Bots: random, greedy, search, search:N (N moves tried per turn)."
        ),
    ] = "greedy",
    seed: Annotated[int, typer.Option(help="Base seed; each game's seed derives from it.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per CPU).", min=0)] = 0,
    cluster: Annotated[
        str | None, typer.Option(help="Run on a Dask scheduler at this address (extra 'cluster').")
    ] = None,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(
            help="Two games (ids, or report .json files) side by side.", show_default=False
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Report folder (default: build/reports/...).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    rules: RulesOpt = None,
) -> None:
    """Simulate many seeded games between bots; write a balance report (JSON and HTML)."""
    from compiler.output import atomic_write_bytes
    from compiler.report import render_html, to_json_bytes

    if (game is None) == (compare is None):
        _fail("name one GAME, or two with --compare A B")
    names = list(compare) if compare else [game]
    request = SimRequest(games, players, bots, seed, workers, cluster, quiet, rules)
    reports = [_report_for(name, request) for name in names]
    stem = "-vs-".join(r["game"] for r in reports)
    folder = out or BUILD / "reports" / stem
    if compare:
        for letter, report in zip("ab", reports, strict=True):
            atomic_write_bytes(folder / f"report-{letter}.json", to_json_bytes(report))
    else:
        atomic_write_bytes(folder / "report.json", to_json_bytes(reports[0]))
    html = folder / ("compare.html" if compare else "report.html")
    atomic_write_bytes(html, render_html(reports).encode())
    for report in reports:
        typer.echo(_summary(report))
    typer.echo(f"report written to {html}")


@dataclass(frozen=True)
class SimRequest:
    """The options of one `century simulate` call."""

    games: int
    players: int
    bots: str
    seed: int
    workers: int
    cluster: str | None
    quiet: bool
    rules: list[Path] | None


def _report_for(name: str, req: SimRequest) -> dict[str, Any]:
    """A report read from a .json file, or made by simulating the game `name`."""
    from compiler.report import build_report
    from compiler.simulate import ProgressBar, SimConfig, SimulationError, default_workers
    from compiler.simulate import seat_bots as per_seat
    from compiler.simulate import simulate as run

    if name.endswith(".json") and Path(name).is_file():
        try:
            report = json.loads(Path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            _fail(f"{name}: cannot read the report: {err}", 1)
        if not isinstance(report, dict) or report.get("report_version") is None:
            _fail(f"{name} is not a simulation report", 1)
        return report
    ruleset = load_game(name, req.rules)
    try:
        bots = per_seat(req.bots, req.players)
    except ValueError as err:
        _fail(str(err))
    config = SimConfig(games=req.games, players=req.players, bots=bots, seed=req.seed)
    bar = None if req.quiet else ProgressBar(req.games, f"{name} ")
    try:
        total = run(ruleset, config, req.workers or default_workers(), req.cluster, bar)
    except (SimulationError, ValueError) as err:
        _fail(str(err))
    finally:
        if bar:
            bar.close()
    return build_report(total)


def _summary(report: dict[str, Any]) -> str:
    seats = ", ".join(
        f"seat {s['seat']} {s['bot']} {100 * s['win_rate']:.1f}% "
        f"[{100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}]"
        for s in report["seats"]
    )
    rounds = report["rounds"]["mean"]
    return (
        f"{report['game']}: {report['config']['games']} games, {rounds} rounds on average; {seats}"
    )


def register(app: typer.Typer) -> None:
    """Add `play` and `simulate` to `app`."""
    app.command()(play)
    app.command()(simulate)
