"""`century watch`: rebuild the games a change touches, until stopped.

Each round compiles every game in PATHS as `century validate` does, prints the diagnostics of
the games the change touched, and builds those that compiled as `century build` does (into
OUT/<game>/, each folder whole, under OUT's lock). A game is touched by a change to any file
it is made of or names: its own file, the files of the games it `extends`, its decks and
prose. The watching is `watchfiles`' (an optional extra), which also groups a burst of writes
into one change.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from century.base import diagnostics as diag
from century.base.extras import install_hint
from century.cli.common import (
    BUILD,
    Command,
    OutOpt,
    Paper,
    PapersOpt,
    TargetsOpt,
    check_out,
    fail,
    internal_error,
    local_rules,
    report,
    signals_call,
)
from century.cli.core import build_games, pick_targets, summary

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.pipeline import Compiled
    from century.targets import BuildOptions, Target

EXTRA = f"century watch needs watchfiles: {install_hint('watch', 'watchfiles')}"
"""What `century watch` says when `watchfiles` is not installed."""
DATA = ("rules", "cards", "schema")
"""The folders of the bundled data (links in a checkout), never watched unless named."""
READY_MS = 200
"""How often (ms) the watcher hands back control when nothing changes."""

Stamp = tuple[int, int, int] | None
"""A file's modification time, size and inode; None when it does not exist."""

WatchedArg = Annotated[
    list[Path] | None,
    typer.Argument(
        metavar="PATH",
        help="Rules files or folders to watch (default: ./rules and ./cards).",
        show_default=False,
    ),
]


PreviewOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--preview",
        metavar="CARD",
        help="Instead of building, redraw this card's preview (OUT/GAME/preview/CARD-LANG.png, "
        "as `century preview` writes it) in every game that has it (repeatable).",
    ),
]


def watch(
    paths: WatchedArg = None,
    out: OutOpt = BUILD,
    paper: PapersOpt = None,
    target: TargetsOpt = None,
    preview: PreviewOpt = None,
) -> None:
    """Build, then rebuild the games a change to their files touches, until stopped.

    Watches PATHS (default: ./rules and ./cards) and every file a game there names (decks,
    rule-sheet texts, the games it extends). After each change it prints the diagnostics of
    the games the change touched, as `century validate` does, and builds those without errors
    into OUT/<game>/ as `century build` does; a game with errors keeps its last build. With
    --preview CARD it redraws only that card, in about a second, for the designer's loop.
    Ctrl-C (or SIGTERM) stops it. Needs watchfiles (the watch extra).
    """
    try:
        import watchfiles
    except ImportError:
        fail(EXTRA)
    given = list(paths or local_rules())
    if not given:
        fail(
            "nothing to watch: this folder has no rules/ or cards/ folder; "
            "name the rules files or folders to watch",
            2,
        )
    missing = [path for path in given if not os.path.lexists(path)]
    if missing:
        fail(f"no such file or folder: {missing[0]}", 2)
    check_out(out)
    chosen = pick_targets(target)
    from century.targets import BuildOptions

    options = BuildOptions(papers=tuple(p.value for p in paper or [Paper.a4]))
    watcher = _Watcher(given, out, chosen, options, tuple(preview or ()))
    # a second stop ends the watch at once, with a KeyboardInterrupt (`_Watcher.stop`)
    with signals_call(watcher.stop, interrupt=True), contextlib.suppress(KeyboardInterrupt):
        watcher.run(watchfiles)
    typer.echo("stopped watching", err=True)


class _Watcher:
    """What one `century watch` knows between rounds: the games and the files each uses."""

    def __init__(
        self,
        paths: list[Path],
        out: Path,
        chosen: list[Target],
        options: BuildOptions,
        previews: tuple[str, ...] = (),
    ) -> None:
        self.paths = paths
        self.previews = previews
        """Cards whose previews a round redraws instead of building."""
        self.folders = [_real(path) for path in paths if path.is_dir()]
        self.named = {_real(path) for path in paths if not path.is_dir()}
        self.out = _real(out)
        self.chosen, self.options = chosen, options
        self.uses: dict[str, set[Path]] = {}
        """Per game checked in the last round: the files it is made of or names."""
        self.stamps: dict[Path, Stamp] = {}
        """The files that matter, as they were before the last round read them."""
        self.stopping = False
        """Whether Ctrl-C, SIGTERM or SIGHUP asked the watch to stop (`stop`)."""

    def stop(self, signum: int, frame: Any) -> None:
        """Ctrl-C, SIGTERM and SIGHUP stop the watch once the rebuild under way, if any, is
        done (`run` looks at least every `READY_MS`); a second one stops it at once.

        Only the second raises: an exception raised from a signal handler lands wherever the
        program is, and where that is a finalizer (a lock's `__del__`, say) Python swallows
        it, prints it, and the watch would go on."""
        if self.stopping:
            raise KeyboardInterrupt
        self.stopping = True

    # -- watching --------------------------------------------------------------------------

    def run(self, watchfiles: ModuleType) -> None:
        """Build everything, then rebuild on every change until stopped."""
        self.round(None)
        while not self.stopping:
            roots = self.roots()
            shown = ", ".join(_folder(root) for root in roots)
            count = len(self.files())
            typer.echo(f"watching {shown} ({count} file{'s' * (count != 1)}); Ctrl-C stops")
            try:
                self._watch(watchfiles, roots)
            except FileNotFoundError:  # a folder watched was removed: watch from above it
                changed = self.changed_since_read()
                if changed:
                    self.round(changed)

    def _watch(self, watchfiles: ModuleType, roots: list[Path]) -> None:
        """Rebuild on the changes in `roots` until stopped or until the folders to watch
        change (a game names a file elsewhere, a folder watched comes or goes)."""
        started = False
        for changes in watchfiles.watch(
            *roots,
            watch_filter=self.relevant,
            step=50,
            rust_timeout=READY_MS,
            yield_on_timeout=True,
        ):
            if self.stopping:
                return
            if not changes and self.roots() != roots:
                break  # a folder watched was removed or made again: watch anew
            changed = {_real(Path(path)) for _, path in changes}
            if not started:  # the watcher is up: catch what changed while it started
                started = True
                changed |= self.changed_since_read()
            if changed:
                self.round(changed)
                if self.roots() != roots:
                    break  # a game names a file in a folder not watched yet

    def files(self) -> set[Path]:
        """Every file that matters: the rules files found in PATHS and every file a game
        uses (symlinks followed)."""
        from century.frontend.sources import discover

        found, _ = discover(self.paths)
        return {_real(path) for path in found} | set().union(*self.uses.values())

    def roots(self) -> list[Path]:
        """The folders to watch (recursively): the folders of PATHS and those holding the
        files named or used, none inside another; for a folder that is gone (a rules folder
        deleted, a deck's folder not made yet), the nearest folder above it, where it may
        appear again."""
        wanted = set()
        for path in [
            *self.folders,
            *(p.parent for p in self.named | set().union(*self.uses.values())),
        ]:
            folder = path
            while not folder.is_dir() and folder != folder.parent:
                folder = folder.parent
            wanted.add(folder)
        roots: list[Path] = []
        for folder in sorted(wanted, key=lambda p: len(p.parts)):
            if not any(folder.is_relative_to(root) for root in roots):
                roots.append(folder)
        return sorted(roots)

    def relevant(self, change: Any, path: str) -> bool:
        """Whether a change to `path` can matter: a file a game uses or a path named, or a
        rules file a folder search of PATHS would find (never the build output)."""
        where = Path(path)
        target = _real(where)
        if target in self.named or any(target in files for files in self.uses.values()):
            return True
        from century.frontend.sources import SKIP_FOLDERS, SUFFIXES

        if where.is_relative_to(self.out) or not where.name.endswith(SUFFIXES):
            return False

        for folder in self.folders:
            if where.is_relative_to(folder):
                parts = where.relative_to(folder).parts[:-1]
                return not any(p.startswith(".") or p in SKIP_FOLDERS for p in parts)
        return False

    def own(self, used: Iterable[Path]) -> set[Path]:
        """The files of `used` that are not the install's bundled data (which only an upgrade
        changes), unless PATHS name them."""
        from century.base.resources import package_dir

        bundled = {_real(package_dir("data"))} | {_real(package_dir("data", n)) for n in DATA}
        return {
            path
            for path in used
            if path in self.named
            or any(path.is_relative_to(folder) for folder in self.folders)
            or not any(_real(path).is_relative_to(root) for root in bundled)
        }

    def changed_since_read(self) -> set[Path]:
        """The files that changed since the last round read them (or appeared since)."""
        now = _stamps(set(self.stamps) | self.files())
        return {path for path, stamp in now.items() if self.stamps.get(path) != stamp}

    # -- one round -------------------------------------------------------------------------

    def round(self, changed: set[Path] | None) -> None:
        """Compile, report and build what `changed` touches (None: everything); an internal
        error is reported in one line and the watch goes on."""
        try:
            self._round(changed)
        except Exception as err:  # a bug, not a data error: say so and keep watching
            internal_error(err)

    def _round(self, changed: set[Path] | None) -> None:
        from century.pipeline import compile_paths

        self.stamps = _stamps(set(self.stamps) | self.files())
        compiled = compile_paths(self.paths)
        before, self.uses = (
            self.uses,
            {g: self.own(compiled.uses.get(g, ())) for g in compiled.games},
        )
        if changed is None:
            touched = set(compiled.games)
            found = compiled.diagnostics
            files = compiled.files
        else:
            touched = {
                game
                for uses in (before, self.uses)
                for game, used in uses.items()
                if used & changed
            } | (set(self.uses) - set(before))
            typer.echo(f"changed {_few(sorted(map(_name, changed)))}: " + _plan(touched))
            found = self._diagnostics(compiled, touched, changed, before)
            used = {p for game in touched for p in self.uses.get(game, ())}
            files = sorted({_name(p) for p in used | changed if p.exists()})
        report(found)
        errors = sum(d.severity == "error" for d in found)
        checked = sorted(touched & set(self.uses))
        typer.echo(summary(checked, files, errors, len(found) - errors), err=True)
        for game in sorted(touched - set(compiled.rulesets)):
            why = "has errors" if game in self.uses else "is no longer defined"
            typer.echo(f"not built: {game} {why}; {self.out_name(game)} is left as it was")
        ready = {g: compiled.rulesets[g] for g in touched if g in compiled.rulesets}
        if ready and self.previews:
            self._preview(ready)
        elif ready:
            self._build(ready)

    def _diagnostics(
        self,
        compiled: Compiled,
        touched: set[str],
        changed: set[Path],
        before: dict[str, set[Path]],
    ) -> list[diag.Diagnostic]:
        """The diagnostics of the files changed and of the files the touched games use, and
        those of no file (a folder that holds no rules files, say)."""
        shown = {_name(p) for p in changed}
        for uses in (before, self.uses):
            shown |= {_name(p) for game in touched for p in uses.get(game, ())}
        files = set(compiled.files) | {_name(p) for used in self.uses.values() for p in used}
        return [d for d in compiled.diagnostics if d.file in shown or d.file not in files]

    def _build(self, rulesets: dict[str, Ruleset]) -> None:
        from century.base.output import OutputError
        from century.targets import TargetError

        def built(game: str, files: list[str], seconds: float) -> None:
            typer.echo(f"built {self.out_name(game)} in {seconds:.2f} s: {', '.join(files)}")

        try:
            build_games(rulesets, self.out_path, self.chosen, self.options, built)
        except (OutputError, TargetError) as err:
            typer.echo(f"error: {diag.printable(str(err))}", err=True)
        except OSError as err:
            message = f"cannot write into {self.out_path}: {err.strerror or err}"
            typer.echo(f"error: {diag.printable(message)}", err=True)

    def _preview(self, rulesets: dict[str, Ruleset]) -> None:
        """Redraw each chosen card of each game that has it, in each of its languages."""
        from century.base.output import OutputError, locked, write_files
        from century.shared.names import file_stem
        from century.targets import TargetError
        from century.targets.images import ImageOptions, preview

        for game, ruleset in sorted(rulesets.items()):
            ids = {c.id for c in (*ruleset.merchant_deck, *ruleset.starting_cards)}
            ids |= {c.id for c in ruleset.point_deck}
            for card in [c for c in self.previews if c in ids]:
                try:
                    files = {
                        f"preview/{file_stem(card)}-{file_stem(lang)}.png": preview(
                            ruleset, card, lang, options=ImageOptions(bleed=0.0)
                        )
                        for lang in ruleset.languages
                    }
                    with locked(self.out):
                        written = write_files(self.out / game, files)
                except (OutputError, TargetError) as err:
                    typer.echo(f"error: {diag.printable(str(err))}", err=True)
                    continue
                names = ", ".join(_name(path) for path in written)
                typer.echo(f"preview of {card} in {game}: {names}")

    @property
    def out_path(self) -> Path:
        """OUT as shown: relative to the working folder where possible."""
        return Path(_name(self.out))

    def out_name(self, game: str) -> str:
        return str(self.out_path / game)


def _plan(touched: set[str]) -> str:
    if not touched:
        return "no game to rebuild"
    return f"rebuilding {', '.join(sorted(touched))}"


def _stamps(paths: Iterable[Path]) -> dict[Path, Stamp]:
    stamps: dict[Path, Stamp] = {}
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            stamps[path] = None
        else:
            stamps[path] = (info.st_mtime_ns, info.st_size, info.st_ino)
    return stamps


def _real(path: Path) -> Path:
    """`path` made absolute with symlinks followed, as far as they lead (never raises)."""
    return Path(os.path.realpath(path))


def _name(path: Path) -> str:
    from century.frontend.sources import display_name

    return diag.printable(display_name(path))


def _folder(path: Path) -> str:
    return os.path.join(_name(path), "")


def _few(names: list[str], shown: int = 3) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def register(app: typer.Typer) -> None:
    app.command(cls=Command)(watch)
