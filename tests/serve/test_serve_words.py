"""The page's own words come from data, one file per language shipped in the package: every
language has every key with the same slots, the page's HTML holds no words of its own, every
key the page's script asks for is there, and the server gives each language's words (and
cards' names) on request."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path

import pytest
from babel import Locale

from century.serve.words import PLURAL, SLOT, counted, languages, plurals, words

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from helpers import bundled_rulesets
from helpers.serve import api

STATIC = files("century.serve").joinpath("static")
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


def test_the_bundled_games_languages_each_have_the_pages_words():
    spoken = {lang for ruleset in bundled_rulesets().values() for lang in ruleset.languages}
    assert spoken <= set(languages()), spoken - set(languages())
    assert languages()[0] == "en"


def sentences(texts: dict[str, str]) -> dict[str, list[str]]:
    """Each sentence by key with its forms: one, or one per plural category (``KEY.one``,
    ``KEY.other``, ... under ``KEY``)."""
    found: dict[str, list[str]] = {}
    for key, text in texts.items():
        plural = PLURAL.fullmatch(key)
        found.setdefault(plural[1] if plural else key, []).append(text)
    return found


def gaps(english: dict[str, str], other: dict[str, str]) -> list[str]:
    """What a language's words lack against English's: sentences missing or extra, forms
    empty or with other slots (a language's plural forms are its own categories')."""
    ours, theirs = sentences(english), sentences(other)
    found = [f"missing {key}" for key in sorted(set(ours) - set(theirs))]
    found += [f"extra {key}" for key in sorted(set(theirs) - set(ours))]
    for key, (text, *_) in ours.items():
        for form in theirs.get(key, []):
            if not form.strip():
                found.append(f"empty {key}")
            elif set(SLOT.findall(form)) != set(SLOT.findall(text)):
                found.append(f"slots of {key}")
    return found


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_language_has_every_key_with_the_same_slots(lang):
    assert gaps(words("en"), words(lang)) == []


REFUSALS = {"TableError": 2, "DealError": 1}
"""The server's refusals that carry words: the argument that names them (``error.KEY``)."""


def named_refusals() -> dict[str, set[str]]:
    """The refusals' words the server's code names, by key (``error.KEY``): the slots it
    fills. A bot spec's refusal is named by the registry's reason (``bot_REASON``)."""
    import century.bots.registry
    import century.serve

    found: dict[str, set[str]] = {}
    sources = sorted(Path(century.serve.__file__).parent.glob("*.py"))
    for source in [*sources, Path(century.bots.registry.__file__)]:
        for call in ast.walk(ast.parse(source.read_text("utf-8"))):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            slots = {keyword.arg for keyword in call.keywords if keyword.arg}
            at = REFUSALS.get(call.func.id)
            if at is not None and len(call.args) > at:
                named = call.args[at]
                if isinstance(named, ast.Constant) and isinstance(named.value, str):
                    found[f"error.{named.value}"] = slots
            elif call.func.id == "SpecError":
                reason = call.args[1]
                assert isinstance(reason, ast.Constant), ast.unparse(call)
                found[f"error.bot_{reason.value}"] = {"spec", "choices"}
    return found


def test_every_refusal_the_server_names_has_english_words_with_its_slots():
    english = words("en")
    named = named_refusals()
    assert {"error.one_person", "error.deal_card", "error.bot_unknown", "error.host"} <= set(named)
    missing = sorted(key for key in named if key not in english)
    assert missing == []
    slots = {key: set(SLOT.findall(english[key])) for key in named}
    assert {key: found for key, found in named.items() if slots[key] != found} == {}


def test_a_missing_key_or_slot_is_found():
    english = words("en")
    cut = {key: text for key, text in english.items() if key != "actions.rest"}
    cut["hand.pass"] = "Pass the screen."
    cut["seats.cards.other"] = "some cards"
    expected = ["missing actions.rest", "slots of hand.pass", "slots of seats.cards"]
    assert gaps(english, cut) == expected


@pytest.mark.parametrize("lang", languages())
def test_every_counted_sentence_has_a_form_for_each_plural_category(lang):
    categories = {"other", *Locale.parse(lang).plural_form.tags}  # CLDR, through Babel
    counted_sentences = plurals(lang)
    assert set(counted_sentences) == set(plurals("en")) and counted_sentences
    assert all(found == categories for found in counted_sentences.values()), counted_sentences


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to ask Intl")
def test_the_browsers_plural_categories_are_the_words_categories():
    # the page picks a form with Intl.PluralRules: its categories are those the words give
    script = (
        "for (const l of process.argv.slice(1)) console.log(l, "
        "new Intl.PluralRules(l).resolvedOptions().pluralCategories.sort().join(' '))"
    )
    done = subprocess.run(
        ["node", "-e", script, *languages()], capture_output=True, text=True, check=True
    )
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    for lang in languages():
        assert set(said[lang].split()) == {c for f in plurals(lang).values() for c in f}, lang


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["0 cards", "1 card", "2 cards", "1000000 cards"]),
        ("de", ["0 Karten", "1 Karte", "2 Karten", "1000000 Karten"]),
        ("fr", ["0 carte", "1 carte", "2 cartes", "1000000 de cartes"]),
    ],
)
def test_a_hand_of_n_cards_is_said_in_each_languages_plural(lang, said):
    assert [counted(lang, "seats.cards", n) for n in (0, 1, 2, 1_000_000)] == said


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
    asked = set(re.findall(r'(?<!querySelector\()(?<!sayCount\()"([a-z]+(?:\.[a-z_]+)+)"', script))
    counts = set(re.findall(r'sayCount\("([a-z]+(?:\.[a-z_]+)+)"', script))
    assert counts and counts <= set(plurals("en")), counts - set(plurals("en"))
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
    with api(language="de") as made:
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
    # read in other languages, counted in theirs: zero is "one" in French (CLDR)
    said = {
        lang: client.get(f"{path}?lang={lang}", headers=headers).json()["log"][0]["text"]
        for lang in ("en", "fr")
    }
    assert said == {
        "en": "Seat 1 (person) rests, taking 0 played cards back into the hand.",
        "fr": "Place 1 (personne) se repose et reprend en main 0 carte jouée.",
    }
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
