"""A bounded Jinja sandbox for text that comes from data (the rule-sheet prose).

Jinja's `ImmutableSandboxedEnvironment` keeps templates away from Python's internals; this
module also keeps them from hanging, eating memory or printing what differs between runs.
Every cap is in `century.base.limits`:

- statements: ``if``, ``for`` (not ``recursive``), ``set`` and ``with``; no macros, call or
  filter blocks, includes or imports, so all output flows through `render`, which counts it;
- loops: every ``for`` iteration and every call counts against ``PROSE_MAX_STEPS``;
  ``range`` holds at most ``PROSE_MAX_RANGE`` items;
- arithmetic: ``**`` and ``*`` refuse a whole number over ``PROSE_MAX_INT_BITS`` before
  computing it (``9**(9**9)``), and text or lists over ``PROSE_MAX_TEXT`` (``"x" * 10**9``);
  ``+``, ``~`` and list, tuple and mapping literals refuse results over ``PROSE_MAX_TEXT``,
  nested items counted each time they occur (``[x, x]`` in a loop would grow
  exponentially); ``%`` does not format text;
- filters and methods: an allow-list of those whose output is at most linear in their input,
  with the multiplying ones (``replace``, ``join``) checked before they run; no ``lipsum``
  or ``random`` (their output changes from run to run); the one global is ``range``;
- output: at most ``PROSE_MAX_TEXT`` characters; printing anything but text, numbers and
  plain lists or mappings of them (a generator, a method, an object whose text shows a memory
  address) is an error, so two builds can never differ;
- work: a filter or method call counts a step per `WORK_PER_STEP` characters or items it is
  given, so the steps bound the work done, not only the calls: what passes or fails is the
  same on every machine;
- time: all templates rendered against one `Budget` share a deadline in the rendering
  thread's CPU time (``PROSE_SECONDS``, a backstop far above what the caps allow on any
  machine; ``CENTURY_PROSE_SECONDS`` sets another), checked at every step and every piece of
  output; CPU time, not wall-clock time, so a busy machine never fails rules that are fine.
"""

from __future__ import annotations

import contextvars
import functools
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from century.base.limits import (
    PROSE_MAX_INT_BITS,
    PROSE_MAX_RANGE,
    PROSE_MAX_STEPS,
    PROSE_MAX_TEXT,
    PROSE_SECONDS,
)


class SandboxLimit(Exception):
    """A template went past a limit of the sandbox (diagnostic C403)."""

    code = "C403"


class PrintedObject(Exception):
    """A template printed something whose text is not stable across runs (C404)."""

    code = "C404"


@dataclass
class Budget:
    """The shared deadline (the thread's CPU time) of a set of templates and the steps of the
    current one."""

    seconds: float = field(default_factory=lambda: prose_seconds())
    deadline: float = field(init=False)
    steps: int = 0
    sizes: dict[int, tuple[int, Any]] = field(default_factory=dict)
    """Per list, tuple or mapping seen: its size counting nested items (and the object, so
    that its id stays its own)."""

    def __post_init__(self) -> None:
        self.deadline = time.thread_time() + self.seconds

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > PROSE_MAX_STEPS:
            raise SandboxLimit(
                f"more than {PROSE_MAX_STEPS} loop iterations and calls (PROSE_MAX_STEPS)"
            )
        if time.thread_time() > self.deadline:
            raise SandboxLimit(f"rendering took more than {self.seconds} s (PROSE_SECONDS)")


def prose_seconds() -> float:
    """`PROSE_SECONDS`, or the positive number of seconds ``CENTURY_PROSE_SECONDS`` gives."""
    given = os.environ.get("CENTURY_PROSE_SECONDS", "")
    try:
        seconds = float(given)
    except ValueError:
        return PROSE_SECONDS
    return seconds if 0 < seconds < float("inf") else PROSE_SECONDS


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("budget", default=None)


def _budget() -> Budget:
    """The budget of the template being rendered (a fresh one for constant folding)."""
    return _BUDGET.get() or Budget()


# -- sizes -------------------------------------------------------------------------------------


def _sized(value: Any) -> Any:
    """`value`, or `SandboxLimit` when it is text over the size cap, or a list, tuple or
    mapping whose items, nested ones included, are over it."""
    if isinstance(value, str) and len(value) > PROSE_MAX_TEXT:
        raise SandboxLimit(
            f"text of {len(value)} characters, over {PROSE_MAX_TEXT} (PROSE_MAX_TEXT)"
        )
    if isinstance(value, list | tuple | dict):
        _deep_size(value, _budget().sizes)
    return value


def _deep_size(value: Any, sizes: dict[int, tuple[int, Any]]) -> int:
    """The items of `value` counting nested ones, each time they occur (so `[x, x]` counts
    `x` twice: a list that holds itself twice per level grows exponentially)."""
    if not isinstance(value, list | tuple | dict):
        return 1
    known = sizes.get(id(value))
    if known is not None and known[1] is value:
        return known[0]
    total = 1
    for item in (*value.keys(), *value.values()) if isinstance(value, dict) else value:
        total += _deep_size(item, sizes)
        if total > PROSE_MAX_TEXT:
            raise SandboxLimit(
                f"a list of more than {PROSE_MAX_TEXT} items, nested ones counted (PROSE_MAX_TEXT)"
            )
    sizes[id(value)] = (total, value)
    return total


def _check_bits(bits: int) -> None:
    if bits > PROSE_MAX_INT_BITS:
        raise SandboxLimit(
            f"a number of about {bits} bits, over {PROSE_MAX_INT_BITS} (PROSE_MAX_INT_BITS)"
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int)  # bool too: it is an int


def _binop(operator: str, left: Any, right: Any) -> Any:
    """``**``, ``*``, ``+`` and ``%`` with their results' sizes checked before computing."""
    if operator == "**":
        if _is_int(left) and _is_int(right) and right > 0:
            _check_bits(max(abs(left).bit_length(), 1) * right)
        return left**right
    if operator == "*":
        if _is_int(left) and _is_int(right):
            _check_bits(abs(left).bit_length() + abs(right).bit_length())
        else:
            items, times = (left, right) if _is_int(right) else (right, left)
            repeated = _is_int(times) and hasattr(items, "__len__")
            if repeated and len(items) * max(times, 0) > PROSE_MAX_TEXT:
                raise SandboxLimit(
                    f"repeating {len(items)} items {times} times is over "
                    f"{PROSE_MAX_TEXT} (PROSE_MAX_TEXT)"
                )
        return _sized(left * right)
    if operator == "%":
        if isinstance(left, str):
            raise SandboxLimit("the % operator does not format text in prose; use {{ }}")
        return left % right
    sized = hasattr(left, "__len__") and hasattr(right, "__len__")
    if sized and len(left) + len(right) > PROSE_MAX_TEXT:
        raise SandboxLimit(f"joined text or lists over {PROSE_MAX_TEXT} (PROSE_MAX_TEXT)")
    return _sized(left + right)


# -- filters, functions and methods -----------------------------------------------------------


def _steps(iterable: Iterable[Any]) -> Iterator[Any]:
    """The items of a ``for`` loop, each counted against the budget."""
    budget = _budget()
    for item in iterable:
        budget.step()
        yield item


def _range(*args: int) -> range:
    numbers = range(*args)
    if len(numbers) > PROSE_MAX_RANGE:
        raise SandboxLimit(
            f"range of {len(numbers)} items, over {PROSE_MAX_RANGE} (PROSE_MAX_RANGE)"
        )
    return numbers


def joined(value: Iterable[Any], d: str = "") -> str:
    """`d.join(value)`, refused before it runs when the text would be over the size cap."""
    items = [str(item) for item in value]
    size = sum(map(len, items)) + len(str(d)) * max(len(items) - 1, 0)
    if size > PROSE_MAX_TEXT:
        raise SandboxLimit(f"joined text of {size} characters, over {PROSE_MAX_TEXT}")
    return str(d).join(items)


def _replace(text: Any, old: Any, new: Any, count: int | None = None) -> str:
    text, old, new = str(text), str(old), str(new)
    found = text.count(old) if old else len(text) + 1
    if count is not None and count >= 0:
        found = min(found, count)
    size = len(text) + found * (len(new) - len(old))
    if size > PROSE_MAX_TEXT:
        raise SandboxLimit(f"replace gives {size} characters, over {PROSE_MAX_TEXT}")
    return text.replace(old, new, -1 if count is None else count)


def _sum(values: Iterable[Any], attribute: Any = None, start: int = 0) -> Any:
    total: int | float = start
    for value in values:
        if not isinstance(value, int | float):
            raise SandboxLimit("sum adds numbers only in prose")
        total += value
    return total


SAFE_FILTERS = frozenset(
    {
        *("abs", "attr", "capitalize", "count", "d", "default", "dictsort", "first", "float"),
        *("groupby", "int", "items", "last", "length", "list", "lower", "map", "max", "min"),
        *("reject", "rejectattr", "reverse", "round", "select", "selectattr", "sort"),
        *("string", "title", "trim", "unique", "upper", "wordcount"),
    }
)
"""Jinja's own filters whose output is at most linear in their input and the same in every
run; `join`, `replace` and `sum` are replaced by checked versions."""

SAFE_METHODS: dict[type, frozenset[str]] = {
    bool: frozenset(),
    int: frozenset(),
    float: frozenset(),
    bytes: frozenset(),
    str: frozenset(
        {
            *("capitalize", "casefold", "count", "endswith", "find", "isalnum", "isalpha"),
            *("isdecimal", "isdigit", "islower", "isnumeric", "isspace", "istitle", "isupper"),
            *("lower", "lstrip", "partition", "removeprefix", "removesuffix", "rfind"),
            *("rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip"),
            *("swapcase", "title", "upper"),
        }
    ),
    dict: frozenset({"get", "items", "keys", "values"}),
    list: frozenset({"count", "index"}),
    tuple: frozenset({"count", "index"}),
}
"""Methods of plain values (and their subclasses) a template may call; others (``zfill``,
``center``, ``format``, ``to_bytes``) could build huge values from small ones."""


def _method_allowed(function: Any) -> bool:
    """Whether a template may call `function`: any method of a plain value must be listed in
    `SAFE_METHODS`; functions and the methods of Jinja's own objects may be called."""
    owner = getattr(function, "__self__", None)
    for kind, names in SAFE_METHODS.items():
        if isinstance(owner, kind):
            return getattr(function, "__name__", "") in names
    return True


WORK_PER_STEP = 20
"""Characters or items a filter or method call may go through per step it counts: a call on
a long text or list counts as many steps as its size asks (a sort of 19,000 characters, 950),
so the steps bound the work, whatever the machine's speed."""


def _work(args: Iterable[Any], kwargs: dict[str, Any]) -> int:
    """The steps a call's text and list arguments count beyond its own."""
    sizes = (len(a) for a in (*args, *kwargs.values()) if isinstance(a, str | list | tuple | dict))
    return sum(sizes) // WORK_PER_STEP


def _guard(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` with its result's size checked (the Jinja pass-arg marker is kept)."""

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        _budget().step(1 + _work(args, kwargs))
        return _sized(function(*args, **kwargs))

    return guarded


# -- the environment --------------------------------------------------------------------------

ALLOWED_STATEMENTS = ("Output", "If", "For", "Assign", "With", "Template")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def _plain(value: Any) -> bool:
    if isinstance(value, str):
        return not _ADDRESS.search(value)
    if value is None or isinstance(value, int | float):
        return True
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


@functools.cache
def environment(finalize: Callable[[Any], Any]) -> Any:
    """The bounded sandbox, with `finalize` applied to every printed value (built once per
    `finalize`)."""
    from jinja2 import StrictUndefined, Undefined, nodes
    from jinja2.exceptions import TemplateSyntaxError
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    from jinja2.visitor import NodeTransformer

    class Bound(NodeTransformer):
        """Refuses the statements that are not allowed; counts loops, sizes ``~``."""

        def generic_visit(self, node: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(node, nodes.Stmt) and type(node).__name__ not in ALLOWED_STATEMENTS:
                word = type(node).__name__.lower()
                raise TemplateSyntaxError(
                    f"{word} is not allowed in prose (only if, for, set and with)", node.lineno
                )
            return super().generic_visit(node, *args, **kwargs)

        def visit_For(self, node: Any) -> Any:
            if node.recursive:
                raise TemplateSyntaxError("recursive loops are not allowed in prose", node.lineno)
            node = self.generic_visit(node)
            node.iter = nodes.Filter(node.iter, "_steps", [], [], None, None, lineno=node.lineno)
            return node

        def visit_Concat(self, node: Any) -> Any:
            return self.sized(node)

        def visit_List(self, node: Any) -> Any:
            return self.sized(node)

        def visit_Dict(self, node: Any) -> Any:
            return self.sized(node)

        def visit_Tuple(self, node: Any) -> Any:
            return self.sized(node) if node.ctx == "load" else self.generic_visit(node)

        def sized(self, node: Any) -> Any:
            node = self.generic_visit(node)
            return nodes.Filter(node, "_sized", [], [], None, None, lineno=node.lineno)

    def checked_finalize(value: Any) -> Any:
        if isinstance(value, Undefined):
            str(value)  # an unknown placeholder: StrictUndefined raises here
        if not _plain(_sized(value)):
            shown = type(value).__name__ if not isinstance(value, str) else "text"
            raise PrintedObject(
                f"prints a {shown} whose text shows a memory address or changes between runs; "
                "print text and numbers only"
            )
        return finalize(value)

    class Prose(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"**", "*", "+", "%"})

        def _parse(self, source: str, name: str | None, filename: str | None) -> Any:
            return Bound().visit(super()._parse(source, name, filename))

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            return _binop(operator, left, right)

        def wrap_str_format(self, value: Any) -> None:
            return None  # `format` is a plain method, so `call` refuses it

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
            _budget().step(1 + _work((getattr(__obj, "__self__", None), *args), kwargs))
            if not _method_allowed(__obj):
                name = getattr(__obj, "__name__", "?")
                raise SandboxLimit(f"the method {name!r} is not allowed in prose")
            if isinstance(getattr(__obj, "__self__", None), str) and __obj.__name__ == "replace":
                return _replace(__obj.__self__, *args, **kwargs)
            return _sized(super().call(__context, __obj, *args, **kwargs))

    env = Prose(
        undefined=StrictUndefined,
        autoescape=False,
        finalize=checked_finalize,
        keep_trailing_newline=False,
    )
    builtin = env.filters
    env.filters = {name: _guard(builtin[name]) for name in SAFE_FILTERS}
    env.filters |= {
        "join": _guard(joined),
        "replace": _guard(_replace),
        "sum": _guard(_sum),
        "_steps": _steps,
        "_sized": _sized,
    }
    env.globals = {"range": _range}
    return env


def add_filters(env: Any, filters: dict[str, Callable[..., Any]]) -> None:
    """Add filters of your own (each is guarded like the built-in ones)."""
    for name, function in filters.items():
        env.filters[name] = _guard(function)


def run_template(template: Any, context: dict[str, Any], budget: Budget) -> str:
    """`template` rendered against `context` within the caps and `budget`'s deadline."""
    budget.steps = 0
    token = _BUDGET.set(budget)
    try:
        pieces: list[str] = []
        size = 0
        for piece in template.generate(context):
            size += len(piece)
            if size > PROSE_MAX_TEXT:
                raise SandboxLimit(f"output over {PROSE_MAX_TEXT} characters (PROSE_MAX_TEXT)")
            budget.step(0)
            pieces.append(piece)
        return "".join(pieces)
    finally:
        _BUDGET.reset(token)
