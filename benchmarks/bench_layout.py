"""Benchmark: one card at a time, and the cost of a card layout with card texts in the kit
and on the rule sheet.

Preview: ``century preview GAME CARD --out FILE`` as a user runs it (a whole process:
interpreter start, loading and checking the rules, one card drawn by Typst, the PNG written),
cold (a fresh compiled-template cache, `CENTURY_CACHE_DIR`) and warm (the same cache again);
beside it ``century images GAME`` for one language, which renders every card, and
``century images GAME --card CARD``.

Kit A/B: ``century cards GAME --lang en`` for a variant that only extends GAME (today's face)
and for the same variant with a layout of every region and a text on every merchant card,
run alternately in one process loop so both see the same machine load.

Sheet A/B: ``century sheets GAME --lang en`` for the same two variants, alternately (the
layout's variant replaces every merchant card, so its sheet also lists what changed).

    python benchmarks/bench_layout.py [--game spice-road] [--card yy-g] [--runs 5]
        [--only preview|kit|sheet ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from timing import line

PLAIN = "id: plain\nextends: {game}\n"
LAID = """\
id: laid
extends: {game}
look:
  layout:
    title: {{x: 4, y: 4, width: 55, height: 8, size: 10, align: left}}
    index: {{x: 4, y: 13, width: 7, height: 40}}
    effect: {{x: 13, y: 14, width: 34, height: 40}}
    points: {{x: 48, y: 14, width: 11, height: 11}}
    text: {{x: 6, y: 57, width: 51, height: 23, size: 7.5, min_size: 5, align: left}}
cards:
  merchant:
    replace:
{cards}
"""


def run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """The wall-clock and CPU seconds (user and system) of one ``century`` process: on a
    loaded machine the wall clock measures the load as much as the work."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "century", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def report(label: str, runs: list[tuple[float, float]]) -> None:
    """The wall-clock and the CPU line of `runs`."""
    print(line(label, [wall for wall, _ in runs]))
    print(line("  CPU", [cpu for _, cpu in runs]))


def _data(steps: list[dict[str, Any]], cubes: Any) -> list[dict[str, Any]]:
    """Steps as a rules file writes them (cubes as code strings) from their JSON form."""
    found = []
    for step in steps:
        written: dict[str, Any] = {}
        for key, value in step.items():
            if key in ("gain", "pay"):
                written[key] = cubes(value)
            elif key == "repeat":
                written[key] = _data(value, cubes)
            elif key == "choose":
                written[key] = [_data(option, cubes) for option in value]
            else:
                written[key] = value
        found.append(written)
    return found


def laid_variant(game: str) -> str:
    """The variant with a layout and a text on every merchant card of `game`."""
    from century.pipeline import compile_paths

    ruleset = compile_paths().rulesets[game]
    low = ruleset.codes[0]
    text = json.dumps(
        {
            "en": f"Play it [{low}] when the market is slow; keep the rest [up] for later.",
            "de": f"Spiel sie [{low}], wenn der Markt ruhig ist; den Rest [up] für später.",
            "fr": f"Jouez-la [{low}] quand le marché est calme ; gardez le reste [up].",
        },
        ensure_ascii=False,
    )
    lines = []
    for card in ruleset.merchant_deck:
        effect = json.dumps(_data(card.to_json()["effect"], ruleset.cubes))
        lines.append(
            f"      {card.id}: {{id: {card.id}, effect: {effect}, copies: {card.copies}, "
            f"text: {text}}}"
        )
    return LAID.format(game=game, cards="\n".join(lines))


PARTS = ["preview", "kit", "sheet"]
"""What the benchmark can measure (`--only`)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--card", default="yy-g")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--only", action="append", choices=PARTS, help="measure only this (repeatable)"
    )
    args = parser.parse_args()
    parts = args.only or PARTS
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "rules").mkdir()
        (folder / "rules" / "plain.yaml").write_text(PLAIN.format(game=args.game), "utf-8")
        (folder / "rules" / "laid.yaml").write_text(laid_variant(args.game), "utf-8")
        env = {**os.environ, "CENTURY_CACHE_DIR": str(folder / "cache")}
        if "preview" in parts:
            preview(folder, env, args.card, args.runs)
        if "kit" in parts:
            a_b(folder, env, ["cards"], "kit", args.runs)
        if "sheet" in parts:
            a_b(folder, env, ["sheets"], "sheet", args.runs)


def a_b(folder: Path, env: dict[str, str], command: list[str], what: str, runs: int) -> None:
    """`command` for the plain and the laid-out variant, alternately, `runs` times each."""
    plain, laid = [], []
    for _ in range(runs):
        plain.append(run([*command, "plain", "--lang", "en", "--out", "o"], folder, env))
        laid.append(run([*command, "laid", "--lang", "en", "--out", "o"], folder, env))
    report(f"{what}, today's face", plain)
    report(f"{what}, layout and card texts", laid)


def preview(folder: Path, env: dict[str, str], card: str, runs: int) -> None:
    """One card's preview, cold and warm, against the images of one and of every card."""
    one = ["preview", "laid", card, "--lang", "en", "--out", "p.png"]
    cold = []
    for i in range(runs):
        cold.append(run(one, folder, {**env, "CENTURY_CACHE_DIR": str(folder / f"c{i}")}))
    report("preview, cold cache", cold)
    report("preview, warm", [run(one, folder, env) for _ in range(runs)])
    cards = ["images", "laid", "--card", card, "--lang", "en", "--out", "o"]
    report("images --card (one language)", [run(cards, folder, env) for _ in range(runs)])
    every = ["images", "laid", "--lang", "en", "--out", "o"]
    report("images, every card (one language)", [run(every, folder, env)])


if __name__ == "__main__":
    main()
