"""Rule-sheet prose: the sentences of a game in one language, rendered from the model.

The sentences come from the ruleset's prose (``ruleset.prose[lang]``): each string is a
Jinja2 template rendered in a sandbox (`SandboxedEnvironment`, `StrictUndefined`, so an
unknown placeholder is an error) against `prose_context(ruleset, lang)`:

``lang``, ``game``
    the language code and the game's name in it.
``t``
    the terms in that language: ``t.resource``, ``t.resources``, ``t.caravan``,
    ``t.point_cards``, ``t.merchant_cards``, ``t.play``, ... (whatever the data defines).
``players_min``, ``players_max``, ``caravan_limit``, ``merchant_row``, ``point_row``, ``ranks``
    numbers from the model (``ranks`` is the number of rungs on the resource ladder).
``resources``
    the ladder, lowest rank first: dicts ``id, code, colour, name, rank`` (1-based) and
    ``points`` (scored per cube left in the caravan). ``lowest`` and ``highest`` are the
    ends; ``scoring_resources`` / ``free_resources`` those that score / score nothing.
``coins``
    coin piles by position: dicts ``id, name, value, per_player, position, colour``;
    ``coin_runout`` is ``"shift"`` or ``"stay"``. The texts of `PILE_KEYS` (a column head
    over a pile's coins) are rendered once per pile, with that pile as ``c`` (`coin_texts`).
``thresholds``
    ``[{players, cards}]`` per player count; ``end_groups`` merges neighbouring counts
    with the same number into ``[{first, last, cards}]``; ``finish_round`` (bool).
``tie_break``
    ``"latest_turn"``, ``"earliest_turn"`` or ``"shared"``.
``seats``
    ``[{seat, cubes, count}]``: the starting caravan per seat as a code string.
``starting_cards``, ``starting_per_player``
    the starting hand (dicts ``id, name, kind, copies, noun, nouns, icons, text``; ``name``
    is empty when the card has none; ``kind`` is a short form of
    `century.model.cards.KINDS` or ``composed``; ``noun``/``nouns`` the term that names the
    card, ``t[kind ~ '_card']`` or ``t.merchant_card`` when the game has no such term;
    ``icons`` the effect's icon tokens for the marker ``[[effect:{{ c.icons }}]]``;
    ``text`` the effect as a sentence, `effect_sentence`) and its size.
``merchant_count``, ``point_count``, ``kinds``
    cards in the merchant deck and the point deck; ``kinds`` counts merchant cards by kind.
``ex``
    values for worked examples, each ``None`` when the game has nothing to show:
    ``ex.acquire`` ``{slot, pay}`` (taking card ``slot``, paying the codes ``pay``);
    ``ex.upgrade`` ``{steps, chain, many_from, many_to}`` (one cube raised ``steps`` times
    along ``chain``, or ``steps`` cubes once each); ``ex.trade`` ``{pay, gain, pay2, gain2}``
    (a trade card, and the same trade made twice); ``ex.end`` ``{players, cards, seat,
    ordinal, after}`` (the seat that triggers the end and the seats that still play);
    ``ex.coins`` ``{first, second, last, piles}`` (coin piles by position); ``ex.score``
    ``{seat, cards, coins, caravan, free, parts, total, other, winner}`` (a player's final
    score: the points of their point cards, ``coins`` as ``[{id, name, value, count}]``, a
    caravan of one cube per scoring rank and two of a rank that scores nothing (``free``,
    those two cubes' codes), the points of each part and their sum, and the tie with seat ``other``
    that seat ``winner`` wins).
``variant``, ``changes``
    for a variant, ``variant`` is ``{base, same, only_names}`` (the name of the game it
    extends; whether it changes nothing, or names and colours alone), else None; ``changes``
    holds one entry per kind of `CHANGE_KINDS`, None when the variant leaves it as it is:
    ``players`` ``{was, now}`` (each ``{min, max}``), ``ranks``, ``caravan_limit``,
    ``merchant_row``, ``point_row``, ``coin_runout``, ``finish_round``, ``tie_break``
    ``{was, now}``; ``seats`` ``[{seat, was, now}]`` (code strings); ``coins`` ``[{id, name,
    drawn, was, now}]`` (each ``{value, per_player, position}``, None for a pile added or
    removed); ``end_threshold`` ``[{players, was, now}]`` (player counts grouped by the
    change); ``resource_points`` ``[{rank, code, was, now}]``; ``cards`` ``[{deck, groups}]``,
    each group ``{what, count, cards, more}`` (``what`` is added, removed or changed; up to
    `CARD_EXAMPLES` cards as in ``starting_cards``, a point card with ``cost`` and
    ``points`` instead, each with ``copies_was`` and ``points_was``);
    ``renamed`` ``[{was, now, icon}]`` (the resources and coins a re-theme renames; empty
    when only colours, codes or words change).
``numbers``, ``times``
    the language's number words (``zero, one, two, ...``) and multiplicatives (``no times,
    once, twice, ...``) from the prose keys of the same name.

Filters besides Jinja's own: ``cap`` (first letter upper case, the rest untouched),
``series(last)`` (``["a", "b", "c"]|series(" and ")`` gives ``"a, b and c"``),
``words(table)`` (``5|words(numbers)`` gives ``"five"``; a number past the table stays
digits) and ``form(count, case)`` (``t.resource|form(2)`` gives the word's form for two
things, ``c.name|form(c.n, "acc")`` in the accusative: the forms of the word in the game's
``forms`` for the language, chosen by the CLDR plural category of the count through Babel;
``forms`` is that table, word -> form key -> text) and ``plural`` (``n|plural`` gives the
CLDR plural category of ``n`` in the language, for a choice that is not a word's form) and
``ordinal`` (its CLDR ordinal category: ``2|ordinal`` is ``two`` in English, for "2nd").

Inline icons are markers in the prose: ``[[cube:CODE]]`` (one resource code),
``[[cubes:CODES]]``, ``[[coin:ID]]`` (a coin pile id), ``[[up]]`` (upgrade mark),
``[[arrow]]`` (trade arrow: a payment that may repeat), ``[[pay]]`` (the arrow of a payment
made once), ``[[any]]`` (a cube of the player's choice), ``[[frame]]`` (a repeat's dashed
frame), ``[[effect:TOKENS]]`` (a card's whole effect, from a card's ``icons``:
`effect_tokens`), and in the page footer ``[[page]]`` and ``[[pages]]``; an unknown marker is
a `ProseError`.

A merchant card's effect in words (``text``) is composed by `effect_sentence` from the
phrases `EFFECT_KEYS` of the language, each a template rendered with part of the context above
(`PHRASE_CONTEXT`: ``lang, game, t, ranks, resources, lowest, highest, numbers, times``) and
its own placeholders (listed there); they are not rendered with the other keys.

A rendered string carries each marker between U+E000 and U+E001 (the template splits on
them); ``[[`` inside a substituted value stays literal text. Rendered prose reaches Typst
as plain JSON strings, never as markup.

Every rendered string is then set for print (`typeset`): the space between a number and the
word or sign after it ("5 cards", "2 ×", "100 %", "5. Karte") and between a word and the
number after it ("card 1", "seat 2") becomes a no-break space, and so does the space around
an icon and after an arrow, and so does each space of a sum ("12 + 11 = 23"), so that no line
ends inside "card 1", "[YY] → [RR]" or a sum. A one-word label that opens a text with a count
("Coins: 10 gold coins ...") keeps the count on its line, so a list never starts under a
label left alone at a line's end.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from century.model.cards import COMPOSED, KINDS, steps_from_json
from century.model.ruleset import MerchantCard, Punctuation, Ruleset, cube_string
from century.model.steps import (
    BUILT_IN,
    COUNT,
    CUBES,
    OPTIONS,
    REGISTRY,
    STEPS_OF,
    StepKind,
    added,
    step_kind,
    used,
)
from century.model.text import (
    TextError,
    capital,
    form,
    ordinal_category,
    plural_category,
    required,
    shown,
)

REFERENCE_KEYS = (
    "ref_title",
    "ref_turn",
    "ref_play",
    "ref_acquire",
    "ref_claim",
    "ref_rest",
    "ref_limit",
    "ref_end",
    "ref_score",
    "lbl_players",
    "lbl_end_cards",
)
"""The prose a reference card shows: its title, the turn and each action (``ref_<action>``),
the caravan limit, the end and scoring, and the labels of its table."""

PROSE_KEYS = frozenset(
    (
        "subtitle",
        "goal",
        "caravan",
        "footer",
        "h_components",
        "h_ladder",
        "h_setup",
        "h_turn",
        "h_cards",
        "h_caravan",
        "h_end",
        "h_scoring",
        "h_tie",
        "h_gaps",
        "comp_merchant",
        "comp_point",
        "comp_starting",
        "comp_coins",
        "comp_cubes",
        "ladder",
        "setup_points",
        "setup_coins",
        "setup_merchants",
        "setup_hand",
        "setup_caravan",
        "setup_table",
        "lbl_players",
        "lbl_seat",
        "lbl_row_points",
        "lbl_row_merchants",
        "lbl_deck",
        "lbl_coin_pile",
        "lbl_end_cards",
        "lbl_points",
        "turn",
        "h_play",
        "act_play",
        "h_acquire",
        "act_acquire",
        "h_claim",
        "act_claim",
        "h_rest",
        "act_rest",
        "turn_end",
        "coins_shift",
        "coins_stay",
        "card_point_title",
        "card_point",
        "end_trigger",
        "end_round",
        "end_now",
        "scoring",
        "score_cards",
        "score_resources",
        "tie_latest_turn",
        "tie_earliest_turn",
        "tie_shared",
        "gap_deck",
        "gap_coins",
        "score_win",
        "h_examples",
        "ex_acquire",
        "ex_upgrade",
        "ex_trade",
        "ex_end",
        "ex_coins",
        "ex_score",
        # a variant: the game it extends (the box of differences: `CHANGE_KEYS`)
        "h_changes",
        "variant_of",
        # the reference card (`REFERENCE_KEYS`) and its deck's name
        *REFERENCE_KEYS,
        "ref_cards",
        # the print-and-play kit
        "kit_title",
        "kit_print_h",
        "kit_scale",
        "kit_duplex",
        "kit_simplex",
        "kit_fold",
        "kit_check",
        "kit_card_size",
        "kit_gap",
        "kit_bleed",
        "kit_decimal",
        "kit_percent",
        "kit_contents_h",
        "kit_col_part",
        "kit_col_count",
        "kit_col_pages",
        "kit_tokens",
        "kit_mats",
        "kit_need",
        "kit_cut_h",
        "kit_cut_fold",
        "kit_cut_long",
        "kit_cut_gap",
        "kit_cut_bleed",
        "kit_cut_nogap",
        "kit_cut_tokens",
        "kit_decks_h",
        "kit_tips_h",
        "kit_tip_paper",
        "kit_tip_test",
        "kit_tip_ink",
        "kit_play_h",
        "kit_play",
        "mat_start",
        "mat_limit",
        "mat_points",
        # the contact sheet of the card images
        "img_card",
        "img_back",
        # the legend of the symbols on the cards (shown when a game has a composed card)
        "sym_h",
        "sym_gain",
        "sym_pay",
        "sym_pay_any",
        "sym_upgrade",
        "sym_repeat",
        "sym_choose",
        # number words
        "numbers",
        "times",
    )
)
"""The keys every rule-sheet text file has besides the texts of the card kinds."""


SYMBOL_KEYS = ("sym_gain", "sym_pay", "sym_pay_any", "sym_upgrade", "sym_repeat", "sym_choose")
"""The legend of the symbols on the cards (rule sheet and kit, for a game with composed
cards), in the order it is listed."""


def has_composed(ruleset: Ruleset) -> bool:
    """Whether a merchant card of the game is composed (none of the short forms)."""
    return any(c.kind == COMPOSED for c in (*ruleset.starting_cards, *ruleset.merchant_deck))


def _added_steps(ruleset: Ruleset) -> tuple[StepKind, ...]:
    """The steps added to the language (`century.model.steps.register`) the game's cards use."""
    cards = (*ruleset.starting_cards, *ruleset.merchant_deck)
    return added(used(step for card in cards for step in card.effect))


def symbol_keys(ruleset: Ruleset) -> tuple[str, ...]:
    """The legend of the symbols on the game's cards, in its order (none for a game without a
    composed card): `SYMBOL_KEYS`, then ``sym_<name>`` of each added step the game uses (its
    text made by `prose_texts` from the step's sign and phrase)."""
    if not has_composed(ruleset):
        return ()
    return (*SYMBOL_KEYS, *(kind.symbol for kind in _added_steps(ruleset)))


def _added_symbols(ruleset: Ruleset, lang: str, context: dict[str, Any]) -> dict[str, str]:
    """The legend line of each added step the game uses, by ``sym_<name>``: its sign, as the
    cards draw it, then its phrase for one unit (one cube of the lowest rank, or a count of 1),
    marked like the language's own legend lines."""
    found: dict[str, str] = {}
    kinds = _added_steps(ruleset)
    if kinds:
        say = phrase_renderer(ruleset, lang, context)
        part = cube_part(ruleset, lang)
        for kind in kinds:
            if kind.takes == CUBES:
                words = say(kind.phrase, cubes=say("eff_cubes", cubes=[part(0, 1)]))
            else:
                words = say(kind.phrase, n=1)
            text = f"[[sign:{kind.sign}]] {words}" if kind.sign else words
            found[kind.symbol] = _mark(text, lang, kind.symbol, ruleset)
    return found


def effect_keys(names: Iterable[str] = BUILT_IN) -> tuple[str, ...]:
    """The phrases of the sentence composer for the steps `names` (`EFFECT_KEYS`: those of
    the language itself)."""
    phrases = (kind.phrase for name, kind in REGISTRY.items() if name in names)
    return ("eff_cubes", *phrases, "eff_steps", "eff_sentence")


EFFECT_KEYS = effect_keys()
"""The phrases of the sentence composer (`effect_sentence`): one per step of the card
language (``eff_<step>``), the cubes of a gain or payment (``eff_cubes``), steps in a row
(``eff_steps``) and the whole sentence (``eff_sentence``). They are rendered per step with
the placeholders the module docstring lists, not with the rest of the prose."""


PILE_KEYS = ("lbl_coin_pile",)
"""Texts rendered once per coin pile, with the pile as ``c`` besides the prose context
(`coin_texts`), not with the rest of the prose."""


def prose_keys(ruleset: Ruleset | None = None) -> frozenset[str]:
    """Every key a rule-sheet text file must have: `PROSE_KEYS`, for each card kind in
    `KINDS` and for composed cards its title and its text (``card_<kind>_title``,
    ``card_<kind>``), the phrases of the sentence composer (`EFFECT_KEYS`, and that of each
    step added to the language that `ruleset` uses), and the sentence of each kind of change
    a variant makes (`CHANGE_KEYS`)."""
    kinds = {f"card_{kind}{end}" for kind in (*KINDS, COMPOSED) for end in ("_title", "")}
    phrases = set(EFFECT_KEYS)
    if ruleset is not None:
        cards = (*ruleset.starting_cards, *ruleset.merchant_deck)
        phrases |= set(effect_keys(used(step for card in cards for step in card.effect)))
    return PROSE_KEYS | kinds | phrases | set(CHANGE_KEYS)


"""The prose keys the printed output reads (rule sheet, reference card, print-and-play kit);
a language missing one cannot be typeset."""

MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"
_LIT_OPEN, _LIT_CLOSE = "\ue002", "\ue003"  # "[[" / "]]" from values, restored after parsing
_MARKER = re.compile(r"\[\[([^\[\]]*)\]\]")
_PLAIN_MARKERS = frozenset({"up", "arrow", "pay", "any", "frame", "page", "pages"})
_JINJA = re.compile(r"\{[{%#]")
"""The start of a Jinja expression, statement or comment."""


class ProseError(TextError):
    """A prose string failed to render; names the language and key, and the diagnostic code
    (C402 an error, C403 past a limit of the sandbox, C404 an object printed)."""

    def __init__(self, lang: str, key: str, message: str, code: str = "C402") -> None:
        super().__init__(f"prose {lang}.{key}: {message}")
        self.lang = lang
        self.key = key
        self.code = code


# -- the prose context -------------------------------------------------------------------


def _card(card: MerchantCard, ruleset: Ruleset, lang: str, words: Any) -> dict[str, Any]:
    """A card for the prose: its id, name, kind, copies, the terms that name it (``noun``,
    ``nouns``), its effect as icons (``icons``, for ``[[effect:...]]``) and as a sentence
    (``text``, `effect_sentence`)."""
    return {
        "id": card.id,
        "name": shown(card.name, lang),
        "kind": card.kind,
        "copies": card.copies,
        **_effect_fields(card.kind, card.effect, ruleset, lang, words),
    }


def _effect_fields(
    kind: str, steps: tuple[Any, ...], ruleset: Ruleset, lang: str, words: Any
) -> dict[str, Any]:
    terms = ruleset.terms
    noun = f"{kind}_card" if f"{kind}_card" in terms else "merchant_card"
    nouns = f"{kind}_cards" if f"{kind}_cards" in terms else "merchant_cards"
    return {
        "noun": required(terms.get(noun, {}), lang, f"term {noun!r}"),
        "nouns": required(terms.get(nouns, {}), lang, f"term {nouns!r}"),
        "icons": " ".join(effect_tokens(steps, ruleset.codes)),
        "text": words(steps) if kind == COMPOSED else "",  # a short form has its card text
    }


# -- card effects in words and icons -------------------------------------------------------
#
# One walker for every composition of steps (`century.model.cards`): `effect_tokens` gives
# the icons (the same symbols the card faces draw, read by the ``[[effect:...]]`` marker and
# by the Tabletop Simulator names), `effect_sentence` the sentence, composed from the
# language's phrases (`EFFECT_KEYS`).

_LITERAL = re.compile(r"^(?:[()/+×]|≤\d+×)$")
"""The tokens of `effect_tokens` that are text, not icon markers."""


def effect_tokens(steps: Any, codes: str, whole: bool = True) -> list[str]:
    """The effect as icon tokens: marker bodies (``cubes:YY``, ``up``, ``any``, ``arrow``
    after a payment in a repeat without bound, ``pay`` after any other) and text (``+`` before
    a gain that follows no payment and is not the first step, ``(`` ``)`` around a repeat
    and a choice that are not the whole effect, ``/`` between options, ``×`` after a
    repeat without bound, ``≤K×`` after one of at most K times). A whole effect that is one
    repeat without bound (a trade: pay, take, as often as you can) has no brackets."""
    return _tokens(steps, codes, whole, False)


def _tokens(steps: Any, codes: str, whole: bool, repeated: bool) -> list[str]:
    found: list[str] = []
    alone = whole and len(steps) == 1
    for i, step in enumerate(steps):
        kind = step_kind(step[0])
        paid = i > 0 and step_kind(steps[i - 1][0]).pays
        if kind.takes == CUBES:
            plus = [] if i == 0 or paid or kind.pays else ["+"]
            found += [*plus, "cubes:" + cube_string(codes, step[1])]
        elif kind.takes == COUNT:
            found += [kind.mark or f"sign:{kind.sign}"] * step[1]
        elif kind.takes == STEPS_OF:
            body = _tokens(step[1], codes, False, not step[2])  # the trade arrow: no bound
            if alone and not step[2]:
                found += body
            else:
                found += ["(", *body, ")", f"≤{step[2]}×" if step[2] else "×"]
        elif kind.takes == OPTIONS:
            options: list[str] = []
            for o, option in enumerate(step[1]):
                options += (["/"] if o else []) + _tokens(option, codes, False, repeated)
            found += options if alone else ["(", *options, ")"]
        if kind.pays:
            found.append("arrow" if repeated else "pay")
    return found


PHRASE_CONTEXT = (
    "lang",
    "forms",
    "game",
    "t",
    "ranks",
    "resources",
    "lowest",
    "highest",
    "numbers",
    "times",
)
"""What the phrases of card effects (`EFFECT_KEYS`) read of the prose context, besides
their own placeholders."""


def effect_sentence(
    steps: Any,
    ruleset: Ruleset,
    lang: str,
    context: dict[str, Any],
    budget: Any,
    said: dict[tuple[str, str], str] | None = None,
) -> str:
    """The effect as one sentence in `lang`, composed from the language's phrases
    (`EFFECT_KEYS`, each rendered with `PHRASE_CONTEXT` and its own placeholders): a gain
    or payment ``eff_gain``/``eff_pay`` with ``cubes`` (``eff_cubes`` of ``cubes``: ``[{n,
    name, code}]`` by rank), ``eff_pay_any``/``eff_upgrade`` with ``n``, ``eff_repeat`` with
    ``steps`` (the phrase of its steps), ``most`` (0: no bound) and ``chooses`` (whether its
    steps hold a choice, made anew each time: `chooses`), ``eff_choose`` with
    ``options`` (their phrases), ``eff_steps`` with ``steps`` (the phrases of steps in a
    row) and ``eff_sentence`` with ``text``. A language lacking a phrase is a `ProseError`
    (C401 names it first in ``century validate``). `said` keeps the phrases rendered, by
    key and placeholders, for the next sentence."""
    say = phrase_renderer(ruleset, lang, context, budget, said)
    part = cube_part(ruleset, lang)

    def cubes(vector: Any) -> str:
        return say("eff_cubes", cubes=[part(rank, n) for rank, n in enumerate(vector) if n])

    def phrase(steps: Any) -> str:
        parts = [step_phrase(step) for step in steps]
        return parts[0] if len(parts) == 1 else say("eff_steps", steps=parts)

    def step_phrase(step: Any) -> str:
        kind = step_kind(step[0])
        if kind.takes == CUBES:
            return say(kind.phrase, cubes=cubes(step[1]))
        if kind.takes == COUNT:
            return say(kind.phrase, n=step[1])
        if kind.takes == STEPS_OF:
            return say(kind.phrase, steps=phrase(step[1]), most=step[2], chooses=chooses(step[1]))
        return say(kind.phrase, options=[phrase(option) for option in step[1]])

    return say("eff_sentence", text=phrase(steps))


def cube_part(ruleset: Ruleset, lang: str) -> Any:
    """(rank, n) -> one item of ``eff_cubes``' ``cubes``: ``{n, name, code}`` (n cubes of
    the rank, 0-based)."""
    names = [required(r.name, lang, f"resource {r.id!r}") for r in ruleset.resources]

    def part(rank: int, n: int) -> dict[str, Any]:
        return {"n": n, "name": names[rank], "code": ruleset.codes[rank]}

    return part


def chooses(steps: Any) -> bool:
    """Whether `steps` hold a ``choose``, at any depth (a repeat of them chooses anew each
    time: ``eff_repeat``'s ``chooses``)."""
    return any(
        step_kind(step[0]).takes == OPTIONS
        or (step_kind(step[0]).takes == STEPS_OF and chooses(step[1]))
        for step in steps
    )


def phrase_renderer(
    ruleset: Ruleset,
    lang: str,
    context: dict[str, Any],
    budget: Any = None,
    said: dict[tuple[str, str], str] | None = None,
) -> Any:
    """(key, **placeholders) -> the phrase `key` of card effects (`EFFECT_KEYS`) in `lang`,
    rendered with `PHRASE_CONTEXT` of `context` and the placeholders; `said` keeps the phrases
    rendered, by key and placeholders. A missing phrase or a failure is a `ProseError`.
    Without `budget`, each phrase has a deadline of its own."""
    from century.prose.sandbox import Budget

    prose = ruleset.prose.get(lang, {})
    shared = {key: context[key] for key in PHRASE_CONTEXT if key in context}
    known_phrases: dict[tuple[str, str], str] = {} if said is None else said

    def say(key: str, **values: Any) -> str:
        from century.prose.sandbox import PrintedObject, SandboxLimit, run_template

        if key not in prose:
            raise ProseError(lang, key, "no text for this phrase of card effects", "C401")
        known = (key, repr(sorted(values.items())))
        if known in known_phrases:
            return known_phrases[known]
        try:
            deadline = Budget() if budget is None else budget
            text = run_template(_template(prose[key]), {**shared, **values}, deadline).strip()
        except (SandboxLimit, PrintedObject) as err:
            raise ProseError(lang, key, str(err), err.code) from err
        except ProseError:
            raise
        except Exception as err:  # prose is data: any failure is reported with its key
            raise ProseError(lang, key, f"{type(err).__name__}: {err}") from err
        # "[[" from a value stays text: it is escaped again where the phrase is a value
        known_phrases[known] = text.replace(_LIT_OPEN, "[[").replace(_LIT_CLOSE, "]]")
        return known_phrases[known]

    return say


def _on_ladder(steps: Any, ranks: int) -> Any:
    """Steps of the base game (`century.model.diff`'s cards) with vectors as long as a
    ladder of `ranks`, or None when a vector uses a rank the ladder does not have."""
    found: list[Any] = []
    for step in steps:
        takes = step_kind(step[0]).takes
        if takes == CUBES:
            counts = list(step[1])
            if any(counts[ranks:]):
                return None
            found.append((step[0], tuple(counts[:ranks] + [0] * (ranks - len(counts)))))
        elif takes == STEPS_OF:
            body = _on_ladder(step[1], ranks)
            if body is None:
                return None
            found.append((step[0], body, step[2]))
        elif takes == OPTIONS:
            options = [_on_ladder(option, ranks) for option in step[1]]
            if any(option is None for option in options):
                return None
            found.append((step[0], tuple(options)))
        else:
            found.append(step)
    return tuple(found)


def _end_groups(thresholds: list[dict[str, int]]) -> list[dict[str, int]]:
    groups: list[dict[str, int]] = []
    for row in thresholds:
        if groups and groups[-1]["cards"] == row["cards"]:
            groups[-1]["last"] = row["players"]
        else:
            groups.append({"first": row["players"], "last": row["players"], "cards": row["cards"]})
    return groups


def example_cards(ruleset: Ruleset) -> dict[str, MerchantCard]:
    """One playable card per kind for the rule sheet's examples: the first of its kind in the
    starting hand, then the deck. For trades, one that pays with lower ranks than it gives
    (it teaches that trades climb the ladder), the fewest cubes first."""
    cards = (*ruleset.starting_cards, *ruleset.merchant_deck)
    found: dict[str, MerchantCard] = {}
    for card in cards:
        found.setdefault(card.kind, card)

    def climbs(card: MerchantCard) -> bool:
        paid, got = _trade(card)
        low = [i for i, n in enumerate(paid) if n]
        high = [i for i, n in enumerate(got) if n]
        return bool(low and high) and max(low) < min(high)

    def size(card: MerchantCard) -> int:
        paid, got = _trade(card)
        return sum(paid) + sum(got)

    trades = [c for c in cards if c.kind == "trade" and climbs(c)]
    if trades:
        found["trade"] = min(trades, key=size)
    return found


def _trade(card: MerchantCard) -> tuple[Any, Any]:
    """What a trade card (one repeat of a payment, then a gain) pays and gives."""
    (pay, gain) = card.effect[0][1]
    return pay[1], gain[1]


def _examples(
    ruleset: Ruleset, coins: list[dict[str, Any]], thresholds: list[dict[str, int]]
) -> dict[str, Any]:
    codes = ruleset.codes
    cards = example_cards(ruleset)
    ex: dict[str, Any] = {"acquire": None, "upgrade": None, "trade": None, "coins": None}
    if ruleset.merchant_row >= 2:
        slot = min(3, ruleset.merchant_row)
        ex["acquire"] = {"slot": slot, "pay": codes[0] * (slot - 1)}
    upgrade = cards.get("upgrade")
    if upgrade is not None and len(codes) >= 2:
        steps = upgrade.effect[0][1]
        ex["upgrade"] = {
            "steps": steps,
            "chain": list(codes[: min(steps, len(codes) - 1) + 1]),
            "many_from": codes[0] * steps,
            "many_to": codes[1] * steps,
        }
    trade = cards.get("trade")
    if trade is not None:
        paid, got = _trade(trade)
        pay, get = ruleset.cubes(paid), ruleset.cubes(got)
        double = tuple(2 * n for n in paid), tuple(2 * n for n in got)
        ex["trade"] = {
            "pay": pay,
            "gain": get,
            "pay2": ruleset.cubes(double[0]),
            "gain2": ruleset.cubes(double[1]),
        }
    last = thresholds[-1]
    seat = 2 if last["players"] >= 3 else 1
    ex["end"] = {
        "players": last["players"],
        "cards": last["cards"],
        "seat": seat,
        "after": list(range(seat + 1, last["players"] + 1)),
    }
    if coins:
        ex["coins"] = {
            "first": coins[0],
            "second": coins[1] if len(coins) > 1 else None,
            "last": coins[-1],
            "piles": len(coins),
        }
    ex["score"] = _score_example(ruleset, coins, last)
    return ex


SCORE_COINS = 2
"""Coins of each of the first two piles in the scoring example."""


def _score_example(
    ruleset: Ruleset, coins: list[dict[str, Any]], end: dict[str, int]
) -> dict[str, Any] | None:
    """A final score worked out from the data: as many point cards as end the game for the
    most players (spread over the deck's range of points), two coins of each of the first
    two piles, one cube of each rank that scores and two of the first rank that does not,
    and the tie-break against a later seat."""
    points = sorted((p.points for p in ruleset.point_deck for _ in range(p.copies)), reverse=True)
    count = min(end["cards"], len(points))
    if not count:
        return None
    cards = [points[(2 * i + 1) * len(points) // (2 * count)] for i in range(count)]
    used = [{**c, "count": SCORE_COINS} for c in coins[:2]]
    scoring = [i for i, p in enumerate(ruleset.resource_points) if p]
    free = [i for i, p in enumerate(ruleset.resource_points) if not p][:1]
    vector = [0] * len(ruleset.resources)
    for i in scoring:
        vector[i] = 1
    for i in free:
        vector[i] = 2
    caravan = sum(p * n for p, n in zip(ruleset.resource_points, vector, strict=True))
    parts = [sum(cards)] + [c["value"] * c["count"] for c in used]
    if any(vector):
        parts.append(caravan)
    seat, other = (2, 4) if ruleset.players_max >= 4 else (1, 2)
    return {
        "seat": seat,
        "cards": cards,
        "coins": used,
        "caravan": ruleset.cubes(tuple(vector)),
        "free": "".join(ruleset.codes[i] * vector[i] for i in free),  # as in the caravan
        "parts": parts,
        "total": sum(parts),
        "other": other,
        "winner": other if ruleset.tie_break == "latest_turn" else seat,
    }


def _word_list(ruleset: Ruleset, lang: str, key: str) -> list[str]:
    """A comma-separated list of words from the prose of `lang` (empty when it has none)."""
    raw = ruleset.prose.get(lang, {}).get(key, "")
    return [word.strip() for word in raw.split(",")] if raw.strip() else []


def prose_context(ruleset: Ruleset, lang: str) -> dict[str, Any]:
    """Everything a prose template may use, in `lang` (see the module docstring)."""
    resources = [
        {
            "id": r.id,
            "code": r.code,
            "colour": r.colour,
            "name": required(r.name, lang, f"resource {r.id!r}"),
            "rank": rank,
            "points": points,
        }
        for rank, (r, points) in enumerate(
            zip(ruleset.resources, ruleset.resource_points, strict=True), start=1
        )
    ]
    coins = [
        {
            "id": c.id,
            "name": required(c.name, lang, f"coin {c.id!r}"),
            "value": c.value,
            "per_player": c.per_player,
            "position": c.position,
            "colour": c.colour,
        }
        for c in sorted(ruleset.coins, key=lambda c: (c.position, c.id))
    ]
    thresholds = [{"players": n, "cards": ruleset.end_threshold[n]} for n in ruleset.player_counts]
    kinds: dict[str, int] = {}
    for card in ruleset.merchant_deck:
        kinds[card.kind] = kinds.get(card.kind, 0) + card.copies
    context: dict[str, Any] = {
        "lang": lang,
        "forms": ruleset.forms.get(lang, {}),
        "game": required(ruleset.name, lang, "the game's name"),
        "t": {k: required(v, lang, f"term {k!r}") for k, v in ruleset.terms.items()},
        "players_min": ruleset.players_min,
        "players_max": ruleset.players_max,
        "caravan_limit": ruleset.caravan_limit,
        "merchant_row": ruleset.merchant_row,
        "point_row": ruleset.point_row,
        "ranks": len(resources),
        "resources": resources,
        "lowest": resources[0],
        "highest": resources[-1],
        "scoring_resources": [r for r in resources if r["points"]],
        "free_resources": [r for r in resources if not r["points"]],
        "coins": coins,
        "coin_runout": ruleset.coin_runout,
        "thresholds": thresholds,
        "end_groups": _end_groups(thresholds),
        "finish_round": ruleset.finish_round,
        "tie_break": ruleset.tie_break,
        "seats": [
            {"seat": i, "cubes": ruleset.cubes(v), "count": sum(v)}
            for i, v in enumerate(ruleset.seats, start=1)
        ],
        "starting_per_player": sum(c.copies for c in ruleset.starting_cards),
        "merchant_count": sum(c.copies for c in ruleset.merchant_deck),
        "point_count": sum(c.copies for c in ruleset.point_deck),
        "kinds": kinds,
        "ex": _examples(ruleset, coins, thresholds),
        "numbers": _word_list(ruleset, lang, "numbers"),
        "times": _word_list(ruleset, lang, "times"),
    }
    words = effect_words(ruleset, lang, context)
    context["starting_cards"] = [_card(c, ruleset, lang, words) for c in ruleset.starting_cards]
    context.update(_variant(ruleset, lang, words))
    return context


def effect_words(ruleset: Ruleset, lang: str, context: dict[str, Any] | None = None) -> Any:
    """(steps) -> `effect_sentence` in `lang`, each distinct effect composed once; `context`
    is the prose context the phrases read besides their own placeholders (`prose_context`
    without the cards, made here when not given)."""
    from century.prose.sandbox import Budget

    made: dict[Any, str] = {}
    said: dict[tuple[str, str], str] = {}
    base = context

    def words(steps: Any) -> str:
        nonlocal base
        if steps not in made:
            if base is None:
                base = prose_context(ruleset, lang)
            # a deadline of its own: the sentences are composed as the cards ask for them,
            # so one shared from the first would count the work between them
            made[steps] = effect_sentence(steps, ruleset, lang, base, Budget(), said)
        return made[steps]

    return words


# -- what a variant changes --------------------------------------------------------------------

CARD_EXAMPLES = 3
"""Cards a variant adds, removes or changes shown per deck (the rest are counted)."""


def _codes(ruleset: Ruleset, vector: Iterable[int]) -> str | None:
    """A vector of the base game as code strings of `ruleset`'s ladder, or None when it uses
    a rank the ladder does not have."""
    counts = list(vector)
    ranks = len(ruleset.codes)
    if any(counts[ranks:]):
        return None
    return ruleset.cubes(tuple(counts[:ranks] + [0] * (ranks - len(counts))))


def _changed_card(ruleset: Ruleset, card: Any, lang: str, words: Any) -> dict[str, Any] | None:
    """A card of a change (`century.model.diff`) as the prose shows it: `_card`'s fields for
    a merchant card (from its ``effect`` steps), ``cost`` and ``points`` for a point card;
    None when it cannot be drawn on this ladder."""
    shown_card: dict[str, Any] = {
        "id": card["id"],
        "name": shown(card.get("name", {}), lang),
        "kind": card["kind"],
        "copies": card["copies"],
    }
    if "effect" in card:
        steps = _on_ladder(steps_from_json(card["effect"]), len(ruleset.codes))
        if steps is None:
            return None
        return {**shown_card, **_effect_fields(card["kind"], steps, ruleset, lang, words)}
    cost = _codes(ruleset, card.get("cost", ()))
    if cost is None:
        return None
    return {**shown_card, "cost": cost, "points": card.get("points")}


def _card_group(ruleset: Ruleset, what: str, change: Any, lang: str, words: Any) -> dict[str, Any]:
    """``{what, count, cards, more}``: added, removed or changed; how many cards; the first
    `CARD_EXAMPLES` that can be drawn (``copies_was`` and ``points_was``: what a changed
    card had, else None); and how many of the cards are not shown."""
    cards = []
    for row in change["cards"]:
        changed = "card" in row  # {card, copies: [was, now], points: [was, now]}
        card = _changed_card(ruleset, row["card"] if changed else row, lang, words)
        if card is not None:
            was = {
                f"{key}_was": row[key][0] if changed and key in row else None
                for key in ("copies", "points")
            }
            cards.append({**card, **was})
    shown_cards = cards[:CARD_EXAMPLES]
    return {
        "what": what,
        "count": change["count"],
        "cards": shown_cards,
        "more": len(change["cards"]) - len(shown_cards),
    }


def _end_groups_changed(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """The player counts whose end threshold changed, grouped by the change:
    ``[{players: [2, 3], was, now}]`` (a count the base game lacks has ``was`` None; one the
    variant drops is left out: the change of players says so)."""
    groups: dict[tuple[Any, Any], list[int]] = {}
    for row in rows:
        if row["now"] is not None:
            groups.setdefault((row["was"], row["now"]), []).append(row["players"])
    return [{"players": n, "was": was, "now": now} for (was, now), n in groups.items()]


CHANGE_KINDS = (
    "players",
    "ranks",
    "caravan_limit",
    "merchant_row",
    "point_row",
    "seats",
    "coins",
    "coin_runout",
    "end_threshold",
    "finish_round",
    "resource_points",
    "tie_break",
    "cards",
    "renamed",
)
"""What ``changes`` holds (each None when the variant leaves it as it is), in the order a
rule sheet lists it; the sentence of each is the prose key ``chg_<kind>``."""
CHANGE_KEYS = tuple(f"chg_{kind}" for kind in CHANGE_KINDS)


def _variant(ruleset: Ruleset, lang: str, words: Any) -> dict[str, Any]:
    """``variant`` and ``changes`` of the prose context (see the module docstring)."""
    found: dict[str, Any] = dict.fromkeys(CHANGE_KINDS)
    lineage = ruleset.variant_of
    if lineage is None:
        return {"variant": None, "changes": found}
    decks: dict[str, list[dict[str, Any]]] = {}
    codes = dict(enumerate(ruleset.codes, start=1))
    coin_ids = {c.id for c in ruleset.coins}
    for change in lineage.changes:
        values = change.values
        if change.kind.startswith("cards_"):
            what = change.kind.removeprefix("cards_")
            group = _card_group(ruleset, what, values, lang, words)
            decks.setdefault(values["deck"], []).append(group)
        elif change.kind == "players":
            found["players"] = {
                when: {"min": values[when][0], "max": values[when][1]} for when in ("was", "now")
            }
        elif change.kind == "seats":
            found["seats"] = [
                {
                    "seat": row["seat"],
                    "was": None if row["was"] is None else _codes(ruleset, row["was"]),
                    "now": _codes(ruleset, row["now"]),
                }
                for row in values["seats"]
                if row["now"] is not None
            ]
        elif change.kind == "coins":
            found["coins"] = [
                {**row, "name": shown(row["name"], lang), "drawn": row["id"] in coin_ids}
                for row in values["piles"]
            ]
        elif change.kind == "end_threshold":
            found["end_threshold"] = _end_groups_changed(values["counts"])
        elif change.kind == "resource_points":
            found["resource_points"] = [
                {**row, "code": codes[row["rank"]]}
                for row in values["ranks"]
                if row["rank"] in codes and row["now"] is not None
            ]
        elif change.kind == "renamed":
            found["renamed"] = [
                {"was": shown(row["was"], lang), "now": shown(row["now"], lang), "icon": icon}
                for row, icon in [
                    *((r, f"cube:{codes[r['rank']]}") for r in values["resources"]),
                    *((c, f"coin:{c['id']}") for c in values["coins"]),
                ]
            ]
        else:
            found[change.kind] = dict(values)
    if decks:
        found["cards"] = [{"deck": deck, "groups": groups} for deck, groups in decks.items()]
    kinds = {change.kind for change in lineage.changes}
    return {
        "variant": {
            "base": shown(lineage.name, lang, lineage.id),
            "same": not kinds,
            "only_names": kinds == {"renamed"},
        },
        "changes": found,
    }


# -- rendering the prose -----------------------------------------------------------------


def _cap(value: Any) -> str:
    return capital(str(value))


def _words(value: Any, table: Any) -> str:
    """`value` as a word of `table` (index = number), or as digits past its end."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(table):
        return str(table[value])
    return str(value)


def _form(context: Any, word: Any, count: Any, case: str = "") -> str:
    """The form of `word` for `count` things in `case` (the ``form`` filter): the word's
    forms in the game's data for this language (``forms``), by the CLDR plural category of
    `count` (`century.model.text.form`); a word without forms there is a `TextError`."""
    lang = context["lang"]
    forms = context["forms"].get(str(word))
    if forms is None:
        raise TextError(
            f"the word {str(word)!r} has no forms in {lang!r} (forms: {lang}: in the game)"
        )
    try:
        return form(forms, lang, count, case)
    except TextError as err:
        raise TextError(f"the word {str(word)!r}: {err} in {lang!r}") from None


def _plural(context: Any, count: Any) -> str:
    """The CLDR plural category of `count` in the prose's language (the ``plural`` filter:
    ``one``, ``few``, ``many``, ``other``, ... by Babel's rule, `century.model.text`)."""
    return plural_category(context["lang"], count)


def _ordinal(context: Any, count: Any) -> str:
    """The CLDR ordinal category of `count` in the prose's language (the ``ordinal`` filter:
    English ``one`` for 1st, ``two`` for 2nd, ``few`` for 3rd, ``other`` for 4th)."""
    return ordinal_category(context["lang"], count)


def _series(values: Iterable[Any], last: str, sep: str = ", ") -> str:
    from century.prose.sandbox import joined

    items = [str(v) for v in values]
    if len(items) < 2:
        return joined(items, "")
    return joined([joined(items[:-1], sep), items[-1]], last)


_PRIVATE = str.maketrans("", "", MARK_OPEN + MARK_CLOSE + _LIT_OPEN + _LIT_CLOSE)


def _finalize(value: Any) -> Any:
    """Keep marker brackets that come from data values literal (and drop our sentinels)."""
    if isinstance(value, str):
        return value.translate(_PRIVATE).replace("[[", _LIT_OPEN).replace("]]", _LIT_CLOSE)
    return value


def _environment() -> Any:
    """The bounded sandbox (`century.prose.sandbox`) shared by every prose string (built once)."""
    from century.prose.sandbox import add_filters, environment

    env = environment(_finalize)
    if "cap" not in env.filters:
        from jinja2 import pass_context

        filters: dict[str, Callable[..., Any]] = {
            "cap": _cap,
            "series": _series,
            "words": _words,
            "form": pass_context(_form),
            "plural": pass_context(_plural),
            "ordinal": pass_context(_ordinal),
        }
        add_filters(env, filters)
    return env


@functools.lru_cache(maxsize=1024)
def _template(source: str) -> Any:
    """A compiled prose template (compiled once per distinct source string, its code kept
    between runs by `century.prose.codecache`)."""
    from century.prose.codecache import template

    return template(_environment(), source)


def _check_marker(body: str, ruleset: Ruleset, coin_ids: set[str]) -> str | None:
    """An error message for a marker body, or None when it is valid."""
    kind, _, arg = body.partition(":")
    if kind in _PLAIN_MARKERS and not arg:
        return None
    if kind == "cube" and len(arg) == 1 and arg in ruleset.codes:
        return None
    if kind == "cubes" and all(c in ruleset.codes for c in arg):
        return None
    if kind == "coin" and arg in coin_ids:
        return None
    if kind == "sign" and arg in {step.sign for step in REGISTRY.values() if not step.mark}:
        return None
    if kind == "effect" and all(
        _LITERAL.match(token) or _check_marker(token, ruleset, coin_ids) is None
        for token in arg.split()
    ):
        return None
    return f"unknown icon marker [[{body}]]"


def _effect_marks(tokens: str) -> str:
    """An ``[[effect:...]]`` marker's tokens (`effect_tokens`) as icon markers and text:
    spaces between them, none inside brackets or after ``+``."""
    text = ""
    for token in tokens.split():
        glued = text.endswith(("(", "+")) or token in (")",) or token.startswith("≤")
        glued = glued or (token == "×" and text.endswith(")"))
        repeats = token in ("up", "any") or token.startswith("sign:")
        glued = glued or (repeats and text.endswith(MARK_OPEN + token + MARK_CLOSE))
        part = token if _LITERAL.match(token) else MARK_OPEN + token + MARK_CLOSE
        text += part if glued or not text else " " + part
    return text


def _mark(text: str, lang: str, key: str, ruleset: Ruleset) -> str:
    """Turn ``[[...]]`` markers into sentinel-delimited ones and check them; an
    ``[[effect:...]]`` marker becomes the icons and signs of a card's effect."""
    coin_ids = {c.id for c in ruleset.coins}

    def replace(match: re.Match[str]) -> str:
        error = _check_marker(match.group(1), ruleset, coin_ids)
        if error:
            raise ProseError(lang, key, error)
        kind, _, arg = match.group(1).partition(":")
        if kind == "effect":
            return _effect_marks(arg)
        return MARK_OPEN + match.group(1) + MARK_CLOSE

    marked = _MARKER.sub(replace, text)
    return marked.replace(_LIT_OPEN, "[[").replace(_LIT_CLOSE, "]]")


def prose_texts(ruleset: Ruleset, lang: str) -> dict[str, str]:
    """Every prose string of `lang`, rendered within the sandbox's caps and one shared
    deadline and set for print (`typeset`), with the legend line of each added step the game
    uses (`symbol_keys`); a bad placeholder, an unknown icon marker or a string past a cap
    raises `ProseError`."""
    if lang not in ruleset.prose:
        raise TextError(f"no prose in language {lang!r}")
    context = prose_context(ruleset, lang)
    texts = {**_rendered(ruleset, lang, context), **_added_symbols(ruleset, lang, context)}
    marks = punctuation(ruleset, lang)
    return {key: typeset(text, marks) for key, text in texts.items()}


def check_prose_renders(ruleset: Ruleset, lang: str) -> list[tuple[MerchantCard, str, str]]:
    """Raise what `prose_texts` raises for `lang`, if anything, without setting the text
    for print (which cannot fail), and compose the sentence of every composed merchant card
    (`effect_sentence`) and read it back (`century.prose.readback`): the prose check of
    ``century validate``. Returns (card, sentence, why) for each card whose sentence does
    not read back as its effect."""
    if lang not in ruleset.prose:
        raise TextError(f"no prose in language {lang!r}")
    context = prose_context(ruleset, lang)
    _rendered(ruleset, lang, context)
    for key in PILE_KEYS:
        coin_texts(ruleset, lang, key, context)
    words = effect_words(ruleset, lang, context)
    found: list[tuple[MerchantCard, str, str]] = []
    reader = None
    read: dict[Any, str | None] = {}
    for card in (*ruleset.starting_cards, *ruleset.merchant_deck):
        if card.kind == COMPOSED:  # the sentences a sheet prints (a short form has its text)
            sentence = words(card.effect)
            if card.effect not in read:
                from century.prose.readback import Reader, read_back

                reader = reader or Reader(ruleset, lang, context)
                read[card.effect] = read_back(reader, sentence, card.effect)
            why = read[card.effect]
            if why is not None:
                found.append((card, sentence, why))
    return found


def _rendered(ruleset: Ruleset, lang: str, context: dict[str, Any] | None = None) -> dict[str, str]:
    """Every prose string of `lang` rendered against `context` (`prose_context`, made here
    when not given), its icon markers checked (`prose_texts`)."""
    from century.prose.sandbox import Budget, PrintedObject, SandboxLimit, run_template

    if lang not in ruleset.prose:
        raise TextError(f"no prose in language {lang!r}")
    if context is None:
        context = prose_context(ruleset, lang)
    items = sorted(ruleset.prose[lang].items())
    texts = dict(items)  # plain text (no Jinja syntax) needs no rendering
    budget = Budget()
    for key, source in items:
        if key in effect_keys(REGISTRY) or key in PILE_KEYS:  # rendered per step or per coin pile
            texts.pop(key)
            continue
        if not _JINJA.search(source):
            continue
        try:
            texts[key] = run_template(_template(source), context, budget)
        except (SandboxLimit, PrintedObject) as err:
            raise ProseError(lang, key, str(err), err.code) from err
        except Exception as err:  # prose is data: any failure is reported with its key
            if "not allowed in prose" in str(err):
                raise ProseError(lang, key, str(err), "C403") from err
            raise ProseError(lang, key, f"{type(err).__name__}: {err}") from err
    return {key: _mark(text.strip(), lang, key, ruleset) for key, text in texts.items()}


def coin_texts(
    ruleset: Ruleset, lang: str, key: str, context: dict[str, Any] | None = None
) -> list[str]:
    """The text `key` of `PILE_KEYS` for each coin pile in order, rendered with the pile as
    ``c`` (a dict of ``coins`` in the prose context) and set for print; a failure raises
    `ProseError` as `prose_texts` does."""
    from century.prose.sandbox import Budget, PrintedObject, SandboxLimit, run_template

    if context is None:
        context = prose_context(ruleset, lang)
    source = ruleset.prose.get(lang, {}).get(key)
    if source is None:
        raise ProseError(lang, key, "no text", "C401")
    budget, texts = Budget(), []
    for coin in context["coins"]:
        try:
            text = run_template(_template(source), {**context, "c": coin}, budget)
        except (SandboxLimit, PrintedObject) as err:
            raise ProseError(lang, key, str(err), err.code) from err
        except Exception as err:  # prose is data: any failure is reported with its key
            raise ProseError(lang, key, f"{type(err).__name__}: {err}") from err
        texts.append(typeset(_mark(text.strip(), lang, key, ruleset), punctuation(ruleset, lang)))
    return texts


NBSP = "\u00a0"
_LETTER = r"[^\W\d_]"
_NO_BREAK = re.compile(
    rf"(?<={_LETTER}) (?=\d)"  # card 1, seat 2
    rf"|(?<=\d) (?={_LETTER}|[×%])"  # 5 cards, 2 ×, 100 %
    rf"|(?<=\d\.) (?={_LETTER})"  # 5. Karte
    rf"|(?<=\S) (?={MARK_OPEN})"  # a word and the icon after it
    rf"|(?<={MARK_CLOSE}) (?=\S)"  # an icon and what follows it
    r"|(?<=[→⇓]) (?=\S)"  # an arrow and what follows it
    r"|(?<=[\d)]) (?=[+=] [\d(])"  # a sum: a number and the sign after it
    r"|(?<=[\d)] [+=]) (?=[\d(])"  # a sign and the number after it
)

_LEAD = re.compile(rf"^({_LETTER}+:) (?=\d)")
"""A one-word label opening a text with a count, and the space after it."""


NNBSP = "\u202f"
_QUOTED = re.compile(r'[“"]\s*(.*?)\s*[”"]')
_COMPOUND = re.compile(r"\b([^\W\d_]+)-(?=([^\W\d_]+)\b)")
NB_HYPHEN = "\u2011"
AS_TYPED = Punctuation()
"""The punctuation of a language whose prose file says nothing of it: left as typed."""


def punctuation(ruleset: Ruleset, lang: str) -> Punctuation:
    """How `lang` sets its punctuation (its prose file's ``punctuation``; else as typed)."""
    return ruleset.punctuation.get(lang, AS_TYPED)


@functools.cache
def _spaced(marks: str, closing: str) -> re.Pattern[str]:
    """The space (if any) before one of `marks` that ends a clause, before a space, the end,
    a bracket or the closing quote `closing`."""
    after = re.escape(")]" + closing)
    return re.compile(rf"(?<=[^\s\u202f])[ \u00a0]*([{re.escape(marks)}])(?=\s|$|[{after}])")


def _short_compound(match: re.Match[str]) -> str:
    short = min(len(match.group(1)), len(match.group(2))) < 3
    return match.group(1) + (NB_HYPHEN if short else "-")


def colon(marks: Punctuation = AS_TYPED) -> str:
    """The colon after a bold lead (``Play: ...``) as a language's `marks` set it (`typeset`)."""
    return f"{NNBSP}:" if ":" in marks.space_before else ":"


def typeset(text: str, marks: Punctuation = AS_TYPED) -> str:
    """`text` with no-break spaces where a line must not break (see the module docstring),
    its punctuation set as the language's `marks` say (the data is typed without it):
    “quotes” become the language's quotes, the marks of ``space_before`` get a narrow
    no-break space before them, and with ``short_compounds`` the hyphen of a compound with
    a part under three letters does not break."""
    text = _LEAD.sub(rf"\1{NBSP}", _NO_BREAK.sub(NBSP, text))
    closing = ""
    if marks.quotes:
        opening, closing = marks.quotes
        text = _QUOTED.sub(lambda found: f"{opening}{found.group(1)}{closing}", text)
    if marks.space_before:
        text = _spaced(marks.space_before, closing.strip()).sub(f"{NNBSP}\\1", text)
    if marks.short_compounds:
        text = _COMPOUND.sub(_short_compound, text)
    return text
