"""Checks that every text exists in every language of the game."""

from __future__ import annotations

from collections.abc import Iterator

from century.base.diagnostics import Diagnostic
from century.checks.context import Context
from century.frontend.loader import Node, Path_
from century.model.text import TextError, plural_categories


def _texts(node: Node, path: Path_ = ()) -> Iterator[tuple[Path_, Node]]:
    """Every translated text in the tree (a mapping whose keys are language codes)."""
    if isinstance(node.value, dict):
        card_text = len(path) == 5 and path[0] == "decks" and path[-1] == "text"
        if (path and path[-1] == "name") or (len(path) == 2 and path[0] == "terms") or card_text:
            yield path, node
            return
        for key, child in node.value.items():
            if path == () and key == "prose":
                continue
            yield from _texts(child, (*path, key))
    elif isinstance(node.value, list):
        for i, child in enumerate(node.value):
            yield from _texts(child, (*path, i))


def _inherited(ctx: Context, path: Path_) -> bool:
    """Whether the value at `path` was written in a game this one extends (not its own)."""
    return bool(ctx.own) and ctx.tree.locate(path, key=True).file not in ctx.own


def translations(ctx: Context) -> Iterator[Diagnostic]:
    """Every text in every language of the game: one diagnostic per language and file."""
    languages = ctx.data["languages"]
    missing: dict[tuple[str, str], list[Path_]] = {}
    for path, node in _texts(ctx.tree):
        for lang in languages:
            if lang not in node.value:
                missing.setdefault((lang, node.mark.file), []).append(path)
        for lang in node.value:
            # a base game's text in a language this variant does not print is not its own
            if lang not in languages and not _inherited(ctx, (*path, lang)):
                yield ctx.diag(
                    (*path, lang),
                    f"translation {lang!r} is not a language of the game",
                    f"languages: {', '.join(languages)}",
                    severity="warning",
                    key=True,
                )
    for (lang, file), paths in missing.items():
        more = f" (and {len(paths) - 1} more texts in {file})" if len(paths) > 1 else ""
        yield ctx.diag(
            paths[0],
            f"missing {lang!r} translation{more}",
            f"add `{lang}: ...`; every text needs every language of the game",
            because=(("languages",),),
        )


def prose_languages(ctx: Context) -> Iterator[Diagnostic]:
    languages = ctx.data["languages"]
    prose = ctx.data["prose"]
    for lang in languages:
        if lang not in prose:
            yield ctx.diag(
                ("prose",),
                f"no rule-sheet text for language {lang!r}",
                because=(("languages",),),
            )
    for lang, doc in prose.items():
        if doc["lang"] != lang:
            yield ctx.diag(
                ("prose", lang, "lang"), f"the {lang!r} rule-sheet text says it is {doc['lang']!r}"
            )
    if not languages or languages[0] not in prose:
        return
    reference = languages[0]
    keys = set(prose[reference]["text"])
    for lang in languages[1:]:
        if lang not in prose:
            continue
        other = set(prose[lang]["text"])
        missing = sorted(keys - other)
        if missing:
            shown = ", ".join(missing[:8]) + (
                f" and {len(missing) - 8} more" if len(missing) > 8 else ""
            )
            yield ctx.diag(
                ("prose", lang, "text"),
                f"rule-sheet text has no {lang!r} translation for: {shown}",
                f"every key of the {reference!r} text must be translated",
            )
        for key in sorted(other - keys):
            yield ctx.diag(
                ("prose", lang, "text", key),
                f"rule-sheet text {key!r} is not in the {reference!r} text",
                key=True,
            )


def word_forms(ctx: Context) -> Iterator[Diagnostic]:
    """Every word of `forms` has a form for each CLDR plural category of its language (Babel's
    data), in each case it names, and the language is one of the game's."""

    languages = ctx.data["languages"]
    for lang, words in ctx.data.get("forms", {}).items():
        if lang not in languages and _inherited(ctx, ("forms", lang)):
            continue  # a base game's forms of a language this variant does not print
        if lang not in languages:
            yield ctx.diag(
                ("forms", lang),
                f"forms in {lang!r}, which is not a language of the game",
                f"languages: {', '.join(languages)}",
                severity="warning",
                key=True,
            )
            continue
        try:
            categories = plural_categories(lang)
        except TextError as err:
            yield ctx.diag(("forms", lang), str(err), key=True)
            continue
        for word, forms in words.items():
            if isinstance(forms, str):
                continue
            cases = sorted({key.partition(" ")[2] for key in forms})
            for case in cases:
                keys = [f"{c} {case}" if case else c for c in categories]
                missing = [key for key in keys if key not in forms]
                if missing:
                    lacking = ", ".join(repr(key) for key in missing)
                    yield ctx.diag(
                        ("forms", lang, word),
                        f"the {lang!r} forms of {word!r} lack {lacking}",
                        f"{lang} needs a form for each of: {', '.join(categories)}"
                        + (f" (each with {case!r})" if case else ""),
                        key=True,
                    )
