"""The schema stage: each loaded file against the JSON Schema of its kind.

Schemas live in `schema/` (draft 2020-12) and refer to `defs.schema.json` by relative
reference, which editors resolve beside the file and which this module resolves from a
registry keyed by file name. Errors become located diagnostics with readable messages.

What the card-kind registry (`century.model.cards`) says is read from the registry, not from
the file: `with_kinds` builds the merchant cards' schema (their kinds and fields) and the
kinds' terms, so a new kind validates as soon as it is registered. A test keeps
``defs.schema.json``, which editors read, in step (``pytest --refresh-goldens`` rewrites it).

The schemas mean here what they mean in an editor: ``integer`` is a whole number written as
one (``12.0`` is not), and a ``pattern`` follows ECMA-262, where ``$`` ends the text (in
Python's `re` it also matches before a final line break, so ``"evil\n"`` would pass).
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Iterator
from functools import cache
from itertools import islice
from typing import Any

from century.base.diagnostics import Diagnostic
from century.base.limits import MAX_SCHEMA_ERRORS
from century.base.resources import SCHEMAS
from century.frontend.loader import Node, format_path
from century.model.cards import COUNT, CUBES, FIELDS, STEPS
from century.model.cards import KINDS as CARD_KINDS

KINDS = {
    "game": "game.schema.json",
    "variant": "variant.schema.json",
    "deck": "deck.schema.json",
    "prose": "prose.schema.json",
}


@cache
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled with ECMA-262 anchors: an unescaped ``$`` outside a character class
    matches only at the very end of the text."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and not ecma_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number written as one: not a bool, not a float such as ``12.0``."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator_class() -> Any:
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        validators={"pattern": _pattern},
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )


@cache
def _files() -> dict[str, Any]:
    """Every bundled schema file by name (read once)."""
    return {
        path.name: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(SCHEMAS.glob("*.schema.json"))
    }


# -- what the card-kind registry says ---------------------------------------------------------

_FIELD_SCHEMAS = {CUBES: {"$ref": "#/$defs/cubes"}, COUNT: {"type": "integer"}}
_KIND_TERMS_AFTER, _KIND_TERMS_BEFORE = "starting_cards", "coin"
"""The terms of the card kinds (``<kind>_card``) stand between these two in the schema."""


def _either(names: list[str]) -> str:
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _article(word: str) -> str:
    return "An" if word[:1] in "aeiou" else "A"


def merchant_card_schema() -> dict[str, Any]:
    """The schema of a merchant card, from the registry: its ``effect`` as steps, or a short
    form (its kinds, and per kind the fields it requires and allows)."""
    names = list(CARD_KINDS)
    return {
        "description": f"A merchant card: its `effect` as steps, or a {_either(names)} card.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "id": {"$ref": "#/$defs/cardId"},
            "effect": {"$ref": "#/$defs/steps"},
            "kind": {"enum": names},
            **{name: dict(_FIELD_SCHEMAS[kind]) for name, kind in FIELDS.items()},
            "copies": {"$ref": "#/$defs/count"},
            "name": {"$ref": "#/$defs/text"},
            "text": {"$ref": "#/$defs/cardText"},
        },
        "allOf": [
            {
                "if": {"required": ["effect"]},
                "then": {
                    "propertyNames": {
                        "enum": ["id", "effect", "copies", "name", "text"],
                        "description": "A card with `effect` takes no `kind` or short-form fields.",
                    }
                },
                "else": {"required": ["kind"]},
            },
            *(
                {
                    "if": {"required": ["kind"], "properties": {"kind": {"const": kind.name}}},
                    "then": {
                        "required": list(kind.fields),
                        "propertyNames": {
                            "enum": ["id", "kind", "copies", "name", "text", *kind.fields],
                            "description": f"{_article(kind.name)} {kind.name} card takes "
                            + " and ".join(f"`{name}`" for name in kind.fields)
                            + ".",
                        },
                    },
                }
                for kind in CARD_KINDS.values()
            ),
        ],
    }


def steps_schema() -> dict[str, Any]:
    """The schemas of a list of steps and of one step, from the step registry."""
    values: dict[str, dict[str, Any]] = {
        CUBES: {"$ref": "#/$defs/cubes"},
        COUNT: {"type": "integer", "minimum": 1},
        "steps": {"$ref": "#/$defs/steps"},
        "options": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/steps"}},
    }
    return {
        "steps": {
            "description": "Steps done in order.",
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/$defs/step"},
        },
        "step": {
            "description": "One step: "
            + ", ".join(f"`{name}`" for name in STEPS)
            + " (a `repeat` may add `max`).",
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"enum": [*STEPS, "max"]},
            "properties": {
                **{name: dict(values[takes]) for name, takes in STEPS.items()},
                "max": {"type": "integer", "minimum": 1},
            },
            "if": {"required": ["max"]},
            "then": {"required": ["repeat"], "maxProperties": 2},
            "else": {"maxProperties": 1},
        },
    }


def _with_kind_terms(names: list[str], plurals: bool = True) -> list[str]:
    """`names` (terms, in order) with the kinds' terms in their place (the registry's):
    ``<kind>_card`` and, with `plurals`, ``<kind>_cards`` after it."""
    start, end = names.index(_KIND_TERMS_AFTER) + 1, names.index(_KIND_TERMS_BEFORE)
    endings = ("_card", "_cards") if plurals else ("_card",)
    kinds = [f"{kind}{ending}" for kind in CARD_KINDS for ending in endings]
    return [*names[:start], *kinds, *names[end:]]


def with_kinds(defs: dict[str, Any]) -> dict[str, Any]:
    """``defs.schema.json`` with what the registry says: the merchant card schema, the terms
    of the kinds (each with its plural) among the terms, and among the terms a game requires
    (the singular)."""
    found = copy.deepcopy(defs)
    definitions = found["$defs"]
    definitions["merchantCard"] = merchant_card_schema()
    definitions.update(steps_schema())
    terms = definitions["terms"]["properties"]
    text = {"$ref": "#/$defs/text"}
    definitions["terms"]["properties"] = {
        name: terms.get(name, text) for name in _with_kind_terms(list(terms))
    }
    game_terms = definitions["gameTerms"]
    game_terms["required"] = _with_kind_terms(game_terms["required"], plurals=False)
    return found


def schemas() -> dict[str, Any]:
    """Every schema by file name, as validation uses them (the registry's part built)."""
    files = _files()
    return {**files, "defs.schema.json": with_kinds(files["defs.schema.json"])}


def _registry_state() -> str:
    """What of the registry the schemas read, as a key for the validators built from it."""
    kinds = [(kind.name, kind.fields) for kind in CARD_KINDS.values()]
    return repr((kinds, sorted(FIELDS.items()), sorted(STEPS.items())))


def definitions() -> dict[str, Any]:
    """The shared definitions (``$defs`` of ``defs.schema.json``, the registry's part built):
    ids, cubes, cards."""
    return dict(schemas()["defs.schema.json"]["$defs"])


def _validator(kind: str) -> Any:
    return _validator_for(kind, _registry_state())


@cache
def _validator_for(kind: str, registry_state: str) -> Any:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    found = schemas()
    registry = Registry().with_resources(
        (name, Resource.from_contents(contents, DRAFT202012)) for name, contents in found.items()
    )
    return _validator_class()(found[KINDS[kind]], registry=registry)


def validate(node: Node, kind: str) -> list[Diagnostic]:
    """All schema problems of one loaded file, located at the offending key or value."""
    instance = node.plain()
    errors = islice(_validator(kind).iter_errors(instance), MAX_SCHEMA_ERRORS)
    return [_diagnostic(node, leaf) for error in errors for leaf in _leaves(error)]


def _leaves(error: Any) -> list[Any]:
    """The errors to report for one error: a oneOf/anyOf is explained by the branch whose
    type fits the value (a mapping where a mapping is allowed), else by the best match."""
    from jsonschema.exceptions import best_match

    if not error.context:
        return [error]
    branches: dict[int, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        subs
        for subs in branches.values()
        if not any(s.validator == "type" and not s.relative_path for s in subs)
    ]
    if len(fitting) == 1:
        return [leaf for sub in fitting[0] for leaf in _leaves(sub)]
    return _leaves(best_match(error.context))


def _companion_hint(value: Any, error: Any, missing: str) -> str:
    """A hint for a mapping whose keys need the `missing` one beside them (the schema's
    ``if``/``then``: ``max`` of a ``repeat`` written as a list item of its own): they belong
    in the same mapping."""
    if not isinstance(value, dict) or not value or "then" not in error.schema_path:
        return ""
    keys = " and ".join(repr(k) for k in value)
    first = next(iter(value))
    return (
        f"{keys} go{'es' if len(value) == 1 else ''} in the same mapping as {missing!r}: "
        f"one list item, '- {missing}: ...' with '{first}: ...' on the next line indented "
        f"under it (no dash: '- {first}: ...' starts an item of its own)"
    )


def _diagnostic(node: Node, error: Any) -> Diagnostic:
    path = tuple(error.absolute_path)
    where = format_path(path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    hint = schema.get("description", "")
    validator, value = error.validator, error.instance
    if validator == "additionalProperties" and isinstance(value, dict):
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(k for k in value if k not in allowed)
        key = extra[0] if extra else ""
        near = difflib.get_close_matches(key, allowed, n=1)
        hint = f"did you mean {near[0]!r}?" if near else f"known keys: {', '.join(allowed)}"
        mark = node.locate((*path, key), key=True)
        return Diagnostic.at(mark, "C101", f"unknown key {key!r}", path=where, hint=hint)
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        hint = _companion_hint(value, error, missing) or hint
        return Diagnostic.at(
            node.locate(path), "C102", f"missing required key {missing!r}", path=where, hint=hint
        )
    if "propertyNames" in error.schema_path:
        key = str(error.instance)
        return Diagnostic.at(
            node.locate((*path, key), key=True),
            "C101",
            f"key {key!r} does not belong here",
            path=where,
            hint=hint,
        )
    message = {
        "type": lambda: f"expected {_kind(error.validator_value)}, got {_show(value)}",
        "enum": lambda: (
            f"{_show(value)} is not one of {', '.join(map(str, error.validator_value))}"
        ),
        "const": lambda: f"expected {error.validator_value!r}",
        "pattern": lambda: f"{_show(value)} is not valid here",
        "minimum": lambda: f"{value} is below the minimum {error.validator_value}",
        "maximum": lambda: f"{value} is above the maximum {error.validator_value}",
        "minItems": lambda: f"needs at least {error.validator_value} items",
        "maxItems": lambda: f"allows at most {error.validator_value} items",
        "minLength": lambda: "must not be empty",
        "maxLength": lambda: f"is longer than {error.validator_value} characters",
        "uniqueItems": lambda: "has repeated items",
        "minProperties": lambda: "must not be empty",
    }.get(validator, lambda: error.message)()
    code = "C103" if validator == "type" else "C104"
    return Diagnostic.at(
        node.locate(path), code, message, path=where, hint=hint or _describe(error)
    )


def _describe(error: Any) -> str:
    schema = error.schema if isinstance(error.schema, dict) else {}
    return str(schema.get("description", ""))


def _kind(expected: Any) -> str:
    names = {
        "integer": "a whole number",
        "string": "text",
        "object": "a mapping",
        "array": "a list",
        "boolean": "true or false",
        "number": "a number",
    }
    if isinstance(expected, list):
        return " or ".join(names.get(e, str(e)) for e in expected)
    return names.get(expected, str(expected))


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
