"""Codes you can look up: every code of the registry has a page (`century.base.explanations`),
`century explain` prints it, its example triggers it, and the SARIF rules carry it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from century import cli
from century.base.diagnostics import CODES
from century.base.explanations import DOCS_ENV, DOCS_URL, missing, pages, to_markdown, url

from helpers import REFERENCE


def explain(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli.app, ["explain", *args], env=env, catch_exceptions=False)


def test_every_code_of_the_registry_has_a_page_and_every_page_a_code() -> None:
    without_page, without_code = missing()
    assert without_page == [], (
        f"add a page to compiler/century/base/explanations.yaml: {without_page}"
    )
    assert without_code == [], f"pages of codes that do not exist: {without_code}"
    for page in pages().values():
        assert page.means and page.fix and page.title, page.code
        assert page.example.files or page.example.note, page.code
        assert page.example.runs or page.example.note, f"{page.code}: say what cannot run"


@pytest.mark.parametrize("code", list(CODES))
def test_century_explain_prints_the_page_of_every_code(code: str) -> None:
    result = explain(code.lower())
    assert result.exit_code == 0, result.output
    page = pages()[code]
    text = " ".join(result.stdout.split())
    assert text.startswith(f"{code}: {' '.join(page.title.split())}")
    for part in (
        "What it means",
        "Example",
        "How to fix it",
        f"$ century {' '.join(page.example.args)}",
    ):
        assert part in text, part
    assert " ".join(page.means.split()) in text and " ".join(page.fix.split()) in text
    for name in page.example.files:
        assert f"{name}:" in text
    assert "\x1b[" not in result.stdout  # not a terminal: plain text


RUNNABLE = [code for code, page in pages().items() if page.example.runs and code in CODES]


@pytest.mark.slow
@pytest.mark.parametrize("code", RUNNABLE)
def test_the_example_of_a_page_triggers_its_code(code: str, tmp_path: Path, monkeypatch) -> None:
    """Written into an empty folder, the example's files make its command report the code."""
    example = pages()[code].example
    for name, text in example.files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = list(example.args)
    if args[0] == "validate":
        args[1:1] = ["--format", "json"]
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code != 3, result.stderr  # an internal error: a bug
    shown = result.stdout + result.stderr
    codes = {d["code"] for d in json.loads(result.stdout)} if args[0] == "validate" else set()
    assert code in codes or f" {code}:" in shown, shown[-3000:]


def test_explain_without_a_code_lists_every_code() -> None:
    result = explain()
    assert result.exit_code == 0, result.output
    listed = [line.split()[0] for line in result.stdout.splitlines() if line[:1] == "C"]
    assert listed == list(CODES)
    assert "C302  an unknown resource code in a cube string" in result.stdout


@pytest.mark.parametrize(
    ("typed", "guess"), [("C3O2", "C302"), ("C9999", ""), ("302", ""), ("spice", "")]
)
def test_an_unknown_code_is_a_usage_error_with_a_guess(typed: str, guess: str) -> None:
    result = explain(typed)
    if typed == "302":  # digits alone are the code
        assert result.exit_code == 0 and result.stdout.startswith("C302:")
        return
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: unknown code {typed!r}")
    assert ("did you mean C302?" in result.stderr) == (guess == "C302")
    assert "`century explain` lists every code" in result.stderr


def test_the_address_of_a_page_is_shown_only_where_the_docs_are_said_to_be() -> None:
    assert url("C302") == f"{DOCS_URL}/codes/C302.html"
    assert "https://" not in explain("C302").stdout
    shown = explain("C302", env={DOCS_ENV: "https://docs.example.org/century/"}).stdout
    assert "https://docs.example.org/century/codes/C302.html" in shown


def test_text_diagnostics_end_with_the_address_only_when_the_docs_are_published(
    tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ncaravan_limt: 12\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    done = runner.invoke(cli.app, ["validate"], env={"NO_COLOR": "1", DOCS_ENV: None})
    assert "C101" in done.stderr and "see:" not in done.stderr
    published = {"NO_COLOR": "1", DOCS_ENV: "https://docs.example.org"}
    done = runner.invoke(cli.app, ["validate"], env=published)
    assert "  = see: https://docs.example.org/codes/C101.html\n" in done.stderr


def test_sarif_rules_carry_the_page_and_validate_against_the_schema(
    tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "id: house\nextends: spice-road\ncaravan_limt: 12\ncards:\n  merchant:\n    add:\n"
        "      - {kind: trade, pay: B, get: RRXR}\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli.app, ["validate", "-f", "sarif"], catch_exceptions=False)
    log = json.loads(result.stdout)
    schema = json.loads((REFERENCE / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert not errors, [e.message for e in errors]
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == f"{DOCS_URL}/"
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert "C101" in rules
    assert all(rule["helpUri"] == url(code) and rule["help"] for code, rule in rules.items())
    rule = rules["C101"]
    page = pages()["C101"]
    assert rule["shortDescription"] == {"text": CODES["C101"]}
    assert rule["fullDescription"] == {"text": page.means}
    assert rule["help"]["markdown"] == to_markdown(page)
    assert "How to fix it" in rule["help"]["text"] and "caravan_limt: 12" in rule["help"]["text"]
    assert rule["helpUri"] == f"{DOCS_URL}/codes/C101.html"


def test_tab_completes_a_code() -> None:
    result = CliRunner().invoke(
        cli.app,
        [],
        prog_name="century",
        env={"_CENTURY_COMPLETE": "complete_bash", "COMP_WORDS": "century explain C30",
             "COMP_CWORD": "2"},
    )  # fmt: skip
    assert result.stdout.split() == [code for code in CODES if code.startswith("C30")]
