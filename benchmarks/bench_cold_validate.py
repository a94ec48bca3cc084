"""Cold `century validate` of the bundled rules, whole process, this checkout against
another commit, in one interleaved run.

Run: python benchmarks/bench_cold_validate.py [--against main] [--runs 20]
Exports the other commit's package with `git archive` into a temporary folder and runs
`python -m century validate` in an empty folder (so the bundled games are validated) from
it and from this checkout in turns, with the same interpreter and installed libraries: load
on the machine falls on both alike. Prints each median and quartiles of RUNS fresh processes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(rev: str, into: Path) -> Path:
    """The `compiler/` folder of `rev`, with its data links, under `into`."""
    archive = into / "rev.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "rev", filter="tar")
    return into / "rev" / "compiler"


def one_run(package_root: Path, cwd: Path) -> float:
    """Seconds of one cold `century validate` importing `century` from `package_root`."""
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "century", "validate"], cwd=cwd, capture_output=True, env=env
    )
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr.decode()
    return seconds


def where(package_root: Path, cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    code = "import century; print(century.__file__)"
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True)
    return done.stdout.decode().strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="main", help="The commit to compare with.")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        empty = folder / "empty"
        empty.mkdir()
        roots = {args.against: export(args.against, folder), "this checkout": ROOT / "compiler"}
        for name, root in roots.items():
            found = where(root, empty)
            assert found.startswith(str(root)), f"{name}: century imported from {found}"
            one_run(root, empty)  # compile the bytecode once, as an installed package has it
        times: dict[str, list[float]] = {name: [] for name in roots}
        for _ in range(args.runs):
            for name, root in roots.items():
                times[name].append(one_run(root, empty))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cold `century validate`, bundled rules, {args.runs} runs each, interleaved")
    print(f"(load average at the end: {load:.1f}; Python {sys.version.split()[0]})")
    for name, found in times.items():
        q1, med, q3 = statistics.quantiles(found, n=4)
        print(
            f"  {name:>14}: median {med * 1000:.0f} ms (quartiles {q1 * 1000:.0f}-{q3 * 1000:.0f})"
        )


if __name__ == "__main__":
    main()
