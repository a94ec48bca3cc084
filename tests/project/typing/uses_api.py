"""A program that uses century's API as its documentation shows: `mypy --strict` passes."""

from __future__ import annotations

from pathlib import Path

import century


def build_all(folder: Path) -> dict[str, list[str]]:
    """Every game of `folder` built with every target a plain build writes."""
    compiled: century.Compiled = century.compile_paths([folder])
    built: dict[str, list[str]] = {}
    for game, ruleset in compiled.rulesets.items():
        files: list[str] = []
        for target in century.targets().values():
            if target.in_build:
                try:
                    files += target.build(ruleset, century.BuildOptions(papers=("letter",)))
                except century.TargetError as err:
                    files.append(f"failed: {err}")
        built[game] = files
    return built


def problems(folder: Path) -> list[str]:
    """The diagnostics of `folder`, one line each."""
    found: list[century.Diagnostic] = century.compile_paths([folder]).diagnostics
    return [f"{d.code}: {d.message}" for d in found]


def first_moves(ruleset: century.Ruleset) -> list[str]:
    """The legal moves at the start of a seeded two-player game."""
    engine: century.Engine = century.load_engine(ruleset)
    state = engine.new_game(2, seed=7)
    return [str(move) for move in state.legal_moves()]


def win_rates(ruleset: century.Ruleset) -> dict[int, int]:
    """Wins per seat over ten greedy games."""
    config = century.SimConfig(games=10, players=2, bots=("greedy", "greedy"), seed=1)
    total: century.Aggregate = century.simulate(ruleset, config)
    return dict(total.wins)


def source(ruleset: century.Ruleset) -> str:
    text: str = century.generate_engine(ruleset)
    return text + century.__version__
