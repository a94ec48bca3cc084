"""French, a language added as data alone: its words inflected by Babel's CLDR plural rules
from the game's `forms`, its typography set by the typesetting, its sheets and kit built
with the CLI and read back with pypdf."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli
from century.model.text import TextError, form, plural_categories, plural_category
from century.prose import NNBSP, effect_words, prose_texts, punctuation, typeset

from helpers.rulesets import bundled_rulesets

SPACED = re.compile(r"[^\s\u202f][:;?!](?=\s|$)")
"""A colon, semicolon, question or exclamation mark without the narrow no-break space before
it (French typography), as pypdf reads the PDF's text."""

FRENCH_WORDS = ("Préparation", "Votre tour", "Fin de la partie", "Décompte", "caravane")


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_french_plural_categories_come_from_babel() -> None:
    # CLDR: French 0 and 1 are singular, 2 plural, a million takes `many`; English and
    # German are singular for 1 alone
    assert plural_categories("fr") == ("many", "one", "other")
    assert plural_categories("de") == plural_categories("en") == ("one", "other")
    assert [plural_category("fr", n) for n in (0, 1, 2, 1_000_000)] == [
        "one",
        "one",
        "other",
        "many",
    ]
    assert [plural_category("de", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    spice = bundled_rulesets()["spice-road"].forms["fr"]["épice"]
    assert [form(spice, "fr", n) for n in (0, 1, 2)] == ["épice", "épice", "épices"]
    with pytest.raises(TextError, match="no plural rules"):
        plural_category("zz", 2)


def test_golem_names_are_inflected_from_the_data() -> None:
    golem = bundled_rulesets()["golem"]
    words = {lang: effect_words(golem, lang) for lang in ("en", "de", "fr")}
    one_and_two = ((("gain", (2, 1, 0, 0)),),)
    assert words["de"](one_and_two[0]) == "Nimm 2 gelbe Kristalle und 1 grünen Kristall."
    assert words["en"](one_and_two[0]) == "Take 2 yellow crystals and 1 green crystal."
    assert words["fr"](one_and_two[0]) == "Prenez 2 cristaux jaunes et 1 cristal vert."
    # the nominative where a name stands alone, from the same data
    ladder = prose_texts(golem, "de")["ladder"]
    assert "gelber Kristall" in ladder and "pinker Kristall" in ladder
    # Spice Road's spices are the same for every number
    spice_road = effect_words(bundled_rulesets()["spice-road"], "fr")
    assert spice_road(one_and_two[0]) == "Prenez 2 curcuma et 1 safran."


def test_french_typography_is_set_by_the_typesetting() -> None:
    typed = "Imprimez à 100 % (“taille réelle”) : oui; non ? Bien! Voir 10:30, [[cube:Y]]."
    game = bundled_rulesets()["spice-road"]
    fr, en, de = (punctuation(game, lang) for lang in ("fr", "en", "de"))
    set_ = typeset(typed, fr)
    assert f"«{NNBSP}taille réelle{NNBSP}»" in set_
    assert f"oui{NNBSP}; non{NNBSP}? Bien{NNBSP}!" in set_
    assert f"){NNBSP}: oui" in set_
    assert "10:30" in set_ and "cube:Y" in set_  # not before a word or inside a marker
    assert NNBSP not in typeset(typed, en) and "“" in typeset(typed, de)
    # a compound with a part under three letters does not break at its hyphen
    assert typeset("complétez-la, au-dessus, améliorez-les", fr) == (
        "complétez\u2011la, au\u2011dessus, améliorez-les"
    )


def _validate(run, folder: Path, house: str) -> str:
    rules = folder / "rules"
    rules.mkdir()
    (rules / "house.yaml").write_text("id: house\nextends: spice-road\n" + house, "utf-8")
    result = run("validate", str(rules))
    assert result.exit_code != 0
    return str(result.output)


def test_forms_missing_a_plural_category_are_refused(run, tmp_path: Path) -> None:
    output = _validate(run, tmp_path, "forms:\n  fr:\n    grain: {one: grain, other: grains}\n")
    assert "C327" in output and "'many'" in output and "grain" in output


def test_a_word_without_forms_is_a_diagnostic(run, tmp_path: Path) -> None:
    output = _validate(
        run,
        tmp_path,
        "resources:\n  saffron: {name: {en: saffron, de: Safran, fr: safran rouge}}\n"
        "cards:\n  merchant:\n    add:\n      - {effect: [gain: RR, upgrade: 1]}\n",
    )
    assert "C402" in output and "'safran rouge' has no forms in 'fr'" in output


@pytest.mark.slow
@pytest.mark.parametrize("game", ["spice-road", "golem"])
def test_french_sheets_and_kit(tmp_path: Path, game: str) -> None:
    runner = CliRunner()
    out = tmp_path / game
    papers = ["--paper", "a4", "--paper", "letter"]
    made = runner.invoke(cli.app, ["sheets", game, "--lang", "fr", *papers, "--out", str(out)])
    assert made.exit_code == 0, made.output
    for paper in ("a4", "letter"):
        path = out / f"rules-fr-{paper}.pdf"
        assert len(PdfReader(path).pages) == 2  # two pages, like the other languages
        text = pdf_text(path)
        assert all(word in text for word in FRENCH_WORDS), text[:400]
        assert text.count(f"{NNBSP}:") >= 10 and f"{NNBSP};" in text
        assert not SPACED.findall(text)
    if game == "golem":
        assert "cristal jaune" in pdf_text(out / "rules-fr-a4.pdf")
        return
    made = runner.invoke(cli.app, ["cards", game, "--lang", "fr", "--out", str(out)])
    assert made.exit_code == 0, made.output
    kit = pdf_text(out / "cards-fr-a4.pdf")
    assert f"«{NNBSP}taille réelle{NNBSP}»" in kit and "“" not in kit
    assert "Kit à imprimer" in kit and "Aide de jeu" in kit
    assert f"Jouer{NNBSP}:" in kit and not SPACED.findall(kit)
