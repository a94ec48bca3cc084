# The OpenSpiel adapter of every generated game. `century.targets.openspiel` copies this module
# after a header, with the block between the constants markers naming the game's action
# module; here that block is empty, so this file is read as text, never imported.
"""An OpenSpiel game for one Century game, on its generated engine.

Needs ``open_spiel`` (``pyspiel``, part of the ``rl`` extra of the Century rules compiler);
the game's engine and action module lie beside this one. Importing this module registers the
game with ``pyspiel`` under the game's id: ``pyspiel.load_game("<id>")``, or with parameters
``pyspiel.load_game("<id>(players=3)")``.

- Parameters: ``players`` (default: the fewest the game allows) and ``max_rounds`` (default
  ``MAX_ROUNDS``). OpenSpiel needs a bound on a game's length and the rules have none (a
  player may rest forever), so a game that completes ``max_rounds`` rounds ends there, won
  by the leader (``winners()`` of the position).
- Chance is explicit and stands for the decks' order: the rows are dealt one card per
  chance node (the merchant row, then the point row), and a move that takes a card from a
  row whose deck is not empty is followed by a chance node that draws its replacement (the
  engine's decks hold the cards left in card-table order; the drawn card is put on top).
  Outcomes: merchant card ``i`` of the engine's ``CARDS`` is action ``i``, point card ``j``
  is ``len(CARDS) + j``, each with probability copies left / cards left in its deck; any
  other chance action raises ``ValueError`` and changes nothing. As no one knows a deck's
  order and everything else is public, the game has perfect information.
- Player actions: the action module's (``actions.ACTIONS``): an acquire and a discard take
  several actions of the same player (see there).
- Returns: at the end only, zero-sum: each winner ``players / winners - 1``, the others -1.
- Observation tensor: ``actions.observation`` from the player's side, one named view per
  field of ``actions.observation_layout``; observation string: the position as text;
  information state string: the history.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame


def _sibling(name: str) -> ModuleType:
    """A generated module beside this one: in the same package, or top level on sys.path."""
    return importlib.import_module(f"{__package__}.{name}" if __package__ else name)


# <rl constants>
ACTIONS_MODULE = ""
# </rl constants>

if TYPE_CHECKING:  # the game's modules (in the package: the runtimes they are made from)
    import century.runtime.engine as engine
    import century.runtime.actions as actions
else:
    actions = _sibling(ACTIONS_MODULE)
    engine = actions.engine
MAX_ROUNDS = 1000
"""The default of the ``max_rounds`` parameter."""
MERCHANT_CARDS = len(engine.CARDS)
DECK = tuple(card.deck for card in engine.CARDS)
POINT_DECK = tuple(card.copies for card in engine.POINT_CARDS)

GAME_TYPE = pyspiel.GameType(
    short_name=engine.GAME_ID,
    long_name=f"{engine.GAME_ID} (Century rules compiler)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=engine.PLAYERS_MAX,
    min_num_players=engine.PLAYERS_MIN,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": engine.PLAYERS_MIN, "max_rounds": MAX_ROUNDS},
)


@cache
def _most_gained() -> int:
    """The most cubes one action can add to the game: over every play of every card from a
    caravan of at most ``actions.CARRY`` cubes, what the play adds (the engine's ways to
    play the card: a way adds the same cubes whatever the caravan holds)."""
    most = 0
    for card in engine.CARDS:
        for way in engine.effect_ways(card.effect, engine.CODES, actions.CARRY):
            most = max(most, sum(way.delta))
    return most


def game_info(players: int, max_rounds: int) -> pyspiel.GameInfo:
    """Sizes and bounds. A turn takes at most one action per merchant slot (an acquire of
    the last slot); discards take one action per cube, and no more cubes can be discarded
    than the starting caravans and every action's gains brought into the game."""
    turns = max_rounds * players
    start = sum(sum(engine.SEATS[seat]) for seat in range(players))
    return pyspiel.GameInfo(
        num_distinct_actions=actions.NUM_ACTIONS,
        max_chance_outcomes=MERCHANT_CARDS + len(POINT_DECK),
        num_players=players,
        min_utility=-1.0,
        max_utility=float(players - 1),
        utility_sum=0.0,
        max_game_length=turns * max(1, engine.MERCHANT_ROW) + start + turns * _most_gained(),
    )


class CenturyGame(pyspiel.Game):
    """The game (see the module doc)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"players": engine.PLAYERS_MIN, "max_rounds": MAX_ROUNDS, **(params or {})}
        players, self.max_rounds = int(params["players"]), int(params["max_rounds"])
        engine.State(players)  # raises ValueError outside the game's player counts
        if self.max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {self.max_rounds}")
        super().__init__(GAME_TYPE, game_info(players, self.max_rounds), params)

    def new_initial_state(self) -> CenturyState:
        return CenturyState(self)

    def max_chance_nodes_in_history(self) -> int:
        return sum(DECK) + sum(POINT_DECK)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return Observer(self.num_players(), params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Engine:
    """The engine state inside an OpenSpiel state: a deep copy is an engine clone."""

    __slots__ = ("state", "view")

    def __init__(self, state: engine.State) -> None:
        self.state = state
        self.view = state.view()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self.state.to_dict(moves=False),)


def _restore(data: dict[str, Any]) -> _Engine:
    return _Engine(engine.State.from_dict(data))


class CenturyState(pyspiel.State):
    """A position: the dealing of the rows, then the engine's game (see the module doc)."""

    def __init__(self, game: CenturyGame) -> None:
        super().__init__(game)
        self._players = game.num_players()
        self._max_rounds = game.max_rounds
        self._deck = DECK  # copies left to draw, per card
        self._point_deck = POINT_DECK
        self._rows: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # dealt so far
        self._game: _Engine | None = None  # once the rows are dealt
        self._turn = actions.Turn([])  # the player's decision, once the rows are dealt
        self._pending = ""  # a move waiting for the card it draws
        self._capped = False
        self._start_if_dealt()

    # -- OpenSpiel's API -----------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._game is None or self._pending:
            return pyspiel.PlayerId.CHANCE
        return self._game.state.current_player

    def is_terminal(self) -> bool:
        return self._game is not None and (self._capped or self._game.state.is_over())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        merchant = self._draws_merchant_card()
        left = self._deck if merchant else self._point_deck
        offset = 0 if merchant else MERCHANT_CARDS
        total = sum(left)
        return [(offset + card, n / total) for card, n in enumerate(left) if n]

    def _legal_actions(self, player: int) -> list[int]:
        return self._turn.legal()

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._draw(action)
            return
        move = self._turn.choose(action)
        if move is None:
            return
        word = move.split(" ", 1)[0]
        if (word == "acquire" and any(self._deck)) or (word == "claim" and any(self._point_deck)):
            self._pending = move  # the chance node draws the replacement first
        else:
            self._play(self._game.state, move)  # type: ignore[union-attr]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action < MERCHANT_CARDS:
                return "draw " + engine.CARDS[action].id
            return "draw " + engine.POINT_CARDS[action - MERCHANT_CARDS].id
        return actions.ACTIONS[action]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._players
        return actions.rewards(self._game.state, "win")  # type: ignore[union-attr]

    def __str__(self) -> str:
        if self._game is None:
            merchants, points = self._rows
            return f"dealing: merchant row {' '.join(merchants)}; point row {' '.join(points)}"
        text = actions.draw(self._game.state, self._turn)
        if self._capped:
            text += f"\nended after {self._max_rounds} rounds (max_rounds)"
        return text + (f"\ndrawing a card for: {self._pending}" if self._pending else "")

    # -- chance and moves ----------------------------------------------------------------

    def _draws_merchant_card(self) -> bool:
        if self._game is None:
            return len(self._rows[0]) < min(engine.MERCHANT_ROW, sum(DECK))
        return self._pending.startswith("acquire ")

    def _draw(self, action: int) -> None:
        if action not in {outcome for outcome, _ in self.chance_outcomes()}:
            raise ValueError(f"chance action {action} is not an outcome of this chance node")
        if action < MERCHANT_CARDS:
            card, key = engine.CARDS[action].id, "merchant_deck"
            self._deck = _take(self._deck, action)
        else:
            card, key = engine.POINT_CARDS[action - MERCHANT_CARDS].id, "point_deck"
            self._point_deck = _take(self._point_deck, action - MERCHANT_CARDS)
        if self._game is None:
            self._deal(card, key)
            return
        data = self._game.state.to_dict(moves=False)
        deck = data[key]
        deck.remove(card)
        data[key] = [card, *deck]  # on top of the deck: the move draws it
        move, self._pending = self._pending, ""
        self._play(engine.State.from_dict(data), move)

    def _deal(self, card: str, deck: str) -> None:
        merchants, points = self._rows
        if deck == "merchant_deck":
            merchants += (card,)
        else:
            points += (card,)
        self._rows = merchants, points
        self._start_if_dealt()

    def _start_if_dealt(self) -> None:
        """Start the engine's game once both rows are dealt (from full decks)."""
        merchants, points = self._rows
        if len(merchants) == min(engine.MERCHANT_ROW, sum(DECK)) and len(points) == min(
            engine.POINT_ROW, sum(POINT_DECK)
        ):
            data = {
                "players": self._players,
                "merchant_row": list(merchants),
                "point_row": list(points),
                "merchant_deck": _cards([card.id for card in engine.CARDS], self._deck),
                "point_deck": _cards([card.id for card in engine.POINT_CARDS], self._point_deck),
            }
            self._game = _Engine(engine.State.from_dict(data))
            self._turn = actions.Turn(self._game.state.legal_moves())

    def _play(self, state: engine.State, move: str) -> None:
        state.play(move)
        self._game = _Engine(state)
        self._turn = actions.Turn(state.legal_moves())
        if not state.is_over() and state.rounds() >= self._max_rounds:
            self._capped = True

    # -- for tests and tools -------------------------------------------------------------

    def engine_state(self) -> engine.State | None:
        """The engine's state once the rows are dealt (None before)."""
        return None if self._game is None else self._game.state

    def engine_view(self) -> engine.View:
        """The engine's view of its state (once the rows are dealt)."""
        if self._game is None:
            raise RuntimeError("the rows are not dealt yet")
        return self._game.view


def _cards(ids: list[str], left: tuple[int, ...]) -> list[str]:
    """The cards left in a deck, in table order (the order no one knows is drawn by chance)."""
    return [card for card, n in zip(ids, left, strict=True) for _ in range(n)]


def _take(left: tuple[int, ...], card: int) -> tuple[int, ...]:
    if left[card] <= 0:
        raise ValueError("no copy of that card is left to draw")
    return (*left[:card], left[card] - 1, *left[card + 1 :])


class Observer:
    """The observation tensor and string (OpenSpiel's Python observer protocol): the tensor
    is seat 0's observation, kept by an ``actions.Encoder`` that rewrites what changed since
    its last state, in the player's seat order."""

    def __init__(self, players: int, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        layout = actions.observation_layout(players)
        self.tensor = np.zeros(sum(size for _, size in layout), np.float32)
        self._encoder = actions.Encoder(players, np.zeros_like(self.tensor))  # seat 0's
        self._orders = [np.array(actions.observation_order(players, s)) for s in range(players)]
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, size in layout:
            self.dict[name] = self.tensor[start : start + size]
            start += size

    def set_from(self, state: CenturyState, player: int) -> None:
        if state.engine_state() is None:  # the rows are being dealt
            self.tensor.fill(0)
            return
        self._encoder.write(state.engine_view(), 0, state._turn.prefix)
        np.take(self._encoder.buffer, self._orders[player], out=self.tensor)

    def string_from(self, state: CenturyState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, CenturyGame)
