"""The commands stay thin: no function in `century.cli` is longer than a screen
(`LONGEST` lines, decorators and docstring included). A command parses its options, calls
its layer and prints what it gets back; the work lives in the layers. Nor does a command
play games itself: it reaches none of the functions that do (`GAME_LOOPS`, and the methods
of `PLAYING_METHODS` and `PLAYING_ON`), but calls its layer's one function that plays them.
Each rule is shown to fail on a violation planted in a copy of a command's source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


GAME_LOOPS = {
    "century.simulation.game": {"play_game"},
    "century.simulation.simulate": {
        *("simulate", "iter_results", "run_chunk", "seconds_per_game", "pick_bot"),
    },
    "century.simulation.sequential": {"Side", "watch"},
    "century.simulation.ladder": {"run_ladder"},
    "century.experiments.owner": {"owner_effect", "reference_table", "play_side"},
}
"""The functions that play games, by module: a command calls its layer's one function
(`century.simulation.run.simulate_request`, `.compare`, `.recheck`,
`century.simulation.ladder.play`, `century.experiments.owner.measure`, ...) instead."""

PLAYING_METHODS = {"play_to": "Side", "side": "Plan"}
"""Methods that play games (or set a side of them up), by name: `Side.play_to`, and the
owner-effect `Plan.side`."""

PLAYING_ON = {"LadderRun": "play"}
"""A method that plays games on a value of its class (annotated or built as one)."""


def _outside_type_checking(tree: ast.Module) -> list[ast.stmt]:
    """The statements of `tree` but its ``if TYPE_CHECKING:`` blocks (type hints play
    nothing)."""
    return [
        node
        for node in tree.body
        if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    ]


def _named(node: ast.AST | None) -> str:
    """The last name of an annotation or a callee (``x.LadderRun`` -> ``LadderRun``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rpartition(".")[2]
    return ""


def game_loops(source: str, name: str) -> list[str]:
    """Where `source` (the file `name`) reaches a function that plays games: imports one
    of `GAME_LOOPS` (directly, or its module and then the name), calls one of
    `PLAYING_METHODS`, or calls a `PLAYING_ON` method on a value of that class; each as
    ``name:line what``."""
    body = _outside_type_checking(ast.parse(source))
    modules: dict[str, str] = {}  # a name bound to a module of GAME_LOOPS -> that module
    typed: set[str] = set()  # names holding a PLAYING_ON class's value
    found = []
    for node in (n for stmt in body for n in ast.walk(stmt)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if alias.name in GAME_LOOPS.get(node.module, ()):
                    found.append(f"{where} imports {full}")
                elif full in GAME_LOOPS:
                    modules[alias.asname or alias.name] = full
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in GAME_LOOPS:
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.arg) and _named(node.annotation) in PLAYING_ON:
            typed.add(node.arg)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            value = node.value if isinstance(node.value, ast.Call) else None
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if _named(value.func if value else None) in PLAYING_ON or (
                isinstance(node, ast.AnnAssign) and _named(node.annotation) in PLAYING_ON
            ):
                typed.update(t.id for t in targets if isinstance(t, ast.Name))
    for node in (n for stmt in body for n in ast.walk(stmt)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if not isinstance(node, ast.Attribute):
            continue
        owner = ast.unparse(node.value)
        if owner in modules and node.attr in GAME_LOOPS[modules[owner]]:
            found.append(f"{where} uses {modules[owner]}.{node.attr}")
        elif node.attr in PLAYING_METHODS:
            found.append(f"{where} calls {PLAYING_METHODS[node.attr]}.{node.attr}")
        elif owner in typed and node.attr in PLAYING_ON.values():
            found.append(f"{where} calls LadderRun.{node.attr} on {owner}")
    return found


def test_no_command_plays_games_itself() -> None:
    found = [
        problem
        for path in sorted(CLI.rglob("*.py"))
        for problem in game_loops(path.read_text("utf-8"), str(path.relative_to(CLI)))
    ]
    assert not found, "call the layer's one function that plays these games:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("planted", "said"),
    [
        (
            "def f():\n    from century.simulation.simulate import simulate as run\n",
            "imports century.simulation.simulate.simulate",
        ),
        (
            "def f(a, b):\n    from century.simulation import sequential\n"
            "    return sequential.watch(a, b, len, 2, None)\n",
            "uses century.simulation.sequential.watch",
        ),
        (
            "def f(plan, host):\n    return plan.side(host, 'greedy')\n",
            "calls Plan.side",
        ),
        (
            "def f(run: LadderRun):\n    run.play(1)\n",
            "calls LadderRun.play on run",
        ),
        (
            "def f(base):\n    run = ladder.LadderRun(base, ['greedy', 'random'], 2, 3)\n"
            "    run.play(1)\n",
            "calls LadderRun.play on run",
        ),
        (
            "import century.experiments.owner as owned\n"
            "def f(base, plan):\n    return owned.reference_table(base, plan)\n",
            "uses century.experiments.owner.reference_table",
        ),
    ],
)
def test_a_game_loop_planted_in_a_command_is_found(planted: str, said: str) -> None:
    source = (CLI / "simulate.py").read_text("utf-8")
    assert game_loops(source, "simulate.py") == []
    (problem,) = game_loops(f"{source}\n\n{planted}", "simulate.py")
    assert problem.endswith(said)


def test_a_game_loop_named_for_type_checkers_only_is_no_violation() -> None:
    source = (CLI / "bots.py").read_text("utf-8")
    hinted = "if TYPE_CHECKING:\n    from century.simulation.sequential import Side\n"
    assert game_loops(f"{source}\n{hinted}", "bots.py") == []
