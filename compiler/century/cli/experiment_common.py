"""What the kinds of `century experiment` share: the options every kind takes (`Run`) and
the changed game built from cards typed on the command line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from century.cli.cardopts import CardText, load_changed
from century.cli.common import local_rules

if TYPE_CHECKING:
    from century.simulation.sequential import StopRule


@dataclass(frozen=True)
class Run:
    """The options every kind of experiment takes, as given."""

    players: int
    seed: int
    workers: int
    out: Path | None
    quiet: bool
    rules: list[Path] | None
    stop: StopRule
    """When the games stop (`--stop`, `--width`; `--games` their budget)."""
    cluster: str | None = None
    """The Dask scheduler the games run on (None: this machine)."""


def changed_game(
    text: str,
    variant_id: str,
    rules: list[Path] | None,
    described: str,
    typed: list[CardText] | None = None,
) -> Any:
    """The changed game compiled from its variant `text`; exit 1 with the problems in the
    user's own words: inside a typed card at its line and column in the option
    (`century.cli.cardopts`), else worded by the change as written (never the temporary file
    it was written to)."""
    from century.base.scratch import scratch

    with scratch("experiment") as tmp:
        return load_changed(
            Path(tmp), text, typed or [], rules or local_rules(), variant_id, described
        )


def game_name(ruleset: Any) -> str:
    from century.model.text import shown
    from century.reports.report import REPORT_LANGUAGE

    return shown(ruleset.name, REPORT_LANGUAGE, ruleset.id)


def shell(word: str) -> str:
    import shlex

    return shlex.quote(word)


def as_written(options: list[tuple[str, str]]) -> str:
    """Command-line options as the user wrote them, e.g. ``--add '{kind: gain, get: QQ}'``."""
    import shlex

    return " ".join(f"{option} {shlex.quote(value)}" for option, value in options)


def bounded(
    parse: Callable[[str, str], dict[str, Any]],
) -> Callable[[str, str], dict[str, Any]]:
    """`parse` behind the limits every YAML file is read with (`century.frontend.loader`: no
    aliases or tags, bounded nesting, values and size), so a card typed on the command line
    cannot make the parser do more work than a rules file can."""
    from century.base.diagnostics import DiagnosticError
    from century.frontend.loader import load_text

    def bounded(text: str, option: str) -> dict[str, Any]:
        try:
            load_text(text.encode("utf-8", "surrogateescape"), option)
        except DiagnosticError as err:
            problem = err.diagnostics[0]
            raise ValueError(f"{option} {text[:40]!r} is not a card: {problem.message}") from None
        return parse(text, option)

    return bounded


def bounded_setting(text: str) -> str:
    """`text`, a ``--set PATH=VALUE``, once its VALUE is shown to be within the limits every
    YAML file is read with (as `bounded` for a card); ValueError saying which it passes."""
    from century.base.diagnostics import DiagnosticError
    from century.frontend.loader import load_text

    _path, sep, value = text.partition("=")
    if sep and value.strip():
        try:
            load_text(value.encode("utf-8", "surrogateescape"), "--set")
        except DiagnosticError as err:
            shown = text if len(text) <= 40 else text[:37] + "..."
            problem = err.diagnostics[0].message
            raise ValueError(f"--set {shown!r}: its value cannot be read: {problem}") from None
    return text


def free_id(wanted: str, base: str) -> str:
    """A game id for the changed game (ids are at most 64 characters)."""
    return wanted if len(wanted) <= 64 else f"{base[:56]}-changed"
