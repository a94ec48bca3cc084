"""How the table names the cards in its dialogs and its move log: a merchant card by its name
in the table's language when the data gives it one, else by the term of its kind ("the
upgrade card"), as its printed face is titled; always with its effect in words."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from century.model.text import shown
from century.serve.words import speakable
from century.serve.words import words as page_words

if TYPE_CHECKING:
    from century.engine import Engine
    from century.model.ruleset import Ruleset

_CACHE: dict[tuple[str, str], dict[str, str]] = {}
_PHRASES: dict[tuple[str, str, int], tuple[str, str]] = {}
_LOCK = threading.Lock()
MAX_GAMES = 32
"""Games (and languages) whose card names are kept."""


def names(ruleset: Ruleset, lang: str) -> dict[str, str]:
    """Per merchant card id: its name in `lang`, or empty when the data gives it none."""
    key = (ruleset.source_hash, lang)
    with _LOCK:
        found = _CACHE.get(key)
        if found is None:
            found = {
                card.id: shown(card.name, lang)
                for card in (*ruleset.starting_cards, *ruleset.merchant_deck)
            }
            if len(_CACHE) >= MAX_GAMES:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[key] = found
    return found


def kind_words(ruleset: Ruleset, card_id: str, lang: str) -> str:
    """The term of a merchant card's kind in `lang` (``upgrade card``), ``merchant card``'s
    when the game has none for it."""
    from century.shared.cards.faces import kind_term

    card = next(
        (c for c in (*ruleset.starting_cards, *ruleset.merchant_deck) if c.id == card_id), None
    )
    key = kind_term(ruleset, card.kind) if card is not None else "merchant_card"
    return shown(ruleset.terms.get(key, {}), lang, key.replace("_", " "))


def title(ruleset: Ruleset, card_id: str, lang: str) -> str:
    """A merchant card as a title: its name, else its kind's term (``Upgrade card``)."""
    named = names(ruleset, lang).get(card_id, "")
    if named:
        return named
    words = kind_words(ruleset, card_id, lang)
    return words[:1].upper() + words[1:]


_SAYERS: dict[tuple[str, str], Any] = {}


def effect_words(ruleset: Ruleset, engine: Engine, effect: tuple[Any, ...], lang: str) -> str:
    """A card's effect in `lang`: the sentence of the game's prose (as its rule sheet says
    it), or, for a language the game's prose lacks, the engine's words, cubes in capitals."""
    if lang in ruleset.prose:
        key = (ruleset.source_hash, lang)
        with _LOCK:
            say = _SAYERS.get(key)
            if say is None:
                from century.shared.effects import effect_sayer

                if len(_SAYERS) >= MAX_GAMES:
                    _SAYERS.pop(next(iter(_SAYERS)))
                say = _SAYERS[key] = effect_sayer(ruleset, lang)
            return str(say(effect))
    parts = engine.effect_text(effect, engine.CODES)  # words and cube strings, alternating
    return "".join(part.upper() if index % 2 else part for index, part in enumerate(parts))


def phrase(ruleset: Ruleset, engine: Engine, index: int, lang: str, choices: str = "") -> str:
    """A merchant card in a sentence, its effect (and `choices`) in brackets: ``Sacrifice
    (+B, then -YYY)``, ``the upgrade card (upgrade 2, raising Y)``."""
    key = (ruleset.source_hash, lang, index)
    said = _PHRASES.get(key)
    if said is None:
        card = engine.CARDS[index]
        named = names(ruleset, lang).get(card.id, "")
        the = page_words(speakable(lang))["card.the"]
        head = named or the.format(kind=kind_words(ruleset, card.id, lang))
        said = _PHRASES[key] = (head, effect_words(ruleset, engine, card.effect, lang))
        if len(_PHRASES) > MAX_GAMES * 200:
            _PHRASES.clear()
    head, words = said
    return f"{head} ({words}{', ' + choices if choices else ''})"
