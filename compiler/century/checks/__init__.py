"""The check stage: semantic checks on a resolved game, one small function each.

Each check takes a `Context` and yields located diagnostics. `LIMITS` and `CHECKS` are the
registry: the code of each check (see `century.base.diagnostics.CODES`) and its function.
`run_checks` runs them all, so every problem is reported in one run; past a limit of `LIMITS`
nothing else runs, so the other checks may assume bounded numbers and lists. The schema has
already guaranteed the shape of the data, so checks may index it freely. `MODEL_CHECKS` run on
the built `Ruleset`.
"""

from __future__ import annotations

from century.base.diagnostics import Diagnostic, has_errors
from century.checks import (
    cards,
    effects,
    ending,
    ladder,
    languages,
    layout,
    limits,
    look,
    prose,
    setup,
)
from century.checks.context import Check, Context
from century.frontend.loader import Node

LIMITS: dict[str, Check] = {
    "C501": limits.numbers,
    "C502": limits.card_counts,
    "C503": limits.list_lengths,
    "C506": effects.effect_sizes,
}

CHECKS: dict[str, Check] = {
    "C301": ladder.unique_resources,
    "C302": ladder.known_codes,
    "C303": ladder.cubes_in_rank_order,
    "C304": ladder.per_rank_lists,
    "C305": cards.unique_card_ids,
    "C306": effects.card_effects,
    "C307": cards.deck_kinds,
    "C308": cards.decks_fill_rows,
    "C309": cards.point_values,
    "C310": setup.player_range,
    "C311": setup.seats_cover_players,
    "C312": setup.end_thresholds,
    "C313": setup.coin_positions,
    "C314": languages.translations,
    "C315": languages.prose_languages,
    "C316": ending.game_can_end,
    "C317": effects.endless_repeats,
    "C318": effects.playable,
    "C026": look.files,
    "C319": look.resolution,
    "C320": look.colours,
    "C321": look.glyphs,
    "C322": look.bleed,
    "C323": layout.overlaps,
    "C324": layout.safe_area,
    "C325": layout.text_fit,
    "C326": layout.marks,
    "C327": languages.word_forms,
    "C328": layout.extends_cycle,
}

MODEL_CHECKS = [limits.move_tables, prose.check_prose]


def run_checks(tree: Node, own: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """Every problem every check finds in a resolved game tree (only the limits' problems
    when it is past a limit); `own` are the game's own files (see `Context.own`)."""
    ctx = Context(tree, own=own)
    found: list[Diagnostic] = []
    for registry in (LIMITS, CHECKS):
        for code, check in registry.items():
            ctx.code = code
            problems = list(check(ctx))
            found.extend(problems)
            if code in STOP_AFTER and has_errors(problems):
                return found
        if has_errors(found):
            break
    return found


STOP_AFTER = frozenset({"C307"})
"""Checks whose errors end the checking: the later checks read each deck as cards of its own
kind (a point card's cost), which a deck of another kind does not hold."""
