"""The page's own words come from data, one file per language shipped in the package: every
language has every key with the same slots, the page's HTML holds no words of its own, every
key the page's script asks for is there, and the server gives each language's words (and
cards' names) on request."""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser
from importlib.resources import files

import pytest

from century.serve.words import SLOT, languages, words

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import bundled_rulesets

STATIC = files("century.serve").joinpath("static")
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


def test_the_bundled_games_languages_each_have_the_pages_words():
    spoken = {lang for ruleset in bundled_rulesets().values() for lang in ruleset.languages}
    assert spoken <= set(languages()), spoken - set(languages())
    assert languages()[0] == "en"


def gaps(english: dict[str, str], other: dict[str, str]) -> list[str]:
    """What a language's words lack against English's: keys missing or extra, sentences
    empty or with other slots."""
    found = [f"missing {key}" for key in sorted(set(english) - set(other))]
    found += [f"extra {key}" for key in sorted(set(other) - set(english))]
    for key, text in english.items():
        if key in other and not other[key].strip():
            found.append(f"empty {key}")
        elif key in other and set(SLOT.findall(other[key])) != set(SLOT.findall(text)):
            found.append(f"slots of {key}")
    return found


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_language_has_every_key_with_the_same_slots(lang):
    assert gaps(words("en"), words(lang)) == []


def test_a_missing_key_or_slot_is_found():
    english = words("en")
    cut = {key: text for key, text in english.items() if key != "actions.rest"}
    cut["hand.pass"] = "Pass the screen."
    assert gaps(english, cut) == ["missing actions.rest", "slots of hand.pass"]


class _Text(HTMLParser):
    """The words an HTML file holds itself, and the keys it asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.keys: set[str] = set()
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("data-say", "data-say-label", "data-say-empty") and value:
                self.keys.add(value)
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.words.append(f"{name}={value}")

    def handle_data(self, data):
        if data.strip():
            self.words.append(data.strip())


def test_the_page_holds_no_words_of_its_own():
    found = _Text()
    found.feed(STATIC.joinpath("index.html").read_text("utf-8"))
    assert found.words == []
    assert found.keys and found.keys <= set(words("en")), found.keys - set(words("en"))


def test_every_key_the_script_asks_for_is_in_the_words():
    script = STATIC.joinpath("table.js").read_text("utf-8")
    # every key-like literal but a selector
    asked = set(re.findall(r'(?<!querySelector\()"([a-z]+(?:\.[a-z_]+)+)"', script))
    verbs = ("play", "acquire", "discard")
    asked |= {f"box.{verb}{end}" for verb in verbs for end in ("", "_hint")}
    assert len(asked) > 60
    assert asked <= set(words("en")), sorted(asked - set(words("en")))
    # nor any sentence of its own: a literal of two words would be a sentence the page
    # writes in one language only
    literals = re.findall(r'"([^"\\n]*)"|`([^`\\n]*)`', script)
    sentences = [a or b for a, b in literals if re.search(r"[A-Za-z]{3,} [a-z]{3,}", a or b)]
    sentences.remove("use strict")
    assert sentences == []


@pytest.fixture
def client():
    from century.serve.app import Config, make_app

    rulesets = bundled_rulesets()
    config = Config(games={"spice-road": rulesets["spice-road"]}, port=8000, language="de")
    with TestClient(make_app(config), base_url="http://127.0.0.1:8000") as made:
        made.headers["Origin"] = "http://127.0.0.1:8000"
        yield made


def test_the_server_gives_each_languages_words_and_a_tables_language(client):
    default = client.get("/api/words").json()
    assert default["lang"] == "de" and default["words"] == words("de")
    assert [entry["code"] for entry in default["languages"]] == list(languages())
    french = client.get("/api/words?lang=fr").json()
    assert french["words"] == words("fr")
    refused = client.get("/api/words?lang=xx")
    assert refused.status_code == 400 and "no such language" in refused.json()["error"]
    made = client.post("/api/tables", json={"game": "spice-road", "seats": ["human", "greedy"]})
    table = made.json()
    token = table["links"][0]["token"]
    snap = client.get(f"/api/tables/{table['table']}", headers={"X-Seat-Token": token}).json()
    assert snap["lang"] == "de"


@pytest.mark.slow  # draws the cards in two languages
def test_the_cards_names_follow_the_language_asked_for(client):
    names = {
        lang: client.get(f"/api/games/spice-road/cards?lang={lang}").json()["coins"][0]["name"]
        for lang in ("en", "de")
    }
    assert names["en"] != names["de"], names


def test_the_move_log_is_written_in_the_tables_language(client):
    made = client.post(
        "/api/tables", json={"game": "spice-road", "seats": ["human", "human"], "seed": 3}
    ).json()
    headers = {"X-Seat-Token": made["links"][0]["token"]}
    path = f"/api/tables/{made['table']}"
    moved = client.post(f"{path}/move", json={"move": "rest", "version": 0}, headers=headers)
    assert moved.status_code == 200, moved.text
    play = next(m for m in moved.json()["moves"] if m["verb"] == "play")
    way = play["options"][0]["move"]
    moved = client.post(f"{path}/move", json={"move": way, "version": 1}, headers=headers)
    log = [entry["text"] for entry in moved.json()["log"]]
    assert (
        log[0]
        == "Platz 1 (Mensch) ruht sich aus und nimmt 0 ausgespielte Karten zurück auf die Hand."
    )
    assert log[1].startswith("Platz 2 (Mensch) spielt die "), log[1]
    assert ": Karawane " in log[1] and " wird zu " in log[1], log[1]
