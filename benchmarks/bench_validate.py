"""Cold `century validate` on the bundled rules, whole process, against check-jsonschema; and
on a project whose variant names its three decks as CSV tables beside the same decks in YAML.

Run: python benchmarks/bench_validate.py [--runs N]
Prints the median wall time of N cold runs of each command (a fresh process each time),
plus the in-process time of the pipeline alone (imports excluded). The two projects are
validated in turns (YAML, CSV, YAML, ...), so load on the machine falls on both alike.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def median_seconds(cmd: list[str], runs: int, cwd: Path) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def files_by_schema() -> dict[Path, list[Path]]:
    """Every bundled YAML file, grouped by the schema its modeline names."""
    groups: dict[Path, list[Path]] = {}
    for path in sorted(ROOT.glob("rules/**/*.yaml")) + sorted(ROOT.glob("cards/**/*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        schema = (path.parent / first.split("=", 1)[1]).resolve()
        groups.setdefault(schema, []).append(path)
    return groups


def tables(runs: int) -> None:
    """Cold `century validate` of a variant with its decks as YAML files and as CSV tables."""
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        projects = {}
        for fmt in ("yaml", "csv"):
            folder = Path(tmp) / fmt
            (folder / "rules").mkdir(parents=True)
            for deck in ("merchant", "point", "starting"):
                out = f"cards/{deck}.{fmt}"
                cmd = [py, "-m", "century", "deck", "export", "spice-road", deck, "--out", out]
                subprocess.run(cmd, cwd=folder, capture_output=True, check=True)
            decks = ", ".join(f"{d}: ../cards/{d}.{fmt}" for d in ("merchant", "point", "starting"))
            (folder / "rules" / "house.yaml").write_text(
                f"id: house\nextends: spice-road\ndecks: {{{decks}}}\n", encoding="utf-8"
            )
            projects[fmt] = folder
        times: dict[str, list[float]] = {fmt: [] for fmt in projects}
        for _ in range(runs):
            for fmt, folder in projects.items():
                start = time.perf_counter()
                done = subprocess.run(
                    [py, "-m", "century", "validate"], cwd=folder, capture_output=True
                )
                times[fmt].append(time.perf_counter() - start)
                assert done.returncode == 0, done.stderr
    for fmt, found in times.items():
        print(
            f"century validate, a variant with its 3 decks as {fmt.upper()} (cold process, "
            f"median of {runs}, interleaved): {statistics.median(found) * 1000:.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    py = sys.executable
    ours = median_seconds([py, "-m", "century", "validate"], runs, ROOT)
    startup = median_seconds([py, "-c", "import century.cli"], runs, ROOT)
    print(f"century validate (cold process, median of {runs}): {ours * 1000:.0f} ms")
    print(f"  of which python start-up + CLI import:         {startup * 1000:.0f} ms")

    from century.pipeline import compile_paths

    compile_paths()  # warm imports
    start = time.perf_counter()
    for _ in range(runs):
        compile_paths()
    per = (time.perf_counter() - start) / runs
    print(f"  pipeline alone, in process (load..model, 3 games): {per * 1000:.0f} ms")
    tables(runs)

    tool = shutil.which("check-jsonschema") or str(Path(py).parent / "check-jsonschema")
    if not Path(tool).exists():
        print("check-jsonschema not installed: pip install check-jsonschema to compare")
        return
    groups = files_by_schema()
    total = sum(
        median_seconds([tool, "--schemafile", str(schema), *map(str, files)], runs, ROOT)
        for schema, files in groups.items()
    )
    count = sum(len(files) for files in groups.values())
    print(
        f"check-jsonschema, one process per schema ({len(groups)} schemas, {count} files; "
        f"schema only, no variants or semantic checks): {total * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
