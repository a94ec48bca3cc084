"""Shell completion of the values the commands take: game ids, bot names (and lists of them),
languages, card ids and targets (`--install-completion` sets it up; the paper and format choices
complete by themselves, the decks in `century.cli.deck`).

Completion runs on every Tab, so it reads as little as it can: game ids from the ``id:``
lines of the rules files (the current folder's or `--rules`', and the bundled ones) without
compiling them; a game's languages and card ids compile that one game. A problem completes
to nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ID_LINE = re.compile(rb"^id:[ \t]*['\"]?([a-z][a-z0-9-]{0,63})['\"]?[ \t]*(?:#.*)?$", re.M)
MOST_FILES = 500
"""The most rules files a completion looks at."""
LOCAL = (Path("rules"), Path("cards"))
"""The folders of the current folder that hold its own rules."""
HEAD = 65536
"""The bytes of a rules file a completion reads for its id (the id is near the top)."""


def _given(ctx: Any, name: str) -> Any:
    return (getattr(ctx, "params", None) or {}).get(name)


def _game(ctx: Any) -> str | None:
    """The game the command line names so far (click leaves a command's argument among the
    context's spare words while an option's value is being completed)."""
    game = _given(ctx, "game")
    if game:
        return str(game)
    spare = [word for word in getattr(ctx, "args", None) or [] if not word.startswith("-")]
    return spare[0] if spare else None


def _local_rules() -> list[Path]:
    """The current folder's ``rules/`` and ``cards/`` that hold rules files (as
    `century.cli.common.local_rules`, which imports this module's callers)."""
    from century.frontend.sources import has_rules_files

    return [folder for folder in LOCAL if folder.is_dir() and has_rules_files(folder)]


def _rules_files(ctx: Any) -> Iterator[Path]:
    """The rules files of `--rules`, else of the current folder, then the bundled ones."""
    from century.base.resources import RULES

    given = _given(ctx, "rules") or _local_rules()
    seen = 0
    for where in [*given, RULES]:
        where = Path(where)
        files = [where] if where.is_file() else sorted(where.rglob("*.y*ml"))
        for path in files:
            seen += 1
            if seen > MOST_FILES:
                return
            yield path


def game_ids(ctx: Any, incomplete: str) -> list[str]:
    """The ids of the games and variants a command can look up."""
    found: dict[str, None] = {}
    try:
        for path in _rules_files(ctx):
            if not path.is_file():
                continue
            with path.open("rb") as handle:
                head = handle.read(HEAD)
            match = ID_LINE.search(head)
            if match and b"\ndeck:" not in head and not head.startswith(b"deck:"):
                found[match.group(1).decode("ascii")] = None
    except OSError:
        pass
    return [game for game in sorted(found) if game.startswith(incomplete)]


def bot_lists(ctx: Any, incomplete: str) -> list[str]:
    """Bot names, also as the next name of a comma-separated list (``greedy,pl`` ->
    ``greedy,planner``); `century simulate` also takes ``auto`` alone."""
    from century.bots.registry import BOTS

    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    alone = not done and getattr(ctx, "info_name", None) == "simulate"
    names = [*BOTS, "auto"] if alone else list(BOTS)
    return [prefix + name for name in names if name.startswith(last)]


def languages(ctx: Any, incomplete: str) -> list[str]:
    """The languages of the command's game (every language any bundled game has, before the
    game is named)."""
    from century.pipeline import compile_paths

    game = _game(ctx)
    try:
        if game:
            paths = _given(ctx, "rules") or _local_rules() or None
            compiled = compile_paths(paths, with_bundled=True, only=game)
            found = list(compiled.rulesets[game].languages) if game in compiled.rulesets else []
        else:
            compiled = compile_paths()
            found = sorted({lang for r in compiled.rulesets.values() for lang in r.languages})
    except Exception:  # completion never fails loudly
        return []
    return [lang for lang in found if lang.startswith(incomplete)]


def card_ids(ctx: Any, incomplete: str) -> list[str]:
    """The card ids of the command's game: the starting, merchant and point decks' in order."""
    from century.pipeline import compile_paths

    game = _game(ctx)
    if not game:
        return []
    try:
        paths = _given(ctx, "rules") or _local_rules() or None
        ruleset = compile_paths(paths, with_bundled=True, only=game).rulesets[game]
    except Exception:  # completion never fails loudly
        return []
    ids = [card.id for card in (*ruleset.starting_cards, *ruleset.merchant_deck)]
    found = dict.fromkeys([*ids, *(card.id for card in ruleset.point_deck)])
    return [card for card in found if card.startswith(incomplete)]


def card_replacements(ctx: Any, incomplete: str) -> list[str]:
    """The card ids of the command's game as ``ID=``, for the card that replaces it to follow."""
    return [f"{card}=" for card in card_ids(ctx, incomplete)]


def target_names(incomplete: str) -> list[str]:
    """The names of the targets a build can write."""
    from century.targets import targets

    return [name for name in targets() if name.startswith(incomplete)]
