"""Added steps in the rules code: the runtime functions of the steps a game uses beyond the
language's own (`century.model.steps.register`), written after the runtime's source.

The runtime (`century.runtime.engine`) plays the built-in steps in ``_step``. A generated
engine whose game uses an added step carries that step's function (its source, as it is
written beside its record) and a ``_step`` that hands the added steps to their functions and
every other step to the runtime's, and an ``_added_text`` that gives the one-line effect
(``effect_text``) each added step's words from its record: the engine stands alone as
before. A game of built-in
steps only gets the runtime's source unchanged. `rules` is that code imported in memory for
the compiler's own reading of an effect (the checks, the move bound).
"""

from __future__ import annotations

import inspect
import textwrap
import types
from collections.abc import Iterable
from functools import cache
from typing import Any

from century import runtime as copies
from century.model.steps import CUBES, StepKind, added

HOOK = '''

# -- steps added to the card language ----------------------------------------------------

{functions}

_ADDED_STEPS = {{{table}}}
_RUNTIME_STEP = _step


def _step(step: tuple[Any, ...], codes: str, most: int, partials: list[_Partial]) -> list[_Partial]:
    """The partial ways after one more step: an added step's own function, else the runtime's."""
    own = _ADDED_STEPS.get(step[0])
    return own(step, codes, most, partials) if own else _RUNTIME_STEP(step, codes, most, partials)


_ADDED_TEXT = {{{texts}}}


def _added_text(step: tuple[Any, ...]) -> tuple[str, tuple[int, ...] | None]:
    """The words of an added step in the one-line effect, and the cubes it names (None for a
    count)."""
    if step[0] not in _ADDED_TEXT:
        raise ValueError(f"unknown step {{step[0]!r}}")
    words, names_cubes = _ADDED_TEXT[step[0]]
    return (words + " ", step[1]) if names_cubes else (f"{{words}} {{step[1]}}", None)
'''


class StepCodeError(ValueError):
    """An added step whose runtime function cannot be written into an engine."""


def _source(kind: StepKind) -> tuple[str, str]:
    """The name and the source of an added step's runtime function."""
    function = kind.ways
    if not isinstance(function, types.FunctionType):
        raise StepCodeError(f"the step {kind.name!r} has no runtime function")
    try:
        text = textwrap.dedent(inspect.getsource(function)).strip()
    except (OSError, TypeError) as err:
        raise StepCodeError(f"the runtime function of the step {kind.name!r}: {err}") from err
    return function.__name__, text


def code(names: Iterable[str]) -> str:
    """The source written after the runtime's for the added steps among `names` (empty when
    there are none)."""
    return _code(added(names))


def _code(kinds: tuple[StepKind, ...]) -> str:
    if not kinds:
        return ""
    sources = [(kind.name, *_source(kind)) for kind in kinds]
    return HOOK.format(
        functions="\n\n\n".join(text for _, _, text in sources),
        table=", ".join(f"{name!r}: {function}" for name, function, _ in sources),
        texts=", ".join(f"{k.name!r}: ({k.text!r}, {k.takes == CUBES})" for k in kinds),
    )


def rules(names: Iterable[str]) -> Any:
    """The runtime's rules code with the added steps among `names`, imported in memory."""
    return _rules(added(names))


@cache
def _rules(kinds: tuple[StepKind, ...]) -> Any:
    module = types.ModuleType("century_rules_" + "_".join(kind.name for kind in kinds))
    exec(compile(copies.source("engine") + _code(kinds), "<rules>", "exec"), module.__dict__)
    return module
