"""Benchmark: the print-and-play kit with a picture on every card, beside the kit without.

Builds, in a temporary project, a variant of Spice Road whose look gives every distinct card
(by id) a picture of its own at `--dpi` on the card's art area (JPEG, photo-like: smooth
bands with grain, so it compresses as art does; ``--png`` for lossless pictures), and a back
picture per deck. Then runs ``python -m century cards GAME --lang en --paper a4`` for the
plain base game and for that variant, alternately, `--runs` times, and reports per game the
median wall time, the PDF's size and the peak memory of the process (the largest resident
set of the child, from ``resource.getrusage``).

    python benchmarks/bench_look.py [--runs 3] [--dpi 300] [--png]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


def picture(size: tuple[int, int], seed: int) -> Image.Image:
    """A photo-like picture: colour bands that vary smoothly, with grain."""
    rng = random.Random(seed)
    base = Image.linear_gradient("L").resize(size)
    tint = Image.merge(
        "RGB",
        [base.point(lambda v, k=k: (v * (k + 1) + rng.randrange(256)) % 256) for k in range(3)],
    )
    grain = Image.effect_noise(size, 40).convert("RGB")
    return Image.blend(tint, grain, 0.25)


def project(folder: Path, dpi: float, png: bool) -> None:
    sys.path.insert(0, str(ROOT / "compiler"))
    from century.base.resources import RULES
    from century.model.look import art_area
    from century.pipeline import compile_paths

    base = compile_paths([RULES / "spice-road.yaml"]).rulesets["spice-road"]
    ids = sorted({c.id for c in (*base.merchant_deck, *base.point_deck, *base.starting_cards)})
    area = art_area((63.0, 88.0))
    size = tuple(round(mm / 25.4 * dpi) for mm in area)
    back = tuple(round((mm + 6) / 25.4 * dpi) for mm in (63.0, 88.0))
    art = folder / "rules" / "art"
    art.mkdir(parents=True)
    suffix = "png" if png else "jpg"
    lines = ["id: pictured", "extends: spice-road", "look:", "  decks:"]
    for n, deck in enumerate(("merchant", "point", "starting")):
        picture(back, 1000 + n).save(art / f"back-{deck}.{suffix}", quality=90)
        lines.append(f"    {deck}: {{back: art/back-{deck}.{suffix}}}")
    lines.append("  art:")
    for n, card in enumerate(ids):
        name = f"card-{n}.{suffix}"
        picture(size, n).save(art / name, quality=90)
        lines.append(f"    {card!r}: art/{name}")
    (folder / "rules" / "pictured.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(ids)} card pictures of {size[0]} × {size[1]} px ({dpi:g} dpi), 3 backs")


def run(folder: Path, game: str, out: str) -> tuple[float, int, int]:
    """Wall seconds, PDF bytes and peak resident memory (bytes) of one kit build."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "compiler")}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "century", "cards", game, "--lang", "en", "--out", out],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
    )
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    size = (folder / out / "cards-en-a4.pdf").stat().st_size
    return seconds, size, peak * 1024  # ru_maxrss is in kilobytes on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpi", type=float, default=300)
    parser.add_argument("--png", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project(folder, args.dpi, args.png)
        # each game's peak is measured in a child of its own (getrusage keeps the largest)
        for game in ("spice-road", "pictured"):
            times, sizes, peaks = [], [], []
            for i in range(args.runs):
                pid = os.fork()
                if pid == 0:
                    seconds, size, peak = run(folder, game, f"out-{game}-{i}")
                    Path(folder / f"{game}-{i}.txt").write_text(f"{seconds} {size} {peak}")
                    os._exit(0)
                os.waitpid(pid, 0)
                found = (folder / f"{game}-{i}.txt").read_text().split()
                seconds, size, peak = (float(v) for v in found)
                times.append(seconds)
                sizes.append(size)
                peaks.append(peak)
            print(
                f"{game:>11}: {statistics.median(times):6.2f} s, "
                f"PDF {statistics.median(sizes) / 1e6:7.2f} MB, "
                f"peak memory {max(peaks) / 1e6:6.0f} MB"
            )


if __name__ == "__main__":
    main()
