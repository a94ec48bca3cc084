"""The fast tier: ``pytest -m "not slow"`` (CONTRIBUTING) runs every test but those marked
``slow``, and nothing else decides what it leaves out."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers.paths import ROOT

pytestmark = pytest.mark.slow  # it collects the whole suite three times


def collect(*args: str) -> set[str]:
    """The ids of the tests ``pytest --collect-only ARGS`` selects."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ids = (line for line in done.stdout.splitlines() if "::" in line)
    return {re.sub(r" at 0x[0-9a-f]+", "", test) for test in ids}  # an object's id differs


def test_the_fast_tier_leaves_out_exactly_the_slow_tests() -> None:
    everything = collect()
    fast = collect("-m", "not slow")
    slow = collect("-m", "slow")
    assert fast and slow
    assert fast.isdisjoint(slow)
    assert fast | slow == everything
    assert (
        "tests/project/test_tiers.py::test_the_fast_tier_leaves_out_exactly_the_slow_tests" in slow
    )
