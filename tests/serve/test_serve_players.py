"""The players of `century serve`'s tables: names given on the form or taken with a seat, the
lobby of open tables on the network (free seats and watch links), the end of a game told by
category with the tie-break, and the rematch (the same seats, a new seed, turned on request)."""

from __future__ import annotations

import pytest

from helpers import bundled_rulesets
from helpers.serve import api, post, snapshot

pytest.importorskip("starlette")
pytest.importorskip("httpx")

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


def finish(client, table_id, token, seed):
    """Play a hot-seat table to its end with the greedy bot deciding for every seat."""
    from century.bots.registry import GreedyBot
    from century.engine import load_engine

    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    state = engine.replay(
        client.get(f"/api/tables/{table_id}/record", headers={"X-Seat-Token": token}).json()
    )
    bot = GreedyBot(engine, ruleset, seed)
    for _ in range(400):
        if state.is_over():
            break
        move = bot.choose(state)
        state.play(move)
        assert (
            post(client, f"/api/tables/{table_id}/move", {"move": move}, token).status_code == 200
        )
    assert state.is_over()
    return state


def test_names_from_the_form_go_into_labels_and_the_log():
    with api() as client:
        made = post(
            client,
            "/api/tables",
            {"game": "spice-road", "seats": ["human", "greedy"], "names": ["  Ann  ", "Bo"]},
        ).json()
        table_id, token = made["table"], made["links"][0]["token"]
        now = snapshot(client, table_id, token)
        assert now["names"] == ["Ann", ""]  # a bot's seat takes no name
        assert now["seats"][0]["label"] == "Ann (seat 1)"
        post(client, f"/api/tables/{table_id}/move", {"move": "rest"}, token)
        assert snapshot(client, table_id, token)["log"][0]["text"].startswith("Ann (seat 1) rests")
        for bad in ("", "x" * 25, 7, "a\x00b"):
            answer = post(client, f"/api/tables/{table_id}/name", {"name": bad}, token)
            assert answer.status_code == 400, bad
        refused = post(
            client, "/api/tables", {"game": "spice-road", "seats": ["human"] * 2, "names": ["A"]}
        )
        assert refused.status_code == 400 and "one entry per seat" in refused.json()["error"]


def test_the_lobby_lists_free_seats_until_taken_and_watch_links():
    with api(network=True) as client:
        made = post(
            client, "/api/tables", {"game": "spice-road", "seats": ["human"] * 3, "network": True}
        ).json()
        table_id = made["table"]
        by_seats = {tuple(link["seats"]): link["token"] for link in made["links"]}

        def open_links():
            (listed,) = client.get("/api/tables").json()["tables"]
            return {tuple(link["seats"]) for link in listed["links"]}

        assert open_links() == {(0,), (1,), (2,), ()}
        answer = post(client, f"/api/tables/{table_id}/name", {"name": "Ann"}, by_seats[(0,)])
        assert answer.status_code == 200 and answer.json()["seats"][0]["label"] == "Ann (seat 1)"
        assert open_links() == {(1,), (2,), ()}  # seat 1 is taken
        # a seat names only itself; the watch link names nobody
        other = post(
            client, f"/api/tables/{table_id}/name", {"name": "Eve", "seat": 0}, by_seats[(1,)]
        )
        assert other.status_code == 400
        watch = post(client, f"/api/tables/{table_id}/name", {"name": "Eve"}, by_seats[()])
        assert watch.status_code == 403
        assert snapshot(client, table_id, by_seats[()])["names"] == ["Ann", "", ""]


@pytest.mark.slow
def test_the_end_by_category_and_a_rematch_turned_by_one_seat():
    with api() as client:
        made = post(
            client,
            "/api/tables",
            {
                "game": "spice-road",
                "seats": ["human", "human", "human"],
                "names": ["Ann", "Bo", "Cy"],
                "seed": 8,
            },
        ).json()
        table_id, token = made["table"], made["links"][0]["token"]
        refused = post(client, f"/api/tables/{table_id}/rematch", {}, token)
        assert refused.status_code == 409 and "over" in refused.json()["error"]
        state = finish(client, table_id, token, 8)
        end = snapshot(client, table_id, token)
        assert end["scores"] == state.scores()
        for seat, part in enumerate(end["breakdown"]):
            total = (
                part["point_card_points"]
                + sum(c["count"] * c["value"] for c in part["coins"])
                + sum(c["count"] * c["each"] for c in part["cubes"])
            )
            assert total == part["total"] == state.scores()[seat]
            assert "".join(c["code"] * c["count"] for c in part["cubes"]) == state.cubes(seat)
        scores = state.scores()
        tied = scores.count(max(scores)) > 1
        assert bool(end["tie_break"]) == tied
        # the rematch: the same players, turned by one (seat 2 starts), a new game
        answer = post(client, f"/api/tables/{table_id}/rematch", {"rotate": True}, token)
        assert answer.status_code == 201, answer.text
        again = answer.json()
        fresh = snapshot(client, again["table"], again["token"])
        assert fresh["names"] == ["Bo", "Cy", "Ann"]
        assert fresh["seats"][0]["label"] == "Bo (seat 1)"
        assert fresh["log_size"] == 0 and not fresh["over"]
        # the finished table points every page at it; asking again gives the same rematch
        assert snapshot(client, table_id, token)["rematch"] == again
        assert post(client, f"/api/tables/{table_id}/rematch", {}, token).json() == again


def test_a_tie_says_how_it_was_broken():
    from century.bots.registry import GreedyBot
    from century.engine import load_engine
    from century.serve.tables import Setup, new_table

    ruleset = bundled_rulesets()["spice-road"]
    engine = load_engine(ruleset)
    setup = Setup(ruleset.id, ("human", "human"), 1, names=("Ann", "Bo"))
    made = new_table(ruleset, engine, setup, "en")
    bot = GreedyBot(engine, ruleset, 1)  # seed 1: both end on the same score
    while not made.state.is_over():
        made.apply(bot.choose(made.state))
    scores, winners = made.state.scores(), made.state.winners()
    assert scores[0] == scores[1] and len(winners) == 1  # the game's tie-break decided
    (seats,) = made.tokens.values()
    said = made.snapshot(seats)["tie_break"]
    assert said == (
        f"Ann (seat 1) and Bo (seat 2) tied on {scores[0]} points; the tie goes to "
        f"{made.label(winners[0])}, whose last turn came latest."
    )


@pytest.mark.slow
def test_a_deal_starts_the_table_from_a_chosen_position_and_replays(tmp_path, run):
    import json

    with api() as client:
        made = post(
            client,
            "/api/tables",
            {
                "game": "spice-road",
                "seats": ["human", "human"],
                "seed": 3,
                "deal": "hand.1=up3, row.2=+rr",
            },
        ).json()
        table_id, token = made["table"], made["links"][0]["token"]
        now = snapshot(client, table_id, token)
        assert "up3" in now["seats"][0]["hand"] and now["merchant_row"][1]["id"] == "+rr"
        assert "play up3" in {m["key"] for m in now["moves"]}
        post(client, f"/api/tables/{table_id}/move", {"move": "play up3 yyy"}, token)
        record = client.get(f"/api/tables/{table_id}/record", headers={"X-Seat-Token": token})
        saved = tmp_path / "dealt.json"
        saved.write_text(record.text)
        assert json.loads(record.text)["start"]["seats"][0]["hand"] == ["+yy", "up2", "up3"]
        for deal, says in (
            ("hand.3=up3", "seats are 1 to 2"),
            ("row.1=nothing", "no merchant card 'nothing'"),
            ("pocket.1=up3", "write hand.N=CARD"),
        ):
            answer = post(
                client,
                "/api/tables",
                {"game": "spice-road", "seats": ["human", "human"], "deal": deal},
            )
            assert answer.status_code == 400 and says in answer.json()["error"], answer.text
    result = run("replay", str(saved))
    assert result.exit_code == 0, result.output
    assert "seat 1 (human): caravan RRR" in result.output  # the dealt up3 played on YYY
    result = run("serve", "--deal", "hand=up3")
    assert result.exit_code == 2 and "--deal: 'hand=up3': write hand.N=CARD" in result.stderr
