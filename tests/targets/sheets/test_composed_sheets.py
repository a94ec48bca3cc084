"""Composed merchant cards on the rule sheets: every distinct composed effect is drawn and
spelled out in a sentence composed from the prose data, in both languages and on both
papers, beside a legend of the symbols; the variant's box of differences shows them; a
language that lacks a phrase of the composer is reported, never printed in English."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli, prose
from century.model.ruleset import Ruleset
from century.targets import sheets

from helpers import COMPOSED_SENTENCES, composed_variant, spice_road

PAPERS = ("a4", "letter")


def squash(text: str) -> str:
    """Text without spaces, line breaks and hyphenation (line breaks differ per paper)."""
    return re.sub(r"[\s\u00ad\-]+", "", text)


def pdf_text(pdf: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def composed(tmp_path, monkeypatch) -> Ruleset:
    monkeypatch.chdir(tmp_path)
    return composed_variant(tmp_path)


@pytest.mark.slow
def test_every_composed_card_is_explained_in_both_languages(composed, tmp_path):
    """Built with the command a user types, twice: each composed card's sentence is on the
    sheets of its language (and not on the other's), with the legend; same bytes again."""
    runner = CliRunner()
    for out in ([], ["-o", "again"]):
        made = runner.invoke(cli.app, ["sheets", "composed", "-p", "a4", "-p", "letter", *out])
        assert made.exit_code == 0, made.output
    legend = {
        "en": "Symbols on the cards",
        "de": "Symbole auf den Karten",
        "fr": "Symboles des cartes",
    }
    for lang in composed.languages:
        other = next(o for o in composed.languages if o != lang)
        for paper in PAPERS:
            name = f"rules-{lang}-{paper}.pdf"
            pdf = (tmp_path / "build" / "composed" / name).read_bytes()
            assert pdf == (tmp_path / "again" / name).read_bytes(), name
            text = squash(pdf_text(pdf))
            assert squash(legend[lang]) in text
            title = {"en": "Crossroads", "de": "Kreuzweg", "fr": "Carrefour"}[lang]
            assert squash(title) in text
            for card_id, sentence in COMPOSED_SENTENCES.items():
                assert squash(sentence[lang]) in text, (lang, paper, card_id)
                assert squash(sentence[other]) not in text, (lang, paper, card_id)


def test_one_entry_per_distinct_composed_effect(composed):
    data = sheets.sheet_data(composed, "en", "a4")
    assert [c["face"]["id"] for c in data["composed"]] == list(COMPOSED_SENTENCES)
    assert [c["title"] for c in data["composed"]] == ["", "Crossroads", "", "", ""]
    assert data["symbols"] == list(prose.SYMBOL_KEYS)
    # the short forms keep their one entry each, as on the base game's sheet
    assert [face["kind"] for face in data["cards"]] == ["gain", "upgrade", "trade", "point"]


def test_a_base_game_without_composed_cards_has_no_legend():
    data = sheets.sheet_data(spice_road(), "en", "a4")
    assert data["composed"] == [] and data["symbols"] == []


@pytest.mark.slow
def test_the_variant_box_shows_composed_cards(composed):
    boxes = {
        "en": "Merchant cards: five added (Y Y ↑, Crossroads Y Y Y / ↑ ↑, ? ? ↓ B, …).",
        "de": "Händlerkarten: fünf hinzugefügt (Y Y ↑, Kreuzweg Y Y Y / ↑ ↑, ? ? ↓ B, …).",
    }
    for lang, box in boxes.items():
        assert prose.prose_texts(composed, lang)["chg_cards"]
        first = PdfReader(io.BytesIO(sheets.sheet_pdf(composed, lang, "a4"))).pages[0]
        assert squash(box) in squash(first.extract_text()), lang


@pytest.mark.slow
def test_composed_sentences_nest(composed):
    """Choices and repeats inside each other read as one sentence in each language."""
    words = {lang: prose.effect_words(composed, lang) for lang in composed.languages}
    steps = (
        (
            "repeat",
            (("choose", ((("pay", (1, 0, 0, 0)),), (("pay_any", 1),))), ("gain", (0, 0, 1, 0))),
            0,
        ),
        ("upgrade", 2),
    )
    assert words["en"](steps) == (
        "Do [choose one: [pay 1 turmeric] or [pay 1 spice of your choice], then take 1"
        " cardamom] once, and again as often as you like and can, choosing anew each time, then"
        " make 1 or 2 upgrades of one rank each, on one spice or several."
    )
    assert words["de"](steps) == (
        "Führe [wähle eine Möglichkeit: [gib 1 Kurkuma ab] oder [gib 1 Gewürz deiner Wahl ab],"
        " dann nimm 1 Kardamom] einmal aus und nach Belieben erneut, so oft du kannst, jedes Mal"
        " mit neuer Wahl, dann führe 1 oder 2 Umwandlungen um je eine Stufe aus, an einem Gewürz"
        " oder an mehreren."
    )


@pytest.mark.slow
@pytest.mark.parametrize(("without", "code"), [(("de",), "C315"), (("en", "de", "fr"), "C401")])
def test_a_missing_phrase_is_reported_not_printed_in_english(composed, tmp_path, without, code):
    """A prose file without a phrase of the composer: `century validate` names it (C315 when
    another language has it, C401 when none has) and the sheet is refused; nothing falls
    back to another language."""
    from century.base.resources import RULES

    rules = tmp_path / "rules"
    for lang in composed.languages:
        lines = (RULES / "prose" / f"century.{lang}.yaml").read_text("utf-8").splitlines()
        cut = lang in without
        kept = [line for line in lines if not (cut and line.startswith("  eff_choose:"))]
        (rules / f"mine.{lang}.yaml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    game = rules / "composed.yaml"
    mine = "prose:\n  en: mine.en.yaml\n  de: mine.de.yaml\n  fr: mine.fr.yaml\n"
    game.write_text(game.read_text("utf-8") + mine, encoding="utf-8")
    made = CliRunner().invoke(cli.app, ["validate", str(game)])
    assert made.exit_code != 0
    assert code in made.output and "eff_choose" in made.output, made.output
    made = CliRunner().invoke(cli.app, ["sheets", "composed", "--lang", "de"])
    assert made.exit_code != 0 and "eff_choose" in made.output, made.output
