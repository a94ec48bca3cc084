"""The hostile names: one string carrying every attack the targets must print as text, and a
ruleset with it in its names and ids."""

from __future__ import annotations

import copy

from century.model.ruleset import Ruleset

HOSTILE = (
    "x\"'\n"  # both quotes and a newline
    "#{{ 1 }} {% if %} [[cube:Y]] "  # Jinja expression and statement, an icon marker
    '#import "evil.typ": * #set page(width: 1cm) #pagebreak() '  # Typst code
    "] $x$ \\ `raw` <b> <lbl> @ref "  # Typst and HTML markup, a backslash
    "\"; import os; os.system('echo pwned') #"  # Python
)
"""Quotes, a newline, Jinja ``{{ }}``/``{%``, Typst ``#import``/``#set``/``]``/``$x$``/labels/
references, a backslash, backticks, HTML and a Python injection, in one string."""


def hostile(ruleset: Ruleset) -> Ruleset:
    """`ruleset` with HOSTILE in its names (the game, the first resource, coin, starting,
    merchant and point card, two themed terms, every language) and ids: the game's id is
    ``"evil-" + HOSTILE``, the source hash HOSTILE, the first resource's and coin's ids
    HOSTILE, the first merchant card's ``HOSTILE + "-card"``, the first point card's
    ``"'''" + HOSTILE``; the first merchant card's names start with ``'\"\"\"'``."""
    data = copy.deepcopy(ruleset.to_json())
    every = lambda text: {lang: text for lang in data["name"]}  # noqa: E731
    data["id"] = "evil-" + HOSTILE
    data["source_hash"] = HOSTILE
    data["name"] = every(HOSTILE)
    data["resources"][0]["id"] = HOSTILE
    data["resources"][0]["name"] = every(HOSTILE)
    data["coins"][0]["id"] = HOSTILE
    data["coins"][0]["name"] = every(HOSTILE)
    data["starting_cards"][0]["name"] = every(HOSTILE)
    data["merchant_deck"][0]["id"] = HOSTILE + "-card"
    data["merchant_deck"][0]["name"] = every('"""' + HOSTILE)
    data["point_deck"][0]["id"] = "'''" + HOSTILE
    for term in ("caravan", "point_cards"):
        data["terms"][term] = every(HOSTILE)
    for lang in data["name"]:  # the coin's name, counted by the prose, never changes
        data["forms"].setdefault(lang, {})[HOSTILE] = {"*": HOSTILE}
    return Ruleset.from_json(data)
