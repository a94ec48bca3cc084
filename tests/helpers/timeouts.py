"""A bound on every test's time, so that a test that cannot end (a random playout of a deal no
caravan can finish, a process that never answers) fails instead of hanging the suite.

`pytest_runtest_call` is a hook: `tests/conftest.py` imports it, and any pytest run can load
this module with ``-p helpers.timeouts``. Each test gets ``$CENTURY_TEST_SECONDS`` seconds
(default `TEST_SECONDS`) of wall time from a real-time timer (POSIX, main thread); past it
the test fails where it stands, and what it started in `subprocess.run` or with a fixture
that ends its processes is ended as on any failure.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

import pytest

TEST_SECONDS = 900.0
"""A test's bound: far over the slowest test on a loaded machine (about two minutes)."""


def seconds() -> float:
    """The bound of this run: ``$CENTURY_TEST_SECONDS`` if set (0: none), else the default."""
    return float(os.environ.get("CENTURY_TEST_SECONDS", TEST_SECONDS))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Run `item` under the bound (where a real-time timer can be set)."""
    bound = seconds()
    usable = (
        bound > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        pytest.fail(f"{item.nodeid} took over {bound:g} s (CENTURY_TEST_SECONDS)", pytrace=False)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, bound)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
