"""Every count in the prose takes its word's form from the game's data, by the CLDR plural
category of the count in the language (Babel): no language chooses in template code."""

from __future__ import annotations

from typing import Any

import pytest

from century.model.text import ordinal_category, plural_category
from century.prose import ProseError, prose_texts

from helpers.rulesets import edited, spice_road


def _forms(lang: str, word: str, forms: dict[str, str] | None) -> Any:
    def edit(data: dict[str, Any]) -> None:
        if forms is None:
            del data["forms"][lang][word]
        else:
            data["forms"][lang][word] = forms

    return edited(spice_road(), edit)


@pytest.mark.parametrize(
    ("lang", "word", "count_key"),
    [("en", "point card", "point_count"), ("de", "Punktekarte", "point_count")],
)
def test_the_counted_word_comes_from_the_forms(lang: str, word: str, count_key: str) -> None:
    ruleset = _forms(lang, word, {"one": "ONE-FORM", "other": "OTHER-FORM"})
    assert "OTHER-FORM" in prose_texts(ruleset, lang)["comp_point"]  # dozens of point cards
    with pytest.raises(ProseError, match=f"{word}.*no forms"):
        prose_texts(_forms(lang, word, None), lang)


def test_a_coin_is_counted_by_its_forms_not_by_a_suffix() -> None:
    ruleset = _forms("de", "Goldmünze", {"one": "Goldstück", "other": "Goldstücke"})
    coins = prose_texts(ruleset, "de")["comp_coins"]
    assert "Goldstücke" in coins and "Goldmünzen" not in coins


def test_categories_are_babels() -> None:
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert [ordinal_category("en", n) for n in (1, 2, 3, 4, 11, 22)] == [
        "one", "two", "few", "other", "other", "two",
    ]  # fmt: skip
    assert ordinal_category("fr", 1) == "one" and ordinal_category("fr", 5) == "other"
