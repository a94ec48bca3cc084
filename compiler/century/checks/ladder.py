"""Checks of the resource ladder and the cube strings written in its codes."""

from __future__ import annotations

from collections.abc import Iterator

from century.base.diagnostics import Diagnostic
from century.checks.context import Context
from century.frontend.loader import Path_
from century.model.cards import cube_paths


def _cube_fields(ctx: Context) -> Iterator[tuple[Path_, str]]:
    for seat, cubes in enumerate(ctx.data["setup"]["seats"]):
        yield ("setup", "seats", seat), cubes
    for deck, i, card in ctx.cards():
        for path, cubes in cube_paths(card):  # steps and a point card's cost too
            yield ("decks", deck, "cards", i, *path), cubes


def unique_resources(ctx: Context) -> Iterator[Diagnostic]:
    seen_ids: set[str] = set()
    seen_codes: set[str] = set()
    for i, resource in enumerate(ctx.data["resources"]):
        if resource["id"] in seen_ids:
            yield ctx.diag(("resources", i, "id"), f"resource id {resource['id']!r} is used twice")
        code = resource["code"].upper()
        if code in seen_codes:
            yield ctx.diag(
                ("resources", i, "code"),
                f"resource code {resource['code']!r} is used twice",
                "codes are compared without case; each rank needs its own letter",
            )
        seen_ids.add(resource["id"])
        seen_codes.add(code)


def known_codes(ctx: Context) -> Iterator[Diagnostic]:
    known = "".join(ctx.codes)
    for path, cubes in _cube_fields(ctx):
        unknown = sorted({c for c in cubes.upper() if c not in ctx.codes})
        if unknown:
            yield ctx.diag(
                path,
                f"unknown resource code {', '.join(unknown)} in {cubes!r}",
                f"the ladder's codes are {known}",
                because=(("resources",),),
            )


def cubes_in_rank_order(ctx: Context) -> Iterator[Diagnostic]:
    for path, cubes in _cube_fields(ctx):
        ranks = [ctx.codes[c] for c in cubes.upper() if c in ctx.codes]
        if ranks != sorted(ranks):
            ordered = "".join(sorted(cubes, key=lambda c: ctx.codes.get(c.upper(), 0)))
            yield ctx.diag(
                path,
                f"cubes {cubes!r} are not written lowest rank first",
                f"write {ordered!r}",
                severity="warning",
                because=(("resources",),),
            )


def per_rank_lists(ctx: Context) -> Iterator[Diagnostic]:
    ranks = len(ctx.data["resources"])
    for path in (("scoring", "resource_points"), ("balance", "value_weights")):
        values = ctx.data[path[0]][path[1]]
        if len(values) != ranks:
            yield ctx.diag(
                path,
                f"has {len(values)} values but the ladder has {ranks} ranks",
                "give one value per rank, lowest rank first",
                because=(("resources",),),
            )
