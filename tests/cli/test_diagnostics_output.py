"""How `century validate` shows what it found: code frames for people (coloured on a terminal,
plain when piped), GitHub annotations and SARIF for CI."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import jsonschema
import pytest
from rich.console import Console

from century.base.diagnostics import Diagnostic, Mark
from century.base.inputs import read_bytes
from century.base.limits import MAX_FILE_BYTES
from century.cli.formats import github, print_text, span

from helpers import GOLDEN, REFERENCE

HOUSE = """\
# yaml-language-server: $schema=../schema/variant.schema.json
id: house
extends: spice-road
name: {en: House, de: Haus, fr: House}
caravan_limit: 12
cards:
  merchant:
    add:
      - {kind: trade, pay: R, get: YYY}
      - {kind: trade, pay: B, get: RRXR}
"""

PLAIN = """\
rules/house.yaml:9:9: error C305: card id 'r-yyy' is used twice (first at \
<bundled>/cards/spice-road/merchant.yaml:16:5) [at decks.merchant.cards[43]]
   |
 9 |       - {kind: trade, pay: R, get: YYY}
   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   = hint: use `copies` for several of the same card, or give one an explicit `id`
   = related: <bundled>/cards/spice-road/merchant.yaml:16:5
   |
16 |   - {kind: trade, pay: R, get: YYY}
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

rules/house.yaml:10:36: error C302: unknown resource code X in 'RRXR' \
[at decks.merchant.cards[44].get]
   |
10 |       - {kind: trade, pay: B, get: RRXR}
   |                                    ^^^^
   = hint: the ladder's codes are YRGB
checked 1 game (house) in 8 files under rules/, <bundled>: 2 errors, 0 warnings
"""


@pytest.fixture
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder whose variant has two errors, one of them related to a bundled file."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(HOUSE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _validate(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`century validate` run in `folder` as a process whose output is piped."""
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "century", "validate", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**clean, "COLUMNS": "100", **env},
        check=False,
    )


def test_piped_text_is_plain_with_a_code_frame_hint_and_related_place(house: Path) -> None:
    done = _validate(house)
    assert done.returncode == 1
    assert done.stderr == PLAIN
    assert done.stdout == ""


def test_force_color_colours_by_severity_and_no_color_wins(house: Path) -> None:
    coloured = _validate(house, FORCE_COLOR="1")
    assert "\x1b[1;31merror C305\x1b[0m" in coloured.stderr  # errors in bold red
    assert "\x1b[1;31m^^^^\x1b[0m" in coloured.stderr  # and so is the caret
    plain = _validate(house, FORCE_COLOR="1", NO_COLOR="1")
    assert plain.stderr == PLAIN


def test_the_coloured_rendering_matches_its_snapshot(house: Path, refresh_goldens: bool) -> None:
    """Colour by severity (a warning in yellow, an error in red), the gutter in blue, the
    hint in cyan: the escape codes as a terminal receives them."""
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, color_system="standard", width=100)
    warning = Diagnostic.at(
        Mark("rules/house.yaml", 5, 16),
        "C309",
        "a made-up warning at the caravan limit",
        hint="a hint",
        severity="warning",
    )
    error = Diagnostic.at(Mark("rules/house.yaml", 10, 36), "C302", "unknown code X", path="x")
    read_bytes(house / "rules" / "house.yaml", "rules/house.yaml", MAX_FILE_BYTES)  # as a run does
    print_text([warning, error], console)
    golden = GOLDEN / "diagnostics" / "coloured.txt"
    if refresh_goldens:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(screen.getvalue(), encoding="utf-8")
    assert screen.getvalue() == golden.read_text(encoding="utf-8")
    assert "\x1b[1;33mwarning C309\x1b[0m" in screen.getvalue()


def test_github_annotations_name_the_file_line_and_code(house: Path) -> None:
    done = _validate(house, "--format", "github")
    assert done.returncode == 1 and done.stderr == ""
    first, second = done.stdout.splitlines()
    assert first.startswith(
        "::error file=rules/house.yaml,line=9,col=9,title=C305 a card id is used twice::card id"
    )
    assert "%0Ahint: use `copies`" in first
    assert "%0Arelated: <bundled>/cards/spice-road/merchant.yaml:16:5" in first
    assert second.startswith("::error file=rules/house.yaml,line=10,col=36,title=C302 ")


def test_github_annotations_escape_what_would_end_a_property_or_a_line() -> None:
    d = Diagnostic.at(Mark("a,b:c.yaml", 1, 2), "C101", "50% off\nnext", severity="warning")
    assert github(d) == (
        "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=C101 an unknown key::50%25 off\\x0anext"
    )
    bundled = Diagnostic.at(Mark("<bundled>/rules/x.yaml", 3, 4), "C101", "m")
    assert github(bundled) == (
        "::error line=3,col=4,title=C101 an unknown key::<bundled>/rules/x.yaml:3:4: m"
    )


def test_sarif_is_valid_against_the_sarif_2_1_0_schema(house: Path) -> None:
    """The schema is OASIS's (errata 01), shipped in tests/data: no network."""
    done = _validate(house, "-f", "sarif")
    assert done.returncode == 1
    log = json.loads(done.stdout)
    schema = json.loads((REFERENCE / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert not errors, [e.message for e in errors]
    (run,) = log["runs"]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["C302", "C305"]
    first = run["results"][0]
    assert first["ruleId"] == "C305" and first["level"] == "error"
    place = first["locations"][0]["physicalLocation"]
    assert place["artifactLocation"] == {"uri": "rules/house.yaml"}
    assert place["region"] == {"startLine": 9, "startColumn": 9}
    related = first["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
    assert related == {"uri": "cards/spice-road/merchant.yaml", "uriBaseId": "BUNDLED"}
    base = Path(url2pathname(urlparse(run["originalUriBaseIds"]["BUNDLED"]["uri"]).path))
    assert (base / "cards" / "spice-road" / "merchant.yaml").is_file()
    (house / "ok").mkdir()
    (house / "ok" / "ok.yaml").write_text("id: ok\nextends: spice-road\n", encoding="utf-8")
    clean = _validate(house, "-f", "sarif", "ok/ok.yaml")
    assert clean.returncode == 0, clean.stderr
    empty = json.loads(clean.stdout)
    assert empty["runs"][0]["results"] == []
    assert not list(jsonschema.Draft4Validator(schema).iter_errors(empty))


@pytest.mark.parametrize(
    ("line", "col", "file", "marked"),
    [
        ("caravan_limt: 12", 1, "a.yaml", "caravan_limt"),
        ("caravan_limit: twelve  # a comment", 16, "a.yaml", "twelve"),
        ("  - {kind: swap, pay: R}", 12, "a.yaml", "swap"),
        ("  - {kind: trade, pay: R}", 5, "a.yaml", "{kind: trade, pay: R}"),
        ('  name: {en: "A, B", de: C, fr: "A, B"}', 14, "a.yaml", '"A, B"'),
        ("  text: A caravan holds at most 12", 9, "a.yaml", "A caravan holds at most 12"),
        ("r-yyy,trade,R,YXY,1", 15, "deck.csv", "YXY"),
        ("r-yyy\ttrade\tR\tYXY", 15, "deck.tsv", "YXY"),
        ("short", 40, "a.yaml", ""),
    ],
)
def test_the_caret_underlines_the_text_the_diagnostic_names(
    line: str, col: int, file: str, marked: str
) -> None:
    start, end = span(line, col, file)
    assert line[start:end] == marked and end > start


def test_a_frame_escapes_control_characters_and_quotes_only_rules_data_read(
    tmp_path: Path,
) -> None:
    """Frames show lines of the files the run read as rules data, escaped; never of a file it
    did not read (a link swapped in since), nor of one it refused (not rules data)."""
    odd, secret, other = (tmp_path / name for name in ("odd.yaml", "secret.yaml", "other.yaml"))
    odd.write_text("name: \x1b[31mred\n", encoding="utf-8")
    secret.write_text("password: hunter2\n", encoding="utf-8")
    other.write_text("password: hunter2\n", encoding="utf-8")
    for path in (odd, other):
        read_bytes(path, path.name, MAX_FILE_BYTES)
    os.mkfifo(tmp_path / "fifo.yaml")  # never opened
    found = [
        Diagnostic.at(Mark(str(odd), 1, 7), "C005", "control character"),
        Diagnostic.at(Mark(str(tmp_path / "missing.yaml"), 1, 1), "C001", "no such file"),
        Diagnostic.at(Mark(str(tmp_path / "fifo.yaml"), 1, 1), "C020", "a FIFO"),
        Diagnostic.at(Mark(str(secret), 1, 1), "C101", "never read by this run"),
        Diagnostic.at(Mark(str(other), 1, 1), "C022", "read, but not rules data"),
    ]
    screen = io.StringIO()
    print_text(found, Console(file=screen, force_terminal=False, width=100))
    shown = screen.getvalue()
    assert "\x1b" not in shown
    assert "1 | name: \\x1b[31mred" in shown
    assert "missing.yaml:1:1: error C001: no such file\n" in shown
    assert "fifo.yaml:1:1: error C020: a FIFO\n\n" in shown
    assert "hunter2" not in shown and "password" not in shown


def test_diagnostics_of_one_code_at_one_place_are_folded_and_a_flood_is_counted(tmp_path):
    """A value that breaks a rule several times gets one frame and its messages under it;
    past `MAX_SAME` of one code in one file the rest are counted, the file read once."""
    from century.cli import formats

    table = tmp_path / "deck.csv"
    table.write_text("".join(f"row {n}\n" for n in range(200)), encoding="utf-8")
    read_bytes(table, table.name, MAX_FILE_BYTES)
    at_once = [
        Diagnostic.at(Mark("house.yaml", 3, 16), "C311", f"seat {seat} is over the limit")
        for seat in (1, 2, 3)
    ]
    flood = [
        Diagnostic.at(Mark(str(table), n, 1), "C302", f"unknown code on row {n}")
        for n in range(1, formats.MAX_SAME + 31)
    ]
    reads = formats._lines.cache_info().misses
    screen = io.StringIO()
    print_text([*at_once, *flood], Console(file=screen, force_terminal=False, width=200))
    shown = screen.getvalue()
    assert shown.count("error C311") == 1
    assert "= also here: seat 2 is over the limit" in shown
    assert "= also here: seat 3 is over the limit" in shown
    assert shown.count("error C302") == formats.MAX_SAME
    assert f"{table}: and 30 more C302 (" in shown and "--format json lists them all" in shown
    assert formats._lines.cache_info().misses == reads + 1
