# The rules code of every generated engine. `century.engine` copies this module into
# each engine after a header, with the block between the game-constants markers replaced by
# the game's values; here that block is empty so the module imports and lints on its own.
# A merchant card's effect is its steps (`Card.effect`), played by the `effect_*` functions.
"""A standalone game engine for one Century game, generated from its rules data.

Standard library only. The rules (card decks, costs, caravan limit, coin piles, end
thresholds, scoring) are the constants below; the hot path is table look-ups on interned
caravans.

API
---
- ``new_game(players, seed) -> State``: a shuffled game; the same seed gives the same game.
  A seed is a whole number (an ``int``, or a NumPy integer); anything else (a float, NaN,
  text, bytes, ``True``) raises TypeError naming the argument, so every game can be recorded
  and replayed.
- ``replay(record) -> State``: plays a record (see ``State.record``) and returns the state.
- ``State.current_player``: the seat to move, 0-based (seat 0 starts); once the game is over
  (``is_over()``), the seat that would have moved next, which has no legal move.
- ``State.legal_moves() -> list[str]``: every legal move exactly once (one per distinct
  outcome), in canonical order: plays (hand in card-table order), acquires (slot order, then
  cubes), claims (slot order), ``rest``; or only discards while a discard is pending.
  Empty once the game is over.
- ``State.play(move)``: applies a move (parsed case-insensitively, spaces collapsed, the
  cubes of an upgrade or discard in any order; the canonical spelling is recorded); an
  illegal move raises ``IllegalMove`` saying why and leaves the state unchanged.
- ``State.is_over()``, ``State.scores() -> list[int]``, ``State.winner() -> int`` (the
  leader so far while the game runs), ``State.winners() -> list[int]`` (several only with the
  ``shared`` tie-break; ``winner()`` then gives the lowest tied seat).
- ``State.to_dict()`` / ``State.from_dict(d)``: a JSON-ready position and back. ``from_dict``
  also takes a position set up by hand; missing keys get defaults (empty rows and decks,
  starting caravans and hands, full coin piles less the coins the seats hold, turns that fit
  ``current_player``, phase ``action``). Every field is checked: what is not a position of
  this game raises ValueError naming the field.
- ``State.clone()``: a fast independent copy (for search bots); ``copy.copy`` and
  ``copy.deepcopy`` give the same.
- ``whole_number(value, name)``: `value` as an int, or TypeError naming `name` (the check
  every seed and count passes; the learning environments use it for actions).
- Errors: an argument of the wrong type raises TypeError, a value out of range (a seat, a
  pile, a player count) ValueError, each naming the argument; an illegal move IllegalMove (a
  ValueError). Messages quote at most a short prefix of what was given.
- ``State.view() -> View``: what the players see, read live at no cost, for bots: caravans,
  rows, hands, played and claimed cards, coins, and each legal move with the caravan it
  leaves, from the memo tables; the decks' contents but not their order
  (``View.sample(rng)`` deals a copy with the unseen cards in a drawn order); every seat's
  holdings, the coin piles and the deck sizes at once (``seats``, ``coin_piles``,
  ``decks_left``), for observers that read them after every move. See ``View``.
- ``warm_up()``: builds the move tables of every caravan within the limit up front (a
  simulation's worker then plays at warm speed from its first game). ``caravan(vector)``:
  the interned caravan of a vector. At most ``MEMO_LIMIT`` caravans are interned at once.
- ``State.record()``: ``{"rules", "source_hash", "players", "seed", "moves"}``, plus
  ``"start"`` (the position) for a game that began from ``from_dict``. ``State.moves()``:
  the moves so far; ``State.rounds()``: rounds completed; ``State.cubes(seat)``: a caravan.
  ``str(state)``: the position as text (the rows, the coin piles and every seat).
- ``effect_ways``, ``effect_outcomes``, ``effect_moves``, ``effect_most_moves``,
  ``effect_text``: a merchant card's effect (its steps) as every way to do it, the moves it
  makes from a caravan, every move it can make, the most moves, and its text. ``__all__``
  names the API.

``to_dict()`` keys: ``rules``, ``source_hash``, ``players``, ``seed``, ``current_player``,
``turn`` (turns taken by all seats), ``phase`` (``action`` or ``discard``), ``final_round``
(the end is triggered), ``end_trigger`` (the seat whose turn triggered it, or None),
``over``, ``rounds``, ``merchant_row`` (``[{"card", "cubes"}]``, slot 1 first; a bare card id
is also read), ``merchant_deck`` and ``point_deck`` (next card first), ``point_row``, ``coins``
(per pile id: ``count`` left and ``position``, 0 once gone), ``seats`` (per seat:
``caravan``, ``hand``, ``played``, ``point_cards`` and ``merchant_cards`` in the order
taken, ``coins`` per pile id, ``turns``, ``score``), ``moves`` (left out with
``to_dict(moves=False)``) and ``start`` for a hand-made start. Cards are ids, cubes are
strings of codes.

Notation (lower case; card ids as in ``CARDS``; cubes are letters of ``CODES``, one per
cube, lowest rank first, e.g. ``aab`` = two cubes of the lowest rank and one of the next)
-----------------------------------------------------------------------------------------
- ``rest``: take every played card back into the hand (always allowed).
- ``play <card> [<choice> ...]``: play a merchant card; its choices follow in the order of
  its steps, one word each: the cubes of an ``upgrade`` (the sources of its 1..N single-rank
  raises, sorted by rank: ``ab`` is one raise from the lowest rank and one from the second,
  which also reads as one cube rising two ranks; the top rank cannot rise) or of a
  ``pay_any`` (the cubes paid, by rank); ``x<k>`` for a ``repeat`` done k times, followed by
  the choices of each time; ``o<i>`` for the i-th option of a ``choose``, followed by its
  choices. So ``play <card>`` plays a gain card, ``play <card> x<k>`` trades k times,
  ``play <card> <cubes>`` upgrades. Each caravan a play can leave is one move: its name is
  the first way to it in the canonical order (fewer repeats, earlier options, fewer and
  lower raises first); another spelling of a way to the same caravan is accepted too.
- ``acquire <slot> <cubes>``: take the merchant card at slot (1-based), leaving one cube on
  each card to its left, in row order; ``acquire 1`` is free.
- ``claim <slot>``: pay the point card at slot (1-based) and take it, with a coin from the
  pile at that position if any.
- ``discard <cubes>``: the separate decision (same player) when an action leaves the caravan
  over the limit; it ends the turn.

Rules policies: decks that run out leave the rows short; the end is also triggered when the
point row is empty; ties are broken as ``TIE_BREAK`` says (``latest_turn``: the tied player
whose last turn came latest wins; ``earliest_turn``: the reverse; ``shared``: all win).
"""

from __future__ import annotations

import copy as _copy
import operator
import random
from bisect import bisect_left
from itertools import combinations_with_replacement
from math import comb
from operator import mul
from typing import Any, NamedTuple

__all__ = [
    "CARAVAN_LIMIT",
    "CARDS",
    "CARD_INDEX",
    "CODES",
    "COINS",
    "COIN_IDS",
    "COIN_RUNOUT",
    "END_THRESHOLD",
    "FINISH_ROUND",
    "GAME_ID",
    "MEMO_LIMIT",
    "MERCHANT_ROW",
    "MOST_WAYS",
    "PLAYERS_MAX",
    "PLAYERS_MIN",
    "POINT_CARDS",
    "POINT_INDEX",
    "POINT_ROW",
    "POINT_VALUES",
    "RANKS",
    "RESOURCE_IDS",
    "RESOURCE_POINTS",
    "SEATS",
    "SOURCE_HASH",
    "TIE_BREAK",
    "WARM_LIMIT",
    "Caravan",
    "Card",
    "CoinPile",
    "EffectTooLarge",
    "IllegalMove",
    "PointCard",
    "Seats",
    "State",
    "View",
    "Way",
    "caravan",
    "cubes_vector",
    "effect_most_moves",
    "effect_moves",
    "effect_outcomes",
    "effect_text",
    "effect_ways",
    "new_game",
    "replay",
    "warm_up",
    "whole_number",
]
# -- the game ------------------------------------------------------------------------------


class Card(NamedTuple):
    """A merchant card: its effect (steps, see "card effects" below), and its copies in
    each starting hand and in the deck."""

    id: str
    effect: tuple[Any, ...]
    starting: int
    deck: int


class PointCard(NamedTuple):
    """A point card: what it costs, what it scores, and its copies in the point deck."""

    id: str
    cost: tuple[int, ...]
    points: int
    copies: int


class CoinPile(NamedTuple):
    """A coin pile: its value, coins per player, and starting position in the point row."""

    id: str
    value: int
    per_player: int
    position: int  # 1-based


# The rules data. A generated engine has the game's values between these markers.
# <game constants>
GAME_ID = ""
SOURCE_HASH = ""
PLAYERS_MIN = 1
PLAYERS_MAX = 1
RESOURCE_IDS: tuple[str, ...] = ()
CODES = ""
CARAVAN_LIMIT = 0
MERCHANT_ROW = 0
POINT_ROW = 0
COINS: tuple[CoinPile, ...] = ()
COIN_RUNOUT = "shift"
SEATS: tuple[tuple[int, ...], ...] = ()
CARDS: tuple[Card, ...] = ()
POINT_CARDS: tuple[PointCard, ...] = ()
END_THRESHOLD: dict[int, int] = {}
FINISH_ROUND = True
RESOURCE_POINTS: tuple[int, ...] = ()
TIE_BREAK = "latest_turn"
# </game constants>

# Derived tables.
RANKS = len(CODES)
STARTING_HAND = tuple(i for i, card in enumerate(CARDS) for _ in range(card.starting))
MERCHANT_DECK = tuple(i for i, card in enumerate(CARDS) for _ in range(card.deck))
POINT_DECK = tuple(i for i, card in enumerate(POINT_CARDS) for _ in range(card.copies))
CARD_INDEX = {card.id: i for i, card in enumerate(CARDS)}
POINT_INDEX = {card.id: i for i, card in enumerate(POINT_CARDS)}
POINT_VALUES = tuple(card.points for card in POINT_CARDS)
COIN_IDS = tuple(coin.id for coin in COINS)
COIN_VALUES = tuple(coin.value for coin in COINS)
CLAIM_MOVES = tuple(f"claim {slot}" for slot in range(1, POINT_ROW + 1))
CLAIM_SLOT = {move: slot for slot, move in enumerate(CLAIM_MOVES)}
REST = "rest"


class IllegalMove(ValueError):
    """A move that is not legal in the current state; the message says why."""


# -- caravans ------------------------------------------------------------------------------


class Caravan:
    """One resource vector, interned, with its moves and their outcomes memoised on it (the
    outcome of a discard once it is played).

    Point rows are bit masks over point-card indexes: `affordable` masks the point cards
    this caravan can pay (-1 until the table is built, so that a first look-up misses).
    """

    __slots__ = (
        "_acquire_choices",
        "_acquire_moves",
        "_claims",
        "_discard_moves",
        "_discards",
        "_minus",
        "_play_moves",
        "_plays",
        "_plus",
        "affordable",
        "points",
        "size",
        "text",
        "vector",
    )

    def __init__(self, vector: tuple[int, ...]) -> None:
        self.vector = vector
        self.size = sum(vector)
        self.points = sum(map(mul, vector, RESOURCE_POINTS))  # what the cubes score
        self.text = "".join(code * n for code, n in zip(CODES, vector, strict=True))
        self.affordable = -1
        self._plays: list[dict[str, Caravan]] = []
        self._play_moves: list[tuple[str, ...]] = []
        self._acquire_moves: dict[int, tuple[str, ...]] = {}
        self._acquire_choices: dict[int, tuple[tuple[str, int, Caravan, Caravan], ...]] = {}
        self._claims: tuple[Caravan | None, ...] = ()
        self._minus: dict[Caravan, Caravan | None] = {}
        self._plus: dict[Caravan, Caravan] = {}
        self._discards: dict[str, Caravan] = {}  # filled as discards are played
        self._discard_moves: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Caravan({self.text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return caravan, (self.vector,)  # unpickled caravans are interned too

    def plays(self) -> list[dict[str, Caravan]]:
        """Per card: the moves that play it from this caravan, each with the result."""
        if not self._plays:
            self._plays = [_card_outcomes(self.vector, card) for card in range(len(CARDS))]
            self._play_moves = [tuple(table) for table in self._plays]
        return self._plays

    def play_moves(self) -> list[tuple[str, ...]]:
        """Per card: the moves that play it from this caravan."""
        self.plays()
        return self._play_moves

    def acquire_moves(self, row: int) -> tuple[str, ...]:
        """The acquire moves for a merchant row of `row` cards, in slot order."""
        moves = self._acquire_moves.get(row)
        if moves is None:
            moves = self._acquire_moves[row] = _acquire_moves(self.vector, row)
        return moves

    def acquire_choices(self, row: int) -> tuple[tuple[str, int, Caravan, Caravan], ...]:
        """The acquire moves for a row of `row` cards, one per slot and multiset of cubes
        paid (the first spelling; the others leave the same caravan): each as (move, slot
        0-based, the cubes paid, this caravan without them)."""
        choices = self._acquire_choices.get(row)
        if choices is None:
            seen: set[tuple[int, tuple[int, ...]]] = set()
            found = []
            for move in self.acquire_moves(row):
                slot, _, paid = _ACQUIRE[move]
                if (slot, paid.vector) not in seen:
                    seen.add((slot, paid.vector))
                    rest = _minus(self.vector, paid.vector)
                    assert rest is not None  # the move is legal: the caravan holds the cubes
                    found.append((move, slot, paid, rest))
            choices = self._acquire_choices[row] = tuple(found)
        return choices

    def minus(self, cubes: Caravan) -> Caravan | None:
        """This caravan without the cubes of `cubes`, or None if it lacks some."""
        if cubes not in self._minus:
            self._minus[cubes] = _minus(self.vector, cubes.vector)
        return self._minus[cubes]

    def claims(self) -> tuple[Caravan | None, ...]:
        """Per point card: the caravan after paying its cost, or None if it cannot be paid."""
        if not self._claims:
            self._claims = tuple(_minus(self.vector, card.cost) for card in POINT_CARDS)
            self.affordable = sum(1 << card for card, c in enumerate(self._claims) if c)
        return self._claims

    def discard_moves(self) -> tuple[str, ...]:
        """The discard moves that bring the caravan down to the limit (none when within it)."""
        if not self._discard_moves:
            self._discard_moves = _discard_moves(self.vector)
        return self._discard_moves

    def discard(self, move: str) -> Caravan | None:
        """The caravan after the discard `move` (canonical spelling), or None if it is not legal
        here: it must drop exactly the cubes over the limit, and the caravan must hold them."""
        result = self._discards.get(move)
        if result is None:
            removed = _DISCARD.get(move)
            if removed is None or sum(removed) != self.size - CARAVAN_LIMIT:
                return None
            result = _minus(self.vector, removed)
            if result is not None:
                self._discards[move] = result
        return result

    def plus(self, other: Caravan) -> Caravan:
        """This caravan with the cubes of `other` added."""
        result = self._plus.get(other)
        if result is None:
            vector = tuple(a + b for a, b in zip(self.vector, other.vector, strict=True))
            result = self._plus[other] = caravan(vector)
        return result


_CARAVANS: dict[tuple[int, ...], Caravan] = {}
MEMO_LIMIT = 50_000
"""The most caravans interned at once: past it the intern table starts afresh (caravans in
use stay valid, with their tables), so a long run cannot grow without limit."""
# Every move string generated so far (one object per spelling, shared by all tables), and
# what it means wherever it is legal.
_MOVES: dict[str, str] = {}
_MOVE_CARD: dict[str, int] = {}  # play move -> card index
_ACQUIRE: dict[str, tuple[int, tuple[int, ...], Caravan]] = {}  # move -> slot, cubes, paid
_DISCARD: dict[str, tuple[int, ...]] = {}  # move -> the cubes it drops (counts per rank)


def _intern(move: str) -> str:
    return _MOVES.setdefault(move, move)


def caravan(vector: tuple[int, ...]) -> Caravan:
    """The interned caravan of a vector (counts per rank, a tuple of `RANKS` whole numbers
    of 0 or more; TypeError or ValueError for anything else)."""
    try:
        node = _CARAVANS.get(vector)
    except TypeError:  # unhashable: said below
        node = None
    if node is None:
        if not (
            isinstance(vector, tuple)
            and len(vector) == RANKS
            and all(type(count) is int and count >= 0 for count in vector)
        ):
            raise TypeError(
                f"vector must be a tuple of {RANKS} counts of 0 or more, not {_short(vector)}"
            )
        if len(_CARAVANS) >= MEMO_LIMIT:
            _CARAVANS.clear()
        node = _CARAVANS[vector] = Caravan(vector)
    return node


WARM_LIMIT = 10_000
"""The most caravans `warm_up` builds tables for: a game with more (many ranks, a large
caravan limit) builds them as play meets them."""


def warm_up() -> int:
    """Build the move tables of every caravan within the caravan limit now rather than
    when play first meets them, so that a fresh process plays at warm speed at once.
    Returns the number of caravans (0 when there are more than `WARM_LIMIT`)."""
    if comb(CARAVAN_LIMIT + RANKS, RANKS) > WARM_LIMIT:
        return 0
    vectors = _vectors(RANKS, CARAVAN_LIMIT)
    for vector in vectors:
        node = caravan(vector)
        node.plays()
        node.claims()
        node.acquire_moves(MERCHANT_ROW)
    return len(vectors)


def _vectors(ranks: int, most: int) -> list[tuple[int, ...]]:
    """Every vector of `ranks` counts summing to at most `most`."""
    if ranks == 0:
        return [()]
    return [(n, *rest) for n in range(most + 1) for rest in _vectors(ranks - 1, most - n)]


def cubes_vector(cubes: str) -> tuple[int, ...]:
    """Counts per rank of a cube string (letters of `CODES`, case-insensitive)."""
    if not isinstance(cubes, str):
        raise TypeError(f"cubes must be a string of codes, not {_kind(cubes)}")
    counts = [0] * RANKS
    for letter in cubes.lower():
        if letter not in CODES:
            raise ValueError(f"unknown cube {_short(letter)} (codes: {CODES})")
        counts[CODES.index(letter)] += 1
    return tuple(counts)


def _minus(vector: tuple[int, ...], cost: tuple[int, ...]) -> Caravan | None:
    rest = tuple(a - b for a, b in zip(vector, cost, strict=True))
    return caravan(rest) if min(rest) >= 0 else None


def _card_outcomes(vector: tuple[int, ...], card: int) -> dict[str, Caravan]:
    """The moves that play `card` from a caravan, each with the resulting caravan."""
    table = {_intern(move): result for move, result in _card_table(vector, card).items()}
    for move in table:
        _MOVE_CARD[move] = card
    return table


def _card_table(vector: tuple[int, ...], card: int) -> dict[str, Caravan]:
    ways = _card_ways(card, sum(vector))
    name = "play " + CARDS[card].id.lower()
    return {move: caravan(after) for move, after in effect_outcomes(vector, ways, name).items()}


# -- card effects ----------------------------------------------------------------------------
# A merchant card's effect is a tuple of steps done in order. A step is a tuple:
#   ("gain", cubes)        take the cubes (counts per rank)
#   ("pay", cubes)         return the cubes; the card cannot be played without them
#   ("pay_any", n)         return any n cubes, the player choosing which
#   ("upgrade", n)         1..n single-rank raises (a cube may rise more than once)
#   ("repeat", steps, k)   do the steps 1..k times (k 0: as often as the caravan allows)
#   ("choose", options)    do exactly one of the options (each a tuple of steps)
# A play's move names its choices in step order, after the card: the cubes of an upgrade
# (the sources of its single-rank raises, by rank) or of a ``pay_any``, ``x<k>`` for a repeat
# done k times (then the choices of each time), ``o<i>`` for the i-th option of a choose.


class Way(NamedTuple):
    """One way to do a card's steps, whatever the caravan: the order it is listed in, the
    words of its move after the card, what it adds to the caravan (negative: removes), and
    the least caravan that can do it (counts per rank)."""

    key: tuple[tuple[int, ...], ...]
    words: str
    delta: tuple[int, ...]
    need: tuple[int, ...]


class EffectTooLarge(ValueError):
    """An effect with more ways than `MOST_WAYS` (or one that never runs out)."""


MOST_WAYS = 20_000
"""The most ways one card's effect may have from a caravan of at most the bound's cubes."""

_Partial = tuple[tuple[tuple[int, ...], ...], tuple[str, ...], tuple[int, ...], tuple[int, ...]]


def effect_ways(steps: tuple[Any, ...], codes: str, most: int) -> tuple[Way, ...]:
    """Every way to do `steps` from some caravan of at most `most` cubes, on the ladder of
    `codes`, in the canonical order (a play from a caravan lists the first way to each
    caravan it can leave). `EffectTooLarge` past `MOST_WAYS`."""
    zero = (0,) * len(codes)
    found = _ways(steps, codes, most, [((), (), zero, zero)])
    found.sort()
    return tuple(Way(key, " ".join(words), delta, need) for key, words, delta, need in found)


def _ways(
    steps: tuple[Any, ...], codes: str, most: int, partials: list[_Partial]
) -> list[_Partial]:
    for step in steps:
        if not partials:
            break
        partials = _first_of_each(_step(step, codes, most, partials))
        _check_ways(partials)
    return partials


def _first_of_each(partials: list[_Partial]) -> list[_Partial]:
    """One partial way per change and need (the first in order): the rest lead nowhere new."""
    best: dict[tuple[tuple[int, ...], tuple[int, ...]], _Partial] = {}
    for partial in partials:
        known = best.get((partial[2], partial[3]))
        if known is None or partial < known:
            best[partial[2], partial[3]] = partial
    return list(best.values())


def _step(step: tuple[Any, ...], codes: str, most: int, partials: list[_Partial]) -> list[_Partial]:
    """The partial ways after one more step."""
    op = step[0]
    out: list[_Partial] = []
    if op == "gain":
        return [(k, w, _plus(d, step[1]), n) for k, w, d, n in partials]
    if op == "pay":
        for key, words, delta, need in partials:
            _pay(out, key, words, delta, need, step[1], (), "", most)
        return out
    if op == "pay_any":
        choices = list(_bounded(combinations_with_replacement(range(len(codes)), step[1])))
        for key, words, delta, need in partials:
            for ranks in choices:
                paid = tuple(ranks.count(r) for r in range(len(codes)))
                text = "".join(codes[r] for r in ranks)
                _pay(out, key, words, delta, need, paid, ranks, text, most)
            _check_ways(out)
        return out
    if op == "upgrade":
        for partial in partials:
            _raises(out, partial, step[1], codes, most)
            _check_ways(out)
        return out
    if op == "repeat":
        return _repeat(step[1], step[2], codes, most, partials)
    if op == "choose":
        for index, option in enumerate(step[1], 1):
            chosen = [((*k, (index,)), (*w, f"o{index}"), d, n) for k, w, d, n in partials]
            out += _ways(option, codes, most, chosen)
        return out
    raise ValueError(f"unknown step {op!r}")


def _check_ways(found: list[Any]) -> None:
    if len(found) > MOST_WAYS:
        raise EffectTooLarge(f"more than {MOST_WAYS} ways to play the card")


def _bounded(choices: Any) -> Any:
    """`choices`, or `EffectTooLarge` once there are more than `MOST_WAYS` of them."""
    for count, choice in enumerate(choices):
        if count == MOST_WAYS:
            raise EffectTooLarge(f"more than {MOST_WAYS} ways to play the card")
        yield choice


def _plus(delta: tuple[int, ...], cubes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(map(operator.add, delta, cubes))


def _pay(
    out: list[_Partial],
    key: tuple[tuple[int, ...], ...],
    words: tuple[str, ...],
    delta: tuple[int, ...],
    need: tuple[int, ...],
    paid: tuple[int, ...],
    ranks: tuple[int, ...],
    text: str,
    most: int,
) -> None:
    """Pay `paid` after `delta`: the caravan must then hold it (the need rises to match)."""
    need = tuple(max(n, p - d) for n, p, d in zip(need, paid, delta, strict=True))
    if sum(need) <= most:
        if text:
            key, words = (*key, ranks), (*words, text)
        out.append((key, words, tuple(map(operator.sub, delta, paid)), need))


def _raises(
    out: list[_Partial], partial: _Partial, most_raises: int, codes: str, most: int
) -> None:
    """Every multiset of 1..`most_raises` single-rank raises after `partial`: the sources
    by rank, each source's cubes counting those risen into it from the rank below."""
    key, words, delta, need = partial
    ranks = len(codes)
    for size in range(1, most_raises + 1):
        for sources in _bounded(combinations_with_replacement(range(ranks - 1), size)):
            moved = [sources.count(r) for r in range(ranks - 1)] + [0]
            after, needs = list(delta), list(need)
            for rank in range(ranks):
                came = moved[rank - 1] if rank else 0
                after[rank] += came - moved[rank]
                needs[rank] = max(needs[rank], moved[rank] - came - delta[rank])
            if sum(needs) <= most:
                text = "".join(codes[r] for r in sources)
                out.append(((*key, (size, *sources)), (*words, text), tuple(after), tuple(needs)))


def _repeat(
    body: tuple[Any, ...], times: int, codes: str, most: int, partials: list[_Partial]
) -> list[_Partial]:
    """The body done 1..`times` times (0: until no caravan of `most` cubes can go on)."""
    out: list[_Partial] = []
    for key, words, delta, need in partials:
        current: list[_Partial] = [((), (), delta, need)]
        seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()  # after earlier times
        done = 0
        while current and (not times or done < times):
            # a later time that leaves what an earlier one left is never the first way there
            current = [p for p in _ways(body, codes, most, current) if (p[2], p[3]) not in seen]
            seen.update((p[2], p[3]) for p in current)
            done += 1
            for inner_key, inner_words, after, needs in current:
                out.append(
                    (
                        (*key, (done,), *inner_key),
                        (*words, f"x{done}", *inner_words),
                        after,
                        needs,
                    )
                )
            _check_ways(out)
    return out


def effect_moves(steps: tuple[Any, ...], codes: str, name: str, cubes: int) -> list[str]:
    """Every move that plays a card of `steps` from some caravan of at most `cubes` cubes, in
    the order of its plays (the learning adapters' actions): a way is a move of the caravan
    it needs unless a way before it leaves the same caravan from no more."""
    kept: list[Way] = []
    for way in effect_ways(steps, codes, cubes):
        if not any(
            seen.delta == way.delta and all(map(operator.le, seen.need, way.need)) for seen in kept
        ):
            kept.append(way)
    return [f"{name} {way.words}" if way.words else name for way in kept]


def effect_most_moves(steps: tuple[Any, ...], codes: str, cubes: int) -> int:
    """At least as many moves as a play of `steps` lists from any caravan of at most `cubes`
    cubes: one per distinct change to the caravan (the bound of the move tables)."""
    return len({way.delta for way in effect_ways(steps, codes, cubes)})


def effect_outcomes(
    vector: tuple[int, ...], ways: tuple[Way, ...], name: str
) -> dict[str, tuple[int, ...]]:
    """The moves that play a card from the caravan `vector`, each with the vector it leaves:
    the first way to each (`ways` in order, from a bound of at least the caravan's cubes)."""
    found: dict[str, tuple[int, ...]] = {}
    seen: set[tuple[int, ...]] = set()
    for way in ways:
        if all(map(operator.le, way.need, vector)):
            after = tuple(map(operator.add, vector, way.delta))
            if after not in seen:
                seen.add(after)
                found[f"{name} {way.words}" if way.words else name] = after
    return found


def effect_text(steps: tuple[Any, ...], codes: str) -> tuple[str, ...]:
    """An effect for people: words and cube strings, alternating, words first
    (``("+", "yyr")``, ``("", "yy", ">", "g")``, ``("upgrade 1, then +", "y")``)."""
    tokens: list[tuple[bool, str]] = []

    def cubes(vector: tuple[int, ...]) -> None:
        tokens.append((True, "".join(code * n for code, n in zip(codes, vector, strict=True))))

    def walk(steps: tuple[Any, ...]) -> None:
        for index, step in enumerate(steps):
            tokens.append((False, ", then " if index else ""))
            op = step[0]
            if op in ("gain", "pay"):
                tokens.append((False, "+" if op == "gain" else "-"))
                cubes(step[1])
            elif op in ("pay_any", "upgrade"):
                tokens.append((False, f"{op.replace('_', ' ')} {step[1]}"))
            elif op == "repeat" and _is_trade(step[1]):
                cubes(step[1][0][1])
                tokens.append((False, ">"))
                cubes(step[1][1][1])
                tokens.append((False, f" (at most {step[2]}x)" if step[2] else ""))
            elif op == "repeat":
                tokens.append((False, "repeat ("))
                walk(step[1])
                tokens.append((False, f") at most {step[2]}x" if step[2] else ")"))
            elif op == "choose":
                for number, option in enumerate(step[1]):
                    tokens.append((False, " or (" if number else "either ("))
                    walk(option)
                    tokens.append((False, ")"))
            else:  # a step added to the language: its words, then the cubes it names
                words, named = _added_text(step)
                tokens.append((False, words))
                if named is not None:
                    cubes(named)

    walk(steps)
    parts = [""]
    for is_cubes, text in tokens:
        if is_cubes:
            if len(parts) % 2 == 0:  # two cube strings in a row: an empty word between
                parts.append("")
            parts.append(text)
        elif len(parts) % 2:
            parts[-1] += text
        else:
            parts.append(text)
    return tuple(parts)


def _added_text(step: tuple[Any, ...]) -> tuple[str, tuple[int, ...] | None]:
    """The words of a step added to the language and the cubes it names (None for a count).
    The rules code knows none; an engine whose game uses one replaces this function."""
    raise ValueError(f"unknown step {step[0]!r}")


def _is_trade(steps: tuple[Any, ...]) -> bool:
    """Whether `steps` are one payment then one gain (the body of a trade)."""
    return len(steps) == 2 and steps[0][0] == "pay" and steps[1][0] == "gain"


_WAYS: dict[int, tuple[int, tuple[Way, ...]]] = {}  # card -> (bound, its ways)


def _card_ways(card: int, size: int) -> tuple[Way, ...]:
    """The ways to play `card` from a caravan of `size` cubes (built once per bound)."""
    known = _WAYS.get(card)
    if known is None or known[0] < size:
        bound = max(size, CARAVAN_LIMIT)
        known = _WAYS[card] = (bound, effect_ways(CARDS[card].effect, CODES, bound))
    return known[1]


def _acquire_moves(vector: tuple[int, ...], row: int) -> tuple[str, ...]:
    """The acquire moves a caravan allows for a row of `row` cards, in slot order."""
    held = [(code, n) for code, n in zip(CODES, vector, strict=True) if n]
    moves: list[str] = []
    placed = [""]  # the cube strings the caravan can leave left of the slot, in rank order
    for slot in range(row):
        if slot:
            placed = [cubes + code for cubes in placed for code, n in held if cubes.count(code) < n]
        moves += [_acquire_move(slot, cubes) for cubes in placed]
    return tuple(moves)


def _acquire_move(slot: int, cubes: str) -> str:
    """The move that takes the card at `slot` (0-based) leaving `cubes` on the cards before."""
    move = f"acquire {slot + 1} {cubes}" if cubes else f"acquire {slot + 1}"
    known = _MOVES.get(move)
    if known is None:
        known = _intern(move)
        ranks = tuple(map(CODES.index, cubes))
        _ACQUIRE[known] = (slot, ranks, caravan(cubes_vector(cubes)))
    return known


def _subsets(vector: tuple[int, ...], size: int, rank: int = 0) -> list[str]:
    """Every sub-multiset of `size` cubes of the ranks from `rank` up, as cube strings (lowest
    rank first), in order."""
    code = CODES[rank]
    if rank == RANKS - 1:
        return [code * size] if size <= vector[rank] else []
    above = sum(vector[rank + 1 :])  # the most the higher ranks can supply
    counts = range(min(size, vector[rank]), max(size - above, 0) - 1, -1)
    if rank == RANKS - 2:  # the top rank takes the rest
        top = CODES[rank + 1]
        return [code * n + top * (size - n) for n in counts]
    return [code * n + tail for n in counts for tail in _subsets(vector, size - n, rank + 1)]


def _discard_moves(vector: tuple[int, ...]) -> tuple[str, ...]:
    """The discard moves of a caravan over the limit, in order of their cube strings."""
    excess = sum(vector) - CARAVAN_LIMIT
    if excess <= 0:
        return ()
    return tuple(_discard_move(cubes) for cubes in _subsets(vector, excess))


def _discard_move(cubes: str) -> str:
    """The move that discards `cubes`."""
    move = "discard " + cubes
    known = _MOVES.get(move)
    if known is None:
        known = _intern(move)
        _DISCARD[known] = cubes_vector(cubes)
    return known


EMPTY = caravan((0,) * RANKS)
_UNIT = tuple(caravan(tuple(int(r == i) for i in range(RANKS))) for r in range(RANKS))


def _kinds(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct cards of a hand, in card order."""
    return tuple(sorted(set(hand)))


def _mask(cards: list[int]) -> int:
    """The bit mask of the distinct cards in a point row."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _normal(move: str) -> str:
    return " ".join(move.lower().split())


def _sorted_cubes(move: str) -> str:
    """`move` with the cubes of an upgrade or a discard in rank order."""
    head, _, cubes = move.rpartition(" ")
    if head.split(" ")[0] not in ("play", "discard") or not set(cubes) <= set(CODES):
        return move
    return f"{head} {''.join(sorted(cubes, key=CODES.index))}"


# -- the game state ------------------------------------------------------------------------


_BARE: Any = object()
"""`State`'s default argument: a bare instance, for `clone` and unpickling (a class compiled
with mypyc calls ``__init__`` from ``__new__``)."""


class State:
    """A position: rows, decks, coin piles, and per seat caravan, hand and claimed cards."""

    __slots__ = (
        "_acquired",
        "_caravans",
        "_coin_count",
        "_coin_position",
        "_coins",
        "_discarding",
        "_final",
        "_hands",
        "_history",
        "_history_len",
        "_kinds",
        "_mcubes",
        "_mdeck",
        "_mnext",
        "_mrow",
        "_over",
        "_pdeck",
        "_played",
        "_pnext",
        "_points",
        "_prow",
        "_prow_mask",
        "_seed",
        "_start",
        "_threshold",
        "_trigger",
        "_turns",
        "current_player",
        "players",
    )

    def __init__(self, players: Any = _BARE) -> None:
        if players is _BARE:
            return
        players = whole_number(players, "players")
        if not PLAYERS_MIN <= players <= PLAYERS_MAX:
            raise ValueError(f"players must be {PLAYERS_MIN}..{PLAYERS_MAX}, not {players}")
        self.players = players
        self.current_player = 0
        self._threshold = END_THRESHOLD[players]
        self._caravans = [caravan(SEATS[seat]) for seat in range(players)]
        self._hands = [STARTING_HAND] * players
        self._kinds = [_kinds(STARTING_HAND)] * players
        self._played: list[tuple[int, ...]] = [()] * players
        self._points: list[tuple[int, ...]] = [()] * players
        self._acquired: list[tuple[int, ...]] = [()] * players
        self._coins = [(0,) * len(COINS)] * players
        self._turns = [0] * players
        self._coin_count = [coin.per_player * players for coin in COINS]
        self._coin_position = _coin_positions(self._coin_count)  # an empty pile has run out
        self._mrow: list[int] = []
        self._mcubes: list[Caravan] = []
        self._mdeck: tuple[int, ...] = ()
        self._mnext = 0
        self._prow: list[int] = []
        self._prow_mask = 0
        self._pdeck: tuple[int, ...] = ()
        self._pnext = 0
        self._discarding = False
        self._final = False
        self._trigger: int | None = None  # the seat whose turn triggered the end
        self._over = False
        self._seed: int | None = None
        self._start: dict[str, Any] | None = None
        # The moves played: a list shared by clones; this state's moves are the first
        # `_history_len` entries (a clone that diverges copies them first).
        self._history: list[str] = []
        self._history_len = 0

    # -- queries -------------------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        """Every legal move of the player to move, each once, in canonical order."""
        if self._over:
            return []
        seat = self.current_player
        node = self._caravans[seat]
        if self._discarding:
            return list(node._discard_moves or node.discard_moves())
        # The memo tables are read directly here: this is the hot path.
        plays = node._play_moves or node.play_moves()
        moves: list[str] = []
        for card in self._kinds[seat]:
            if plays[card]:
                moves += plays[card]
        row = len(self._mrow)
        acquires = node._acquire_moves.get(row)
        moves += node.acquire_moves(row) if acquires is None else acquires
        if node.affordable & self._prow_mask:
            claims = node.claims()
            for slot, card in enumerate(self._prow):
                if claims[card] is not None and not self._same_claim(slot):
                    moves.append(CLAIM_MOVES[slot])
        moves.append(REST)
        return moves

    def is_over(self) -> bool:
        return self._over

    def scores(self) -> list[int]:
        """Points per seat: point cards, coins and the cubes left in the caravan."""
        return [self._score(seat) for seat in range(self.players)]

    def _score(self, seat: int) -> int:
        points = sum(map(POINT_VALUES.__getitem__, self._points[seat]))
        coins = sum(map(mul, self._coins[seat], COIN_VALUES))
        return points + coins + self._caravans[seat].points

    def winners(self) -> list[int]:
        """The winning seats after the tie-break (several only with ``shared``)."""
        scores = self.scores()
        best = max(scores)
        tied = [seat for seat in range(self.players) if scores[seat] == best]
        if TIE_BREAK == "shared" or len(tied) == 1:
            return tied

        def last_turn(seat: int) -> int:
            return (self._turns[seat] - 1) * self.players + seat

        pick = max if TIE_BREAK == "latest_turn" else min
        return [pick(tied, key=last_turn)]

    def winner(self) -> int:
        """The winning seat (the lowest of several with the ``shared`` tie-break)."""
        return self.winners()[0]

    def cubes(self, seat: int) -> str:
        """The caravan of `seat` as a cube string, lowest rank first."""
        return self._caravans[_index(seat, "seat", self.players)].text

    def rounds(self) -> int:
        """Completed rounds: turns taken by every seat."""
        return min(self._turns)

    def view(self) -> View:
        """What the players see of this position, read live (see `View`)."""
        return View(self)

    def __str__(self) -> str:
        """The position as text: the round and who moves (or who won), the rows (with the
        cubes on merchant cards and the cards left in each deck), the coin piles, and every
        seat's score, caravan, hand, played cards, point cards and coins."""
        if self._over:
            status = "game over: winner " + " and ".join(f"seat {s + 1}" for s in self.winners())
        else:
            status = f"seat {self.current_player + 1} to move"
        final = ", final round" if self._final and not self._over else ""
        merchants = [
            f"{slot}:{CARDS[card].id}" + (f"[{cubes.text}]" if cubes.text else "")
            for slot, (card, cubes) in enumerate(zip(self._mrow, self._mcubes, strict=True), 1)
        ]
        points = [f"{slot}:{POINT_CARDS[card].id}" for slot, card in enumerate(self._prow, 1)]
        piles = zip(COIN_IDS, self._coin_count, self._coin_position, strict=True)
        lines = [
            f"{GAME_ID}: round {self.rounds() + 1}{final}, {status}",
            f"merchant row ({len(self._mdeck) - self._mnext} left): " + " ".join(merchants),
            f"point row ({len(self._pdeck) - self._pnext} left): " + " ".join(points),
            "coins: " + ", ".join(f"{pile} {n} at {at or '-'}" for pile, n, at in piles),
        ]
        for seat in range(self.players):
            held = zip(COIN_IDS, self._coins[seat], strict=True)
            coins = " ".join(f"{pile} {n}" for pile, n in held if n)
            hand = " ".join(CARDS[card].id for card in sorted(self._hands[seat]))
            played = " ".join(CARDS[card].id for card in sorted(self._played[seat]))
            lines.append(
                f"seat {seat + 1}: score {self._score(seat)}, "
                f"caravan {self._caravans[seat].text or '-'}, hand {hand or '-'}, "
                f"played {played or '-'}, point cards {len(self._points[seat])}"
                + (f", coins {coins}" if coins else "")
            )
        return "\n".join(lines)

    # -- moves ---------------------------------------------------------------------------

    def play(self, move: Any) -> None:
        """Apply `move`; raise IllegalMove (state unchanged) if it is not legal."""
        if self._over:
            raise IllegalMove("the game is over")
        if move.__class__ is not str:
            return self._play_slow(move)
        seat = self.current_player
        node = self._caravans[seat]
        if self._discarding:
            result = node._discards.get(move) or node.discard(move)
            if result is None:
                return self._play_slow(move)
            self._caravans[seat] = result
            self._discarding = False
            self._end_turn(move)
            return None
        card = _MOVE_CARD.get(move)
        if card is not None:
            table = (node._plays or node.plays())[card]
            result = table.get(move) if card in self._kinds[seat] else None
            if result is None:
                return self._play_slow(move)
            self._play_card(seat, card)
        elif move in _ACQUIRE:
            slot, ranks, paid = _ACQUIRE[move]
            rest = node.minus(paid) if slot < len(self._mrow) else None
            if rest is None:
                return self._play_slow(move)
            result = self._acquire(seat, slot, ranks, rest)
        elif move in CLAIM_SLOT:
            slot = CLAIM_SLOT[move]
            result = node.claims()[self._prow[slot]] if slot < len(self._prow) else None
            if result is None or self._same_claim(slot):
                return self._play_slow(move)
            self._claim(seat, slot)
        elif move == REST:
            self._hands[seat] += self._played[seat]
            self._played[seat] = ()
            self._kinds[seat] = _kinds(self._hands[seat])
            result = node
        else:
            return self._play_slow(move)
        self._caravans[seat] = result
        if result.size > CARAVAN_LIMIT:
            self._discarding = True
            self._remember(move)
            result.discard_moves()
        else:
            self._end_turn(move)
        return None

    def _play_card(self, seat: int, card: int) -> None:
        hand = self._hands[seat]
        index = hand.index(card)
        hand = self._hands[seat] = hand[:index] + hand[index + 1 :]
        self._played[seat] += (card,)
        if card not in hand:  # the last copy: drop the card from the hand's kinds
            kinds = self._kinds[seat]
            index = kinds.index(card)
            self._kinds[seat] = kinds[:index] + kinds[index + 1 :]

    def _acquire(self, seat: int, slot: int, ranks: tuple[int, ...], rest: Caravan) -> Caravan:
        cubes = self._mcubes
        for index, rank in enumerate(ranks):
            cubes[index] = cubes[index].plus(_UNIT[rank])
        card = self._mrow.pop(slot)
        found = cubes.pop(slot)
        if self._mnext < len(self._mdeck):
            self._mrow.append(self._mdeck[self._mnext])
            cubes.append(EMPTY)
            self._mnext += 1
        self._hands[seat] += (card,)
        kinds = self._kinds[seat]
        index = bisect_left(kinds, card)
        if index == len(kinds) or kinds[index] != card:
            self._kinds[seat] = (*kinds[:index], card, *kinds[index:])
        self._acquired[seat] += (card,)
        return rest.plus(found) if found.size else rest

    def _claim(self, seat: int, slot: int) -> None:
        self._points[seat] += (self._prow.pop(slot),)
        if self._pnext < len(self._pdeck):
            self._prow.append(self._pdeck[self._pnext])
            self._pnext += 1
        self._prow_mask = _mask(self._prow)
        pile = self._pile(slot + 1)
        if pile >= 0:
            self._take_coin(seat, pile)

    def _same_claim(self, slot: int) -> bool:
        """Whether claiming `slot` would give the same position as claiming the slot before
        (the same card, beside it, with the same coin)."""
        row = self._prow
        return slot > 0 and row[slot] == row[slot - 1] and self._pile(slot) == self._pile(slot + 1)

    def _pile(self, position: int) -> int:
        """The coin pile with coins at a point-row position (1-based), or -1."""
        for pile, at in enumerate(self._coin_position):
            if at == position and self._coin_count[pile] > 0:
                return pile
        return -1

    def _take_coin(self, seat: int, pile: int) -> None:
        coins = list(self._coins[seat])
        coins[pile] += 1
        self._coins[seat] = tuple(coins)
        self._coin_count[pile] -= 1
        if self._coin_count[pile] == 0 and COIN_RUNOUT == "shift":
            gone = self._coin_position[pile]
            self._coin_position[pile] = 0
            for other, position in enumerate(self._coin_position):
                if position > gone:
                    self._coin_position[other] = position - 1

    def _end_turn(self, move: str) -> None:
        self._remember(move)
        seat = self.current_player
        self._turns[seat] += 1
        if self._final or len(self._points[seat]) >= self._threshold or not self._prow:
            if not self._final:
                self._trigger = seat
            self._final = True
            if not FINISH_ROUND or min(self._turns) == max(self._turns):
                self._over = True
        self.current_player = (seat + 1) % self.players

    def _play_slow(self, move: Any) -> None:
        """Accept a non-canonical spelling of a legal move, or raise IllegalMove saying why."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move is a string, not {type(move).__name__}")
        wanted = _normal(move)
        spellings = {wanted, _sorted_cubes(wanted)}
        for legal in self.legal_moves():  # this also builds every table `play` reads
            if _normal(legal) in spellings:
                return self.play(legal)
        respelt = self._respelt_play(wanted)
        if respelt is not None:
            return self.play(respelt)
        raise IllegalMove(f"{_short(move)}: {self._reason(wanted)}")

    def _respelt_play(self, move: str) -> str | None:
        """The legal play that leaves the caravan the play `move` spells another way leaves
        (a way listed after the first to the same caravan), or None."""
        word, _, rest = move.partition(" ")
        name, _, words = rest.partition(" ")
        card = CARD_INDEX.get(name) if word == "play" else None
        if card is None:
            card = next((i for i, c in enumerate(CARDS) if c.id.lower() == name), None)
        seat = self.current_player
        if card is None or card not in self._kinds[seat] or self._discarding:
            return None
        node = self._caravans[seat]
        for way in _card_ways(card, node.size):
            if way.words == words and all(map(operator.le, way.need, node.vector)):
                after = caravan(tuple(map(operator.add, node.vector, way.delta)))
                table = (node._plays or node.plays())[card]
                return next((m for m, result in table.items() if result is after), None)
        return None

    def _reason(self, move: str) -> str:
        seat = self.current_player
        node = self._caravans[seat]
        word, _, rest = move.partition(" ")
        if self._discarding:
            excess = node.size - CARAVAN_LIMIT
            if word != "discard":
                return f"first discard {excess} cube(s): the caravan holds at most {CARAVAN_LIMIT}"
            return f"discard exactly {excess} cube(s) from the caravan ({node.text})"
        if word == "discard":
            return "nothing to discard: the caravan is within the limit"
        if word == "play":
            return self._play_reason(seat, rest)
        if word == "acquire":
            return self._acquire_reason(node, rest)
        if word == "claim":
            if not _slot_in(rest, len(self._prow)):
                return f"the point row has slots 1..{len(self._prow)}"
            if self._same_claim(int(rest) - 1):
                return f"the same card as claim {int(rest) - 1}: claim that one"
            cost = POINT_CARDS[self._prow[int(rest) - 1]].cost
            return f"the caravan ({node.text}) cannot pay {caravan(cost).text}"
        if word == "rest" and rest:
            return "rest takes no argument"
        return "unknown move; moves are rest, play, acquire, claim, discard"

    def _play_reason(self, seat: int, rest: str) -> str:
        names = {card.id.lower(): index for index, card in enumerate(CARDS)}
        card = names.get(rest)
        if card is None:
            name, _, _ = rest.rpartition(" ")
            card = names.get(name)
        if card is None:
            return "no such card"
        if card in self._played[seat] and card not in self._hands[seat]:
            return "that card is already played; rest to take it back"
        if card not in self._hands[seat]:
            return "that card is not in the hand"
        node = self._caravans[seat]
        plays = (node._plays or node.plays())[card]
        if not plays:
            return f"the caravan ({node.text}) cannot play {CARDS[card].id}"
        return f"not a play of {CARDS[card].id} from the caravan ({node.text}): " + ", ".join(
            list(plays)[:5] + (["..."] if len(plays) > 5 else [])
        )

    def _acquire_reason(self, node: Caravan, rest: str) -> str:
        slot, _, cubes = rest.partition(" ")
        row = len(self._mrow)
        if not _slot_in(slot, row):
            return f"the merchant row has slots 1..{row}"
        if len(cubes) != int(slot) - 1:
            return f"place exactly one cube on each of the {int(slot) - 1} card(s) to the left"
        return f"the caravan ({node.text}) does not hold the cubes {cubes}"

    # -- copies, records, JSON -----------------------------------------------------------

    def clone(self) -> State:
        """An independent copy (shares only immutable parts)."""
        copy = State.__new__(State)
        copy.players = self.players
        copy.current_player = self.current_player
        copy._threshold = self._threshold
        copy._caravans = self._caravans[:]
        copy._hands = self._hands[:]
        copy._kinds = self._kinds[:]
        copy._played = self._played[:]
        copy._points = self._points[:]
        copy._acquired = self._acquired[:]
        copy._coins = self._coins[:]
        copy._turns = self._turns[:]
        copy._coin_count = self._coin_count[:]
        copy._coin_position = self._coin_position[:]
        copy._mrow = self._mrow[:]
        copy._mcubes = self._mcubes[:]
        copy._mdeck = self._mdeck
        copy._mnext = self._mnext
        copy._prow = self._prow[:]
        copy._prow_mask = self._prow_mask
        copy._pdeck = self._pdeck
        copy._pnext = self._pnext
        copy._discarding = self._discarding
        copy._final = self._final
        copy._trigger = self._trigger
        copy._over = self._over
        copy._seed = self._seed
        copy._start = self._start
        copy._history = self._history
        copy._history_len = self._history_len
        return copy

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def _remember(self, move: str) -> None:
        """Add `move` to the history (a diverging clone first copies the shared list)."""
        if len(self._history) != self._history_len:
            self._history = self._history[: self._history_len]
        self._history.append(move)
        self._history_len += 1

    def moves(self) -> list[str]:
        """The moves played so far (since the seeded start or the hand-made position)."""
        return self._history[: self._history_len]

    def record(self) -> dict[str, Any]:
        """A game record that `replay` plays back exactly."""
        record = {
            "rules": GAME_ID,
            "source_hash": SOURCE_HASH,
            "players": self.players,
            "seed": self._seed,
            "moves": self.moves(),
        }
        if self._start is not None:
            record["start"] = _copy.deepcopy(self._start)  # shares nothing with the state
        return record

    def to_dict(self, moves: bool = True) -> dict[str, Any]:
        """The position as JSON-ready data (`from_dict` reads it back); `moves` adds the
        moves played (needed to keep `record()` working after `from_dict`)."""
        data = self._position()
        if moves:
            data["moves"] = self.moves()
        if self._start is not None:
            data["start"] = _copy.deepcopy(self._start)  # shares nothing with the state
        return data

    def _position(self) -> dict[str, Any]:
        scores = self.scores()
        return {
            "rules": GAME_ID,
            "source_hash": SOURCE_HASH,
            "players": self.players,
            "seed": self._seed,
            "current_player": self.current_player,
            "turn": sum(self._turns),
            "phase": "discard" if self._discarding else "action",
            "final_round": self._final,
            "end_trigger": self._trigger,
            "over": self._over,
            "rounds": self.rounds(),
            "merchant_row": [
                {"card": CARDS[card].id, "cubes": cubes.text}
                for card, cubes in zip(self._mrow, self._mcubes, strict=True)
            ],
            "merchant_deck": [CARDS[card].id for card in self._mdeck[self._mnext :]],
            "point_row": [POINT_CARDS[card].id for card in self._prow],
            "point_deck": [POINT_CARDS[card].id for card in self._pdeck[self._pnext :]],
            "coins": {
                coin.id: {"count": count, "position": position}
                for coin, count, position in zip(
                    COINS, self._coin_count, self._coin_position, strict=True
                )
            },
            "seats": [
                {
                    "caravan": self._caravans[seat].text,
                    "hand": [CARDS[card].id for card in sorted(self._hands[seat])],
                    "played": [CARDS[card].id for card in sorted(self._played[seat])],
                    "point_cards": [POINT_CARDS[card].id for card in self._points[seat]],
                    "merchant_cards": [CARDS[card].id for card in self._acquired[seat]],
                    "coins": dict(zip(COIN_IDS, self._coins[seat], strict=True)),
                    "turns": self._turns[seat],
                    "score": scores[seat],
                }
                for seat in range(self.players)
            ],
        }

    @classmethod
    def from_dict(cls, data: Any) -> State:
        """A state from `to_dict` output or from a position written by hand.

        Every field is checked: a position that could not occur in a game, or is not a
        position at all, raises ValueError naming the field (``seats[1].caravan``) and
        changes nothing. Without "moves" (or without both "seed" and "start") the position
        becomes the start of the state's record; with them, the moves must lead from the
        seeded or given start to this very position.
        """
        position = _Position(data)
        state = cls(position.players)
        position.load(state)
        moves = position.moves()
        if "moves" not in data or (state._seed is None and state._start is None):
            state._start = state._position()  # a new start: records replay from here
            return state
        state._history = moves
        state._history_len = len(state._history)
        position.check_moves(state)
        return state


_POSITION_FIELDS = frozenset(
    {
        *("rules", "source_hash", "players", "seed", "current_player", "phase", "final_round"),
        *("over", "rounds", "turn", "end_trigger", "merchant_row", "merchant_deck"),
        *("point_row", "point_deck", "coins", "seats", "moves", "start"),
    }
)
"""The fields of a position (`to_dict`)."""
_SEAT_FIELDS = frozenset(
    ("caravan", "hand", "played", "point_cards", "merchant_cards", "coins", "turns", "score")
)


def _kind(value: Any) -> str:
    return "true or false" if _is_bool(value) else type(value).__name__


def _is_bool(value: Any) -> bool:
    """Python's and NumPy's booleans (integers to Python, never counts or seeds here)."""
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool")


def _is_whole(value: Any) -> bool:
    """Whether `value` is a whole number: an int or a NumPy integer, not a boolean."""
    if _is_bool(value) or isinstance(value, float | str | bytes | bytearray):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def whole_number(value: Any, name: str) -> int:
    """`value` as an int if it is a whole number (an int, a NumPy integer), else TypeError
    naming `name`: a float is never truncated, a boolean never counts."""
    if not _is_whole(value):
        raise TypeError(f"{name} must be a whole number, not {_kind(value)}")
    return operator.index(value)


def _index(value: Any, name: str, count: int) -> int:
    """`value` as an index in ``0..count - 1``; TypeError or ValueError naming `name`."""
    index = whole_number(value, name)
    if not 0 <= index < count:
        raise ValueError(f"{name} must be 0..{count - 1}, not {index}")
    return index


def _short(value: Any, most: int = 40) -> str:
    """`value` quoted for a message, cut to `most` characters."""
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def _slot_in(text: str, slots: int) -> bool:
    """Whether `text` names a slot ``1..slots`` (at most three ASCII digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= slots


def _int(value: Any, field: str, low: int = 0, high: int | None = None) -> int:
    """`value` as a whole number in ``low..high``, or ValueError naming `field`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{field}: expected a whole number, not {_kind(value)}")
    if value < low or (high is not None and value > high):
        limits = f"{low}..{high}" if high is not None else f"{low} or more"
        raise ValueError(f"{field}: {value} is not in {limits}")
    return value


def _typed(value: Any, kind: type, field: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
        raise ValueError(f"{field}: expected {kind.__name__}, not {_kind(value)}")
    return value


def _cubes(value: Any, field: str) -> Caravan:
    text = _typed(value, str, field)
    try:
        return caravan(cubes_vector(text))
    except ValueError as err:
        raise ValueError(f"{field}: {err}") from None


def _card_list(value: Any, field: str) -> tuple[int, ...]:
    """Merchant card indexes from a list of card ids (or indexes)."""
    found = []
    for i, card in enumerate(_typed(value, list, field)):
        if isinstance(card, str) and card in CARD_INDEX:
            found.append(CARD_INDEX[card])
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(CARDS):
            found.append(card)
        else:
            raise ValueError(f"{field}[{i}]: unknown merchant card {_short(card)}")
    return tuple(found)


def _point_list(value: Any, field: str) -> list[int]:
    found = []
    for i, card in enumerate(_typed(value, list, field)):
        if not isinstance(card, str) or card not in POINT_INDEX:
            raise ValueError(f"{field}[{i}]: unknown point card {_short(card)}")
        found.append(POINT_INDEX[card])
    return found


def _coin_positions(counts: list[int]) -> list[int]:
    """Where the coin piles lie once the empty ones have run out: with ``shift`` an empty
    pile leaves the row (position 0) and each pile moves left by the empty ones that lay to
    its left; with ``stay`` nothing moves."""
    if COIN_RUNOUT != "shift":
        return [coin.position for coin in COINS]
    gone = [coin.position for coin, count in zip(COINS, counts, strict=True) if count == 0]
    return [
        0 if count == 0 else coin.position - sum(1 for at in gone if at < coin.position)
        for coin, count in zip(COINS, counts, strict=True)
    ]


class _Position:
    """A position given as data, read field by field into a new `State`."""

    def __init__(self, data: Any) -> None:
        self.data = _typed(data, dict, "position")
        unknown = sorted(str(key) for key in self.data if key not in _POSITION_FIELDS)
        if unknown:
            raise ValueError(f"{unknown[0][:40]}: not a field of a position")
        rules = self.data.get("rules", GAME_ID)
        if rules != GAME_ID:
            raise ValueError(f"rules: the position is of {_short(rules)}, not {GAME_ID!r}")
        if self.data.get("source_hash") is not None:
            _typed(self.data["source_hash"], str, "source_hash")
        if "players" not in self.data:
            raise ValueError("players: missing")
        self.players = _int(self.data["players"], "players", PLAYERS_MIN, PLAYERS_MAX)

    def get(self, key: str, default: Any) -> Any:
        return self.data.get(key, default)

    def load(self, state: State) -> None:
        """Fill `state` (new, for `self.players`) from the data, checking every field."""
        seats = _typed(self.get("seats", [{}] * self.players), list, "seats")
        if len(seats) != self.players:
            raise ValueError(f"seats: {len(seats)} seats given for {self.players} players")
        for seat, info in enumerate(seats):
            self._seat(state, seat, _typed(info, dict, f"seats[{seat}]"))
        self._rows(state)
        self._turns(state, seats)
        self._coins(state)
        self._phase(state)
        self._end(state)
        seed = self.get("seed", None)
        if seed is not None and not _is_whole(seed):
            raise ValueError(f"seed: expected a whole number, not {_kind(seed)}")
        state._seed = None if seed is None else operator.index(seed)
        start = self.get("start", None)
        if start is not None:
            if not isinstance(start, dict) or "moves" in start or "start" in start:
                raise ValueError("start: expected a position without moves")
            try:
                State.from_dict(start)
            except ValueError as err:
                raise ValueError(f"start.{err}") from None
        state._start = _copy.deepcopy(start)  # nor with the caller's data

    def _seat(self, state: State, seat: int, info: dict[str, Any]) -> None:
        field = f"seats[{seat}]"
        unknown = sorted(str(key) for key in info if key not in _SEAT_FIELDS)
        if unknown:
            raise ValueError(f"{field}.{unknown[0][:40]}: not a field of a seat")
        if "caravan" in info:
            state._caravans[seat] = _cubes(info["caravan"], f"{field}.caravan")
        if "hand" in info:
            state._hands[seat] = _card_list(info["hand"], f"{field}.hand")
            state._kinds[seat] = _kinds(state._hands[seat])
        state._played[seat] = _card_list(info.get("played", []), f"{field}.played")
        state._points[seat] = tuple(
            _point_list(info.get("point_cards", []), f"{field}.point_cards")
        )
        state._acquired[seat] = _card_list(
            info.get("merchant_cards", []), f"{field}.merchant_cards"
        )
        coins = _typed(info.get("coins", {}), dict, f"{field}.coins")
        for pile in coins:
            if pile not in COIN_IDS:
                raise ValueError(f"{field}.coins.{pile}: no such coin pile")
        state._coins[seat] = tuple(
            _int(coins.get(coin, 0), f"{field}.coins.{coin}") for coin in COIN_IDS
        )
        if "score" in info:
            _int(info["score"], f"{field}.score", -(10**18), 10**18)

    def _rows(self, state: State) -> None:
        row = _typed(self.get("merchant_row", []), list, "merchant_row")
        if len(row) > MERCHANT_ROW:
            raise ValueError(
                f"merchant_row: {len(row)} cards, the rows hold at most {MERCHANT_ROW}"
            )
        for i, entry in enumerate(row):
            field = f"merchant_row[{i}]"
            if isinstance(entry, str):
                entry = {"card": entry}
            entry = _typed(entry, dict, field)
            if set(entry) - {"card", "cubes"} or "card" not in entry:
                raise ValueError(f"{field}: expected a card id or {{card, cubes}}")
            card = entry["card"]
            if not isinstance(card, str) or card not in CARD_INDEX:
                raise ValueError(f"{field}.card: unknown merchant card {_short(card)}")
            state._mrow.append(CARD_INDEX[card])
            state._mcubes.append(_cubes(entry.get("cubes", ""), f"{field}.cubes"))
        state._mdeck = _card_list(self.get("merchant_deck", []), "merchant_deck")
        state._prow = _point_list(self.get("point_row", []), "point_row")
        if len(state._prow) > POINT_ROW:
            raise ValueError(
                f"point_row: {len(state._prow)} cards, the rows hold at most {POINT_ROW}"
            )
        state._prow_mask = _mask(state._prow)
        state._pdeck = tuple(_point_list(self.get("point_deck", []), "point_deck"))

    def _turns(self, state: State, seats: list[dict[str, Any]]) -> None:
        """Turns per seat: seats before the one to move have had one turn more than the
        others; what is not given follows from what is (`turn`, `current_player`)."""
        players = self.players
        turn = self.get("turn", None)
        if turn is not None:
            turn = _int(turn, "turn")
        given_player = self.get("current_player", None)
        if given_player is not None:
            player = _int(given_player, "current_player", 0, players - 1)
        else:
            player = turn % players if turn is not None else 0
        given = {
            seat: _int(info["turns"], f"seats[{seat}].turns")
            for seat, info in enumerate(seats)
            if "turns" in info
        }
        if given:
            first = min(given)
            base = given[first] - (first < player)
        else:
            base = turn // players if turn is not None else 0
        turns = [base + (seat < player) for seat in range(players)]
        for seat, count in given.items():
            if count != turns[seat]:
                raise ValueError(
                    f"seats[{seat}].turns: {count}, but with seat {player} to move and seat "
                    f"{first} at {given[first]} turns it has taken {turns[seat]} (the seats "
                    "before the one to move have had one turn more)"
                )
        if base < 0:
            raise ValueError(f"seats[{first}].turns: seat {player} to move has taken a turn")
        if turn is not None and turn != sum(turns):
            raise ValueError(f"turn: {turn}, but the seats have taken {sum(turns)} turns")
        rounds = self.get("rounds", None)
        if rounds is not None and _int(rounds, "rounds") != min(turns):
            raise ValueError(f"rounds: {rounds}, but every seat has taken {min(turns)} turns")
        state.current_player = player
        state._turns = turns

    def _coins(self, state: State) -> None:
        supply = _typed(self.get("coins", {}), dict, "coins")
        for pile in supply:
            if pile not in COIN_IDS:
                raise ValueError(f"coins.{pile}: no such coin pile")
        held = [sum(coins[pile] for coins in state._coins) for pile in range(len(COINS))]
        counts = []
        for pile, coin in enumerate(COINS):
            info = _typed(supply.get(coin.id, {}), dict, f"coins.{coin.id}")
            if set(info) - {"count", "position"}:
                raise ValueError(f"coins.{coin.id}: expected count and position")
            left = coin.per_player * self.players - held[pile]
            if "count" in info:
                counts.append(_int(info["count"], f"coins.{coin.id}.count"))
            elif left < 0:
                raise ValueError(f"coins.{coin.id}: the seats hold more than the pile had")
            else:
                counts.append(left)
        positions = _coin_positions(counts)
        for pile, coin in enumerate(COINS):
            info = supply.get(coin.id, {})
            if "position" in info:
                at = _int(info["position"], f"coins.{coin.id}.position", 0, POINT_ROW)
                if COIN_RUNOUT == "shift" and (at == 0) != (counts[pile] == 0):
                    raise ValueError(
                        f"coins.{coin.id}.position: {at}, but a pile lies in the row (1 or "
                        "more) exactly while it has coins, when empty piles run out"
                    )
                positions[pile] = at
        lying = [at for at, count in zip(positions, counts, strict=True) if at and count]
        if len(set(lying)) != len(lying):
            raise ValueError("coins: two piles with coins lie at one position")
        state._coin_count = counts
        state._coin_position = positions

    def _phase(self, state: State) -> None:
        phase = self.get("phase", "action")
        if phase not in ("action", "discard"):
            raise ValueError(f"phase: {_short(phase)} is not 'action' or 'discard'")
        state._discarding = phase == "discard"
        for seat, node in enumerate(state._caravans):
            pending = state._discarding and seat == state.current_player
            if pending != (node.size > CARAVAN_LIMIT):
                raise ValueError(
                    f"seats[{seat}].caravan: {node.text!r} ({node.size} cubes) does not fit "
                    f"the phase: over the limit of {CARAVAN_LIMIT} exactly while the seat to "
                    "move discards"
                )
            node.discard_moves()

    def _end(self, state: State) -> None:
        final = _typed(self.get("final_round", False), bool, "final_round")
        reached = [s for s, points in enumerate(state._points) if len(points) >= state._threshold]
        if reached and not final and "final_round" in self.data:
            raise ValueError(
                f"final_round: false, but seat {reached[0]} holds {len(state._points[reached[0]])} "
                f"point cards, the end threshold is {state._threshold}"
            )
        state._final = final or bool(reached)
        trigger = self.get("end_trigger", None)
        if trigger is not None:
            trigger = _int(trigger, "end_trigger", 0, self.players - 1)
            if not state._final:
                raise ValueError("end_trigger: the end is not triggered (final_round is false)")
        elif len(reached) == 1:
            trigger = reached[0]
        state._trigger = trigger
        turns = state._turns
        state._over = (
            state._final
            and not state._discarding
            and (not FINISH_ROUND or min(turns) == max(turns))
        )
        over = self.get("over", None)
        if over is not None and _typed(over, bool, "over") != state._over:
            raise ValueError(f"over: {over}, but the position says the game is {state._over}")

    def moves(self) -> list[str]:
        moves = _typed(self.data.get("moves", []), list, "moves")
        for i, move in enumerate(moves):
            _typed(move, str, f"moves[{i}]")
        return list(moves)

    def check_moves(self, state: State) -> None:
        """The moves, played from the seeded or given start, lead to `state`'s position."""
        if state._start is not None:
            origin = State.from_dict(state._start)
            origin._start = state._start
        elif state._seed is not None:
            origin = new_game(state.players, state._seed)
        else:
            raise ValueError("moves: a record replays from its seed or its start")
        for number, move in enumerate(state._history):
            try:
                origin.play(move)
            except IllegalMove as err:
                raise ValueError(f"moves[{number}]: {err}") from None
        if origin._position() != state._position():
            raise ValueError("moves: played from the start they do not give this position")


# -- what the players see ------------------------------------------------------------------


class Seats(NamedTuple):
    """What every seat holds (`View.seats`): each field a tuple in seat order."""

    caravans: tuple[Caravan, ...]
    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]
    point_cards: tuple[tuple[int, ...], ...]
    coins: tuple[tuple[int, ...], ...]
    turns: tuple[int, ...]


class View:
    """What every player can see of a position, read live from its state (nothing is copied
    or converted): for bots. Seats and slots are 0-based, merchant cards are indexes into
    `CARDS`, point cards indexes into `POINT_CARDS`, caravans interned `Caravan` nodes
    (``vector``, ``size``, ``text``; the same node for the same cubes, so they can key
    memo tables). The decks' order is hidden: the view gives their contents in card order,
    and `sample` deals a copy of the position with the unseen cards in a drawn order.

    Each legal move of the player to move comes with the caravan it leaves (before any
    discard it calls for), from the memo tables: `plays`, `acquires`, `claims` and `rest`
    (or `discards`, while a discard is pending) list them; `outcomes` pairs every move of
    `State.legal_moves` with its caravan.
    """

    __slots__ = ("_state",)

    def __init__(self, state: State) -> None:
        self._state = state

    # -- the position --------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._state.players

    @property
    def current_player(self) -> int:
        return self._state.current_player

    @property
    def discarding(self) -> bool:
        """Whether the player to move must discard down to the caravan limit."""
        return self._state._discarding

    @property
    def final_round(self) -> bool:
        """Whether the end is triggered (the round is being finished)."""
        return self._state._final

    @property
    def over(self) -> bool:
        return self._state._over

    @property
    def end_threshold(self) -> int:
        """Point cards that trigger the end with this many players."""
        return self._state._threshold

    def caravan(self, seat: int) -> Caravan:
        return self._state._caravans[self._seat(seat)]

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards in the hand, one entry per copy, in the order taken."""
        return self._state._hands[self._seat(seat)]

    def hand_kinds(self, seat: int) -> tuple[int, ...]:
        """The distinct cards in the hand (those that can be played), in card order."""
        return self._state._kinds[self._seat(seat)]

    def played(self, seat: int) -> tuple[int, ...]:
        """The cards played since the last rest, in the order played."""
        return self._state._played[self._seat(seat)]

    def point_cards(self, seat: int) -> tuple[int, ...]:
        return self._state._points[self._seat(seat)]

    def merchant_cards(self, seat: int) -> tuple[int, ...]:
        """The merchant cards acquired, in the order taken."""
        return self._state._acquired[self._seat(seat)]

    def coins(self, seat: int) -> tuple[int, ...]:
        """Coins held per pile (in `COINS` order)."""
        return self._state._coins[self._seat(seat)]

    def turns(self, seat: int) -> int:
        return self._state._turns[self._seat(seat)]

    def score(self, seat: int) -> int:
        return self._state._score(self._seat(seat))

    def _seat(self, seat: Any) -> int:
        return _index(seat, "seat", self._state.players)

    def rounds(self) -> int:
        return min(self._state._turns)

    @property
    def merchant_row(self) -> tuple[int, ...]:
        return tuple(self._state._mrow)

    @property
    def merchant_cubes(self) -> tuple[Caravan, ...]:
        """The cubes lying on each card of the merchant row."""
        return tuple(self._state._mcubes)

    @property
    def point_row(self) -> tuple[int, ...]:
        return tuple(self._state._prow)

    def coin_count(self, pile: int) -> int:
        """Coins left in a pile."""
        return self._state._coin_count[_index(pile, "pile", len(COINS))]

    def coin_pile(self, slot: int) -> int:
        """The pile a claim at point-row `slot` takes a coin from, or -1 for none."""
        return self._state._pile(_index(slot, "slot", POINT_ROW) + 1)

    def merchant_deck(self) -> tuple[int, ...]:
        """The unseen merchant cards (the deck) in card order: the order is hidden."""
        state = self._state
        return tuple(sorted(state._mdeck[state._mnext :]))

    def point_deck(self) -> tuple[int, ...]:
        """The unseen point cards (the deck) in card order: the order is hidden."""
        state = self._state
        return tuple(sorted(state._pdeck[state._pnext :]))

    # -- every seat and pile at once -----------------------------------------------------

    @property
    def seats(self) -> Seats:
        """What every seat holds, read in one call (the objects that `caravan`, `hand`,
        `played`, `point_cards`, `coins` and `turns` give one seat at a time), for readers
        of every seat after every move. A seat's holdings are replaced when they change,
        never changed in place, so the same object means the same holdings."""
        state = self._state
        return Seats(
            tuple(state._caravans),
            tuple(state._hands),
            tuple(state._played),
            tuple(state._points),
            tuple(state._coins),
            tuple(state._turns),
        )

    @property
    def coin_piles(self) -> tuple[tuple[int, int], ...]:
        """Per pile (in `COINS` order): the coins left and the pile's position in the
        point row (1-based; 0 once it has run out and left the row)."""
        state = self._state
        return tuple(zip(state._coin_count, state._coin_position, strict=True))

    @property
    def decks_left(self) -> tuple[int, int]:
        """How many cards the merchant deck and the point deck still hold."""
        state = self._state
        return len(state._mdeck) - state._mnext, len(state._pdeck) - state._pnext

    def sample(self, rng: random.Random) -> State:
        """A copy of the position whose decks hold the unseen cards in an order drawn with
        `rng` (from card order: the real order is not read), for search over what players
        cannot know. Its record does not replay: its decks are not the seed's."""
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {_kind(rng)}")
        copy = self._state.clone()
        merchant, points = list(self.merchant_deck()), list(self.point_deck())
        rng.shuffle(merchant)
        rng.shuffle(points)
        copy._mdeck, copy._mnext = tuple(merchant), 0
        copy._pdeck, copy._pnext = tuple(points), 0
        return copy

    # -- the legal moves and what they leave ---------------------------------------------

    def _node(self) -> Caravan | None:
        """The caravan of the player to move while an action is to be chosen, else None."""
        state = self._state
        if state._over or state._discarding:
            return None
        return state._caravans[state.current_player]

    def plays(self) -> list[tuple[str, int, Caravan]]:
        """Every legal play: (move, card, the caravan after it)."""
        node = self._node()
        if node is None:
            return []
        plays = node._plays or node.plays()
        return [
            (move, card, result)
            for card in self._state._kinds[self._state.current_player]
            for move, result in plays[card].items()
        ]

    def acquires(self) -> list[tuple[str, int, Caravan, Caravan]]:
        """The legal acquisitions, one per slot and multiset of cubes paid (other spellings
        leave the same caravan): (move, slot, the cubes paid, the caravan after it, with
        the cubes that lay on the card)."""
        node = self._node()
        if node is None:
            return []
        found = self._state._mcubes
        return [
            (move, slot, paid, rest.plus(found[slot]) if found[slot].size else rest)
            for move, slot, paid, rest in node.acquire_choices(len(found))
        ]

    def claims(self) -> list[tuple[str, int, Caravan]]:
        """Every legal claim: (move, slot, the caravan after paying)."""
        node = self._node()
        state = self._state
        if node is None or not node.affordable & state._prow_mask:
            return []
        paid = node.claims()
        return [
            (CLAIM_MOVES[slot], slot, paid[card])  # type: ignore[misc]
            for slot, card in enumerate(state._prow)
            if paid[card] is not None and not state._same_claim(slot)
        ]

    def rest(self) -> list[tuple[str, Caravan]]:
        """The rest move and its caravan (unchanged), or nothing while it is not legal."""
        node = self._node()
        return [] if node is None else [(REST, node)]

    def discards(self) -> list[tuple[str, Caravan]]:
        """While a discard is pending: every discard move and the caravan it leaves."""
        state = self._state
        if state._over or not state._discarding:
            return []
        node = state._caravans[state.current_player]
        return [(move, node.discard(move)) for move in node.discard_moves()]  # type: ignore[misc]

    def outcomes(self) -> list[tuple[str, Caravan]]:
        """Every move of `State.legal_moves`, in its order, with the caravan it leaves."""
        state = self._state
        if state._over or state._discarding:
            return self.discards()
        node = state._caravans[state.current_player]
        found = state._mcubes
        acquired = []
        for move in node.acquire_moves(len(found)):
            slot, _, paid = _ACQUIRE[move]
            rest = node.minus(paid)
            assert rest is not None  # a legal move: the caravan holds the cubes
            acquired.append((move, rest.plus(found[slot]) if found[slot].size else rest))
        plays = [(move, result) for move, _, result in self.plays()]
        claims = [(move, result) for move, _, result in self.claims()]
        return plays + acquired + claims + self.rest()


# -- games ---------------------------------------------------------------------------------


def new_game(players: Any, seed: Any = 0) -> State:
    """A new game: both decks shuffled with `seed` (a whole number), rows dealt, coin piles
    placed."""
    seed = whole_number(seed, "seed")
    state = State(players)
    rng = random.Random(seed)
    merchant = list(MERCHANT_DECK)
    rng.shuffle(merchant)
    points = list(POINT_DECK)
    rng.shuffle(points)
    state._mrow = merchant[:MERCHANT_ROW]
    state._mcubes = [EMPTY] * len(state._mrow)
    state._mdeck = tuple(merchant)
    state._mnext = len(state._mrow)
    state._prow = points[:POINT_ROW]
    state._prow_mask = _mask(state._prow)
    state._pdeck = tuple(points)
    state._pnext = len(state._prow)
    state._seed = seed
    return state


def replay(record: Any) -> State:
    """Play a game record back; raise ValueError naming the field for a record of another
    game or rules data, a record that is not one (tampered, truncated) or an illegal move."""
    if not isinstance(record, dict):
        raise ValueError(f"a record is a mapping, not {_kind(record)}")
    if record.get("rules") != GAME_ID:
        raise ValueError(f"rules: the record is for {_short(record.get('rules'))}, not {GAME_ID!r}")
    if record.get("source_hash") not in (None, SOURCE_HASH):
        raise ValueError(
            "source_hash: the record was made with other rules data (source hash differs)"
        )
    unknown = sorted(str(key) for key in record if key not in _RECORD_FIELDS)
    if unknown:
        raise ValueError(f"{unknown[0][:40]}: not a field of a record")
    moves = _typed(record.get("moves", []), list, "moves")
    for i, move in enumerate(moves):
        _typed(move, str, f"moves[{i}]")
    for i, seat in enumerate(_typed(record.get("seats", []), list, "seats")):
        _typed(seat, str, f"seats[{i}]")  # who played each seat (a bot's name), not replayed
    if record.get("start") is not None:
        try:
            state = State.from_dict(_typed(record["start"], dict, "start"))
        except ValueError as err:
            raise ValueError(f"start.{err}" if str(err)[:6] != "start:" else str(err)) from None
    else:
        players = _int(record.get("players"), "players", PLAYERS_MIN, PLAYERS_MAX)
        seed: Any = record.get("seed")
        if not _is_whole(seed):
            raise ValueError(f"seed: expected a whole number, not {_kind(seed)}")
        state = new_game(players, seed)
    for number, move in enumerate(moves, start=1):
        try:
            state.play(move)
        except IllegalMove as error:
            raise IllegalMove(f"move {number}: {error}") from None
    return state


_RECORD_FIELDS = frozenset({"rules", "source_hash", "players", "seed", "moves", "start", "seats"})
