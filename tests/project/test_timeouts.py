"""Every test is bounded in time (`helpers.timeouts`): a test that cannot end fails instead of
hanging the suite, and a process it started is not left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import TESTS

ENDLESS = """
import subprocess, sys
from pathlib import Path


def test_an_endless_playout():
    moves = 0
    while True:  # a deal no caravan can finish
        moves += 1


def test_a_process_that_never_answers(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    Path("{pids}").write_text(str(child.pid))
    try:
        child.wait()
    finally:
        child.kill()
        child.wait()
"""


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "kill") or sys.platform == "win32", reason="POSIX timers")
def test_a_test_that_cannot_end_fails_within_its_bound(tmp_path: Path):
    pids = tmp_path / "pids.txt"
    (tmp_path / "test_endless.py").write_text(ENDLESS.replace("{pids}", str(pids)), "utf-8")
    plugins = ["-p", "helpers.timeouts", "-p", "no:randomly", "-p", "no:cacheprovider"]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *plugins, str(tmp_path / "test_endless.py")],
        cwd=tmp_path,
        env={**os.environ, "CENTURY_TEST_SECONDS": "2", "PYTHONPATH": str(TESTS)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 failed" in done.stdout, done.stdout
    assert "test_an_endless_playout took over 2 s (CENTURY_TEST_SECONDS)" in done.stdout
    assert time.monotonic() - started < 60
    child = int(pids.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)  # ended and reaped: no process left behind
