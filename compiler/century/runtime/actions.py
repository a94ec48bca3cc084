# The action codec of every generated learning adapter. `century.shared.rl` copies this module
# after a header, with the block between the constants markers naming the game's engine
# module; here that block is empty, so this file is read as text, never imported.
"""Numbered actions for one Century game, shared by its learning adapters (PettingZoo,
Gymnasium, OpenSpiel). Standard library only; it imports the game's generated engine, which
lies beside it.

Action space
------------
Fixed for the game and derived from the engine's constants (so from the rules data): an
action's number is its index in ``ACTIONS``. In that order:

1. Plays, per merchant card in the engine's card order (starting cards first): every move
   that plays the card from some caravan of at most ``CARRY`` cubes (the most cubes a player
   holds when choosing an action: the caravan limit or the largest starting caravan), as the
   engine lists them (``engine.effect_moves``): for the
   bundled kinds ``play <card>`` for a gain card; ``play <card> x<k>`` for a trade card, k =
   1..``CARRY // cubes paid per trade``; ``play <card> <steps>`` for an upgrade card, one
   per multiset of 1..N step sources below the top rank (the engine's notation).
2. ``acquire <slot>`` per merchant-row slot.
3. ``claim <slot>`` per point-row slot.
4. ``rest``.
5. ``cube <code>`` per rank, lowest first.

Two kinds of move have no bound on their size, so the same player spells them with several
actions:

- acquire: ``acquire <slot>``, then one ``cube`` per card left of the slot, in row order:
  ``acquire 3 yr`` is ``acquire 3``, ``cube y``, ``cube r``; ``acquire 1`` is one action.
- discard (caravan over the limit): one ``cube`` per cube dropped, lowest rank first:
  ``discard yb`` is ``cube y``, ``cube b``.

Every legal engine move is exactly one sequence of actions, and every action that is legal
(masked in) leads to at least one legal move: the legal actions are read from the engine's
``legal_moves()``, never computed beside it.

API
---
- ``ACTIONS`` (names), ``INDEX`` (name -> number), ``NUM_ACTIONS``, ``BLOCKS`` (first and
  last number of each block above), ``CARRY``; ``engine``: the engine module.
- ``actions_of(move) -> list[int]``: the actions that spell an engine move.
- ``Turn(state.legal_moves())``: one decision in progress. ``legal()``: the legal actions,
  ascending; ``choose(action)``: takes one and returns the engine move once it is complete
  (None while more actions must follow; raises ``IllegalAction`` for an action that is not
  legal); ``prefix``: the move spelled so far. Make a new ``Turn`` after each move.
- ``observation(state, seat, turn) -> list[int]``: the public state from ``seat``'s side as
  a flat vector; ``observation_layout(players)``: its fields as ``(name, size)`` in order.
- ``Encoder(players, buffer)``: writes the observation into a buffer it keeps (a NumPy
  vector, say), read from ``state.view()``, rewriting only what changed since its last
  write: ``encoder.write(view, seat, turn.prefix)``. ``observation_order(players, seat)``:
  seat 0's observation turned into ``seat``'s, as indexes (one encoder serves every seat).
- ``public_state(state, turn) -> dict``: the same as JSON-ready data: ``to_dict()`` without
  what no player knows (the decks' order and the seed; the decks become counts), plus
  ``pending`` (the move spelled so far).
- ``rewards(state, mode)``: per seat; ``"win"``: ``players / winners - 1`` for each winner
  and -1 for the others (zero-sum; +1/-1 with two players); ``"score"``: the scores.
- ``draw(state, turn) -> str``: the position as text.

``python <this file>`` prints the numbered actions.

Observation (``observation_layout``): counts and flags, seats in turn order starting with
the observer: ``to_move`` (one-hot), ``phase`` (choosing an action / placing acquire cubes /
discarding), ``pending_slot`` (one-hot merchant slot being acquired), ``pending_cubes``
(per rank, chosen so far), ``pending_left`` (cubes still to choose), ``final_round``,
``rounds``, ``merchant_deck`` and ``point_deck`` (cards left); per merchant slot the card
(one-hot over the card table) and the cubes on it; per point slot ``present``, the cost per
rank, the points and the value of the coin a claim there takes; per coin pile the coins
left and its position (0 once gone); per seat the caravan per rank, the hand and the played
cards (counts per card), point cards taken, their points, coins per pile, turns and score.
"""

from __future__ import annotations

import importlib
from array import array
from collections.abc import Callable
from functools import partial
from operator import mul
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast


def _sibling(name: str) -> ModuleType:
    """A generated module beside this one: in the same package, or top level on sys.path."""
    return importlib.import_module(f"{__package__}.{name}" if __package__ else name)


# <rl constants>
ENGINE_MODULE = ""
# </rl constants>

if TYPE_CHECKING:  # the game's engine (in the package: its runtime)
    import century.runtime.engine as engine
else:
    engine = _sibling(ENGINE_MODULE)
CODES: str = engine.CODES
DISCARD = "discard "
CARRY = max([engine.CARAVAN_LIMIT, *(sum(seat) for seat in engine.SEATS)])


class IllegalAction(ValueError):
    """An action that is not legal in the current decision; the message says why."""


def action_number(action: Any) -> int:
    """`action` as an int: a whole number (NumPy's integers too); anything else (a float,
    which is never truncated, a boolean, text) raises TypeError naming it."""
    return engine.whole_number(action, "action")


# -- the action table ----------------------------------------------------------------------


def _plays(card: engine.Card) -> list[str]:
    """The play actions of one merchant card: every move its effect makes from some caravan
    of at most `CARRY` cubes (see the module doc)."""
    return engine.effect_moves(card.effect, CODES, "play " + card.id.lower(), CARRY)


def _table() -> tuple[tuple[str, ...], dict[str, tuple[int, int]]]:
    blocks = {
        "play": [name for card in engine.CARDS for name in _plays(card)],
        "acquire": [f"acquire {slot}" for slot in range(1, engine.MERCHANT_ROW + 1)],
        "claim": [f"claim {slot}" for slot in range(1, engine.POINT_ROW + 1)],
        "rest": ["rest"],
        "cube": [f"cube {code}" for code in CODES],
    }
    names: list[str] = []
    spans = {}
    for block, entries in blocks.items():
        spans[block] = (len(names), len(names) + len(entries) - 1)
        names += entries
    return tuple(names), spans


ACTIONS, BLOCKS = _table()
INDEX = {name: number for number, name in enumerate(ACTIONS)}
NUM_ACTIONS = len(ACTIONS)
_CUBE = {code: INDEX[f"cube {code}"] for code in CODES}


def _spelling(name: str) -> str:
    """What an action adds to the move being spelled: a cube its code; an acquire beyond slot
    1 waits for its cubes; any other action is a whole move."""
    if name.startswith("cube "):
        return name[len("cube ") :]
    if name.startswith("acquire ") and name != "acquire 1":
        return name + " "
    return name


_SPELLING = tuple(map(_spelling, ACTIONS))
_FIRST: dict[str, int] = {}  # engine move -> its first action (memoised)
_first_known: Callable[[str], int | None] = _FIRST.get


def actions_of(move: str) -> list[int]:
    """The actions that spell the engine move `move` (canonical spelling)."""
    number = INDEX.get(move)
    if number is not None:
        return [number]
    word, _, rest = move.partition(" ")
    if word == "acquire":
        slot, _, cubes = rest.partition(" ")
        head = INDEX.get(f"acquire {slot}")
        if head is not None and set(cubes) <= _CUBE.keys():
            return [head, *(_CUBE[code] for code in cubes)]
    elif word == "discard" and rest and set(rest) <= _CUBE.keys():
        return [_CUBE[code] for code in rest]
    raise LookupError(f"the move {move!r} has no action in this game's action space")


def first_action(move: str) -> int:
    """The first action of the engine move `move`."""
    number = _FIRST.get(move)
    if number is None:
        number = _FIRST[move] = actions_of(move)[0]
    return number


class Turn:
    """One decision of the player to move, spelled as actions (see the module doc)."""

    __slots__ = ("_legal", "candidates", "prefix")

    def __init__(self, moves: list[str]) -> None:
        self.candidates = moves  # the legal moves that start with `prefix`; never mutated
        self.prefix = DISCARD if moves and moves[0].startswith(DISCARD) else ""
        self._legal: list[int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Turn:
        copy = Turn.__new__(Turn)
        copy.candidates, copy.prefix, copy._legal = self.candidates, self.prefix, self._legal
        return copy

    def legal(self) -> list[int]:
        """The actions that can come next, ascending (empty once the game is over)."""
        if self._legal is None:
            at = len(self.prefix)
            if at:
                found = {_CUBE[move[at]] for move in self.candidates}
            else:
                known = set(map(_first_known, self.candidates))
                if None in known:  # moves not seen before
                    known = set(map(first_action, self.candidates))
                found = cast("set[int]", known)
            self._legal = sorted(found)
        return self._legal

    def choose(self, action: int) -> str | None:
        """Take `action`: the engine move once it is complete, else None."""
        if action not in self.legal():
            name = ACTIONS[action] if 0 <= action < NUM_ACTIONS else "no such action"
            where = f" after {self.prefix.strip()!r}" if self.prefix else ""
            raise IllegalAction(f"action {action} ({name}) is not legal{where}")
        spelled = self.prefix + _SPELLING[action]
        if not self.prefix and not spelled.endswith(" "):
            return spelled  # a move of one action
        self.candidates = [move for move in self.candidates if move.startswith(spelled)]
        self.prefix = spelled
        self._legal = None
        if len(self.candidates) == 1 and self.candidates[0] == spelled:
            return spelled
        return None


# -- what a player sees --------------------------------------------------------------------

_RANK = {code: rank for rank, code in enumerate(CODES)}


def _counts(cubes: str) -> list[int]:
    counts = [0] * len(CODES)
    for code in cubes:
        counts[_RANK[code]] += 1
    return counts


def _card_counts(cards: list[str]) -> list[int]:
    counts = [0] * len(engine.CARDS)
    for card in cards:
        counts[engine.CARD_INDEX[card]] += 1
    return counts


def observation_layout(players: int) -> list[tuple[str, int]]:
    """The fields of `observation`, in order, as ``(name, size)``."""
    ranks, cards, piles = len(CODES), len(engine.CARDS), len(engine.COINS)
    layout = [
        ("to_move", players),
        ("phase", 3),
        ("pending_slot", engine.MERCHANT_ROW),
        ("pending_cubes", ranks),
        ("pending_left", 1),
        ("final_round", 1),
        ("rounds", 1),
        ("merchant_deck", 1),
        ("point_deck", 1),
    ]
    for slot in range(1, engine.MERCHANT_ROW + 1):
        layout += [(f"merchant_{slot}_card", cards), (f"merchant_{slot}_cubes", ranks)]
    for slot in range(1, engine.POINT_ROW + 1):
        layout += [
            (f"point_{slot}_present", 1),
            (f"point_{slot}_cost", ranks),
            (f"point_{slot}_points", 1),
            (f"point_{slot}_coin", 1),
        ]
    for pile in range(1, piles + 1):
        layout += [(f"coin_{pile}_count", 1), (f"coin_{pile}_position", 1)]
    for seat in range(players):  # 0 is the observer, then the next in turn order
        layout += [
            (f"seat_{seat}_caravan", ranks),
            (f"seat_{seat}_hand", cards),
            (f"seat_{seat}_played", cards),
            (f"seat_{seat}_point_cards", 1),
            (f"seat_{seat}_points", 1),
            (f"seat_{seat}_coins", piles),
            (f"seat_{seat}_turns", 1),
            (f"seat_{seat}_score", 1),
        ]
    return layout


def observation_order(players: int, seat: int) -> list[int]:
    """Where each entry of `seat`'s observation lies in seat 0's: the observation from
    `seat`'s side is ``[seat_0[index] for index in observation_order(players, seat)]`` (the
    seats turned by `seat`: who moves, and the seat blocks)."""
    layout = observation_layout(players)
    starts, at = {}, 0
    for name, width in layout:
        starts[name] = at
        at += width
    order = list(range(at))
    for offset in range(players):  # the turned one-hot of who moves
        order[starts["to_move"] + offset] = starts["to_move"] + (seat + offset) % players
    width = starts["seat_1_caravan"] - starts["seat_0_caravan"] if players > 1 else 0
    first = starts["seat_0_caravan"]
    for block in range(players):
        source = first + (seat + block) % players * width
        order[first + block * width : first + (block + 1) * width] = range(source, source + width)
    return order


_ZERO_RANKS = (0,) * len(CODES)
_floats = partial(array, "f")
"""Values packed as an ``array("f")``: what an array or NumPy buffer takes fastest."""
_PACKED: dict[Any, tuple[dict[Any, Any], dict[Any, Any]]] = {tuple: ({}, {}), _floats: ({}, {})}
"""Per way of packing: the decision fields packed, by decision (`_decision`'s key), and the
caravans' vectors packed, by caravan (interned, so a bounded number of each)."""
_POINT_FIELDS = tuple((1, *card.cost, card.points) for card in engine.POINT_CARDS)
_NO_POINT_CARD = (0,) * (len(CODES) + 3)
_COIN_VALUES = tuple(coin.value for coin in engine.COINS)
_DECISIONS: dict[tuple[int, int, str, int], tuple[int, ...]] = {}


def _decision(players: int, to_move: int, prefix: str, caravan: int) -> tuple[int, ...]:
    """The observation's first fields: who moves (`to_move`: from the observer's side, -1
    once the game is over), the phase and the move spelled so far (`prefix`, with the size
    of the mover's `caravan` while it discards); memoised."""
    key = (players, to_move, prefix, caravan)
    found = _DECISIONS.get(key)
    if found is not None:
        return found
    seats = [0] * players
    if to_move >= 0:
        seats[to_move] = 1
    phase, slot, left, cubes = (1, 0, 0), [0] * engine.MERCHANT_ROW, 0, ""
    if prefix.startswith(DISCARD):
        phase, cubes = (0, 0, 1), prefix[len(DISCARD) :]
        left = caravan - engine.CARAVAN_LIMIT - len(cubes)
    elif prefix:
        _, number, cubes = prefix.split(" ", 2)
        phase = (0, 1, 0)
        slot[int(number) - 1] = 1
        left = int(number) - 1 - len(cubes)
    found = _DECISIONS[key] = (*seats, *phase, *slot, *_counts(cubes), left)
    return found


_NOTHING_HELD = (None, (), (), (), (0,) * len(engine.COINS), 0)
"""A seat's holdings (as `write` reads them) that a block of zeros shows."""


class _Block:
    """What an encoder last wrote into one seat block: the seat's holdings (caravan, hand,
    played cards, point cards, coins, turns), the counts per card and the score by part."""

    __slots__ = ("hand_counts", "held", "played_counts", "score")

    def __init__(self) -> None:
        self.held: tuple[Any, ...] = _NOTHING_HELD
        self.hand_counts = [0] * len(engine.CARDS)
        self.played_counts = [0] * len(engine.CARDS)
        self.score = (0, 0, 0)  # what the point cards, the coins and the cubes score


def _write_counts(
    buffer: Any, start: int, counts: list[int], old: tuple[int, ...], new: tuple[int, ...]
) -> None:
    """Bring the counts per card at `start` (`counts`, those of the cards `old`) to those of
    the cards `new`, writing only the entries that change. The engine's usual changes (cards
    added at the end, one copy taken out, all gone) are recognised and checked; anything
    else is counted anew."""
    kept = len(new)
    if kept >= len(old) and new[: len(old)] == old:
        changed = new[len(old) :]
        for card in changed:
            counts[card] += 1
    elif not kept:
        changed = old
        for card in changed:
            counts[card] = 0
    else:
        card = sum(old) - sum(new)
        index = old.index(card) if kept == len(old) - 1 and card in old else -1
        if index >= 0 and old[:index] + old[index + 1 :] == new:
            changed = (card,)
            counts[card] -= 1
        else:
            changed = (*old, *new)
            for card in old:
                counts[card] = 0
            for card in new:
                counts[card] += 1
    for card in set(changed):
        buffer[start + card] = counts[card]


class Encoder:
    """Writes ``observation`` into a buffer that it keeps: a list, an ``array("f")`` (the
    fastest to write: what the environments use, read by NumPy without a copy), or a NumPy
    vector (or a row of a batch) of ``observation_layout``'s size, that only the encoder
    writes. Runs of values go into an array or NumPy buffer as arrays of floats, made once
    per decision and per caravan (``_pack``); a list gets them as tuples of ints.

    It reads the engine's ``View`` and rewrites only the fields whose source changed since
    its last write, whatever game, position or seat that write was for: what a seat holds
    is compared by identity first (the engine replaces it, never changes it in place), the
    rows and counts by value. An environment keeps one encoder writing seat 0's side and
    turns it for the other seats (``observation_order``), so a step writes what the move
    since the last step changed, once.
    """

    __slots__ = (
        "_blocks",
        "_cubes",
        "_decision",
        "_decisions",
        "_merchant",
        "_pack",
        "_piles",
        "_piles_start",
        "_point_row",
        "_point_slots",
        "_points",
        "_row",
        "_row_cards",
        "_row_cubes",
        "_seat_starts",
        "_shared",
        "_shared_start",
        "_turned",
        "_vectors",
        "buffer",
        "players",
    )

    def __init__(self, players: int, buffer: Any = None) -> None:
        layout = observation_layout(players)
        size = sum(width for _, width in layout)
        if buffer is None:
            buffer = [0] * size
        elif len(buffer) != size:
            raise ValueError(f"the buffer holds {len(buffer)} values, not {size}")
        self.buffer = buffer
        self.players = players
        self._pack: Callable[[Any], Any] = _floats
        if isinstance(buffer, list):
            self._pack = tuple
        self._decisions, self._vectors = _PACKED[self._pack]  # shared by every encoder
        start = {}
        at = 0
        for name, width in layout:
            start[name] = at
            at += width
        slots = range(1, engine.MERCHANT_ROW + 1)
        self._merchant = [
            (start[f"merchant_{n}_card"], start[f"merchant_{n}_cubes"]) for n in slots
        ]
        self._points = [start[f"point_{n}_present"] for n in range(1, engine.POINT_ROW + 1)]
        self._shared_start = start["final_round"]
        self._piles_start = start.get("coin_1_count", 0)
        self._seat_starts = [start[f"seat_{block}_caravan"] for block in range(players)]
        self._turned = [
            [(seat + block) % players for block in range(players)] for seat in range(players)
        ]
        self.clear()

    def clear(self) -> None:
        """Zero the buffer (as before the first write)."""
        if hasattr(self.buffer, "fill"):  # a NumPy array
            self.buffer.fill(0)
        elif isinstance(self.buffer, list):
            self.buffer[:] = [0] * len(self.buffer)
        else:  # an array("f")
            self.buffer[:] = _floats(bytes(self.buffer.itemsize * len(self.buffer)))
        self._decision: tuple[int, int, str, int] | None = None
        self._shared: tuple[Any, ...] = (False, 0, 0, 0)
        self._row: list[int] = []
        self._cubes: list[engine.Caravan] = []
        self._row_cards: list[int | None] = [None] * engine.MERCHANT_ROW
        self._row_cubes: list[engine.Caravan | None] = [None] * engine.MERCHANT_ROW
        self._point_row: list[int] = []
        self._point_slots = [_NO_POINT_CARD] * engine.POINT_ROW
        self._piles: tuple[list[int], list[int]] = (
            [0] * len(_COIN_VALUES),
            [0] * len(_COIN_VALUES),
        )
        self._blocks = [_Block() for _ in range(self.players)]

    def write(self, view: engine.View, seat: int, prefix: str = "") -> None:
        """Bring the buffer to the observation of `view`'s position from `seat`'s side,
        with `prefix` (``Turn.prefix``) the move spelled so far."""
        state = view._state  # read in place: the view's tuples would be built on every call
        players = self.players
        if state.players != players:
            raise ValueError(f"an encoder for {players} players, not {state.players}")
        buffer = self.buffer
        current = state.current_player
        to_move = -1 if state._over else (current - seat) % players
        caravan = state._caravans[current].size if prefix.startswith(DISCARD) else 0
        key = (players, to_move, prefix, caravan)
        if key != self._decision:
            values = self._decisions.get(key)
            if values is None:
                values = self._decisions[key] = self._pack(_decision(*key))
            buffer[: len(values)] = values
            self._decision = key
        shared = (
            state._final,
            min(state._turns),
            len(state._mdeck) - state._mnext,
            len(state._pdeck) - state._pnext,
        )
        if shared != self._shared:
            at = self._shared_start  # four values: written one by one, nothing packed
            buffer[at], buffer[at + 1], buffer[at + 2], buffer[at + 3] = shared
            self._shared = shared
        row, cubes = state._mrow, state._mcubes  # lists the engine changes in place
        if row != self._row or cubes != self._cubes:
            self._write_merchants(row[:], cubes[:])
        counts, positions, point_row = state._coin_count, state._coin_position, state._prow
        if counts != self._piles[0] or positions != self._piles[1] or point_row != self._point_row:
            self._write_points(point_row[:], (counts[:], positions[:]))
        caravans, hands, played = state._caravans, state._hands, state._played
        points, coins, turns = state._points, state._coins, state._turns
        turned = self._turned[seat % players]  # the seats in turn order from `seat`'s
        for written, start, at in zip(self._blocks, self._seat_starts, turned, strict=True):
            held = written.held
            if (
                caravans[at] is not held[0]
                or hands[at] is not held[1]
                or played[at] is not held[2]
                or points[at] is not held[3]
                or coins[at] is not held[4]
                or turns[at] != held[5]
            ):
                now = (caravans[at], hands[at], played[at], points[at], coins[at], turns[at])
                self._write_seat(now, written, start)

    def _vector(self, node: engine.Caravan | None) -> Any:
        """The cubes of a caravan per rank, packed for the buffer (memoised: caravans are
        interned; None, no caravan, is all zeros)."""
        found = self._vectors.get(node)
        if found is None:
            found = self._vectors[node] = self._pack(_ZERO_RANKS if node is None else node.vector)
        return found

    def _write_merchants(self, row: list[int], cubes: list[engine.Caravan]) -> None:
        buffer, ranks = self.buffer, len(CODES)
        for slot, (start, cube_start) in enumerate(self._merchant):
            card, node = (row[slot], cubes[slot]) if slot < len(row) else (None, None)
            before = self._row_cards[slot]
            if card != before:
                if before is not None:
                    buffer[start + before] = 0
                if card is not None:
                    buffer[start + card] = 1
                self._row_cards[slot] = card
            if node is not self._row_cubes[slot]:
                buffer[cube_start : cube_start + ranks] = self._vector(node)
                self._row_cubes[slot] = node
        self._row, self._cubes = row, cubes

    def _write_points(self, row: list[int], piles: tuple[list[int], list[int]]) -> None:
        """The point row's slots and the coin piles (`piles`: the coins left per pile and
        the piles' positions)."""
        buffer, width = self.buffer, len(_NO_POINT_CARD)
        counts, positions = piles
        coin_at: dict[int, int] = {}
        for value, count, position in zip(_COIN_VALUES, counts, positions, strict=True):
            if count > 0 and position:
                coin_at.setdefault(position, value)
        for slot, start in enumerate(self._points):
            if slot < len(row):
                values = (*_POINT_FIELDS[row[slot]], coin_at.get(slot + 1, 0))
            else:
                values = _NO_POINT_CARD
            if values != self._point_slots[slot]:
                buffer[start : start + width] = self._pack(values)
                self._point_slots[slot] = values
        if piles != self._piles:
            start = self._piles_start
            buffer[start : start + 2 * len(counts)] = self._pack(
                [n for pile in zip(counts, positions, strict=True) for n in pile]
            )
        self._point_row, self._piles = row, piles

    def _write_seat(self, held: tuple[Any, ...], written: _Block, start: int) -> None:
        """Write the fields of one seat block whose holdings differ from `written`'s."""
        buffer, ranks, cards = self.buffer, len(CODES), len(engine.CARDS)
        node, hand, played, points, coins, turns = held
        before = written.held
        cards_score, coins_score, _ = written.score
        if node is not before[0]:
            buffer[start : start + ranks] = self._vector(node)
        start += ranks
        if hand is not before[1]:
            _write_counts(buffer, start, written.hand_counts, before[1], hand)
        start += cards
        if played is not before[2]:
            _write_counts(buffer, start, written.played_counts, before[2], played)
        start += cards
        if points is not before[3]:
            cards_score = sum(map(engine.POINT_VALUES.__getitem__, points))
            buffer[start], buffer[start + 1] = len(points), cards_score
        start += 2
        if coins is not before[4]:
            for at, count in enumerate(coins, start):
                buffer[at] = count
            coins_score = sum(map(mul, coins, _COIN_VALUES))
        start += len(coins)
        if turns != before[5]:
            buffer[start] = turns
        score = (cards_score, coins_score, node.points)  # the engine's score, by part
        if score != written.score:
            buffer[start + 1] = sum(score)
            written.score = score
        written.held = held


def observation(state: engine.State, seat: int, turn: Turn | None = None) -> list[int]:
    """The public state from `seat`'s side as a flat vector (see `observation_layout`)."""
    encoder = Encoder(state.players)
    encoder.write(state.view(), seat, turn.prefix if turn else "")
    return list(encoder.buffer)


def public_state(state: engine.State, turn: Turn | None = None) -> dict[str, Any]:
    """``state.to_dict()`` without hidden information, plus the move spelled so far."""
    data = state.to_dict(moves=False)
    data["merchant_deck"] = len(data["merchant_deck"])
    data["point_deck"] = len(data["point_deck"])
    data.pop("seed", None)
    data.pop("start", None)
    data["pending"] = turn.prefix.strip() if turn else ""
    return data


def rewards(state: engine.State, mode: str = "win") -> list[float]:
    """Per seat: ``"win"`` (zero-sum, see the module doc) or ``"score"``."""
    if mode == "score":
        return [float(score) for score in state.scores()]
    if mode != "win":
        raise ValueError(f"unknown reward mode {mode!r} (win or score)")
    winners = state.winners()
    share = state.players / len(winners) - 1
    return [share if seat in winners else -1.0 for seat in range(state.players)]


def draw(state: engine.State, turn: Turn | None = None) -> str:
    """The position as text (``str(state)``: rows, coins, and every seat), with the move
    spelled so far."""
    text = str(state)
    if turn is not None and turn.prefix and not state.is_over():
        status, _, rest = text.partition("\n")
        text = f"{status} ({turn.prefix.strip()} ...)\n{rest}"
    return text


if __name__ == "__main__":
    for block, (first, last) in BLOCKS.items():
        print(f"{block}: {first}..{last}")
    for number, name in enumerate(ACTIONS):
        print(f"{number:5d}  {name}")
