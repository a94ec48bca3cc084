"""Benchmark: render every deck of one game for one paper size.

Measures the whole process (``python -m century cards GAME --paper PAPER``: interpreter
start, loading the rules, Typst compile, writing the PDF) and, in-process, its parts:
loading the rules, building the page data, rendering it. Prints the best and median of
several runs.

    python benchmarks/bench_cards.py [--game spice-road] [--paper a4] [--runs 5]
"""

from __future__ import annotations

import argparse
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
    args = parser.parse_args()

    from century.pipeline import compile_paths
    from century.targets.cards import TEMPLATE, CardOptions, document, render
    from century.targets.typst import render_pdf

    ruleset = compile_paths().rulesets[args.game]
    options = CardOptions(paper=args.paper)
    pdf = render(ruleset, options)  # warm-up, and the figures below
    data = document(ruleset, options)
    cards = sum(len(p["cards"]) for p in data["pages"] if p["side"] == "front")
    print(
        f"{args.game}, {args.paper}: {len(data['pages'])} pages, {cards} card fronts, "
        f"{len(pdf) / 1024:.0f} KiB, {args.runs} runs, Python {sys.version.split()[0]}"
    )

    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable, "-m", "century", "cards", args.game,
            "--paper", args.paper, "--out", tmp,
        ]  # fmt: skip

        def whole() -> None:
            subprocess.run(command, check=True, capture_output=True)

        print(line("whole process (century cards)", timed(whole, args.runs)))
        written = Path(tmp) / f"cards-{args.paper}.pdf"
        assert written.read_bytes() == pdf, "the CLI and the library disagree"
    print(line("load rules (compile_paths)", timed(compile_paths, args.runs)))
    print(line("page data (document)", timed(lambda: document(ruleset, options), args.runs)))
    print(line("Typst render", timed(lambda: render_pdf(TEMPLATE, data), args.runs)))


if __name__ == "__main__":
    main()
