"""A merchant card's effect as the game's prose says it, for everything that shows a card
outside the rule sheet (the table's dialogs, its card list)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from century.prose import effect_words

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset


def effect_sayer(ruleset: Ruleset, lang: str) -> Callable[[Any], str]:
    """(steps) -> the effect as one line of `ruleset`'s prose in `lang`, its closing stop
    left off (`century.prose.effect_sentence`); `lang` is one of the game's languages."""
    say = effect_words(ruleset, lang)

    def line(steps: Any) -> str:
        return str(say(steps)).rstrip(".")

    return line
