"""The one-cell notation of card effects: a merchant card's steps written in one cell of a deck
table (CSV, TSV), and wherever people read steps in one line (`century diff`).

Steps are done in order, joined by ``then``; a ``repeat`` or a ``choose`` holds its steps in
round brackets, the options of a ``choose`` parted by ``|``::

    gain YY then upgrade 1
    repeat (pay RR then gain G)
    repeat (pay Y then gain R) max 2
    choose (gain YYY | upgrade 2)
    pay_any 2 then gain B

The grammar (words in any case, spaces between words, none needed around brackets and bars)::

    steps  := step ("then" step)*
    step   := "gain" CUBES | "pay" CUBES | "pay_any" N | "upgrade" N
            | "repeat" "(" steps ")" ["max" N]
            | "choose" "(" steps "|" steps ("|" steps)* ")"

A cell never starts with ``=``, ``+``, ``-`` or ``@`` (a step's word comes first), so no
spreadsheet reads it as a formula. `parse` gives the same plain data as YAML's ``effect:``
(``[{"gain": "YY"}, {"upgrade": 1}]``), each value with its offset in the text, so the schema and
the checks judge it as they judge YAML and locate their problems inside the cell; cube strings
and numbers are kept as written for them (``upgrade two`` is the schema's error, as in YAML).
`write` gives the text back: ``parse(write(steps)).plain() == steps``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from century.base.limits import MAX_DEPTH, MAX_DIGITS
from century.model.cards import COUNT, CUBES, STEPS, step_name
from century.model.steps import OPTIONS as OPTIONS
from century.model.steps import STEPS_OF as STEPS_OF

THEN, BAR, MAX = "then", "|", "max"
"""The words and marks between steps: ``then`` joins steps, ``|`` parts options, ``max`` bounds
a repeat."""

GRAMMAR = (
    "steps are joined by 'then': gain CUBES, pay CUBES, pay_any N, upgrade N, "
    "repeat (STEPS) [max N], choose (STEPS | STEPS ...); e.g. 'gain YY then upgrade 1'"
)
"""What a notation error's hint says."""

_TOKEN = re.compile(r"\s*(?:([()|])|([^\s()|]+))")
_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


class NotationError(ValueError):
    """Text that is no effect in the notation: what is wrong, at which offset, and a hint."""

    def __init__(self, message: str, at: int, hint: str = GRAMMAR, code: str = "C104") -> None:
        super().__init__(message)
        self.message, self.at, self.hint, self.code = message, at, hint, code


@dataclass(frozen=True)
class Piece:
    """A value of a parsed effect (a list, a mapping, a cube string or a number) with the
    offset in the text where it starts, and a mapping's keys with theirs."""

    value: Any
    at: int
    keys: Mapping[str, int] = field(default_factory=dict)

    def plain(self) -> Any:
        """The value as plain data, as YAML's ``effect:`` gives it."""
        if isinstance(self.value, dict):
            return {key: piece.plain() for key, piece in self.value.items()}
        if isinstance(self.value, list):
            return [piece.plain() for piece in self.value]
        return self.value


@dataclass(frozen=True)
class _Token:
    text: str
    at: int
    mark: bool
    """A bracket or a bar (else a word)."""

    def word(self) -> str:
        return "" if self.mark else self.text.lower()


def parse(text: str) -> Piece:
    """The steps `text` writes, as a `Piece` holding the list of steps; `NotationError` at the
    first problem."""
    return _Parser(text).effect()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[_Token] = []
        for match in _TOKEN.finditer(text):
            if match.group(1):
                self.tokens.append(_Token(match.group(1), match.start(1), True))
            elif match.group(2):
                self.tokens.append(_Token(match.group(2), match.start(2), False))
        self.i = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> _Token | None:
        token = self.peek()
        self.i += token is not None
        return token

    def end(self) -> int:
        return len(self.text.rstrip())

    def effect(self) -> Piece:
        if not self.tokens:
            raise NotationError("an empty effect: write its steps", 0)
        found = self.steps(0)
        token = self.peek()
        if token is not None:
            if token.text in ")|":
                raise NotationError(f"{token.text!r} outside of a repeat or choose", token.at)
            raise NotationError(
                f"{_shown(token.text)} after a step: steps are joined by 'then'", token.at
            )
        return found

    def steps(self, depth: int) -> Piece:
        if depth >= MAX_DEPTH:
            token = self.peek()
            raise NotationError(
                f"nesting too deep: more than {MAX_DEPTH} levels of brackets",
                token.at if token else self.end(),
                hint="effects nest a few levels at most",
                code="C012",
            )
        first = self.peek()
        found = [self.step(depth)]
        while (token := self.peek()) is not None and token.word() == THEN:
            self.take()
            found.append(self.step(depth))
        return Piece(found, first.at if first else self.end())

    def step(self, depth: int) -> Piece:
        token = self.take()
        if token is None:
            raise NotationError("a step is missing at the end", self.end())
        name = token.word()
        if name not in STEPS:
            raise NotationError(
                f"expected a step, got {_shown(token.text)}", token.at, hint=_did_you_mean(name)
            )
        takes = STEPS[name]
        if takes in (CUBES, COUNT):
            value = self.value(name, takes)
            return Piece({name: value}, token.at, {name: token.at})
        opening = self.expect("(", f"'{name}' takes its steps in brackets: {name} (...)")
        if takes == STEPS_OF:
            body = self.steps(depth + 1)
            self.expect(")", f"close the brackets of '{name}' with ')'")
            values, keys = {name: Piece(body.value, opening.at)}, {name: token.at}
            if (after := self.peek()) is not None and after.word() == MAX:
                self.take()
                values[MAX], keys[MAX] = self.value(MAX, COUNT), after.at
            return Piece(values, token.at, keys)
        options = [self.steps(depth + 1)]
        while (bar := self.peek()) is not None and bar.text == BAR:
            self.take()
            options.append(self.steps(depth + 1))
        self.expect(")", f"part the options of '{name}' with '|' and close them with ')'")
        return Piece({name: Piece(options, opening.at)}, token.at, {name: token.at})

    def value(self, name: str, takes: str) -> Piece:
        token = self.peek()
        what = "cubes, e.g. gain YY" if takes == CUBES else f"a whole number, e.g. {name} 2"
        if token is None or token.mark or token.word() in (*STEPS, THEN, MAX):
            at = token.at if token else self.end()
            raise NotationError(f"'{name}' takes {what}", at)
        self.take()
        number = takes == COUNT and _NUMBER.fullmatch(token.text) is not None
        return Piece(int(token.text) if number else token.text, token.at)

    def expect(self, mark: str, hint: str) -> _Token:
        token = self.peek()
        if token is None or token.text != mark:
            got = _shown(token.text) if token else "the end"
            raise NotationError(
                f"expected {mark!r}, got {got}", token.at if token else self.end(), hint
            )
        self.take()
        return token


def _shown(text: str, most: int = 20) -> str:
    return repr(text if len(text) <= most else text[: most - 3] + "...")


def _did_you_mean(word: str) -> str:
    near = difflib.get_close_matches(word, [*STEPS], n=1)
    return f"did you mean {near[0]!r}?" if near else GRAMMAR


# -- writing ------------------------------------------------------------------------------------


def write(steps: Sequence[Mapping[str, Any]]) -> str:
    """Steps as written in the data (``effect:``) in the notation."""
    return " then ".join(_step(step) for step in steps)


def _step(step: Mapping[str, Any]) -> str:
    name = step_name(step)
    value = step[name]
    if STEPS[name] == STEPS_OF:
        most = f" max {step[MAX]}" if step.get(MAX) else ""
        return f"{name} ({write(value)}){most}"
    if STEPS[name] == OPTIONS:
        return f"{name} (" + " | ".join(write(option) for option in value) + ")"
    return f"{name} {value}"


def written(steps: Sequence[Any], codes: str) -> list[dict[str, Any]]:
    """The model's steps (cube vectors by rank) as written in the data with the ladder's
    `codes` (lowest rank first)."""
    found: list[dict[str, Any]] = []
    for step in steps:
        name = step[0]
        if STEPS[name] == STEPS_OF:
            found.append({name: written(step[1], codes), **({MAX: step[2]} if step[2] else {})})
        elif STEPS[name] == OPTIONS:
            found.append({name: [written(option, codes) for option in step[1]]})
        elif STEPS[name] == CUBES:
            found.append({name: "".join(code * n for code, n in zip(codes, step[1], strict=False))})
        else:
            found.append({name: step[1]})
    return found


def text_of(steps: Sequence[Any], codes: str) -> str:
    """The model's steps in the notation, with the ladder's `codes`."""
    return write(written(steps, codes))


def flow_steps(steps: Sequence[Any]) -> str:
    """Steps as written in the data in YAML's short flow form, a step of one key as a compact
    pair: ``[gain: YY, upgrade: 1]``, ``[{repeat: [pay: Y, gain: R], max: 2}]``,
    ``[choose: [[gain: YYY], [upgrade: 2]]]`` (what one types after ``effect:``)."""
    items = []
    for step in steps:
        if not isinstance(step, Mapping):
            items.append(str(step))
            continue
        pairs = [f"{key}: {_flow_value(key, value)}" for key, value in step.items()]
        items.append(pairs[0] if len(pairs) == 1 else "{" + ", ".join(pairs) + "}")
    return "[" + ", ".join(items) + "]"


def _flow_value(key: str, value: Any) -> str:
    if STEPS.get(key) == STEPS_OF and isinstance(value, list):
        return flow_steps(value)
    if STEPS.get(key) == OPTIONS and isinstance(value, list):
        return (
            "[" + ", ".join(flow_steps(o) if isinstance(o, list) else str(o) for o in value) + "]"
        )
    return str(value)
