"""The bundled Spice Road data equals the verified reference lists (tests/data/*.csv)."""

from __future__ import annotations

import csv
from collections import Counter

from century.model.cards import short_fields

from helpers import REFERENCE


def rows(name: str) -> list[dict[str, str]]:
    with (REFERENCE / name).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_merchant_deck_matches_reference(bundled):
    game = bundled.rulesets["spice-road"]
    expected = Counter()
    for row in rows("merchant-cards.csv"):
        if row["type"] == "gain":
            expected[("gain", game.vector(row["gain"]), (0,) * 4, 0)] += 1
        elif row["type"] == "upgrade":
            expected[("upgrade", (0,) * 4, (0,) * 4, int(row["upgrades"]))] += 1
        else:
            key = ("trade", game.vector(row["trade_out"]), game.vector(row["trade_in"]), 0)
            expected[key] += 1
    got = Counter()
    for card in game.merchant_deck:
        fields = short_fields(card.effect, 4)
        effect = (fields["get"], fields["pay"], fields["steps"])
        got[(card.kind, *effect)] += card.copies
    assert sum(got.values()) == 43
    assert got == expected


def test_point_deck_matches_reference(bundled):
    game = bundled.rulesets["spice-road"]
    expected = Counter((game.vector(r["cost"]), int(r["points"])) for r in rows("point-cards.csv"))
    got = Counter()
    for card in game.point_deck:
        got[(card.cost, card.points)] += card.copies
    assert sum(got.values()) == 36
    assert got == expected


def test_point_cards_follow_the_value_model(bundled):
    game = bundled.rulesets["spice-road"]
    assert all(game.point_card_value(c.cost) == c.points for c in game.point_deck)


def test_setup_and_rules_match_the_rulebook(bundled):
    game = bundled.rulesets["spice-road"]
    assert game.codes == "YRGB"
    assert [r.id for r in game.resources] == ["turmeric", "saffron", "cardamom", "cinnamon"]
    assert (game.players_min, game.players_max) == (2, 5)
    assert [game.cubes(s) for s in game.seats] == ["YYY", "YYYY", "YYYY", "YYYR", "YYYR"]
    assert (game.merchant_row, game.point_row, game.caravan_limit) == (6, 5, 10)
    assert [(c.id, c.value, c.per_player, c.position) for c in game.coins] == [
        ("gold", 3, 2, 1),
        ("silver", 1, 2, 2),
    ]
    assert game.coin_runout == "shift"
    assert dict(game.end_threshold) == {2: 6, 3: 6, 4: 5, 5: 5}
    assert game.finish_round is True
    assert game.resource_points == (0, 1, 1, 1)
    assert game.tie_break == "latest_turn"
    start = {
        (
            c.kind,
            game.cubes(short_fields(c.effect, 4)["get"]),
            short_fields(c.effect, 4)["steps"],
            c.copies,
        )
        for c in game.starting_cards
    }
    assert start == {("gain", "YY", 0, 1), ("upgrade", "", 2, 1)}
    assert game.resources[0].name == {"en": "turmeric", "de": "Kurkuma", "fr": "curcuma"}
    assert game.terms["caravan"] == {"en": "caravan", "de": "Karawane", "fr": "caravane"}


def test_card_ids_read_well(bundled):
    game = bundled.rulesets["spice-road"]
    ids = [c.id for c in game.merchant_deck]
    assert ids[:3] == ["+g", "+yr", "+yyy"]
    assert "up3" in ids and "yy-g" in ids and "bb-rrrgg" in ids
    assert [c.id for c in game.starting_cards] == ["+yy", "up2"]
    assert game.point_deck[0].id == "yyrr"
