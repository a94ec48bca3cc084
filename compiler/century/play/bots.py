"""Bots that play any generated engine through its public API.

- ``random``: a uniformly random legal move.
- ``greedy``: claims the best point card it can; otherwise plays the card that brings its
  caravan closest to a point card in the row, acquires merchant cards while its hand is
  small and a card is worth its price, and rests when nothing in hand helps.
- ``search`` (or ``search:N``): a depth-limited lookahead. It tries the greedy bot's ``N``
  best moves (default 3, one per merchant slot for acquisitions), lets the opponents answer
  as the greedy bot would, and repeats for its next own turns (``DEPTH``, 3), so it weighs
  ``N ** DEPTH`` plans per decision; a plan's worth is its final position's score and
  progress against the best opponent's. A claim available now is always taken.

Bots read the game from ``state.legal_moves()``, ``state.to_dict()``, ``state.scores()``
and ``state.clone()``, and the cards' effects from the `Ruleset`: nothing about a
particular game is written here, so every variant plays with the same code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from century.model.ruleset import MerchantCard, Ruleset

Vec = tuple[int, ...]

SEARCH_BREADTH = 3
"""Moves the search bot tries per own turn when the spec names none."""

CLAIM_SCORE = 1000.0
"""Greedy scores of claims start here, above every other kind of move."""


class Bot(Protocol):
    """Anything that picks a move for the player to move."""

    name: str

    def choose(self, state: Any) -> str: ...


# -- reading the engine's state --------------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    """What a bot needs to know about one player."""

    caravan: Vec
    hand: tuple[str, ...]
    played: tuple[str, ...]


@dataclass(frozen=True)
class View:
    """What a bot needs to know about a position, read from ``to_dict()``."""

    players: tuple[PlayerView, ...]
    point_row: tuple[str, ...]
    merchant_row: tuple[str, ...]
    merchant_cubes: tuple[Vec, ...]
    coin_at: Mapping[int, int]
    """Point-row slot (1-based) -> value of the coin a claim there takes."""


def read_view(data: Mapping[str, Any], book: CardBook) -> View:
    """A `View` of a ``State.to_dict()``."""
    players = tuple(
        PlayerView(
            caravan=book.vec(p["caravan"]),
            hand=tuple(p["hand"]),
            played=tuple(p["played"]),
        )
        for p in data["seats"]
    )
    merchant_row = tuple(_card_id(c) for c in data["merchant_row"])
    cubes = tuple(book.vec(_cubes_on(c)) for c in data["merchant_row"])
    coin_at = {}
    for pile_id, pile in _coin_piles(data).items():
        count, position = pile
        if count > 0 and position and position not in coin_at:
            coin_at[position] = book.coin_value.get(pile_id, 0)
    return View(
        players=players,
        point_row=tuple(_card_id(c) for c in data["point_row"]),
        merchant_row=merchant_row,
        merchant_cubes=cubes,
        coin_at=coin_at,
    )


def _card_id(entry: Any) -> str:
    """A row entry is a card id or ``{"card": id, "cubes": ...}``."""
    return entry if isinstance(entry, str) else entry["card"]


def _cubes_on(entry: Any) -> str:
    return entry.get("cubes", "") if isinstance(entry, Mapping) else ""


def _coin_piles(data: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    piles = data.get("coins", {})
    return {k: (v["count"], v["position"]) for k, v in piles.items()}


def game_facts(data: Mapping[str, Any]) -> dict[str, Any]:
    """The statistics of a finished game in ``to_dict()``: cards taken, coins, length."""
    players = data["seats"]
    return {
        "rounds": data["rounds"],
        "turns": [p["turns"] for p in players],
        "point_cards": [list(p["point_cards"]) for p in players],
        "merchant_cards": [list(p["merchant_cards"]) for p in players],
        "coins": [dict(p["coins"]) for p in players],
    }


# -- the cards, from the ruleset -------------------------------------------------------------


class CardBook:
    """The ruleset's cards as look-up tables, and cube arithmetic in the ladder's codes."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ranks = len(ruleset.resources)
        self.index = {r.code.lower(): i for i, r in enumerate(ruleset.resources)}
        weights = tuple(ruleset.value_weights)
        if len(weights) != self.ranks or not all(w > 0 for w in weights):
            weights = tuple(range(1, self.ranks + 1))
        self.weights: Vec = weights
        self.limit = ruleset.caravan_limit
        self.points = {c.id: (c.cost, c.points) for c in ruleset.point_deck}
        self.merchants: dict[str, MerchantCard] = {
            c.id: c for c in (*ruleset.merchant_deck, *ruleset.starting_cards)
        }
        self.coin_value = {c.id: c.value for c in ruleset.coins}
        self._worth: dict[str, float] = {}
        self._cube_values: dict[str, int] = {}

    def vec(self, cubes: Any) -> Vec:
        """A vector from a cube string (any case) or a list of counts."""
        if not isinstance(cubes, str):
            return tuple(cubes)
        counts = [0] * self.ranks
        for letter in cubes.lower():
            counts[self.index[letter]] += 1
        return tuple(counts)

    def value(self, v: Sequence[int]) -> int:
        """The weighted value of a multiset of cubes."""
        return sum(w * n for w, n in zip(self.weights, v, strict=True))

    def cube_value(self, cubes: str) -> int:
        """The weighted value of a cube string (memoised)."""
        value = self._cube_values.get(cubes)
        if value is None:
            value = self._cube_values[cubes] = self.value(self.vec(cubes))
        return value

    def worth(self, card_id: str) -> float:
        """A rough value of owning a merchant card (memoised)."""
        if card_id not in self._worth:
            self._worth[card_id] = self._card_worth(self.merchants.get(card_id))
        return self._worth[card_id]

    def _card_worth(self, card: MerchantCard | None) -> float:
        if card is None:
            return 0.0
        if card.kind == "gain":
            return 1.0 + self.value(card.get)
        if card.kind == "upgrade":
            return 1.5 * card.steps
        profit = self.value(card.get) - self.value(card.pay)
        hard_input = self.value(card.pay) - sum(card.pay)  # cubes above the lowest rank
        return 1.5 * profit - 0.5 * hard_input

    def after(self, move: str, car: Vec, view: View) -> Vec | None:
        """The caravan after `move` (before any discard), or None when it cannot tell."""
        words = move.split()
        verb = words[0]
        if verb == "rest":
            return car
        if verb == "claim":
            cost = self.points.get(view.point_row[int(words[1]) - 1])
            return _sub(car, cost[0]) if cost else None
        if verb == "discard":
            return _sub(car, self.vec(words[1]))
        if verb == "acquire":
            slot = int(words[1]) - 1
            paid = self.vec(words[2]) if len(words) > 2 else (0,) * self.ranks
            return _add(_sub(car, paid), view.merchant_cubes[slot])
        if verb == "play":
            return self._played(words[1], words[2:], car)
        return None

    def _played(self, card_id: str, args: list[str], car: Vec) -> Vec | None:
        card = self.merchants.get(card_id)
        if card is None:
            return None
        if card.kind == "gain":
            return _add(car, card.get)
        if card.kind == "trade":
            times = int(args[0][1:]) if args and args[0][:1].lower() == "x" else 1
            return _add(_sub(car, _mul(card.pay, times)), _mul(card.get, times))
        out = list(car)
        for letter in args[0].lower() if args else "":
            rank = self.index[letter]
            if rank + 1 < self.ranks:
                out[rank] -= 1
                out[rank + 1] += 1
        return tuple(out)


def _add(a: Vec, b: Vec) -> Vec:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _sub(a: Vec, b: Vec) -> Vec:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _mul(a: Vec, k: int) -> Vec:
    return tuple(x * k for x in a)


@lru_cache(maxsize=1 << 18)
def _deficit(car: Vec, cost: Vec, weights: Vec) -> int:
    """The weighted value still missing to pay `cost` from `car`.

    A cube can pay for a cost cube of its own rank or, after upgrades, of a higher one:
    each cost cube, from the top rank down, takes the best cube that can still rise to it;
    the rest must be gained. 0 means the card can be claimed.
    """
    avail = list(car)
    missing = 0
    for rank in range(len(cost) - 1, -1, -1):
        need = cost[rank]
        source = rank
        while need and source >= 0:
            take = min(need, avail[source])
            avail[source] -= take
            need -= take
            missing += take * (weights[rank] - weights[source])
            source -= 1
        missing += need * weights[rank]
    return missing


# -- the bots ---------------------------------------------------------------------------------


class RandomBot:
    """A uniformly random legal move."""

    name = "random"

    def __init__(self, ruleset: Ruleset, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> str:
        return self.rng.choice(state.legal_moves())


class GreedyBot:
    """One-step heuristics toward the point card it is closest to (see the module doc)."""

    name = "greedy"
    DISTANCE_WEIGHT = 2.0  # points lost per unit of missing cube value
    HAND_EARLY = 4  # acquire before anything but a claim while owning fewer cards...
    HAND_TARGET = 8  # ...and rather than rest while owning fewer than this...
    ACQUIRE_MIN = 2.0  # ...and the card is worth at least this much net
    PAY_WEIGHT = 0.5  # worth lost per unit of cube value placed on the row

    def __init__(self, ruleset: Ruleset, seed: int) -> None:
        self.book = card_book(ruleset)
        self._slots: tuple[View | None, list[float]] = (None, [])

    def choose(self, state: Any) -> str:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        view = read_view(state.to_dict(), self.book)
        return self.rank(moves, view, state.current_player)[0][1]

    def targets(self, view: View) -> list[tuple[Vec, float]]:
        """The point cards in the row as (cost, points with the coin a claim takes)."""
        found = []
        for slot, card_id in enumerate(view.point_row, 1):
            card = self.book.points.get(card_id)
            if card is not None:
                found.append((card[0], card[1] + view.coin_at.get(slot, 0)))
        return found

    def potential(self, car: Vec, targets: Sequence[tuple[Vec, float]]) -> float:
        """How close `car` is to the best point card in the row, in points."""
        weights = self.book.weights
        best = max(
            (pts - self.DISTANCE_WEIGHT * _deficit(car, cost, weights) for cost, pts in targets),
            default=0.0,
        )
        over = sum(car) - self.book.limit
        return best + 0.05 * self.book.value(car) - (3.0 * over if over > 0 else 0.0)

    def rank(self, moves: Sequence[str], view: View, me: int) -> list[tuple[float, str]]:
        """Every move with its greedy score, best first (stable for equal scores)."""
        player = view.players[me]
        targets = self.targets(view)
        memo: dict[Vec, float] = {}

        def potential(car: Vec) -> float:
            if car not in memo:
                memo[car] = self.potential(car, targets)
            return memo[car]

        base = potential(player.caravan)
        owned = len(player.hand) + len(player.played)
        scored = []
        for order, move in enumerate(moves):
            if move.startswith("acquire"):
                score = self._acquire_score(move.split(), view, owned)
            else:
                score = self._score(move, view, player, base, owned, potential)
            scored.append((score, -order, move))
        scored.sort(reverse=True)
        return [(s, m) for s, _, m in scored]

    def _score(
        self,
        move: str,
        view: View,
        player: PlayerView,
        base: float,
        owned: int,
        potential: Any,
    ) -> float:
        words = move.split()
        verb = words[0]
        if verb == "claim":
            slot = int(words[1])
            pts = self.book.points.get(view.point_row[slot - 1], ((), 0))[1]
            return CLAIM_SCORE + pts + view.coin_at.get(slot, 0)
        if verb == "rest":
            return 10.0 if player.played else -50.0
        car = self.book.after(move, player.caravan, view)
        if car is None:
            return -100.0
        gain = potential(car) - base
        if verb == "discard":
            return gain
        if verb == "play":
            return 100.0 + gain if gain > 0 else gain - 1.0
        return -100.0

    def _slot_worth(self, view: View) -> list[float]:
        """Per merchant-row slot: the card's worth plus the cubes lying on it (memoised)."""
        if self._slots[0] is not view:
            worth, value = self.book.worth, self.book.value
            self._slots = (
                view,
                [
                    worth(c) + value(v)
                    for c, v in zip(view.merchant_row, view.merchant_cubes, strict=True)
                ],
            )
        return self._slots[1]

    def _acquire_score(self, words: list[str], view: View, owned: int) -> float:
        """Early on, the best card for its price beats playing; later it beats resting."""
        net = self._slot_worth(view)[int(words[1]) - 1]
        if len(words) > 2:
            net -= self.PAY_WEIGHT * self.book.cube_value(words[2])
        if owned < self.HAND_EARLY and net > 0:
            return 150.0 + net
        if owned < self.HAND_TARGET and net >= self.ACQUIRE_MIN:
            return 50.0 + net
        return net - 20.0


class SearchBot:
    """Depth-limited lookahead over its own next turns (see the module doc)."""

    name = "search"
    DEPTH = 3  # own turns looked ahead

    def __init__(self, ruleset: Ruleset, seed: int, breadth: int = SEARCH_BREADTH) -> None:
        self.greedy = GreedyBot(ruleset, seed)
        self.book = self.greedy.book
        self.breadth = breadth

    def choose(self, state: Any) -> str:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        me = state.current_player
        ranked = self.greedy.rank(moves, read_view(state.to_dict(), self.book), me)
        if ranked[0][0] >= CLAIM_SCORE:
            return ranked[0][1]  # a claim now beats any plan that claims later
        best, best_value = ranked[0][1], -1e18
        for move in self._candidates(ranked):
            child = state.clone()
            child.play(move)
            value = self._value(child, me, self.DEPTH - 1)
            if value > best_value:
                best, best_value = move, value
        return best

    def _candidates(self, ranked: list[tuple[float, str]]) -> list[str]:
        """The best moves by the greedy score, one per merchant-row slot for acquisitions."""
        found: list[str] = []
        slots = set()
        for _, move in ranked:
            if move.startswith("acquire"):
                slot = move.split()[1]
                if slot in slots:
                    continue
                slots.add(slot)
            found.append(move)
            if len(found) == self.breadth:
                break
        return found

    def _value(self, state: Any, me: int, depth: int) -> float:
        """The best evaluation reachable in `depth` more own turns."""
        self._advance(state, me)
        if depth == 0 or state.is_over():
            return self.evaluate(state, me)
        ranked = self.greedy.rank(state.legal_moves(), read_view(state.to_dict(), self.book), me)
        best = -1e18
        for move in self._candidates(ranked):
            child = state.clone()
            child.play(move)
            best = max(best, self._value(child, me, depth - 1))
        return best

    def _advance(self, state: Any, me: int) -> None:
        """Play greedy moves (own discards, the opponents' turns) until our next action."""
        while not state.is_over():
            moves = state.legal_moves()
            if state.current_player == me and not moves[0].startswith("discard"):
                return
            if len(moves) == 1:
                state.play(moves[0])
                continue
            view = read_view(state.to_dict(), self.book)
            state.play(self.greedy.rank(moves, view, state.current_player)[0][1])

    def evaluate(self, state: Any, me: int) -> float:
        """Own score and progress minus the best opponent's; a finished game is won or lost."""
        scores = state.scores()
        if state.is_over():
            return 1000.0 if state.winner() == me else -1000.0 + scores[me] - max(scores)
        view = read_view(state.to_dict(), self.book)
        targets = self.greedy.targets(view)
        est = [
            scores[p]
            + 0.5 * max(0.0, self.greedy.potential(pl.caravan, targets))
            + 0.5 * (len(pl.hand) + len(pl.played))
            for p, pl in enumerate(view.players)
        ]
        return est[me] - max(e for p, e in enumerate(est) if p != me)


_BOOKS: dict[int, tuple[Ruleset, CardBook]] = {}


def card_book(ruleset: Ruleset) -> CardBook:
    """The card book of `ruleset`, built once per ruleset object."""
    entry = _BOOKS.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        entry = _BOOKS[id(ruleset)] = (ruleset, CardBook(ruleset))
    return entry[1]


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def check_spec(spec: str) -> None:
    """Raise ValueError unless `spec` names a bot (``search`` may carry ``:breadth``)."""
    name, _, arg = spec.partition(":")
    if name not in BOTS:
        raise ValueError(f"unknown bot {spec!r} (known: {', '.join(BOTS)})")
    if arg and (name != "search" or not arg.isdigit() or int(arg) < 1):
        raise ValueError(f"bad bot option in {spec!r}: only search:<breadth> takes one")


def make_bot(spec: str, ruleset: Ruleset, seed: int) -> Bot:
    """A bot from its spec: ``random``, ``greedy``, ``search`` or ``search:<breadth>``."""
    check_spec(spec)
    name, _, arg = spec.partition(":")
    if name == "search" and arg:
        return SearchBot(ruleset, seed, int(arg))
    return BOTS[name](ruleset, seed)
