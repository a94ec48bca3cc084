"""The short forms of card effects are steps: the schema, the engine and the ids read them
from one registry, and an unknown kind is an error wherever it would otherwise be misplayed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from century.base.resources import SCHEMAS
from century.engine import load_engine
from century.engine.agree import disagreements
from century.frontend.schema import schemas, with_kinds
from century.model.cards import KINDS, UnknownKind, derived_id
from century.prose import prose_keys

from helpers import ROOT, five_ranks, spice_road


def merchant_schema() -> dict:
    return schemas()["defs.schema.json"]["$defs"]["merchantCard"]


def test_the_schema_knows_exactly_the_registered_kinds():
    schema = merchant_schema()
    assert schema["properties"]["kind"]["enum"] == list(KINDS)
    branches = {
        b["if"]["properties"]["kind"]["const"]: b["then"]
        for b in schema["allOf"]
        if "kind" in b["if"].get("properties", {})
    }
    assert branches.keys() == KINDS.keys()
    for name, kind in KINDS.items():
        assert tuple(branches[name]["required"]) == kind.fields
        allowed = set(branches[name]["propertyNames"]["enum"])
        assert allowed == {"id", "kind", "copies", "name", *kind.fields}
    terms = schemas()["defs.schema.json"]["$defs"]["gameTerms"]["required"]
    assert {f"{name}_card" for name in KINDS} <= set(terms)


def test_the_schema_file_says_what_the_registry_says(refresh_goldens):
    """Validation builds the registry's part of the schema; the file that editors read keeps
    in step (refresh with: python -m pytest --refresh-goldens)."""
    defs = json.loads((SCHEMAS / "defs.schema.json").read_text("utf-8"))
    built = with_kinds(defs)
    if refresh_goldens:
        text = json.dumps(built, indent=2, ensure_ascii=False) + "\n"
        (ROOT / "schema" / "defs.schema.json").write_text(text, encoding="utf-8")
    assert built == defs, "schema/defs.schema.json differs from the registry: refresh the goldens"


def test_every_cards_moves_outcomes_and_bound_agree():
    """The moves, outcomes and bound of every card of the bundled games and the five-rank
    variant agree, from every caravan of up to 6 cubes (`century.engine.agree`)."""
    for ruleset in (spice_road(), five_ranks()):
        assert disagreements(load_engine(ruleset), 6) == []


def test_short_forms_are_their_steps():
    """A short form and its steps are one card: the same derived id and the same model."""
    from century.model.cards import effect_data

    trade = {"kind": "trade", "pay": "RR", "get": "G"}
    assert effect_data(trade) == [{"repeat": [{"pay": "RR"}, {"gain": "G"}]}]
    assert derived_id({"effect": effect_data(trade)}) == derived_id(trade) == "rr-g"
    assert derived_id({"effect": [{"gain": "YYR"}]}) == "+yyr"
    assert derived_id({"effect": [{"upgrade": 3}]}) == "up3"


def test_every_kind_has_sheet_text_and_a_term(bundled):
    for name in KINDS:
        assert {f"card_{name}", f"card_{name}_title"} <= prose_keys()
    for ruleset in bundled.rulesets.values():
        assert {f"{name}_card{s}" for name in KINDS for s in ("", "s")} <= ruleset.terms.keys()


def test_an_unknown_kind_or_step_is_an_error_not_another_kind(base):
    odd = replace(base.merchant_deck[0], effect=(("exchange", (1, 0, 0, 0)),), id="odd")
    engine = load_engine(replace(base, merchant_deck=(*base.merchant_deck, odd)))
    with pytest.raises(ValueError, match="unknown step 'exchange'"):
        engine.warm_up()
    with pytest.raises(UnknownKind, match="'exchange'"):
        derived_id({"kind": "exchange", "get": "Y"})


def test_derived_ids_follow_the_kind():
    assert derived_id({"kind": "gain", "get": "YYR"}) == "+yyr"
    assert derived_id({"kind": "upgrade", "steps": 3}) == "up3"
    assert derived_id({"kind": "trade", "pay": "YY", "get": "G"}) == "yy-g"
    assert derived_id({"cost": "YYRR", "points": 6}) == "yyrr"
    assert derived_id({"kind": "gain", "get": "Y", "id": "mine"}) == "mine"


def test_the_model_stage_turns_an_effect_into_steps_once(monkeypatch: pytest.MonkeyPatch):
    """`build_ruleset` makes each merchant card as the model holds it: no JSON form of its
    steps written and read back on the way; the JSON form still reads back to the same model."""
    from century import compile_paths
    from century.model import cards
    from century.model.ruleset import Ruleset

    def refused(*_: object) -> None:
        raise AssertionError("a card's steps went through their JSON form")

    monkeypatch.setattr(cards, "steps_json", refused)
    monkeypatch.setattr(cards, "steps_from_json", refused)
    built = compile_paths([ROOT / "rules"]).rulesets["spice-road"]
    monkeypatch.undo()
    assert built.merchant_deck == spice_road().merchant_deck
    assert Ruleset.from_json(built.to_json()) == built
