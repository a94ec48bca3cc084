"""From `pip install` of the wheel to the first finished `century build`; cold `century validate`.

Run: python benchmarks/bench_install.py [--runs N] [--validate-runs M]

Builds the wheel once (`python -m build --wheel`). Then N times: a fresh virtual environment
(not timed), `pip install WHEEL` with the dependencies from pip's cache (a first, untimed install
fills it), and `century build` in an empty folder outside the checkout; prints the median of
each part and of their sum. Then cold `century validate` on the bundled rules (a fresh process
each time, from an empty folder), median of M runs, for the installed wheel and for this
environment (the checkout, usually editable), the runs of the two interleaved so that load on
the machine hits both alike; `python -c pass` and `import century.cli` show how much of it is
start-up. CPU time (user + system) is printed beside wall time: on a shared machine it is the
steadier figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def seconds(cmd: list[str | Path], cwd: Path, env: dict[str, str] | None = None):
    """Wall-clock and CPU (user + system, with its children) seconds of one run of `cmd`."""
    start, cpu = time.perf_counter(), children_cpu()
    subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start, children_cpu() - cpu


def build_wheel(out: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = out.glob("*.whl")
    return wheel


def fresh_venv(where: Path) -> dict[str, str]:
    """A new virtual environment at `where`; the environment variables that select it."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{where / 'bin'}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(where)
    return env


def ms(pairs: list[tuple[float, float]]) -> str:
    """Median and minimum wall time, and median CPU time, in milliseconds."""
    wall = [w for w, _ in pairs]
    cpu = statistics.median(c for _, c in pairs)
    return (
        f"median {statistics.median(wall) * 1000:6.0f} ms (min {min(wall) * 1000:5.0f}), "
        f"CPU {cpu * 1000:5.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--validate-runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        wheel = build_wheel(scratch / "dist")
        print(f"wheel: {wheel.name}, {wheel.stat().st_size // 1024} KiB")
        installs, builds = [], []
        for run in range(args.runs + 1):
            env = fresh_venv(scratch / f"venv{run}")
            folder = scratch / f"work{run}"
            folder.mkdir()
            pip = [Path(env["VIRTUAL_ENV"]) / "bin" / "python", "-m", "pip", "install", "-q"]
            install = seconds([*pip, wheel], folder, env)
            build = seconds(["century", "build"], folder, env)
            if run:  # the first run fills pip's cache
                installs.append(install)
                builds.append(build)
            if run < args.runs:
                shutil.rmtree(env["VIRTUAL_ENV"])
        totals = [(a[0] + b[0], a[1] + b[1]) for a, b in zip(installs, builds, strict=True)]
        print(f"pip install WHEEL (dependencies cached), {args.runs} runs: {ms(installs)}")
        print(f"first `century build` (3 games, A4)          : {ms(builds)}")
        print(f"install to first finished build              : {ms(totals)}")

        installed = env
        here = dict(os.environ)
        empty = scratch / "empty"
        empty.mkdir()
        cases = {
            "century validate, installed wheel": (["century", "validate"], installed),
            "century validate, this environment": (
                [Path(sys.executable).parent / "century", "validate"],
                here,
            ),
            "python -c pass (start-up alone)": ([sys.executable, "-c", "pass"], here),
            "python -c 'import century.cli'": ([sys.executable, "-c", "import century.cli"], here),
        }
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in cases}
        for _ in range(args.validate_runs):
            for label, (cmd, env) in cases.items():
                times[label].append(seconds(cmd, empty, env))
        print(f"cold, whole process, {args.validate_runs} runs each, interleaved:")
        for label, values in times.items():
            print(f"  {label:<36} {ms(values)}")


if __name__ == "__main__":
    main()
