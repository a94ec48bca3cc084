"""What a variant changes, printed: the box on its rule sheets and the line on its kit's cover,
read back from the PDFs in both languages on both papers, for the bundled variants and a
house rule written as a user writes it. The box's items come from the model
(`century.model.diff.changes`), worded by the prose of each language."""

from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli, prose
from century.base.resources import RULES
from century.model.diff import changes
from century.model.ruleset import Ruleset, VariantOf
from century.pipeline import compile_paths
from century.targets import cards, sheets

from helpers import VALID, edited
from helpers.rulesets import checked

PAPERS = ("a4", "letter")
ACTIONS = ("h_play", "h_acquire", "h_claim", "h_rest")


def squash(text: str) -> str:
    """Text without spaces, line breaks and hyphenation (line breaks differ per paper)."""
    return re.sub(r"[\s\u00ad\-]+", "", text)


def pages(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def assert_box(pdf: bytes, ruleset: Ruleset, lang: str, lines: list[str]) -> None:
    """The sheet has two pages; page 1 holds the box (its heading and `lines`, in order) and
    the four actions of the turn."""
    text = pages(pdf)
    assert len(text) == 2, (ruleset.id, lang)
    first = squash(text[0])
    expected = [squash(line) for line in lines]
    assert all(line in first for line in expected), (ruleset.id, lang, text[0][:600])
    assert [first.index(line) for line in expected] == sorted(first.index(e) for e in expected)
    rendered = prose.prose_texts(ruleset, lang)
    assert all(squash(rendered[action]) in first for action in ACTIONS), (ruleset.id, lang)


BUNDLED_BOXES = {
    ("spice-road-classic", "en"): [
        "Differences from Century: Spice Road",
        "Game end with two or three players: five point cards instead of six.",
    ],
    ("spice-road-classic", "de"): [
        "Unterschiede zu Century: Die Gewürzstraße",
        "Spielende bei zwei oder drei Personen: fünf Punktekarten statt sechs.",
    ],
    ("golem", "en"): [
        "Differences from Century: Spice Road",
        "The same rules and cards; only names and colours differ.",
    ],
    ("golem", "de"): [
        "Unterschiede zu Century: Die Gewürzstraße",
        "Dieselben Regeln und Karten; nur Namen und Farben sind anders.",
    ],
    ("spice-road-classic", "fr"): [
        "Différences avec Century : La Route des épices",
        "Fin de la partie à deux ou trois joueurs : 5 cartes de points au lieu de 6.",
    ],
    ("golem", "fr"): [
        "Différences avec Century : La Route des épices",
        "Mêmes règles et cartes ; seuls les noms et les couleurs changent.",
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "lang"), sorted(BUNDLED_BOXES))
def test_bundled_variants_print_what_differs(bundled, game, lang):
    ruleset = bundled.rulesets[game]
    for paper in PAPERS:
        assert_box(sheets.sheet_pdf(ruleset, lang, paper), ruleset, lang, BUNDLED_BOXES[game, lang])


@pytest.mark.slow
def test_a_base_game_has_no_box(bundled):
    base = bundled.rulesets["spice-road"]
    for lang in base.languages:
        assert sheets.sheet_data(base, lang, "a4")["changes"] == []
        text = squash("".join(pages(sheets.sheet_pdf(base, lang))))
        assert squash(BUNDLED_BOXES["spice-road-classic", lang][0]) not in text
        assert cards.document(base, cards.CardOptions(lang=lang))["text"]["variant_of"] == ""


HOUSE_EDITS = """
caravan_limit: 12
end:
  point_cards: {4: 4, 5: 4}
resources:
  cinnamon: {name: {en: clove, de: Nelke, fr: girofle}}
cards:
  merchant:
    remove: [r-yyy]
    add: [{kind: trade, pay: B, get: RRRR, name: {en: Bazaar, de: Basar, fr: Bazar}}]
  point:
    replace:
      yyrr: {cost: YYRR, points: 7}
"""
"""What a user adds to the file `century new` writes: a rule value, an end threshold, a
renamed resource (a re-theme), a merchant card added and one removed, a point card replaced."""

HOUSE_BOXES = {
    "en": [
        "Differences from Century: Spice Road",
        "Caravan limit: 12 spices instead of 10.",
        "Game end with four or five players: four point cards instead of five.",
        "Merchant cards: one added (Bazaar B ⇓ R R R R), one removed (R ⇓ Y Y Y).",
        "Point cards: one changed (Y Y R R: 7 instead of 6 points).",
        "New names: clove B for cinnamon.",
    ],
    "de": [
        "Unterschiede zu Century: Die Gewürzstraße",
        "Obergrenze der Karawane: 12 Gewürze statt 10.",
        "Spielende bei vier oder fünf Personen: vier Punktekarten statt fünf.",
        "Händlerkarten: eine hinzugefügt (Basar B ⇓ R R R R), eine entfernt (R ⇓ Y Y Y).",
        "Punktekarten: eine geändert (Y Y R R: 7 statt 6 Punkte).",
        "Neue Namen: Nelke B statt Zimt.",
    ],
    "fr": [
        "Différences avec Century : La Route des épices",
        "Limite de la caravane : 12 épices au lieu de 10.",
        "Fin de la partie à quatre ou cinq joueurs : 4 cartes de points au lieu de 5.",
        "Cartes marchand : une ajoutée (Bazar B ⇓ R R R R), une retirée (R ⇓ Y Y Y).",
        "Cartes de points : une modifiée (Y Y R R : 7 au lieu de 6 points).",
        "Nouveaux noms : girofle B pour cannelle.",
    ],
}
TITLES = {
    "en": "Century: Spice Road – House Rules",
    "de": "Century: Die Gewürzstraße – Hausregeln",
    "fr": "Century: La Route des épices – Règles maison",
}
LINEAGE = {
    "en": "A variant of Century: Spice Road",
    "de": "Eine Variante von Century: Die Gewürzstraße",
    "fr": "Une variante de Century : La Route des épices",
}


@pytest.fixture
def house(tmp_path, monkeypatch) -> Ruleset:
    """A house rule made as a user makes one: `century new` in an empty folder, then the
    file edited; the shell is in the project's folder (`tmp_path`)."""
    monkeypatch.chdir(tmp_path)
    titles = [arg for lang, title in TITLES.items() for arg in ("--title", f"{lang}={title}")]
    made = CliRunner().invoke(cli.app, ["new", "house", "--from", "spice-road", *titles])
    assert made.exit_code == 0, made.output
    path = tmp_path / "rules" / "house.yaml"
    path.write_text(path.read_text("utf-8") + HOUSE_EDITS, encoding="utf-8")
    return checked(compile_paths([tmp_path / "rules"])).rulesets["house"]


@pytest.mark.slow
def test_a_house_rules_sheets_and_kit_say_what_it_changes(house, tmp_path):
    """The variant a user writes, built with the commands a user types: each change is in
    the box of both languages on both papers, the turn stays on page 1, the kit's cover
    names the game it extends, and a second build writes the same bytes."""
    runner = CliRunner()
    for out in ([], ["-o", "again"]):
        made = runner.invoke(cli.app, ["sheets", "house", "-p", "a4", "-p", "letter", *out])
        assert made.exit_code == 0, made.output
    for lang in house.languages:
        for paper in PAPERS:
            name = f"rules-{lang}-{paper}.pdf"
            pdf = (tmp_path / "build" / "house" / name).read_bytes()
            assert_box(pdf, house, lang, HOUSE_BOXES[lang])
            assert pdf == (tmp_path / "again" / name).read_bytes(), name
    kit = runner.invoke(cli.app, ["cards", "house", "-p", "letter"])
    assert kit.exit_code == 0, kit.output
    for lang in house.languages:
        cover = pages((tmp_path / "build" / "house" / f"cards-{lang}-letter.pdf").read_bytes())[0]
        assert squash(TITLES[lang] + LINEAGE[lang]) in squash(cover), cover[:300]


@pytest.mark.slow
def test_the_base_games_sheets_built_beside_it_have_no_box(house, tmp_path):
    made = CliRunner().invoke(cli.app, ["sheets", "spice-road"])
    assert made.exit_code == 0, made.output
    for lang in house.languages:
        text = squash(
            "".join(
                pages((tmp_path / "build" / "spice-road" / f"rules-{lang}-a4.pdf").read_bytes())
            )
        )
        assert squash(HOUSE_BOXES[lang][0]) not in text
        assert squash(HOUSE_BOXES[lang][1]) not in text


@pytest.mark.slow
def test_the_model_lists_the_changes_a_player_meets(house):
    assert house.variant_of is not None and house.variant_of.id == "spice-road"
    found = {c.kind: c.values for c in house.variant_of.changes}
    assert list(found) == [
        "caravan_limit",
        "end_threshold",
        "cards_added",
        "cards_removed",
        "cards_changed",
        "renamed",
    ]
    assert dict(found["caravan_limit"]) == {"was": 10, "now": 12}
    assert found["end_threshold"]["counts"] == [
        {"players": 4, "was": 5, "now": 4},
        {"players": 5, "was": 5, "now": 4},
    ]
    [added] = found["cards_added"]["cards"]
    assert (found["cards_added"]["deck"], found["cards_added"]["count"]) == ("merchant", 1)
    assert (added["kind"], added["pay"], added["get"]) == ("trade", [0, 0, 0, 1], [0, 4, 0, 0])
    assert found["cards_removed"]["cards"][0]["id"] == "r-yyy"
    [replaced] = found["cards_changed"]["cards"]
    assert (replaced["card"]["id"], replaced["points"]) == ("yyrr", [6, 7])
    assert found["renamed"]["resources"] == [
        {
            "rank": 4,
            "was": {"en": "cinnamon", "de": "Zimt", "fr": "cannelle"},
            "now": {"en": "clove", "de": "Nelke", "fr": "girofle"},
        }
    ]
    # ruleset.json carries them, and reads back the same
    again = Ruleset.from_json(json.loads(json.dumps(house.to_json())))
    assert again == house
    # a variant of a re-theme is compared with the re-theme, in its codes and names
    short = compile_paths([VALID]).rulesets["golem-short"]
    assert short.variant_of is not None and short.variant_of.id == "golem"
    assert [c.kind for c in short.variant_of.changes] == ["end_threshold", "cards_removed"]
    text = prose.prose_texts(short, "en")
    assert text["h_changes"] == "Differences from Century: Golem Edition"
    assert "golem cards" in text["chg_end_threshold"] and "crystal" not in text["chg_cards"]


@pytest.mark.slow
def test_many_changed_cards_are_counted_with_a_few_examples(base):
    def double(data):
        for card in data["merchant_deck"]:
            card["copies"] = 2

    doubled = edited(base, double)
    lineage = VariantOf(base.id, base.name, changes(base, doubled))
    variant = dataclasses.replace(doubled, id="doubled", variant_of=lineage)
    [change] = lineage.changes
    assert change.kind == "cards_changed" and change.values["count"] == len(base.merchant_deck)
    for lang, counted, was in (
        ("en", "changed", "instead of 1 ×"),
        ("de", "geändert", "statt 1 ×"),
    ):
        line = prose.prose_texts(variant, lang)["chg_cards"].replace("\u00a0", " ")
        assert f": {len(base.merchant_deck)} {counted} (" in line
        assert line.count(was) == prose.CARD_EXAMPLES and line.endswith(", …).")
        pdf = sheets.sheet_pdf(variant, lang, "letter")
        assert_box(pdf, variant, lang, [line.split(" (")[0]])


def test_variant_sheets_are_byte_identical_across_runs(bundled):
    classic = bundled.rulesets["spice-road-classic"]
    assert sheets.sheet_pdf(classic, "de", "letter") == sheets.sheet_pdf(classic, "de", "letter")


def test_every_kind_of_change_is_worded_in_every_language(base):
    """A variant that changes every rule the box knows: each kind has its sentence, with the
    values of the change, and no placeholder is left unfilled."""

    def everything(data):
        data["players_max"] = 4
        data["caravan_limit"] = 9
        data["merchant_row"] = 7
        data["point_row"] = 4
        data["seats"][1] = [2, 1, 0, 0]
        data["coins"][0]["value"] = 4
        data["coin_runout"] = "stay"
        data["end_threshold"]["2"] = 7
        data["finish_round"] = False
        data["resource_points"] = [1, 1, 1, 1]
        data["tie_break"] = "shared"
        data["point_deck"][0]["points"] += 1
        data["resources"][0]["name"] = {"en": "mustard", "de": "Senf", "fr": "mustard"}

    changed = edited(base, everything)
    lineage = VariantOf(base.id, base.name, changes(base, changed))
    variant = dataclasses.replace(changed, id="everything", variant_of=lineage)
    kinds = {c.kind for c in lineage.changes}
    assert kinds == {*prose.CHANGE_KINDS} - {"ranks", "cards"} | {"cards_changed"}
    for lang in variant.languages:
        text = prose.prose_texts(variant, lang)
        worded = [key for key in prose.CHANGE_KEYS if text[key]]
        assert worded == [f"chg_{k}" for k in prose.CHANGE_KINDS if k != "ranks"], lang
        assert not any("None" in text[key] for key in worded), lang
    english = prose.prose_texts(variant, "en")
    assert english["chg_caravan_limit"].replace("\u00a0", " ") == (
        "Caravan limit: 9 spices instead of 10."
    )
    german = prose.prose_texts(variant, "de")
    for text, line in (
        (english, "New names: mustard cube:Y for turmeric."),
        (german, "Neue Namen: Senf cube:Y statt Kurkuma."),
    ):
        assert re.sub("[\ue000\ue001]", "", text["chg_renamed"]).replace("\u00a0", " ") == line


def test_a_re_theme_without_new_names_says_the_look_differs(base):
    def recolour(data):
        data["resources"][0]["colour"] = "#FFCC00"

    def recolour_and_more(data):
        recolour(data)
        data["caravan_limit"] = 9

    for edit, en, de in (
        (
            recolour,
            "The same rules and cards; only names and colours differ.",
            "Dieselben Regeln und Karten; nur Namen und Farben sind anders.",
        ),
        (
            recolour_and_more,
            "Words and colours differ too.",
            "Auch Begriffe und Farben sind anders.",
        ),
    ):
        recoloured = edited(base, edit)
        lineage = VariantOf(base.id, base.name, changes(base, recoloured))
        variant = dataclasses.replace(recoloured, id="recoloured", variant_of=lineage)
        assert lineage.changes[-1].kind == "renamed"
        assert lineage.changes[-1].values["resources"] == []
        assert prose.prose_texts(variant, "en")["chg_renamed"] == en
        assert prose.prose_texts(variant, "de")["chg_renamed"] == de


def test_prose_keys_of_the_box_are_checked_like_every_key(tmp_path):
    """Rule-sheet texts without a sentence of the box are a located error (C401)."""
    folder = tmp_path / "rules"
    (folder / "prose").mkdir(parents=True)
    for lang in ("en", "de", "fr"):
        text = (RULES / "prose" / f"century.{lang}.yaml").read_text("utf-8")
        short = re.sub(r"\n  chg_tie_break: >-\n(    .*\n)+", "\n", text)
        assert short != text
        (folder / "prose" / f"century.{lang}.yaml").write_text(short, encoding="utf-8")
    (folder / "mine.yaml").write_text(
        "id: mine\nextends: spice-road\n"
        "prose: {en: prose/century.en.yaml, de: prose/century.de.yaml,"
        " fr: prose/century.fr.yaml}\n",
        encoding="utf-8",
    )
    found = compile_paths([folder])
    problems = [d for d in found.diagnostics if d.code == "C401"]
    assert len(problems) == 3 and "mine" not in found.rulesets
    for problem, lang in zip(problems, ("en", "de", "fr"), strict=True):
        assert f"({lang}) lacks keys the sheet needs: chg_tie_break" in problem.message
        assert problem.file.endswith(f"century.{lang}.yaml") and problem.line > 0


def test_sentences_for_a_solo_game_and_a_tie_won_by_the_earliest(base):
    """Singular forms and the direction of a tie-break read right in both languages."""

    def solo(data):
        data["players_min"] = data["players_max"] = 1
        data["end_threshold"] = {"1": 6}
        data["tie_break"] = "earliest_turn"
        data["merchant_row"] = 1

    changed = edited(base, solo)
    lineage = VariantOf(base.id, base.name, changes(base, changed))
    variant = dataclasses.replace(changed, id="solo", variant_of=lineage)
    for lang, lines in (
        (
            "en",
            [
                "For one player instead of two to five.",
                "One merchant card in the row instead of six.",
                "Ties: the tied player who comes earliest in turn order wins.",
            ],
        ),
        (
            "de",
            [
                "Für eine Person statt zwei bis fünf.",
                "Eine Händlerkarte in der Reihe statt sechs.",
                "Gleichstand: Von den Beteiligten gewinnt, wer in der Zugreihenfolge zuerst am "
                "Zug war.",
            ],
        ),
    ):
        text = prose.prose_texts(variant, lang)
        assert [text[f"chg_{k}"] for k in ("players", "merchant_row", "tie_break")] == lines
