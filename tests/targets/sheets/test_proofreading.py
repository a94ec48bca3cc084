"""A proofreader's checks, run on the text pypdf extracts from every rule sheet and every
print-and-play kit of every bundled game, in both languages and on both papers.

Each check is one class of error a proofreader found: a hyphenation fragment of fewer than
three letters, a line break inside "card 1", "5. Karte", "2 ×" or a group of cubes, a count
whose noun does not agree with it, "cube" where the game has its own word for its pieces,
and seats used but never defined. The rule sheets and the kits share their prose (the rule
sheets' data), so both are read here.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from pypdf import PdfReader

from century import prose
from century.model.ruleset import Ruleset
from century.targets import cards, sheets

from helpers import bundled_rulesets

PAPERS = ("a4", "letter")
ARROWS = ("→", "⇓")
ONE = {"en": ("1", "one", "a", "an"), "de": ("1", "eins", "ein", "eine", "einen")}
"""The ways to say one before a noun."""
SUBSTITUTES = {"en": r"\s+or\s+beads", "de": r"\s+oder\s+Perlen"}
"""Real cubes are named once, as a stand-in for the tokens (kit_need)."""
OLD_ERRORS = {
    "de": (
        "Was darüber hinausgeht",
        "welchen, entscheidest",
        "× Gewürzkarte",
        "× Aufwertungskarte",
        "Start-Gewürze",
        "-mal an",
        "1 Gewürz",
        "1 Kristall",
        "miss um wie viel",
        "muss jeder Würfel",
        "vom Stapel darüber nehmen",
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
    ),
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
                sheet = sheets.render_sheet(ruleset, lang, paper)
                options = cards.CardOptions(paper=paper, lang=lang)
                kit = extracted(cards.render(ruleset, options), kit_pages(ruleset, options))
                found.append(
                    Printed(f"rules {game} {lang} {paper}", ruleset, lang, extracted(sheet), True)
                )
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
    for text in prose.render_prose(ruleset, lang).values():
        plain = re.sub(f"{prose.MARK_OPEN}[^{prose.MARK_CLOSE}]*{prose.MARK_CLOSE}", " ", text)
        for a, b in re.findall(r"(\S+)\u00a0(?=(\S+))", plain):
            pairs.add((a.lstrip("(").rstrip(",;:"), b.rstrip(",;:.)")))
    return {(a, b) for a, b in pairs if a and b}


def test_counts_and_numbers_stay_with_their_words_in_the_prose(bundled):
    for ruleset in bundled.rulesets.values():
        for lang in ruleset.languages:
            for key, text in prose.render_prose(ruleset, lang).items():
                # a number and its word, a word and its number, "5. Karte", "2 ×", "100 %"
                assert not re.search(r"\d\.? (?=[^\W\d_]|[×%])", text), (ruleset.id, key, text)
                assert not re.search(r"[^\W\d_] \d", text), (ruleset.id, key, text)
    pairs = bound_pairs(bundled.rulesets["spice-road"], "de")
    assert {("Karte", "1"), ("5.", "Punktekarte"), ("Platz", "2")} <= pairs


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
    words = prose.render_prose(doc.ruleset, doc.lang)["numbers"].split(", ")
    terms = {k: v[doc.lang] for k, v in doc.ruleset.terms.items() if doc.lang in v}
    one = "|".join(map(re.escape, ONE[doc.lang]))
    many = "|".join([r"\d+"] + [re.escape(w) for w in words[2:]])
    text = doc.text.replace("\u00a0", " ")
    for key, singular in terms.items():
        plural = terms.get(key + "s")
        if plural is None or plural == singular:
            continue
        # "5 spice cards" counts cards: a longer term that starts with this one is not it
        longer = [t[len(singular) + 1 :] for t in terms.values() if t.startswith(singular + " ")]
        within = "".join(rf"(?!\s+{re.escape(rest)})" for rest in longer)
        for found in re.finditer(rf"\b({many})\s+{re.escape(singular)}\b{within}", text, re.I):
            if found.group(1) != "1":
                yield found.group(0)
        for found in re.finditer(rf"\b({one})\s+{re.escape(plural)}\b", text, re.I):
            yield found.group(0)


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
    assert all("Kristall" in t or "crystal" in t for t in golem)


def test_seats_are_defined_where_the_sheet_uses_them(printed):
    for doc in printed:
        if not doc.sheet:
            continue
        text = prose.render_prose(doc.ruleset, doc.lang)
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
