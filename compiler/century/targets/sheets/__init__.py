"""Rule sheets: one PDF per language and paper, drawn from the model by ``rules.typ``.

The sentences are the game's prose rendered by `century.prose`; this module adds the drawing
data (ladder, seats, coins, end table, card examples) and hands both to Typst as JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from century.model.ruleset import MerchantCard, Ruleset
from century.prose import PROSE_KEYS, TextError, prose_context, render_prose
from century.targets import BuildOptions, Target

TEMPLATE = "sheets/rules.typ"
PAPERS = {"a4": "a4", "letter": "us-letter"}
"""Paper names on the command line -> Typst paper names."""

SheetError = TextError
"""The ruleset cannot be typeset as a rule sheet (e.g. a missing translation)."""


# -- the sheet -----------------------------------------------------------------------------


def _example(ruleset: Ruleset, kind: str) -> MerchantCard | None:
    """The first card of `kind`, from the starting hand first, then the deck."""
    for card in (*ruleset.starting_cards, *ruleset.merchant_deck):
        if card.kind == kind:
            return card
    return None


def _examples(ruleset: Ruleset) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for kind in ("gain", "upgrade", "trade"):
        card = _example(ruleset, kind)
        if card is not None:
            found[kind] = {"get": list(card.get), "pay": list(card.pay), "steps": card.steps}
    if ruleset.point_deck:
        card = max(ruleset.point_deck, key=lambda p: (sum(1 for n in p.cost if n), -p.points))
        found["point"] = {"cost": list(card.cost), "points": card.points}
    return found


def sheet_data(ruleset: Ruleset, lang: str, paper: str) -> dict[str, Any]:
    """The JSON document `rules.typ` reads: drawing data plus rendered prose."""
    if paper not in PAPERS:
        raise SheetError(f"unknown paper {paper!r} (known: {', '.join(PAPERS)})")
    context = prose_context(ruleset, lang)
    text = render_prose(ruleset, lang)
    missing = sorted(PROSE_KEYS - text.keys())
    if missing:
        raise SheetError(f"prose {lang}: no text for {', '.join(missing)}")
    counts = list(ruleset.player_counts)
    return {
        "lang": lang,
        "paper": PAPERS[paper],
        "title": context["game"],
        "players": counts,
        "resources": [
            {k: r[k] for k in ("code", "colour", "name", "points")} for r in context["resources"]
        ],
        "coins": [
            {
                **c,
                "counts": [c["per_player"] * n for n in counts],  # per player count
                "in_box": c["per_player"] * ruleset.players_max,
            }
            for c in context["coins"]
        ],
        "seats": [list(v) for v in ruleset.seats],
        "caravan_limit": ruleset.caravan_limit,
        "point_row": ruleset.point_row,
        "merchant_row": ruleset.merchant_row,
        "end": context["thresholds"],
        "finish_round": ruleset.finish_round,
        "tie_break": ruleset.tie_break,
        "coin_runout": ruleset.coin_runout,
        "examples": _examples(ruleset),
        "text": text,
    }


def render_sheet(ruleset: Ruleset, lang: str, paper: str = "a4") -> bytes:
    """The rule sheet of `ruleset` in `lang` on `paper`, as PDF bytes."""
    from century.targets.typst import render_pdf

    return render_pdf(TEMPLATE, sheet_data(ruleset, lang, paper))


def sheet_name(lang: str, paper: str) -> str:
    return f"rules-{lang}-{paper}.pdf"


def write(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    """Write ``rules-<lang>-<paper>.pdf`` for every language and paper asked for."""
    languages = options.languages or ruleset.languages
    papers = options.papers or ("a4",)
    written: list[Path] = []
    for lang in languages:
        for paper in papers:
            path = out / sheet_name(lang, paper)
            path.write_bytes(render_sheet(ruleset, lang, paper))
            written.append(path)
    return written


TARGET = Target("sheets", "rule sheets per language and paper (rules-<lang>-<paper>.pdf)", write)
