"""Benchmark: render the rule sheets of one game in every language, on one paper.

Measures the whole process (``python -m century sheets GAME --paper PAPER``: interpreter
start, loading the rules, rendering the prose, Typst compile, writing the PDFs), each sheet
in a fresh interpreter (cold: the first sheet pays for loading Jinja2, Typst and the
fonts), and, in-process with warm caches, its parts per sheet: building the data (prose
included), the Typst compile, and both together. Prints the best and median of several
runs.

    python benchmarks/bench_sheets.py [--game spice-road] [--paper a4] [--runs 5]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import line, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    args = parser.parse_args()

    from pypdf import PdfReader

    from century.pipeline import compile_paths
    from century.targets.sheets import sheet_pdf

    ruleset = compile_paths().rulesets[args.game]
    languages = ruleset.languages
    sizes = []
    for lang in languages:  # warm-up, and the figures in the header
        pdf = sheet_pdf(ruleset, lang, args.paper)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        sizes.append(f"{lang}: {pages} pages {len(pdf) // 1024} KiB")
    print(
        f"{args.game}, {args.paper}, languages {', '.join(languages)}; {'; '.join(sizes)}; "
        f"{args.runs} runs, Python {sys.version.split()[0]}"
    )

    root = Path(__file__).resolve().parent.parent
    sources = [("this checkout", root)]
    if args.baseline:
        sources.insert(0, ("baseline", args.baseline.resolve()))
    times: dict[str, list[float]] = {name: [] for name, _ in sources}
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "century", "sheets", args.game, "--paper", args.paper]
        command += ["--out", str(Path(tmp))]
        for _ in range(args.runs):  # alternate, so both see the same load
            for name, source in sources:
                env = {**os.environ, "PYTHONPATH": str(source / "compiler")}

                def run(source: Path = source, env: dict[str, str] = env) -> None:
                    subprocess.run(command, cwd=source, env=env, check=True, capture_output=True)

                times[name] += timed(run, 1)
    for name, _ in sources:
        print(line(f"whole process, {len(languages)} sheets [{name}]", times[name], width=44))

    cold = [fresh_process(args.game, args.paper) for _ in range(args.runs)]
    for i, lang in enumerate(languages):
        print(line(f"[{lang}] sheet, fresh process, in order", [c[i] for c in cold]))
    print(line("load rules (pipeline)", timed(compile_paths, args.runs)))
    for lang in languages:
        per_sheet(ruleset, lang, args.paper, args.runs)
    both = timed(lambda: [sheet_pdf(ruleset, lang, args.paper) for lang in languages], args.runs)
    print(line(f"all {len(languages)} sheets in-process", both))


FRESH = """
import json, sys, time
from century.pipeline import compile_paths
from century.targets.sheets import sheet_pdf
ruleset = compile_paths().rulesets[sys.argv[1]]
times = []
for lang in ruleset.languages:
    start = time.perf_counter()
    sheet_pdf(ruleset, lang, sys.argv[2])
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""


def fresh_process(game: str, paper: str) -> list[float]:
    """Seconds per sheet in a new interpreter (cold caches: Jinja2 and Typst load, fonts)."""
    command = [sys.executable, "-c", FRESH, game, paper]
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def per_sheet(ruleset: object, lang: str, paper: str, runs: int) -> None:
    """Print the parts of one sheet: data (prose included), Typst compile, both."""
    from century.shared.typst import compile_pdf
    from century.targets.sheets import TEMPLATE, sheet_data, sheet_pdf

    data = sheet_data(ruleset, lang, paper)
    print(line(f"[{lang}] data + prose", timed(lambda: sheet_data(ruleset, lang, paper), runs)))
    print(line(f"[{lang}] typst compile", timed(lambda: compile_pdf(TEMPLATE, data), runs)))
    sheet = timed(lambda: sheet_pdf(ruleset, lang, paper), runs)
    print(line(f"[{lang}] sheet (data + compile)", sheet))


if __name__ == "__main__":
    main()
