"""The words and templates the package ships for every game name none of a game's cards or
resources: no card id (merchant, starting or point card, as the model derives them) and no
resource's id or name in any language (with its inflected forms) of any bundled game. Such a
word belongs in the game's data, which a variant replaces; a word the table, the prose or a
report names of its own would be wrong in every other game."""

from __future__ import annotations

import re
from pathlib import Path

import century

from helpers.rulesets import bundled_rulesets

PACKAGE = Path(century.__file__).resolve().parent

SCANNED = (
    *sorted(PACKAGE.joinpath("serve", "words").glob("*.json")),
    *sorted(PACKAGE.joinpath("data", "rules", "prose").glob("*.yaml")),
    PACKAGE / "serve" / "static" / "index.html",
    PACKAGE / "serve" / "static" / "table.js",
    *sorted(PACKAGE.rglob("*.j2")),
)
"""The shipped words (the table's, the prose's) and the templates every game shares."""

EDGE = r"[\w+-]"
"""What continues a card id: a name is found only where none of these stands on either side."""


def game_words() -> set[str]:
    """Every card id and every resource id, name and form of the bundled games."""
    found: set[str] = set()
    for ruleset in bundled_rulesets().values():
        cards = ruleset.merchant_deck + ruleset.starting_cards + ruleset.point_deck
        found |= {card.id for card in cards}
        for resource in ruleset.resources:
            found.add(resource.id)
            for lang, name in resource.name.items():
                found.add(name)
                found |= set(ruleset.forms.get(lang, {}).get(name, {}).values())
    return found


def named(text: str, words: set[str]) -> list[str]:
    """The words of `words` that `text` names (as a whole, any case), with their line."""
    pattern = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    found = re.finditer(rf"(?<!{EDGE})(?:{pattern})(?!{EDGE})", text, re.IGNORECASE)
    return [f"line {text.count(chr(10), 0, hit.start()) + 1}: {hit.group()}" for hit in found]


def test_the_scan_reads_the_words_and_templates():
    assert all(path.is_file() for path in SCANNED)
    kinds = {path.suffix for path in SCANNED}
    assert {".json", ".yaml", ".html", ".js", ".j2"} <= kinds
    assert len([path for path in SCANNED if path.suffix == ".json"]) >= 3


def test_no_shipped_words_or_template_names_a_games_card_or_resource():
    words = game_words()
    assert {"up2", "+yy", "turmeric", "Kurkuma", "curcuma"} <= words  # the model's own
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in SCANNED
        if (hits := named(path.read_text("utf-8"), words))
    }
    assert found == {}


def test_a_card_or_resource_planted_in_the_words_is_found():
    words = game_words()
    english = PACKAGE.joinpath("serve", "words", "en.json").read_text("utf-8")
    planted = english.replace("{example}", "hand.1=up3,row.3=+yy", 1)
    planted = planted.replace('"Deal"', '"Deal (Kurkuma, SAFFRON)"', 1)
    assert planted != english and named(english, words) == []
    hits = [hit.split(": ", 1)[1] for hit in named(planted, words)]
    assert sorted(hits) == sorted(["Kurkuma", "SAFFRON", "up3", "+yy"])
    # a word that only holds a card id is not one: hand.N=CARD, an id inside a longer word
    assert named("hand.N=CARD, row.N=CARD; up23, setup2, x+yyz", words) == []
