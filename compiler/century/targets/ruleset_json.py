"""The first target: the resolved model as `ruleset.json`."""

from __future__ import annotations

import json
from pathlib import Path

from century.model.ruleset import Ruleset


def dumps(ruleset: Ruleset) -> str:
    return json.dumps(ruleset.to_json(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write(ruleset: Ruleset, out: Path, options: object = None) -> list[Path]:
    path = out / "ruleset.json"
    path.write_text(dumps(ruleset), encoding="utf-8")
    return [path]
