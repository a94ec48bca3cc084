"""Every cap that keeps input bounded, in one place (the docs site lists them with their values
and docstrings, generated from this module).

Each stage refuses what is past its cap with a located diagnostic naming the key and the
limit, so no input can make `century` hang, eat memory or crash: reading files, the rules
data, the engine's move tables and the rule-sheet prose each have their own caps here.
"""

from __future__ import annotations

# -- reading files ---------------------------------------------------------------------------

MAX_FILE_BYTES = 1_000_000
"""The largest YAML file read."""
MAX_NODES = 20_000
"""Values (scalars, lists, mappings, keys) in one YAML file."""
MAX_TOTAL_NODES = 100_000
"""Values in all the YAML files of one run."""
MAX_ITEMS = 500
"""Entries in one YAML list or mapping."""
MAX_FILES = 2000
"""The most YAML files one folder search collects."""
MAX_DEPTH = 100
"""The deepest nesting of YAML mappings and lists."""
MAX_CELL_CHARS = 1000
"""Characters in one cell of a deck table (CSV, TSV); its rows count against `MAX_ITEMS` and
its values against `MAX_NODES`, as YAML's do."""
MAX_SCHEMA_ERRORS = 100
"""Schema problems reported per file (the first ones)."""
MAX_REPORT_BYTES = 10_000_000
"""The largest simulation report `simulate --compare` reads, and the largest bot ladder
(`ladder.json`) a report reads."""
MAX_RECORD_BYTES = 10_000_000
"""The largest game record `replay` and `play --record` read."""
MAX_MANIFEST_BYTES = 1_000_000
"""The largest output manifest (``.century-manifest.json``) read."""
MAX_JSON_DEPTH = 100
"""The deepest nesting of JSON arrays and objects in any JSON file read."""
MAX_DIGITS = 100
"""Digits in one number of a JSON file read (a seed, a count)."""
MAX_GAMES = 1_000_000
"""Games one `simulate` plays, and games per pairing of one `bots` ladder."""
MAX_INPUT_LINE = 1000
"""The longest line `play` reads as a command (the rest of a longer one is skipped)."""

# -- the rules data ---------------------------------------------------------------------------

MAX_PLAYERS = 10
"""`players.max`, and the number of starting caravans in `setup.seats`."""
MAX_RANKS = 10
"""Resources on the ladder (each rank multiplies the engine's move tables)."""
MAX_CARAVAN_LIMIT = 30
"""`caravan_limit`."""
MAX_ROW = 20
"""`setup.merchant_row` and `setup.point_row`."""
MAX_UPGRADE_STEPS = 10
"""`steps` of an upgrade card, and the counts of a card's steps (`upgrade`, `pay_any`, a
repeat's `max`)."""
MAX_EFFECT_DEPTH = 4
"""How deep a merchant card's steps may nest (`repeat` and `choose` inside each other)."""
MAX_CARD_MOVES = 1000
"""Different moves one merchant card may make from one caravan (its distinct outcomes)."""
MAX_DECK_CARDS = 500
"""Cards in one deck, counting `copies` and cards a variant adds."""
MAX_HAND_CARDS = 50
"""Cards in one player's starting hand, counting `copies`."""
MAX_GAME_CARDS = 1000
"""Cards in a game: merchant and point decks plus a starting hand for every seat."""
MAX_NUMBER = 1000
"""Any other count or value: points, coin values, coins per player, end thresholds."""
MAX_LANGUAGES = 20
"""`languages` (each is a rule sheet to typeset)."""
MAX_CHAIN = 20
"""Variants in an `extends` chain, the base game not counted."""

# -- the engine ------------------------------------------------------------------------------

MAX_MOVES = 30_000
"""Legal moves one decision may list, as bounded from the rules without building the tables
(`century.engine.size`). The engine keeps that many per caravan it meets in its memo tables,
so this bounds both its time per decision and its memory per caravan."""

# -- rule-sheet prose ------------------------------------------------------------------------

PROSE_MAX_TEXT = 20_000
"""Characters in any text a prose sentence builds, and in its output."""
PROSE_MAX_STEPS = 20_000
"""Loop iterations and calls one prose sentence may make."""
PROSE_MAX_RANGE = 10_000
"""Items in one `range(...)` in prose."""
PROSE_MAX_INT_BITS = 4096
"""Bits in any whole number prose arithmetic makes (`9**(9**9)` is refused, not computed)."""
PROSE_SECONDS = 20.0
"""CPU time (seconds of the rendering thread) to render the prose of one language: a backstop
far above what the caps above allow on any machine, so the same rules pass or fail on a slow
one too (``CENTURY_PROSE_SECONDS`` sets another)."""

# -- the look: art, icons and fonts ------------------------------------------------------------

MAX_ART_BYTES = 32_000_000
"""The largest picture, icon or font file of a look read."""
MAX_ART_PIXELS = 50_000_000
"""Pixels (width × height) of one PNG or JPEG picture, read from its header before anything
is decoded (a decompression bomb is refused unopened)."""
MAX_ART_SIDE = 20_000
"""Pixels on either side of one picture."""
MAX_SVG_ELEMENTS = 20_000
"""Elements in one SVG picture or icon."""
MAX_SVG_DEPTH = 256
"""Elements nested in one another in an SVG (the renderer refuses deep nesting)."""
MAX_SVG_SIZE = 1_000_000
"""The largest width or height an SVG's view box (or size) may give, in its own units."""
MAX_LOOK_FILES = 1000
"""Pictures, icons and fonts one game's look names."""
