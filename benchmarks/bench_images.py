"""Benchmark: card images (``century images``) and the Tabletop Simulator kit (``century tts``).

Whole process: ``python -m century images GAME`` (300 dpi, every language: one PNG per
distinct card and back, and the contact sheet) and ``python -m century tts GAME`` (150 dpi,
every language: face sheets, backs, coins, mats, saved objects), each with ``--lang`` of the
first language too, and for scale the print kit (``century cards GAME``), the heaviest target
``century build`` writes by default. The commands run in turn, ``--runs`` rounds, so every
one sees the same machine load; the best and median are printed.

In process, their parts: the card data (decks, distinct faces, names), and the Typst runs
(compile and PNG encoding) for one language, each with a fresh input so Typst's memo cache
does not answer; and what the output weighs.

    python benchmarks/bench_images.py [--game spice-road] [--runs 5] [--no-parts]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import line, timed

ROOT = Path(__file__).resolve().parent.parent


def whole_process(args: list[str], out: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "compiler")}
    command = [sys.executable, "-m", "century", *args, "--out", out]
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def folder_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def parts(game: str, runs: int) -> None:
    """The pieces of one language's images and kit, in this process."""
    from century.pipeline import compile_paths
    from century.shared.cards.images import deck_images
    from century.shared.typst import compile_png
    from century.targets import images, tts

    ruleset = compile_paths().rulesets[game]
    lang = ruleset.languages[0]
    print(line("card data (deck_images)", timed(lambda: deck_images(ruleset, lang), runs)))

    captured: dict[str, tuple[str, dict, float]] = {}

    def spy(template: str, data: dict, ppi: float) -> list[bytes]:
        captured[template] = (template, data, ppi)
        return compile_png(template, data, ppi)

    import century.shared.typst as typst_module  # render() imports compile_png when called

    typst_module.compile_png = spy
    try:
        images.render(ruleset, images.ImageOptions(languages=(lang,)))
        tts.render(ruleset, tts.TtsOptions(languages=(lang,)), "file:///kit")
    finally:
        typst_module.compile_png = compile_png
    for label, template in (
        ("Typst: card images, 300 dpi, one language", images.TEMPLATE),
        ("Typst: tts kit, 150 dpi, one language", tts.TEMPLATE),
    ):
        _, data, ppi = captured[template]
        fresh = iter([{**data, "nonce": i} for i in range(runs)])
        compile_times = timed(lambda t=template, f=fresh, p=ppi: compile_png(t, next(f), p), runs)
        print(line(label, compile_times, width=44))
        pages = data["faces"] if "faces" in data else data["pages"]
        print(f"  ({len(pages)} pages)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-parts", action="store_true", help="only the whole processes")
    args = parser.parse_args()

    from century.pipeline import compile_paths

    ruleset = compile_paths().rulesets[args.game]
    first = ruleset.languages[0]
    commands = {
        "century images (300 dpi, every language)": ["images", args.game],
        f"century images --lang {first}": ["images", args.game, "--lang", first],
        "century tts (150 dpi, every language)": ["tts", args.game],
        f"century tts --lang {first}": ["tts", args.game, "--lang", first],
        "century cards (print kit, every language)": ["cards", args.game],
    }
    print(
        f"{args.game}: languages {', '.join(ruleset.languages)}; {args.runs} rounds, "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    times: dict[str, list[float]] = {label: [] for label in commands}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):  # in turn, so every command sees the same load
            for label, command in commands.items():
                times[label].append(whole_process(command, tmp))
        for folder in ("images", "tts"):
            count, size = folder_size(Path(tmp) / folder)
            print(f"{folder}/: {count} files, {size / 2**20:.1f} MiB")
    for label in commands:
        print(line(f"whole process: {label}", times[label], width=60))
    print(f"load after: {os.getloadavg()[0]:.1f}")
    if not args.no_parts:
        parts(args.game, args.runs)


if __name__ == "__main__":
    main()
