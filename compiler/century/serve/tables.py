"""The tables of `century serve`: games in play, who may move which seat, what each seat
sees, the move log in words, undo and records.

A table holds one engine state. Every seat is a person (``human``) or a bot (its spec,
``greedy``, ``planner:4``). Whoever holds a token may act for the seats it names: a
hot-seat table has one token for every person's seat; a network table one token per
person's seat (its secret link) and a watch token for none. Moves are the engine's own: a
move is made only when it is one of `State.legal_moves()`, re-checked here, and a move that
is not leaves the table as it was (`TableError`, a 4xx for the web layer).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from century.engine.choices import Choice, group_moves, split_move
from century.model.steps import COUNT, OPTIONS, STEPS_OF, step_kind
from century.model.text import shown
from century.serve.names import effect_words, phrase
from century.serve.store import Status, Store, Stored, StoreError
from century.serve.words import counted, languages, speakable, words

if TYPE_CHECKING:
    from century.bots.registry import Bot
    from century.engine import Engine
    from century.model.ruleset import Ruleset
    from century.runtime.engine import State

HUMAN = "human"
"""A seat played by a person."""
MAX_TABLES = 32
"""Tables one server holds at once (`--max-tables`); an idle one makes room for a new one."""
MAX_WATCHERS = 16
"""Live connections to one table at once."""
MAX_LOG = 400
"""Move-log entries a snapshot carries (the latest)."""
IDLE_SECONDS = 30 * 60
"""A table untouched this long may be dropped to make room for a new one."""
MAX_NAME = 24
"""The longest name a player goes by."""


class TableError(Exception):
    """A request a table refuses, with the HTTP status that says why (the table unchanged)."""

    def __init__(self, status: int, message: str, key: str = "", **slots: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.key = key
        """The page's words that say it (``error.KEY``, with `slots`), or empty: English."""
        self.slots = slots

    def said(self, lang: str) -> str:
        """The refusal in `lang` where the page's words say it, else in English."""
        if not self.key or lang not in languages() or lang == "en":
            return self.message
        return words(lang)[f"error.{self.key}"].format(**self.slots)


@dataclass
class Entry:
    """One line of the move log: who moved, the move in notation and in words."""

    seat: int
    move: str
    text: str


@dataclass
class Table:
    """One game in play."""

    id: str
    ruleset: Ruleset
    engine: Engine
    seats: list[str]
    """Per seat: ``human`` or the bot's spec."""
    seed: int
    state: State
    network: bool
    tokens: dict[str, frozenset[int]]
    """Per secret token: the seats it may act for (empty: watch only)."""
    bots: dict[int, Bot]
    lang: str
    log: list[Entry] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    """The seat that made each move of the record, in order."""
    version: int = 0
    touched: float = field(default_factory=time.monotonic)
    watchers: int = 0
    stalled: str = ""
    """Why the game cannot go on (a bot that failed), shown to every seat; empty when it can."""
    names: list[str] = field(default_factory=list)
    """Per seat: the name its person goes by (empty: none given)."""
    store: Store | None = None
    retold: dict[str, tuple[State, list[str], list[str]]] = field(default_factory=dict, repr=False)
    """Per other language: the move log told again in it, its moves, the position after them."""
    """Where the table is kept (every move written before it is answered), or None."""
    rematch: dict[str, Any] | None = None
    """The rematch once one is made: its table id and, per token of this table, the token
    of the seat its holder plays there."""

    @property
    def humans(self) -> frozenset[int]:
        return frozenset(seat for seat, kind in enumerate(self.seats) if kind == HUMAN)

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats `token` may act for; `TableError` (403) for a token of no seat."""
        if not token or not isinstance(token, str):
            raise TableError(403, "this table needs its secret link (a seat token)", "secret_link")
        for known, seats in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                return seats
        raise TableError(403, "that seat token is not one of this table's", "token")

    def label(self, seat: int) -> str:
        """``seat 2 (greedy)``, ``seat 1 (person)``; ``Ann (seat 1)`` once named."""
        name = self.names[seat] if seat < len(self.names) else ""
        if name:
            return f"{name} (seat {seat + 1})"
        kind = self.seats[seat]
        return f"seat {seat + 1} ({'person' if kind == HUMAN else kind})"

    def name(self, seats: frozenset[int], seat: Any, name: Any) -> None:
        """Name a person's seat of `seats` (`seat` may be left out for a token of one seat):
        `TableError` (400) for a name that is not 1 to `MAX_NAME` printable characters."""
        if seat is None and len(seats) == 1:
            seat = next(iter(seats))
        if not isinstance(seat, int) or seat not in seats:
            raise TableError(403 if not seats else 400, "name one of your own seats", "own_seat")
        self.names[seat] = check_name(name)
        self.changed()
        if self.store is not None:
            try:
                self.store.named(self.id, list(self.names), self.status())
            except StoreError as err:
                raise TableError(507, f"the name was not kept: {err}") from None

    # -- moves ---------------------------------------------------------------------------

    def bot_to_move(self) -> int | None:
        """The seat of the bot to move, or None (a person moves, the game is over, or a bot
        failed)."""
        state = self.state
        if state.is_over() or self.stalled or self.seats[state.current_player] == HUMAN:
            return None
        return state.current_player

    def move(self, seats: frozenset[int], move: Any, version: Any = None) -> None:
        """Make `move` for the player to move, who must be one of `seats`; `version` (if
        given) must be the table's, so a move chosen on a stale table is refused."""
        state = self.state
        if not isinstance(move, str) or not move or len(move) > 200:
            raise TableError(400, "a move is a short text in the game's notation", "move_text")
        if version is not None and version != self.version:
            raise TableError(409, "the table has changed since: look again", "stale")
        if state.is_over():
            raise TableError(409, "the game is over", "over")
        if state.current_player not in seats:
            raise TableError(
                409 if seats else 403,
                f"it is {self.label(state.current_player)}'s turn",
                "turn",
                n=state.current_player + 1,
            )
        if move not in state.legal_moves():
            raise TableError(
                422, f"not a legal move now: {move[:60]!r}", "illegal", move=repr(move[:60])
            )
        self.apply(move)

    def apply(self, move: str) -> None:
        """Play a legal `move`, log it in words and keep it; `TableError` (507), the table
        as it was, when it cannot be kept."""
        seat = self.state.current_player
        text = describe(self, move)
        self.state.play(move)
        self.movers.append(seat)
        self.log.append(Entry(seat, move, text))
        self.changed()
        if self.store is not None:
            try:
                self.store.moved(self.id, len(self.log) - 1, (seat, move, text), self.status())
            except StoreError as err:
                self.movers.pop()
                self.log.pop()
                back = {**self.state.record(), "moves": self.state.moves()[:-1]}
                self.state = self.engine.replay(back)
                self.changed()
                raise TableError(507, f"the move was not made: {err}") from None

    def status(self) -> Status:
        """The table's version, whether it is over and its result, as the store keeps them."""
        state = self.state
        result = {"scores": state.scores(), "winners": state.winners()} if state.is_over() else None
        return Status(self.version, state.is_over(), result)

    def stored(self) -> Stored:
        """The table as the store keeps it."""
        return Stored(
            id=self.id,
            game=self.ruleset.id,
            seats=list(self.seats),
            names=list(self.names),
            start={k: v for k, v in self.state.record().items() if k != "moves"},
            network=self.network,
            lang=self.lang,
            tokens={token: sorted(seats) for token, seats in self.tokens.items()},
            version=self.version,
            over=self.state.is_over(),
            result=self.status().result,
            moves=[(e.seat, e.move, e.text) for e in self.log],
            rematch=self.rematch,
        )

    def changed(self) -> None:
        self.version += 1
        self.touched = time.monotonic()

    def undo(self, seats: frozenset[int]) -> None:
        """Take back every move since the last one a person of `seats` made (a bot's answers
        included), so that person decides again; only where one token acts for every person
        (a solo or hot-seat table)."""
        if self.network:
            raise TableError(409, "a table on the network has no undo", "undo_network")
        if not seats or seats != self.humans:
            raise TableError(403, "only the table's own token may undo", "undo_token")
        last = max((i for i, seat in enumerate(self.movers) if seat in seats), default=None)
        if last is None:
            raise TableError(409, "nothing to undo: no move of yours yet", "undo_none")
        record = {**self.state.record(), "moves": self.state.moves()[:last]}
        if self.store is not None:
            try:
                self.store.undone(self.id, last, Status(self.version + 1, False, None))
            except StoreError as err:
                raise TableError(507, f"nothing undone: {err}") from None
        self.state = self.engine.replay(record)
        del self.movers[last:]
        del self.log[last:]
        self.changed()

    def record(self) -> dict[str, Any]:
        """The game record (`century replay` plays it back), naming who played each seat."""
        return {**self.state.record(), "seats": list(self.seats)}

    # -- what a seat sees ----------------------------------------------------------------

    def record_open(self) -> bool:
        """Whether the game record may be given now: on the network only once the game is
        over (or cannot go on), since it holds what no seat may see before."""
        return not self.network or self.state.is_over() or bool(self.stalled)

    def snapshot(self, seats: frozenset[int], lang: str = "") -> dict[str, Any]:
        """The table as the holder of a token for `seats` may see it: everything on the
        table, the hands of `seats` only (the others' sizes), and the legal moves when one
        of `seats` is to move; what the server words (the dialogs' ways and cards, the end)
        in `lang`, else the table's language."""
        lang = lang or self.lang
        engine, state, ruleset = self.engine, self.state, self.ruleset
        view = state.view()
        codes = engine.CODES
        acting = state.current_player if state.current_player in seats and not view.over else None
        seat_list = []
        for seat in range(view.players):
            held = [
                {"id": coin.id, "count": count}
                for coin, count in zip(ruleset.coins, view.coins(seat), strict=True)
                if count
            ]
            entry: dict[str, Any] = {
                "seat": seat,
                "kind": self.seats[seat],
                "bot": self.seats[seat] != HUMAN,
                "label": self.label(seat),
                "caravan": view.caravan(seat).text,
                "score": view.score(seat),
                "points": [engine.POINT_CARDS[c].id for c in view.point_cards(seat)],
                "coins": held,
                "played": [engine.CARDS[c].id for c in view.played(seat)],
                "hand_size": len(view.hand(seat)),
                "turns": view.turns(seat),
            }
            if seat in seats:
                entry["hand"] = [engine.CARDS[c].id for c in sorted(view.hand(seat))]
            seat_list.append(entry)
        point_row = []
        for slot, index in enumerate(view.point_row):
            pile = view.coin_pile(slot)
            card = engine.POINT_CARDS[index]
            point_row.append(
                {
                    "slot": slot + 1,
                    "id": card.id,
                    "cost": _cubes(card.cost, codes),
                    "points": card.points,
                    "coin": None
                    if pile < 0
                    else {**self._coin(pile, lang), "left": view.coin_count(pile)},
                }
            )
        merchant_row = [
            {"slot": slot + 1, "id": engine.CARDS[index].id, "cubes": cubes.text}
            for slot, (index, cubes) in enumerate(
                zip(view.merchant_row, view.merchant_cubes, strict=True)
            )
        ]
        over = view.over
        return {
            "table": self.id,
            "version": self.version,
            "game": ruleset.id,
            "title": shown(ruleset.name, self.lang, ruleset.id),
            "lang": self.lang,
            "network": self.network,
            "record_open": self.record_open(),
            "players": view.players,
            "round": view.rounds() + 1,
            "current": state.current_player,
            "over": over,
            "final_round": view.final_round,
            "discarding": view.discarding,
            "limit": ruleset.caravan_limit,
            "you": sorted(seats),
            "acting": acting,
            "seats": seat_list,
            "point_row": point_row,
            "merchant_row": merchant_row,
            "decks_left": list(view.decks_left),
            "moves": self._moves(lang) if acting is not None else [],
            "log": [
                {"seat": e.seat, "move": e.move, "text": text}
                for e, text in zip(self.log[-MAX_LOG:], self.told(lang)[-MAX_LOG:], strict=True)
            ],
            "log_size": len(self.log),
            "can_undo": (
                not self.network
                and bool(seats)
                and seats == self.humans
                and any(seat in seats for seat in self.movers)
            ),
            "stalled": self.stalled,
            "scores": state.scores() if over else None,
            "winners": state.winners() if over else None,
            "names": list(self.names),
            "rematch": self._rematch_for(seats),
            **self._result(over, lang),
        }

    def told(self, lang: str) -> list[str]:
        """The move log's lines in `lang`: as written in the table's language, else told
        again from the record (kept, and carried on as moves come)."""
        if speakable(lang) == speakable(self.lang):
            return [entry.text for entry in self.log]
        kept = self.retold.get(lang)
        if kept is None or [e.move for e in self.log[: len(kept[2])]] != kept[2]:  # undone since
            kept = (self.engine.replay({**self.state.record(), "moves": []}), [], [])
        state, lines, moves = kept
        for entry in self.log[len(lines) :]:
            lines.append(describe(self, entry.move, lang, state))
            moves.append(entry.move)
            state.play(entry.move)
        self.retold[lang] = (state, lines, moves)
        return lines

    def _result(self, over: bool, lang: str) -> dict[str, Any]:
        if not over:
            return {"breakdown": None, "tie_break": ""}
        seats, said = breakdown(self, lang)
        return {"breakdown": seats, "tie_break": said}

    def _rematch_for(self, seats: frozenset[int]) -> dict[str, str] | None:
        """The rematch's table and the link of the seat `seats` now play, once there is one."""
        if self.rematch is None:
            return None
        for token, held in self.tokens.items():
            if held == seats and token in self.rematch["tokens"]:
                return {"table": self.rematch["table"], "token": self.rematch["tokens"][token]}
        return None

    def _coin(self, pile: int, lang: str = "") -> dict[str, Any]:
        coin = self.ruleset.coins[pile]
        said = shown(coin.name, lang or self.lang, coin.id)
        return {"id": coin.id, "value": coin.value, "name": said}

    def _moves(self, lang: str) -> list[dict[str, Any]]:
        """The legal moves of the player to move, grouped by what is pointed at: a card in
        the hand, a slot of a row, rest, the discard; each with its ways."""
        found = []
        engine, view = self.engine, self.state.view()
        before = view.caravan(self.state.current_player).text
        outcomes = {move: caravan.text for move, caravan in view.outcomes()}
        codes = engine.CODES
        changes: dict[str, tuple[str, str]] = {}  # per caravan after: what is paid, gained
        voice = Voice(self.ruleset, engine, lang)
        for choice in group_moves(self.state.legal_moves(), engine.CODES):
            verb, _, what = choice.key.partition(" ")
            effect = engine.CARDS[_card_index(engine, what)].effect if verb == "play" else None
            options = []
            for option in choice.options:
                move = choice.move(option)
                after = outcomes[move]
                change = changes.get(after)
                if change is None:
                    change = changes[after] = (
                        _less(before, after, codes),
                        _less(after, before, codes),
                    )
                options.append(
                    {
                        "move": move,
                        "option": option,
                        "words": _option(choice, option, voice, effect),
                        "after": after,
                        "paid": change[0],
                        "gained": change[1],
                    }
                )
            found.append(
                {
                    "key": choice.key,
                    "verb": verb,
                    "what": what,
                    "name": self._named(verb, what, lang),
                    "options": options,
                    "default": choice.move(choice.default),
                }
            )
        return found

    def _named(self, verb: str, what: str, lang: str) -> str:
        """What a move points at, in words: a card played or acquired by its name or kind and
        effect, a point card by its cost and points."""
        engine, view = self.engine, self.state.view()
        if verb == "play":
            return phrase(self.ruleset, engine, _card_index(engine, what), lang)
        if verb == "acquire":
            return phrase(self.ruleset, engine, view.merchant_row[int(what) - 1], lang)
        if verb == "claim":
            point = engine.POINT_CARDS[view.point_row[int(what) - 1]]
            cost = _letters(_cubes(point.cost, engine.CODES))
            texts = words(speakable(lang))
            return texts["card.point"].format(points=point.points, cost=cost)
        return ""


def _less(have: str, minus: str, codes: str) -> str:
    """The cubes of `have` not in `minus` (both strings of `codes`, as multisets), in rank
    order."""
    return "".join(code * (have.count(code) - minus.count(code)) for code in codes)


def check_name(name: Any) -> str:
    """A player's name, trimmed: 1 to `MAX_NAME` printable characters (`TableError` 400)."""
    if not isinstance(name, str):
        raise TableError(400, "a name is a text", "name_text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise TableError(
            400, f"a name is 1 to {MAX_NAME} letters, digits or signs", "name_size", most=MAX_NAME
        )
    return name


def breakdown(table: Table, lang: str = "") -> tuple[list[dict[str, Any]], str]:
    """Each seat's score by what made it (its point cards, each coin kind, its cubes by rank,
    each with the points it gives), and the tie-break in words when it decided the winner
    (else empty); in `lang`, else the table's language."""
    lang = lang or table.lang
    engine, ruleset, state = table.engine, table.ruleset, table.state
    view = state.view()
    seats = []
    for seat in range(view.players):
        coins = [
            {"name": shown(coin.name, lang, coin.id), "count": count, "value": coin.value}
            for coin, count in zip(ruleset.coins, view.coins(seat), strict=True)
            if count
        ]
        caravan = view.caravan(seat).text
        cubes = [
            {
                "code": resource.code.lower(),
                "name": shown(resource.name, lang, resource.id),
                "count": caravan.count(resource.code.lower()),
                "each": ruleset.resource_points[rank],
            }
            for rank, resource in enumerate(ruleset.resources)
            if caravan.count(resource.code.lower())
        ]
        points = [engine.POINT_CARDS[c].points for c in view.point_cards(seat)]
        seats.append(
            {
                "seat": seat,
                "point_cards": len(points),
                "point_card_points": sum(points),
                "coins": coins,
                "cubes": cubes,
                "total": view.score(seat),
            }
        )
    scores, winners = state.scores(), state.winners()
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    said = ""
    texts = words(speakable(lang))
    who = texts["end.and"].join(_seat_words(table, seat, texts, capital=False) for seat in tied)
    if len(tied) > 1 and len(winners) == 1:
        key = "end.tie_latest" if ruleset.tie_break == "latest_turn" else "end.tie_earliest"
        winner = _seat_words(table, winners[0], texts, capital=False)
        said = texts[key].format(who=who, points=best, winner=winner)
    elif len(tied) > 1:
        said = texts["end.tie_shared"].format(who=who, points=best)
    said = said[:1].upper() + said[1:]
    return seats, said


def _cubes(vector: tuple[int, ...], codes: str) -> str:
    return "".join(code * count for code, count in zip(codes, vector, strict=True))


@dataclass(frozen=True)
class Voice:
    """What words a move's ways in a language: the table's game and engine, the language,
    and the page's words in it."""

    ruleset: Ruleset
    engine: Engine
    lang: str

    @property
    def texts(self) -> dict[str, str]:
        return words(speakable(self.lang))

    def say(self, key: str, **slots: Any) -> str:
        return self.texts[key].format(**slots)


def _option(
    choice: Choice, option: str, voice: Voice, effect: tuple[Any, ...] | None = None
) -> str:
    """An option of an entry in `voice`'s language: ``leaving Y, R`` (an acquisition),
    ``returning Y`` (a discard); for a card played, its choices read along its steps
    (`effect`): ``twice``, ``raising Y, G``, a branch chosen by what it does (``upgrade 2,
    raising Y``)."""
    verb = choice.key.split()[0]
    if not option:
        return voice.say("way.as_is")
    if verb == "acquire":
        return voice.say("way.leaving", cubes=_letters(option))
    if verb == "discard":
        return voice.say("way.returning", cubes=_letters(option))
    words = option.split()
    if effect is not None:
        said: list[str] = []
        if _walk(effect, words, said, voice) and not words:
            return ", ".join(said)
        words = option.split()
    return ", ".join(_word(word, voice) for word in words)


def _word(word: str, voice: Voice) -> str:
    """One word of a played card's choices, read alone."""
    if word[:1] == "x" and word[1:].isdigit():
        return _times(int(word[1:]), voice)
    if word[:1] == "o" and word[1:].isdigit():
        return voice.say("way.option", n=word[1:])
    return _letters(word)


def _times(times: int, voice: Voice) -> str:
    key = {1: "way.once", 2: "way.twice"}.get(times, "way.times")
    return voice.say(key, n=times)


def _walk(steps: tuple[Any, ...], words: list[str], said: list[str], voice: Voice) -> bool:
    """Read `words` (taken from the front) along `steps`, saying each choice; False when
    they do not fit the steps."""
    for step in steps:
        kind = step_kind(step[0])
        if kind.takes == COUNT:
            if not words:
                return False
            cubes = _letters(words.pop(0))
            key = f"way.{kind.name}"  # a step a variant adds says it in the engine's words
            said.append(voice.say(key, cubes=cubes) if key in voice.texts else kind.words + cubes)
        elif kind.takes == STEPS_OF:
            if not words or words[0][:1] != "x" or not words[0][1:].isdigit():
                return False
            times = int(words.pop(0)[1:])
            said.append(_times(times, voice))
            for _ in range(times):
                if not _walk(step[1], words, said, voice):
                    return False
        elif kind.takes == OPTIONS:
            if not words or words[0][:1] != "o" or not words[0][1:].isdigit():
                return False
            number = int(words.pop(0)[1:])
            if not 1 <= number <= len(step[1]):
                return False
            branch = step[1][number - 1]  # named by what it does
            said.append(effect_words(voice.ruleset, voice.engine, branch, voice.lang))
            if not _walk(branch, words, said, voice):
                return False
    return True


def _letters(cubes: str) -> str:
    return " ".join(cubes.upper())


# -- the move log in words -----------------------------------------------------------------


def describe(table: Table, move: str, lang: str = "", state: State | None = None) -> str:
    """`move`, about to be made by the player to move in `state` (else the table's), as the
    rulebook would say it in `lang` (else the table's language): ``Seat 2 (greedy) acquires
    +g from slot 3, placing Y on each card before it.``"""
    lang = lang or table.lang
    engine, state = table.engine, state or table.state
    texts = words(speakable(lang))

    def say(key: str, **slots: Any) -> str:
        return texts[key].format(**slots)

    view = state.view()
    seat = state.current_player
    who = _seat_words(table, seat, texts)
    key, option = split_move(move)
    verb, _, what = key.partition(" ")
    before = view.caravan(seat).text.upper() or say("log.before_empty")
    if verb == "rest":
        count = len(view.played(seat))
        cards = counted(speakable(lang), "log.played", count)
        return say("log.rests", who=who, cards=cards)
    if verb == "discard":
        limit = table.ruleset.caravan_limit
        return say("log.returns", who=who, cubes=_letters(option), limit=limit)
    if verb == "play":
        index = _card_index(engine, what)
        effect = engine.CARDS[index].effect
        voice = Voice(table.ruleset, engine, lang)
        said = _option(Choice(key, (option,), option, ""), option, voice, effect)
        card = phrase(table.ruleset, engine, index, lang, said if option else "")
        after = dict(view.outcomes()).get(move)
        held = after.text.upper() if after is not None else "?"
        return say(
            "log.plays", who=who, card=card, before=before, after=held or say("log.after_empty")
        )
    if verb == "acquire":
        slot = int(what)
        card = phrase(table.ruleset, engine, view.merchant_row[slot - 1], lang)
        lying = view.merchant_cubes[slot - 1].text.upper()
        cubes = _letters(option)
        placed = counted(speakable(lang), "log.placing", len(option), cubes=cubes) if option else ""
        taken = say("log.taking", cubes=_letters(lying)) if lying else ""
        return say("log.acquires", who=who, card=card, slot=slot, placed=placed, taken=taken)
    if verb == "claim":
        slot = int(what)
        point = engine.POINT_CARDS[view.point_row[slot - 1]]
        pile = view.coin_pile(slot - 1)
        coin = ""
        if pile >= 0 and view.coin_count(pile):
            info = table._coin(pile, lang)
            coin = say("log.coin", name=info["name"], value=info["value"])
        cost = _letters(_cubes(point.cost, engine.CODES))
        return say("log.claims", who=who, cost=cost, points=point.points, coin=coin)
    return f"{who}: {move}."


def _seat_words(table: Table, seat: int, texts: dict[str, str], capital: bool = True) -> str:
    """A seat as the move log names it, in the table's language, capitalised unless not
    `capital`."""
    name = table.names[seat] if seat < len(table.names) else ""
    kind = table.seats[seat]
    if name:
        text = texts["seat.named"].format(name=name, n=seat + 1)
    elif kind == HUMAN:
        text = texts["seat.person"].format(n=seat + 1)
    else:
        text = texts["seat.bot"].format(n=seat + 1, kind=kind)
    return text[:1].upper() + text[1:] if capital else text


def _card_index(engine: Engine, card_id: str) -> int:
    for index, card in enumerate(engine.CARDS):
        if card.id == card_id:
            return index
    raise KeyError(card_id)


# -- making tables -------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What a new table is: the game, one entry per seat (``human`` or a bot spec), the
    seed, whether each person plays on a device of their own, and a record to continue."""

    game: str
    seats: tuple[str, ...]
    seed: int
    network: bool = False
    record: dict[str, Any] | None = None
    names: tuple[str, ...] = ()
    """The names the persons' seats go by (empty: none given yet)."""
    deal: str = ""
    """Cards placed by hand before the game begins (`century.serve.deal`), or empty."""


def check_seats(ruleset: Ruleset, seats: Any) -> tuple[str, ...]:
    """The seats of a new table, checked: the game's player counts, a person or a known bot
    each, at least one person."""
    from century.bots.registry import SpecError, check_spec

    if not isinstance(seats, list | tuple) or not all(isinstance(s, str) for s in seats):
        raise TableError(
            400, "seats: a list with one entry per seat, 'human' or a bot", "seats_list"
        )
    if not ruleset.players_min <= len(seats) <= ruleset.players_max:
        least, most = ruleset.players_min, ruleset.players_max
        said = f"{ruleset.id} is for {least} to {most} players"
        raise TableError(400, said, "players", game=ruleset.id, least=least, most=most)
    for spec in seats:
        if spec != HUMAN:
            try:
                check_spec(spec)
            except SpecError as err:
                slots = {"spec": repr(err.spec), "choices": err.choices}
                raise TableError(400, str(err), f"bot_{err.reason}", **slots) from None
    if HUMAN not in seats:
        raise TableError(400, "a table needs at least one person", "one_person")
    return tuple(seats)


def new_table(ruleset: Ruleset, engine: Engine, setup: Setup, lang: str) -> Table:
    """A table for `setup` (its record played back, when it has one): `TableError` (400)
    for a record that does not replay."""
    from century.bots.registry import make_bot
    from century.serve.deal import DealError, deal, example_deal, parse
    from century.simulation.config import derive_seed

    seed = setup.seed
    moves: list[str] = []
    wanted: Any = setup.seats
    start: State | None = None
    if setup.record is not None:
        try:
            played, seed, start = _continue(engine, setup.record)
        except (ValueError, TypeError) as err:
            reason = str(err)[:200]
            said = f"the record does not replay: {reason}"
            raise TableError(400, said, "record_replay", reason=reason) from None
        if wanted is None:  # you in the first seat, the greedy bot in the others
            wanted = [HUMAN] + ["greedy"] * (played.players - 1)
    seats = check_seats(ruleset, wanted)
    if setup.record is not None:
        if played.players != len(seats):
            said = f"the record is for {played.players} players, not {len(seats)}"
            raise TableError(400, said, "record_players", played=played.players, n=len(seats))
        moves = played.moves()
    elif setup.deal:
        try:
            dealt = parse(setup.deal, example_deal(ruleset))
            start = deal(engine, engine.new_game(len(seats), seed), dealt)
        except DealError as err:
            raise TableError(400, f"deal: {err}", err.key, **err.slots) from None
    bots = {
        seat: make_bot(spec, engine, ruleset, derive_seed(seed, "serve", seat))
        for seat, spec in enumerate(seats)
        if spec != HUMAN
    }
    humans = frozenset(seat for seat, spec in enumerate(seats) if spec == HUMAN)
    tokens: dict[str, frozenset[int]] = {}
    if setup.network:
        for seat in sorted(humans):
            tokens[secrets.token_urlsafe(18)] = frozenset({seat})
        tokens[secrets.token_urlsafe(18)] = frozenset()
    else:
        tokens[secrets.token_urlsafe(18)] = humans
    table = Table(
        id=secrets.token_urlsafe(9),
        ruleset=ruleset,
        engine=engine,
        seats=list(seats),
        seed=seed,
        state=start if start is not None else engine.new_game(len(seats), seed),
        network=setup.network,
        tokens=tokens,
        bots=bots,
        lang=lang,
        names=_names(setup.names, seats),
    )
    for move in moves:  # the record's moves again, for the log and who made each
        table.apply(move)
    return table


def _names(given: Any, seats: tuple[str, ...]) -> list[str]:
    """The names of a new table's seats: given for persons' seats, checked; empty else."""
    if not given:
        return [""] * len(seats)
    if not isinstance(given, list | tuple) or len(given) != len(seats):
        raise TableError(400, "names: a list with one entry per seat", "names_list")
    return [
        check_name(name) if name and seats[seat] == HUMAN else "" for seat, name in enumerate(given)
    ]


def rematch(table: Table, seats: frozenset[int], rotate: Any) -> Table:
    """A new game of `table`'s players (its seats and names, turned by one seat when
    `rotate`: the second player starts), with a new seed; asked for by a player of the
    finished `table` (`seats`), and made once: the same rematch for whoever asks next."""
    if not table.state.is_over():
        raise TableError(409, "a rematch follows a game that is over", "rematch_early")
    if not seats:
        raise TableError(403, "a rematch is for the players, not the watchers", "rematch_watcher")
    if not isinstance(rotate, bool):
        raise TableError(400, "rotate: true or false", "rotate")
    if table.rematch is not None:
        raise TableError(409, "this game's rematch is made already", "rematch_made")
    count = len(table.seats)
    order = [(seat + 1) % count for seat in range(count)] if rotate else list(range(count))
    setup = Setup(
        table.ruleset.id,
        tuple(table.seats[old] for old in order),
        secrets.randbelow(2**31),
        table.network,
        names=tuple(table.names[old] for old in order),
    )
    made = new_table(table.ruleset, table.engine, setup, table.lang)
    where = {old: new for new, old in enumerate(order)}  # an old seat's place in the new game
    by_seats = {held: token for token, held in made.tokens.items()}
    table.rematch = {
        "table": made.id,
        "tokens": {
            token: by_seats[frozenset(where[seat] for seat in held)]
            for token, held in table.tokens.items()
        },
    }
    return made


def restore(stored: Stored, ruleset: Ruleset, engine: Engine) -> Table:
    """A table kept in the store, as it was: its moves played back, its log, seats, names,
    links and version; `TableError` (409) when its record no longer replays (the game's
    rules changed since)."""
    from century.bots.registry import make_bot
    from century.simulation.config import derive_seed

    try:
        state = engine.replay({**stored.start, "moves": [move for _, move, _ in stored.moves]})
    except (ValueError, TypeError) as err:
        raise TableError(
            409, f"this table's game no longer replays ({str(err)[:200]}); its record is kept"
        ) from None
    seed = stored.start.get("seed")
    seed = seed if isinstance(seed, int) else 0
    return Table(
        id=stored.id,
        ruleset=ruleset,
        engine=engine,
        seats=list(stored.seats),
        seed=seed,
        state=state,
        network=stored.network,
        tokens={token: frozenset(seats) for token, seats in stored.tokens.items()},
        bots={
            seat: make_bot(spec, engine, ruleset, derive_seed(seed, "serve", seat))
            for seat, spec in enumerate(stored.seats)
            if spec != HUMAN
        },
        lang=stored.lang,
        log=[Entry(seat, move, text) for seat, move, text in stored.moves],
        movers=[seat for seat, _, _ in stored.moves],
        version=stored.version,
        names=list(stored.names) or [""] * len(stored.seats),
        rematch=stored.rematch,
    )


def _continue(engine: Engine, record: Any) -> tuple[State, int, State | None]:
    """A record played back (ValueError naming what is wrong), its seed, and the position it
    started from when it was dealt by hand (else None)."""
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object")
    state = engine.replay(record)
    seed = record.get("seed")
    if record.get("start") is not None:
        start = engine.replay({**record, "moves": []})
        return state, seed if isinstance(seed, int) else 0, start
    if not isinstance(seed, int):
        raise ValueError("seed: a whole number")
    return state, seed, None


class Tables:
    """Every table of a server in memory, bounded by `most`; `load` finds one that is not
    (a table kept in the store, restored), or None."""

    def __init__(
        self, most: int = MAX_TABLES, load: Callable[[str], Table | None] | None = None
    ) -> None:
        self.most = most
        self.tables: dict[str, Table] = {}
        self.load = load

    def add(self, table: Table) -> None:
        """Keep `table`; when the server is full, drop a finished game nobody watches, else
        the longest idle table (idle `IDLE_SECONDS` at least, nobody watching); else
        `TableError` 503."""
        if len(self.tables) >= self.most:
            now = time.monotonic()
            done = [t for t in self.tables.values() if t.state.is_over() and not t.watchers]
            idle = [t for t in self.tables.values() if now - t.touched >= IDLE_SECONDS]
            if not done and not [t for t in idle if not t.watchers]:
                raise TableError(
                    503, f"this server holds {self.most} tables already", "full", n=self.most
                )
            gone = min(done or [t for t in idle if not t.watchers], key=lambda t: t.touched)
            del self.tables[gone.id]
        self.tables[table.id] = table

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None and self.load is not None and isinstance(table_id, str):
            table = self.load(table_id)
        if table is None:
            raise TableError(404, "no such table (the server may have restarted)", "no_table")
        return table
