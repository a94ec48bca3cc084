"""A proofreader's checks, run on the text pypdf extracts from every rule sheet and every
print-and-play kit of every bundled game, in both languages and on both papers.

Each check is one class of error a proofreader found: a hyphenation fragment of fewer than
three letters, a line break inside "card 1", "5. Karte", "2 ×" or a group of cubes, a count
whose noun does not agree with it, "cube" where the game has its own word for its pieces,
and seats used but never defined. The fourth proof added: a pronoun with nothing to stand
for, one word for two things ("Vorrat"/"supply"), a worked tie that the tie-break does not
explain, column heads in the singular over counts, a card named without its article, counts in
digits beside counts in words, a sum broken across lines, a word hyphenated because a number
is glued to it, a paragraph ending in one word, hyphenated display text, a label wider than
its box, row numbers not centred under their cards, a narrow list justified with wide gaps,
points on the reference card that read like exponents, and headings squeezed against the
block above them. The rule sheets and the kits share their prose (the rule sheets' data), so both
are read here.
"""

from __future__ import annotations

import functools
import io
import itertools
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from pypdf import PdfReader

from century import prose
from century.model.ruleset import Ruleset
from century.model.text import form
from century.targets import cards, sheets

from helpers import bundled_rulesets

pytestmark = pytest.mark.slow

PAPERS = ("a4", "letter")
ARROWS = ("→", "⇓")
ONE = {
    "en": ("1", "one", "a", "an"),
    "de": ("1", "eins", "ein", "eine", "einen"),
    "fr": ("1", "un", "une"),
}
"""The ways to say one before a noun."""
SUBSTITUTES = {"en": r"\s+or\s+beads", "de": r"\s+oder\s+Perlen", "fr": r"\s+ou\s+des\s+perles"}
"""Real cubes are named once, as a stand-in for the tokens (kit_need)."""
OLD_ERRORS = {
    "de": (
        "Was darüber hinausgeht",
        "welchen, entscheidest",
        "× Gewürzkarte",
        "× Umwandlungskarte",
        "Start-Gewürze",
        "-mal an",
        "1 Gewürz",
        "1 Kristall",
        "miss um wie viel",
        "muss jeder Würfel",
        "vom Stapel darüber nehmen",
        "und führe sie aus",
        "ausspielen und ausführen",
        "alle Stapel Münzen",
        "der später am Zug ist",
        "ihren eigenen Vorrat",
    ),
    "en": (
        "This is checked at the end",
        "× Spice card",
        "× Upgrade card",
        "2 times",
        "2 cubes",
        "carry it out",
        "carry out a card",
        "The top rank (",
        "100 %",
        "still take their turn",
        "take a coin from the pile",
        "from your hand and use it.",
        "by seat, and",
        "tinted right up to the cut",
        "The end is triggered",
        "the round is finished",
        "being later in turn order",
        "their own supply",
    ),
    "fr": (),
}
"""Wrong text the proofreader found, which must not come back."""


@dataclass(frozen=True)
class Printed:
    """One PDF's text, as pypdf extracts it (pages joined by line breaks)."""

    what: str
    ruleset: Ruleset
    lang: str
    text: str
    sheet: bool
    pdf: bytes = b""

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def extracted(pdf: bytes, pages: list[int] | None = None) -> str:
    """The text of the PDF's `pages` (all by default); a soft hyphen inside a line (how pypdf
    reads some hyphen glyphs) is dropped, one at the end of a line is a hyphen there."""
    reader = PdfReader(io.BytesIO(pdf))
    chosen = range(len(reader.pages)) if pages is None else pages
    text = "\n".join(reader.pages[i].extract_text() for i in chosen)
    return re.sub("\u00ad(?!\n)", "", text).replace("\u00ad", "-")


def kit_pages(ruleset: Ruleset, options: cards.CardOptions) -> list[int]:
    """The pages of a kit with sentences on them: the cover and guide, the mats and the fronts
    of the reference cards (the other card pages show titles, cubes and ids)."""
    pages = cards.document(ruleset, options)["pages"]
    return [
        i
        for i, page in enumerate(pages)
        if page["type"] in ("cover", "guide", "mats")
        or (
            page["type"] == "cards"
            and any(c["face"]["kind"] == "reference" for c in page["fronts"])
        )
    ]


@pytest.fixture(scope="module")
def printed() -> list[Printed]:
    """Every rule sheet and every kit of every bundled game, per language and paper."""
    found = []
    for game, ruleset in sorted(bundled_rulesets().items()):
        for lang in ruleset.languages:
            for paper in PAPERS:
                sheet = sheets.sheet_pdf(ruleset, lang, paper)
                options = cards.CardOptions(paper=paper, lang=lang)
                kit = extracted(cards.render(ruleset, options), kit_pages(ruleset, options))
                name = f"rules {game} {lang} {paper}"
                found.append(Printed(name, ruleset, lang, extracted(sheet), True, sheet))
                found.append(Printed(f"kit {game} {lang} {paper}", ruleset, lang, kit, False))
    return found


def is_prose(line: str) -> bool:
    """A line of running text (not a table row, a card face or a label)."""
    return len(re.findall(r"[^\W\d_]{3,}", line)) >= 3


# -- hyphenation ------------------------------------------------------------------------------


def short_fragments(doc: Printed) -> Iterator[str]:
    """Words broken at a line end with fewer than three letters on either line."""
    lines = doc.lines
    for line, after in itertools.pairwise(lines):
        if not line.rstrip().endswith("-") or line.rstrip().endswith(" -"):
            continue
        before = re.search(r"([^\W\d_]*)-$", line.rstrip())
        head = before.group(1) if before else ""
        tail = re.match(r"\s*([^\W\d_]*)", after)
        rest = tail.group(1) if tail else ""
        if not rest:  # a compound's own hyphen before a number or a symbol
            continue
        if len(head) < 3 or len(rest) < 3:
            yield f"{line.rstrip()[-20:]}|{after[:20]}"


@pytest.mark.slow
def test_no_hyphenation_leaves_fewer_than_three_letters_on_a_line(printed):
    found = {doc.what: list(short_fragments(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    # the check itself sees a broken word: the sheets do hyphenate
    assert any(re.search(r"[^\W\d_]{3}-\n[^\W\d_]{3}", doc.text) for doc in printed)


def test_short_fragments_are_found_where_they_are():
    doc = Printed(
        "example", bundled_rulesets()["spice-road"], "de", "so viele Go-\nlemkarten", True
    )
    assert list(short_fragments(doc)) == ["so viele Go-|lemkarten"]
    doc = Printed("example", doc.ruleset, "de", "hebst du ein Gewürz 2-\nmal an", True)
    assert list(short_fragments(doc)) == ["bst du ein Gewürz 2-|mal an"]


# -- what a line never breaks ----------------------------------------------------------------


def bound_pairs(ruleset: Ruleset, lang: str) -> set[tuple[str, str]]:
    """The word pairs the prose joins with a no-break space ("card 1", "5. Karte", "2 ×")."""
    pairs = set()
    for text in prose.prose_texts(ruleset, lang).values():
        plain = re.sub(f"{prose.MARK_OPEN}[^{prose.MARK_CLOSE}]*{prose.MARK_CLOSE}", " ", text)
        for a, b in re.findall(r"(\S+)\u00a0(?=(\S+))", plain):
            pairs.add((a.lstrip("(").rstrip(",;:"), b.rstrip(",;:.)")))
    return {(a, b) for a, b in pairs if a and b}


def test_counts_and_numbers_stay_with_their_words_in_the_prose(bundled):
    for ruleset in bundled.rulesets.values():
        for lang in ruleset.languages:
            for key, text in prose.prose_texts(ruleset, lang).items():
                # a number and its word, a word and its number, "5. Karte", "2 ×", "100 %"
                assert not re.search(r"\d\.? (?=[^\W\d_]|[×%])", text), (ruleset.id, key, text)
                assert not re.search(r"[^\W\d_] \d", text), (ruleset.id, key, text)
    pairs = bound_pairs(bundled.rulesets["spice-road"], "de")
    assert {("Karte", "1"), ("5.", "Punktekarte"), ("Platz", "2")} <= pairs


@pytest.mark.slow
def test_no_line_breaks_inside_a_bound_pair(printed):
    pairs = {(doc.ruleset.id, doc.lang): bound_pairs(doc.ruleset, doc.lang) for doc in printed}
    broken = {}
    for doc in printed:
        text = doc.text.replace("\u00a0", " ")
        bad = [
            f"{a}|{b}"
            for a, b in pairs[doc.ruleset.id, doc.lang]
            if re.search(rf"(?<!\S){re.escape(a)}[ \t]*\n[ \t]*{re.escape(b)}(?![^\s,;:.)])", text)
        ]
        if bad:
            broken[doc.what] = bad
    assert broken == {}


def split_cube_groups(doc: Printed) -> Iterator[str]:
    """Running-text lines that end inside a group of cubes or a trade or upgrade chain."""
    codes = set(doc.ruleset.codes)
    lines = doc.lines
    for line, after in itertools.pairwise(lines):
        tokens, next_tokens = line.split(), after.split()
        if not tokens or not next_tokens or not is_prose(line):
            continue
        ends_in_group = tokens[-1] in codes or tokens[-1] in ARROWS
        starts_in_group = next_tokens[0].rstrip(".,;:)") in codes or next_tokens[0] in ARROWS
        if ends_in_group and starts_in_group:
            yield f"{line[-25:]}|{after[:15]}"


def test_no_line_breaks_inside_a_group_of_cubes(printed):
    found = {doc.what: list(split_cube_groups(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    doc = Printed(
        "x",
        bundled_rulesets()["spice-road"],
        "de",
        "oder zwei Würfel je einmal, Y Y → R\nR .",
        True,
    )
    assert list(split_cube_groups(doc))  # the check sees the split the proofreader saw


# -- words ------------------------------------------------------------------------------------


def disagreements(doc: Printed) -> Iterator[str]:
    """A count whose noun does not agree with it ("5 Gewürzkarte", "1 cards")."""
    words = prose.prose_texts(doc.ruleset, doc.lang)["numbers"].split(", ")
    terms = {k: v[doc.lang] for k, v in doc.ruleset.terms.items() if doc.lang in v}
    one = "|".join(map(re.escape, ONE[doc.lang]))
    many = "|".join([r"\d+"] + [re.escape(w) for w in words[2:]])
    text = doc.text.replace("\u00a0", " ")
    for key, singular in terms.items():
        plural = terms.get(key + "s")
        if plural is None or plural == singular:
            continue
        # "5 spice cards" counts cards: a longer term or name that starts with this one is
        # not it (French "pièce d’or", "pièces d’argent")
        names = [
            *terms.values(),
            *(
                f(c.name[doc.lang])
                for c in doc.ruleset.coins
                for f in (str, lambda name: form_of(doc, name, 2))
            ),
        ]
        longer = [
            t[len(w) + 1 :] for w in (singular, plural) for t in names if t.startswith(w + " ")
        ]
        within = "".join(rf"(?!\s+{re.escape(rest)})" for rest in longer)
        for found in re.finditer(rf"\b({many})\s+{re.escape(singular)}\b{within}", text, re.I):
            if found.group(1) != "1":
                yield found.group(0)
        for found in re.finditer(rf"\b({one})\s+{re.escape(plural)}\b{within}", text, re.I):
            yield found.group(0)


def form_of(doc: Printed, word: str, count: int) -> str:
    """`word` as the game's forms give it for `count` (the word itself when it has none)."""
    forms = doc.ruleset.forms.get(doc.lang, {}).get(word)
    return word if forms is None else form(forms, doc.lang, count)


@pytest.mark.slow
def test_plurals_agree_with_their_counts(printed):
    found = {doc.what: list(disagreements(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", "5 × 5 Gewürzkarte, 1 Gewürze", True)
    assert list(disagreements(doc)) == ["5 Gewürzkarte", "1 Gewürze"]


def test_the_pieces_have_the_games_own_word(printed):
    for doc in printed:
        for found in re.finditer(r"\b(Würfel|cubes?)\b", doc.text, re.I):
            after = doc.text[found.end() : found.end() + 20]
            assert re.match(SUBSTITUTES[doc.lang], after), (
                doc.what,
                doc.text[found.start() - 60 : found.end() + 20],
            )
    golem = [doc.text for doc in printed if doc.ruleset.id == "golem"]
    assert all("Kristall" in t or "crystal" in t or "cristal" in t for t in golem)


def test_seats_are_defined_where_the_sheet_uses_them(printed):
    for doc in printed:
        if not doc.sheet:
            continue
        text = prose.prose_texts(doc.ruleset, doc.lang)
        seat = text["lbl_seat"]
        definition = re.sub(r"\s+", "", text["setup_caravan"])
        assert re.search(rf"{seat}\s+2", doc.text, re.I)  # the sheet speaks of seats
        assert definition in re.sub(r"[\s\-]+", "", doc.text), doc.what
        assert re.search(
            rf"{seat.lower()}\s1\b", text["setup_caravan"].replace("\u00a0", " ").lower()
        )


def test_the_errors_found_before_stay_fixed(printed):
    for doc in printed:
        flat = re.sub(r"-\n", "", doc.text).replace("\u00a0", " ").replace("\n", " ")
        assert [old for old in OLD_ERRORS[doc.lang] if old in flat] == [], doc.what


# -- the fourth proof: words -----------------------------------------------------------------

SUPPLY = {"de": "Vorrat", "en": "supply", "fr": "réserve"}
"""The general supply's one name: never the caravan, never "your own" supply."""
OWN = {"de": r"\beigene[nmr]?\b", "en": r"\bown\b", "fr": r"\bpropres?\b"}
TIE = {"de": "Gleichstand", "en": "tie", "fr": "égalité"}
PRONOUNS = {"de": ("ihnen",), "en": ("them",), "fr": ("elles", "ils")}
"""Pronouns that stand for the players of a tie, and what they may stand for."""
ANTECEDENTS = {
    "de": ("Beteiligten", "Personen", "Plätze"),
    "en": ("players", "seats"),
    "fr": ("joueurs", "places"),
}
TIE_REASON = {
    "de": {"latest_turn": "später", "earliest_turn": "früher"},
    "en": {"latest_turn": "later", "earliest_turn": "earlier"},
    "fr": {"latest_turn": "tard", "earliest_turn": "tôt"},
}
TIE_RULE = {
    "de": {"latest_turn": "zuletzt", "earliest_turn": "zuerst"},
    "en": {"latest_turn": "latest", "earliest_turn": "earliest"},
    "fr": {"latest_turn": "le plus tard", "earliest_turn": "le plus tôt"},
}
CHANGE_WORDS = {
    "de": ("hinzugefügt", "entfernt", "geändert"),
    "en": ("added", "removed", "changed"),
    "fr": ("ajoutées?", "retirées?", "modifiées?"),
}
"""The words of the box of differences that follow a count of cards."""


def flat(doc: Printed) -> str:
    """The text as one line: words broken at a line end joined, no-break spaces plain."""
    return re.sub(r"-\n(?=[^\W\d_])", "", doc.text).replace("\u00a0", " ").replace("\n", " ")


def sentences(doc: Printed) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", flat(doc)) if s.strip()]


def supply_misused(doc: Printed) -> Iterator[str]:
    """Sentences that give the general supply's name to a player's own pieces."""
    caravan = doc.ruleset.terms["caravan"][doc.lang]
    for sentence in sentences(doc):
        if SUPPLY[doc.lang] not in sentence:
            continue
        if caravan in sentence or re.search(OWN[doc.lang], sentence):
            yield sentence


def test_the_supply_is_only_the_general_supply(printed):
    found = {doc.what: list(supply_misused(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    assert all(SUPPLY[doc.lang] in doc.text for doc in printed if doc.sheet)
    old = "Zu Beginn erhält jede Person die Gewürze in ihre Karawane: ihren eigenen Vorrat."
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert list(supply_misused(doc)) == [old]


def lone_pronouns(doc: Printed) -> Iterator[str]:
    """Sentences with a pronoun for tied players and no players named before it."""
    for sentence in sentences(doc):
        if not re.search(rf"\b{TIE[doc.lang]}", sentence):
            continue
        for pronoun in PRONOUNS[doc.lang]:
            at = re.search(rf"\b{pronoun}\b", sentence)
            if at and not any(a in sentence[: at.start()] for a in ANTECEDENTS[doc.lang]):
                yield sentence


def test_pronouns_have_something_to_stand_for(printed):
    found = {doc.what: list(lone_pronouns(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    old = "Bei Gleichstand gewinnt, wer von ihnen in der Zugreihenfolge zuletzt am Zug war."
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert list(lone_pronouns(doc)) == [old]


def test_the_tie_rule_and_the_worked_tie_say_the_same(printed):
    for doc in printed:
        if not doc.sheet or doc.ruleset.tie_break == "shared":
            continue
        score = prose.prose_context(doc.ruleset, doc.lang)["ex"]["score"]
        rule = TIE_RULE[doc.lang][doc.ruleset.tie_break]
        reason = TIE_REASON[doc.lang][doc.ruleset.tie_break]
        said = [re.sub(r"\s+", " ", s) for s in sentences(doc)]
        tie_rule = [s for s in said if re.search(rf"\b{TIE[doc.lang]}", s) and rule in s]
        assert len(tie_rule) == 1, (doc.what, tie_rule)
        assert any(a in tie_rule[0] for a in ANTECEDENTS[doc.lang]), tie_rule
        worked = [s for s in said if re.search(rf"\b{reason}\b", s) and f" {score['other']} " in s]
        assert len(worked) == 1, (doc.what, worked)
        assert re.findall(r"\d+", worked[0]) == [str(score["other"]), str(score["winner"])], worked


def test_column_heads_over_counts_are_plural(printed):
    for doc in printed:
        if not doc.sheet or not doc.ruleset.coins:
            continue
        seat = prose.prose_texts(doc.ruleset, doc.lang)["lbl_seat"]
        (head,) = [line for line in doc.lines if re.search(rf"{seat}\s1 .*{seat}\s2", line)]
        for coin in doc.ruleset.coins:
            name = coin.name[doc.lang]
            plural = form_of(doc, name, 2)
            if plural != name:  # the plural from the game's forms, capitalised as a head
                assert plural[:1].upper() + plural[1:] in head, (doc.what, head)
                continue
            assert name in head, (doc.what, head)  # the plural starts with the singular
            assert not re.search(rf"{re.escape(name)}(?![^\W\d_])", head), (doc.what, head)


def bare_card_nouns(doc: Printed) -> Iterator[str]:
    """A card named in a list or after a colon without an article or a count."""
    link = {"de": r"(?::|\bund)", "en": r"(?::|\band)", "fr": r"(?::|\bet)"}[doc.lang]
    for key, names in doc.ruleset.terms.items():
        if key.endswith("_card") and doc.lang in names:
            for found in re.finditer(rf"{link} {re.escape(names[doc.lang])}\b", flat(doc)):
                yield found.group(0)


def test_cards_in_a_list_have_their_article(printed):
    found = {doc.what: list(bare_card_nouns(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    old = "Alle nehmen ihre Startkarten auf die Hand: Gewürzkarte Y Y und Umwandlungskarte ↑ ↑."
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert list(bare_card_nouns(doc)) == [": Gewürzkarte", "und Umwandlungskarte"]


def digit_counts_of_changes(text: str, lang: str) -> list[str]:
    words = "|".join(CHANGE_WORDS[lang])
    return re.findall(rf"\b\d+ (?:{words})\b", text)


def test_counts_in_the_box_of_differences_are_words(printed):
    for doc in printed:
        assert digit_counts_of_changes(flat(doc), doc.lang) == [], doc.what
    assert digit_counts_of_changes("Händlerkarten: 1 entfernt (R ⇓ Y Y Y).", "de") == ["1 entfernt"]


# -- the fourth proof: lines -----------------------------------------------------------------


def broken_sums(doc: Printed) -> list[str]:
    """A sum broken across lines: a line that ends in a sign or starts with one."""
    return re.findall(r"\S* [+=]\n\S*|\S*\n[+=] \S*", doc.text.replace("\u00a0", " "))


def test_sums_never_break(printed):
    found = {doc.what: broken_sums(doc) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    assert any(re.search(r"\d \+ \d+ = \d+", doc.text.replace("\u00a0", " ")) for doc in printed)
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", "(18 + 15 + 12\n+ 11 + 8)", True)
    assert broken_sums(doc) == ["12\n+ 11"]


def hyphenated_before_a_number(doc: Printed) -> list[str]:
    """A word hyphenated at a line end whose second half is glued to a number: the number's
    no-break space left the word no other place to break ("höchs-/tens 10")."""
    return re.findall(r"[^\W\d_]{3,}-\n[^\W\d_]+[ \u00a0]\d+", doc.text)


def test_no_word_is_hyphenated_for_the_number_after_it(printed):
    found = {doc.what: hyphenated_before_a_number(doc) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    doc = Printed(
        "x", bundled_rulesets()["spice-road"], "de", "fasst höchs-\ntens 10 Gewürze", True
    )
    assert hyphenated_before_a_number(doc) == ["höchs-\ntens 10"]


def runts(doc: Printed) -> Iterator[str]:
    """Paragraphs of running text whose last line is one word or the end of one."""
    for line, after in itertools.pairwise(doc.lines):
        if not is_prose(line) or re.search(r"[.:;!?)]\s*$", line):
            continue
        if re.fullmatch(r"\s*[^\W\d_]+[.!?]\s*", after):
            yield f"{line[-25:]}|{after}"


def test_paragraphs_end_on_more_than_one_word(printed):
    found = {doc.what: list(runts(doc)) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    old = "in den Vorrat zurück. Der Vorrat geht nie\naus."
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert list(runts(doc)) == ["rück. Der Vorrat geht nie|aus."]


def test_display_text_is_never_hyphenated(printed):
    for doc in printed:
        if not doc.sheet:
            continue
        text = prose.prose_texts(doc.ruleset, doc.lang)
        first = text["h_changes"] or text["h_components"]
        top = doc.text.split(first.replace("\u00a0", " "))[0]  # the title band
        assert not re.search(r"[^\W\d_]-\n", top), (doc.what, top)
        for key in [k for k in text if k.startswith("h_") and text[k]]:
            heading = text[key].replace("\u00a0", " ")
            assert heading in doc.text.replace("\u00a0", " ") or not heading, (doc.what, key)


# -- the fourth proof: positions on the page -------------------------------------------------

PT = 25.4 / 72
"""Millimetres per PDF point."""


@dataclass(frozen=True)
class Run:
    """A piece of text as drawn: where its baseline starts (mm from the page's bottom left)
    and its size (pt), with the horizontal scale it is drawn at."""

    text: str
    x: float
    y: float
    size: float
    stretch: float


def runs(pdf: bytes) -> list[list[Run]]:
    """The text pieces of every page, as pypdf reports them to a visitor."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        found: list[Run] = []

        def visit(text, cm, tm, font, size, found=found):
            if text.strip():
                x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
                y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
                scale = abs(tm[3] or 1) * abs(cm[3] or 1)
                found.append(Run(text, x * PT, y * PT, size * scale, abs(cm[0] * tm[0])))

        page.extract_text(visitor_text=visit)
        pages.append(found)
    return pages


HEADING_PT = 12
"""The size of the sheet's headings (`h1` in rules.typ)."""
MIN_ABOVE_MM = 5.0
"""The least room between a heading's cap height and the text above it in its column, as
measured from the text alone; two sections stacked in one column have 5.4."""


def space_above_headings(pdf: bytes) -> Iterator[tuple[int, str, float]]:
    """(page, heading, mm between its top and the lowest text above it in its column)."""
    for number, found in enumerate(runs(pdf), start=1):
        heads = [r for r in found if abs(r.size - HEADING_PT) < 0.5]
        for head in sorted(
            {(round(r.y, 1), min(h.x for h in heads if abs(h.y - r.y) < 0.2)) for r in heads}
        ):
            y, x = head
            column = [r for r in found if r.y > y + 0.5 and x - 1 <= r.x < x + 80]
            if not column:
                continue
            low = min(column, key=lambda r: r.y)
            top = y + 0.76 * HEADING_PT * PT
            word = "".join(r.text for r in heads if abs(r.y - y) < 0.2 and x <= r.x < x + 60)
            yield number, word.strip(), (low.y - 0.24 * low.size * PT) - top


def test_headings_have_room_above_them(printed):
    squeezed = {}
    for doc in printed:
        if doc.sheet:
            gaps = list(space_above_headings(doc.pdf))
            assert len(gaps) >= 8, doc.what  # the check sees the headings
            bad = [f"p{p} {h}: {mm:.1f} mm" for p, h, mm in gaps if mm < MIN_ABOVE_MM]
            if bad:
                squeezed[doc.what] = bad
    assert squeezed == {}


def test_deck_labels_fit_their_boxes(printed):
    """The deck's label is drawn narrower when it is wider than the deck's box (7 mm less a
    margin): its glyphs' advance, from the first piece to the last, fits in 6 mm."""
    for doc in printed:
        if not doc.sheet:
            continue
        label = prose.prose_texts(doc.ruleset, doc.lang)["lbl_deck"]
        for found in runs(doc.pdf)[:1]:
            small = [r for r in found if abs(r.size - 6) < 0.05 and r.text.strip()]
            rows = {round(r.y, 1) for r in small if label.startswith(r.text.strip())}
            assert rows, doc.what
            for y in rows:
                pieces = sorted((r for r in small if abs(r.y - y) < 0.05), key=lambda r: r.x)
                start = next(i for i, r in enumerate(pieces) if label.startswith(r.text.strip()))
                word, width, i = "", 0.0, start
                while len(word) < len(label) and i < len(pieces):
                    word += pieces[i].text.strip()
                    i += 1
                first, last = pieces[start], pieces[i - 1]
                per_letter = (last.x - first.x) / max(1, len(word) - len(last.text.strip()))
                width = last.x - first.x + per_letter * len(last.text.strip())
                assert word == label and width <= 6.2, (doc.what, word, round(width, 2))


DIGIT_EM = 0.636
"""A digit's advance in DejaVu Sans, in em (every digit has the same)."""


def centre(run: Run) -> float:
    """The middle of a one-glyph run, in mm (a glyph about as wide as a digit)."""
    return run.x + DIGIT_EM * run.size * run.stretch * PT / 2


def number_offsets(pdf: bytes) -> list[float]:
    """For each position number under a card of the row diagrams (page 1), how far its middle
    is from the middle of the coin or cube drawn on or above the same card."""
    offsets = []
    found = runs(pdf)[0]
    numbers = [r for r in found if abs(r.size - 6.5) < 0.05 and r.text.strip().isdigit()]
    marks = [r for r in found if 3 < r.size < 7.5 and len(r.text.strip()) == 1]
    for number in numbers:
        above = [
            m for m in marks if 2 < m.y - number.y < 16 and abs(centre(m) - centre(number)) < 2
        ]
        if above:
            mark = min(above, key=lambda m: m.y - number.y)
            offsets.append(centre(mark) - centre(number))
    return offsets


def test_row_numbers_are_centred_under_their_cards(printed):
    for doc in printed:
        if doc.sheet:
            offsets = number_offsets(doc.pdf)
            assert len(offsets) >= 4, doc.what  # the coins of the point rows, the cubes paid
            assert max(map(abs, offsets)) < 0.35, (doc.what, offsets)


def test_the_reference_cards_points_read_as_points(printed):
    """The reference card's row of what each piece scores at the end says "+1", as the sheet
    and the mats do, not a bare number set high beside the icon like an exponent."""
    for doc in printed:
        if doc.sheet:
            continue
        lead = prose.prose_texts(doc.ruleset, doc.lang)["ref_score"].replace("\u00a0", " ")
        after = re.sub(r"\s+", " ", flat(doc)).split(re.sub(r"\s+", " ", lead))
        assert len(after) > 1, doc.what
        points = lambda n: f"+{n}" if n > 0 else str(n)  # noqa: E731
        cubes = zip(doc.ruleset.codes, doc.ruleset.resource_points, strict=True)
        coins = sorted(doc.ruleset.coins, key=lambda c: c.position)
        row = [f"{code} {points(n)}" for code, n in cubes]  # each icon shows its code or value
        row += [f"{c.value} {points(c.value)}" for c in coins]
        # the spaces between an icon and its points are the PDF reader's guess (pypdf 5.1 puts
        # none after an icon's badge): compared without them
        shown = re.sub(r"\s+", "", after[1])
        assert shown.startswith("".join(row).replace(" ", "")), doc.what


@functools.cache
def advances() -> tuple[dict[int, int], int]:
    """The advance of every character of the sheet's regular font (DejaVu Sans, as bundled),
    read from its ``cmap`` (format 4) and ``hmtx`` tables, and its units per em."""
    from century.shared.typst import FONTS

    font = (FONTS / "DejaVuSans.ttf").read_bytes()
    count = struct.unpack(">H", font[4:6])[0]
    tables = {
        font[12 + 16 * i : 16 + 16 * i]: struct.unpack(">II", font[20 + 16 * i : 28 + 16 * i])
        for i in range(count)
    }

    def table(tag: bytes) -> bytes:
        start, length = tables[tag]
        return font[start : start + length]

    per_em = struct.unpack(">H", table(b"head")[18:20])[0]
    metrics = struct.unpack(">H", table(b"hhea")[34:36])[0]
    hmtx = table(b"hmtx")
    widths = [struct.unpack(">H", hmtx[4 * i : 4 * i + 2])[0] for i in range(metrics)]
    cmap = table(b"cmap")
    (sub,) = [
        cmap[struct.unpack(">I", cmap[8 + 8 * i : 12 + 8 * i])[0] :]
        for i in range(struct.unpack(">H", cmap[2:4])[0])
        if cmap[4 + 8 * i : 8 + 8 * i] == b"\x00\x03\x00\x01"  # Windows, Unicode BMP
    ]
    n = struct.unpack(">H", sub[6:8])[0] // 2
    ends = struct.unpack(f">{n}H", sub[14 : 14 + 2 * n])
    starts = struct.unpack(f">{n}H", sub[16 + 2 * n : 16 + 4 * n])
    deltas = struct.unpack(f">{n}h", sub[16 + 4 * n : 16 + 6 * n])
    at = 16 + 6 * n
    offsets = struct.unpack(f">{n}H", sub[at : at + 2 * n])
    found = {}
    for i in range(n):
        for code in range(starts[i], min(ends[i], 0xFFFE) + 1):
            if offsets[i]:
                where = at + 2 * i + offsets[i] + 2 * (code - starts[i])
                glyph = struct.unpack(">H", sub[where : where + 2])[0]
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            else:
                glyph = (code + deltas[i]) & 0xFFFF
            found[code] = widths[min(glyph, metrics - 1)]
    return found, per_em


def advance(run: Run) -> float:
    """How far the run's text moves the pen, in mm (regular weight)."""
    found, per_em = advances()
    units = sum(found.get(ord(c), per_em // 2) for c in run.text)
    return units / per_em * run.size * run.stretch * PT


def widest_word_gap(pdf: bytes, first: str, last: str) -> float:
    """The widest space between two words, in mm, on the lines of page 1 from the one that
    holds `first` to the one that holds `last` (text of the body's size only; the gap after
    a list's number and gaps with an icon in them are not word spaces)."""
    found = runs(pdf)[0]
    body = [r for r in found if abs(r.size - 8.4) < 0.05]
    lines: dict[float, list[Run]] = {}
    for r in body:
        lines.setdefault(round(r.y, 1), []).append(r)
    text = {y: "".join(r.text for r in sorted(rs, key=lambda r: r.x)) for y, rs in lines.items()}
    top = max(y for y, t in text.items() if first in t.replace("\u00a0", " "))
    bottom = min(y for y, t in text.items() if y <= top and last in t.replace("\u00a0", " "))
    widest = 0.0
    for y in [y for y in lines if bottom <= y <= top]:
        pieces = sorted(lines[y], key=lambda r: r.x)
        for a, b in itertools.pairwise(pieces):
            end = a.x + advance(a)
            between = [r for r in found if end - 0.1 < r.x < b.x - 0.1 and abs(r.y - y) < 3]
            if not between and not re.fullmatch(r"\d+\.", a.text.strip()):  # a word space
                widest = max(widest, b.x - end)
    return widest


def test_the_setup_list_is_set_ragged_right(printed):
    """Justified in its narrow column, the Setup list showed gaps twice a space wide: it is
    set ragged right like the rest of the sheet, each space a plain one."""
    for doc in printed:
        if not doc.sheet:
            continue
        text = prose.prose_texts(doc.ruleset, doc.lang)
        first = " ".join(
            re.sub(f"{prose.MARK_OPEN}.*?{prose.MARK_CLOSE}", " ", text["setup_points"]).split()[:3]
        )
        last = text["setup_caravan"].replace("\u00a0", " ").split()[-1]
        space = advance(Run(" ", 0, 0, 8.4, 1))
        assert widest_word_gap(doc.pdf, first, last) < space + 0.15, doc.what
