"""`century serve` against careless and hostile clients: what a network table's tokens may
download mid-game, the live-connection cap under connections opened at once, slow and
never-finished requests, clients that leave mid-body and a stop mid-request (one line in the
server's words, no traceback), and the security headers on every response.

The servers here listen on 127.0.0.1 only; every test opens a bounded number of connections
and waits a bounded time."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator

import pytest

from helpers import bundled_rulesets, decisions, spice_road
from helpers.serve import served

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from century.engine import load_engine
from century.serve.app import HEADERS, Config, listen, make_app, uvicorn_server
from century.serve.tables import MAX_WATCHERS

BASE = "http://127.0.0.1:8000"
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


def test_no_token_of_a_network_table_gets_its_record_before_the_end():
    config = Config(games={"spice-road": bundled_rulesets()["spice-road"]}, network=True)
    with TestClient(make_app(config), base_url=BASE) as client:
        made = client.post(
            "/api/tables",
            json={"game": "spice-road", "seats": ["human", "human"], "network": True},
            headers={"Origin": BASE},
        ).json()
        table_id, tokens = made["table"], [link["token"] for link in made["links"]]
        assert len(tokens) == 3  # two seats and the watch link
        for token in tokens:
            answer = client.get(f"/api/tables/{table_id}/record?token={token}")
            assert answer.status_code == 403, answer.text
            assert "once the game is over" in answer.json()["error"]
            assert "seed" not in answer.headers.get("content-disposition", "")
            assert "moves" not in answer.json()
        # over, the record is everyone's
        ruleset = spice_road()
        engine = load_engine(ruleset)
        from century.bots.registry import GreedyBot

        finished = engine.new_game(2, 1)
        bots = [GreedyBot(engine, ruleset, seat) for seat in range(2)]
        for _ in decisions(finished):
            finished.play(bots[finished.current_player].choose(finished))
        client.app.state.server.tables.get(table_id).state = finished
        for token in tokens:
            answer = client.get(f"/api/tables/{table_id}/record?token={token}")
            assert answer.status_code == 200 and answer.json()["seed"] == 1


def test_every_response_has_the_security_headers():
    config = Config(games={"spice-road": bundled_rulesets()["spice-road"]})
    with TestClient(make_app(config), base_url=BASE) as client:
        for answer in (
            client.get("/no/such/page"),  # Starlette's own 404
            client.delete("/api/tables"),  # Starlette's own 405
            client.get("/"),
        ):
            for name, value in HEADERS.items():
                assert answer.headers.get(name) == value, (answer.status_code, name)


@contextlib.contextmanager
def running(**bounds: float) -> Iterator[tuple[int, Config]]:
    """A server on 127.0.0.1 (any free port) in a thread, with `bounds` set on its Config."""
    config = Config(
        games={"spice-road": bundled_rulesets()["spice-road"]}, port=0, bot_pause=0.0, **bounds
    )
    sock = listen("127.0.0.1", 0)
    config.port = sock.getsockname()[1]
    server = uvicorn_server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield config.port, config
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def post(port: int, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def connect(port: int, sent: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if sent:
        sock.sendall(sent)
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (whatever it answers first)."""
    sock.settimeout(seconds)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            if not sock.recv(65536):
                return True
    except TimeoutError:
        return False
    except OSError:
        return True  # reset
    return False


@pytest.mark.slow
def test_the_live_cap_holds_for_connections_opened_at_once():
    with running() as (port, _config):
        made = post(port, "/api/tables", {"game": "spice-road", "seats": ["human", "greedy"]})
        token = made["links"][0]["token"]
        head = (
            f"GET /api/tables/{made['table']}/events?token={token} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port}\r\n\r\n"
        ).encode()
        socks = [connect(port) for _ in range(MAX_WATCHERS + 14)]
        for sock in socks:  # all heads sent before any answer is read
            sock.sendall(head)
        statuses = []
        for sock in socks:
            sock.settimeout(10)
            statuses.append(sock.recv(64).split(b" ")[1])
        for sock in socks:
            sock.close()
    assert statuses.count(b"200") == MAX_WATCHERS, statuses
    assert statuses.count(b"429") == 14, statuses


@pytest.mark.slow
def test_slow_and_silent_clients_are_disconnected():
    with running(request_seconds=1.0, client_connections=8) as (port, _config):
        head = f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
        body = b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        half_heads = [connect(port, head) for _ in range(3)]
        unsent_bodies = [connect(port, head + body) for _ in range(3)]
        silent = [connect(port) for _ in range(2)]
        over = [connect(port) for _ in range(3)]  # the 9th to 11th of one client
        assert all(closed_within(sock, 2.0) for sock in over)
        for sock in half_heads + unsent_bodies + silent:
            assert closed_within(sock, 5.0)
        # a connection kept alive after an answer is timed again for its next request
        kept = connect(
            port, f"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        )
        kept.settimeout(10)
        assert kept.recv(4096).startswith(b"HTTP/1.1 204")
        kept.sendall(head)
        assert closed_within(kept, 5.0)
        kept.close()
        # the client may connect again, and a whole request is answered
        games = connect(port, f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        games.settimeout(10)
        assert games.recv(64).startswith(b"HTTP/1.1 200")
        for sock in half_heads + unsent_bodies + silent + over + [games]:
            sock.close()


@pytest.mark.slow
def test_a_client_leaving_mid_body_and_a_stop_mid_move_are_one_line_each():
    with served() as (url, process):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        head = (
            f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        ).encode()
        left = connect(port, head)
        time.sleep(0.3)
        left.close()  # leaves mid-body
        time.sleep(0.5)
        waiting = connect(port, head)  # still sending when the server is stopped
        time.sleep(0.3)
        process.send_signal(signal.SIGTERM)
        process.wait(30)
        waiting.close()
        assert process.stderr is not None
        said = process.stderr.read()
    assert "Traceback" not in said and "CancelledError" not in said, said
    assert "ClientDisconnect" not in said, said
    lines = [line for line in said.splitlines() if line.strip()]
    assert lines == [
        "century serve: a client left before its request arrived whole (/api/tables)",
        "century serve: stopped while 1 request(s) were still arriving or running; cut short",
    ], said
