"""Reading a card's sentence back into steps: the proof that the words say the effect.

The sentences of card effects (`century.prose.effect_sentence`) are a controlled language
whose words are the phrases of a language's prose data (`century.prose.EFFECT_KEYS`) and
their joints. `Reader` derives its grammar from those phrases, never from a copy of them:
it renders each phrase with a hole where a placeholder holds another phrase (a repeat's
steps, a choice's options, steps in a row, the whole sentence) and with every value its
other placeholders can take (a count, a repeat's bound, whether a repeat chooses), and the
cubes of a gain or payment from ``eff_cubes`` of one kind of cube at a time and of one to
all ranks (its joints). So a designer who rewrites a phrase is read by the rewritten phrase.

`Reader.readings` then parses a sentence exhaustively: every way the phrases can cover the
whole of it, memoised by phrase and position (a chart of all partial readings, so that an
ambiguous sentence yields each of its readings, not the first that fits). A reading is the
steps as the model holds them (`century.model.cards.Step`: cubes as vectors by rank).

A sentence **reads back** when it has exactly one reading and that reading is its effect
(`read_back`). Normal forms: steps compare as the model holds them, so the order of the codes
of a cube string (``RY``, ``YR``) and a short form against the steps it stands for (``kind:
trade`` and ``repeat: [pay, gain]``) are the same effect; nothing else is merged:
``gain: RR`` and ``[gain: R, gain: R]`` are different steps and different sentences.

The grammar's bounds are the checks' limits (`century.base.limits`): counts of ``pay_any``
and ``upgrade`` and a repeat's ``max`` up to `MAX_UPGRADE_STEPS`, cubes of one rank in a
gain or payment up to `MAX_CARAVAN_LIMIT`, nesting up to `MAX_EFFECT_DEPTH`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from century.base import limits
from century.model.ruleset import Ruleset
from century.model.steps import COUNT, CUBES, STEPS

_HOLE = re.compile("([qQ])\ue010(\\d+)\ue011")
"""A hole in a rendered phrase: its index, and whether the phrase capitalised it."""

Segment = str | tuple[int, bool]
"""A literal of a phrase, or a hole: (the placeholder's index, capitalised)."""

_SPACE = re.compile(r"\s+")


def _hole(index: int) -> str:
    return f"q\ue010{index}\ue011"


_SPACED = re.compile(r"\s+(?=[:;?!])")
"""The space a language's typography puts before ``: ; ? !`` (`century.prose.typeset`),
which the phrases are typed without."""


def normal_text(text: str) -> str:
    """`text` with every run of white space (no-break spaces and line ends too) as one
    space, and a word broken at a line end by a soft hyphen joined again; the typesetting's
    own marks undone (a space before ``: ; ? !``, a no-break hyphen)."""
    text = _SPACED.sub("", text.replace("\u00ad", "").replace("\u2011", "-"))
    return _SPACE.sub(" ", text).strip()


def _segments(text: str) -> tuple[Segment, ...]:
    found: list[Segment] = []
    at = 0
    for match in _HOLE.finditer(text):
        found += [
            normal_text_inner(text[at : match.start()]),
            (int(match.group(2)), match.group(1) == "Q"),
        ]
        at = match.end()
    found.append(normal_text_inner(text[at:]))
    return tuple(found)


def normal_text_inner(text: str) -> str:
    """A literal of a phrase with its white space as `normal_text` has it (ends kept)."""
    return _SPACE.sub(" ", _SPACED.sub("", text.replace("\u2011", "-")))


Hole = Callable[["_Chart", int], list[tuple[int, Any]]]
"""What fills a hole: (chart, position) -> every (end, value) it reads from there."""


class Reader:
    """The grammar of one language's card sentences for one ruleset (built as needed,
    kept for every sentence read)."""

    def __init__(self, ruleset: Ruleset, lang: str, context: dict[str, Any] | None = None) -> None:
        from century.prose import cube_part, phrase_renderer, prose_context

        if context is None:
            context = prose_context(ruleset, lang)
        self.ranks = len(ruleset.codes)
        self._say = phrase_renderer(ruleset, lang, context)
        self._part = cube_part(ruleset, lang)
        self._cache: dict[Any, Any] = {}
        phrases = ruleset.prose.get(lang, {})
        self.leaves = {
            takes: [n for n, t in STEPS.items() if t == takes and f"eff_{n}" in phrases]
            for takes in (CUBES, COUNT)
        }
        """The leaf steps by what they take, those the language has a phrase for."""

    # -- the grammar, from the phrases ------------------------------------------------------

    def _memo(self, key: Any, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def sentence(self) -> tuple[Segment, ...]:
        return self._memo("sentence", lambda: _segments(self._say("eff_sentence", text=_hole(0))))

    def steps(self, m: int) -> tuple[Segment, ...]:
        holes = [_hole(i) for i in range(m)]
        return self._memo(("steps", m), lambda: _segments(self._say("eff_steps", steps=holes)))

    def choose(self, m: int) -> tuple[Segment, ...]:
        holes = [_hole(i) for i in range(m)]
        return self._memo(("choose", m), lambda: _segments(self._say("eff_choose", options=holes)))

    def repeat(self, most: int, chooses: bool) -> tuple[Segment, ...]:
        return self._memo(
            ("repeat", most, chooses),
            lambda: _segments(self._say("eff_repeat", steps=_hole(0), most=most, chooses=chooses)),
        )

    def holding(self, name: str) -> tuple[Segment, ...]:
        """``eff_gain`` or ``eff_pay`` with a hole for its cubes."""
        return self._memo(name, lambda: _segments(self._say(f"eff_{name}", cubes=_hole(0))))

    def counted(self, name: str) -> dict[str, int]:
        """``eff_pay_any`` or ``eff_upgrade`` for every count: its text -> the count."""

        def make() -> dict[str, int]:
            found: dict[str, int] = {}
            for n in range(1, limits.MAX_UPGRADE_STEPS + 1):
                found.setdefault(normal_text(self._say(f"eff_{name}", n=n)), n)
            return found

        return self._memo(("counted", name), make)

    def parts(self) -> list[tuple[str, int, int]]:
        """``eff_cubes`` of one kind of cube: (text, rank, n) for every rank and count."""
        return self._memo(
            "parts",
            lambda: [
                (normal_text(self._say("eff_cubes", cubes=[self._part(rank, n)])), rank, n)
                for rank in range(self.ranks)
                for n in range(1, limits.MAX_CARAVAN_LIMIT + 1)
            ],
        )

    def joints(self, m: int) -> tuple[str, ...] | None:
        """The m + 1 texts around the parts of ``eff_cubes`` of m kinds of cube (None when
        the phrase does not join its parts the same way for other counts)."""

        def make() -> tuple[str, ...] | None:
            found = None
            for n in (1, 2):
                ranks = range(m)
                whole = normal_text_inner(
                    self._say("eff_cubes", cubes=[self._part(rank, n) for rank in ranks])
                )
                alone = [
                    normal_text(self._say("eff_cubes", cubes=[self._part(rank, n)]))
                    for rank in ranks
                ]
                cut = _split(whole, alone)
                if cut is None or (found is not None and cut != found):
                    return None
                found = cut
            return found

        return self._memo(("joints", m), make)

    # -- reading ----------------------------------------------------------------------------

    def readings(self, sentence: str) -> list[tuple[Any, ...]]:
        """Every distinct reading of `sentence` (its white space as `normal_text` has it)
        as steps, in the order first found."""
        chart = _Chart(self, normal_text(sentence))
        found: list[tuple[Any, ...]] = []
        for end, values in chart.match(self.sentence(), 0, {0: chart.body(1)}):
            if end == len(chart.text) and values[0] not in found:
                found.append(values[0])
        return found


def _split(whole: str, parts: list[str]) -> tuple[str, ...] | None:
    """The texts of `whole` around `parts` in order, or None when they are not in it."""
    found: list[str] = []
    at = 0
    for part in parts:
        index = whole.find(part, at)
        if index < 0:
            return None
        found.append(whole[at:index])
        at = index + len(part)
    found.append(whole[at:])
    return tuple(found)


class _Chart:
    """The partial readings of one text: (phrase, level, position) -> every (end, value)."""

    def __init__(self, reader: Reader, text: str) -> None:
        self.reader = reader
        self.text = text
        self.memo: dict[Any, list[tuple[int, Any]]] = {}
        self.variants: dict[int, _Chart] = {}

    def match(
        self, segments: Iterable[Segment], at: int, holes: dict[int, Hole]
    ) -> list[tuple[int, dict[int, Any]]]:
        """Every way `segments` cover the text from `at`: (end, value of each hole)."""
        states: list[tuple[int, dict[int, Any]]] = [(at, {})]
        for segment in segments:
            if not states:
                break
            if isinstance(segment, str):
                states = [
                    (p + len(segment), v) for p, v in states if self.text.startswith(segment, p)
                ]
                continue
            index, capital = segment
            fill = holes.get(index)
            if fill is None:
                return []  # a placeholder the phrase does not print cannot be read back
            grown: list[tuple[int, dict[int, Any]]] = []
            for p, values in states:
                for end, value in self._fill(fill, p, capital):
                    if index in values and values[index] != value:
                        continue
                    grown.append((end, {**values, index: value}))
            states = grown
        return [(p, v) for p, v in states if set(v) >= set(holes)]

    def _fill(self, fill: Hole, at: int, capital: bool) -> list[tuple[int, Any]]:
        if not capital:
            return fill(self, at)
        if at >= len(self.text):
            return []
        char = self.text[at]
        found = fill(self, at) if char.upper() == char else []
        lower = char.lower()
        if lower != char and lower.upper() == char:
            variant = self.variants.get(at)
            if variant is None:
                text = self.text[:at] + lower + self.text[at + 1 :]
                variant = self.variants[at] = _Chart(self.reader, text)
            found += fill(variant, at)
        return found

    def _memo(self, key: Any, make: Callable[[], list[tuple[int, Any]]]) -> list[tuple[int, Any]]:
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = _unique(make())
        return found

    # the phrases, each a Hole for `match`

    def body(self, level: int) -> Hole:
        """Steps in a row at nesting `level` (1: the card's own steps)."""
        return lambda chart, at: chart._body(level, at)

    def step(self, level: int) -> Hole:
        return lambda chart, at: chart._step(level, at)

    def _cap(self, joint: str) -> int:
        """The most items a list joined by `joint` can have in the text."""
        return self.text.count(joint) + 1 if joint else 16

    def _body(self, level: int, at: int) -> list[tuple[int, Any]]:
        def make() -> list[tuple[int, Any]]:
            found = [(end, (step,)) for end, step in self._step(level, at)]
            two = self.reader.steps(2)
            for m in range(2, self._cap(_joint(two)) + 1):
                holes = {i: self.step(level) for i in range(m)}
                for end, values in self.match(self.reader.steps(m), at, holes):
                    found.append((end, tuple(values[i] for i in range(m))))
            return found

        return self._memo(("body", level, at), make)

    def _step(self, level: int, at: int) -> list[tuple[int, Any]]:
        def make() -> list[tuple[int, Any]]:
            reader = self.reader
            found: list[tuple[int, Any]] = []
            for name in reader.leaves[CUBES]:
                for end, values in self.match(reader.holding(name), at, {0: _cubes}):
                    found.append((end, (name, values[0])))
            for name in reader.leaves[COUNT]:
                for text, n in reader.counted(name).items():
                    if text and self.text.startswith(text, at):
                        found.append((at + len(text), (name, n)))
            if level < limits.MAX_EFFECT_DEPTH:
                found += self._compound(level, at)
            return found

        return self._memo(("step", level, at), make)

    def _compound(self, level: int, at: int) -> list[tuple[int, Any]]:
        from century.prose import chooses

        reader = self.reader
        found: list[tuple[int, Any]] = []
        inner = {0: self.body(level + 1)}
        for most in range(limits.MAX_UPGRADE_STEPS + 1):
            for choosing in (False, True):
                for end, values in self.match(reader.repeat(most, choosing), at, inner):
                    if chooses(values[0]) == choosing:
                        found.append((end, ("repeat", values[0], most)))
        two = reader.choose(2)
        for m in range(2, self._cap(_joint(two)) + 1):
            holes = {i: self.body(level + 1) for i in range(m)}
            for end, values in self.match(reader.choose(m), at, holes):
                found.append((end, ("choose", tuple(values[i] for i in range(m)))))
        return found


def _cubes(chart: _Chart, at: int) -> list[tuple[int, Any]]:
    """Every vector of cubes ``eff_cubes`` can have written from `at`."""

    def make() -> list[tuple[int, Any]]:
        found: list[tuple[int, Any]] = []
        for m in range(1, chart.reader.ranks + 1):
            joints = chart.reader.joints(m)
            if joints is not None:
                _walk(chart, joints, at, 0, 0, [0] * chart.reader.ranks, found)
        return found

    return chart._memo(("cubes", at), make)


def _walk(
    chart: _Chart,
    joints: tuple[str, ...],
    at: int,
    k: int,
    low: int,
    counts: list[int],
    found: list[tuple[int, Any]],
) -> None:
    """The parts of ``eff_cubes`` from the `k`-th on, each of a rank from `low` up."""
    text = chart.text
    if not text.startswith(joints[k], at):
        return
    at += len(joints[k])
    if k == len(joints) - 1:
        found.append((at, tuple(counts)))
        return
    for part, rank, n in chart.reader.parts():
        if rank >= low and text.startswith(part, at):
            counts[rank] = n
            _walk(chart, joints, at + len(part), k + 1, rank + 1, counts, found)
            counts[rank] = 0


def _joint(segments: tuple[Segment, ...]) -> str:
    """The literal between the first two holes of a phrase rendered with two."""
    holes = [i for i, s in enumerate(segments) if not isinstance(s, str)]
    return str(segments[holes[0] + 1]) if len(holes) >= 2 and holes[1] == holes[0] + 2 else ""


def _unique(found: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    seen: set[tuple[int, Any]] = set()
    kept = []
    for item in found:
        if item not in seen:
            seen.add(item)
            kept.append(item)
    return kept


def read_back(reader: Reader, sentence: str, steps: Any) -> str | None:
    """Why `sentence` does not read back as `steps` (None when it does: exactly one
    reading, equal to the steps)."""
    found = reader.readings(sentence)
    if not found:
        return "it has no reading in the phrases of card effects"
    if len(found) > 1:
        return f"it has {len(found)} readings"
    if found[0] != tuple(steps):
        return "its one reading is another effect"
    return None
