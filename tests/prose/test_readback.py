"""Every printed sentence of a card effect reads back to the engine's steps: the read-back
parser (`century.prose.readback`) finds every reading of a sentence in the phrases of the
prose data, and a sentence must have exactly one, equal to the effect. Held for the bundled
cards, the composed fixtures, random effects in every language (as composed and as printed
in a PDF), and by `century validate` (C405) for a designer's own phrases."""

from __future__ import annotations

import dataclasses
import io
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli, prose
from century.base import limits
from century.base.resources import RULES
from century.model.cards import COMPOSED, to_steps
from century.model.ruleset import MerchantCard, Ruleset
from century.prose.readback import Reader, read_back

from helpers import bundled_rulesets, composed, composed_variant, nesting, random_effects

LANGS = ("en", "de", "fr")

MISSTATED: list[tuple[list[dict[str, Any]], dict[str, str]]] = [
    (
        [{"choose": [[{"gain": "RR"}], [{"pay": "Y"}, {"gain": "B"}], [{"upgrade": 3}]]}],
        {
            "en": "Choose one: [take 2 saffron] or [pay 1 turmeric, then take 1 cinnamon] or"
            " [make 1 to 3 upgrades of one rank each, on one spice or several].",
            "de": "Wähle eine Möglichkeit: [nimm 2 Safran] oder [gib 1 Kurkuma ab, dann nimm 1"
            " Zimt] oder [führe 1 bis 3 Umwandlungen um je eine Stufe aus, an einem Gewürz oder"
            " an mehreren].",
            "fr": "Choisissez une option: [prenez 2 safran] ou [payez 1 curcuma, puis prenez 1"
            " cannelle] ou [faites 1 à 3 améliorations d’un rang chacune, sur une épice ou"
            " plusieurs].",
        },
    ),
    (
        [
            {
                "repeat": [
                    {"choose": [[{"pay": "Y"}, {"gain": "R"}], [{"pay": "R"}, {"gain": "G"}]]}
                ],
                "max": 3,
            }
        ],
        {
            "en": "Do [choose one: [pay 1 turmeric, then take 1 saffron] or [pay 1 saffron, then"
            " take 1 cardamom]] once, and again if you like, up to three times in all, choosing"
            " anew each time.",
            "de": "Führe [wähle eine Möglichkeit: [gib 1 Kurkuma ab, dann nimm 1 Safran] oder"
            " [gib 1 Safran ab, dann nimm 1 Kardamom]] einmal aus und nach Belieben erneut,"
            " insgesamt bis zu dreimal, jedes Mal mit neuer Wahl.",
            "fr": "Faites [choisissez une option: [payez 1 curcuma, puis prenez 1 safran] ou"
            " [payez 1 safran, puis prenez 1 cardamome]] une fois, et à nouveau si vous le"
            " voulez, jusqu’à trois fois en tout, en choisissant à nouveau chaque fois.",
        },
    ),
    (
        [{"gain": "Y"}, {"repeat": [{"pay_any": 1}, {"gain": "G"}], "max": 2}],
        {
            "en": "Take 1 turmeric, then do [pay 1 spice of your choice, then take 1 cardamom]"
            " once, and again if you like, up to twice in all.",
            "de": "Nimm 1 Kurkuma, dann führe [gib 1 Gewürz deiner Wahl ab, dann nimm 1"
            " Kardamom] einmal aus und nach Belieben erneut, insgesamt bis zu zweimal.",
            "fr": "Prenez 1 curcuma, puis faites [payez 1 épice de votre choix, puis prenez 1"
            " cardamome] une fois, et à nouveau si vous le voulez, jusqu’à deux fois en tout.",
        },
    ),
    (
        [{"pay": "G"}, {"choose": [[{"gain": "YYYY"}], [{"gain": "RR"}, {"upgrade": 1}]]}],
        {
            "en": "Pay 1 cardamom, then choose one: [take 4 turmeric] or [take 2 saffron, then"
            " upgrade 1 spice by one rank].",
            "de": "Gib 1 Kardamom ab, dann wähle eine Möglichkeit: [nimm 4 Kurkuma] oder [nimm 2"
            " Safran, dann wandle 1 Gewürz um eine Stufe um].",
            "fr": "Payez 1 cardamome, puis choisissez une option: [prenez 4 curcuma] ou [prenez 2"
            " safran, puis améliorez 1 épice d’un rang].",
        },
    ),
]
"""Four effects whose sentences once said something else than the engine (a choice of
three read as two, a choice in a repeat read as made once, the repeat's scope, an option's
scope), each with its sentence now."""

OLD_PHRASES = {
    "eff_choose": "either {{ options|series(' or ') }}",
    "eff_repeat": "{{ steps }} ({% if most %}up to {{ most|words(times) }}{% else %}as often as"
    " you can{% endif %})",
}
"""The English phrases that made those sentences."""


def _steps(ruleset: Ruleset, written: list[dict[str, Any]]) -> tuple[Any, ...]:
    codes = {code: rank for rank, code in enumerate(ruleset.codes)}

    def vector(cubes: str) -> tuple[int, ...]:
        counts = [0] * len(codes)
        for code in cubes:
            counts[codes[code]] += 1
        return tuple(counts)

    return to_steps(written, vector)


@pytest.fixture(scope="module")
def readers() -> dict[str, tuple[Any, Reader]]:
    ruleset = composed()
    return {lang: (prose.effect_words(ruleset, lang), Reader(ruleset, lang)) for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("written", "sentences"), MISSTATED)
def test_the_four_misstatements_now_read_back_as_the_engine_plays(
    readers, written, sentences, lang
):
    words, reader = readers[lang]
    steps = _steps(composed(), written)
    assert words(steps) == sentences[lang]
    assert reader.readings(sentences[lang]) == [steps]


@pytest.mark.parametrize(("written", "sentences"), MISSTATED[1:])
def test_the_old_phrases_fail_the_read_back(written, sentences):
    """The reader finds every reading: with the old phrases, the sentences of a repeat's and
    an option's scope have two or more, so the read-back refuses them (it does not take a
    lucky parse). (The old three options, "either A, B or C", had one reading in the
    grammar; their fault was a comma a reader takes for a step: the brackets fix both.)"""
    base = composed()
    old = dataclasses.replace(base, prose={**base.prose, "en": {**base.prose["en"], **OLD_PHRASES}})
    steps = _steps(old, written)
    sentence = prose.effect_words(old, "en")(steps)
    assert len(Reader(old, "en").readings(sentence)) != 1, sentence
    assert read_back(Reader(old, "en"), sentence, steps) is not None


def test_every_bundled_and_composed_card_reads_back():
    """Every merchant card of every bundled game and of both composed fixtures, short forms
    included (their steps have a sentence too), in every language of its game."""
    games = [*bundled_rulesets().values(), composed()]
    seen = 0
    for ruleset in games:
        for lang in ruleset.languages:
            words, reader = prose.effect_words(ruleset, lang), Reader(ruleset, lang)
            for card in (*ruleset.starting_cards, *ruleset.merchant_deck):
                sentence = words(card.effect)
                assert read_back(reader, sentence, card.effect) is None, (card.id, sentence)
                seen += 1
    assert seen > 200


def test_the_made_variants_cards_read_back(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ruleset = composed_variant(tmp_path)
    for lang in ruleset.languages:
        assert prose.check_prose_renders(ruleset, lang) == []


def test_a_designers_rewritten_phrase_is_read_by_itself(readers):
    """The grammar comes from the phrases: rewritten, they are read as rewritten."""
    base = composed()
    mine = {"eff_gain": "receive {{ cubes }}", "eff_steps": "{{ steps|join('; after that ') }}"}
    changed = dataclasses.replace(base, prose={**base.prose, "en": {**base.prose["en"], **mine}})
    steps = _steps(changed, MISSTATED[2][0])
    sentence = prose.effect_words(changed, "en")(steps)
    assert sentence.startswith("Receive 1 turmeric; after that do [")
    assert Reader(changed, "en").readings(sentence) == [steps]
    assert Reader(base, "en").readings(sentence) == []


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(random_effects())
def test_random_effects_read_back_in_every_language(readers, steps):
    """500 random effects over every step, bound and nesting up to the limit."""
    assert nesting(steps) <= limits.MAX_EFFECT_DEPTH
    for lang in LANGS:
        words, reader = readers[lang]
        sentence = words(steps)
        assert read_back(reader, sentence, steps) is None, (lang, sentence)


def _titled(base: Ruleset, effects: list[tuple[Any, ...]]) -> Ruleset:
    cards = tuple(
        MerchantCard(f"q{i:02}", 1, steps, {lang: f"Q{i:02}" for lang in LANGS})
        for i, steps in enumerate(effects)
    )
    return dataclasses.replace(base, merchant_deck=cards, starting_cards=base.starting_cards)


@pytest.mark.slow
@settings(
    max_examples=1,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(st.lists(random_effects(small=True), min_size=24, max_size=24, unique=True))
def test_random_effects_read_back_from_the_printed_sheet(effects):
    """Twenty-four small random cards (the composed ones among them) on a rule sheet, built and read
    with pypdf in each language: the text after each card's title (its name, also printed
    on its drawing before it), up to the full stop, reads back as its effect."""
    from century.targets import sheets

    effects = [steps for steps in effects if _composed(steps)]
    ruleset = _titled(composed(), effects)
    assert len(effects) >= 16
    for lang in LANGS:
        reader = Reader(ruleset, lang)
        pdf = sheets.sheet_pdf(ruleset, lang, "a4")
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        footer = (
            re.escape(prose.typeset(ruleset.name[lang], prose.punctuation(ruleset, lang)))
            + r" · [^\n]*"
        )  # the footer
        text = re.sub(footer, " ", text)
        for i, steps in enumerate(effects):
            parts = re.split(rf"\bQ{i:02}\b", text)
            assert len(parts) == 3, (lang, i)
            printed = parts[2][: parts[2].index(".") + 1]
            assert read_back(reader, printed, steps) is None, (lang, printed)


def _composed(steps: tuple[Any, ...]) -> bool:
    from century.model.cards import shape

    return shape(steps) == COMPOSED


def test_validate_reports_a_sentence_that_does_not_read_back(tmp_path, monkeypatch):
    """A designer's phrases that let a choice be read two ways: C405 at the card, naming it
    and the language; the bundled phrases pass."""
    monkeypatch.chdir(tmp_path)
    composed_variant(tmp_path)
    rules = tmp_path / "rules"
    game = rules / "composed.yaml"
    added = (
        "      - {id: bazaar, effect: [pay: G, choose: [[gain: YYYY], [gain: RR, upgrade: 1]]]}\n"
    )
    game.write_text(game.read_text("utf-8") + added, encoding="utf-8")
    made = CliRunner().invoke(cli.app, ["validate", str(game)])
    assert made.exit_code == 0, made.output
    for lang in LANGS:
        text = (RULES / "prose" / f"century.{lang}.yaml").read_text("utf-8")
        if lang == "en":
            text = re.sub(
                r"  eff_choose: .*\n", "  eff_choose: \"either {{ options|join(' or ') }}\"\n", text
            )
        (rules / f"mine.{lang}.yaml").write_text(text, encoding="utf-8")
    mine = "prose:\n  en: mine.en.yaml\n  de: mine.de.yaml\n  fr: mine.fr.yaml\n"
    game.write_text(game.read_text("utf-8") + mine, encoding="utf-8")
    made = CliRunner().invoke(cli.app, ["validate", str(game)])
    assert made.exit_code != 0
    assert "C405" in made.output and "'bazaar'" in made.output and "(en)" in made.output, (
        made.output
    )
    assert "composed.yaml:" in made.output and "2 readings" in made.output
    assert "(de)" not in made.output
