"""Variants: the Golem re-theme, house rules, chains, user folders, diff, show and new."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import yaml

from century.model.cards import short_fields
from century.model.ruleset import Ruleset
from century.pipeline import compile_paths

from helpers import VALID, as_in_checkout


def theme_blind(ruleset: Ruleset) -> dict:
    """The ruleset with names, colours, codes, ids, terms and sources taken out."""
    data = replace(
        ruleset,
        id="",
        name={},
        extends=(),
        variant_of=None,
        sources=(),
        source_hash="",
        terms={},
        forms={},
        resources=tuple(replace(r, code="", colour="", name={}) for r in ruleset.resources),
        coins=tuple(replace(c, colour="", name={}) for c in ruleset.coins),
        merchant_deck=tuple(replace(c, id="") for c in ruleset.merchant_deck),
        starting_cards=tuple(replace(c, id="") for c in ruleset.starting_cards),
        point_deck=tuple(replace(c, id="") for c in ruleset.point_deck),
    )
    return data.to_json()


def test_golem_equals_spice_road_but_for_the_theme(bundled):
    base, golem = bundled.rulesets["spice-road"], bundled.rulesets["golem"]
    assert theme_blind(golem) == theme_blind(base)
    assert golem.codes == "YGBP"
    assert [r.name["en"] for r in golem.resources] == [
        "yellow crystal",
        "green crystal",
        "blue crystal",
        "pink crystal",
    ]
    assert golem.coins[0].name["en"] == "copper coin" and golem.coins[0].value == 3
    assert golem.terms["point_cards"] == {
        "en": "golem cards",
        "de": "Golemkarten",
        "fr": "cartes golem",
    }
    # the re-theme carries the new codes into derived card ids
    assert "yy-b" in [c.id for c in golem.merchant_deck]
    assert golem.extends == ("spice-road",)
    # what its rule sheet says it changes: the theme alone
    assert golem.variant_of is not None and golem.variant_of.id == "spice-road"
    assert [c.kind for c in golem.variant_of.changes] == ["renamed"]
    [renamed] = golem.variant_of.changes
    assert len(renamed.values["resources"]) == 4 and len(renamed.values["coins"]) == 1


def test_house_rule_changes_only_the_end(bundled):
    base, classic = bundled.rulesets["spice-road"], bundled.rulesets["spice-road-classic"]
    assert dict(classic.end_threshold) == {2: 5, 3: 5, 4: 5, 5: 5}
    assert replace(
        classic,
        end_threshold=base.end_threshold,
        name=base.name,
        id=base.id,
        extends=(),
        variant_of=None,
        sources=(),
        source_hash="",
    ) == replace(base, sources=(), source_hash="")
    assert base.variant_of is None
    assert classic.variant_of is not None
    assert [(c.kind, c.values["counts"]) for c in classic.variant_of.changes] == [
        (
            "end_threshold",
            [{"players": 2, "was": 6, "now": 5}, {"players": 3, "was": 6, "now": 5}],
        )
    ]


def test_three_level_chain_and_five_ranks():
    compiled = compile_paths([VALID])
    assert not [d for d in compiled.diagnostics if d.severity == "error"]
    short = compiled.rulesets["golem-short"]
    assert short.extends == ("spice-road", "golem")
    assert short.codes == "YGBP"
    assert set(short.end_threshold.values()) == {4}
    assert len(short.merchant_deck) == 42
    five = compiled.rulesets["five-spices"]
    assert len(five.resources) == 5 and five.caravan_limit == 12 and len(five.coins) == 3
    assert five.resource_points == (0, 1, 1, 1, 2)
    assert short_fields(five.merchant_deck[-1].effect, 5)["get"] == (0, 0, 0, 0, 1)


def test_diff_of_a_retheme_shows_only_names(run):
    result = run("diff", "spice-road", "golem", "--format", "json")
    assert result.exit_code == 0, result.output
    diff = json.loads(result.stdout)
    assert diff["rules"] == []
    assert diff["cards"] == {"added": [], "removed": [], "changed": []}
    whats = {r["what"] for r in diff["renames"]}
    assert {"resource 1 name", "resource 2 code", "coin gold name", "term point_cards"} <= whats
    text = run("diff", "spice-road", "golem").stdout
    lines = text.splitlines()
    assert "rules:" not in lines and "cards:" not in lines and "names (re-theme):" in lines
    assert "resource 2 code: R -> G" in text


def test_diff_of_a_house_rule_shows_the_rule(run):
    text = run("diff", "spice-road", "spice-road-classic").stdout
    assert "end_threshold: {2: 6, 3: 6, 4: 5, 5: 5} -> {2: 5, 3: 5, 4: 5, 5: 5}" in text


def test_show_marks_where_each_value_came_from(run):
    result = run("show", "golem")
    assert result.exit_code == 0, result.output
    lines = as_in_checkout(result.stdout).splitlines()
    assert "id: golem  # rules/golem.yaml:4" in lines
    assert any(line.startswith("caravan_limit: 10  # rules/spice-road.yaml:") for line in lines)
    assert any("code: G  # rules/golem.yaml:" in line for line in lines)
    plain = run("show", "golem", "--no-sources").stdout
    assert yaml.safe_load(plain)["resources"][3]["code"] == "P"


@pytest.mark.slow
def test_user_variant_in_its_own_folder_validates_and_builds(run, tmp_path):
    folder = tmp_path / "my-variants"
    result = run("new", "tavern-rules", "--from", "spice-road", "--dir", str(folder))
    assert result.exit_code == 0, result.output
    created = folder / "tavern-rules.yaml"
    text = created.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert "extends: spice-road" in text
    created.write_text(text + "caravan_limit: 12\n", encoding="utf-8")
    assert run("validate", str(folder)).exit_code == 0
    out = tmp_path / "out"
    result = run("build", str(folder), "--out", str(out))
    assert result.exit_code == 0, result.output
    ruleset = json.loads((out / "tavern-rules" / "ruleset.json").read_text(encoding="utf-8"))
    assert ruleset["caravan_limit"] == 12
    assert not (out / "spice-road").exists()  # only what was asked for
    assert run("new", "tavern-rules", "--from", "spice-road", "--dir", str(folder)).exit_code == 1


def test_new_refuses_bad_names_and_bases(run, tmp_path):
    assert run("new", "Bad Name", "--from", "spice-road", "--dir", str(tmp_path)).exit_code == 2
    assert run("new", "ok", "--from", "nope", "--dir", str(tmp_path)).exit_code == 2
    assert not list(tmp_path.iterdir())


COMPOSED = """\
id: mixed
extends: spice-road
cards:
  merchant:
    remove: [yy-g]
    add:
      - {effect: [gain: YY, upgrade: 1], name: {en: Mix, de: Mischung, fr: Mix}}
      - effect:
          - choose:
              - [gain: YYY]
              - [upgrade: 2]
      - {effect: [{repeat: [pay: Y, gain: R], max: 2}, pay_any: 1]}
"""
MORE = """\
id: more
extends: mixed
cards:
  merchant:
    remove: ["{+yyy/up2}"]
    add: [{effect: [choose: [[gain: YYY], [upgrade: 2]]], copies: 3, id: either}]
    replace: {"+yy.up1": {effect: [gain: YY, upgrade: 1], copies: 2}}
"""


def test_show_writes_a_cards_steps_on_one_line(run, tmp_path):
    """Composed cards are shown with their steps in the short flow form, one card a line
    (steps spread over lines too), and the YAML reads back as the resolved tree."""
    (tmp_path / "mixed.yaml").write_text(COMPOSED, encoding="utf-8")
    result = run("show", "mixed", "--rules", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = [line.split("  # ")[0].strip() for line in result.stdout.splitlines()]
    assert "- {effect: [gain: YY, upgrade: 1], name: {en: Mix, de: Mischung, fr: Mix}}" in lines
    assert "- {effect: [choose: [[gain: YYY], [upgrade: 2]]]}" in lines
    assert '- {effect: [{repeat: [pay: "Y", gain: R], max: 2}, pay_any: 1]}' in lines
    assert any(
        line.endswith("mixed.yaml:10") and "choose" in line for line in result.stdout.splitlines()
    )
    plain = run("show", "mixed", "--rules", str(tmp_path), "--no-sources").stdout
    cards = yaml.safe_load(plain)["decks"]["merchant"]["cards"]
    assert cards[-2]["effect"] == [{"choose": [[{"gain": "YYY"}], [{"upgrade": 2}]]}]
    assert cards[-1]["effect"] == [
        {"repeat": [{"pay": "Y"}, {"gain": "R"}], "max": 2},
        {"pay_any": 1},
    ]


def test_diff_matches_composed_cards_by_effect_and_shows_their_steps(run, tmp_path):
    (tmp_path / "mixed.yaml").write_text(COMPOSED, encoding="utf-8")
    (tmp_path / "more.yaml").write_text(MORE, encoding="utf-8")
    text = run("diff", "spice-road", "mixed", "--rules", str(tmp_path)).stdout.splitlines()
    assert "  + merchant_deck: +yy.up1 = gain YY then upgrade 1" in text
    assert "  + merchant_deck: {+yyy/up2} = choose (gain YYY | upgrade 2)" in text
    assert "  + merchant_deck: y-rx2.any1- = repeat (pay Y then gain R) max 2 then pay_any 1" in (
        text
    )
    assert "  - merchant_deck: yy-g" in text  # a short form: its id says its effect
    text = run("diff", "mixed", "more", "--rules", str(tmp_path)).stdout.splitlines()
    assert text[2:] == [
        "cards:",
        "  ~ merchant_deck: +yy.up1 = gain YY then upgrade 1 (copies 1 -> 2)",
        "  ~ merchant_deck: either = choose (gain YYY | upgrade 2)"
        " (id {+yyy/up2} -> either, copies 1 -> 3)",
    ]
    result = run("diff", "mixed", "more", "--rules", str(tmp_path), "--format", "json")
    [either] = [c for c in json.loads(result.stdout)["cards"]["changed"] if c["id"] == "either"]
    assert either["kind"] == "composed"
    assert either["effect"] == [{"choose": [[{"gain": [3, 0, 0, 0]}], [{"upgrade": 2}]]}]


def test_a_variant_may_print_fewer_languages_than_its_base(tmp_path):
    """A variant that keeps two of its base game's three languages compiles cleanly: the
    base's texts in the third are not its own, so they are neither errors nor warnings; a
    text of its own in a language it does not print still is."""
    (tmp_path / "rules").mkdir()
    house = tmp_path / "rules" / "house.yaml"
    house.write_text(
        "id: house\nextends: spice-road\nlanguages: [en, de]\nname: {en: House, de: Haus}\n",
        encoding="utf-8",
    )
    compiled = compile_paths([tmp_path / "rules"])
    assert "house" in compiled.rulesets
    assert not compiled.diagnostics, [d.format() for d in compiled.diagnostics]
    house.write_text(house.read_text("utf-8").replace("de: Haus}", "de: Haus, fr: Maison}"))
    found = compile_paths([tmp_path / "rules"]).diagnostics
    assert [(d.code, d.path) for d in found] == [("C314", "name.fr")]
