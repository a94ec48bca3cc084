"""Cold `century validate` on the bundled rules, whole process, against check-jsonschema.

Run: python benchmarks/bench_validate.py [--runs N]
Prints the median wall time of N cold runs of each command (a fresh process each time),
plus the in-process time of the pipeline alone (imports excluded).
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


def yaml_as_json(folder: Path) -> list[tuple[Path, Path]]:
    """check-jsonschema reads YAML itself; pair each bundled file with its schema."""
    pairs = []
    for path in sorted((ROOT / "rules").glob("*.yaml")) + sorted((ROOT / "cards").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        pairs.append((path, (path.parent / first.split("=", 1)[1]).resolve()))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    py = sys.executable
    ours = median_seconds([py, "-m", "compiler", "validate"], runs, ROOT)
    startup = median_seconds([py, "-c", "import compiler.cli"], runs, ROOT)
    print(f"century validate (cold process, median of {runs}): {ours * 1000:.0f} ms")
    print(f"  of which python start-up + CLI import:         {startup * 1000:.0f} ms")

    from compiler.pipeline import compile_paths

    compile_paths()  # warm imports
    start = time.perf_counter()
    for _ in range(runs):
        compile_paths()
    per = (time.perf_counter() - start) / runs
    print(f"  pipeline alone, in process (load..model, 3 games): {per * 1000:.0f} ms")

    tool = shutil.which("check-jsonschema") or str(Path(py).parent / "check-jsonschema")
    if not Path(tool).exists():
        print("check-jsonschema not installed: pip install check-jsonschema to compare")
        return
    pairs = yaml_as_json(ROOT)
    with tempfile.TemporaryDirectory():
        total = 0.0
        for path, schema in pairs:
            total += median_seconds([tool, "--schemafile", str(schema), str(path)], runs, ROOT)
    print(
        f"check-jsonschema, one process per file as it needs ({len(pairs)} files, "
        f"schema only, no semantic checks): {total * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
