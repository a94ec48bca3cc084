"""The deal's example on the new-game form and in the refusal of a deal of no part names the
game's own cards: each game of the server's list carries its example (its merchant deck's
first two cards), the refusal of a table's deal names its game's, in every language, and the
example deals as it reads."""

from __future__ import annotations

import pytest

from century.serve.words import words

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from helpers import bundled_rulesets
from helpers.serve import api, post

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")

GAMES = ("spice-road", "golem")


def _expected(game: str) -> str:
    """The example by its rule, read from the game's data: the merchant deck's first card
    into seat 1's hand, its second into slot 3 of the row."""
    deck = bundled_rulesets()[game].merchant_deck
    return f"hand.1={deck[0].id},row.3={deck[1].id}"


@pytest.fixture(scope="module")
def client():
    with api(*GAMES, language="en") as made:
        yield made


def test_the_games_list_carries_each_games_own_deal_example(client):
    listed = {game["id"]: game["deal_example"] for game in client.get("/api/games").json()["games"]}
    assert listed == {game: _expected(game) for game in GAMES}
    assert listed["golem"] != listed["spice-road"]
    for game, example in listed.items():
        merchant = {card.id for card in bundled_rulesets()[game].merchant_deck}
        named = {part.split("=", 1)[1] for part in example.split(",")}
        assert named <= merchant, (game, named - merchant)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_form_hint_says_the_chosen_games_example(client, lang):
    said = client.get(f"/api/words?lang={lang}").json()["words"]["form.deal_hint"]
    assert "{example}" in said
    for game in GAMES:
        hint = said.format(example=_expected(game))
        assert _expected(game) in hint and "{" not in hint


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_golem_tables_deal_of_no_part_is_refused_with_golems_example(client, lang):
    body = {"game": "golem", "seats": ["human", "human"], "deal": " , "}
    answer = client.post("/api/tables", json=body, headers={"X-Lang": lang})
    assert answer.status_code == 400
    example = _expected("golem")
    assert answer.json()["error"] == words(lang)["error.deal_form"].format(example=example)
    assert example in answer.json()["error"]
    english = client.post("/api/tables", json=body).json()["error"]
    assert english == f"deal: a deal is PLACE.N=CARD, separated by commas ({example})"


@pytest.mark.parametrize("game", GAMES)
def test_the_example_deals_as_it_reads(client, game):
    example = _expected(game)
    made = post(client, "/api/tables", {"game": game, "seats": ["human", "human"], "deal": example})
    assert made.status_code == 201, made.text
    table, token = made.json()["table"], made.json()["links"][0]["token"]
    now = client.get(f"/api/tables/{table}", headers={"X-Seat-Token": token}).json()
    hand, row = (part.split("=", 1)[1] for part in example.split(","))
    assert hand in now["seats"][0]["hand"] and now["merchant_row"][2]["id"] == row


def test_the_command_refuses_a_deal_of_no_part_with_the_first_games_example(run):
    result = run("serve", "golem", "--deal", ",")
    assert result.exit_code == 2
    assert f"--deal: a deal is PLACE.N=CARD, separated by commas ({_expected('golem')})" in (
        result.stderr
    )
    assert "Traceback" not in result.output + result.stderr
