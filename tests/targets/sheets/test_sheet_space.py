"""A sheet fits its variant however many composed cards it has: measured from the PDF, no page
has an empty band taller than `MAX_BAND_MM` across its width (the last page's foot aside),
nothing runs past the page's margins or into the footer, the base rules keep their two
pages, and the composed cards' section, when it takes a page of its own, opens it with its
heading. Variants with 0, 1, 5 and 20 composed cards, every language, A4 and Letter."""

from __future__ import annotations

import re

import pytest

from century.model.ruleset import Ruleset
from century.prose import prose_texts
from century.targets import sheets

from helpers import composed_edits, composed_variant
from helpers.marks import Mark, Page, empty_bands, pages

pytestmark = pytest.mark.slow

SIZES = (0, 1, 5, 20)
"""How many composed cards the variants have."""
PAPERS = ("a4", "letter")
MAX_BAND_MM = 25.0
"""The tallest empty band a page may have (the last page's foot aside)."""
EDGE_MM = 4.0
"""The least room between anything printed and the page's edge."""
FOOT_MM = 4.0
"""How far above the footer's text its rule lies (the marks in it are the footer's)."""


def footer(page: Page) -> tuple[list[Mark], list[Mark]]:
    """The page's marks split into (body, footer): the footer is its lowest line of text and
    the rule just above it."""
    lowest = min((m for m in page.marks if m.text), key=lambda m: m.y0)
    foot = [m for m in page.marks if m.y1 <= lowest.y1 + FOOT_MM]
    return [m for m in page.marks if m not in foot], foot


def problems(printed: list[Page]) -> tuple[list[str], float]:
    """What is wrong with a sheet's space, and its tallest empty band in mm (the last page's
    foot aside)."""
    found, worst = [], 0.0
    for number, page in enumerate(printed, start=1):
        body, foot = footer(page)
        top, rule = max(m.y1 for m in body), max(m.y1 for m in foot)
        for upper, lower in empty_bands(body, top, rule):
            last_foot = number == len(printed) and lower == rule
            if not last_foot:
                worst = max(worst, upper - lower)
                if upper - lower > MAX_BAND_MM:
                    found.append(f"p{number}: {upper - lower:.1f} mm empty below {upper:.1f} mm")
        lines = {round(m.y0, 1) for m in foot if m.text}
        if len(lines) != 1:
            found.append(f"p{number}: the footer holds {len(lines)} lines of text")
        if min(m.y0 for m in body) < rule + 1:
            found.append(f"p{number}: the body runs into the footer")
        for m in page.marks:
            right = m.x0 if m.text else m.x1  # a text's width is only estimated
            if min(m.x0, m.y0, page.width - right, page.height - m.y1) < EDGE_MM:
                found.append(f"p{number}: {m.text or 'a drawing'} at {m.x0:.1f}, {m.y0:.1f} mm")
    return found, worst


def headings(printed: list[Page]) -> list[tuple[int, str]]:
    """(page, text) of every heading, from the top of each page down, read from the text drawn
    at the headings' size: the pieces on one baseline that follow each other within a few
    millimetres, without spaces (pypdf reports some, not all)."""
    found: list[tuple[int, str]] = []
    for number, page in enumerate(printed, start=1):
        big = sorted((m for m in page.marks if abs(m.size - 12) < 0.3), key=lambda m: (-m.y0, m.x0))
        last: Mark | None = None
        for m in big:
            if last and abs(m.y0 - last.y0) < 0.2 and m.x0 - last.x1 < 3:
                found[-1] = (number, found[-1][1] + m.text)
            else:
                found.append((number, m.text))
            last = m
    return [(number, squash(text)) for number, text in found]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[int, Ruleset]:
    """The variants, written and compiled as a user makes them (`century new`, cards added)."""
    import os

    folder = tmp_path_factory.mktemp("space")
    here = os.getcwd()
    os.chdir(folder)
    try:
        return {n: composed_variant(folder, composed_edits(n), f"cards{n}") for n in SIZES}
    finally:
        os.chdir(here)


def test_every_variant_size_fills_its_pages(variants):
    bad, worst = {}, {}
    for n, ruleset in variants.items():
        for lang in ruleset.languages:
            text = prose_texts(ruleset, lang)
            base = {squash(text[k]) for k in ("h_end", "h_scoring", "h_tie")}
            for paper in PAPERS:
                printed = pages(sheets.sheet_pdf(ruleset, lang, paper))
                found, band = problems(printed)
                worst[n] = max(worst.get(n, 0.0), band)
                heads = headings(printed)
                # the base rules keep their two pages; the composed cards come after them
                on = {h: p for p, h in heads}
                if not all(on.get(h) == 2 for h in base):
                    found.append(f"the end and scoring are not on page 2: {heads}")
                composed = squash(text["composed_h"])
                if n and composed not in on:
                    found.append("no heading over the composed cards")
                if n and on.get(composed, 2) > 2:
                    first = next(h for p, h in heads if p == on[composed])
                    if first != composed:
                        found.append(f"page {on[composed]} opens with {first!r}")
                if not n and len(printed) != 2:
                    found.append("a base game's sheet is not two pages")
                if found:
                    bad[f"{n} cards {lang} {paper}"] = found
    print("worst band per size (mm):", {n: round(mm, 1) for n, mm in worst.items()})
    assert bad == {}


def test_the_measure_sees_a_hole():
    """The measure finds a band between two marks, and the ones at the top and the foot."""
    marks = [Mark(20, 200, 30, 210), Mark(20, 150, 30, 160, "x", 8), Mark(20, 140, 190, 151)]
    assert empty_bands(marks, 260, 20) == [(260, 210), (200, 160), (140, 20)]
