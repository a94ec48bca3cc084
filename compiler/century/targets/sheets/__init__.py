"""Rule sheets: one PDF per language and paper, drawn from the model by ``rules.typ``.

The sentences are the game's prose rendered by `century.prose`; this module adds the drawing
data (ladder, seats, coins, end table, one card face per short form drawn like the printed
cards, every distinct composed effect drawn and spelled out with a legend of the symbols, the
worked examples to show, and for a variant the sentences of what it changes from the game
it extends) and hands both to Typst as JSON. Letter colours on cubes and
coins are chosen here for contrast (`century.shared.typst.colours`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from century.model.cards import COMPOSED
from century.model.ruleset import Ruleset
from century.model.text import TextError, shown, term
from century.prose import (
    CHANGE_KEYS,
    coin_texts,
    colon,
    effect_words,
    example_cards,
    prose_context,
    prose_keys,
    prose_texts,
    punctuation,
    symbol_keys,
    typeset,
)
from century.shared.cards.faces import (
    card_kinds,
    look_assets,
    look_data,
    merchant_face,
    point_face,
    resources,
)
from century.shared.typst.colours import ink_on
from century.targets import Languages, Papers, Target, TargetError, check_paper, languages

TEMPLATE = "targets/sheets/rules.typ"
TYPST_PAPERS = {"a4": "a4", "letter": "us-letter"}
"""Paper names on the command line -> Typst paper names."""

EXAMPLES = ("ex_acquire", "ex_upgrade", "ex_trade", "ex_end", "ex_coins", "ex_score")
"""The worked examples, in the order the sheet shows them (empty ones are left out)."""
_LEADS = {"ex_acquire": "acquire", "ex_upgrade": "upgrade_card", "ex_trade": "trade_card"}
"""The term that heads each example (the others are headed by a heading of the sheet)."""


class SheetError(TargetError):
    """The ruleset cannot be typeset as a rule sheet (e.g. a missing translation)."""


@dataclass(frozen=True)
class SheetOptions(Languages, Papers):
    """The languages and papers of the rule sheets (one PDF for each pair)."""


# -- the sheet -----------------------------------------------------------------------------


def _card_faces(ruleset: Ruleset, lang: str) -> list[dict[str, Any]]:
    """One face per card kind the game has, drawn like the printed card (kinds from data)."""
    cards = example_cards(ruleset)
    faces: list[dict[str, Any]] = []
    for kind in card_kinds(ruleset):
        if kind == "point":
            card = max(ruleset.point_deck, key=lambda p: (sum(1 for n in p.cost if n), -p.points))
            faces.append(point_face(ruleset, card, lang))
        else:
            deck = "starting" if cards[kind] in ruleset.starting_cards else "merchant"
            faces.append(merchant_face(ruleset, cards[kind], lang, deck))
    return faces


def _composed_cards(ruleset: Ruleset, lang: str, context: dict[str, Any]) -> list[dict[str, Any]]:
    """Every distinct effect of the game's composed cards (`COMPOSED`: no short form), in
    deck order (starting cards first): its face as printed, its title (the first such card's
    name, else empty: the sheet heads it by ``card_composed_title``) and its sentence
    (`century.prose.effect_sentence`). The short forms are explained once each by their
    ``card_<kind>`` text; a composed effect has no such text, so each one is spelled out.
    `context` is the language's prose context."""
    words = effect_words(ruleset, lang, context)
    found: dict[Any, dict[str, Any]] = {}
    for deck, cards in (("starting", ruleset.starting_cards), ("merchant", ruleset.merchant_deck)):
        for card in cards:
            if card.kind != COMPOSED or card.effect in found:
                continue
            found[card.effect] = {
                "face": merchant_face(ruleset, card, lang, deck),
                "title": shown(card.name, lang),
                "text": typeset(words(card.effect), punctuation(ruleset, lang)),
            }
    return list(found.values())


def _names(context: dict[str, Any], composed: list[dict[str, Any]]) -> str:
    """A pattern (Rust's regex syntax, as Typst reads it) of the names the sheet never
    hyphenates: the resources' (as the prose `context` names them) and the composed cards'."""
    names = {r["name"] for r in context["resources"]} | {c["title"] for c in composed}
    escaped = [re.sub(r"([\\.+*?()|\[\]{}^$#&\-~])", r"\\\1", n) for n in names if n.strip()]
    return "|".join(sorted(escaped, key=lambda n: (-len(n), n)))


def _lead(ruleset: Ruleset, text: dict[str, str], key: str, lang: str) -> str:
    """The few words in bold that open a worked example."""
    if key in _LEADS:
        return term(ruleset, _LEADS[key], lang)
    if key == "ex_end":
        return text["h_end"]
    if key == "ex_score":
        return text["h_scoring"]
    return term(ruleset, "coins", lang)


def sheet_data(ruleset: Ruleset, lang: str, paper: str) -> dict[str, Any]:
    """The JSON document `rules.typ` reads: drawing data plus rendered prose."""
    check_paper(paper, SheetError)
    try:
        context = prose_context(ruleset, lang)
        text = prose_texts(ruleset, lang)
    except TextError as err:
        raise SheetError(str(err)) from None
    missing = sorted(prose_keys() - set(ruleset.prose.get(lang, {})))
    if missing:
        raise SheetError(f"prose {lang}: no text for {', '.join(missing)}")
    try:
        composed = _composed_cards(ruleset, lang, context)
    except TextError as err:
        raise SheetError(str(err)) from None
    counts = list(ruleset.player_counts)
    try:
        heads = coin_texts(ruleset, lang, "lbl_coin_pile", context)
    except TextError as err:
        raise SheetError(str(err)) from None
    return {
        "lang": lang,
        "paper": TYPST_PAPERS[paper],
        "title": typeset(context["game"], punctuation(ruleset, lang)),
        "players": counts,
        "resources": [
            {
                **{k: r[k] for k in ("code", "colour", "name", "points")},
                "ink": ink_on(r["colour"]),
                **{k: v for k, v in drawn.items() if k == "icon"},  # the look's icon
            }
            for r, drawn in zip(context["resources"], resources(ruleset), strict=True)
        ],
        "coins": [
            {
                **c,
                "ink": ink_on(c["colour"]),
                "counts": [c["per_player"] * n for n in counts],  # per player count
                "in_box": c["per_player"] * ruleset.players_max,
                "head": head,
            }
            for c, head in zip(context["coins"], heads, strict=True)
        ],
        "seats": [list(v) for v in ruleset.seats],
        "caravan_limit": ruleset.caravan_limit,
        "point_row": ruleset.point_row,
        "merchant_row": ruleset.merchant_row,
        "acquire": context["ex"]["acquire"],
        "end": context["thresholds"],
        "finish_round": ruleset.finish_round,
        "tie_break": ruleset.tie_break,
        "coin_runout": ruleset.coin_runout,
        "cards": _card_faces(ruleset, lang),
        "composed": composed,
        "symbols": list(symbol_keys(ruleset)) if composed else [],
        "examples": [
            {
                "key": key,
                "lead": _lead(ruleset, text, key, lang),
                "colon": colon(punctuation(ruleset, lang)),
            }
            for key in EXAMPLES
            if text[key]
        ],
        "changes": [key for key in CHANGE_KEYS if text[key]] if ruleset.variant_of else [],
        "text": text,
        "names": _names(context, composed),
        **look_data(ruleset),
    }


def sheet_pdf(ruleset: Ruleset, lang: str, paper: str = "a4") -> bytes:
    """The rule sheet of `ruleset` in `lang` on `paper`, as PDF bytes."""
    from century.shared.typst import compile_pdf

    return compile_pdf(TEMPLATE, sheet_data(ruleset, lang, paper), look_assets(ruleset))


def sheet_name(lang: str, paper: str) -> str:
    return f"rules-{lang}-{paper}.pdf"


def names(ruleset: Ruleset, options: SheetOptions) -> list[str]:
    """``rules-<lang>-<paper>.pdf`` for every language and paper asked for."""
    papers = dict.fromkeys(options.papers)
    return [
        sheet_name(lang, paper)
        for lang in languages(ruleset, options.languages)
        for paper in papers
    ]


def render(ruleset: Ruleset, options: SheetOptions) -> dict[str, bytes]:
    """A rule sheet for every language and paper asked for (`names`)."""
    papers = dict.fromkeys(options.papers)
    return {
        sheet_name(lang, paper): sheet_pdf(ruleset, lang, paper)
        for lang in languages(ruleset, options.languages)
        for paper in papers
    }


TARGET = Target(
    "sheets",
    "rule sheets per language and paper (rules-<lang>-<paper>.pdf)",
    render,
    options=SheetOptions,
    error=SheetError,
    names=names,
    help="Write the rule sheets of GAME as rules-<lang>-<paper>.pdf.",
)
