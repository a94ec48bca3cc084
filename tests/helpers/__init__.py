"""Shared test helpers: paths, the bundled rulesets and the test variants built from them, the
hostile names, small tools for the engine tests, and targets' files written as a build writes
them.

Test modules import them as ``from helpers import ...`` (pytest puts ``tests/`` on the path,
see ``pythonpath`` in pyproject.toml). No tests here.
"""

from __future__ import annotations

from helpers.composed import (
    COMPOSED_EDITS,
    COMPOSED_SENTENCES,
    composed_edits,
    composed_variant,
    with_composed_variant,
)
from helpers.docs import DOCS, docs_generator
from helpers.effects import nesting, random_effects
from helpers.engine import MAX_DECISIONS, api_answers, caravans, decisions, position
from helpers.hostile import HOSTILE, hostile
from helpers.lint import lint, ruff
from helpers.paths import BUNDLED, CASES, GOLDEN, REFERENCE, ROOT, TESTS, VALID, as_in_checkout
from helpers.rulesets import (
    COMPOSED,
    COMPOSED_ID,
    USELESS,
    bundled_rulesets,
    changed,
    compiled,
    composed,
    edited,
    five_ranks,
    spice_road,
    with_test_variants,
)
from helpers.targets import written

__all__ = [
    "BUNDLED",
    "CASES",
    "COMPOSED",
    "COMPOSED_EDITS",
    "COMPOSED_ID",
    "COMPOSED_SENTENCES",
    "DOCS",
    "GOLDEN",
    "HOSTILE",
    "MAX_DECISIONS",
    "REFERENCE",
    "ROOT",
    "TESTS",
    "USELESS",
    "VALID",
    "api_answers",
    "as_in_checkout",
    "bundled_rulesets",
    "caravans",
    "changed",
    "compiled",
    "composed",
    "composed_edits",
    "composed_variant",
    "decisions",
    "docs_generator",
    "edited",
    "five_ranks",
    "hostile",
    "lint",
    "nesting",
    "position",
    "random_effects",
    "ruff",
    "spice_road",
    "with_composed_variant",
    "with_test_variants",
    "written",
]
