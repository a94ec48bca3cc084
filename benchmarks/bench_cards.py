"""Benchmark: the print-and-play kit of one game on one paper, and the ink it takes.

Speed: the whole process (``python -m century cards GAME --paper PAPER``: interpreter start,
loading and checking the rules, both languages rendered, PDFs written), once for every
language of the game (the default) and once for one; in-process, its parts: loading the
rules, building the page data, the Typst compile (a fresh document each run, so Typst's
memo cache does not answer for it).

Ink: every page rendered to PNG at ``--ppi`` and measured (mean darkness, as a greyscale
print sees it; 1.0 = a solid black page). Reported per kind of page, plus the kit's total in
black-page equivalents and the share the card backs take, for the default backs and for
``--low-ink``.

``--baseline DIR`` runs the whole-process command alternately in DIR (another checkout,
with ``DIR/compiler`` on PYTHONPATH) and here, so both see the same machine load, and
measures DIR's ink with its own code.

    python benchmarks/bench_cards.py [--game spice-road] [--paper a4] [--runs 5]
                                     [--baseline DIR] [--ppi 40] [--no-ink]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import line, timed

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

INK = """
import json, sys
sys.path.insert(0, sys.argv[1])
from ink import coverage, compile_png
from century.pipeline import compile_paths
import century.targets.cards as cards
game, paper, ppi, low_ink = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
ruleset = compile_paths().rulesets[game]
fields = cards.CardOptions.__dataclass_fields__
extra = {"low_ink": True} if low_ink else {}
if "lang" in fields:
    extra["lang"] = ruleset.languages[0]
options = cards.CardOptions(paper=paper, **extra)
doc = cards.document(ruleset, options)
out = []
for page, png in zip(doc["pages"], compile_png(cards.TEMPLATE, doc, ppi)):
    kind = page.get("type", "cards")
    side = page.get("side", "")
    out.append([kind, side, *coverage(png)])
print(json.dumps(out))
"""


def ink_report(source: Path, game: str, paper: str, ppi: int, low_ink: bool, label: str) -> None:
    """Measure the ink of every page with the code in `source` and print a summary."""
    env = {**os.environ, "PYTHONPATH": str(source / "compiler")}
    command = [sys.executable, "-c", INK, str(HERE), game, paper, str(ppi), "1" if low_ink else "0"]
    result = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"{label}: could not measure ink ({result.stderr.strip().splitlines()[-1]})")
        return
    pages = json.loads(result.stdout)
    groups: dict[str, list[float]] = {}
    for kind, side, ink, _covered in pages:
        groups.setdefault(f"{kind} {side}".strip(), []).append(ink)
    total = sum(p[2] for p in pages)
    backs = sum(p[2] for p in pages if p[1] == "back" and p[0] == "cards")
    print(f"{label}: {len(pages)} pages, {total:.2f} black-page equivalents, card backs "
          f"{backs:.2f} ({backs / total:.0%})")  # fmt: skip
    for name, values in groups.items():
        print(
            f"  {name:<14} {len(values):2} pages, ink per page "
            f"{min(values):.3f}–{max(values):.3f} (mean {sum(values) / len(values):.3f})"
        )


def whole_process(source: Path, game: str, paper: str, out: str, lang: str | None) -> float:
    env = {**os.environ, "PYTHONPATH": str(source / "compiler")}
    command = [sys.executable, "-m", "century", "cards", game, "--paper", paper, "--out", out]
    if lang:
        command += ["--lang", lang]
    start = time.perf_counter()
    subprocess.run(command, cwd=source, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--ppi", type=int, default=40)
    parser.add_argument("--no-ink", action="store_true", help="skip the ink measurement")
    args = parser.parse_args()

    from century.pipeline import compile_paths
    from century.shared.typst import compile_pdf
    from century.targets.cards import TEMPLATE, CardOptions, document, render

    ruleset = compile_paths().rulesets[args.game]
    first = ruleset.languages[0]
    options = CardOptions(paper=args.paper, lang=first)
    pdf = render(ruleset, options)
    data = document(ruleset, options)
    cards = sum(len(p["fronts"]) for p in data["pages"] if p["type"] == "cards")
    print(
        f"{args.game}, {args.paper}, {first}: {len(data['pages'])} pages, {cards} card fronts, "
        f"{len(pdf) / 1024:.0f} KiB; languages {', '.join(ruleset.languages)}; "
        f"{args.runs} runs, Python {sys.version.split()[0]}"
    )

    runs: list[tuple[str, Path, str | None]] = [
        ("this checkout, every language (default)", ROOT, None),
        (f"this checkout, --lang {first}", ROOT, first),
    ]
    if args.baseline:
        runs.insert(0, ("baseline, its default", args.baseline.resolve(), None))
    times: dict[str, list[float]] = {label: [] for label, _, _ in runs}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):  # alternate, so every variant sees the same load
            for label, source, lang in runs:
                times[label].append(whole_process(source, args.game, args.paper, tmp, lang))
        written = Path(tmp) / f"cards-{first}-{args.paper}.pdf"
        assert written.read_bytes() == pdf, "the CLI and the library disagree"
    for label, _, _ in runs:
        print(line(f"whole process: {label}", times[label], width=56))

    print(line("load rules (compile_paths)", timed(compile_paths, args.runs), width=56))
    print(line("page data (document)", timed(lambda: document(ruleset, options), args.runs), 56))
    docs = [document(ruleset, options) for _ in range(args.runs)]
    for i, doc in enumerate(docs):
        doc["nonce"] = i  # a different input each run: no answer from Typst's memo cache
    fresh = iter(docs)
    compile_times = timed(lambda: compile_pdf(TEMPLATE, next(fresh)), args.runs)
    print(line("Typst compile, fresh input", compile_times, width=56))

    if not args.no_ink:
        if args.baseline:
            ink_report(args.baseline.resolve(), args.game, args.paper, args.ppi, False, "baseline")
        ink_report(ROOT, args.game, args.paper, args.ppi, False, "this checkout")
        ink_report(ROOT, args.game, args.paper, args.ppi, True, "this checkout, --low-ink")


if __name__ == "__main__":
    main()
