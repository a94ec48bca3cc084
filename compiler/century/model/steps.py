"""The step registry: one record per step of the card language (`StepKind`).

A record declares what every stage needs to know of a step: what it takes (``takes``: cubes,
a count, steps, or options of steps), which gives its schema fragment
(`century.frontend.schema.steps_schema`), its model conversion (`century.model.cards.to_steps`,
`steps_json`) and its one-cell notation (`century.model.notation`); its part of a derived
card id; whether it is a payment; its icon mark and sign (the prose's icon tokens, the face
drawing of an added step); the words of its move in the table's dialog; and, for a step added
to the language, its runtime function and its words in the one-line effect. The built-in
steps' runtime is `century.runtime.engine._step` (the copied rules code, which imports
nothing); an added step's function and words are written into the generated engine after it
(`century.engine.steps`). The phrase of a step in a language is ``eff_<name>`` and its line
in the legend of the symbols ``sym_<name>`` (the prose data for a built-in step; its sign and
phrase for an added one, `century.prose.symbol_keys`).

A step may only move cubes: its ways are changes of the caravan, each with the least caravan
that can afford it. Every dispatcher looks a step up here with `step_kind`, which refuses a
step the registry does not hold (`UnknownStep`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

CUBES, COUNT = "cubes", "count"
"""What a leaf step takes: a cube string (a vector in the model), a whole number."""
STEPS_OF, OPTIONS = "steps", "options"
"""What a step that holds steps takes: steps (``repeat``, which may add ``max``), or options
of steps (``choose``)."""


class UnknownStep(ValueError):
    """A step the registry does not hold."""


@dataclass(frozen=True)
class StepKind:
    """One step of the card language, as every stage reads it."""

    name: str
    takes: str
    """`CUBES`, `COUNT`, `STEPS_OF` or `OPTIONS`."""
    id_part: Callable[[Any], str] | None = None
    """The value as written -> its part of a derived card id (a leaf step)."""
    pays: bool = False
    """A payment: a gain after it shows no ``+``, and its icons end in the payment arrow."""
    mark: str = ""
    """The icon drawn once per unit of a built-in `COUNT` step (``up``, ``any``); an added
    step has none and is drawn as its `sign` (the icon token ``sign:<sign>``)."""
    sign: str = ""
    """The text of that icon where icons are text (a tabletop module), and an added step's
    drawing: its sign in a square, on the card faces and in the rule sheet."""
    words: str = ""
    """What the table's dialog says before the cubes of its move (a `COUNT` step)."""
    label: str = ""
    """An added step's words in the one-line effect of the terminal and the browser table
    (``split 2``, ``swap`` before its cubes); its name, ``_`` as a space, when empty."""
    native: bool = True
    """Whether the C backend tables it (it tables the plays of the Python engine, so a step
    that moves cubes needs no C of its own)."""
    ways: Callable[..., Any] | None = None
    """An added step's runtime function, in the runtime's terms: ``(step, codes, most,
    partials) -> partials`` (the partial ways after the step); None for a built-in step."""

    @property
    def text(self) -> str:
        """Its words in the one-line effect (`label`, else its name)."""
        return self.label or self.name.replace("_", " ")

    @property
    def phrase(self) -> str:
        """Its phrase in a language's prose data."""
        return f"eff_{self.name}"

    @property
    def symbol(self) -> str:
        """Its line in the legend of the symbols (prose data)."""
        return f"sym_{self.name}"


REGISTRY: dict[str, StepKind] = {
    kind.name: kind
    for kind in (
        StepKind("gain", CUBES, id_part=lambda v: "+" + str(v).lower()),
        StepKind("pay", CUBES, id_part=lambda v: str(v).lower() + "-", pays=True),
        StepKind(
            "pay_any",
            COUNT,
            id_part=lambda v: f"any{v}-",
            pays=True,
            mark="any",
            sign="?",
            words="paying ",
        ),
        StepKind(
            "upgrade",
            COUNT,
            id_part=lambda v: f"up{v}",
            mark="up",
            sign="↑",
            words="raising ",
        ),
        StepKind("repeat", STEPS_OF),
        StepKind("choose", OPTIONS),
    )
}
"""Every step of the language, by name, in the order the schema and the docs list them."""

STEPS: dict[str, str] = {name: kind.takes for name, kind in REGISTRY.items()}
"""Every step of the language with what it takes (kept with `REGISTRY`)."""

BUILT_IN = tuple(REGISTRY)
"""The steps of the language itself (the runtime's own)."""


def step_kind(name: str) -> StepKind:
    """The record of the step `name`; `UnknownStep` for a step the registry does not hold."""
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(REGISTRY)
        raise UnknownStep(f"unknown step {name!r} (steps: {known})") from None


def register(kind: StepKind) -> None:
    """Add a step to the language: a leaf (`CUBES` or `COUNT`) that moves cubes, with its
    runtime function. A name the registry holds is refused."""
    if kind.name in REGISTRY:
        raise ValueError(f"the step {kind.name!r} is already registered")
    if kind.takes not in (CUBES, COUNT):
        raise ValueError(f"an added step takes cubes or a count, not {kind.takes!r}")
    if kind.ways is None or kind.id_part is None:
        raise ValueError(f"the step {kind.name!r} needs its runtime function and its id part")
    REGISTRY[kind.name] = kind
    STEPS[kind.name] = kind.takes


def unregister(name: str) -> None:
    """Take an added step out of the language again."""
    if name in BUILT_IN:
        raise ValueError(f"the step {name!r} is built in")
    REGISTRY.pop(name, None)
    STEPS.pop(name, None)


@contextmanager
def registered(kind: StepKind) -> Iterator[StepKind]:
    """`kind` in the language while the block runs."""
    register(kind)
    try:
        yield kind
    finally:
        unregister(kind.name)


def added(names: Iterable[str]) -> tuple[StepKind, ...]:
    """The added steps (not built in) among `names`, in the registry's order."""
    wanted = set(names)
    return tuple(k for n, k in REGISTRY.items() if n in wanted and n not in BUILT_IN)


def used(steps: Any) -> set[str]:
    """The names of the steps the model's `steps` use, at any depth (a name the registry does
    not hold is listed too, for the caller to refuse)."""
    found: set[str] = set()
    for step in steps:
        found.add(step[0])
        kind = REGISTRY.get(step[0])
        takes = kind.takes if kind else None
        if takes == STEPS_OF:
            found |= used(step[1])
        elif takes == OPTIONS:
            for option in step[1]:
                found |= used(option)
    return found
