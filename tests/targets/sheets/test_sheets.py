"""Rule sheets: PDFs generated from the model, opened and read back with pypdf."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from century import prose
from century.model.ruleset import MerchantCard
from century.prose import prose_keys
from century.targets import BuildOptions, sheets, targets

from helpers import HOSTILE, ROOT, VALID, edited, five_ranks, hostile, written

MM_PER_PT = 25.4 / 72
SPICE_WORDS = (
    "spice", "gewürz", "turmeric", "kurkuma", "saffron", "safran",
    "cardamom", "kardamom", "cinnamon", "zimt",
    "épice", "curcuma", "cardamome", "cannelle",
)  # fmt: skip


CRYSTAL_FORMS = (
    ("cristal", "cristaux"),
    ("carte cristaux", "cartes cristaux"),
    ("carte golem", "cartes golem"),
)
"""The French forms of the re-theme's counted words."""

PLAIN_FORMS = {
    "en": (
        ("crystal", "crystals"),
        ("crystal card", "crystal cards"),
        ("golem card", "golem cards"),
    ),
    "de": (
        ("Kristall", "Kristalle"),
        ("Kristallkarte", "Kristallkarten"),
        ("Golemkarte", "Golemkarten"),
    ),
}
"""The English and German forms of the re-theme's counted words (one, other)."""

# -- helpers -------------------------------------------------------------------------------


def retheme(data: dict[str, Any]) -> None:
    """Rename every resource, coin and themed term (a Golem-like re-theme, in the test)."""
    data["id"] = "crystal-test"
    data["name"] = {"en": "Crystal Quarry", "de": "Kristallbruch", "fr": "Carrière de cristal"}
    names = [
        ("amber", "Bernstein", "ambre"),
        ("jade", "Jade", "jade"),
        ("topaz", "Topas", "topaze"),
        ("ruby", "Rubin", "rubis"),
    ]
    for resource, (en, de, fr) in zip(data["resources"], names, strict=True):
        resource["name"] = {"en": f"{en} crystal", "de": f"{de}kristall", "fr": f"cristal {fr}"}
    data["terms"].update(
        resource={"en": "crystal", "de": "Kristall", "fr": "cristal"},
        resources={"en": "crystals", "de": "Kristalle", "fr": "cristaux"},
        one_resource={"en": "one crystal", "de": "einen Kristall", "fr": "un cristal"},
        gain_card={"en": "crystal card", "de": "Kristallkarte", "fr": "carte cristaux"},
        gain_cards={"en": "crystal cards", "de": "Kristallkarten", "fr": "cartes cristaux"},
        point_card={"en": "golem card", "de": "Golemkarte", "fr": "carte golem"},
        point_cards={"en": "golem cards", "de": "Golemkarten", "fr": "cartes golem"},
    )
    data["forms"]["fr"] = {
        **data["forms"]["fr"],
        **{w: {"one": w, "many": p, "other": p} for w, p in CRYSTAL_FORMS},
    }
    for lang, pairs in PLAIN_FORMS.items():
        data["forms"][lang] = {
            **data["forms"][lang],
            **{w: {"one": w, "other": p} for w, p in pairs},
        }


def pdf_text(pdf: bytes) -> str:
    """All text of a PDF, soft hyphens and line-end hyphenation undone, no-break spaces read
    as spaces."""
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return re.sub(r"\u00ad\s*\n?", "", text).replace("\u00a0", " ")


def page_mm(pdf: bytes) -> list[tuple[float, float]]:
    reader = PdfReader(io.BytesIO(pdf))
    return [
        (
            round(float(p.mediabox.width) * MM_PER_PT, 1),
            round(float(p.mediabox.height) * MM_PER_PT, 1),
        )
        for p in reader.pages
    ]


@pytest.fixture(scope="module")
def rendered(base):
    """The bundled game's sheets, rendered once per language and paper."""
    cache: dict[tuple[str, str], bytes] = {}

    def get(lang: str, paper: str = "a4") -> bytes:
        if (lang, paper) not in cache:
            cache[lang, paper] = sheets.sheet_pdf(base, lang, paper)
        return cache[lang, paper]

    return get


# -- paper, determinism ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("paper", "size"), [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
def test_page_size_in_mm(rendered, paper, size):
    sizes = page_mm(rendered("en", paper))
    assert len(sizes) >= 2
    assert all(s == size for s in sizes)


@pytest.mark.slow
def test_same_input_gives_byte_identical_pdfs(base, rendered):
    assert sheets.sheet_pdf(base, "de", "a4") == rendered("de", "a4")


@pytest.mark.slow
def test_separate_processes_give_byte_identical_pdfs(rendered, tmp_path):
    root = ROOT
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        command = [sys.executable, "-m", "century", "sheets", "spice-road", "--lang", "de"]
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([*command, "--out", str(out)], cwd=root, env=env, check=True)
        outputs.append((out / "rules-de-a4.pdf").read_bytes())
    assert outputs[0] == outputs[1] == rendered("de", "a4")


@pytest.mark.slow
def test_page_numbers_and_document_language(rendered):
    for lang, words in (("de", "Seite {} von {}"), ("en", "Page {} of {}")):
        reader = PdfReader(io.BytesIO(rendered(lang)))
        total = len(reader.pages)
        for number, page in enumerate(reader.pages, start=1):
            assert words.format(number, total) in page.extract_text().replace("\u00a0", " ")
        assert reader.trailer["/Root"]["/Lang"] == lang


# -- content from the data ---------------------------------------------------------------


@pytest.mark.slow
def test_german_sheet_speaks_german_and_shows_the_thresholds(base, rendered):
    text = pdf_text(rendered("de"))
    for word in ("Kurkuma", "Safran", "Kardamom", "Zimt", "Karawane", "Punktekarten"):
        assert word in text
    assert "Spielmaterial" in text and "Wertung" in text
    assert "turmeric" not in text and "caravan" not in text
    counts = " ".join(str(base.end_threshold[n]) for n in base.player_counts)
    assert re.search(r"Punktekarten " + re.escape(counts), text)
    assert f"Höchstens {base.caravan_limit} Gewürze" in text


@pytest.mark.slow
def test_english_sheet_speaks_english_and_shows_the_thresholds(base, rendered):
    text = pdf_text(rendered("en"))
    for word in ("turmeric", "saffron", "cardamom", "cinnamon", "caravan", "point cards"):
        assert word in text
    assert "Kurkuma" not in text and "Karawane" not in text
    counts = " ".join(str(base.end_threshold[n]) for n in base.player_counts)
    assert re.search(r"Point cards " + re.escape(counts), text)
    assert f"at most {base.caravan_limit} spices" in text


@pytest.mark.slow
def test_setup_table_per_player_count_and_seat(base, rendered):
    text = pdf_text(rendered("en"))
    for players in base.player_counts:
        seats = " ".join(" ".join(base.cubes(v)) for v in base.seats[:players])
        coins = " ".join(
            str(c.count(players)) for c in sorted(base.coins, key=lambda c: c.position)
        )
        assert re.search(rf"^{players} {re.escape(seats)} .*{re.escape(coins)}$", text, re.M)


@pytest.mark.slow
def test_retheme_never_names_a_spice(base):
    themed = edited(base, retheme)
    for lang in themed.languages:
        text = pdf_text(sheets.sheet_pdf(themed, lang)).lower()
        assert [w for w in SPICE_WORDS if w in text] == []
        jade = {"en": "jade crystal", "de": "jadekristall", "fr": "cristal jade"}
        golem = {"en": "golem cards", "de": "golemkarten", "fr": "cartes golem"}
        assert jade[lang] in text and golem[lang] in text


@pytest.mark.slow
def test_bundled_golem_variant_never_names_a_spice(bundled):
    if "golem" not in bundled.rulesets:
        pytest.skip("no golem variant bundled")
    golem = bundled.rulesets["golem"]
    assert golem.variant_of is not None
    for lang in golem.languages:
        text = pdf_text(sheets.sheet_pdf(golem, lang)).lower()
        base = prose.typeset(golem.variant_of.name[lang], prose.punctuation(golem, lang)).lower()
        assert base in text  # the box of differences names the game it re-themes
        assert [w for w in SPICE_WORDS if w in text.replace(base, "")] == []


@pytest.mark.slow
def test_changed_caravan_limit_appears(base):
    def edit(data):
        data["caravan_limit"] = 12

    bigger = edited(base, edit)
    assert "at most 12 spices" in pdf_text(sheets.sheet_pdf(bigger, "en"))
    assert "Höchstens 12 Gewürze" in pdf_text(sheets.sheet_pdf(bigger, "de"))


@pytest.mark.slow
def test_house_rule_thresholds_appear(base):
    def edit(data):
        data["end_threshold"] = {
            str(n): 7 + n for n in range(base.players_min, base.players_max + 1)
        }
        data["finish_round"] = False

    house = edited(base, edit)
    text = pdf_text(sheets.sheet_pdf(house, "en"))
    counts = " ".join(str(7 + n) for n in house.player_counts)
    assert re.search(r"Point cards " + re.escape(counts), text)
    assert house.prose["en"]["end_now"] in text  # no round completion in this variant


@pytest.mark.slow
def test_five_ranks_draw_five(base):
    five = five_ranks(base)
    assert len(five.resources) == len(base.resources) + 1
    text = pdf_text(sheets.sheet_pdf(five, "de"))
    ladder_names = " ".join(r.name["de"] for r in five.resources)
    assert ladder_names in text
    top = five.resources[-1]
    assert f"höchsteStufe:{top.code}{top.name['de']}" in squash(text)  # the new top rank


@pytest.mark.slow
def test_three_coin_piles_and_tie_break_from_data(base):
    def edit(data):
        data["coins"].append(
            {"id": "bronze", "value": 7, "per_player": 1, "position": 3, "colour": "#8D6E63",
             "name": {"en": "bronze coin", "de": "Bronzemünze", "fr": "bronze coin"}}
        )  # fmt: skip
        data["forms"]["en"]["bronze coin"] = {"one": "bronze coin", "other": "bronze coins"}
        data["tie_break"] = "shared"

    three = edited(base, edit)
    text = pdf_text(sheets.sheet_pdf(three, "en"))
    assert "bronze coin +7" in text
    assert "they share the victory" in text


@pytest.mark.slow
def test_hostile_names_stay_text(base):
    pdf = sheets.sheet_pdf(hostile(base), "en")
    text = pdf_text(pdf)
    assert HOSTILE in text
    assert "#pagebreak()" in text
    assert "#set page(width: 1cm)" in text
    # the long names take more pages than the base game's, each of the same size
    assert set(page_mm(pdf)) == set(page_mm(sheets.sheet_pdf(base, "en")))


# -- prose ------------------------------------------------------------------------------------


def test_prose_keys_match_across_languages(base):
    keys = {lang: set(prose.prose_texts(base, lang)) for lang in base.languages}
    assert len({frozenset(k) for k in keys.values()}) == 1


def test_prose_context_is_in_the_sheet_language(base):
    de = prose.prose_context(base, "de")
    assert de["t"]["caravan"] == "Karawane"
    assert de["resources"][0]["name"] == base.resources[0].name["de"]
    assert de["caravan_limit"] == base.caravan_limit
    assert de["highest"]["code"] == base.codes[-1]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{{ t.no_such_term }}", "no_such_term"),
        ("{{ missing }}", "missing"),
        ("{{ ''.__class__.__mro__ }}", "Security"),
        ("[[cube:?]]", "unknown icon marker"),
        ("{% for %}", "TemplateSyntaxError"),
        ("{{ caravan_limit / 0 }}", "ZeroDivisionError"),
    ],
)
def test_bad_placeholder_names_the_key(base, source, message):
    def edit(data):
        data["prose"]["en"]["broken_key"] = source

    with pytest.raises(prose.ProseError, match=r"en\.broken_key.*" + re.escape(message)) as err:
        prose.prose_texts(edited(base, edit), "en")
    assert err.value.key == "broken_key"


def test_markers_from_data_stay_literal(base):
    def edit(data):
        forged = prose.MARK_OPEN + "up" + prose.MARK_CLOSE  # a marker forged in data
        data["resources"][0]["name"]["en"] = "[[cube:Y]]" + forged

    rendered = prose.prose_texts(edited(base, edit), "en")
    ladder = rendered["ladder"]
    assert "[[cube:Y]]up" in ladder  # literal text, the forged sentinels dropped
    assert ladder.count(prose.MARK_OPEN) == 3  # only the template's own icons


def test_code_and_templates_name_no_base_game_spice():
    import century

    root = Path(century.__file__).parent
    files = [p for p in sorted(root.rglob("*")) if p.suffix in (".py", ".typ", ".j2")]
    files = [p for p in files if "data" not in p.relative_to(root).parts]
    assert len(files) > 30
    for path in files:
        text = path.read_text(encoding="utf-8").lower()
        assert [w for w in SPICE_WORDS if w in text] == [], path


# -- target and CLI ---------------------------------------------------------------------------


@pytest.mark.slow
def test_target_writes_every_language_and_paper(base, tmp_path):
    names = sorted(p.name for p in written("sheets", base, tmp_path, papers=("a4", "letter")))
    expected = sorted(
        f"rules-{lang}-{paper}.pdf" for lang in base.languages for paper in ("a4", "letter")
    )
    assert names == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == expected


@pytest.mark.slow
def test_cli_writes_one_sheet(run, tmp_path):
    result = run(
        "sheets", "spice-road", "--lang", "de", "--paper", "letter", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "rules-de-letter.pdf").read_bytes()
    assert page_mm(pdf)[0] == (215.9, 279.4)
    assert "Kurkuma" in pdf_text(pdf)
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".pdf"] == ["rules-de-letter.pdf"]


def test_cli_defaults_to_every_language_on_a4(run, tmp_path, base):
    result = run("sheets", "spice-road", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".pdf") == sorted(
        f"rules-{lang}-a4.pdf" for lang in base.languages
    )


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("no-such-game",), 2, "unknown game"),
        (("spice-road", "--lang", "it"), 2, "spice-road has no language 'it' (known: en, de, fr)"),
        (("spice-road", "--paper", "a3"), 2, "'a3' is not one of"),
    ],
)
def test_cli_rejects_bad_choices(run, tmp_path, args, code, message):
    result = run("sheets", *args, "--out", str(tmp_path))
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_target_honours_languages_option(base, tmp_path):
    assert list(targets()["sheets"].build(base, BuildOptions(languages=("de",)))) == [
        "rules-de-a4.pdf"
    ]


def test_missing_translation_is_an_error_not_a_fallback(base):
    def edit(data):
        del data["resources"][0]["name"]["de"]

    with pytest.raises(sheets.SheetError, match=f"resource '{base.resources[0].id}' has no 'de'"):
        sheets.sheet_data(edited(base, edit), "de", "a4")


@pytest.mark.slow
def test_every_bundled_game_and_valid_case_renders(bundled):
    from century.pipeline import compile_paths

    cases = compile_paths([VALID])
    rulesets = {**bundled.rulesets, **cases.rulesets}
    for ruleset in rulesets.values():
        for lang in ruleset.languages:
            text = pdf_text(sheets.sheet_pdf(ruleset, lang))
            assert (
                prose.typeset(ruleset.name[lang], prose.punctuation(ruleset, lang)).replace(
                    "\u00a0", " "
                )
                in text
            )
            assert " ".join(r.name[lang] for r in ruleset.resources) in text  # the ladder


@pytest.mark.slow
def test_cli_renders_a_variant_from_other_rules(run, tmp_path):
    cases = VALID
    result = run(
        "sheets", "five-spices", "--rules", str(cases), "--lang", "en", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    text = pdf_text((tmp_path / "rules-en-a4.pdf").read_bytes())
    assert "at most 12 spices" in text
    assert "bronze coin" in text


def test_cli_reports_a_bad_placeholder_without_traceback(run, tmp_path):
    root = ROOT
    shutil.copytree(root / "rules" / "prose", tmp_path / "rules" / "prose")
    shutil.copytree(root / "cards", tmp_path / "cards")
    game = (root / "rules" / "spice-road.yaml").read_text(encoding="utf-8")
    game = re.sub(r"^id: .*$", "id: broken-game", game, count=1, flags=re.M)
    (tmp_path / "rules" / "broken-game.yaml").write_text(game, encoding="utf-8")
    for lang in ("en", "de"):
        prose = tmp_path / "rules" / "prose" / f"century.{lang}.yaml"
        prose.write_text(
            prose.read_text(encoding="utf-8") + '  broken_key: "{{ t.no_such_term }}"\n',
            encoding="utf-8",
        )
    out = tmp_path / "out"
    rules = str(tmp_path / "rules" / "broken-game.yaml")
    result = run("sheets", "broken-game", "--rules", rules, "--out", str(out))
    assert result.exit_code == 1
    assert "broken_key" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_prose_keys_cover_what_the_template_reads(base):
    template = (Path(sheets.__file__).parent / "rules.typ").read_text("utf-8")
    read = set(re.findall(r'say\("([a-z_]+)"\)', template))
    assert read <= prose_keys()
    assert set(base.prose["en"]) >= prose_keys()

    def edit(data):
        del data["prose"]["de"]["gap_deck"]

    with pytest.raises(sheets.SheetError, match="prose de: no text for gap_deck"):
        sheets.sheet_data(edited(base, edit), "de", "a4")


# -- layout: every section whole, every page full ------------------------------------------

SECTIONS = (
    ("h_components", "comp_merchant"),
    ("h_setup", "setup_points"),
    ("h_setup", "setup_caravan"),
    ("h_turn", "turn"),
    ("h_play", "act_play"),
    ("h_acquire", "act_acquire"),
    ("h_claim", "act_claim"),
    ("h_rest", "act_rest"),
    ("h_caravan", "turn_end"),
    ("h_ladder", "ladder"),
    ("h_cards", "card_gain"),
    ("card_upgrade_title", "card_upgrade"),
    ("card_trade_title", "card_trade"),
    ("card_point_title", "card_point"),
    ("h_examples", "ex_acquire"),
    ("h_examples", "ex_coins"),
    ("h_end", "end_trigger"),
    ("h_end", "end_round"),
    ("h_scoring", "scoring"),
    ("h_scoring", "score_cards"),
    ("h_tie", "tie_latest_turn"),
    ("h_gaps", "gap_deck"),
)
ACTIONS = ("h_play", "h_acquire", "h_claim", "h_rest")
FOOTER_MM = 12.0  # the footer's text sits below this height
BAND_MM = 30.0  # a page that goes on ends its text at most this far above the footer


def squash(value: str) -> str:
    """Text without spaces, line breaks and hyphens (hyphenation differs per paper)."""
    return re.sub(r"[\s\u00ad\-]+", "", value)


def plain_pieces(rendered: str) -> list[str]:
    """The stretches of a rendered prose string between its icons, longest first."""
    pieces = re.split(f"{prose.MARK_OPEN}[^{prose.MARK_CLOSE}]*{prose.MARK_CLOSE}", rendered)
    return [squash(p) for p in pieces if len(squash(p)) >= 10]


@pytest.fixture(scope="module")
def every_sheet(bundled):
    """Every bundled game in every language on both papers: (game, lang, paper, pages)."""
    sheets_read = []
    for _game, ruleset in sorted(bundled.rulesets.items()):
        for lang in ruleset.languages:
            for paper in ("a4", "letter"):
                reader = PdfReader(io.BytesIO(sheets.sheet_pdf(ruleset, lang, paper)))
                sheets_read.append((ruleset, lang, paper, reader))
    return sheets_read


@pytest.mark.slow
def test_every_section_keeps_its_heading_and_body_on_one_page(every_sheet):
    for ruleset, lang, paper, reader in every_sheet:
        text = prose.prose_texts(ruleset, lang)
        pages = [page.extract_text() for page in reader.pages]
        lines = [{squash(line) for line in page.splitlines()} for page in pages]
        flat = [squash(page) for page in pages]
        where = f"{ruleset.id} {lang} {paper}"
        for heading, body in SECTIONS:
            title = squash(text[heading])
            [on] = [i for i, page in enumerate(lines) if title in page] or [None]
            assert on is not None, (where, heading)
            pieces = plain_pieces(text[body])
            assert pieces, (where, body)
            for piece in (pieces[0], pieces[-1]):  # where the body starts and ends
                found = [i for i, page in enumerate(flat) if piece in page]
                assert found == [on], (where, heading, body, piece, found)


@pytest.mark.slow
def test_the_four_actions_share_the_first_page(every_sheet):
    for ruleset, lang, paper, reader in every_sheet:
        text = prose.prose_texts(ruleset, lang)
        first = {squash(line) for line in reader.pages[0].extract_text().splitlines()}
        for action in ACTIONS:
            assert squash(text[action]) in first, (ruleset.id, lang, paper, action)


@pytest.mark.slow
def test_no_page_ends_in_a_blank_band(every_sheet):
    for ruleset, lang, paper, reader in every_sheet:
        assert len(reader.pages) == 2, (ruleset.id, lang, paper)
        for number, page in enumerate(reader.pages[:-1], start=1):
            heights: list[float] = []

            def visit(text, cm, tm, font, size, heights=heights):
                if text.strip():
                    heights.append((cm[5] + tm[5] * cm[3]) * MM_PER_PT)

            page.extract_text(visitor_text=visit)
            lowest = min(h for h in heights if h > FOOTER_MM)
            assert lowest < FOOTER_MM + BAND_MM, (ruleset.id, lang, paper, number, lowest)


# -- text that teaches -------------------------------------------------------------------------


@pytest.mark.slow
def test_trade_arrow_is_the_one_on_the_cards(base, rendered):
    for lang in base.languages:
        text = pdf_text(rendered(lang))
        assert "⇓" in text and "⇒" not in text  # the cards draw the same downward arrow


@pytest.mark.slow
def test_setup_names_each_coin_with_its_count(base, rendered):
    en, de = squash(pdf_text(rendered("en"))), squash(pdf_text(rendered("de")))
    for coin in sorted(base.coins, key=lambda c: c.position):
        n, name, value = coin.per_player, coin.name, coin.value
        assert squash(f"{n} {name['en']}s {value} per player above card {coin.position}") in en
        assert squash(f"{n} {name['de']}n {value} pro Person über Karte {coin.position}") in de
        assert squash(f"{coin.count(base.players_max)} {name['en']}s {value}") in en  # components


def test_worked_examples_are_drawn_from_the_data(base, rendered):
    text = squash(pdf_text(rendered("en")))
    rendered_prose = prose.prose_texts(base, "en")
    for key in sheets.EXAMPLES:
        assert rendered_prose[key]
        for piece in plain_pieces(rendered_prose[key]):
            assert piece in text, (key, piece)
    assert squash("With five players the game end is triggered at five point cards") in text
    assert squash("seats 3, 4 and 5 each take one more turn") in text
    assert squash("pay Y Y Y Y , take G G") in text  # the trade card made twice


@pytest.mark.slow
def test_card_kinds_on_the_sheet_come_from_the_data(base):
    def no_trades(data):
        data["merchant_deck"] = [
            c for c in data["merchant_deck"] if MerchantCard.from_json(c).kind != "trade"
        ]

    without = edited(base, no_trades)
    data = sheets.sheet_data(without, "en", "a4")
    assert [face["kind"] for face in data["cards"]] == ["gain", "upgrade", "point"]
    assert "ex_trade" not in [ex["key"] for ex in data["examples"]]
    text = pdf_text(sheets.sheet_pdf(without, "en"))
    assert "Trade card" not in text and "Upgrade card" in text


def test_letters_on_cubes_and_coins_contrast_with_their_colour(bundled):
    from century.shared.typst.colours import contrast

    for ruleset in bundled.rulesets.values():
        data = sheets.sheet_data(ruleset, ruleset.languages[0], "a4")
        for item in (*data["resources"], *data["coins"]):
            assert contrast(item["colour"], item["ink"]) >= 4.5, (ruleset.id, item)
