"""The resolved model as ``ruleset.json``: what every other target reads, for tools."""

from __future__ import annotations

import json
from pathlib import Path

from century.model.ruleset import Ruleset
from century.targets import BuildOptions, Target


def dumps(ruleset: Ruleset) -> str:
    """The ruleset as stable, indented JSON."""
    return json.dumps(ruleset.to_json(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    """Write ``out/ruleset.json``."""
    path = out / "ruleset.json"
    path.write_text(dumps(ruleset), encoding="utf-8")
    return [path]


TARGET = Target("ruleset", "the resolved ruleset as JSON (ruleset.json)", write)
