"""`century serve`: the games as a table in the browser, on this computer or the local
network."""

from __future__ import annotations

import ipaddress
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.base.extras import install_hint
from century.cli.common import COMPLETE_GAMES, Command, RulesOpt, fail, load_rulesets, local_rules

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.serve.app import Config

EXTRA = f"century serve needs starlette and uvicorn: {install_hint('serve', 'starlette uvicorn')}"
"""What `century serve` says when the serve extra is not installed."""
LOOPBACK = "127.0.0.1"
DEFAULT_DB = "century-tables.sqlite3"
"""Where the tables are kept when `--db` is not given: in the working folder."""


def _known_lang(value: str) -> str:
    from century.serve.words import languages

    if value and value not in languages():
        raise typer.BadParameter(f"{value[:20]!r} is not one of {', '.join(languages())}")
    return value


ServeGameArg = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME",
        help="The game the new-game form offers first (default: the first found); every "
        "game and variant found can be played.",
        autocompletion=COMPLETE_GAMES,
        show_default=False,
    ),
]
HostOpt = Annotated[
    str | None,
    typer.Option(
        "--host",
        metavar="ADDRESS",
        help="Listen on this address of the local network (e.g. 0.0.0.0) so others can "
        "join through their seats' secret links; default: this computer only (127.0.0.1).",
        show_default=False,
    ),
]
PortOpt = Annotated[
    int,
    typer.Option(metavar="N", min=0, max=65535, help="The port (0: any free one)."),
]
BotPauseOpt = Annotated[
    float,
    typer.Option(
        "--bot-pause",
        metavar="SECONDS",
        min=0.0,
        max=10.0,
        help="How long a bot waits before each move, so its moves can be followed.",
    ),
]
MaxTablesOpt = Annotated[
    int,
    typer.Option("--max-tables", metavar="N", min=1, max=1000, help="Tables held at once."),
]
DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        metavar="PATH",
        help="The SQLite file the tables are kept in, every move as it is made: a "
        "restarted server goes on with every game; made when missing, and never written "
        "over when it is not a tables database.",
    ),
]
DealOpt = Annotated[
    str,
    typer.Option(
        "--deal",
        metavar="PLACES",
        help="Start new tables from a chosen position, for a playtest: cards put into a "
        "seat's hand or a slot of the merchant row (hand.N=CARD,row.N=CARD, CARD a "
        "merchant card's id as `century show GAME` lists it); the new-game form offers "
        "it, and the game's record keeps the position.",
    ),
]
LangOpt = Annotated[
    str,
    typer.Option(
        "--lang",
        "-l",
        metavar="LANG",
        help="The language new tables are shown in (the page's words, the move log and "
        "the cards' names); each seat can switch its own on the page. Default: the "
        "game's first language.",
        callback=_known_lang,
        show_default=False,
    ),
]


def serve(
    game: ServeGameArg = None,
    host: HostOpt = None,
    port: PortOpt = 8000,
    bot_pause: BotPauseOpt = 0.8,
    max_tables: MaxTablesOpt = 32,
    db: DbOpt = DEFAULT_DB,
    deal: DealOpt = "",
    lang: LangOpt = "",
    rules: RulesOpt = None,
) -> None:
    """Play the games in the browser: a table with the game's cards, against bots, hot-seat
    or, with --host, on the local network. Prints the address; Ctrl-C or SIGTERM stops it.

    Needs starlette and uvicorn (the serve extra).
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        fail(EXTRA)
    address = _address(host)
    games = _games(game, rules)
    if deal:
        from century.serve.deal import DealError, example_deal, parse

        try:
            parse(deal, example_deal(next(iter(games.values()))))
        except DealError as err:
            fail(f"--deal: {err}", 2)
    from century.serve.app import Config

    config = Config(
        games=games,
        bot_pause=bot_pause,
        host=address,
        port=port,
        max_tables=max_tables,
        network=host is not None,
        deal=deal,
        language=lang,
    )
    _run(config, db)
    typer.echo("century serve: stopped")


def _address(host: str | None) -> str:
    """The address to listen on: `host`, an IP address or localhost (exit 2 otherwise),
    else this computer only."""
    address = LOOPBACK if host is None else host
    try:
        ipaddress.ip_address(address)
    except ValueError:
        if address != "localhost":
            fail(f"--host must be an IP address of this computer, not {address[:60]!r}", 2)
    return address


def _games(game: str | None, rules: list[Path] | None) -> dict[str, Ruleset]:
    """Every game found, by id, `game` first when named (exit 2 when none is found)."""
    compiled = load_rulesets(rules or local_rules(), with_bundled=True)
    games = dict(compiled.rulesets)
    if not games:
        fail("no games found", 2)
    if game is not None:
        from century.cli.common import require_game

        require_game(compiled, game)
        games = {game: games[game], **{k: v for k, v in games.items() if k != game}}
    return games


def _run(config: Config, db: str) -> None:
    """Serve the tables of `config`, kept in `db`, until Ctrl-C or SIGTERM stops them,
    printing the address once it listens."""
    from century.serve.app import run
    from century.serve.store import StoreError

    def ready(url: str) -> None:
        typer.echo(f"century serve: {len(config.games)} games at {url} (Ctrl-C stops)", err=False)
        going = len(config.store.ids()) if config.store is not None else 0
        if going:
            typer.echo(f"{going} unfinished table{'s' * (going != 1)} kept in {db} go on")
        if config.network:
            typer.echo(
                "listening on the network: each person joins through their seat's secret link"
            )

    stops: list[int] = []
    # uvicorn stops on SIGINT and SIGTERM, then raises the signal again for the handler it
    # found: this one notes it, so the command ends with exit 0 after a clean stop
    previous = {
        number: signal.signal(number, lambda signum, frame: stops.append(signum))
        for number in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        run(config, ready, db)
    except StoreError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot listen on {config.host}:{config.port}: {err.strerror or err}")
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def register(app: typer.Typer) -> None:
    """Add `serve` to `app`."""
    app.command(cls=Command)(serve)
