"""The page of every diagnostic code: what it means, an example that triggers it, how to fix it.

The pages are data, ``explanations.yaml`` beside this module (shipped in the wheel, read with
`importlib.resources`); their titles are `century.base.diagnostics.CODES`. `century explain CODE`
prints a page, the SARIF rules carry it as their help (`century.cli.formats`), and a docs site
can render the same data. Each page has an address under `DOCS_URL`; the docs are not yet
published, so the text diagnostics name a page only when ``CENTURY_DOCS_URL`` says where the
docs are (`published_url`).
"""

from __future__ import annotations

import difflib
import functools
import os
import re
from dataclasses import dataclass, field
from importlib.resources import files

from century.base.diagnostics import CODES

DOCS_URL = "https://century-compiler.readthedocs.io/en/latest"
"""Where the docs site will be published: a code's page is ``<DOCS_URL>/codes/<CODE>.html``
(`url`). ``CENTURY_DOCS_URL`` overrides it."""
DOCS_ENV = "CENTURY_DOCS_URL"
"""The setting that says where the docs are published; with it, the text diagnostics end
with the address of their code's page."""
DEFAULT_ARGS = ("validate",)
"""The command an example runs when it names none (in a folder holding its files)."""


@dataclass(frozen=True)
class Example:
    """Files that trigger a code when `args` run in a folder holding them (``runs``), or, for
    what cannot be written as text (a FIFO, bytes that are not UTF-8), the idea (`note`)."""

    files: dict[str, str] = field(default_factory=dict)
    args: tuple[str, ...] = DEFAULT_ARGS
    runs: bool = True
    note: str = ""


@dataclass(frozen=True)
class Page:
    """One code's page."""

    code: str
    title: str
    means: str
    example: Example
    fix: str


@functools.cache
def pages() -> dict[str, Page]:
    """Every page, by code, in the order of the data file (a code of `CODES` without a page,
    or a page with no code, is a bug the tests find: `missing`)."""
    import yaml

    text = files("century.base").joinpath("explanations.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    found = {}
    for code, entry in data.items():
        example = entry.get("example") or {}
        found[code] = Page(
            code=code,
            title=CODES.get(code, ""),
            means=_tidy(entry["means"]),
            example=Example(
                files=dict(example.get("files") or {}),
                args=tuple(example.get("args") or DEFAULT_ARGS),
                runs=example.get("runs", True),
                note=_tidy(example.get("note", "")),
            ),
            fix=_tidy(entry["fix"]),
        )
    return found


def _tidy(text: str) -> str:
    return " ".join(text.split())


def missing() -> tuple[list[str], list[str]]:
    """The codes without a page and the pages without a code."""
    have = pages()
    return [c for c in CODES if c not in have], [c for c in have if c not in CODES]


def normalise(text: str) -> str:
    """A code as people type it (``c302``, `` 302``) written as `CODES` has it (``C302``)."""
    code = text.strip().upper()
    return f"C{code}" if code.isdigit() else code


def near(text: str) -> list[str]:
    """The codes closest to `text` in spelling (``C3O2`` -> ``C302``), at most three."""
    code = normalise(text).replace("O", "0")
    if code in CODES:
        return [code]
    return difflib.get_close_matches(code, list(CODES), n=3, cutoff=0.5)


def base_url() -> str:
    """The docs' address: ``CENTURY_DOCS_URL`` if set, else `DOCS_URL`; no trailing slash."""
    return (os.environ.get(DOCS_ENV) or DOCS_URL).rstrip("/")


def url(code: str) -> str:
    """The address of a code's page on the docs site."""
    return f"{base_url()}/codes/{code}.html"


def published_url(code: str) -> str:
    """The address of a code's page when ``CENTURY_DOCS_URL`` says the docs are published,
    else empty (the text diagnostics then name no address)."""
    return url(code) if os.environ.get(DOCS_ENV) else ""


def command(example: Example) -> str:
    """The example's command line as typed (``century validate``)."""
    return " ".join(("century", *example.args))


def to_text(page: Page) -> str:
    """A page as plain text (the help of a SARIF rule; `century explain` when piped)."""
    lines = [f"{page.code}: {page.title}", "", "What it means", f"  {page.means}", ""]
    lines += ["Example", *(f"  {line}" for line in example_lines(page.example)), ""]
    lines += ["How to fix it", f"  {page.fix}"]
    return "\n".join(lines)


def example_lines(example: Example) -> list[str]:
    """The example as lines: the note, each file with its text indented, the command."""
    lines = [f"({example.note})"] if example.note else []
    for name, text in example.files.items():
        lines.append(f"{name}:")
        lines += [f"    {line}" for line in text.rstrip("\n").splitlines()] or ["    (empty)"]
    lines.append(f"$ {command(example)}")
    return lines


def to_markdown(page: Page) -> str:
    """A page as Markdown (the ``help.markdown`` of a SARIF rule, a docs page)."""
    out = [f"**{page.code}**: {_escape(page.title)}", "", "## What it means", "", page.means, ""]
    out += ["## Example", ""]
    if page.example.note:
        out += [f"_{page.example.note}_", ""]
    for name, text in page.example.files.items():
        fence = "csv" if name.endswith((".csv", ".tsv")) else "yaml"
        out += [f"`{name}`:", "", f"```{fence}", text.rstrip("\n"), "```", ""]
    out += ["```console", f"$ {command(page.example)}", "```", ""]
    out += ["## How to fix it", "", page.fix]
    return "\n".join(out)


def _escape(text: str) -> str:
    """Markdown's emphasis characters in a title, escaped (backquoted code stays code)."""
    return re.sub(r"([*_])", r"\\\1", text)
