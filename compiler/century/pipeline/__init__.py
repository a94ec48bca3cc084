"""The pipeline: load -> schema -> resolve -> check -> model, for every game found.

`compile_paths` is the one entry point: it never raises for bad data, it reports.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from century.base.diagnostics import Diagnostic, DiagnosticError, Mark, has_errors
from century.base.limits import MAX_CHAIN
from century.base.resources import RULES
from century.checks import MODEL_CHECKS, run_checks
from century.frontend.resolve import Resolved, Resolver
from century.frontend.sources import (
    PathProblem,
    SourceFile,
    Sources,
    bundled_name,
    discover,
    display_name,
    resolve_path,
)
from century.model.build import build_ruleset
from century.model.ruleset import Ruleset


@dataclass
class Compiled:
    """Everything the pipeline produced for a set of paths."""

    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    resolved: dict[str, Resolved] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    """Every file read, as shown in diagnostics."""
    games: list[str] = field(default_factory=list)
    """Every game and variant checked, whether it compiled or not."""
    known: list[str] = field(default_factory=list)
    """Every game and variant id found, compiled or not."""
    uses: dict[str, set[Path]] = field(default_factory=dict)
    """Per game checked: the files it is made of or names."""

    @property
    def files_checked(self) -> int:
        return len(self.files)


def compile_paths(
    paths: Sequence[Path] | None = None,
    *,
    with_bundled: bool = False,
    only: str | None = None,
) -> Compiled:
    """Compile the games and variants in `paths` (default: the bundled rules).

    Folders are searched recursively. Bases named by `extends` are looked up in `paths`
    first, then in the bundled rules; `with_bundled` compiles the bundled games too (for
    commands that look a game up); `only` resolves, checks and models just that game (every
    file is still loaded). A deck or rule-sheet text that no game in `paths` uses is checked
    in the context of the games of its project (the nearest folder holding a ``rules``
    folder) that use it.
    """
    return _compile(list(paths) if paths else [RULES], bool(paths), with_bundled, only, True)


def _compile(
    paths: list[Path], given: bool, with_bundled: bool, only: str | None, context: bool
) -> Compiled:
    sources = Sources()
    result = Compiled()
    wanted, problems = discover(paths)
    result.diagnostics.extend(problems)

    loaded: dict[Path, SourceFile] = {}
    broken: dict[str, str] = {}
    for path, searched in wanted.items():
        found = sources.load_found(path, searched)
        if found is not None:
            loaded.setdefault(found.path, found)
        else:
            for game_id in _claimed_id(sources, path):
                broken.setdefault(game_id, display_name(path))
    requested = list(loaded.values())
    catalogue = _catalogue(requested, result)
    broken = {k: v for k, v in broken.items() if k not in catalogue}
    compile_now = [f for f in requested if f.kind in ("game", "variant")]
    if given:  # the bundled games stay available, shadowed by games of the same id
        bundled, _ = discover([RULES])
        for path in bundled:
            found = sources.load(path)
            if found is not None and found.kind in ("game", "variant"):
                game_id = found.node.value["id"].value
                if game_id in broken:  # a game of the user's failed to load: never replaced
                    continue
                if catalogue.setdefault(game_id, found) is found and with_bundled:
                    compile_now.append(found)

    result.known = sorted(catalogue)
    resolver = Resolver(sources, catalogue, broken)
    bases: dict[str, Ruleset | None] = {}
    for source in sorted(compile_now, key=lambda found: _depth(found, catalogue)):
        game_id = source.node.value["id"].value
        if catalogue.get(game_id) is source and only in (None, game_id):
            _compile_game(game_id, source, resolver, result, bases)
    result.diagnostics.extend(resolver.problems)
    result.diagnostics.extend(sources.diagnostics)
    result.uses = resolver.uses
    checked = {f.name for f in requested}
    checked |= {display_name(path) for game in result.games for path in resolver.uses[game]}
    if context and only is None:
        used = set().union(*resolver.uses.values())
        named = {p.resolve() for p in paths if p.is_file()}
        for source in requested:
            if source.kind in ("deck", "prose") and source.path not in used:
                _check_in_context(source, source.path in named, result, bool(broken))
    result.files = sorted(checked | set(result.files))
    return result


def _claimed_id(sources: Sources, path: Path) -> set[str]:
    """The game id a rules file that failed to load stands for: its `id` if it has one, else
    its name (``house.yaml``: ``house``); none for a deck, a rule-sheet text or
    another tool's file (skipped with a warning). A bundled game of that id never takes its
    place: its variants are reported as having a base with errors."""
    try:
        found = sources.files.get(resolve_path(path))
    except PathProblem:
        found = None
    if found is None:
        return {path.stem}
    if found.kind in ("deck", "prose") or found.path in sources.skipped:
        return set()
    node = found.node.value.get("id") if isinstance(found.node.value, dict) else None
    return {node.value} if node is not None and isinstance(node.value, str) else {path.stem}


def _depth(source: SourceFile, catalogue: dict[str, SourceFile]) -> int:
    """How many `extends` lead from `source` to a game of `catalogue` that extends none (at
    most `MAX_CHAIN` + 1; a cycle or an unknown base is the resolver's to report). Games are
    compiled in this order, so a variant's rule sheet compares it with its base's compiled
    model instead of checking and building the base again (`_base_model`)."""
    depth = 0
    while depth <= MAX_CHAIN and "extends" in source.node.value:
        base = catalogue.get(source.node.value["extends"].value)
        if base is None:
            break
        source, depth = base, depth + 1
    return depth


def _compile_game(
    game_id: str,
    source: SourceFile,
    resolver: Resolver,
    result: Compiled,
    bases: dict[str, Ruleset | None],
) -> None:
    result.games.append(game_id)
    resolved = resolver.resolve(game_id)
    if resolved is None:
        return
    base_model = _base_model(resolved, resolver, result, bases)
    if resolved.chain and base_model is None:
        resolver.base_has_errors(source, resolver.catalogue[resolved.chain[-1]].name)
        result.diagnostics.append(resolver.problems.pop())
        return
    start = next(i for i, f in enumerate(resolved.files) if f is source)
    checks = run_checks(resolved.tree, frozenset(f.name for f in resolved.files[start:]))
    result.diagnostics.extend(checks)
    if has_errors(checks):
        return
    try:
        ruleset = build_ruleset(
            resolved.tree.plain(),
            _source_names(resolved, source.path.parent),
            _source_hash(resolved),
            resolved.chain,
            base_model,
        )
    except DiagnosticError as err:  # a file of the look changed since it was checked
        result.diagnostics.extend(err.diagnostics)
        return
    late = [d for check in MODEL_CHECKS for d in check(ruleset, resolved.tree)]
    result.diagnostics.extend(late)
    if has_errors(late):
        return
    result.resolved[game_id] = resolved
    result.rulesets[game_id] = ruleset


def _base_model(
    resolved: Resolved, resolver: Resolver, result: Compiled, bases: dict[str, Ruleset | None]
) -> Ruleset | None:
    """The model of the game a variant extends, which its rule sheet compares it with: the
    one compiled in this run, else built once from its resolved tree if its checks pass (None
    for a base game, or a base with errors: those of a base not compiled in this run are
    reported here, once)."""
    if not resolved.chain:
        return None
    base_id = resolved.chain[-1]
    if base_id in result.rulesets or base_id in result.games:
        return result.rulesets.get(base_id)
    if base_id not in bases:
        bases[base_id] = None
        base = resolver.done.get(base_id)
        if base is not None:
            own = frozenset(f.name for f in base.files)
            checks = run_checks(base.tree, own)
            if has_errors(checks):
                result.diagnostics.extend(checks)
            else:
                try:
                    bases[base_id] = build_ruleset(base.tree.plain(), [], "", base.chain)
                except DiagnosticError as err:  # a file of its look changed meanwhile
                    result.diagnostics.extend(err.diagnostics)
    return bases[base_id]


def _check_in_context(
    source: SourceFile, named: bool, result: Compiled, games_broken: bool = False
) -> None:
    """Check a deck or prose file with every game of its project that uses it; no such game
    is an error for a file named alone, else a warning (nothing checked its contents), left
    out when a game of the run failed to load (the game that uses it may be that one)."""
    project = _project_rules(source.path)
    if project is not None:
        context = _compile([project], True, False, None, False)
        users = [game for game in context.games if source.path in context.uses[game]]
        if users:
            files = {display_name(path) for game in users for path in context.uses[game]}
            result.diagnostics.extend(d for d in context.diagnostics if d.file in files)
            result.files.extend(files)
            result.games.extend(game for game in users if game not in result.games)
            for game in users:
                result.uses.setdefault(game, context.uses[game])
                if game in context.rulesets:
                    result.rulesets.setdefault(game, context.rulesets[game])
                    result.resolved.setdefault(game, context.resolved[game])
            return
    if games_broken and not named:
        return
    where = f" in {display_name(project)}" if project else ""
    result.diagnostics.append(
        Diagnostic.at(
            Mark(source.name, 1, 1),
            "C018",
            f"no game{where} uses this {source.kind} file, so its contents cannot be checked",
            hint="name it in a game's `decks:` or `prose:`, or validate the game with it",
            severity="error" if named else "warning",
        )
    )


def _project_rules(path: Path) -> Path | None:
    """The ``rules`` folder of the nearest folder above `path` that has one."""
    for parent in path.parents:
        if (parent / "rules").is_dir():
            return parent / "rules"
    return None


def _catalogue(files: list[SourceFile], result: Compiled) -> dict[str, SourceFile]:
    """Games and variants by id; an id defined twice is an error at the second file."""
    catalogue: dict[str, SourceFile] = {}
    for source in files:
        if source.kind not in ("game", "variant"):
            continue
        id_node = source.node.value["id"]
        if id_node.value in catalogue:
            first = catalogue[id_node.value].node.value["id"].mark
            result.diagnostics.append(
                Diagnostic.at(
                    id_node.mark,
                    "C203",
                    f"game id {id_node.value!r} is also defined at {first}",
                    hint="give each game and variant its own id",
                    related=(first,),
                )
            )
            continue
        catalogue[id_node.value] = source
    return catalogue


def _source_names(resolved: Resolved, home: Path) -> list[str]:
    """The files a game was made from, relative to its own folder, so stable across clones; a
    user's game names the bundled files it builds on as ``<bundled>/...``, wherever the
    package is installed."""
    own_bundled = bundled_name(home) is not None
    names = [
        (None if own_bundled else bundled_name(f.path))
        or Path(os.path.relpath(f.path, home)).as_posix()
        for f in resolved.files
    ]
    return list(dict.fromkeys(names))


def _source_hash(resolved: Resolved) -> str:
    digest = hashlib.sha256()
    for f in resolved.files:
        digest.update(len(f.raw).to_bytes(8, "big"))
        digest.update(f.raw)
    return digest.hexdigest()
