"""The tables of `century serve` kept on disk: one SQLite file (the standard library's
`sqlite3`, write-ahead log), so a restarted server finds every game where it was.

A table is one row (its game, seats, the start of its record, its secret tokens, its version
and, once over, its result) and its moves one row each. Every move, undo and new table is one
transaction, written before the server answers. The file is this program's own: it carries
an application id, and a file that is not SQLite, is damaged, or is another program's
database is refused with a `StoreError` and never written to. One server holds the file at a
time (the database is opened in exclusive locking mode).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x43_65_6E_54
"""SQLite's application id of a tables database ("CenT"): a file without it is not ours."""
SCHEMA = 1
"""The layout of the database (SQLite's user version); a newer one is refused."""

_LAYOUT = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    start TEXT NOT NULL,
    network INTEGER NOT NULL,
    lang TEXT NOT NULL,
    tokens TEXT NOT NULL,
    version INTEGER NOT NULL,
    over INTEGER NOT NULL,
    result TEXT,
    rematch TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE INDEX tables_updated ON tables(updated);
"""


class StoreError(Exception):
    """A database file that cannot be used, saying which and why."""


@dataclass(frozen=True)
class Stored:
    """One table as the database holds it."""

    id: str
    game: str
    seats: list[str]
    names: list[str]
    start: dict[str, Any]
    """The table's record without its moves (``rules``, ``players``, ``seed``...)."""
    network: bool
    lang: str
    tokens: dict[str, list[int]]
    version: int
    over: bool
    result: dict[str, Any] | None
    moves: list[tuple[int, str, str]]
    """Per move: the seat that made it, the move, the move in words (empty when listed)."""
    created: float = 0.0
    updated: float = 0.0
    rematch: dict[str, Any] | None = None
    """The rematch once made: its table and, per token of this table, the token there."""

    def record(self) -> dict[str, Any]:
        """The game record, as the table would give it."""
        return {
            **self.start,
            "moves": [move for _, move, _ in self.moves],
            "seats": list(self.seats),
        }


@dataclass(frozen=True)
class Status:
    """What changes with a table's moves: its version, whether it is over, its result."""

    version: int
    over: bool
    result: dict[str, Any] | None


class Store:
    """A tables database, opened (and made, when `path` does not exist yet)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        self.db = _open(self.path)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            try:
                with self.db:  # one transaction: committed, or rolled back on an error
                    yield self.db
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: cannot save the table: {err}") from None

    def add(self, row: Stored) -> None:
        """Keep a new table, `row`, with the moves it already has."""
        now = time.time()
        with self._write() as db:
            db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.game,
                    json.dumps(row.seats),
                    json.dumps(row.names),
                    json.dumps(row.start),
                    int(row.network),
                    row.lang,
                    json.dumps(row.tokens),
                    row.version,
                    int(row.over),
                    _json(row.result),
                    _json(row.rematch),
                    now,
                    now,
                ),
            )
            db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                [(row.id, n, seat, move, text) for n, (seat, move, text) in enumerate(row.moves)],
            )

    def moved(self, table_id: str, n: int, move: tuple[int, str, str], now: Status) -> None:
        """Keep move number `n` (from 0) of a table: its seat, the move, its words; and the
        table's status after it."""
        with self._write() as db:
            db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (table_id, n, *move))
            self._status(db, table_id, now)

    def undone(self, table_id: str, kept: int, now: Status) -> None:
        """Forget the moves of a table past its first `kept`."""
        with self._write() as db:
            db.execute("DELETE FROM moves WHERE table_id = ? AND n >= ?", (table_id, kept))
            self._status(db, table_id, now)

    def named(self, table_id: str, names: list[str], now: Status) -> None:
        """Keep the names the seats of a table go by."""
        with self._write() as db:
            db.execute("UPDATE tables SET names = ? WHERE id = ?", (json.dumps(names), table_id))
            self._status(db, table_id, now)

    def rematched(self, table_id: str, rematch: dict[str, Any], now: Status) -> None:
        """Keep the rematch of a table."""
        with self._write() as db:
            db.execute(
                "UPDATE tables SET rematch = ? WHERE id = ?", (json.dumps(rematch), table_id)
            )
            self._status(db, table_id, now)

    @staticmethod
    def _status(db: sqlite3.Connection, table_id: str, now: Status) -> None:
        db.execute(
            "UPDATE tables SET version = ?, over = ?, result = ?, updated = ? WHERE id = ?",
            (now.version, int(now.over), _json(now.result), time.time(), table_id),
        )

    def load(self, table_id: str) -> Stored | None:
        """The table `table_id` with its moves, or None."""
        with self.lock:
            try:
                row = self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
                if row is None:
                    return None
                moves = self.db.execute(
                    "SELECT seat, move, text FROM moves WHERE table_id = ? ORDER BY n", (table_id,)
                ).fetchall()
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: cannot read table {table_id}: {err}") from None
        return _stored(row, [tuple(m) for m in moves])

    def listed(self, most: int = 200) -> list[Stored]:
        """The latest `most` tables (the last changed first), without their moves' words."""
        with self.lock:
            try:
                rows = self.db.execute(
                    "SELECT * FROM tables ORDER BY updated DESC LIMIT ?", (most,)
                ).fetchall()
                counts = dict(
                    self.db.execute("SELECT table_id, count(*) FROM moves GROUP BY table_id")
                )
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: cannot read the tables: {err}") from None
        return [_stored(row, [(0, "", "")] * counts.get(row[0], 0)) for row in rows]

    def ids(self) -> list[str]:
        """The ids of every table not over, the last changed first."""
        with self.lock:
            rows = self.db.execute("SELECT id FROM tables WHERE over = 0 ORDER BY updated DESC")
            return [row[0] for row in rows]


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _stored(row: Any, moves: list[Any]) -> Stored:
    (id_, game, seats, names, start, network, lang, tokens, version, over, result) = row[:11]
    return Stored(
        id=id_,
        game=game,
        seats=json.loads(seats),
        names=json.loads(names),
        start=json.loads(start),
        network=bool(network),
        lang=lang,
        tokens=json.loads(tokens),
        version=version,
        over=bool(over),
        result=json.loads(result) if result else None,
        moves=moves,
        rematch=json.loads(row[11]) if row[11] else None,
        created=row[12],
        updated=row[13],
    )


def _open(path: Path) -> sqlite3.Connection:
    """The database at `path`, checked to be ours (made when there is no file yet)."""
    if path.is_dir():
        raise StoreError(f"{path}: a folder, not a tables database")
    if not path.parent.is_dir():
        raise StoreError(f"{path}: no folder {str(path.parent)!r} to keep the tables in")
    fresh = not path.exists() or path.stat().st_size == 0
    if fresh:
        try:  # only the owner reads it: it holds every seat's secret link
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError as err:
            raise StoreError(f"{path}: cannot make the tables database: {err.strerror}") from None
    try:
        db = sqlite3.connect(path, timeout=0.5, check_same_thread=False, isolation_level=None)
    except sqlite3.Error as err:
        raise StoreError(f"{path}: cannot open the tables database: {err}") from None
    try:
        _check(db, path, fresh)
    except BaseException:
        db.close()
        raise
    db.isolation_level = "DEFERRED"
    return db


def _check(db: sqlite3.Connection, path: Path, fresh: bool) -> None:
    """Make a fresh database, or check an existing one is a tables database of this layout,
    whole; then hold it (exclusive locking) with a write-ahead log."""
    try:
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
        app, layout = (
            db.execute("PRAGMA application_id").fetchone()[0],
            db.execute("PRAGMA user_version").fetchone()[0],
        )
        if fresh:
            if app or db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(f"{path}: not a tables database of century serve")
        elif app != APPLICATION_ID:
            raise StoreError(
                f"{path}: not a tables database of century serve (another program's SQLite "
                "file); left as it is: name another file with --db"
            )
        elif layout > SCHEMA:
            raise StoreError(
                f"{path}: made by a newer century (layout {layout}, this one reads {SCHEMA})"
            )
        else:
            found = db.execute("PRAGMA quick_check").fetchone()[0]
            if found != "ok":
                raise StoreError(f"{path}: the database is damaged ({found})")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{path}: cannot keep a write-ahead log here (journal mode {mode})")
        db.execute("PRAGMA synchronous = NORMAL")
        if fresh:
            db.executescript(
                f"BEGIN IMMEDIATE;\n{_LAYOUT}\nPRAGMA application_id = {APPLICATION_ID};\n"
                f"PRAGMA user_version = {SCHEMA};\nCOMMIT;"
            )
        db.execute("BEGIN IMMEDIATE")  # takes the file's lock, held from now on
        db.execute("COMMIT")
    except sqlite3.OperationalError as err:
        if "locked" in str(err):
            raise StoreError(f"{path}: another century serve holds this database") from None
        raise StoreError(f"{path}: cannot use the tables database: {err}") from None
    except sqlite3.DatabaseError as err:
        if "malformed" in str(err):
            raise StoreError(f"{path}: the database is damaged ({err}); left as it is") from None
        raise StoreError(f"{path}: not a tables database of century serve ({err})") from None
