"""The resolved model as ``ruleset.json``: what every other target reads, for tools."""

from __future__ import annotations

import json

from century.model.ruleset import Ruleset
from century.targets import NoOptions, Target


def dumps(ruleset: Ruleset) -> str:
    """The ruleset as stable, indented JSON."""
    return json.dumps(ruleset.to_json(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def render(ruleset: Ruleset, options: NoOptions) -> dict[str, bytes]:
    """``ruleset.json``."""
    return {"ruleset.json": dumps(ruleset).encode("utf-8")}


TARGET = Target("ruleset", "the resolved ruleset as JSON (ruleset.json)", render)
