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
import os
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from pypdf import PdfReader

from century import prose
from century.model.ruleset import Ruleset
from century.model.text import form
from century.pipeline import compile_paths
from century.targets import cards, sheets

from helpers import bundled_rulesets, composed_variant
from helpers.marks import Mark, pages
from helpers.rulesets import checked

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
        "und weniger",
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
LEGEND_ERRORS = {
    "de": ("„+“ nach einem anderen Schritt", "dann weiter darunter"),
    "en": ("“+” after another step",),
    "fr": (),
}
"""Wrong text in the legend of the card symbols (composed variants only), which must not come
back; their card sentences may say "1 Gewürz", which the sheets' own prose never does."""


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
def variant(tmp_path_factory) -> Ruleset:
    """The variant with five composed cards (`composed_variant`), as a user makes it."""
    folder = tmp_path_factory.mktemp("composed")
    here = os.getcwd()
    os.chdir(folder)
    try:
        return composed_variant(folder)
    finally:
        os.chdir(here)


@pytest.fixture(scope="module")
def printed() -> list[Printed]:
    """Every rule sheet and every kit of every bundled game, per language and paper."""
    found = []
    for game, ruleset in sorted(bundled_rulesets().items()):
        for lang in ruleset.languages:
            for paper in PAPERS:
                sheet = sheets.sheet_pdf(ruleset, lang, paper)
                options = cards.CardOptions(paper=paper, lang=lang)
                pdf = cards.render(ruleset, options)
                kit = extracted(pdf, kit_pages(ruleset, options))
                name = f"rules {game} {lang} {paper}"
                found.append(Printed(name, ruleset, lang, extracted(sheet), True, sheet))
                found.append(Printed(f"kit {game} {lang} {paper}", ruleset, lang, kit, False, pdf))
    return found


@pytest.fixture(scope="module")
def composed_sheets(variant) -> list[Printed]:
    """The sheets of the variant with composed cards, where the fifth proof found names and
    sentences broken (read by the checks of the layout; its sentences are issue 47's)."""
    found = []
    for lang in variant.languages:
        for paper in PAPERS:
            sheet = sheets.sheet_pdf(variant, lang, paper)
            name = f"rules {variant.id} {lang} {paper}"
            found.append(Printed(name, variant, lang, extracted(sheet), True, sheet))
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


def old_errors(doc: Printed, errors: dict[str, tuple[str, ...]] = OLD_ERRORS) -> list[str]:
    """The wrong texts of `errors` that `doc` prints again."""
    flat = re.sub(r"-\n", "", doc.text).replace("\u00a0", " ").replace("\n", " ")
    return [old for old in errors[doc.lang] if old in flat]


def test_the_errors_found_before_stay_fixed(printed, composed_sheets):
    """The composed variant's sheets too: the legend of the card symbols is theirs alone."""
    for doc in printed:
        assert old_errors(doc) == [], doc.what
    for doc in printed + composed_sheets:
        assert old_errors(doc, LEGEND_ERRORS) == [], doc.what
    # the fifth proof's legend ("+" left without a verb, "dann weiter darunter") and the two
    # permissions of the upgrade card joined as one
    old = (
        "Y nimm diese Gewürze; „+“ nach einem anderen Schritt ↓ gib die Gewürze über dem Pfeil"
        " ab, dann weiter darunter. Du darfst ein Gewürz auch mehrmals hintereinander"
        " aufwerten und weniger Aufwertungen nutzen."
    )
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert old_errors(doc) == ["und weniger"]
    assert old_errors(doc, LEGEND_ERRORS) == [
        "„+“ nach einem anderen Schritt",
        "dann weiter darunter",
    ]
    old = "Y take these spices; “+” after another step"
    doc = Printed("x", doc.ruleset, "en", old, True)
    assert old_errors(doc, LEGEND_ERRORS) == ["“+” after another step"]


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
            if plural != name:  # the plural from the game's forms (capitalised in French)
                assert plural in head or plural[:1].upper() + plural[1:] in head, (doc.what, head)
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


WIDOW = 1 / 7
"""A paragraph's last line of two words is a widow when it is shorter than this share of the
line above it (two words under a full line; in a narrow box two words are a fair line)."""


def runts(doc: Printed) -> Iterator[str]:
    """Paragraphs of running text whose last line is one word or the end of one, or two
    words under a long line: a widow (the fifth proof found "welche, entscheidest / du
    selbst." on every German mat)."""
    for line, after in itertools.pairwise(doc.lines):
        if not is_prose(line) or re.search(r"[.:;!?)]\s*$", line):
            continue
        if re.fullmatch(r"\s*[^\W\d_]+[.!?]\s*", after) or (
            re.fullmatch(r"\s*[^\W\d_]+[ \u00a0][^\W\d_]+[.!?]\s*", after)
            and len(after.strip()) < WIDOW * len(line.strip())
        ):
            yield f"{line[-25:]}|{after}"


def test_paragraphs_end_on_more_than_two_words(printed, composed_sheets):
    found = {doc.what: list(runts(doc)) for doc in printed + composed_sheets}
    assert {what: bad for what, bad in found.items() if bad} == {}
    old = "in den Vorrat zurück. Der Vorrat geht nie\naus."
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert list(runts(doc)) == ["rück. Der Vorrat geht nie|aus."]
    old = (
        "Am Ende deines Zuges höchstens 10 Gewürze. Überzählige gibst du zurück; welche,"
        " entscheidest\ndu selbst."
    )
    doc = Printed("x", doc.ruleset, "de", old, False)
    assert list(runts(doc)) == ["ück; welche, entscheidest|du selbst."]


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


def runs(pdf: bytes, chosen: list[int] | None = None) -> list[list[Run]]:
    """The text pieces of every page (or of the `chosen` ones), as pypdf reports them to a
    visitor."""
    pages = []
    reader = PdfReader(io.BytesIO(pdf))
    for page in [reader.pages[i] for i in chosen] if chosen is not None else reader.pages:
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


# -- the fifth proof: what the words name ----------------------------------------------------

FREE_NOTE = {
    "de": r"\(\s*((?:[A-Z]\s*)+?)\s+(?:zählt|zählen) nicht\)",
    "en": r"\(\s*((?:[A-Z]\s*)+?)\s+(?:scores|score) nothing\)",
    "fr": r"\(\s*((?:[A-Z]\s*)+?)\s+ne (?:rapporte|rapportent) rien\)",
}
"""The scoring example's note on the cubes that score nothing."""


def misnamed_free_cubes(doc: Printed) -> list[str]:
    """The scoring example's note naming other cubes than those of the caravan it scores: the
    note must name every cube of its rank that the caravan before it holds ("Y Y R G B in
    the caravan … (Y Y score nothing)")."""
    caravan = doc.ruleset.terms["caravan"][doc.lang]
    text = flat(doc)
    bad = []
    for note in re.finditer(FREE_NOTE[doc.lang], text):
        named = re.findall("[A-Z]", note.group(1))
        before = text[: note.start()]
        groups = re.findall(rf"((?:[A-Z]\s+)+)(?:\S+\s+){{1,2}}{re.escape(caravan)}\b", before)
        if not groups:
            bad.append(f"no caravan before {note.group(0)}")
            continue
        held = re.findall("[A-Z]", groups[-1])
        if named != [c for c in held if c == named[0]]:
            bad.append(f"{''.join(held)} … {note.group(0)}")
    return bad


def test_the_scoring_example_names_the_cubes_it_means(printed):
    found = {doc.what: misnamed_free_cubes(doc) for doc in printed if doc.sheet}
    assert {what: bad for what, bad in found.items() if bad} == {}
    assert all(re.search(FREE_NOTE[d.lang], flat(d)) for d in printed if d.sheet)
    old = "und Y Y R G B in der Karawane: 18 + 6 + 2 + 3 = 75 Punkte (Y zählt nicht)."
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert misnamed_free_cubes(doc) == ["YYRGB … (Y zählt nicht)"]


def numbers_read_as_a_list(text: str) -> list[str]:
    """A number closing one clause and a count opening the next, parted by a comma only, so
    they read as one list of numbers ("above card 1, 2 silver coins"; a list that goes on,
    "seats 3, 4 and 5", "places 3, 4 et 5", is one)."""
    plain = re.sub(f"{prose.MARK_OPEN}[^{prose.MARK_CLOSE}]*{prose.MARK_CLOSE}", " ", text)
    return re.findall(
        r"[^\W\d_]+[ \u00a0]\d+, \d+[ \u00a0](?!(?:and|und|et|or|oder|ou)\b)[^\W\d_]+", plain
    )


def test_a_count_after_a_numbered_thing_is_not_read_as_a_list(bundled):
    """The sheets, reference cards and mats share the prose: each text is read once."""
    for ruleset in bundled.rulesets.values():
        for lang in ruleset.languages:
            for key, text in prose.prose_texts(ruleset, lang).items():
                assert numbers_read_as_a_list(text) == [], (ruleset.id, lang, key)
    old = "2 Goldmünzen \ue000coin:gold\ue001 pro Person über Karte\u00a01, 2\u00a0Silbermünzen"
    assert numbers_read_as_a_list(old) == ["Karte\u00a01, 2\u00a0Silbermünzen"]


def plus_zero(doc: Printed) -> list[str]:
    """Points written "+0": the sheet, the reference card and the mats write "0"."""
    return re.findall(r"\S+\s+\+0\b", doc.text.replace("\u00a0", " "))


def test_points_are_written_one_way(printed):
    """The kit's mats are among the pages read: "+0" on a mat fails as it would on a sheet."""
    found = {doc.what: plus_zero(doc) for doc in printed}
    assert {what: bad for what, bad in found.items() if bad} == {}
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", "Y\n+0\nR\n+1", False)
    assert plus_zero(doc) == ["Y\n+0"]


def hyphenated_names(doc: Printed) -> list[str]:
    """A resource's name or a card's broken by hyphenation at a line end ("Kur-/kuma",
    "Markt-/tag"): names are set whole (a name of two words may break between them)."""
    names = {r.name[doc.lang] for r in doc.ruleset.resources}
    names |= {c.name[doc.lang] for c in doc.ruleset.merchant_deck if doc.lang in c.name}
    bad = []
    for name in names:
        words = name.split()
        for i, word in enumerate(words):
            for cut in range(2, len(word) - 1):
                broken = [*words[:i], f"{word[:cut]}-\n{word[cut:]}", *words[i + 1 :]]
                pattern = r"\s+".join(re.escape(w).replace("\\\n", "\n") for w in broken)
                bad += re.findall(pattern, doc.text.replace("\u00a0", " "))
    return bad


def test_names_are_never_hyphenated(printed, composed_sheets):
    found = {doc.what: hyphenated_names(doc) for doc in printed + composed_sheets}
    assert {what: bad for what, bad in found.items() if bad} == {}
    old = "Niedrigster Rang: Y Kur-\nkuma"
    doc = Printed("x", bundled_rulesets()["spice-road"], "de", old, True)
    assert hyphenated_names(doc) == ["Kur-\nkuma"]
    doc = Printed(
        "x", bundled_rulesets()["golem"], "de", "höchster Rang: P pinker Kris-\ntall.", True
    )
    assert hyphenated_names(doc) == ["pinker Kris-\ntall"]
    # the crystals' word alone is a term, not a name: it may break
    assert hyphenated_names(Printed("x", doc.ruleset, "de", "zwei Kris-\ntalle", True)) == []


# -- the fifth proof: icons ------------------------------------------------------------------

LEGIBLE_MM = 1.5
"""The smallest letter that reads in print: the code letter of an icon in running text."""
BODY_PT = (7.0, 9.5)
"""The sizes of running text and tables on the sheets and the kit's pages of sentences."""


def small_icon_letters(found: list[Run], codes: set[str]) -> list[str]:
    """Code letters drawn beside or on an icon within a line of running text (words at the
    body's size on the same baseline, within a few millimetres of it; not in a drawing shown
    smaller) smaller than `LEGIBLE_MM`."""
    level = [r for r in found if abs(r.stretch - 1) < 0.01]  # drawings shown smaller aside
    body = [
        r for r in level if BODY_PT[0] <= r.size <= BODY_PT[1] and re.search(r"[^\W\d_]{2}", r.text)
    ]
    bad = []
    for r in level:
        if r.text.strip() not in codes or r.size * PT >= LEGIBLE_MM:
            continue
        if any(abs(b.y - r.y) < 1.2 and b.x - 6 < r.x < b.x + advance(b) + 6 for b in body):
            bad.append(f"{r.text.strip()} at {r.x:.0f}, {r.y:.0f} mm: {r.size * PT:.2f} mm")
    return bad


def test_icon_letters_in_running_text_are_legible(printed, composed_sheets):
    """The sheets and the kit's pages of sentences (the cover's contents, the legend, the
    mats): Golem's crystals carried their letter in a badge under 1 mm."""
    found = {}
    for doc in printed + composed_sheets:
        chosen = None
        if not doc.sheet:
            paper = doc.what.rsplit(" ", 1)[1]
            chosen = kit_pages(doc.ruleset, cards.CardOptions(paper=paper, lang=doc.lang))
        for number, page in enumerate(runs(doc.pdf, chosen)):
            bad = small_icon_letters(page, set(doc.ruleset.codes))
            if bad:
                found[f"{doc.what} p{number + 1 if chosen is None else chosen[number] + 1}"] = bad
    assert found == {}
    planted = [Run("5 Kristallkarten", 20, 100, 8.4, 1), Run("Y", 45, 99.5, 2.0, 1)]
    assert small_icon_letters(planted, {"Y"}) == ["Y at 45, 100 mm: 0.71 mm"]


def icon_draws(pdf: bytes, pages: list[int]) -> int:
    """How many pictures (form or image XObjects: the look's icons) `pages` of `pdf` draw."""
    reader = PdfReader(io.BytesIO(pdf))
    count = 0

    def visit(op, args, cm, tm):
        nonlocal count
        count += op == b"Do"

    for i in pages:
        reader.pages[i].extract_text(visitor_operand_before=visit)
    return count


def token_pages(ruleset: Ruleset, paper: str) -> tuple[list[int], int]:
    """The token pages of a kit and how many cube tokens they draw (fronts and backs)."""
    pages = cards.document(ruleset, cards.CardOptions(paper=paper))["pages"]
    chosen = [i for i, p in enumerate(pages) if p["type"] == "tokens"]
    cubes = sum(
        t["kind"] == "cube" for i in chosen for t in (*pages[i]["fronts"], *pages[i]["backs"])
    )
    return chosen, cubes


def test_tokens_are_drawn_with_the_looks_icons(printed):
    """A look that gives its resources icons has them on the tokens too (the tutorial says
    so): every cube token, front and back, draws a picture; tokens of a game without icons
    draw none."""
    for doc in printed:
        if doc.sheet:
            continue
        paper = doc.what.rsplit(" ", 1)[1]
        chosen, cubes = token_pages(doc.ruleset, paper)
        icons = doc.ruleset.look is not None and bool(doc.ruleset.look.icons)
        assert cubes > 0, doc.what
        assert icon_draws(doc.pdf, chosen) >= (cubes if icons else 0), doc.what
    # the check sees tokens without icons: Spice Road's, where Golem's would have them
    plain = next(d for d in printed if d.what == "kit spice-road en a4")
    chosen, cubes = token_pages(plain.ruleset, "a4")
    assert icon_draws(plain.pdf, chosen) < cubes


# -- the fifth proof: backs ------------------------------------------------------------------

MIXED = ("merchant", "point", "starting")
"""The decks that meet on the table and are sorted by their backs (the reference cards are
handed out, never shuffled in: they may share the starting cards' back, as their sheets do)."""


def shared_backs(ruleset: Ruleset) -> list[str]:
    """Decks whose backs look the same: the same back picture (a picture hides the tint
    under it), or no picture and the same tint."""
    pages = cards.document(ruleset, cards.CardOptions())["pages"]
    backs: dict[str, tuple[str, str]] = {}
    for page in pages:
        for back in page.get("backs", []) if page["type"] == "cards" else []:
            face = back["face"]
            deck = next(
                d for d in (*MIXED, "reference") if face["title"] in deck_titles(ruleset, d)
            )
            backs[deck] = (face["art"]["path"], "") if "art" in face else ("", face["back"])
    seen = [d for d in MIXED if d in backs]
    return [f"{a} = {b}" for a, b in itertools.combinations(seen, 2) if backs[a] == backs[b]]


def deck_titles(ruleset: Ruleset, deck: str) -> set[str]:
    """The titles a deck's backs show, in every language."""
    from century.model.text import term

    if deck == "reference":
        return {prose.prose_texts(ruleset, lang)["ref_title"] for lang in ruleset.languages}
    key = {"merchant": "merchant_cards", "point": "point_cards", "starting": "starting_cards"}
    return {term(ruleset, key[deck], lang) for lang in ruleset.languages}


EDGE_PPI = 150
SHIFT_MM = 2.0
"""The duplex shift the kit promises does not show ("kit_tip_ink")."""
EDGE_STEP = 12.0
"""The most the mean grey of a line along a back's edge may change between 2 mm inside the cut
and 1.4 mm outside it (half the gap: the neighbour's back starts there), on 0–255: a
lattice crossing the edge evens out along it, a border or a seam parallel to it does not."""


def back_edges(ruleset: Ruleset, paper: str) -> dict[str, float]:
    """Per deck, the largest change of the mean grey across any back's edge, from the first
    back page of each deck rendered at `EDGE_PPI`."""
    from PIL import Image

    from century.shared.cards.faces import look_assets
    from century.shared.typst import compile_png

    doc = cards.document(ruleset, cards.CardOptions(paper=paper))
    first: dict[str, int] = {}
    for i, page in enumerate(doc["pages"]):
        for back in page.get("backs", []) if page["type"] == "cards" else []:
            first.setdefault(back["face"]["title"], i)
    chosen = sorted(set(first.values()))
    pages = [doc["pages"][i] for i in chosen]
    pngs = compile_png(cards.TEMPLATE, {**doc, "pages": pages}, EDGE_PPI, look_assets(ruleset))
    px = EDGE_PPI / 25.4
    w, h = doc["printed"]["width"], doc["printed"]["height"]
    worst: dict[str, float] = {}
    for page, png in zip(pages, pngs, strict=True):
        grey = Image.open(io.BytesIO(png)).convert("L")
        for back in page["backs"]:
            x, y = back["x"], back["y"]
            for edge in ("left", "right", "top", "bottom"):
                means = []
                for k in range(round((SHIFT_MM + 1.4) * px) + 1):
                    d = k / px - SHIFT_MM  # mm past the cut
                    if edge in ("left", "right"):
                        col = round((x - d if edge == "left" else x + w + d) * px)
                        pixels = [
                            grey.getpixel((col, r))
                            for r in range(round((y + 0.15 * h) * px), round((y + 0.85 * h) * px))
                        ]
                    else:
                        row = round((y - d if edge == "top" else y + h + d) * px)
                        pixels = [
                            grey.getpixel((c, row))
                            for c in range(round((x + 0.15 * w) * px), round((x + 0.85 * w) * px))
                        ]
                    means.append(sum(pixels) / len(pixels))
                title = back["face"]["title"]
                worst[title] = max(worst.get(title, 0.0), max(means) - min(means))
    return worst


def old_golem_backs(tmp_path) -> Ruleset:
    """Golem with the back picture the fifth proof measured: one for every deck, its border
    on the cut line."""
    import dataclasses
    import hashlib

    from century.base.assets import Asset
    from century.model.look import Picture

    golem = bundled_rulesets()["golem"]
    svg = tmp_path / "back.svg"
    svg.write_text(OLD_GOLEM_BACK, encoding="utf-8")
    asset = Asset(
        str(svg), "back.svg", "svg", hashlib.sha256(svg.read_bytes()).hexdigest(), 690, 940
    )
    back = Picture(asset, "cover")
    look = golem.look
    assert look is not None
    decks = {k: dataclasses.replace(d, back=back) for k, d in look.decks.items() if k in MIXED}
    return dataclasses.replace(golem, look=dataclasses.replace(look, decks=decks))


_OLD_LATTICE = " ".join(
    [f"M{x} 0 L{x + 940} 940" for x in (-470, -235, 0, 235, 470)]
    + [f"M{x} 0 L{x - 940} 940" for x in (1160, 925, 690, 455, 220)]
)
OLD_GOLEM_BACK = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 690 940">
  <rect width="690" height="940" fill="#2C3440"/>
  <path d="{_OLD_LATTICE}" stroke="#56657A" stroke-width="6" fill="none"/>
  <rect x="24" y="24" width="642" height="892" rx="26" fill="none" stroke="#8FA3BC"
    stroke-width="8"/>
  <path d="M345 70 L395 135 L345 200 L295 135 Z" fill="#F2C12E" opacity="0.85"/>
  <path d="M345 740 L395 805 L345 870 L295 805 Z" fill="#D6478F" opacity="0.85"/>
</svg>
"""
"""Golem's back before the fifth proof (rules/art/golem/back.svg)."""


def test_each_deck_has_a_back_of_its_own(tmp_path):
    for game, ruleset in sorted(bundled_rulesets().items()):
        assert shared_backs(ruleset) == [], game
    assert shared_backs(old_golem_backs(tmp_path)) == [
        "merchant = point",
        "merchant = starting",
        "point = starting",
    ]


def test_back_pictures_keep_their_borders_off_the_cut(tmp_path):
    """Every back of every bundled kit, on both papers, looks the same from 2 mm inside its
    cut to past it, so a back printed up to 2 mm off its front shows no edge; the border the
    fifth proof found on the cut line fails."""
    for game, ruleset in sorted(bundled_rulesets().items()):
        for paper in PAPERS:
            worst = back_edges(ruleset, paper)
            assert worst and max(worst.values()) < EDGE_STEP, (game, paper, worst)
    old = back_edges(old_golem_backs(tmp_path), "a4")
    assert max(old.values()) > 5 * EDGE_STEP, old


# -- the fifth proof: card drawings ----------------------------------------------------------


def step_pages(ruleset: Ruleset, options: cards.CardOptions, steps: set[str]) -> list[int]:
    """The kit's card pages with a front whose effect has one of `steps` at any depth."""

    def has(effect: object) -> bool:
        if isinstance(effect, dict):
            return bool(steps & effect.keys()) or any(has(v) for v in effect.values())
        return isinstance(effect, list) and any(has(v) for v in effect)

    pages = cards.document(ruleset, options)["pages"]
    return [
        i
        for i, page in enumerate(pages)
        if page["type"] == "cards" and any(has(c["face"].get("effect")) for c in page["fronts"])
    ]


@pytest.fixture(scope="module")
def composed_kits(variant) -> list[Printed]:
    """The composed variant's kits, per language and paper: the card pages with an upgrade or
    a choice (the pages the fifth proof read), rendered as the kit renders them."""
    from century.shared.cards.faces import look_assets
    from century.shared.typst import compile_pdf

    found = []
    for lang in variant.languages:
        for paper in PAPERS:
            options = cards.CardOptions(paper=paper, lang=lang)
            doc = cards.document(variant, options)
            chosen = [doc["pages"][i] for i in step_pages(variant, options, {"upgrade", "choose"})]
            pdf = compile_pdf(cards.TEMPLATE, {**doc, "pages": chosen}, look_assets(variant))
            name = f"kit {variant.id} {lang} {paper}"
            found.append(Printed(name, variant, lang, extracted(pdf), False, pdf))
    return found


def counts_written_twice(text: str) -> list[str]:
    """An upgrade's count written beside its arrows ("↑↑↑ × 3" reads as nine upgrades); on a
    card "×" belongs to the repeat, after its bound ("≤2×")."""
    return re.findall(r"×[ \u00a0]*\d+", text)


def test_an_upgrade_is_counted_by_its_arrows_alone(printed, composed_sheets, composed_kits):
    """Every sheet (with its card drawings) and every kit page with an upgrade card."""
    found = {}
    for doc in printed + composed_sheets + composed_kits:
        text = doc.text
        if not doc.sheet and doc.ruleset.id != composed_kits[0].ruleset.id:
            paper, lang = doc.what.rsplit(" ", 2)[2], doc.lang
            options = cards.CardOptions(paper=paper, lang=lang)
            text = extracted(doc.pdf, step_pages(doc.ruleset, options, {"upgrade"}))
            assert text.strip(), doc.what  # the kit has upgrade cards, and they were read
        found[doc.what] = counts_written_twice(text)
    assert {what: bad for what, bad in found.items() if bad} == {}
    assert any("≤2×" in doc.text for doc in composed_kits)  # the repeat's bound stays
    assert counts_written_twice("Upgrade card\n× 3\nSpice Road · up3") == ["× 3"]


@dataclass(frozen=True)
class Glyph:
    """A separator as drawn: its printed size (pt) and its grey (0 black, 1 white)."""

    size: float
    grey: float


def separators(pdf: bytes) -> list[list[Glyph]]:
    """Per page, every "/" drawn: the slash between a choice's options, on the face and in
    the index corner."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        grey = [0.0]
        found: list[Glyph] = []

        def before(op, args, cm, tm, grey=grey):
            if op in (b"scn", b"sc", b"g") and len(args) == 1:
                grey[0] = float(args[0])
            elif op in (b"scn", b"sc", b"rg") and len(args) == 3:
                grey[0] = sum(float(a) for a in args) / 3

        def visit(text, cm, tm, font, size, found=found, grey=grey):
            if text.strip() == "/":
                found.append(Glyph(size * abs(tm[3] or 1) * abs(cm[3] or 1), grey[0]))

        page.extract_text(visitor_operand_before=before, visitor_text=visit)
        pages.append(found)
    return pages


CHOICE_PT = 10.0
"""The least printed size of the slash between a choice's options on a card's face."""


def faint_choices(pages: list[list[Glyph]]) -> list[str]:
    """Pages whose choice is parted by a slash that is grey, or none on the face as large as
    `CHOICE_PT` (the proof read "YYY / ↑↑" as "YYY ↑↑")."""
    bad = []
    for number, found in enumerate(pages, start=1):
        if not found:
            continue
        if any(g.grey > 0.1 for g in found):
            bad.append(f"p{number}: grey {max(g.grey for g in found):.2f}")
        if max(g.size for g in found) < CHOICE_PT:
            bad.append(f"p{number}: {max(g.size for g in found):.1f} pt")
    return bad


def test_a_choice_is_parted_by_a_black_slash(composed_kits, composed_sheets):
    """Every page of a composed variant's kit with a choice, and its sheets (whose drawings
    are the kit's faces, smaller: only their colour is read there)."""
    found = {}
    for doc in composed_kits:
        pages = separators(doc.pdf)
        assert any(pages), doc.what  # the choices are there, and read
        found[doc.what] = faint_choices(pages)
    for doc in composed_sheets:
        found[doc.what] = [g for page in separators(doc.pdf) for g in page if g.grey > 0.1]
    assert {what: bad for what, bad in found.items() if bad} == {}
    planted = [[Glyph(7.5, 0.0), Glyph(9.0, 0.6)]]  # a thin light-grey slash on the face
    assert faint_choices(planted) == ["p1: grey 0.60", "p1: 9.0 pt"]


# -- the fifth proof: labels -----------------------------------------------------------------


def lone_labels(doc: Printed) -> list[str]:
    """A line that holds only a one-word label and its colon, the list it opens starting on
    the next line ("Münzen:" above "10 Kupfermünzen ...")."""
    return re.findall(r"(?m)^(?:•\s*)?[^\W\d_]+[ \u202f]?:[ \t\u00a0]*$", doc.text)


def test_a_label_keeps_the_first_word_of_its_list(printed, composed_sheets):
    found = {doc.what: lone_labels(doc) for doc in printed + composed_sheets}
    assert {what: bad for what, bad in found.items() if bad} == {}
    assert all(re.search(r"\w\u202f?:\u00a0\d", doc.text) for doc in printed if doc.sheet)
    old = "• Münzen: \n10 Kupfermünzen  3 , 10 Silbermünzen  1\n• Kristalle in vier Farben, in"
    doc = Printed("x", bundled_rulesets()["golem"], "de", old, True)
    assert lone_labels(doc) == ["• Münzen: "]


# -- the fifth proof: card sizes -------------------------------------------------------------

SIZES = {"poker": (63, 88), "bridge": (57, 89), "mini": (44, 63), "tarot": (70, 120)}
TITLE_PT = 9.5
"""The size of a card's title at poker size (`title-box` in faces.typ)."""
SMALLEST_TITLE_PT = 6.0


def title_sizes(ruleset: Ruleset) -> list[float]:
    """The printed sizes of the titles on the English A4 kit's first page of fronts."""
    from century.shared.cards.faces import look_assets
    from century.shared.typst import compile_pdf

    doc = cards.document(ruleset, cards.CardOptions(paper="a4", lang="en"))
    page = next(p for p in doc["pages"] if p["type"] == "cards")
    pdf = compile_pdf(cards.TEMPLATE, {**doc, "pages": [page]}, look_assets(ruleset))
    titles = {c["face"]["title"] for c in page["fronts"]}
    return [r.size for r in runs(pdf)[0] if r.text.strip() in titles]


def misscaled_titles(sizes: list[float], card: tuple[float, float]) -> list[str]:
    """Titles not drawn at the card's scale of a poker face (the larger of the two when that
    is under `SMALLEST_TITLE_PT`): a face left at poker scale on a large card, or shrunk
    past legibility on a small one."""
    zoom = min(card[0] / 63, card[1] / 88)
    want = max(TITLE_PT * zoom, SMALLEST_TITLE_PT)
    return [f"{size:.2f} pt, not {want:.2f} pt" for size in sizes if abs(size - want) > 0.05 * want]


def test_a_cards_face_is_drawn_at_its_cards_scale(tmp_path):
    """Each card size of the look scales the whole face, up on a tarot card and down on a
    mini one, the title never under 6 pt (the fifth proof found a tarot face at poker scale,
    two-thirds empty)."""
    (tmp_path / "rules").mkdir()
    for size in SIZES:
        (tmp_path / "rules" / f"sized-{size}.yaml").write_text(
            f"id: sized-{size}\nextends: spice-road\nlook: {{card_size: {size}}}\n", "utf-8"
        )
    rulesets = checked(compile_paths([tmp_path / "rules"])).rulesets
    found = {}
    for size, card in SIZES.items():
        sizes = title_sizes(rulesets[f"sized-{size}"])
        assert sizes, size  # the titles are there, and read
        found[size] = misscaled_titles(sizes, card)
    assert {size: bad for size, bad in found.items() if bad} == {}
    assert misscaled_titles([9.5], SIZES["tarot"]) == ["9.50 pt, not 10.56 pt"]


# -- the fifth proof: rhythm and the legend's frame ------------------------------------------

RHYTHM_MM = 1.2
"""How much the white above one heading may differ between the sheets' last pages: a page
without the room for the full spacing sets its sections evenly closer (Golem's German Letter
sheet, by 1.0 mm)."""


def uneven_rhythm(gaps: list[tuple[str, str, float]]) -> list[str]:
    """Headings, from (sheet, heading, mm of white above it), whose white differs between the
    sheets by more than `RHYTHM_MM` (the fifth proof found 4.7 to 19.3 mm above one kind)."""
    by_heading: dict[str, list[tuple[float, str]]] = {}
    for what, heading, mm in gaps:
        by_heading.setdefault(heading, []).append((mm, what))
    bad = []
    for heading, found in sorted(by_heading.items()):
        (low, lowest), (high, highest) = min(found), max(found)
        if high - low > RHYTHM_MM:
            bad.append(f"{heading}: {low:.1f} mm ({lowest}) to {high:.1f} mm ({highest})")
    return bad


def white_above_headings(pdf: bytes) -> list[tuple[int, str, float]]:
    """(page, heading, mm of white between the heading's cap height and the lowest ink above
    it, text or drawing, across the width of the rule under the heading)."""
    found = []
    for number, page in enumerate(pages(pdf), start=1):
        big = sorted(
            (m for m in page.marks if abs(m.size - HEADING_PT) < 0.3), key=lambda m: (-m.y0, m.x0)
        )
        lines: list[list[Mark]] = []
        for m in big:
            if lines and abs(m.y0 - lines[-1][-1].y0) < 0.2 and m.x0 - lines[-1][-1].x1 < 3:
                lines[-1].append(m)
            else:
                lines.append([m])
        for line in lines:
            top, left, low = max(m.y1 for m in line), line[0].x0, line[0].y0
            rules = [
                m
                for m in page.marks
                if not m.text and abs(m.x0 - left) < 1 and low - 4 < m.y1 < low + 0.5
            ]
            right = max((m.x1 for m in rules), default=left + 30)
            above = [
                m for m in page.marks if m.y0 > top - 0.05 and m.x1 > left + 1 and m.x0 < right - 1
            ]
            if above:
                heading = re.sub(r"\s+", "", "".join(m.text for m in line))
                found.append((number, heading, min(m.y0 for m in above) - top))
    return found


def test_the_last_page_keeps_one_rhythm(printed, composed_sheets):
    """On the last page of every sheet, the white above each heading is the same on every
    sheet (its spare room goes to the page's foot, not between the sections). The kits set no
    sections under headings, so only the sheets are read."""
    gaps = []
    for doc in [*printed, *composed_sheets]:
        if doc.sheet:
            last = len(PdfReader(io.BytesIO(doc.pdf)).pages)
            found = [(doc.what, h, mm) for p, h, mm in white_above_headings(doc.pdf) if p == last]
            assert len(found) >= 2 or doc in composed_sheets, doc.what  # the check sees them
            gaps += found
    assert uneven_rhythm(gaps) == []
    planted = [("a4", "Die Karten", 19.3), ("letter", "Die Karten", 4.7), ("a4", "Ende", 5.4)]
    assert uneven_rhythm(planted) == ["Die Karten: 4.7 mm (letter) to 19.3 mm (a4)"]


@dataclass(frozen=True)
class Stroke:
    """A dashed line as drawn: its bounding box (mm from the page's bottom left)."""

    x0: float
    y0: float
    x1: float
    y1: float


def dashed_strokes(pdf: bytes, page: int) -> list[Stroke]:
    """Every path the page strokes with a dash pattern, as pypdf reports its operators."""
    found: list[Stroke] = []
    dash, saved, path = [False], [], []

    def before(op, args, cm, tm):
        if op == b"q":
            saved.append(dash[0])
        elif op == b"Q" and saved:
            dash[0] = saved.pop()
        elif op == b"d":
            dash[0] = len(args[0]) > 0
        elif op in (b"m", b"l", b"c", b"v", b"y", b"re"):
            pairs = [args[i : i + 2] for i in range(0, len(args) - 1, 2)]
            if op == b"re":
                x, y, w, h = (float(a) for a in args)
                pairs = [(x, y), (x + w, y + h)]
            for x, y in pairs:
                x, y = float(x), float(y)
                path.append(
                    ((cm[0] * x + cm[2] * y + cm[4]) * PT, (cm[1] * x + cm[3] * y + cm[5]) * PT)
                )
        elif op in (b"S", b"s", b"B", b"B*", b"b", b"b*", b"f", b"F", b"f*", b"n"):
            if op in (b"S", b"s", b"B", b"B*", b"b", b"b*") and dash[0] and path:
                xs, ys = [p[0] for p in path], [p[1] for p in path]
                found.append(Stroke(min(xs), min(ys), max(xs), max(ys)))
            path.clear()

    PdfReader(io.BytesIO(pdf)).pages[page].extract_text(visitor_operand_before=before)
    return found


LEGEND_PT = 8.4
"""The size of the sheet's running text (the legend's)."""


def framed_repeat(pdf: bytes, heading: str) -> list[str]:
    """Where the legend under the composed cards' `heading` explains the repeat (the first "×"
    set in running text below it), whether a dashed frame is drawn just before it, as the
    cards frame what repeats: nothing when it is, else what was found."""
    want = re.sub(r"\s+", "", heading)
    for number, found in enumerate(runs(pdf)):
        heads = [r for r in found if abs(r.size - HEADING_PT) < 0.5]
        tops = [
            y
            for y in {round(r.y, 1) for r in heads}
            if re.sub(r"\s+", "", "".join(r.text for r in heads if abs(r.y - y) < 0.2)) == want
        ]
        marks = [
            r
            for r in found
            if "×" in r.text and abs(r.size - LEGEND_PT) < 0.3 and tops and r.y < tops[0]
        ]
        if marks:
            mark = max(marks, key=lambda r: (r.y, -r.x))
            beside = [
                s
                for s in dashed_strokes(pdf, number)
                if mark.x - 6 <= s.x1 <= mark.x + 1 and s.y0 < mark.y + 3 and s.y1 > mark.y - 1
            ]
            return [] if beside else [f"p{number + 1}: no dashed frame before × at {mark.x:.1f} mm"]
    return ["no × in the legend"]


def test_the_legend_draws_the_repeats_frame(variant, composed_sheets):
    """The legend of the card symbols draws the dashed frame it names, as on the cards (the
    fifth proof found it in words only); a legend with the words alone fails."""
    heading = {lang: prose.prose_texts(variant, lang)["composed_h"] for lang in variant.languages}
    found = {doc.what: framed_repeat(doc.pdf, heading[doc.lang]) for doc in composed_sheets}
    assert {what: bad for what, bad in found.items() if bad} == {}
    from century.prose import MARK_CLOSE, MARK_OPEN
    from century.shared.typst import compile_pdf

    data = sheets.sheet_data(variant, "en", "a4")
    data["text"]["sym_repeat"] = data["text"]["sym_repeat"].replace(
        MARK_OPEN + "frame" + MARK_CLOSE, ""
    )
    old = compile_pdf(sheets.TEMPLATE, data, sheets.look_assets(variant))
    assert framed_repeat(old, heading["en"])[0].startswith("p")
