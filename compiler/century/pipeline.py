"""The pipeline: load -> schema -> resolve -> check -> model, for every game found.

`compile_paths` is the one entry point: it never raises for bad data, it reports.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from century.checks import MODEL_CHECKS, run_checks
from century.diagnostics import Diagnostic, has_errors
from century.frontend.resolve import Resolved, Resolver
from century.frontend.sources import SourceFile, Sources, discover
from century.model.build import build_ruleset
from century.model.ruleset import Ruleset
from century.resources import RULES


@dataclass
class Compiled:
    """Everything the pipeline produced for a set of paths."""

    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    resolved: dict[str, Resolved] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    known: list[str] = field(default_factory=list)
    """Every game and variant id found, compiled or not."""


def compile_paths(
    paths: Sequence[Path] | None = None,
    *,
    with_bundled: bool = False,
    only: str | None = None,
) -> Compiled:
    """Compile the games and variants in `paths` (default: the bundled rules).

    Bases named by `extends` are looked up in `paths` first, then in the bundled rules;
    `with_bundled` compiles the bundled games too (for commands that look a game up);
    `only` resolves, checks and models just that game (every file is still loaded).
    """
    targets = list(paths) if paths else [RULES]
    if paths and with_bundled:
        targets.append(RULES)
    sources = Sources()
    result = Compiled()
    wanted, problems = discover(targets)
    result.diagnostics.extend(problems)

    requested = [f for f in (sources.load(p) for p in wanted) if f is not None]
    catalogue = _catalogue(requested, result)
    if paths:
        bundled, _ = discover([RULES])
        for path in bundled:
            found = sources.load(path)
            if found is not None and found.kind in ("game", "variant"):
                catalogue.setdefault(found.node.value["id"].value, found)

    result.known = sorted(catalogue)
    resolver = Resolver(sources, catalogue)
    for source in requested:
        if source.kind not in ("game", "variant"):
            continue
        game_id = source.node.value["id"].value
        if catalogue.get(game_id) is not source or only not in (None, game_id):
            continue
        resolved = resolver.resolve(game_id)
        if resolved is None:
            continue
        checks = run_checks(resolved.tree)
        result.diagnostics.extend(checks)
        if has_errors(checks):
            continue
        ruleset = build_ruleset(
            resolved.tree.plain(),
            _source_names(resolved, source.path.parent),
            _source_hash(resolved),
            resolved.chain,
        )
        late = [d for check in MODEL_CHECKS for d in check(ruleset, resolved.tree)]
        result.diagnostics.extend(late)
        if has_errors(late):
            continue
        result.resolved[game_id] = resolved
        result.rulesets[game_id] = ruleset
    result.diagnostics.extend(resolver.problems)
    result.diagnostics.extend(sources.diagnostics)
    result.files_checked = len(sources.files)
    return result


def _catalogue(files: list[SourceFile], result: Compiled) -> dict[str, SourceFile]:
    """Games and variants by id; an id defined twice is an error at the second file."""
    catalogue: dict[str, SourceFile] = {}
    for source in files:
        if source.kind not in ("game", "variant"):
            continue
        id_node = source.node.value["id"]
        if id_node.value in catalogue:
            first = catalogue[id_node.value]
            result.diagnostics.append(
                Diagnostic.at(
                    id_node.mark,
                    f"game id {id_node.value!r} is also defined in {first.name}",
                    hint="give each game and variant its own id",
                )
            )
            continue
        catalogue[id_node.value] = source
    return catalogue


def _source_names(resolved: Resolved, home: Path) -> list[str]:
    """The files a game was made from, relative to its own folder, so stable across clones."""
    names = [Path(os.path.relpath(f.path, home)).as_posix() for f in resolved.files]
    return list(dict.fromkeys(names))


def _source_hash(resolved: Resolved) -> str:
    digest = hashlib.sha256()
    for f in resolved.files:
        digest.update(len(f.raw).to_bytes(8, "big"))
        digest.update(f.raw)
    return digest.hexdigest()
