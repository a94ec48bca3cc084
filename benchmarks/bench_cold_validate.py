"""Cold `century validate` of the bundled rules, whole process, this checkout against
another commit, in one interleaved run.

Run: python benchmarks/bench_cold_validate.py [--against main] [--runs 20] [--instructions]
Exports the other commit's package with `git archive` into a temporary folder and runs
`python -m century validate` in an empty folder (so the bundled games are validated) from
it and from this checkout in turns, with the same interpreter and installed libraries: load
on the machine falls on both alike. Each is run once first, untimed, as an installed
package has been run before: Python's bytecode is written (PYTHONDONTWRITEBYTECODE is
dropped) and the compiled prose templates are kept in a fresh cache folder
(CENTURY_CACHE_DIR, `century.prose.codecache`). Prints, per commit, the median and quartiles of
RUNS fresh processes in wall time and in CPU time (the process's user + system time, which
another process on the machine slows less), and the 1-minute load average over the run.
With --instructions (valgrind installed), it also counts the instructions of one run of
each under cachegrind, which the load does not change, and splits this checkout's among
Python's start-up, the libraries validate imports, century's own modules and the
validation itself (`STAGES`).

Measured on the project's 2-core machine shared with other jobs (Python 3.11.7, typer 0.29.2,
`--against 8b8c94b`, the commit before the whole-file template cache reads, the prose check
without typesetting, bases compiled first and the freeze at exit):

    --runs 30 --instructions, 1-minute load average 3.1:
             8b8c94b: wall median 305 ms (quartiles 284-360), CPU median 303 ms (281-356)
       this checkout: wall median 252 ms (quartiles 239-275), CPU median 247 ms (237-266)
             8b8c94b: 1,493.1 million instructions
       this checkout: 1,263.1 million instructions (-15 %)
    where this checkout's go: Python start-up 2.7 %, typer 16.3 %, PyYAML 7.1 %,
    jsonschema with referencing 16.7 %, Jinja 8.0 %, century's modules 9.3 %,
    the validation 39.9 %
"""

from __future__ import annotations

import argparse
import os
import re
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


UNHURRIED = """
import sys, century.base.limits
century.base.limits.PROSE_SECONDS = 1e9
sys.argv = ["century", "validate"]
from century.cli import main
main()
"""
"""`century validate` as `python -m century validate` runs it, with the prose deadline
(`PROSE_SECONDS` of CPU time, which a run under valgrind, some 50 times slower, would pass)
lifted: every template is rendered, as in a run at full speed."""


_LIBRARIES = (
    "typer, typer.core",
    "yaml",
    "jsonschema, referencing.jsonschema",
    "jinja2, jinja2.sandbox",
)
_CENTURY = (
    "century.cli.core, century.cli.formats, century.pipeline, century.prose, century.prose.sandbox"
)
STAGES = {
    "Python start-up": "pass",
    **{
        f"+ {name}": f"import {', '.join(_LIBRARIES[: i + 1])}"
        for i, name in enumerate(("typer", "PyYAML", "jsonschema, referencing", "Jinja"))
    },
    "+ century's modules": f"import {', '.join((*_LIBRARIES, _CENTURY))}",
}
"""What a cold `century validate` imports, library by library (each stage adds to the one
before, and ends as the console script does, `gc.freeze()`): what is left of the run's
instructions is the validation itself."""


def instructions(package_root: Path, cwd: Path, cache: Path, code: str = UNHURRIED) -> int:
    """The instructions one cold `century validate` (or another `code`) importing `century`
    from `package_root` executes, counted by valgrind's cachegrind (no cache simulation;
    string hashing seeded): the same whatever else the machine runs, to within ~0.05 %."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            *(sys.executable, "-c", code),
        ],
        cwd=cwd,
        capture_output=True,
        env={**environment(package_root, cache), "PYTHONHASHSEED": "0"},
    )
    assert done.returncode == 0, done.stderr.decode()
    found = re.search(rb"I\s+refs:\s+([\d,]+)", done.stderr)
    assert found, done.stderr.decode()
    return int(found.group(1).replace(b",", b""))


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
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="Also count each one's instructions in one run under valgrind (cachegrind).",
    )
    args = parser.parse_args()
    counted: dict[str, int] = {}
    stages: dict[str, int] = {}
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
        if args.instructions:
            counted = {name: instructions(root, empty, cache) for name, root in roots.items()}
            here = roots["this checkout"]
            stages = {
                name: instructions(here, empty, cache, f"{code}\nimport gc; gc.freeze()")
                for name, code in STAGES.items()
            }
    print(f"cold `century validate`, bundled rules, {args.runs} runs each, interleaved")
    print(
        f"(1-minute load average {min(loads):.1f}-{max(loads):.1f}, mean "
        f"{statistics.mean(loads):.1f}; Python {sys.version.split()[0]})"
    )
    for name, found in times.items():
        wall, cpu = [w for w, _ in found], [c for _, c in found]
        print(f"  {name:>14}: wall {quartiles(wall)}, CPU {quartiles(cpu)}")
    for name, count in counted.items():
        print(f"  {name:>14}: {count / 1e6:,.1f} million instructions")
    if counted:
        total, before = counted["this checkout"], 0
        print("where this checkout's instructions go:")
        for name, count in [*stages.items(), ("+ the validation", total)]:
            share = (count - before) / total
            print(f"  {name:>24}: {(count - before) / 1e6:6.1f} million ({share:5.1%})")
            before = count


if __name__ == "__main__":
    main()
