"""The one look-up policy for translated text (names, terms) of a ruleset.

A translated text is a mapping from language code to string. Printed output (rule sheets,
card kits, the game's terms on cards and mats: `term`) asks for `required` text: the
language checks make sure every name has every language of the game, so a gap there is an
error, never a silent switch of language. Screens and reports (terminal play, the simulation
report, card titles of unnamed cards) ask for `shown` text: the language asked for, else the
first language that has one, else a fallback such as the id.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

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


ANY_FORM = "*"
"""The form key of a word that has one text for every number and case."""


def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories of `lang` (Babel's data), ``other`` last: ``("one",
    "other")`` for English and German, ``("many", "one", "other")`` for French."""
    return (*sorted(_plural_rule(lang).tags), "other")


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category of `count` in `lang`: French ``one`` for 0 and 1, ``other``
    for 2, ``many`` for a million; English and German ``one`` for 1 alone."""
    category: str = _plural_rule(lang)(count)
    return category


def ordinal_category(lang: str, count: int) -> str:
    """The CLDR ordinal category of `count` in `lang` (Babel's data): English ``one`` for 1st,
    21st, ``two`` for 2nd, ``few`` for 3rd, ``other`` for 4th and 11th; French ``one`` for
    1re."""
    category: str = _plural_rule(lang, ordinal=True)(count)
    return category


@functools.cache
def _plural_rule(lang: str, ordinal: bool = False) -> Any:
    """Babel's plural rule of `lang`, its cardinal or its `ordinal` one (read once per
    language); `TextError` for a language Babel does not know."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(lang)
        return locale.ordinal_form if ordinal else locale.plural_form
    except (UnknownLocaleError, ValueError):
        raise TextError(f"no plural rules are known for language {lang!r}") from None


def form(forms: Mapping[str, str], lang: str, count: int, case: str = "") -> str:
    """The form of a word (its `forms` in `lang`, `century.model.ruleset.Ruleset.forms`)
    for `count` things in `case` (none: the plain form), or `TextError` naming the form it
    lacks. A word without forms of its own for `case` uses its plain forms there."""
    if ANY_FORM in forms:
        return forms[ANY_FORM]
    category = plural_category(lang, count)
    cased = f"{category} {case}" if case else category
    if case and not any(key.endswith(f" {case}") for key in forms):
        cased = category
    if cased not in forms:
        raise TextError(f"no {cased!r} form")
    return forms[cased]
