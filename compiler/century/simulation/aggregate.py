"""The statistics of a simulation, folded game by game in game order (`Aggregate`)."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from century.model.ruleset import Ruleset
from century.simulation.config import SimConfig
from century.simulation.game import GameResult
from century.simulation.stats import MOMENTS, game_moments


@dataclass
class CardTally:
    """How often a card was taken, and how the players who took it fared."""

    taken: int = 0
    by_winner: int = 0
    takers: int = 0
    takers_won: int = 0
    passers: int = 0  # players who had it on offer at a turn and never took it
    passers_won: int = 0
    offers: list[int] = field(default_factory=list)  # turns on offer, by market slot
    taken_at: list[int] = field(default_factory=list)  # takes, by market slot
    turns_to_pay: int = 0  # point cards: the takers' turns since their previous claim
    moments: list[int] = field(default_factory=lambda: [0] * len(MOMENTS))
    """Per-game sums of takers, leavers and their wins (`century.simulation.stats.MOMENTS`)."""


def _add_by_slot(into: list[int], counts: list[int]) -> None:
    into.extend([0] * (len(counts) - len(into)))
    for slot, n in enumerate(counts):
        into[slot] += n


@dataclass
class Aggregate:
    """Streaming statistics over games fed in game order (memory independent of games)."""

    ruleset: Ruleset
    config: SimConfig
    games: int = 0
    wins: Counter[Any] = field(default_factory=Counter)
    bot_seats: Counter[Any] = field(default_factory=Counter)  # seats each bot spec played
    bot_wins: Counter[Any] = field(default_factory=Counter)
    score_sum: Counter[Any] = field(default_factory=Counter)
    score_sq: Counter[Any] = field(default_factory=Counter)
    score_hist: list[Counter[int]] = field(default_factory=list)
    winner_scores: Counter[Any] = field(default_factory=Counter)
    margins: Counter[Any] = field(default_factory=Counter)
    rounds: Counter[Any] = field(default_factory=Counter)
    points: dict[str, CardTally] = field(default_factory=dict)
    merchants: dict[str, CardTally] = field(default_factory=dict)
    coins_taken: Counter[Any] = field(default_factory=Counter)
    coins_by_winner: Counter[Any] = field(default_factory=Counter)
    coins_emptied: Counter[Any] = field(default_factory=Counter)
    lead_changes: Counter[Any] = field(default_factory=Counter)  # lead changes -> games
    led: Counter[Any] = field(default_factory=Counter)  # round -> games with one leader then
    led_won: Counter[Any] = field(default_factory=Counter)  # round -> of them, the leader won
    digest: Any = field(default_factory=hashlib.sha256)

    def __post_init__(self) -> None:
        self.score_hist = [Counter() for _ in range(self.config.players)]
        self.points = {c.id: CardTally() for c in self.ruleset.point_deck}
        self.merchants = {
            c.id: CardTally() for c in (*self.ruleset.starting_cards, *self.ruleset.merchant_deck)
        }

    def add(self, result: GameResult) -> None:
        """Fold one game into the totals."""
        self.games += 1
        self.digest.update(repr(sorted(result.items())).encode())
        scores, winner = result["scores"], result["winner"]
        self.wins[winner] += 1
        self.bot_seats.update(result["bots"])
        self.bot_wins[result["bots"][winner]] += 1
        for seat, score in enumerate(scores):
            self.score_sum[seat] += score
            self.score_sq[seat] += score * score
            self.score_hist[seat][score] += 1
        ranked = sorted(scores, reverse=True)
        self.winner_scores[scores[winner]] += 1
        self.margins[scores[winner] - (ranked[1] if len(ranked) > 1 else 0)] += 1
        self.rounds[result["rounds"]] += 1
        _tally(self.points, result["point_cards"], winner)
        _tally(self.merchants, result["merchant_cards"], winner)
        in_game: dict[str, list[int]] = {}  # card -> takers, who won, leavers, who won
        for seat, cards in enumerate(result["merchant_cards"]):
            for card in set(cards):
                counts = in_game.setdefault(card, [0, 0, 0, 0])
                counts[0] += 1
                counts[1] += seat == winner
        for seat, offered in enumerate(result.get("offered", ())):
            taken = set(result["merchant_cards"][seat])
            for card in offered:
                if card not in taken:
                    tally = self.merchants.setdefault(card, CardTally())
                    tally.passers += 1
                    tally.passers_won += seat == winner
                    counts = in_game.setdefault(card, [0, 0, 0, 0])
                    counts[2] += 1
                    counts[3] += seat == winner
        for card, (t, tw, p, pw) in in_game.items():
            tally = self.merchants.setdefault(card, CardTally())
            tally.moments = [
                a + b for a, b in zip(tally.moments, game_moments(t, tw, p, pw), strict=True)
            ]
        for seat, coins in enumerate(result["coins"]):
            for pile, n in coins.items():
                self.coins_taken[pile] += n
                if seat == winner:
                    self.coins_by_winner[pile] += n
        for coin in self.ruleset.coins:
            paid = sum(c.get(coin.id, 0) for c in result["coins"])
            if paid >= coin.count(self.config.players):
                self.coins_emptied[coin.id] += 1
        self._add_market(result)
        self._add_leads(result.get("round_scores", ()), winner)

    def _add_market(self, result: GameResult) -> None:
        """Turns on offer and takes by slot, and the turns each point card took to pay."""
        for card, counts in result.get("market", {}).items():
            tally = self.merchants.setdefault(card, CardTally())
            _add_by_slot(tally.offers, counts["offers"])
            _add_by_slot(tally.taken_at, counts["taken"])
        for card, n in result.get("point_offers", {}).items():
            _add_by_slot(self.points.setdefault(card, CardTally()).offers, [n])
        for cards, turns in zip(result["point_cards"], result.get("claim_turns", ()), strict=False):
            for card, turn, before in zip(cards, turns, [0, *turns], strict=False):
                self.points[card].turns_to_pay += turn - before

    def _add_leads(self, round_scores: list[list[int]], winner: int) -> None:
        """The lead changes of a game, and per round whether its one leader won."""
        changes, leader = 0, None
        for number, scores in enumerate(round_scores, 1):
            best = max(scores)
            leaders = [seat for seat, score in enumerate(scores) if score == best]
            if len(leaders) > 1:
                continue  # a tie keeps the lead where it was
            if leader is not None and leaders[0] != leader:
                changes += 1
            leader = leaders[0]
            self.led[number] += 1
            self.led_won[number] += leader == winner
        if round_scores:
            self.lead_changes[changes] += 1


def _tally(table: dict[str, CardTally], per_player: list[list[str]], winner: int) -> None:
    for seat, cards in enumerate(per_player):
        for card in cards:
            table.setdefault(card, CardTally()).taken += 1
            if seat == winner:
                table[card].by_winner += 1
        for card in set(cards):
            table[card].takers += 1
            if seat == winner:
                table[card].takers_won += 1
