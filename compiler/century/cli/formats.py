"""Diagnostics as people and tools read them.

- ``text``: each diagnostic as a compiler writes it (``file:line:col: error C302: ...``), then
  the source line with a caret under the offending text (a code frame), the hint, and each
  related place with its own frame; coloured by severity on a terminal (rich), plain text
  when piped or with ``NO_COLOR``, coloured when piped with ``FORCE_COLOR``.
- ``json``: the list of diagnostics, field by field.
- ``github``: GitHub Actions workflow commands (``::error file=...``), one annotation each.
- ``sarif``: one SARIF 2.1.0 log, for code-scanning tools.

The frames read the files again (the bundled data by its ``<bundled>/...`` name): only files
this run read as rules data, regular and within the size cap, so a frame never quotes a file
the run refused (not rules data, out of the project); any other file just has no frame.
"""

from __future__ import annotations

import enum
import functools
import json
import os
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from century.base.diagnostics import (
    CODES,
    WHOLE,
    Diagnostic,
    Mark,
    line_start,
    place,
    printable,
    sort_key,
    to_json,
)
from century.base.version import __version__

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class DiagnosticFormat(enum.StrEnum):
    """How `century validate` prints what it found."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


STYLES = {"error": "bold red", "warning": "bold yellow"}
"""The colour of each severity (its word, the caret under the text)."""
GUTTER = "blue"
HINT = "cyan"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
BUNDLED_BASE = "BUNDLED"
"""The SARIF base of the files named ``<bundled>/...``: the package's data folder."""
UNQUOTED = frozenset({"C001", "C002", "C003", "C004", "C007", "C016", "C020", "C022", "C208"})
"""Codes of problems with a file as a whole (missing, unreadable, not rules data, out of the
project): never framed, as their files are never quoted."""
MAX_SHOWN = 160
"""The most characters of a source line shown in a frame (a window around the caret)."""


def ordered(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, by file, line and column."""
    return sorted(set(diagnostics), key=sort_key)


def diagnostics_text(diagnostics: Iterable[Diagnostic], fmt: str) -> str:
    """The diagnostics in a tool's format (json, github, sarif) as one text."""
    if fmt == DiagnosticFormat.github:
        return "\n".join(github(d) for d in ordered(diagnostics))
    if fmt == DiagnosticFormat.sarif:
        return json.dumps(sarif(diagnostics), indent=2, ensure_ascii=False)
    return to_json(diagnostics)


# -- text ------------------------------------------------------------------------------------


MAX_SAME = 20
"""The most diagnostics of one code in one file printed as text; the rest are counted."""


def print_text(diagnostics: Iterable[Diagnostic], console: Console | None = None) -> None:
    """Print the diagnostics for people on `console` (default: stderr), a frame under each.

    Diagnostics of one code at one place (a value that breaks several rules at once, such as
    a caravan limit below every starting caravan) are folded under the first, their messages
    listed without a frame; past `MAX_SAME` of one code in one file, the rest are counted
    ("and N more"), as a table with a problem on every row would otherwise print it that
    many times. The machine formats (json, github, sarif) list every diagnostic."""
    if console is None:
        from rich.console import Console

        plain = bool(os.environ.get("NO_COLOR"))  # no colour and no bold: plain text
        console = Console(stderr=True, highlight=False, color_system=None if plain else "auto")
    shown: Counter[tuple[str, str]] = Counter()
    left: Counter[tuple[str, str]] = Counter()
    number = 0
    for first, *also in folded(ordered(diagnostics)):
        kind = (first.file, first.code)
        if shown[kind] >= MAX_SAME:
            left[kind] += 1 + len(also)
            continue
        shown[kind] += 1
        if number:
            console.print()
        number += 1
        console.print(text(first, _width(console), also), soft_wrap=True)
    for (file, code), count in sorted(left.items()):
        console.print()
        console.print(
            f"{line_start(printable(file))}: and {count} more {code} "
            f"({CODES[code]}); --format json lists them all",
            soft_wrap=True,
            markup=False,
        )


def folded(diagnostics: list[Diagnostic]) -> Iterator[list[Diagnostic]]:
    """`diagnostics` (ordered) in runs of one code at one place (file, line, column)."""
    run: list[Diagnostic] = []
    for d in diagnostics:
        if run and (d.file, d.line, d.col, d.code) != (
            run[0].file,
            run[0].line,
            run[0].col,
            run[0].code,
        ):
            yield run
            run = []
        run.append(d)
    if run:
        yield run


def _width(console: Console) -> int:
    return console.width if console.is_terminal else MAX_SHOWN


def text(d: Diagnostic, width: int = MAX_SHOWN, also: Iterable[Diagnostic] = ()) -> Text:
    """One diagnostic as styled text: its line, the frame, the messages of `also` (others of
    its code at its place), the hint, the related places, and the address of its code's page
    when the docs are published (`published_url`)."""
    from rich.text import Text

    from century.base.explanations import published_url

    safe = d.printable()
    out = Text()
    out.append(f"{place(safe.file, safe.line, safe.col)}:", style="bold")
    out.append(" ")
    out.append(f"{safe.severity} {safe.code}", style=STYLES[safe.severity])
    out.append(f": {safe.message}")
    if safe.path:
        out.append(f" [at {safe.path}]", style="dim")
    digits = max(len(str(n)) for n in (d.line, *(m.line for m in d.related)))
    quoted = d.code not in UNQUOTED
    frame = list(_frame(d.file, d.line, d.col, STYLES[d.severity], width, digits) if quoted else ())
    for line in frame:
        out.append("\n")
        out.append_text(line)
    gutter = " " * (digits + 1) if frame else "  "
    for other in also:
        out.append(f"\n{gutter}= ", style=GUTTER)
        out.append("also here: ", style="bold")
        out.append(
            other.printable().message + (f" [at {printable(other.path)}]" if other.path else "")
        )
    if safe.hint:
        out.append(f"\n{gutter}= ", style=GUTTER)
        out.append("hint: ", style=f"bold {HINT}")
        out.append(safe.hint)
    for mark in d.related:
        spot = Mark(printable(mark.file), mark.line, mark.col)
        out.append(f"\n{gutter}= ", style=GUTTER)
        out.append("related: ", style="bold")
        out.append(str(spot))
        for line in _frame(mark.file, mark.line, mark.col, "bold", width, digits) if quoted else ():
            out.append("\n")
            out.append_text(line)
    address = published_url(d.code)  # only once CENTURY_DOCS_URL says where the docs are
    if address:
        out.append(f"\n{gutter}= ", style=GUTTER)
        out.append("see: ", style="bold")
        out.append(address)
    return out


def _frame(file: str, line: int, col: int, style: str, width: int, digits: int) -> Iterator[Text]:
    """The source line `line` of `file` with a caret under the text at `col`, as ruff and
    rustc draw it (line numbers `digits` wide); nothing when the line cannot be read."""
    from rich.cells import cell_len
    from rich.text import Text

    source = source_line(file, line)
    if source is None:
        return
    start, end = span(source, col, file)
    parts = (source[:start], source[start:end], source[end:])
    before, marked, after = (printable(part) for part in parts)
    before, marked, after = _window(before, marked, after, max(40, width - digits - 3))
    number = str(line).rjust(digits)
    pad = " " * digits
    yield Text.assemble((f"{pad} |", GUTTER))
    yield Text.assemble((f"{number} | ", GUTTER), before + marked + after)
    carets = "^" * max(1, cell_len(marked))
    yield Text.assemble((f"{pad} | ", GUTTER), " " * cell_len(before), (carets, style))


def _window(before: str, marked: str, after: str, room: int) -> tuple[str, str, str]:
    """The three parts of a line cut to about `room` characters around the marked part."""
    marked = marked if len(marked) <= room // 2 else marked[: room // 2 - 1] + "…"
    if len(before) + len(marked) > room * 2 // 3:
        before = "…" + before[-max(8, room // 3) :]
    rest = max(0, room - len(before) - len(marked))
    if len(after) > rest:
        after = after[: max(0, rest - 1)] + "…"
    return before, marked, after


def source_line(file: str, line: int) -> str | None:
    """Line `line` (from 1) of the file a diagnostic names, without its line break; None for
    a file this run did not read as input (a link swapped in since, a file never read), not
    a regular file within the size cap, not UTF-8, or shorter."""
    from century.base.inputs import was_read
    from century.base.limits import MAX_FILE_BYTES

    path = source_path(file)
    if path is None or line < 1 or not was_read(path):
        return None
    try:
        info = path.stat()
        if not path.is_file() or info.st_size > MAX_FILE_BYTES:
            return None
        lines = _lines(str(path), info.st_mtime_ns, info.st_size, info.st_ino)
    except (OSError, UnicodeDecodeError):
        return None
    if line > len(lines):
        return None
    return lines[line - 1].replace("\t", " ").lstrip("\ufeff")


@functools.lru_cache(maxsize=8)
def _lines(path: str, mtime_ns: int, size: int, inode: int) -> list[str]:
    """The lines of the file `path` as it is at that stamp: read once for every frame drawn
    from it (a table with a problem on each row is not read once per row)."""
    from century.base.limits import MAX_FILE_BYTES

    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    return data.decode("utf-8").splitlines()


def source_path(file: str) -> Path | None:
    """The file a diagnostic names: ``<bundled>/rules/...`` in the package's data, any other
    name as a path from the working folder."""
    from century.frontend.sources import BUNDLED

    if not file:
        return None
    parts = file.split("/")
    if parts[0] != BUNDLED:
        return Path(file)
    from century.base.resources import CARDS, RULES, SCHEMAS

    roots = {root.name: root for root in (RULES, CARDS, SCHEMAS)}
    if len(parts) < 3 or parts[1] not in roots or ".." in parts:
        return None
    return roots[parts[1]].joinpath(*parts[2:])


def span(line: str, col: int, file: str = "") -> tuple[int, int]:
    """Where the text a diagnostic at `col` points at lies in `line` (start, end): a quoted
    string to its closing quote, a flow collection to its closing bracket, a key to its
    colon, a plain value to the end of the line or of its flow entry, a table cell to its
    delimiter; at least one character."""
    start = min(max(col - 1, 0), len(line))
    if start >= len(line):
        return start, start + 1
    first = line[start]
    if first in "\"'":
        close = line.find(first, start + 1)
        return start, close + 1 if close > start else len(line)
    if first in "[{":
        depth = 0
        for index in range(start, len(line)):
            depth += (line[index] in "[{") - (line[index] in "]}")
            if depth == 0:
                return start, index + 1
        return start, len(line)
    if file.endswith((".csv", ".tsv")):
        stops: tuple[str, ...] = ("\t",) if file.endswith(".tsv") else (_csv_delimiter(file),)
    elif line[:start].count("{") + line[:start].count("[") > line[:start].count("}") + line[
        :start
    ].count("]"):
        stops = (",", "]", "}", ": ", " #")
    else:
        stops = (": ", " #")
    end = len(line)
    for stop in stops:
        found = line.find(stop, start)
        if found != -1:
            end = min(end, found)
    if line.endswith(":") and end == len(line):
        end -= 1
    end = start + len(line[start:end].rstrip())
    return start, max(end, start + 1)


def _csv_delimiter(file: str) -> str:
    """The cell delimiter of a CSV file as the reader finds it (`century.frontend.csvdeck`):
    ``;`` when its header line has more of them than commas (spreadsheets that write the
    decimal comma save so), else ``,``."""
    header = source_line(file, 1) or ""
    return ";" if header.count(";") > header.count(",") else ","


# -- GitHub annotations ------------------------------------------------------------------------


def github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the diagnostic's line (files of the
    bundled data, outside the repository, name no file)."""
    safe = d.printable()
    props = [] if safe.file.startswith("<") else [f"file={_prop(safe.file)}"]
    title = f"{safe.code} {CODES[safe.code]}"
    props += [f"line={safe.line}", f"col={safe.col}"] if safe.line != WHOLE else []
    props += [f"title={_prop(title)}"]
    message = safe.message + (f" [at {safe.path}]" if safe.path else "")
    if safe.hint:
        message += f"\nhint: {safe.hint}"
    for mark in safe.related:
        message += f"\nrelated: {mark}"
    if safe.file.startswith("<"):
        message = f"{place(safe.file, safe.line, safe.col)}: {message}"
    return f"::{safe.severity} {','.join(props)}::{_data(message)}"


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


# -- SARIF -----------------------------------------------------------------------------------


def sarif(diagnostics: Iterable[Diagnostic]) -> dict[str, Any]:
    """One SARIF 2.1.0 log of one run of century: every code found as a rule (with what it
    means), every diagnostic as a result at its place, related places included."""
    from century.base.explanations import base_url
    from century.base.resources import package_dir

    found = ordered(diagnostics)
    codes = sorted({d.code for d in found})
    index = {code: number for number, code in enumerate(codes)}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "century",
                "version": __version__,
                "informationUri": base_url() + "/",
                "rules": [_rule(code) for code in codes],
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code]) for d in found],
    }
    if any(_is_bundled(d.file) or any(_is_bundled(m.file) for m in d.related) for d in found):
        data = package_dir("data").resolve().as_uri() + "/"
        run["originalUriBaseIds"] = {BUNDLED_BASE: {"uri": data}}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _rule(code: str) -> dict[str, Any]:
    """A code as a SARIF rule: its title, its page (`century explain CODE`) as the full
    description and the help, and the page's address on the docs site."""
    from century.base.explanations import pages, to_markdown, to_text, url

    rule: dict[str, Any] = {"id": code, "shortDescription": {"text": CODES[code]}}
    page = pages().get(code)
    if page is not None:
        rule["fullDescription"] = {"text": page.means}
        rule["help"] = {"text": to_text(page), "markdown": to_markdown(page)}
    rule["helpUri"] = url(code)
    return rule


def _result(d: Diagnostic, rule: int) -> dict[str, Any]:
    safe = d.printable()
    message = safe.message + (f" [at {safe.path}]" if safe.path else "")
    if safe.hint:
        message += f" (hint: {safe.hint})"
    result: dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": rule,
        "level": d.severity,
        "message": {"text": message},
        "locations": [_location(d.file, d.line, d.col)],
    }
    if safe.path:
        result["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": safe.path}]
    if d.related:
        result["relatedLocations"] = [
            {"id": number, **_location(m.file, m.line, m.col)} for number, m in enumerate(d.related)
        ]
    if safe.hint:
        result["properties"] = {"hint": safe.hint}
    return result


def _location(file: str, line: int, col: int) -> dict[str, Any]:
    artifact: dict[str, Any]
    if _is_bundled(file):
        rest = file.split("/", 1)[1] if "/" in file else ""
        artifact = {"uri": urllib.parse.quote(rest), "uriBaseId": BUNDLED_BASE}
    elif os.path.isabs(file):
        artifact = {"uri": Path(file).as_uri()}
    else:
        artifact = {"uri": urllib.parse.quote(Path(file).as_posix())}
    if line == WHOLE:  # the file as a whole: no region
        return {"physicalLocation": {"artifactLocation": artifact}}
    region = {"startLine": max(1, line), "startColumn": max(1, col)}
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def _is_bundled(file: str) -> bool:
    from century.frontend.sources import BUNDLED

    return file == BUNDLED or file.startswith(BUNDLED + "/")
