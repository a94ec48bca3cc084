"""Behavioural goldens in the OpenSpiel style: seeded games written out as text, every
position with its legal moves and the move taken, so a rule regression shows as a diff even
when the engine's source still reads the same. Refresh with ``pytest --refresh-goldens``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from century.engine import load_engine
from century.pipeline import compile_paths

from helpers import GOLDEN, VALID

GOLDENS = GOLDEN / "playthroughs"
GAMES = [
    ("spice-road", 2, 7, 0),  # a whole game: the final round and the scoring
    ("spice-road", 4, 11, 120),
    ("golem", 3, 5, 120),
    ("five-spices", 2, 3, 120),
]
"""game, players, seed, and the decisions written (0: to the end)."""


def playthrough(game: str, players: int, seed: int, limit: int = 0) -> str:
    """A seeded game between random players, one block of text per decision (the first
    `limit` decisions if `limit` is set)."""
    ruleset = compile_paths([VALID], with_bundled=True, only=game).rulesets[game]
    engine = load_engine(ruleset)
    state = engine.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    lines = [f"game {game}, {players} players, seed {seed}, moves chosen by Random({seed})", ""]
    ply = 0
    while not state.is_over() and not (limit and ply == limit):
        ply += 1
        data = state.to_dict(moves=False)
        seat = data["seats"][state.current_player]
        moves = state.legal_moves()
        move = chooser.choice(moves)
        lines += [
            f"{ply}. seat {state.current_player + 1} ({data['phase']}), round {data['rounds'] + 1}",
            "  merchant row: "
            + " ".join(f"{e['card']}[{e['cubes']}]" for e in data["merchant_row"]),
            "  point row: " + " ".join(data["point_row"]),
            f"  caravan {seat['caravan'] or '-'}; hand {' '.join(seat['hand']) or '-'}; "
            f"played {' '.join(seat['played']) or '-'}",
            f"  legal ({len(moves)}): " + " | ".join(moves),
            f"  move: {move}",
        ]
        state.play(move)
    end = "over" if state.is_over() else "stopped"
    lines += [
        "",
        f"{end} after {ply} decisions; scores {state.scores()}; winners {state.winners()}",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("game", "players", "seed", "limit"), GAMES, ids=lambda v: str(v))
def test_playthrough(game, players, seed, limit, refresh_goldens):
    path: Path = GOLDENS / f"{game}-{players}p-seed{seed}.txt"
    text = playthrough(game, players, seed, limit)
    if refresh_goldens:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), "run: python -m pytest --refresh-goldens"
    golden = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(golden, text.splitlines(), strict=False), 1):
        assert got == want, f"{path.name}:{number} differs; review, then refresh the goldens"
    assert len(text.splitlines()) == len(golden), f"{path.name}: the game length changed"
