"""The page's own words in each language (`words/LANG.json`, shipped in the package): every
button, heading, dialog and sentence the page writes itself, by key, with ``{name}`` slots the
page fills. The games' words (card names, terms) come from their data instead.

A sentence about a number of things has a form per CLDR plural category of its language
(``KEY.one``, ``KEY.other``; French also ``KEY.many``), ``{n}`` in it: `counted` picks the
form with Babel's rules here, the page with the browser's (``Intl.PluralRules``)."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from typing import Any

from century.model.text import plural_category

SLOT = re.compile(r"\{(\w+)\}")
"""A slot of a sentence the page fills (``{n}``, ``{card}``)."""
PLURAL = re.compile(r"(.+)\.(zero|one|two|few|many|other)")
"""A key of one plural form of a sentence: the sentence's key, the CLDR category."""


@cache
def languages() -> tuple[str, ...]:
    """The languages the page speaks, English first, then by code."""
    found = sorted(
        entry.name.removesuffix(".json")
        for entry in files("century.serve").joinpath("words").iterdir()
        if entry.name.endswith(".json")
    )
    return tuple(sorted(found, key=lambda code: (code != "en", code)))


@cache
def words(lang: str) -> dict[str, str]:
    """The page's words in `lang` (one of `languages()`): key to sentence."""
    if lang not in languages():
        raise KeyError(lang)
    text = files("century.serve").joinpath("words", f"{lang}.json").read_text("utf-8")
    loaded = json.loads(text)
    return {str(key): str(value) for key, value in loaded.items()}


def speakable(lang: str) -> str:
    """`lang` if the page speaks it, else English."""
    return lang if lang in languages() else "en"


def listed() -> list[dict[str, str]]:
    """Each language with its own name (``Deutsch``), for the page's switch."""
    return [{"code": code, "name": words(code)["language"]} for code in languages()]


def counted(lang: str, key: str, count: int, **slots: Any) -> str:
    """The sentence `key` about `count` things in `lang` (one of `languages()`): its form for
    the plural category of `count`, with ``{n}`` (`count`) and `slots` filled."""
    form = words(lang)[f"{key}.{plural_category(lang, count)}"]
    return form.format(n=count, **slots)


def plurals(lang: str) -> dict[str, set[str]]:
    """The sentences of `lang` that have plural forms: key to the categories given."""
    found: dict[str, set[str]] = {}
    for key in words(lang):
        match = PLURAL.fullmatch(key)
        if match:
            found.setdefault(match[1], set()).add(match[2])
    return found
