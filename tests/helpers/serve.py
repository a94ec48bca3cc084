"""What the tests of `century serve` share: a server in a process of its own (as people start
it), the system's Chromium for the browser tests, and the flags it runs with here."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from helpers.paths import ROOT

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
