"""The commands stay thin: no function in `century.cli` is longer than a screen
(`LONGEST` lines, decorators and docstring included). A command parses its options, calls
its layer and prints what it gets back; the work lives in the layers. The rule is shown to
fail on a long function planted in a copy of a command's source."""

from __future__ import annotations

import ast
from pathlib import Path

import century.cli

CLI = Path(century.cli.__file__).resolve().parent

LONGEST = 60
"""The most lines a function in `century.cli` may take."""


def long_functions(source: str, name: str) -> list[str]:
    """The functions of `source` (the file `name`) longer than `LONGEST` lines, each as
    ``name:line function (lines)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = (node.end_lineno or node.lineno) - first + 1
            if lines > LONGEST:
                found.append(f"{name}:{first} {node.name} ({lines} lines)")
    return found


def test_no_command_function_is_longer_than_a_screen() -> None:
    found = [
        problem
        for path in sorted(CLI.rglob("*.py"))
        for problem in long_functions(path.read_text("utf-8"), str(path.relative_to(CLI)))
    ]
    assert not found, "split these into steps (or move their work into a layer):\n" + "\n".join(
        found
    )


def test_a_long_function_planted_in_a_command_is_found() -> None:
    source = (CLI / "deck.py").read_text("utf-8")
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST))
    planted = source + f"\n\ndef planted() -> None:\n{body}"
    assert long_functions(source, "deck.py") == []
    (problem,) = long_functions(planted, "deck.py")
    assert problem.endswith(f"planted ({LONGEST + 1} lines)")
