"""What the server words for the page speaks the reader's language: a card's effect as the
game's prose says it, the ways of a choice, the tie-break, a refusal and the bots on the
new-game form; each read back in German and French through the API, and the ways checked
against the caravans the engine makes of them."""

from __future__ import annotations

from collections import Counter

import pytest

from century.serve.words import words

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from helpers import bundled_rulesets
from helpers.serve import api

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture
def client():
    with api(language="en") as made:
        yield made


def _table(client, seats=("human", "human"), seed=3):
    made = client.post(
        "/api/tables", json={"game": "spice-road", "seats": list(seats), "seed": seed}
    ).json()
    return f"/api/tables/{made['table']}", {"X-Seat-Token": made["links"][0]["token"]}


def _raised(before: str, cubes: str, codes: str) -> str:
    """`before` with each cube of `cubes` raised one rank (codes lowest first), sorted."""
    held = Counter(before)
    for cube in cubes:
        held[cube] -= 1
        held[codes[codes.index(cube) + 1]] += 1
    return "".join(code * held[code] for code in codes)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_cards_effect_and_its_ways_are_worded_in_the_seats_language(client, lang):
    from century.shared.effects import effect_sayer

    ruleset = bundled_rulesets()["spice-road"]
    say = effect_sayer(ruleset, lang)
    path, headers = _table(client)
    snap = client.get(f"{path}?lang={lang}", headers=headers).json()
    assert snap["lang"] == "en"  # the table's own language is unchanged
    texts = words(lang)
    cards = {card.id: card for card in ruleset.starting_cards}
    plays = [m for m in snap["moves"] if m["verb"] == "play"]
    assert plays
    for choice in plays:
        effect = say(tuple(cards[choice["what"]].effect))  # the rule sheet's sentence
        assert f"({effect}" in choice["name"], (choice["name"], effect)
    upgrade = next(m for m in plays if len(m["options"]) > 1)
    codes = "".join(r.code.lower() for r in ruleset.resources)
    before = next(s for s in snap["seats"] if s["seat"] == snap["acting"])["caravan"]
    head, _, tail = texts["way.upgrade"].partition("{cubes}")
    for way in upgrade["options"]:
        said = way["words"]
        assert said.startswith(head) and said.endswith(tail), said
        cubes = said[len(head) : len(said) - len(tail)].replace(" ", "").lower()
        assert cubes == way["option"]
        # the words say what the engine does: each cube named is raised one rank
        assert sorted(_raised(before, cubes, codes)) == sorted(way["after"]), (said, way)
    # the page asks in its language by a header; the move's answer comes back in it
    asked = client.get(path, headers={**headers, "X-Lang": lang}).json()
    assert asked["moves"] == snap["moves"]


def test_the_english_ways_are_unchanged_without_a_language_asked(client):
    path, headers = _table(client)
    snap = client.get(path, headers=headers).json()
    upgrade = next(m for m in snap["moves"] if m["verb"] == "play" and len(m["options"]) > 1)
    assert upgrade["options"][0]["words"] == "raising Y"


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("de", "Ann (Platz 1) und Bo (Platz 2) haben gleich viele Punkte"),
        ("fr", "Ann (place 1) et Bo (place 2) sont à égalité"),
    ],
)
def test_the_tie_break_is_said_in_the_seats_language(lang, start):
    from century.bots.registry import GreedyBot
    from century.engine import load_engine
    from century.serve.tables import Setup, new_table

    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    made = new_table(
        ruleset, engine, Setup(ruleset.id, ("human", "human"), 1, names=("Ann", "Bo")), "en"
    )
    bot = GreedyBot(engine, ruleset, 1)  # seed 1: both end on the same score, the tie-break decides
    while not made.state.is_over():
        made.apply(bot.choose(made.state))
    (seats,) = made.tokens.values()
    said = made.snapshot(seats, lang)["tie_break"]
    score = made.state.scores()[0]
    winner = made.state.winners()[0]
    assert said.startswith(start) and str(score) in said, said
    named = words(lang)["seat.named"].format(name=made.names[winner], n=winner + 1)
    assert named in said.split(";")[1], said
    assert made.snapshot(seats)["tie_break"].startswith("Ann (seat 1) and Bo (seat 2) tied")


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_refusal_is_said_in_the_readers_language(client, lang):
    path, headers = _table(client)
    texts = words(lang)
    asked = {**headers, "X-Lang": lang}
    stale = client.post(f"{path}/move", json={"move": "rest", "version": 7}, headers=asked)
    assert stale.status_code == 409 and stale.json()["error"] == texts["error.stale"]
    wrong = client.post(f"{path}/move", json={"move": "play nothing", "version": 0}, headers=asked)
    assert wrong.status_code == 422
    assert wrong.json()["error"] == texts["error.illegal"].format(move="'play nothing'")
    unknown = client.get("/api/tables/nothing-here", headers=asked)
    assert unknown.status_code == 404 and unknown.json()["error"] == texts["error.no_table"]
    english = client.post(f"{path}/move", json={"move": "rest", "version": 7}, headers=headers)
    assert english.json()["error"] == "the table has changed since: look again"


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_bots_are_summed_up_in_the_readers_language(client, lang):
    from century.bots.registry import BOTS

    english = {b["name"]: b for b in client.get("/api/games").json()["bots"]}
    said = {b["name"]: b for b in client.get("/api/games", headers={"X-Lang": lang}).json()["bots"]}
    assert set(said) == set(BOTS)
    for name, kind in BOTS.items():
        assert english[name]["summary"] == kind.summary  # the English words are the registry's
        assert english[name]["option"] == kind.option
        assert said[name]["summary"] == words(lang)[f"bot.{name}"] != kind.summary
        assert bool(said[name]["option"]) == bool(kind.option)


def test_the_move_log_is_told_again_in_the_language_switched_to(client):
    path, headers = _table(client)
    snap = client.post(f"{path}/move", json={"move": "rest", "version": 0}, headers=headers).json()
    play = next(m for m in snap["moves"] if m["verb"] == "play")
    way = play["options"][-1]["move"]
    client.post(f"{path}/move", json={"move": way, "version": 1}, headers=headers)
    english = [e["text"] for e in client.get(path, headers=headers).json()["log"]]
    german = [e["text"] for e in client.get(f"{path}?lang=de", headers=headers).json()["log"]]
    assert english[0].startswith("Seat 1 (person) rests")
    assert german[0].startswith("Platz 1 (Mensch) ruht sich aus"), german
    assert german[1].startswith("Platz 2 (Mensch) spielt "), german
    # the same lines as a table shown in German from the start writes as the moves are made
    with api(language="de") as other:
        there, held = _table(other)
        other.post(f"{there}/move", json={"move": "rest", "version": 0}, headers=held)
        other.post(f"{there}/move", json={"move": way, "version": 1}, headers=held)
        assert [e["text"] for e in other.get(there, headers=held).json()["log"]] == german
    # a move undone and another made in its place is told anew
    assert client.post(f"{path}/undo", json={}, headers=headers).status_code == 200
    snap = client.get(path, headers=headers).json()
    other_way = next(m for m in snap["moves"] if m["verb"] == "play")["options"][0]["move"]
    client.post(
        f"{path}/move", json={"move": other_way, "version": snap["version"]}, headers=headers
    )
    told = [e["text"] for e in client.get(f"{path}?lang=fr", headers=headers).json()["log"]]
    again = [e["text"] for e in client.get(f"{path}?lang=de", headers=headers).json()["log"]]
    assert len(told) == len(again) == 2 and told[0].startswith("Place 1 (personne)"), told
    assert (other_way == way) == (again == german)


def _malformed(client, path, headers):
    """Each kind of malformed request, sent: the key of its refusal's words, the slots, and
    the answer."""
    from century.serve.app import MAX_BODY

    as_json = {**headers, "Content-Type": "application/json"}
    new = "/api/tables"
    game = {"game": "spice-road", "seats": ["human", "human"]}
    sent = [
        ("json_type", {}, client.post(f"{path}/move", content="rest", headers=headers)),
        ("not_json", {}, client.post(f"{path}/move", content="{rest", headers=as_json)),
        ("body_size", {"most": MAX_BODY}, client.post(
            f"{path}/move", content="[" + "0," * MAX_BODY + "0]", headers=as_json
        )),
        ("body_shape", {"shape": '{"move": "..."}'}, client.post(
            f"{path}/move", json=["rest"], headers=headers
        )),
        ("body_shape", {"shape": '{"name": "..."}'}, client.post(
            f"{path}/name", json="Ann", headers=headers
        )),
        ("move_text", {}, client.post(f"{path}/move", json={"move": 7}, headers=headers)),
        ("json_object", {}, client.post(new, json=["spice-road"], headers=headers)),
        ("seed", {}, client.post(new, json={**game, "seed": "7"}, headers=headers)),
        ("network", {}, client.post(new, json={**game, "network": "no"}, headers=headers)),
        ("deal_text", {}, client.post(new, json={**game, "deal": ["hand.1"]}, headers=headers)),
        ("seats_list", {}, client.post(new, json={**game, "seats": "human"}, headers=headers)),
        ("names_list", {}, client.post(new, json={**game, "names": "Ann"}, headers=headers)),
    ]  # fmt: skip
    return [(key, slots, answer.status_code, answer.json()["error"]) for key, slots, answer in sent]


def _told(client, refusals, lang):
    """Check that each refusal `refusals` sends is a 4xx in `lang`'s words with its slots
    filled, and without a language asked in English's, to the letter."""
    path, headers = _table(client)
    texts = words(lang)
    refused = refusals(client, path, {**headers, "X-Lang": lang})
    said = [(key, error) for key, _, _, error in refused]
    assert said == [(key, texts[f"error.{key}"].format(**slots)) for key, slots, _, _ in refused]
    assert all(400 <= status < 500 for _, _, status, _ in refused), refused
    english = [error for *_, error in refusals(client, path, headers)]  # no language asked
    assert english == [words("en")[f"error.{key}"].format(**slots) for key, slots, *_ in refused]
    if lang != "en":  # told in the language, not English under another key
        same = [told for told, error in zip(said, english, strict=True) if told[1] == error]
        assert same == []


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_malformed_request_is_refused_in_the_readers_language(client, lang):
    _told(client, _malformed, lang)


def _refused_values(client, path, headers):
    """Each refusal of a value or of the asker, sent: the key of its refusal's words, the
    slots, and the answer."""
    from century.bots.registry import BOTS
    from century.engine import load_engine
    from century.serve.deal import MAX_DEALS
    from century.serve.tables import MAX_WATCHERS
    from century.serve.words import languages

    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    card = engine.CARDS[0].id
    deck = ruleset.merchant_deck  # the example: the deck's first two cards, by the rule
    example = f"hand.1={deck[0].id},row.3={deck[1].id}"
    row = len(engine.new_game(2, 0).to_dict(moves=False)["merchant_row"])
    takes = ", ".join(f"{name}:N" for name, kind in BOTS.items() if kind.option)
    record = client.get(f"{path}/record", headers=headers).json()
    evil = {**headers, "Origin": "http://evil.example"}
    new = "/api/tables"
    game = {"game": "spice-road", "seats": ["human", "human"]}

    def made(**body):
        return client.post(new, json={**game, **body}, headers=headers)

    def dealt(text):
        return made(deal=text)

    most = ",".join([f"hand.1={card}"] * (MAX_DEALS + 1))
    sent = [
        ("unknown_game", {"game": "'chess'", "known": "spice-road"}, made(game="chess")),
        ("players", {"game": "spice-road", "least": ruleset.players_min,
                     "most": ruleset.players_max}, made(seats=["human"] * 9)),
        ("one_person", {}, made(seats=["greedy", "greedy"])),
        ("bot_unknown", {"spec": "'wizard'", "choices": ", ".join(BOTS)},
         made(seats=["human", "wizard"])),
        ("bot_option", {"spec": "'planner:77'", "choices": takes},
         made(seats=["human", "planner:77"])),
        ("network_host", {}, made(network=True)),
        ("record_replay", {"reason": "a record is a JSON object"}, made(record="rest")),
        ("record_players", {"played": 2, "n": 3}, made(record=record, seats=["human"] * 3)),
        ("deal_form", {"example": example}, dealt(",")),
        ("deal_most", {"most": MAX_DEALS}, dealt(most)),
        ("deal_part", {"part": "'hand1=up'"}, dealt("hand1=up")),
        ("deal_which", {"part": "'hand.1='"}, dealt("hand.1=")),
        ("deal_card", {"part": "'hand.1=nothing'", "card": "'nothing'"}, dealt("hand.1=nothing")),
        ("deal_seat", {"part": repr(f"hand.3={card}"), "n": 2}, dealt(f"hand.3={card}")),
        ("deal_slot", {"part": repr(f"row.99={card}"), "n": row}, dealt(f"row.99={card}")),
        ("no_language", {"lang": "'xx'", "known": ", ".join(languages())},
         client.get("/api/words?lang=xx", headers=headers)),
        ("host", {}, client.get(path, headers={**headers, "Host": "evil.example"})),
        ("origin", {}, client.post(f"{path}/move", json={"move": "rest"}, headers=evil)),
        ("live_origin", {}, client.get(f"{path}/events", headers=evil)),
        ("no_file", {}, client.get("/static/nothing.js", headers=headers)),
        ("no_image", {}, client.get("/api/games/spice-road/images/no.png", headers=headers)),
        ("watchers", {"most": MAX_WATCHERS}, _crowded(client, path, headers)),
    ]  # fmt: skip
    return [(key, slots, answer.status_code, answer.json()["error"]) for key, slots, answer in sent]


def _crowded(client, path, headers):
    """The answer to one live connection more than the table at `path` takes (as many as
    it takes counted open meanwhile)."""
    from century.serve.tables import MAX_WATCHERS

    table = client.app.state.server.tables.get(path.rsplit("/", 1)[1])
    table.watchers = MAX_WATCHERS
    try:
        return client.get(f"{path}/events", headers=headers)
    finally:
        table.watchers = 0


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_refused_value_is_told_in_the_readers_language(client, lang):
    _told(client, _refused_values, lang)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_network_tables_record_is_refused_in_the_readers_language(lang):
    with api(network=True) as client:
        body = {"game": "spice-road", "seats": ["human", "human"], "network": True}
        made = client.post("/api/tables", json=body).json()
        token = made["links"][0]["token"]
        path = f"/api/tables/{made['table']}/record"
        refused = client.get(path, headers={"X-Seat-Token": token, "X-Lang": lang})
        assert refused.status_code == 403
        assert refused.json()["error"] == words(lang)["error.record_closed"]
        english = client.get(path, headers={"X-Seat-Token": token}).json()["error"]
        assert english == words("en")["error.record_closed"]
        assert english.startswith("a table on the network gives its record once the game is over")
