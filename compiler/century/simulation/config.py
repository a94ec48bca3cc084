"""What a simulation plays, and its seeds: the games, the players, the bot of each seat.

Every game gets its own seed, derived from the base seed and the game's index, and every
bot its own seed derived from the game seed and its seat, so a simulation gives the same
games whatever runs them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

ProgressFn = Callable[[int], None]
"""Told how many more items are done (a run's progress; `century.cli.screen.progress`
draws it)."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: `games` games of `players` with one bot spec per seat; with
    `rotate`, the bots move one seat on from game to game (game i puts ``bots[0]`` in seat
    ``i % players``). An owner-effect experiment changes the deal: `unseen` (a card id) is
    taken out of the dealt rows and decks, and `owned` (a card id) is given to seat
    ``i % players`` of game i from the start, one more copy in its hand (a merchant card) or
    among its claimed cards (a point card); `row` (a card id) is placed in the merchant row
    at slot `slot` at the start; see `century.simulation.game.deal`."""

    games: int
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    rotate: bool = False
    owned: str = ""
    unseen: str | tuple[str, ...] = ""
    """A card id, or several, taken out of every deal."""
    row: str = ""
    """A merchant card placed in the merchant row at the start, at slot `slot` (0: the
    first); the row's last card goes back on top of the deck."""
    slot: int = 0

    @property
    def unseen_cards(self) -> tuple[str, ...]:
        """The cards taken out of every deal."""
        if isinstance(self.unseen, str):
            return (self.unseen,) if self.unseen else ()
        return self.unseen

    def seating(self, index: int) -> tuple[str, ...]:
        """The bot spec of each seat in game `index`."""
        if not self.rotate:
            return self.bots
        shift = index % self.players
        return self.bots[-shift:] + self.bots[:-shift] if shift else self.bots


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across runs, platforms and processes)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def seat_bots(spec: str, players: int) -> tuple[str, ...]:
    """Bot specs per seat from ``"greedy"`` (every seat) or ``"greedy,random"`` (one per seat)."""
    names = tuple(s.strip() for s in spec.split(",") if s.strip())
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players")
    return names


class SimulationError(Exception):
    """A simulation could not run (bad bots, unreachable cluster...)."""
