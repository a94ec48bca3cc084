"""Cold `century validate` of the bundled rules, whole process, this checkout against
another commit, in one interleaved run.

Run: python benchmarks/bench_cold_validate.py [--against main] [--runs 20]
Exports the other commit's package with `git archive` into a temporary folder and runs
`python -m century validate` in an empty folder (so the bundled games are validated) from
it and from this checkout in turns, with the same interpreter and installed libraries: load
on the machine falls on both alike. Each is run once first, untimed, as an installed
package has been run before: Python's bytecode is written (PYTHONDONTWRITEBYTECODE is
dropped) and the compiled prose templates are kept in a fresh cache folder
(CENTURY_CACHE_DIR, `century.codecache`). Prints, per commit, the median and quartiles of
RUNS fresh processes in wall time and in CPU time (the process's user + system time, which
another process on the machine slows less), and the 1-minute load average over the run.

Measured on the project's 2-core machine shared with other jobs (Python 3.11.7, typer 0.29.2,
`--against f562812`, the commit before the template cache, the deferred coercion and the
lean command line):

    --runs 30, 1-minute load average 3.9-5.6 (mean 4.6):
             f562812: wall median 1505 ms (quartiles 1425-1594), CPU median 1045 ms (1005-1079)
       this checkout: wall median  682 ms (quartiles 660-738),   CPU median  480 ms (461-499)
    --runs 25, load 5.0-5.8 (mean 5.5):
             f562812: wall median 1483 ms (quartiles 1260-1665), CPU median  796 ms (744-857)
       this checkout: wall median  702 ms (quartiles 517-791),   CPU median  372 ms (333-395)
"""

from __future__ import annotations

import argparse
import os
import resource
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


def environment(package_root: Path, cache: Path) -> dict[str, str]:
    """The environment of a run: `century` from `package_root`, bytecode written, the
    template cache in `cache`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(package_root), "CENTURY_CACHE_DIR": str(cache)}


def one_run(package_root: Path, cwd: Path, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one cold `century validate` importing `century` from
    `package_root`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "century", "validate"],
        cwd=cwd,
        capture_output=True,
        env=environment(package_root, cache),
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr.decode()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def where(package_root: Path, cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(package_root)}
    code = "import century; print(century.__file__)"
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True)
    return done.stdout.decode().strip()


def quartiles(found: list[float]) -> str:
    q1, med, q3 = statistics.quantiles(found, n=4)
    return f"median {med * 1000:4.0f} ms (quartiles {q1 * 1000:.0f}-{q3 * 1000:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="main", help="The commit to compare with.")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        empty, cache = folder / "empty", folder / "cache"
        empty.mkdir()
        roots = {args.against: export(args.against, folder), "this checkout": ROOT / "compiler"}
        for name, root in roots.items():
            found = where(root, empty)
            assert found.startswith(str(root)), f"{name}: century imported from {found}"
            one_run(root, empty, cache)  # bytecode and template cache written, as after a run
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in roots}
        for _ in range(args.runs):
            loads.append(os.getloadavg()[0])
            for name, root in roots.items():
                times[name].append(one_run(root, empty, cache))
        loads.append(os.getloadavg()[0])
    print(f"cold `century validate`, bundled rules, {args.runs} runs each, interleaved")
    print(
        f"(1-minute load average {min(loads):.1f}-{max(loads):.1f}, mean "
        f"{statistics.mean(loads):.1f}; Python {sys.version.split()[0]})"
    )
    for name, found in times.items():
        wall, cpu = [w for w, _ in found], [c for _, c in found]
        print(f"  {name:>14}: wall {quartiles(wall)}, CPU {quartiles(cpu)}")


if __name__ == "__main__":
    main()
