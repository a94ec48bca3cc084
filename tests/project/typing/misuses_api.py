"""Mistakes a typed API catches: `mypy --strict` reports each line marked ``# E: <code>``."""

from __future__ import annotations

from pathlib import Path

import century

compiled = century.compile_paths("rules")  # E: arg-type
rulesets: list[century.Ruleset] = compiled.rulesets  # E: assignment
options = century.BuildOptions(papers="a4")  # E: arg-type
count: int = century.targets()["engine"].name  # E: assignment
config = century.SimConfig(games="10", players=2, bots=("greedy",))  # E: arg-type
century.simulate(Path("rules"), config)  # E: arg-type
thing = century.no_such_thing  # E: attr-defined
