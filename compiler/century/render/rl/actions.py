# The action codec of every generated learning adapter. `century.render.rl` copies this module
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
   rules of its kind in the engine list them (``engine.KIND_RULES[kind].moves``): for the
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
  It is ``decision_part`` + ``position_parts``' shared part + its seat blocks from ``seat``
  on, for callers that keep the parts of a position between the actions of one move.
- ``public_state(state, turn) -> dict``: the same as JSON-ready data: ``to_dict()`` without
  what no player knows (the decks' order and the seed; the decks become counts), plus
  ``pending`` (the move spelled so far).
- ``rewards(state, mode)``: per seat; ``"win"``: ``players / winners - 1`` for each winner
  and -1 for the others (zero-sum; +1/-1 with two players); ``"score"``: the scores.
- ``render(state, turn) -> str``: the position as text.

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
from types import ModuleType
from typing import TYPE_CHECKING, Any


def _sibling(name: str) -> ModuleType:
    """A generated module beside this one: in the same package, or top level on sys.path."""
    return importlib.import_module(f"{__package__}.{name}" if __package__ else name)


# <rl constants>
ENGINE_MODULE = ""
# </rl constants>

if TYPE_CHECKING:  # the game's engine (in the package: its runtime)
    import century.engine.runtime as engine
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
    """The play actions of one merchant card: the moves of its kind's rules (see the module
    doc)."""
    return engine.KIND_RULES[card.kind].moves(card, "play " + card.id.lower(), CARRY)


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
                known = [_FIRST.get(move) for move in self.candidates]
                if None in known:  # moves not seen before
                    found = {first_action(move) for move in self.candidates}
                else:
                    found = {action for action in known if action is not None}
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


def decision_part(data: dict[str, Any], seat: int, prefix: str = "") -> list[int]:
    """The observation's first fields: who moves, the phase and the move being spelled
    (`data`: ``to_dict()``; `prefix`: ``Turn.prefix``)."""
    players = data["players"]
    to_move = [0] * players
    if not data["over"]:
        to_move[(data["current_player"] - seat) % players] = 1
    phase, slot, left, cubes = [1, 0, 0], [0] * engine.MERCHANT_ROW, 0, ""
    if prefix.startswith(DISCARD):
        phase, cubes = [0, 0, 1], prefix[len(DISCARD) :]
        caravan = data["seats"][data["current_player"]]["caravan"]
        left = len(caravan) - engine.CARAVAN_LIMIT - len(cubes)
    elif prefix:
        _, number, cubes = prefix.split(" ", 2)
        phase = [0, 1, 0]
        slot[int(number) - 1] = 1
        left = int(number) - 1 - len(cubes)
    return [*to_move, *phase, *slot, *_counts(cubes), left]


def position_parts(data: dict[str, Any]) -> tuple[list[int], list[list[int]]]:
    """The observation's other fields, which depend on the position only: the shared ones
    (round, decks, rows, coins) and one block per seat, in seat order (`data`: ``to_dict()``)."""
    out = [int(data["final_round"]), data["rounds"]]
    out += [len(data["merchant_deck"]), len(data["point_deck"])]
    row = data["merchant_row"]
    for entry in row:
        out += _card_counts([entry["card"]])
        out += _counts(entry["cubes"])
    out += [0] * ((len(engine.CARDS) + len(CODES)) * (engine.MERCHANT_ROW - len(row)))
    coin_at: dict[int, int] = {}
    for coin in engine.COINS:
        pile = data["coins"][coin.id]
        if pile["count"] > 0 and pile["position"]:
            coin_at.setdefault(pile["position"], coin.value)
    for number, card in enumerate(data["point_row"], 1):
        spec = engine.POINT_CARDS[engine.POINT_INDEX[card]]
        out += [1, *spec.cost, spec.points, coin_at.get(number, 0)]
    out += [0] * ((len(CODES) + 3) * (engine.POINT_ROW - len(data["point_row"])))
    for coin in engine.COINS:
        pile = data["coins"][coin.id]
        out += [pile["count"], pile["position"]]
    seats = []
    for info in data["seats"]:
        points = [engine.POINT_VALUES[engine.POINT_INDEX[card]] for card in info["point_cards"]]
        seats.append(
            [
                *_counts(info["caravan"]),
                *_card_counts(info["hand"]),
                *_card_counts(info["played"]),
                len(points),
                sum(points),
                *(info["coins"][coin.id] for coin in engine.COINS),
                info["turns"],
                info["score"],
            ]
        )
    return out, seats


def observation(state: engine.State, seat: int, turn: Turn | None = None) -> list[int]:
    """The public state from `seat`'s side as a flat vector (see `observation_layout`)."""
    data = state.to_dict(moves=False)
    shared, seats = position_parts(data)
    out = decision_part(data, seat, turn.prefix if turn else "") + shared
    for offset in range(len(seats)):
        out += seats[(seat + offset) % len(seats)]
    return out


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


def render(state: engine.State, turn: Turn | None = None) -> str:
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
