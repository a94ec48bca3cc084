"""The one look-up policy for translated text (names, terms) of a ruleset.

A translated text is a mapping from language code to string. Printed output (rule sheets,
card kits, the game's terms on cards and mats: `term`) asks for `required` text: the
language checks make sure every name has every language of the game, so a gap there is an
error, never a silent switch of language. Screens and reports (terminal play, the simulation
report, card titles of unnamed cards) ask for `shown` text: the language asked for, else the
first language that has one, else a fallback such as the id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset


class TextError(ValueError):
    """Text that printed output needs is missing."""


def required(texts: Mapping[str, str], lang: str, what: str) -> str:
    """The `lang` text of `what`, or `TextError` naming what lacks it."""
    if lang not in texts:
        raise TextError(f"{what} has no {lang!r} text")
    return texts[lang]


def shown(texts: Mapping[str, str], lang: str, fallback: str = "") -> str:
    """The `lang` text, else the first language's, else `fallback` (an id, say)."""
    if texts.get(lang):
        return texts[lang]
    return next((text for text in texts.values() if text), fallback)


def term(ruleset: Ruleset, key: str, lang: str) -> str:
    """A term of the game (``ruleset.terms[key]``) in `lang`, capitalised, as printed output
    shows it: `required` (`TextError` naming the term if it lacks the language)."""
    return capital(required(ruleset.terms.get(key, {}), lang, f"term {key!r}"))


def capital(text: str) -> str:
    """`text` with its first letter upper-case (the rest as written)."""
    return text[:1].upper() + text[1:]
