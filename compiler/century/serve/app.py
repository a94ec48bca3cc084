"""The web application of `century serve` (Starlette) and `run`, which serves it (uvicorn).

Every request is checked before it reaches a table: the Host is the server's own (unless it
listens on the network, `--host`), a request that changes something is JSON from a page of
this server (its Origin, when sent, is the server's; a cross-site fetch is refused), a body
is at most `MAX_BODY` bytes, a table is named by its id and acted on with a seat token, and a
move is one of the engine's legal moves. Refusals are a JSON ``{"error": ...}`` with a 4xx
status, and leave the table as it was. Only the page's own files are served, by name from a
fixed list inside the package, and card images by number from memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from century.serve.guard import CLIENT_CONNECTIONS, REQUEST_SECONDS, SecurityHeaders, say
from century.serve.store import StoreError
from century.serve.tables import HUMAN, MAX_TABLES, MAX_WATCHERS, Setup, Table, TableError, Tables
from century.serve.threads import in_thread
from century.serve.words import languages, listed, speakable, words

if TYPE_CHECKING:
    from century.engine import Engine
    from century.model.ruleset import Ruleset
    from century.serve.store import Store, Stored

MAX_BODY = 2_000_000
"""The largest request body (a record to continue included): 2 MB."""
HEARTBEAT = 15.0
"""Seconds between the live channel's keep-alive comments."""
GLANCE = 0.5
"""Seconds a live channel waits for a change before it looks whether the server stops."""
STATIC = {
    "table.js": "text/javascript; charset=utf-8",
    "table.css": "text/css; charset=utf-8",
}
"""The page's files besides index.html: only these names are served."""
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass
class Config:
    """What a server plays: its games (by id, the first the default), the bots' pause
    before each move, where it listens, and its caps."""

    games: dict[str, Ruleset]
    bot_pause: float = 0.8
    host: str = "127.0.0.1"
    port: int = 8000
    max_tables: int = MAX_TABLES
    network: bool = False
    """Whether the server listens beyond this computer (`--host`): any Host header is then
    taken, and new tables may put people on their own devices."""
    engines: dict[str, Engine] = field(default_factory=dict)
    stopping: Callable[[], bool] = lambda: False
    request_seconds: float = REQUEST_SECONDS
    """How long a request may take to arrive (`century.serve.guard`)."""
    client_connections: int = CLIENT_CONNECTIONS
    """The connections one client address may hold at once."""
    """Whether the server is stopping (uvicorn was asked to): live channels then end."""
    deal: str = ""
    """Cards the new-game form deals by hand unless changed (`--deal`)."""
    language: str = ""
    """The language new tables are shown in (`--lang`); empty: each game's first."""
    store: Store | None = None
    """Where the tables are kept (`--db`): a restarted server finds them there; None: in
    memory only."""

    def lang(self, game: str) -> str:
        """The language a new table of `game` is shown in: `--lang`, else the game's first."""
        return self.language or self.games[game].languages[0]

    def page_lang(self) -> str:
        """The language the new-game form speaks first: `--lang`, else the first game's."""
        first = next(iter(self.games), None)
        return speakable(self.lang(first) if first is not None else "en")

    def engine(self, game: str) -> Engine:
        from century.engine import load_engine

        if game not in self.engines:
            self.engines[game] = load_engine(self.games[game])
        return self.engines[game]


class Server:
    """The tables, the live channels' wake-ups and the bots' tasks of one application."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.tables = Tables(config.max_tables, self._load if config.store is not None else None)
        self.wake: dict[str, asyncio.Event] = {}
        self.bots: dict[str, asyncio.Task[None]] = {}
        self.closing = asyncio.Event()
        self.warming: set[str] = set()

    def warm(self, game: str) -> None:
        """Draw a game's card images in the background, so its table's first load finds
        them (a request for them meanwhile waits for the same drawing)."""
        from century.serve.cards import game_cards

        if game in self.warming:
            return
        config = self.config
        self.warming.add(game)
        in_thread(game_cards, config.games[game], config.engine(game), config.lang(game))

    def keep(self, table: Table) -> None:
        """Hold a new `table`, and keep it in the store from now on."""
        self.tables.add(table)
        store = self.config.store
        if store is None:
            return
        try:
            store.add(table.stored())
        except StoreError as err:
            del self.tables.tables[table.id]
            raise TableError(507, f"the table was not made: {err}") from None
        table.store = store

    def _load(self, table_id: str) -> Table | None:
        """A table of the store restored to memory (its bots set going), or None."""
        from century.serve.tables import restore

        store = self.config.store
        assert store is not None
        try:
            stored = store.load(table_id)
        except StoreError as err:
            raise TableError(500, str(err)) from None
        if stored is None:
            return None
        ruleset = self.config.games.get(stored.game)
        if ruleset is None:
            raise TableError(
                409, f"this table's game, {stored.game!r}, is not among this server's games"
            )
        table = restore(stored, ruleset, self.config.engine(stored.game))
        table.store = store
        self.tables.add(table)
        self.warm(stored.game)
        self.changed(table)
        return table

    @property
    def stopped(self) -> bool:
        return self.closing.is_set() or self.config.stopping()

    def changed(self, table: Table) -> None:
        """Wake the table's live channels, and its bots if one is to move."""
        event = self.wake.pop(table.id, None)
        if event is not None:
            event.set()
        if table.bot_to_move() is not None and table.id not in self.bots:
            self.bots[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    def waiter(self, table: Table) -> asyncio.Event:
        return self.wake.setdefault(table.id, asyncio.Event())

    async def _drive(self, table: Table) -> None:
        """Play the bots' turns, each after a short pause, until a person is to move. A bot
        thinks on a copy of the table's state, in a worker thread; its move is made only if
        the table has not changed meanwhile (an undo)."""
        try:
            while (seat := table.bot_to_move()) is not None and not self.stopped:
                version = table.version
                if self.config.bot_pause > 0:
                    await asyncio.sleep(self.config.bot_pause)
                if table.version != version:
                    continue
                bot = table.bots[seat]
                try:
                    move = await in_thread(bot.choose, table.state.clone())
                except Exception as err:  # a bot's bug stops its table, not the server
                    table.stalled = f"{table.label(seat)} could not move: {str(err)[:200]}"
                    table.changed()
                    break
                if table.version == version and table.state.current_player == seat:
                    try:
                        table.apply(move)
                    except TableError as err:  # it could not be kept: the table waits
                        table.stalled = f"{table.label(seat)} could not move: {err.message}"
                        table.changed()
                        break
                    event = self.wake.pop(table.id, None)
                    if event is not None:
                        event.set()
        finally:
            self.bots.pop(table.id, None)


# -- checks --------------------------------------------------------------------------------


def _reader_lang(request: Request) -> str:
    """The language the asker reads: ``?lang=``, else the page's ``X-Lang`` header, the first
    of them the page speaks (a language refused is told in the header's); else empty (the
    table's language; English for a refusal)."""
    asked = (request.query_params.get("lang", ""), request.headers.get("x-lang", ""))
    return next((lang for lang in asked if lang in languages()), "")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers=HEADERS)


def _ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status, headers=HEADERS)


def _host_ok(request: Request, config: Config) -> bool:
    """Whether the Host header names this server (on loopback only: a page of another site
    that resolves its name to 127.0.0.1 must not reach the tables)."""
    if config.network:
        return True
    host = request.headers.get("host", "")
    name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    return name in ("127.0.0.1", "localhost", "[::1]") and port in ("", str(config.port))


def _same_origin(request: Request) -> bool:
    """Whether a request comes from a page of this server: its Origin (when the browser
    sends one) is this server's, and it is not a cross-site fetch."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


async def _body(request: Request) -> Any:
    """The request's JSON body, at most `MAX_BODY` bytes (`TableError` otherwise)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise TableError(415, "send JSON (Content-Type: application/json)", "json_type")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise _too_big()
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise _too_big()
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise TableError(400, "the body is not JSON", "not_json") from None


def _too_big() -> TableError:
    """The refusal of a body longer than `MAX_BODY`."""
    said = f"a request body is at most {MAX_BODY} bytes"
    return TableError(413, said, "body_size", most=MAX_BODY)


def _shape(shape: str) -> TableError:
    """The refusal of a body that is not the object `shape` (``{"move": "..."}``)."""
    return TableError(400, f"send {shape}", "body_shape", shape=shape)


def _token(request: Request) -> str | None:
    return request.headers.get("x-seat-token") or request.query_params.get("token")


def guarded(
    handler: Callable[[Request, Server], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """A route that checks the Host (and, for a change, the origin) first and turns a
    `TableError` into its status with a JSON message."""

    async def route(request: Request) -> Response:
        server: Server = request.app.state.server
        try:
            if not _host_ok(request, server.config):
                raise TableError(421, "this server answers only to its own address", "host")
            if request.method != "GET" and not _same_origin(request):
                said = "requests that change a table come from this server's page"
                raise TableError(403, said, "origin")
            return await handler(request, server)
        except TableError as err:
            return _error(err.status, err.said(_reader_lang(request)))
        except ClientDisconnect:  # the client left mid-body: nobody to answer, nothing done
            say(f"a client left before its request arrived whole ({request.url.path})")
            return _error(400, "the request did not arrive whole")

    return route


# -- routes --------------------------------------------------------------------------------


def _file(name: str) -> bytes:
    return files("century.serve").joinpath("static", name).read_bytes()


async def page(request: Request, server: Server) -> Response:
    return Response(_file("index.html"), media_type="text/html; charset=utf-8", headers=HEADERS)


async def static(request: Request, server: Server) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        raise TableError(404, "no such file", "no_file")
    return Response(_file(name), media_type=STATIC[name], headers=HEADERS)


async def no_icon(request: Request, server: Server) -> Response:
    return Response(status_code=204, headers=HEADERS)


async def games(request: Request, server: Server) -> Response:
    from century.bots.registry import BOTS
    from century.serve.deal import example_deal

    config = server.config
    listed = [
        {
            "id": game,
            "title": _title(ruleset, config.lang(game)),
            "players": [ruleset.players_min, ruleset.players_max],
            "variant_of": ruleset.extends[0] if ruleset.extends else None,
            "deal_example": example_deal(ruleset),
        }
        for game, ruleset in config.games.items()
    ]
    said = words(_reader_lang(request) or config.page_lang())  # a bot the words lack: English
    bots = [
        {
            "name": name,
            "summary": said.get(f"bot.{name}", kind.summary),
            "option": said.get(f"bot.{name}.option", kind.option) if kind.option else "",
        }
        for name, kind in BOTS.items()
    ]
    return _ok(
        {
            "games": listed,
            "bots": bots,
            "network": config.network,
            "human": HUMAN,
            "deal": config.deal,
        }
    )


def _title(ruleset: Ruleset, lang: str) -> str:
    from century.model.text import shown

    return shown(ruleset.name, lang, ruleset.id)


def _ruleset(server: Server, game: Any) -> Ruleset:
    if not isinstance(game, str) or game not in server.config.games:
        known = ", ".join(server.config.games)
        named = repr(str(game)[:40])
        said = f"unknown game {named} (known: {known})"
        raise TableError(400, said, "unknown_game", game=named, known=known)
    return server.config.games[game]


async def create(request: Request, server: Server) -> Response:
    """A new table: ``{game, seats, seed?, network?, record?}`` -> its id and tokens."""
    from century.serve.tables import new_table

    body = await _body(request)
    if not isinstance(body, dict):
        raise TableError(400, "send a JSON object", "json_object")
    record = body.get("record")
    game = body.get("game")
    if record is not None and game is None and isinstance(record, dict):
        game = record.get("rules")
    ruleset = _ruleset(server, game)
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise TableError(400, "seed: a whole number from 0", "seed")
    network = body.get("network", False)
    if not isinstance(network, bool):
        raise TableError(400, "network: true or false", "network")
    if network and not server.config.network:
        said = "seats on other devices need a server started with --host"
        raise TableError(400, said, "network_host")
    seats = body.get("seats")
    if seats is None and isinstance(record, dict) and isinstance(record.get("seats"), list):
        seats = record["seats"]
    names = body.get("names") or ()
    dealt = body.get("deal") or ""
    if not isinstance(dealt, str) or len(dealt) > 1000:
        raise TableError(
            400, "deal: a short text, hand.N=CARD or row.N=CARD by commas", "deal_text"
        )
    engine = server.config.engine(ruleset.id)
    setup = Setup(ruleset.id, seats, seed, network, record, names, dealt)  # type: ignore[arg-type]
    lang = server.config.lang(ruleset.id)
    table = await in_thread(new_table, ruleset, engine, setup, lang)
    server.keep(table)
    server.warm(ruleset.id)
    server.changed(table)
    links = [
        {"seats": sorted(seats_of), "token": token} for token, seats_of in table.tokens.items()
    ]
    return _ok({"table": table.id, "links": links}, 201)


async def listing(request: Request, server: Server) -> Response:
    """The server's tables, the last changed first: each game's seats, how far it went, its
    result once over; on this computer each table's own link, on the network its watch
    link."""
    config = server.config
    if config.store is not None:
        try:
            kept = config.store.listed()
        except StoreError as err:
            raise TableError(500, str(err)) from None
    else:
        kept = [t.stored() for t in reversed(server.tables.tables.values())]
    return _ok({"tables": [_listed(config, found) for found in kept]})


def _listed(config: Config, found: Stored) -> dict[str, Any]:
    ruleset = config.games.get(found.game)
    # on this computer: every table's own link; on the network (the lobby): its watch link
    # and, while the game is on, the links of the seats nobody has taken yet (unnamed)
    links = [
        {"seats": seats, "token": token}
        for token, seats in found.tokens.items()
        if not config.network
        or not seats
        or (not found.over and all(not found.names[seat] for seat in seats))
    ]
    return {
        "table": found.id,
        "game": found.game,
        "title": _title(ruleset, found.lang) if ruleset is not None else found.game,
        "playable": ruleset is not None,
        "seats": found.seats,
        "names": found.names,
        "network": found.network,
        "moves": len(found.moves),
        "over": found.over,
        "result": found.result,
        "updated": round(found.updated),
        "links": links,
    }


async def state(request: Request, server: Server) -> Response:
    table = server.tables.get(request.path_params["table"])
    seats = table.seats_of(_token(request))
    return _ok(table.snapshot(seats, _reader_lang(request)))


async def move(request: Request, server: Server) -> Response:
    table = server.tables.get(request.path_params["table"])
    seats = table.seats_of(_token(request))
    body = await _body(request)
    if not isinstance(body, dict):
        raise _shape('{"move": "..."}')
    start = time.perf_counter()
    table.move(seats, body.get("move"), body.get("version"))
    server.changed(table)
    seen = table.snapshot(seats, _reader_lang(request))
    spent = (time.perf_counter() - start) * 1000
    return JSONResponse(seen, headers={**HEADERS, "Server-Timing": f"move;dur={spent:.3f}"})


async def name(request: Request, server: Server) -> Response:
    """A person names themself: ``{name, seat?}`` for a seat of the token's."""
    table = server.tables.get(request.path_params["table"])
    seats = table.seats_of(_token(request))
    body = await _body(request)
    if not isinstance(body, dict):
        raise _shape('{"name": "..."}')
    table.name(seats, body.get("seat"), body.get("name"))
    server.changed(table)
    return _ok(table.snapshot(seats, _reader_lang(request)))


async def rematch(request: Request, server: Server) -> Response:
    """A new game of a finished table's players (``{rotate?}``: the second player starts),
    made once; every seat's page learns its link there from the finished table."""
    from century.serve.tables import rematch as rematched

    table = server.tables.get(request.path_params["table"])
    token = _token(request)
    seats = table.seats_of(token)
    body = await _body(request)
    if not isinstance(body, dict):
        raise _shape('{"rotate": true or false}')
    if table.rematch is None:
        made = rematched(table, seats, body.get("rotate", False))
        try:
            server.keep(made)
        except TableError:
            table.rematch = None
            raise
        if table.store is not None:
            try:
                table.store.rematched(table.id, table.rematch or {}, table.status())
            except StoreError as err:
                raise TableError(507, f"the rematch was not kept: {err}") from None
        table.changed()
        server.changed(table)
        server.changed(made)
    assert table.rematch is not None
    return _ok({"table": table.rematch["table"], "token": table.rematch["tokens"].get(token)}, 201)


async def undo(request: Request, server: Server) -> Response:
    table = server.tables.get(request.path_params["table"])
    seats = table.seats_of(_token(request))
    await _body(request)
    table.undo(seats)
    server.changed(table)
    return _ok(table.snapshot(seats, _reader_lang(request)))


async def record(request: Request, server: Server) -> Response:
    table = server.tables.get(request.path_params["table"])
    table.seats_of(_token(request))
    if not table.record_open():
        raise TableError(
            403,
            "a table on the network gives its record once the game is over: it holds what "
            "no seat may see before (the seed, the decks' order, every hand)",
            "record_closed",
        )
    data = json.dumps(table.record(), indent=2, ensure_ascii=False) + "\n"
    name = f"{table.ruleset.id}-{table.seed}.json"
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    headers = {**HEADERS, "Content-Disposition": f'attachment; filename="{safe}"'}
    return Response(data.encode(), media_type="application/json", headers=headers)


async def events(request: Request, server: Server) -> Response:
    """The live channel: server-sent events, one ``table`` event with the seat's snapshot
    at once and after every change, a comment every `HEARTBEAT` seconds."""
    if not _same_origin(request):
        raise TableError(403, "the live channel is for this server's page", "live_origin")
    table = server.tables.get(request.path_params["table"])
    seats = table.seats_of(_token(request))
    lang = _reader_lang(request)
    if table.watchers >= MAX_WATCHERS:
        said = f"a table takes at most {MAX_WATCHERS} live connections"
        raise TableError(429, said, "watchers", most=MAX_WATCHERS)

    async def stream() -> AsyncIterator[str]:
        sent, quiet = -1, 0.0
        while not server.stopped:
            if table.version != sent:
                sent, quiet = table.version, 0.0
                yield f"event: table\ndata: {json.dumps(table.snapshot(seats, lang))}\n\n"
                continue
            waiter = server.waiter(table)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter.wait(), GLANCE)
                continue
            quiet += GLANCE
            if quiet >= HEARTBEAT:
                quiet = 0.0
                yield ": still here\n\n"

    headers = {**HEADERS, "X-Accel-Buffering": "no"}
    table.watchers += 1  # counted as accepted (no await since the check): none can race it
    return _Live(table, stream(), media_type="text/event-stream", headers=headers)


class _Live(StreamingResponse):
    """A live channel's response: its table counts it from its acceptance until it ends,
    whether or not its stream ever started."""

    def __init__(self, table: Table, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.table.watchers -= 1


async def card_image(request: Request, server: Server) -> Response:
    from century.serve.cards import game_cards

    ruleset = _ruleset(server, request.path_params["game"])
    cards = await in_thread(
        game_cards, ruleset, server.config.engine(ruleset.id), server.config.lang(ruleset.id)
    )
    data = cards.images.get(request.path_params["name"])
    if data is None:
        raise TableError(404, "no such card image", "no_image")
    headers = {**HEADERS, "Cache-Control": "private, max-age=3600"}
    return Response(data, media_type="image/png", headers=headers)


async def card_texts(request: Request, server: Server) -> Response:
    """A game's cards for the page: per id its image and its effect in words; the cubes'
    and coins' names and colours; in the language asked for (``?lang=``, one the page
    speaks), else the server's."""
    from century.serve.cards import game_cards, legend

    ruleset = _ruleset(server, request.path_params["game"])
    lang = _asked_lang(request) or server.config.lang(ruleset.id)
    cards = await in_thread(game_cards, ruleset, server.config.engine(ruleset.id), lang)
    return _ok(
        {
            "merchant": cards.merchant,
            "point": cards.point,
            "backs": cards.backs,
            "limit": ruleset.caravan_limit,
            **legend(ruleset, lang),
        }
    )


def _asked_lang(request: Request) -> str:
    """The language a request asks for (``?lang=``), checked: one the page speaks, else
    `TableError` (400); empty when none is asked for."""
    asked = request.query_params.get("lang", "")
    if asked and asked not in languages():
        named, known = repr(asked[:20]), ", ".join(languages())
        said = f"no such language: {named} (known: {known})"
        raise TableError(400, said, "no_language", lang=named, known=known)
    return asked


async def page_words(request: Request, server: Server) -> Response:
    """The page's own words in the language asked for (``?lang=``), else the server's, with
    the languages the page speaks."""
    lang = _asked_lang(request) or server.config.page_lang()
    return _ok({"lang": lang, "languages": listed(), "words": words(lang)})


def make_app(config: Config) -> Starlette:
    """The application serving `config`'s games."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.server = Server(config)
        app.state.server.warm(next(iter(config.games)))
        try:
            yield
        finally:
            app.state.server.closing.set()
            for event in app.state.server.wake.values():
                event.set()

    routes = [
        Route("/", guarded(page)),
        Route("/t/{table}", guarded(page)),
        Route("/static/{name}", guarded(static)),
        Route("/favicon.ico", guarded(no_icon)),
        Route("/api/games", guarded(games)),
        Route("/api/games/{game}/cards", guarded(card_texts)),
        Route("/api/words", guarded(page_words)),
        Route("/api/games/{game}/images/{name}", guarded(card_image)),
        Route("/api/tables", guarded(create), methods=["POST"]),
        Route("/api/tables", guarded(listing)),
        Route("/api/tables/{table}", guarded(state)),
        Route("/api/tables/{table}/move", guarded(move), methods=["POST"]),
        Route("/api/tables/{table}/undo", guarded(undo), methods=["POST"]),
        Route("/api/tables/{table}/name", guarded(name), methods=["POST"]),
        Route("/api/tables/{table}/rematch", guarded(rematch), methods=["POST"]),
        Route("/api/tables/{table}/record", guarded(record)),
        Route("/api/tables/{table}/events", guarded(events)),
    ]
    guards = [Middleware(SecurityHeaders, headers=HEADERS)]  # Starlette's own 404/405 too
    return Starlette(routes=routes, lifespan=lifespan, middleware=guards)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host` and `port` (0: any free port); OSError when it cannot be."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def uvicorn_server(config: Config) -> Any:
    """The uvicorn server of `config`'s application, with the bounds of `century.serve.guard`
    (a request's time to arrive, connections per client and in all, the head's size) and
    its words for requests cut short."""
    import uvicorn

    from century.serve import guard

    server: Any = None
    config.stopping = lambda: bool(server is not None and server.should_exit)
    server = uvicorn.Server(
        uvicorn.Config(
            make_app(config),
            host=config.host,
            port=config.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
            lifespan="on",
            access_log=False,
            http=guard.protocol(config.request_seconds, config.client_connections),
            timeout_keep_alive=guard.KEEP_ALIVE_SECONDS,
            limit_concurrency=guard.SERVER_CONNECTIONS,
            h11_max_incomplete_event_size=guard.MAX_HEAD_BYTES,
        )
    )
    guard.quiet_cut_requests()
    return server


def run(config: Config, ready: Callable[[str], None] | None = None, db: str | None = None) -> None:
    """Serve `config` until Ctrl-C or SIGTERM (uvicorn ends the open connections within a
    second and returns), its tables kept in the database `db` when given; `ready` is told the
    address once the server listens. Before anything is served: OSError when the address
    cannot be bound, `StoreError` when `db` cannot be used."""
    from century.serve.store import Store

    sock = listen(config.host, config.port)
    if db is not None:
        try:
            config.store = Store(db)
        except BaseException:
            sock.close()
            raise
    try:
        _serve(config, sock, ready)
    finally:
        if db is not None and config.store is not None:
            config.store.close()


def _serve(config: Config, sock: socket.socket, ready: Callable[[str], None] | None) -> None:
    server = uvicorn_server(config)
    if ready is not None:
        original = server.startup

        async def startup(sockets: Any = None) -> None:
            await original(sockets)
            if server.started:
                port = server.servers[0].sockets[0].getsockname()[1] if server.servers else 0
                config.port = port  # the Host check's port, when any free one was asked for
                host = config.host if ":" not in config.host else f"[{config.host}]"
                ready(f"http://{host}:{port}/")

        server.startup = startup
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
