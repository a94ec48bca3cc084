"""The pipeline: load -> schema -> resolve -> check -> model, for every game found."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from compiler.build_model import build_ruleset
from compiler.diagnostics import Diagnostic
from compiler.model import Ruleset
from compiler.paths import RULES


@dataclass
class Compiled:
    """Everything the pipeline produced for a set of paths."""

    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def compile_paths(paths: Sequence[Path] | None = None) -> Compiled:
    """PROVISIONAL: naive loading of the bundled rules; replaced by the real stages."""
    result = Compiled()
    for game in sorted(RULES.glob("*.yaml")):
        d = yaml.safe_load(game.read_text(encoding="utf-8"))
        if "extends" in d:
            continue
        for k, p in d["decks"].items():
            d["decks"][k] = yaml.safe_load((game.parent / p).read_text(encoding="utf-8"))
        for k, p in d["prose"].items():
            d["prose"][k] = yaml.safe_load((game.parent / p).read_text(encoding="utf-8"))
        digest = hashlib.sha256(game.read_bytes()).hexdigest()
        result.rulesets[d["id"]] = build_ruleset(d, [os.path.relpath(game)], digest)
    return result
