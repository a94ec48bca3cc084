"""The page's own words in each language (`words/LANG.json`, shipped in the package): every
button, heading, dialog and sentence the page writes itself, by key, with ``{name}`` slots the
page fills. The games' words (card names, terms) come from their data instead."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files

SLOT = re.compile(r"\{(\w+)\}")
"""A slot of a sentence the page fills (``{n}``, ``{card}``)."""


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
