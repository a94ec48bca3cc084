"""The tables of `century serve` kept in SQLite (`century.serve.store`): a restarted server
(a new application on the same database) goes on with every unfinished table, its links,
seats, log and version; undo and finished games are kept too; a file that is not a tables
database is refused, named, and left byte for byte as it was."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from helpers import bundled_rulesets
from helpers.serve import api, post, settled, snapshot

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from century.serve.store import Store, StoreError

if TYPE_CHECKING:
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


@contextmanager
def restarted(path: Path) -> Iterator[TestClient]:
    """A server on the database `path`: each start is a new application and a new connection
    to the file, as a restarted `century serve` is."""
    store = Store(path)
    try:
        with api(store=store) as client:
            yield client
    finally:
        store.close()


def test_a_restarted_server_goes_on_with_every_table(tmp_path):
    db = tmp_path / "tables.sqlite3"
    with restarted(db) as client:
        made = post(
            client, "/api/tables", {"game": "spice-road", "seats": ["human", "greedy"], "seed": 4}
        )
        solo, token = made.json()["table"], made.json()["links"][0]["token"]
        hot = post(
            client, "/api/tables", {"game": "spice-road", "seats": ["human", "human"], "seed": 5}
        )
        hot_id, hot_token = hot.json()["table"], hot.json()["links"][0]["token"]
        for _ in range(3):
            now = settled(client, solo, token)
            move = now["moves"][-1]["default"]
            assert (
                post(client, f"/api/tables/{solo}/move", {"move": move}, token).status_code == 200
            )
        before = settled(client, solo, token)
        post(client, f"/api/tables/{hot_id}/move", {"move": "rest"}, hot_token)
        hot_before = snapshot(client, hot_id, hot_token)
    with restarted(db) as client:
        after = snapshot(client, solo, token)
        assert after == before  # the same version, log, seats, hands, rows and moves
        assert snapshot(client, hot_id, hot_token) == hot_before
        assert post(client, f"/api/tables/{solo}/move", {"move": "rest"}, "nope").status_code == 403
        # the game goes on: a stale version is refused, the right one taken, the bot answers
        stale = post(client, f"/api/tables/{solo}/move", {"move": "rest", "version": 0}, token)
        assert stale.status_code == 409
        answer = post(
            client, f"/api/tables/{solo}/move", {"move": "rest", "version": after["version"]}, token
        )
        assert answer.status_code == 200, answer.text
        assert settled(client, solo, token)["log_size"] == after["log_size"] + 2
        listed = {t["table"]: t for t in client.get("/api/tables").json()["tables"]}
        assert set(listed) == {solo, hot_id}
        assert listed[solo]["links"] == [{"seats": [0], "token": token}]
        assert listed[hot_id]["seats"] == ["human", "human"] and not listed[hot_id]["over"]
    with restarted(db) as client:  # what the bot answered after the restart was kept too
        assert snapshot(client, solo, token)["log_size"] == after["log_size"] + 2


def test_undo_and_a_finished_game_are_kept_with_its_record(tmp_path):
    from century.bots.registry import GreedyBot
    from century.engine import load_engine

    db = tmp_path / "tables.sqlite3"
    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    with restarted(db) as client:
        made = post(
            client, "/api/tables", {"game": "spice-road", "seats": ["human", "human"], "seed": 2}
        )
        table_id, token = made.json()["table"], made.json()["links"][0]["token"]
        post(client, f"/api/tables/{table_id}/move", {"move": "rest"}, token)
        post(client, f"/api/tables/{table_id}/move", {"move": "rest"}, token)
        assert post(client, f"/api/tables/{table_id}/undo", {}, token).status_code == 200
        undone = snapshot(client, table_id, token)
        assert undone["log_size"] == 1
    with restarted(db) as client:
        assert snapshot(client, table_id, token) == undone
        state, bot = engine.new_game(2, 2), GreedyBot(engine, ruleset, 1)
        state.play("rest")
        for _ in range(400):  # both seats played by the page's client to the end
            if state.is_over():
                break
            move = bot.choose(state)
            state.play(move)
            answer = post(client, f"/api/tables/{table_id}/move", {"move": move}, token)
            assert answer.status_code == 200, answer.text
        assert state.is_over()
    with restarted(db) as client:
        (listed,) = client.get("/api/tables").json()["tables"]
        assert listed["over"] and listed["result"]["scores"] == state.scores()
        assert listed["moves"] == len(state.moves())
        record = client.get(f"/api/tables/{table_id}/record", headers={"X-Seat-Token": token})
        assert engine.replay(record.json()).scores() == state.scores()


def test_each_move_is_one_transaction_written_before_the_answer(tmp_path):
    db = tmp_path / "tables.sqlite3"
    with restarted(db) as client:
        made = post(
            client, "/api/tables", {"game": "spice-road", "seats": ["human", "human"], "seed": 3}
        )
        table_id, token = made.json()["table"], made.json()["links"][0]["token"]
        post(client, f"/api/tables/{table_id}/move", {"move": "rest"}, token)
        # another connection reads the committed rows while the server still holds the file
        # (in exclusive mode only the holder may read: so read through the server's own)
        store = client.app.state.server.config.store
        rows = store.db.execute("SELECT n, seat, move FROM moves").fetchall()
        assert rows == [(0, 0, "rest")]
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert not store.db.in_transaction


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"just some notes, not a database\n" * 40, "not a tables database"),
        ("sqlite-foreign", "another program's SQLite file"),
        ("damaged", "damaged"),
    ],
)
def test_a_file_that_is_not_a_tables_database_is_refused_and_left_alone(tmp_path, content, says):
    db = tmp_path / "other.db"
    if content == "sqlite-foreign":
        other = sqlite3.connect(db)
        other.execute("CREATE TABLE notes (line TEXT)")
        other.execute("INSERT INTO notes VALUES ('keep me')")
        other.commit()
        other.close()
    elif content == "damaged":
        Store(db).close()
        data = bytearray(db.read_bytes())
        data[4096 : 4096 + 300] = b"\xff" * 300  # the first table's page, scrambled
        db.write_bytes(bytes(data))
    else:
        db.write_bytes(content)
    before = db.read_bytes()
    with pytest.raises(StoreError, match=says):
        Store(db)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


@pytest.mark.slow
def test_century_serve_names_a_foreign_database_and_exits_1(tmp_path, run):
    db = tmp_path / "notes.db"
    other = sqlite3.connect(db)
    other.execute("CREATE TABLE notes (line TEXT)")
    other.commit()
    other.close()
    before = db.read_bytes()
    result = run("serve", "--db", str(db), "--port", "0")
    assert result.exit_code == 1, result.output
    assert f"error: {db}: not a tables database of century serve" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert db.read_bytes() == before


def test_one_server_holds_a_database_at_a_time(tmp_path):
    db = tmp_path / "tables.sqlite3"
    first = Store(db)
    try:
        with pytest.raises(StoreError, match="another century serve holds"):
            Store(db)
    finally:
        first.close()
    Store(db).close()  # free again once the first is closed
