"""What the tests of `century serve` share: its application through Starlette's test client
(`api`) and the requests its tests repeat, a server in a process of its own (as people start
it), the system's Chromium for the browser tests, and the flags it runs with here."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from helpers.paths import ROOT
from helpers.rulesets import bundled_rulesets

if TYPE_CHECKING:
    from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8000"
"""The address of the server under the test client: its Host, and its page's Origin."""

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Chromium's flags here: no sandbox (root in a container), nothing fetched from outside."""


def chromium() -> str | None:
    """The system's Chromium (``$CENTURY_CHROMIUM``, else ``chromium`` on the PATH, else
    /usr/bin/chromium), or None; never a browser downloaded by Playwright."""
    for found in (
        os.environ.get("CENTURY_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        "/usr/bin/chromium",
    ):
        if found and Path(found).is_file() and os.access(found, os.X_OK):
            return found
    return None


def browser_skip_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return "the serve extra is not installed (pip install -e '.[serve]')"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if chromium() is None:
        return "no Chromium found (apt-get install chromium; or set CENTURY_CHROMIUM)"
    return None


@contextmanager
def served(
    *args: str, pause: float = 0.0, db: Path | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`century serve ARGS --port 0` in a process of its own (a `--port` in ARGS wins): its
    address (from the line it prints) and the process. Its tables are kept in `db` (default:
    a file of a temporary folder). Stopped with SIGTERM at the end (and killed if it hangs)."""
    with tempfile.TemporaryDirectory() as folder:
        kept = db if db is not None else Path(folder) / "tables.sqlite3"
        with _served([*args, "--db", str(kept)], pause) as found:
            yield found


@contextmanager
def _served(args: list[str], pause: float) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    command = [sys.executable, "-m", "century", "serve", "--port", "0", "--bot-pause", str(pause)]
    process = subprocess.Popen(
        [*command, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if " at http" not in line:
            process.kill()
            raise AssertionError(f"century serve did not start: {line}{process.stderr.read()}")  # type: ignore[union-attr]
        url = line.split(" at ", 1)[1].split()[0]
        yield url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until(check, seconds: float = 60.0, step: float = 0.05) -> None:  # type: ignore[no-untyped-def]
    """Wait for `check()` to be true (a bound on waiting, never an assertion on time)."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError("gave up waiting")
        time.sleep(step)


@contextmanager
def api(*games: str, **options: Any) -> Iterator[TestClient]:
    """Starlette's test client of `century serve`'s application (its lifespan running) for the
    bundled `games` (default: spice-road) with `Config` `options` (the bots without a pause
    unless given), at `BASE`; its requests come from the server's own page (Origin)."""
    with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from century.serve.app import Config, make_app

    rulesets = bundled_rulesets()
    chosen = {game: rulesets[game] for game in games or ("spice-road",)}
    config = Config(games=chosen, port=8000, **{"bot_pause": 0.0, **options})
    with TestClient(make_app(config), base_url=BASE) as client:
        client.headers["Origin"] = BASE
        yield client


def post(client: TestClient, path: str, body: Any, token: str | None = None) -> Any:
    """`body` as JSON to `path`, for the seats of `token` when given: the answer."""
    return client.post(path, json=body, headers={"X-Seat-Token": token} if token else {})


def snapshot(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """What the seats of `token` see of a table (the request must succeed)."""
    answer = client.get(f"/api/tables/{table_id}", headers={"X-Seat-Token": token})
    assert answer.status_code == 200, answer.text
    return answer.json()


def settled(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """The table once the bots have moved (a person to move, or the game over)."""
    found: dict[str, Any] = {}

    def ready() -> bool:
        found.update(snapshot(client, table_id, token))
        return found["over"] or found["acting"] is not None

    wait_until(ready)
    return found
