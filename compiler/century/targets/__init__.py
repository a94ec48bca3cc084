"""Targets: each renders one frozen `Ruleset` as files; the build and the commands write them.

A target is a module or package in this folder that defines ``TARGET = Target(...)``: a
name, a one-line summary and ``render(ruleset, options) -> {relative path: bytes}``, which
reads only the model and writes nothing. Its options are a frozen dataclass (`Target.options`;
none: `NoOptions`) whose fields made with `option` are its command-line options; the mixins
`Languages` and `Papers` give the two every printed target takes, checked here once for all
(`check_options`). A target raises one error type, its `Target.error` (a `TargetError`).

`targets()` finds them all, so `century build` (and `century build --target NAME`) picks up
a new target without an edit anywhere else; so does the command line, which gives every
target a ``century NAME GAME`` command with its options. Targets import the libraries in
`century.shared` and `century.engine`, never each other.

Another package adds a target by naming a `Target` (or a module with ``TARGET``) under the
entry-point group `ENTRY_POINTS` (``century.targets``) in its metadata; a plug-in that fails
to load, is no `Target` or takes a name already taken is left out, and said so on stderr.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from century.model.ruleset import Ruleset
from century.model.text import TextError
from century.shared.cards.layout import PAPERS as PAPER_SIZES

PAPERS = tuple(PAPER_SIZES)
"""The papers every printed target knows (`century.shared.cards.layout` has their sizes)."""

Files = Mapping[str, bytes]
"""What a target renders: relative path (``/``-separated) -> the file's bytes."""


class TargetError(ValueError):
    """What a target cannot render: `usage` for options that cannot be used (a usage
    error), else for the data (a missing translation, a template that fails)."""

    def __init__(self, message: str, usage: bool = False, details: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.usage = usage
        self.details = details
        """More lines printed under the message, each on its own (a compiler's log)."""


# -- options ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """How a field of a target's options is given on the command line."""

    names: tuple[str, ...]
    """``("--lang", "-l")``; for a flag with an opposite, ``("--backs/--no-backs",)``."""
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    parse: Callable[[str], Any] | None = None
    """Reads the value from the text given (ValueError: a usage error saying why)."""


def option(default: Any, *names: str, help: str, **more: Any) -> Any:
    """A field of a target's options that the command line sets (see `Option`)."""
    return field(default=default, metadata={"option": Option(names, help, **more)})


def cli_option(item: Any) -> Option | None:
    """The `Option` of a dataclass field, or None for a field the command line leaves alone."""
    found = item.metadata.get("option")
    return found if isinstance(found, Option) else None


@dataclass(frozen=True)
class NoOptions:
    """The options of a target that takes none."""


@dataclass(frozen=True)
class Native:
    """Whether to compile what the target can compile with mypyc (`century.engine.native`)."""

    native: bool = option(
        False,
        "--native",
        help=(
            "Also compile the engine and the action codec with mypyc into extension modules "
            "beside the .py files (needs mypy and a C compiler; exit 1 saying what is missing)."
        ),
    )


@dataclass(frozen=True)
class Languages:
    """The languages to render: each a language of the game (`check_options`)."""

    languages: tuple[str, ...] = option(
        (),
        "--lang",
        "-l",
        metavar="LANG",
        help="Language (repeatable; default: all of the game's).",
    )
    """Empty: every language of the game."""


@dataclass(frozen=True)
class Papers:
    """The papers to print on: each one of `PAPERS` (`check_options`)."""

    papers: tuple[str, ...] = option(
        ("a4",),
        "--paper",
        "-p",
        metavar="PAPER",
        choices=PAPERS,
        help="Paper size, a4 or letter (repeatable; default: a4).",
    )


@dataclass(frozen=True)
class Told:
    """Options of a target whose rendering takes long: `progress`, when set (the command
    line sets it), is told how many more of the files `Target.names` lists are rendered."""

    progress: Callable[[int], None] | None = field(default=None, compare=False, repr=False)


def tell(options: Any, files: int) -> None:
    """Tell the progress of `options` (a `Told`, if it is one) that `files` more are done."""
    progress = getattr(options, "progress", None)
    if progress is not None:
        progress(files)


@dataclass(frozen=True)
class BuildOptions:
    """What a build asks of every target: each target takes the fields its options have."""

    papers: tuple[str, ...] = ("a4",)
    languages: tuple[str, ...] = ()  # empty: every language of the ruleset
    dest: Path | None = None
    """Where the files end up: a build renders for a temporary folder that then replaces it,
    and a target whose files name each other by absolute path (URLs) needs the final place."""
    native: bool = False
    """Also compile what a target can compile (the engine, with mypyc: ``--native``)."""
    backend: str = "python"
    """The engine's backend: ``python``, or ``c`` for the C engine beside it too."""


def languages(ruleset: Ruleset, asked: Iterable[str]) -> list[str]:
    """The languages `asked` (every language of the game if none), in order, once each."""
    return list(dict.fromkeys(asked)) or list(ruleset.languages)


def check_language(ruleset: Ruleset, lang: str, error: type[TargetError] = TargetError) -> None:
    """`error` (a usage error) naming the game's languages unless `lang` is one of them: the
    one check of a language asked for."""
    if lang not in ruleset.languages:
        known = ", ".join(ruleset.languages) or "none"
        raise error(f"{ruleset.id} has no language {lang!r} (known: {known})", usage=True)


def check_paper(paper: str, error: type[TargetError] = TargetError) -> None:
    """`error` (a usage error) naming the papers unless `paper` is one of `PAPERS`."""
    if paper not in PAPERS:
        raise error(f"unknown paper {paper!r} (known: {', '.join(PAPERS)})", usage=True)


def check_options(ruleset: Ruleset, options: Any, error: type[TargetError] = TargetError) -> None:
    """The languages and papers of `options` (where it has them), checked for `ruleset`."""
    for lang in getattr(options, "languages", ()):
        check_language(ruleset, lang, error)
    for paper in getattr(options, "papers", ()):
        check_paper(paper, error)


# -- targets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One kind of output."""

    name: str
    summary: str
    render: Callable[[Ruleset, Any], Files]
    """The target's files for a ruleset and an instance of `options`; writes nothing."""
    in_build: bool = True
    """Whether a plain `century build` writes it (else only ``--target NAME``)."""
    options: type = NoOptions
    """A frozen dataclass: the fields made with `option` are the command's options; a field
    named like one of `BuildOptions` (papers, languages, dest) is set by a build."""
    error: type[TargetError] = TargetError
    """The one error type `files` raises."""
    names: Callable[[Ruleset, Any], Iterable[str]] | None = None
    """The paths `render` returns, worked out without rendering, so that a command refuses
    an output folder before the work (None: checked once the files are rendered)."""
    help: str = ""
    """The command's help (default: "Write <summary> for GAME.")."""
    epilog: Callable[[], str] | None = None
    """More help after the options, worked out when the command line is built."""
    report: Callable[[Path, Files, Any], list[str]] | None = None
    """What the command prints once the files are in `out` (default: ``wrote PATH`` each)."""
    plugin: str = ""
    """The entry point a plug-in's target came from (empty: one of this package's); any
    error of a plug-in's rendering is told as its `error`, naming it."""

    def options_for(self, request: BuildOptions) -> Any:
        """This target's options for what a build asks (its other fields keep defaults)."""
        known = {item.name for item in fields(self.options)}
        given = {item.name: getattr(request, item.name) for item in fields(request)}
        return self.options(**{name: value for name, value in given.items() if name in known})

    def paths(self, ruleset: Ruleset, options: Any) -> list[str]:
        """The paths `files` returns, from `names` (rendering nothing) with the options
        checked; `error` as `files` raises it. Without `names`: none."""
        with self._errors():
            check_options(ruleset, options, self.error)
            return list(self.names(ruleset, options)) if self.names else []

    def files(self, ruleset: Ruleset, options: Any) -> dict[str, bytes]:
        """The checked options rendered: the files, or `error` saying what went wrong (a
        missing translation or a failed template is the data's)."""
        with self._errors():
            check_options(ruleset, options, self.error)
            return _checked_files(self.render(ruleset, options))

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Raise `error` for what rendering can raise about the data: a missing text, a
        template Typst refuses."""
        from century.engine.native import NativeError
        from century.shared.typst import RenderError

        try:
            yield
        except self.error:
            raise
        except NativeError as err:
            raise self.error(str(err), details=err.log) from None
        except TextError as err:
            raise self.error(str(err)) from None
        except RenderError as err:
            raise self.error(f"could not render the {self.name}: {err}") from None
        except FilesError as err:
            who = f"plug-in target {self.name} ({self.plugin})" if self.plugin else self.name
            raise self.error(f"{who}: {err}") from None
        except (Exception, SystemExit) as err:  # a plug-in's render may even exit
            if not self.plugin:
                raise
            failed = f"plug-in target {self.name} ({self.plugin}) failed"
            said = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            raise self.error(f"{failed}: {said}") from None

    def build(self, ruleset: Ruleset, request: BuildOptions | None = None) -> dict[str, bytes]:
        """The files a build writes for `ruleset` (`files` with `options_for` the request)."""
        return self.files(ruleset, self.options_for(request or BuildOptions()))


class FilesError(ValueError):
    """What a target rendered is not files it may write: a name that is absolute, leaves the
    output folder or is no text, or contents that are not bytes."""


def _checked_files(files: Any) -> dict[str, bytes]:
    """`files` as a target's files, or `FilesError` saying which name or contents cannot be
    written: every name relative, inside the output folder, text without NUL; every
    contents bytes."""
    if not isinstance(files, Mapping):
        raise FilesError(f"render returned a {type(files).__name__}, not a mapping of files")
    checked: dict[str, bytes] = {}
    for name, data in files.items():
        problem = _name_problem(name)
        if problem:
            raise FilesError(f"the file name {name!r} {problem}; nothing was written")
        if not isinstance(data, bytes):
            raise FilesError(
                f"the file {name!r} holds a {type(data).__name__}, not bytes; nothing was written"
            )
        checked[name] = data
    return checked


def _name_problem(name: Any) -> str:
    """Why `name` cannot be a file of a target's output folder, or empty if it can."""
    if not isinstance(name, str):
        return f"is a {type(name).__name__}, not text"
    if "\0" in name:
        return "holds a NUL character"
    if "\\" in name:
        return "holds a backslash (a file name's parts are separated by /)"
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).anchor:
        return "is absolute (a target's file names are relative to its output folder)"
    parts = name.split("/")
    if ".." in parts:
        return "leaves the output folder"
    if not name or any(part in ("", ".") for part in parts):
        return "has an empty part"
    return ""


ENTRY_POINTS = "century.targets"
"""The entry-point group through which another package adds targets."""


@cache
def targets() -> dict[str, Target]:
    """Every target in this package and every plug-in's (`ENTRY_POINTS`), by name, in name
    order."""
    found: dict[str, Target] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        target = getattr(module, "TARGET", None)
        if isinstance(target, Target):
            found[target.name] = target
    for point in entry_points(group=ENTRY_POINTS):
        target, problem = _plugin(point)
        if target is not None and target.name in found:
            problem = f"the name {target.name!r} is taken"
        if target is None or problem:
            sys.stderr.write(f"century: plug-in target {point.value!r} left out: {problem}\n")
            continue
        found[target.name] = replace(target, plugin=point.value)
    return dict(sorted(found.items()))


PLUGIN_SECONDS = 20.0
"""How long a plug-in may take to load (``CENTURY_PLUGIN_SECONDS`` sets another bound): one
that takes longer, hanging on import, is left out rather than hanging the command."""


def _plugin(point: EntryPoint) -> tuple[Target | None, str]:
    """The `Target` an entry point names (itself, or a module's ``TARGET``), or why not."""
    outcome: list[Any] = []

    def load() -> None:
        try:
            outcome.append(point.load())
        except (Exception, SystemExit) as err:  # the plug-in's own: any failure, even exit
            outcome.append(err)

    bound = _plugin_seconds()
    loader = threading.Thread(target=load, name=f"load {point.value}", daemon=True)
    loader.start()
    loader.join(bound)
    if not outcome:  # still loading: left to finish (or hang) on its own, unused
        return None, f"it did not load within {bound:g} s (CENTURY_PLUGIN_SECONDS)"
    loaded = outcome[0]
    if isinstance(loaded, (Exception, SystemExit)):
        return None, f"it failed to load ({type(loaded).__name__}: {loaded})"
    target = getattr(loaded, "TARGET", loaded)
    if not isinstance(target, Target):
        return None, f"it is a {type(target).__name__}, not a century.targets.Target"
    return target, ""


def _plugin_seconds() -> float:
    """`PLUGIN_SECONDS`, or the bound ``CENTURY_PLUGIN_SECONDS`` gives (a positive number)."""
    given = os.environ.get("CENTURY_PLUGIN_SECONDS", "")
    try:
        seconds = float(given)
    except ValueError:
        return PLUGIN_SECONDS
    return seconds if 0 < seconds < float("inf") else PLUGIN_SECONDS
