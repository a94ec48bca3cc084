"""`century serve` without a browser: the JSON API through Starlette's test client (every
refusal a 4xx that leaves the table unchanged: an illegal move, a wrong token, an oversized
body, a foreign origin or host, a file outside the page's own), tables and their caps, undo,
records that replay and continue, what a seat on the network sees, the move log in words; and
the command itself: its usage errors, and a clean end on SIGTERM."""

from __future__ import annotations

import json
import signal
import urllib.request

import pytest

from helpers import decisions, spice_road
from helpers.serve import api, served, settled, snapshot, wait_until

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from century.engine import load_engine
from century.serve.app import MAX_BODY

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture
def client():
    with api("spice-road", "golem") as made:
        yield made


def table(client, seats=("human", "greedy"), seed=5, **extra):
    answer = client.post(
        "/api/tables", json={"game": "spice-road", "seats": list(seats), "seed": seed, **extra}
    )
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["table"], made["links"]


@pytest.mark.slow
def test_a_table_plays_the_engines_moves_and_the_bots_answer(client):
    table_id, links = table(client)
    (link,) = links
    assert link["seats"] == [0]
    token = link["token"]
    seen = snapshot(client, table_id, token)
    assert seen["acting"] == 0 and seen["you"] == [0]
    assert "hand" in seen["seats"][0] and "hand" not in seen["seats"][1]
    assert seen["record_open"]  # on this computer the record is given at any time
    legal = [o["move"] for m in seen["moves"] for o in m["options"]]
    engine = load_engine(spice_road())
    assert sorted(legal) == sorted(engine.new_game(2, 5).legal_moves())
    answer = client.post(
        f"/api/tables/{table_id}/move", json={"move": "rest"}, headers={"X-Seat-Token": token}
    )
    assert answer.status_code == 200
    after = settled(client, table_id, token)
    assert after["log"][0]["move"] == "rest"
    assert len(after["log"]) == 2 and after["log"][1]["seat"] == 1  # the bot answered
    assert after["log"][0]["text"].startswith("Seat 1 (person) rests")
    # the record replays with the engine to the same position
    record = client.get(f"/api/tables/{table_id}/record", headers={"X-Seat-Token": token}).json()
    assert record["seats"] == ["human", "greedy"]
    assert (
        engine.replay(record).to_dict()
        == engine.replay({**record, "moves": [e["move"] for e in after["log"]]}).to_dict()
    )


@pytest.mark.parametrize(
    ("body", "headers", "status", "says"),
    [
        ({"move": "claim 9"}, {}, 422, "not a legal move"),
        ({"move": ""}, {}, 400, "a move is a short text"),
        ({"move": ["rest"]}, {}, 400, "a move is a short text"),
        ({"move": "rest", "version": 99}, {}, 409, "has changed"),
        ({"move": "rest"}, {"X-Seat-Token": "not-a-token"}, 403, "not one of this table's"),
        ({"move": "rest"}, {"X-Seat-Token": ""}, 403, "secret link"),
        ({"move": "rest"}, {"Origin": "http://evil.example"}, 403, "this server's page"),
        ({"move": "rest"}, {"Sec-Fetch-Site": "cross-site"}, 403, "this server's page"),
        ({"move": "rest"}, {"Host": "evil.example"}, 421, "its own address"),
        ("rest", {"Content-Type": "text/plain"}, 415, "send JSON"),
    ],
)
def test_a_refused_move_is_a_4xx_and_leaves_the_table_as_it_was(
    client, body, headers, status, says
):
    table_id, [link] = table(client)
    token = link["token"]
    before = snapshot(client, table_id, token)
    sent = {"X-Seat-Token": token, **headers}
    if isinstance(body, str):
        answer = client.post(f"/api/tables/{table_id}/move", content=body, headers=sent)
    else:
        answer = client.post(f"/api/tables/{table_id}/move", json=body, headers=sent)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["error"]
    assert snapshot(client, table_id, token) == before


def test_an_oversized_body_is_refused_before_it_is_read(client):
    table_id, [link] = table(client)
    big = json.dumps({"move": "rest", "pad": "x" * (MAX_BODY + 10)})
    answer = client.post(
        f"/api/tables/{table_id}/move",
        content=big,
        headers={"X-Seat-Token": link["token"], "Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    assert snapshot(client, table_id, link["token"])["version"] == 0


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "nope", "seats": ["human", "greedy"]}, "unknown game 'nope'"),
        ({"game": "spice-road", "seats": ["human"]}, "is for 2 to 5 players"),
        ({"game": "spice-road", "seats": ["greedy", "greedy"]}, "at least one person"),
        ({"game": "spice-road", "seats": ["human", "wizard"]}, "unknown bot 'wizard'"),
        ({"game": "spice-road", "seats": ["human", "planner:77"]}, "bad bot option"),
        ({"game": "spice-road", "seats": ["human", "greedy"], "seed": -1}, "seed"),
        ({"game": "spice-road", "seats": ["human", "greedy"], "seed": "7"}, "seed"),
        ({"game": "spice-road", "seats": ["human", "human"], "network": True}, "--host"),
        (
            {"record": {"rules": "spice-road", "players": 2, "seed": 1, "moves": ["fly"]}},
            "does not replay",
        ),
        ({"record": [1, 2]}, "unknown game"),
    ],
)
def test_a_new_table_that_cannot_be_is_a_400_naming_why(client, body, says):
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    assert says in answer.json()["error"]


@pytest.mark.slow
def test_only_the_pages_own_files_are_served(client):
    assert client.get("/").status_code == 200
    assert "Content-Security-Policy" in client.get("/").headers
    assert client.get("/static/table.js").status_code == 200
    for path in (
        "/static/index.html",
        "/static/..%2f..%2fpyproject.toml",
        "/static/%2e%2e",
        "/etc/passwd",
    ):
        assert client.get(path).status_code == 404, path
    cards = client.get("/api/games/golem/cards").json()
    image = next(info["image"] for info in cards["merchant"].values() if info["image"])
    answer = client.get(f"/api/games/golem/images/{image}")
    assert answer.status_code == 200 and answer.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get("/api/games/golem/images/..%2fcards").status_code == 404
    assert client.get("/api/games/nope/cards").status_code == 400


def test_undo_takes_back_to_the_persons_last_decision(client):
    table_id, [link] = table(client, seed=9)
    token = link["token"]
    headers = {"X-Seat-Token": token}
    assert client.post(f"/api/tables/{table_id}/undo", json={}, headers=headers).status_code == 409
    first = snapshot(client, table_id, token)
    client.post(f"/api/tables/{table_id}/move", json={"move": "rest"}, headers=headers)
    assert settled(client, table_id, token)["log_size"] == 2
    answer = client.post(f"/api/tables/{table_id}/undo", json={}, headers=headers)
    assert answer.status_code == 200
    back = answer.json()
    assert back["log_size"] == 0 and back["acting"] == 0
    for key in ("seats", "point_row", "merchant_row", "moves"):
        assert back[key] == first[key]


def test_a_record_continues_where_it_stopped(client):
    table_id, [link] = table(client, seed=3)
    headers = {"X-Seat-Token": link["token"]}
    client.post(f"/api/tables/{table_id}/move", json={"move": "rest"}, headers=headers)
    before = settled(client, table_id, link["token"])
    record = client.get(f"/api/tables/{table_id}/record", headers=headers).json()
    answer = client.post("/api/tables", json={"record": record})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    again = snapshot(client, made["table"], made["links"][0]["token"])
    assert [e["move"] for e in again["log"]] == [e["move"] for e in before["log"]]
    assert again["seats"] == before["seats"]


def test_network_seats_see_only_their_own_hands():
    with api(network=True) as client:
        answer = client.post(
            "/api/tables",
            json={"game": "spice-road", "seats": ["human", "human", "greedy"], "network": True},
        )
        made = answer.json()
        by_seats = {tuple(link["seats"]): link["token"] for link in made["links"]}
        assert set(by_seats) == {(0,), (1,), ()}
        one = snapshot(client, made["table"], by_seats[(0,)])
        two = snapshot(client, made["table"], by_seats[(1,)])
        watch = snapshot(client, made["table"], by_seats[()])
        assert [("hand" in s) for s in one["seats"]] == [True, False, False]
        assert [("hand" in s) for s in two["seats"]] == [False, True, False]
        assert not any("hand" in s for s in watch["seats"])
        assert two["moves"] == [] and one["moves"]
        # seat 2 cannot move for seat 1, and there is no undo on the network
        headers = {"X-Seat-Token": by_seats[(1,)]}
        refused = client.post(
            f"/api/tables/{made['table']}/move", json={"move": "rest"}, headers=headers
        )
        assert refused.status_code == 409 and "seat 1" in refused.json()["error"]
        refused = client.post(f"/api/tables/{made['table']}/undo", json={}, headers=headers)
        assert refused.status_code == 409
        # nor a record before the end: the page offers none, and the server refuses it
        assert [s["record_open"] for s in (one, two, watch)] == [False] * 3
        refused = client.get(f"/api/tables/{made['table']}/record", headers=headers)
        assert refused.status_code == 403


def test_the_server_holds_at_most_its_tables(client):
    server = client.app.state.server
    server.tables.most = 2
    table(client)
    table(client)
    answer = client.post("/api/tables", json={"game": "spice-road", "seats": ["human", "greedy"]})
    assert answer.status_code == 503 and "2 tables" in answer.json()["error"]
    # a finished game nobody watches makes room
    from century.bots.registry import GreedyBot

    ruleset = spice_road()
    engine = load_engine(ruleset)
    finished, bot = engine.new_game(2, 1), GreedyBot(engine, ruleset, 1)
    for _ in decisions(finished):
        finished.play(bot.choose(finished))
    first = next(iter(server.tables.tables.values()))
    first.state = finished
    assert table(client)[0] in server.tables.tables
    assert first.id not in server.tables.tables


def test_the_log_reads_like_the_rulebook(client):
    table_id, [link] = table(client, seats=("human", "human"), seed=1)
    headers = {"X-Seat-Token": link["token"]}
    seen = snapshot(client, table_id, link["token"])
    plays = [m for m in seen["moves"] if m["verb"] == "play"]
    acquire = next(m for m in seen["moves"] if m["key"] == "acquire 2")
    client.post(f"/api/tables/{table_id}/move", json={"move": plays[0]["default"]}, headers=headers)
    client.post(f"/api/tables/{table_id}/move", json={"move": acquire["default"]}, headers=headers)
    log = snapshot(client, table_id, link["token"])["log"]
    assert log[0]["text"].startswith("Seat 1 (person) plays ") and "caravan" in log[0]["text"]
    assert log[1]["text"].startswith("Seat 2 (person) acquires ")
    assert "placing" in log[1]["text"] and "on the card before it" in log[1]["text"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("nope",), "unknown game 'nope'"),
        (("--host", "my laptop"), "--host must be an IP address"),
        (("--port", "70000"), "--port must be ... at most 65535"),
        (("--lang", "xx"), "--lang ... 'xx' is not one of en, de, fr"),
    ],
)
def test_serve_usage_errors_exit_2(run, args, says):
    result = run("serve", *args)
    assert result.exit_code == 2, result.output
    before, _, after = says.partition(" ... ")  # older typers also say "0 or more and"
    assert before in result.stderr and after in result.stderr.partition(before)[2]
    assert "Traceback" not in result.output + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_the_server_ends_cleanly_on_a_signal_with_a_live_channel_open(signum):
    with served() as (url, process):
        request = urllib.request.Request(
            url + "api/tables",
            data=json.dumps({"game": "spice-road", "seats": ["human", "greedy"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        made = json.load(urllib.request.urlopen(request, timeout=30))
        token = made["links"][0]["token"]
        stream = urllib.request.urlopen(
            f"{url}api/tables/{made['table']}/events?token={token}", timeout=30
        )
        assert stream.readline().startswith(b"event: table")
        process.send_signal(signum)
        assert process.wait(30) == 0
        assert "stopped" in process.stdout.read()
        assert "Traceback" not in process.stderr.read()


@pytest.mark.slow
def test_a_composed_card_offers_its_choices_in_words_and_is_drawn():
    from century.serve.tables import Setup, new_table

    from helpers import composed

    ruleset = composed()
    engine = load_engine(ruleset)
    made = new_table(ruleset, engine, Setup(ruleset.id, ("human", "greedy"), 2), "en")
    data = made.state.to_dict()
    data["seats"][0]["hand"] = [*data["seats"][0]["hand"], "{+yyy/up2}", "{any1-+r}x2"]
    data["seats"][0]["caravan"] = "yyrg"
    data.pop("moves")
    made.state = engine.State.from_dict(data)
    (token,) = made.tokens
    moves = {m["key"]: m for m in made.snapshot(made.tokens[token])["moves"]}
    choice = moves["play {+yyy/up2}"]
    words = {o["option"]: o["words"] for o in choice["options"]}
    assert words["o1"] == "Take 3 turmeric"  # a branch named by what it does, as the prose says
    assert words["o2 yr"] == (
        "Make 1 or 2 upgrades of one rank each, on one spice or several, raising Y R"
    )
    outcome = {o["option"]: (o["paid"], o["gained"], o["after"]) for o in choice["options"]}
    assert outcome["o1"] == ("", "yyy", "yyyyyrg") and outcome["o2 yr"] == (
        "y",
        "g",
        "yrgg",
    )  # net: Y up to R, R up to G
    assert choice["name"] == (
        "the merchant card (Choose one: [take 3 turmeric] or "
        "[make 1 or 2 upgrades of one rank each, on one spice or several])"
    )
    repeat = moves["play {any1-+r}x2"]
    assert {o["option"]: o["words"] for o in repeat["options"]}["x2 y g"] == (
        "twice, paying Y, paying G"
    )
    made.apply(choice["options"][-1]["move"])
    assert made.log[-1].text.startswith("Seat 1 (person) plays the merchant card (Choose one: ")
    # the card is drawn as the print kit draws it, and named in words for those who cannot see it
    from century.serve.cards import game_cards

    cards = game_cards(ruleset, engine, "en")
    drawn = cards.merchant["{+yyy/up2}"]
    assert drawn["image"] in cards.images and drawn["words"]


def test_the_live_channel_refuses_another_sites_page(client):
    table_id, [link] = table(client)
    path = f"/api/tables/{table_id}/events?token={link['token']}"
    refused = client.get(path, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and "this server's page" in refused.json()["error"]
    refused = client.get(path, headers={"Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403
    assert client.get(f"/api/tables/{table_id}/events?token=nope").status_code == 403


def test_a_bot_that_fails_stops_its_table_and_says_so(client):
    table_id, [link] = table(client, seed=6)
    made = client.app.state.server.tables.get(table_id)

    class Broken:
        def choose(self, state):
            raise RuntimeError("out of ideas")

    made.bots[1] = Broken()
    headers = {"X-Seat-Token": link["token"]}
    client.post(f"/api/tables/{table_id}/move", json={"move": "rest"}, headers=headers)
    found = {}

    def stalled() -> bool:
        found.update(snapshot(client, table_id, link["token"]))
        return bool(found["stalled"])

    wait_until(stalled)
    assert found["stalled"] == "seat 2 (greedy) could not move: out of ideas"
    assert client.get("/api/games").status_code == 200  # the server goes on


def test_a_port_in_use_is_a_clear_error(run):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--port", str(port))
    assert result.exit_code == 1, result.output
    assert f"error: cannot listen on 127.0.0.1:{port}: " in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_cards_that_cannot_be_drawn_are_shown_as_text(client, monkeypatch):
    import century.serve.cards as cards
    import century.targets.images as images

    def broken(*args, **kwargs):
        raise RuntimeError("no fonts today")

    monkeypatch.setattr(cards, "_CACHE", {})
    monkeypatch.setattr(images, "render", broken)
    answer = client.get("/api/games/golem/cards")  # (not the first game: drawn at start)
    assert answer.status_code == 200
    found = answer.json()
    assert all(info["image"] is None and info["words"] for info in found["merchant"].values())
    assert client.get("/api/games/golem/images/0.png").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("game", ["spice-road", "composed"])
def test_every_ways_outcome_is_the_engines_caravan_after_the_move(game):
    """Every way each box offers, over whole games: the caravan it shows is the one the engine
    leaves after the move, and what it says is paid and gained is the difference."""
    from century.bots.registry import GreedyBot
    from century.serve.tables import Setup, new_table

    from helpers import composed

    ruleset = composed() if game == "composed" else spice_road()
    engine = load_engine(ruleset)
    checked = 0
    for seed in (1,):
        made = new_table(ruleset, engine, Setup(ruleset.id, ("human", "human"), seed), "en")
        (seats,) = made.tokens.values()
        bot = GreedyBot(engine, ruleset, seed)
        for _ in decisions(made.state):
            seat, before = (
                made.state.current_player,
                made.state.view().caravan(made.state.current_player).text,
            )
            for entry in made.snapshot(seats)["moves"]:
                for way in entry["options"]:
                    after = made.state.clone()
                    after.play(way["move"])
                    held = after.view().caravan(seat).text
                    assert way["after"] == held, way
                    assert sorted(before + way["gained"]) == sorted(held + way["paid"]), way
                    assert not set(way["paid"]) & set(way["gained"]), way
                    checked += 1
            made.apply(bot.choose(made.state))
    assert checked > 200
