"""Print-and-play card sheets: PDFs opened with pypdf, geometry read from drawing operators."""

from __future__ import annotations

import functools
import io
import itertools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from century.model.ruleset import Ruleset
from century.pipeline import compile_paths
from century.targets.cards import CardOptions, render

PT = 25.4 / 72  # mm per PDF point
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD = (63.0, 88.0)
PRINTABLE = 4.0  # documented: no mark closer than this to the paper edge
HOSTILE = '#import "evil.typ": * ] $x$ #set page(width: 1cm) \\ `raw` <lbl> @ref'


# -- rulesets ----------------------------------------------------------------------------------


@functools.cache
def base() -> Ruleset:
    return compile_paths().rulesets["spice-road"]


def variant(ruleset: Ruleset, edit) -> Ruleset:
    """A ruleset changed through its JSON form (`edit` mutates the dict)."""
    data = ruleset.to_json()
    edit(data)
    return Ruleset.from_json(data)


def five_ranks(data: dict[str, Any]) -> None:
    """Add a fifth rank V, a card and a point card that use it, caravan 12, three coin piles."""
    data["resources"].append({"id": "vanilla", "code": "V", "colour": "#7B1FA2", "name": {}})
    for deck in ("merchant_deck", "starting_cards"):
        for card in data[deck]:
            card["get"].append(0)
            card["pay"].append(0)
    for card in data["point_deck"]:
        card["cost"].append(0)
    data["merchant_deck"].append(
        {
            "id": "b-v",
            "kind": "trade",
            "copies": 2,
            "get": [0, 0, 0, 0, 1],
            "pay": [0, 0, 0, 1, 0],
            "steps": 0,
            "name": {},
        }
    )
    data["point_deck"].append({"id": "vvvv", "cost": [0, 0, 0, 0, 4], "points": 23, "copies": 1})
    data["seats"] = [[*s, 0] for s in data["seats"]]
    data["resource_points"].append(2)
    data["value_weights"].append(5)
    data["caravan_limit"] = 12
    data["coins"].append(
        {
            "id": "bronze",
            "value": 7,
            "per_player": 1,
            "position": 3,
            "colour": "#8D6E63",
            "name": {"en": "bronze coin"},
        }
    )


def hostile(data: dict[str, Any]) -> None:
    data["name"] = {lang: f"Game {HOSTILE}" for lang in data["name"]}
    data["starting_cards"][0]["name"] = {"en": f"Card {HOSTILE}"}
    data["merchant_deck"][0]["id"] = "#id[$]"
    data["terms"]["point_cards"] = {"en": f"Deck {HOSTILE}"}


def retheme(data: dict[str, Any]) -> None:
    data["terms"]["point_card"] = {"en": "golem card"}
    data["terms"]["point_cards"] = {"en": "golem cards"}


# -- PDF reading ---------------------------------------------------------------------------------


DEFAULT = CardOptions()
_rendered: dict[tuple[int, CardOptions], tuple[Ruleset, bytes]] = {}


def pdf(ruleset: Ruleset, options: CardOptions = DEFAULT) -> bytes:
    """Render once per ruleset object and options (the ruleset is kept alive with it)."""
    key = (id(ruleset), options)
    if key not in _rendered:
        _rendered[key] = (ruleset, render(ruleset, options))
    return _rendered[key][1]


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def text(data: bytes, pages: slice = slice(None)) -> str:
    return " ".join(p.extract_text() or "" for p in reader(data).pages[pages])


@dataclass
class Drawing:
    """What a page draws, in mm from the top-left corner."""

    segments: list[tuple[float, float, float, float]]  # stroked straight lines
    registration: list[tuple[float, float, float, float]]  # lines in registration colour
    fills: list[tuple[float, float, float, float]]  # filled paths: x, y, width, height
    fill_colours: set[str]  # "#rrggbb" of every RGB fill colour set


def _mul(a: list[float], b: list[float]) -> list[float]:
    """PDF matrix product a × b (a applied first)."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def drawing(data: bytes, page: int) -> Drawing:
    """Replay the page's path operators with the current transformation matrix."""
    rd = reader(data)
    pg = rd.pages[page]
    height = float(pg.mediabox.height)
    ctm, stack = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], []
    path: list[tuple[str, float, float]] = []
    registration_colour = False
    out = Drawing([], [], [], set())

    def point(x: float, y: float) -> tuple[float, float]:
        px = ctm[0] * x + ctm[2] * y + ctm[4]
        py = ctm[1] * x + ctm[3] * y + ctm[5]
        return px * PT, (height - py) * PT

    for operands, op in ContentStream(pg.get_contents(), rd).operations:
        args = [float(v) for v in operands if isinstance(v, int | float)]
        if op == b"q":
            stack.append((ctm, registration_colour))
        elif op == b"Q":
            ctm, registration_colour = stack.pop()
        elif op == b"cm":
            ctm = _mul(args, ctm)
        elif op == b"K":
            registration_colour = args == [1.0, 1.0, 1.0, 1.0]
        elif op in (b"SCN", b"RG", b"G"):
            registration_colour = False
        elif op in (b"scn", b"sc", b"rg") and len(args) == 3:
            out.fill_colours.add("#" + "".join(f"{round(v * 255):02X}" for v in args))
        elif op in (b"m", b"l"):
            path.append((op.decode(), *point(*args)))
        elif op == b"c":
            path.append(("c", *point(*args[-2:])))
        elif op == b"S":
            for (_, x1, y1), (kind, x2, y2) in itertools.pairwise(path):
                if kind == "l":
                    seg = (x1, y1, x2, y2)
                    (out.registration if registration_colour else out.segments).append(seg)
            path = []
        elif op in (b"f", b"f*", b"B", b"b", b"n"):
            if path:
                xs, ys = [p[1] for p in path], [p[2] for p in path]
                out.fills.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
            path = []
    return out


def grid(paper: str) -> tuple[list[float], list[float]]:
    """The expected cut lines: 3 × 3 cards of 63 × 88 mm, centred."""
    w, h = PAPER_MM[paper]
    x0, y0 = (w - 3 * CARD[0]) / 2, (h - 3 * CARD[1]) / 2
    return [x0 + i * CARD[0] for i in range(4)], [y0 + i * CARD[1] for i in range(4)]


def cut_marks(d: Drawing, paper: str) -> tuple[list[tuple], list[tuple]]:
    """Vertical and horizontal strokes that lie outside the card area."""
    xs, ys = grid(paper)
    vertical, horizontal = [], []
    for x1, y1, x2, y2 in d.segments:
        if abs(x1 - x2) < 0.01 and (max(y1, y2) <= ys[0] or min(y1, y2) >= ys[-1]):
            vertical.append((x1, min(y1, y2), max(y1, y2)))
        elif abs(y1 - y2) < 0.01 and (max(x1, x2) <= xs[0] or min(x1, x2) >= xs[-1]):
            horizontal.append((y1, min(x1, x2), max(x1, x2)))
    return vertical, horizontal


def card_frames(d: Drawing) -> list[tuple[float, float, float, float]]:
    """Filled shapes at least as large as a card: the frames (with their bleed)."""
    return [f for f in d.fills if f[2] >= CARD[0] - 0.01 and f[3] >= CARD[1] - 0.01]


# -- page count, size, text ----------------------------------------------------------------------


def expected_pages(r: Ruleset, players: int | None = None, backs: bool = True) -> int:
    seats = players or r.players_max
    merchant = sum(c.copies for c in r.merchant_deck)
    point = sum(c.copies for c in r.point_deck)
    starting = sum(c.copies for c in r.starting_cards) * seats + seats  # + a reference card each
    fronts = sum(math.ceil(n / 9) for n in (merchant, point, starting))
    return fronts * (2 if backs else 1)


def test_page_count_fronts_and_backs_for_every_deck() -> None:
    assert len(reader(pdf(base())).pages) == expected_pages(base())


def test_no_backs_and_players_change_the_page_count() -> None:
    r = base()
    no_backs = pdf(r, CardOptions(backs=False))
    assert len(reader(no_backs).pages) == expected_pages(r, backs=False)
    assert "Merchant cards" not in text(no_backs)
    two = pdf(r, CardOptions(players=r.players_min, backs=False))
    fronts = text(two)
    # one of each starting card per player, box amount otherwise
    name = r.starting_cards[0].name["en"]
    assert fronts.count(name) == r.players_min * r.starting_cards[0].copies
    assert text(no_backs).count(name) == r.players_max * r.starting_cards[0].copies


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_size_in_mm(paper: str) -> None:
    for page in reader(pdf(base(), CardOptions(paper=paper))).pages:
        w, h = float(page.mediabox.width) * PT, float(page.mediabox.height) * PT
        assert (round(w, 1), round(h, 1)) == PAPER_MM[paper]


def test_fronts_show_every_card_id_points_and_game_name() -> None:
    r = base()
    data = pdf(r)
    fronts = text(data)
    assert r.name["en"] in fronts
    for card in (*r.merchant_deck, *r.point_deck, *r.starting_cards):
        assert card.id in fronts
    for card in r.point_deck:
        assert str(card.points) in fronts
    for code in r.codes:  # cube letters keep cards readable in grey
        assert code in fronts
    assert "Trade card" in fronts and "Upgrade card" in fronts


def test_cubes_are_drawn_in_the_ladder_colours() -> None:
    colours = ["#123456", "#AB0042", "#00CD77", "#FEDC00"]

    def recolour(data: dict[str, Any]) -> None:
        for resource, colour in zip(data["resources"], colours, strict=True):
            resource["colour"] = colour

    data = pdf(variant(base(), recolour))
    used = set().union(*(drawing(data, i).fill_colours for i in range(len(reader(data).pages))))
    assert set(colours) <= used


def test_backs_use_the_rulesets_terms_and_follow_each_front_page() -> None:
    r = base()
    rd = reader(pdf(r))
    first_back = rd.pages[1].extract_text()
    assert "Merchant cards" in first_back
    assert "+" not in first_back  # no card ids on backs
    golem = variant(r, retheme)
    backs = text(pdf(golem))
    assert "Golem cards" in backs and "Point cards" not in backs


def test_language_option_names_cards_in_german() -> None:
    r = base()
    de = text(pdf(r, CardOptions(lang="de", backs=True)))
    assert r.starting_cards[0].name["de"] in de
    assert "Händlerkarten" in de and "Punktekarten" in de


# -- geometry ------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cut_marks_continue_the_63_by_88_grid_inside_the_printable_margin(paper: str) -> None:
    xs, ys = grid(paper)
    w, h = PAPER_MM[paper]
    d = drawing(pdf(base(), CardOptions(paper=paper)), 0)
    vertical, horizontal = cut_marks(d, paper)
    assert sorted(round(m[0], 2) for m in vertical) == sorted(round(x, 2) for x in xs * 2)
    assert sorted(round(m[0], 2) for m in horizontal) == sorted(round(y, 2) for y in ys * 2)
    for _, a, b in vertical:
        assert a >= PRINTABLE - 0.01 and b <= h - PRINTABLE + 0.01 and b - a >= 2
    for _, a, b in horizontal:
        assert a >= PRINTABLE - 0.01 and b <= w - PRINTABLE + 0.01 and b - a >= 2
    assert d.registration
    for x1, y1, x2, y2 in d.registration:  # in the margin, clear of the cards
        assert min(x1, x2) >= PRINTABLE - 0.01 and max(x1, x2) <= w - PRINTABLE + 0.01
        assert min(y1, y2) >= PRINTABLE - 0.01 and max(y1, y2) <= h - PRINTABLE + 0.01
        inside_x = xs[0] < max(x1, x2) and min(x1, x2) < xs[-1]
        inside_y = ys[0] < max(y1, y2) and min(y1, y2) < ys[-1]
        assert not (inside_x and inside_y)


def test_letter_marks_are_short_where_its_margin_is_narrow() -> None:
    a4 = cut_marks(drawing(pdf(base()), 0), "a4")[0]
    letter = cut_marks(drawing(pdf(base(), CardOptions(paper="letter")), 0), "letter")[0]
    assert max(b - a for _, a, b in letter) < min(b - a for _, a, b in a4)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_frames_are_63_by_88_at_the_grid(paper: str) -> None:
    xs, ys = grid(paper)
    frames = card_frames(drawing(pdf(base(), CardOptions(paper=paper)), 0))
    assert sorted((round(x, 2), round(y, 2)) for x, y, _, _ in frames) == sorted(
        (round(x, 2), round(y, 2)) for x in xs[:3] for y in ys[:3]
    )
    assert {(round(fw, 2), round(fh, 2)) for _, _, fw, fh in frames} == {CARD}


def test_bleed_extends_frames_and_moves_marks_out() -> None:
    bleed = 2.0
    d = drawing(pdf(base(), CardOptions(bleed=bleed)), 0)
    frames = card_frames(d)
    assert {(round(fw, 2), round(fh, 2)) for _, _, fw, fh in frames} == {
        (CARD[0] + 2 * bleed, CARD[1] + 2 * bleed)
    }
    _, ys = grid("a4")
    vertical, _ = cut_marks(d, "a4")
    top = [b for _, _, b in vertical if b <= ys[0]]
    assert top and all(b <= ys[0] - bleed for b in top)


def test_backs_are_mirrored_for_long_edge_duplex_and_shifted_by_the_offset() -> None:
    r = variant(base(), lambda d: d.update(merchant_deck=d["merchant_deck"][:2]))
    dx, dy = 1.5, -0.5
    data = pdf(r, CardOptions(back_offset=(dx, dy)))
    w, _ = PAPER_MM["a4"]
    front, back = drawing(data, 0), drawing(data, 1)
    front_frames = sorted((round(x, 2), round(y, 2)) for x, y, _, _ in card_frames(front))
    back_frames = sorted((round(x, 2), round(y, 2)) for x, y, _, _ in card_frames(back))
    assert len(front_frames) == 2
    assert back_frames == sorted(
        (round(w - x - CARD[0] + dx, 2), round(y + dy, 2)) for x, y in front_frames
    )

    def seg(x1: float, y1: float, x2: float, y2: float) -> tuple:
        return tuple(sorted([(round(x1, 2), round(y1, 2)), (round(x2, 2), round(y2, 2))]))

    mirrored = sorted(
        seg(w - x1 + dx, y1 + dy, w - x2 + dx, y2 + dy) for x1, y1, x2, y2 in front.registration
    )
    assert front.registration and mirrored == sorted(seg(*s) for s in back.registration)


def test_registration_marks_coincide_without_offset() -> None:
    data = pdf(base())
    w, _ = PAPER_MM["a4"]
    front, back = drawing(data, 0), drawing(data, 1)

    def centres(d: Drawing) -> set[tuple[float, float]]:
        return {
            (round((x1 + x2) / 2, 2), round((y1 + y2) / 2, 2)) for x1, y1, x2, y2 in d.registration
        }

    assert {(round(w - x, 2), y) for x, y in centres(front)} == centres(back)


# -- other rulesets, determinism, hostile names --------------------------------------------------


def test_five_ranks_caravan_12_and_three_coin_piles_render() -> None:
    r = variant(base(), five_ranks)
    data = pdf(r)
    assert len(reader(data).pages) == expected_pages(r)
    t = text(data)
    assert "b-v" in t and "vvvv" in t and "23" in t and "V" in t
    assert "≤ 12" in t  # the reference card's caravan limit


def test_same_input_gives_byte_identical_pdfs() -> None:
    r = base()
    assert render(r, CardOptions(paper="letter")) == render(r, CardOptions(paper="letter"))


def test_hostile_names_render_as_text() -> None:
    r = variant(base(), hostile)
    data = pdf(r)
    rd = reader(data)
    assert len(rd.pages) == expected_pages(r)
    for page in rd.pages:
        assert round(float(page.mediabox.width) * PT, 1) == 210.0
    flat = " ".join(text(data).split())
    assert "#import" in flat and "$x$" in flat and "#set page(width: 1cm)" in flat
    assert "#id[$]" in flat


# -- CLI and build ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runner() -> CliRunner:

    return CliRunner()


def invoke(runner: CliRunner, *args: str):
    from century.cli import app

    return runner.invoke(app, ["cards", *args])


def test_cli_writes_the_sheet(runner: CliRunner, tmp_path: Path) -> None:
    result = invoke(
        runner,
        "spice-road",
        "--paper",
        "letter",
        "--no-backs",
        "--players",
        "3",
        "--out",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    out = tmp_path / "cards-letter.pdf"
    rd = PdfReader(out)
    assert len(rd.pages) == expected_pages(base(), players=3, backs=False)
    assert round(float(rd.pages[0].mediabox.width) * PT, 1) == 215.9


def test_cli_back_offset_and_bleed(runner: CliRunner, tmp_path: Path) -> None:
    result = invoke(
        runner, "spice-road", "--bleed", "1", "--back-offset", "-1,0.5", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    data = (tmp_path / "cards-a4.pdf").read_bytes()
    assert data == pdf(base(), CardOptions(bleed=1.0, back_offset=(-1.0, 0.5)))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game"], "unknown game"),
        (["spice-road", "--paper", "letter", "--bleed", "5"], "at most"),
        (["spice-road", "--bleed", "-1"], "bleed"),
        (["spice-road", "--players", "99"], "players"),
        (["spice-road", "--back-offset", "1;2"], "X,Y"),
        (["spice-road", "--back-offset", "0,-40"], "back offset"),
        (["spice-road", "--lang", "xx"], "language"),
        (["spice-road", "--paper", "b5"], "b5"),
    ],
)
def test_cli_rejects_bad_options_clearly(
    runner: CliRunner, tmp_path: Path, args: list[str], message: str
) -> None:
    result = invoke(runner, *args, "--out", str(tmp_path))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not list(tmp_path.iterdir())


def test_build_target_writes_one_pdf_per_paper(tmp_path: Path) -> None:
    from century.targets import BuildOptions, targets

    written = targets()["cards"].write(base(), tmp_path, BuildOptions(papers=("a4", "letter")))
    assert sorted(p.name for p in written) == ["cards-a4.pdf", "cards-letter.pdf"]
    assert (tmp_path / "cards-a4.pdf").read_bytes() == pdf(base())
