"""The card-kind registry is the one definition every stage agrees with, and an unknown kind
is an error wherever it would otherwise be misplayed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from century.engine import generate
from century.engine.runtime import KIND_OUTCOMES
from century.model.cards import KINDS, UnknownKind, derived_id
from century.prose import PROSE_KEYS
from century.resources import SCHEMAS


def merchant_schema() -> dict:
    return json.loads((SCHEMAS / "defs.schema.json").read_text("utf-8"))["$defs"]["merchantCard"]


def test_the_schema_knows_exactly_the_registered_kinds():
    schema = merchant_schema()
    assert schema["properties"]["kind"]["enum"] == list(KINDS)
    branches = {b["if"]["properties"]["kind"]["const"]: b["then"] for b in schema["allOf"]}
    assert branches.keys() == KINDS.keys()
    for name, kind in KINDS.items():
        assert tuple(branches[name]["required"]) == kind.fields
        allowed = set(branches[name]["propertyNames"]["enum"])
        assert allowed == {"id", "kind", "copies", "name", *kind.fields}


def test_the_engine_has_rules_for_every_kind():
    assert KIND_OUTCOMES.keys() == KINDS.keys()


def test_every_kind_has_sheet_text_and_a_term(bundled):
    for name in KINDS:
        assert {f"card_{name}", f"card_{name}_title"} <= PROSE_KEYS
    for ruleset in bundled.rulesets.values():
        assert {f"{name}_card" for name in KINDS} <= ruleset.terms.keys()


def test_an_unknown_kind_is_an_error_not_another_kind(base):
    odd = replace(base.merchant_deck[0], kind="exchange", id="odd")
    with pytest.raises(ValueError, match="no rules for the card kind"):
        generate(replace(base, merchant_deck=(*base.merchant_deck, odd)))
    with pytest.raises(UnknownKind, match="'exchange'"):
        derived_id({"kind": "exchange", "get": "Y"})


def test_derived_ids_follow_the_kind():
    assert derived_id({"kind": "gain", "get": "YYR"}) == "+yyr"
    assert derived_id({"kind": "upgrade", "steps": 3}) == "up3"
    assert derived_id({"kind": "trade", "pay": "YY", "get": "G"}) == "yy-g"
    assert derived_id({"cost": "YYRR", "points": 6}) == "yyrr"
    assert derived_id({"kind": "gain", "get": "Y", "id": "mine"}) == "mine"
