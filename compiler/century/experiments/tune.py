"""`century tune`: versions of a card whose owner effect lies in a band, proposed and confirmed.

The owner effect of a card (`century.experiments.owner`: the owning seat's paired change of
win rate when one seat holds the card from the start) is measured for versions of the card
(`century.experiments.versions`: its numbers changed one edit at a time, in the direction
that moves the card towards the band). The band is the designer's, or by default the middle
half (the interquartile range) of the game's own merchant cards at each level, read from the
cached reference table.

Two stages, on different deals:

1. **Screening** at a cheap level (greedy), on the deals of seed S: the card, then its
   versions nearest first, one edit more at a time, each until its always-valid interval
   lies wholly inside or outside the band or a quarter of the budget is
   spent. Screening only picks
   which versions to confirm; it claims nothing.
2. **Confirming** at each named level, on the fresh deals of seed S + 1: the (at most
   `CONFIRM`) screened versions nearest the card whose estimate lay in the band, each until
   its interval lies wholly inside or outside the band or the budget is spent. Multiple
   testing is controlled by a Bonferroni split: with K versions at L levels, each interval is
   an always-valid (1 - 0.05 / (K * L)) interval, so the chance that any proposal is wrong
   (any of its intervals ever misses its true effect) is at most 5%. A version is proposed
   when its interval lies inside the band at every named level.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from century.experiments.owner import Plan, owner_effect, table_for
from century.experiments.versions import STRONGER, WEAKER, NothingToTune, versions
from century.model.ruleset import MerchantCard, PointCard, Ruleset
from century.simulation.config import ProgressFn
from century.simulation.sequential import ALPHA, INSIDE, OUTSIDE, Side

TUNE_VERSION = 1
"""The version of `century tune` answers."""

SCREEN_LEVEL = "greedy"
"""The cheap level versions are screened at."""

CONFIRM = 3
"""The most versions confirmed at the named levels (the Bonferroni split's K)."""

DEPTH = 3
"""The most edits from the card a version may be."""

MOST = 40
"""The most versions of one direction the search tries."""

Host = Callable[[list[str]], tuple[Ruleset, list[str], tuple[str, ...]]]
"""Cards written as in a deck -> the game they are played in, their ids there, and the cards
taken out of every deal (the command line compiles it, as for ``experiment --own``)."""


class TuneError(ValueError):
    """A tune that cannot run or find anything, with what it tried (`details`)."""

    def __init__(self, message: str, details: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.details = list(details)


@dataclass(frozen=True)
class TuneRequest:
    """What `century tune` is asked: the card (an id of `game` or written as in a deck), the
    levels it is confirmed at, the band (a win-rate change, low and high; None: the middle
    half of the game's cards at each level), the games per version and level, and the deals."""

    game: Ruleset
    card: str
    levels: tuple[str, ...]
    band: tuple[float, float] | None
    budget: int
    players: int = 2
    seed: int = 0
    cluster: str | None = None


def middle_half(table: Mapping[str, Any], level: str) -> tuple[float, float] | None:
    """The interquartile range of the table's owner effects at `level` (None: none there)."""
    values = sorted(
        entry["owner"]["difference"]
        for card in table["cards"]
        for entry in card["levels"]
        if entry["bots"] == level
    )
    if len(values) < 4:
        return None
    return _quantile(values, 0.25), _quantile(values, 0.75)


def _quantile(values: Sequence[float], q: float) -> float:
    at = q * (len(values) - 1)
    low = int(at)
    high = min(low + 1, len(values) - 1)
    return round(values[low] + (values[high] - values[low]) * (at - low), 6)


def bands(request: TuneRequest, point_card: bool) -> tuple[dict[str, tuple[float, float]], str]:
    """The band at the screening level and at each named level, and where it comes from."""
    wanted = (SCREEN_LEVEL, *request.levels)
    if request.band is not None:
        return {level: request.band for level in wanted}, "given"
    game = request.game
    if point_card:
        raise TuneError(
            "the game's reference table holds merchant cards: name the band of a point card "
            "with --band LO:HI"
        )
    table = table_for(game.id, game.source_hash)
    found = {level: middle_half(table, level) for level in wanted} if table else {}
    missing = [level for level in wanted if found.get(level) is None]
    if missing:
        raise TuneError(
            f"no reference table of {game.id} at {', '.join(missing)} is cached to take the "
            "band from: measure it with century experiment "
            f"{game.id} --own-all --levels {','.join(dict.fromkeys(wanted))}, or name the band "
            "with --band LO:HI (points, e.g. --band 10:20)"
        )
    assert table is not None
    cards = len(table["cards"])
    return {k: v for k, v in found.items() if v is not None}, (
        f"the middle half of the game's {cards} merchant cards at each level "
        f"(reference table of {table['plan']['games']} games per card)"
    )


def tuned_card(host: Ruleset, card: str) -> MerchantCard | PointCard:
    """The card `card` of `host` (the card tuned)."""
    merchant = [c for c in (*host.merchant_deck, *host.starting_cards) if c.id == card]
    point = [c for c in host.point_deck if c.id == card]
    if merchant or point:
        return merchant[0] if merchant else point[0]
    raise TuneError(f"no card {card!r} in {host.id}")


@dataclass
class Search:
    """A tune under way: what is measured so far (kept when it is interrupted)."""

    screened: list[dict[str, Any]]
    confirmed: list[dict[str, Any]]
    interrupted: bool = False
    chosen: int = 0
    """The versions picked for confirming (the Bonferroni split's K; 0: none yet)."""


def tune(
    request: TuneRequest,
    host_for: Host,
    workers: int = 1,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Screen the card and its versions at the screening level, confirm the nearest in the
    band at each named level (module docstring); the JSON-ready answer. Ctrl-C ends it with
    the versions finished so far (``interrupted``); TuneError when nothing can be tried or
    no version screened reaches the band."""
    first, ids, unseen = host_for([request.card])
    original = tuned_card(first, ids[0])
    point_card = isinstance(original, PointCard)
    found_bands, source = bands(request, point_card)
    try:
        texts = {d: versions(first, original, d, MOST, DEPTH) for d in (STRONGER, WEAKER)}
    except NothingToTune as err:
        raise TuneError(f"{request.card!r}: {err} (no cubes, upgrades, counts or points)") from None
    every = [request.card, *(v.text for d in (STRONGER, WEAKER) for v in texts[d])]
    host, ids, unseen = host_for(every)
    card_ids = dict(zip(every, ids, strict=True))
    search = Search([], [])
    screen = Plan(
        max(50, request.budget // 4),
        request.players,
        (SCREEN_LEVEL,),
        request.seed,
        unseen,
        cluster=request.cluster,
        band=found_bands[SCREEN_LEVEL],
    )
    try:
        chosen = _screen(host, request, screen, (texts, card_ids), search, (workers, progress))
        if not search.interrupted:
            _confirm(
                host, (request, screen, chosen), card_ids, found_bands, search, (workers, progress)
            )
    except KeyboardInterrupt:
        search.interrupted = True
    return _answer(request, found_bands, source, screen, search)


def _measure(
    host: Ruleset, card: str, plan: Plan, run: tuple[int, ProgressFn | None], bases: dict[str, Side]
) -> dict[str, Any]:
    """The owner effect of `card` at the plan's one level, as `experiment --own` measures it."""
    workers, progress = run
    level = plan.levels[0]
    if level not in bases:
        bases[level] = plan.side(host, level, "", workers, progress)
    entry = owner_effect(host, card, plan, workers, progress, bases)["levels"][0]
    low, high = plan.band or (0.0, 0.0)
    estimate = entry["owner"]["difference"]
    reason = entry["stop"]["reason"]
    place = "inside" if reason == INSIDE else "outside" if reason == OUTSIDE else "undecided"
    return {
        "bots": level,
        "owner": entry["owner"],
        "length": entry["length"],
        "stop": entry["stop"],
        "band": [low, high],
        "place": place,
        "estimate_in_band": low <= estimate <= high,
    }


def _screen(
    host: Ruleset,
    request: TuneRequest,
    plan: Plan,
    found: tuple[dict[int, list[Any]], dict[str, str]],
    search: Search,
    run: tuple[int, ProgressFn | None],
) -> list[dict[str, Any]]:
    """The card, then its versions nearest first in the direction of the band, at the
    screening level; the versions to confirm (at most `CONFIRM`, nearest the card first)."""
    texts, card_ids = found
    bases: dict[str, Side] = {}
    low, high = plan.band or (0.0, 0.0)
    first = _measure(host, card_ids[request.card], plan, run, bases)
    search.screened.append({"card": request.card, "edits": 0, **first})
    estimate = first["owner"]["difference"]
    direction = WEAKER if estimate > (low + high) / 2 else STRONGER
    if not texts[direction]:
        raise TuneError(
            f"{request.card}: no number of it can be changed to make it {_word(direction)} "
            f"(its owner effect at {plan.levels[0]}, {_points(estimate)} points, lies "
            f"{'above' if direction == WEAKER else 'below'} the band {_points(low)} to "
            f"{_points(high)}; the search adds or removes cubes within the caravan limit of "
            f"{host.caravan_limit} and moves counts between 1 and it)"
        )
    short = {request.card}  # versions still short of the band: the search goes on from them
    depth = 0
    for version in texts[direction]:
        picked = [s for s in search.screened[1:] if s["estimate_in_band"]]
        if version.edits > depth and len(picked) >= CONFIRM:
            break
        if version.edits > 1 and not short.intersection(version.parents):
            continue  # every way to it passes a version already in or past the band
        depth = version.edits
        entry = _measure(host, card_ids[version.text], plan, run, bases)
        search.screened.append({"card": version.text, "edits": version.edits, **entry})
        value = entry["owner"]["difference"]
        if (value > high) if direction == WEAKER else (value < low):
            short.add(version.text)
    picked = [s for s in search.screened[1:] if s["estimate_in_band"]]
    if not picked:
        tried = [
            f"{s['card']}: {100 * s['owner']['difference']:+.1f} points ({_edits(s['edits'])})"
            for s in search.screened
        ]
        raise TuneError(
            f"no version of {request.card} within {DEPTH} edits reaches the band "
            f"{_points(low)} to {_points(high)} at {plan.levels[0]} "
            f"(tried {len(search.screened) - 1} {_word(direction)} versions):",
            tried,
        )
    middle = (low + high) / 2
    picked.sort(key=lambda s: (s["edits"], abs(s["owner"]["difference"] - middle)))
    return picked[:CONFIRM]


def _confirm(
    host: Ruleset,
    asked: tuple[TuneRequest, Plan, list[dict[str, Any]]],
    card_ids: dict[str, str],
    found_bands: Mapping[str, tuple[float, float]],
    search: Search,
    run: tuple[int, ProgressFn | None],
) -> None:
    """Each chosen version at each named level on the fresh deals of the next seed, at
    alpha / (versions x levels); `asked`: the request, the screening plan, the versions."""
    request, screen, chosen = asked
    search.chosen = len(chosen)
    alpha = ALPHA / (len(chosen) * len(request.levels))
    bases: dict[str, Side] = {}
    for picked in chosen:
        levels = []
        for level in request.levels:
            plan = replace(
                screen,
                games=request.budget,
                levels=(level,),
                seed=screen.seed + 1,
                band=found_bands[level],
                alpha=alpha,
            )
            levels.append(_measure(host, card_ids[picked["card"]], plan, run, bases))
        search.confirmed.append(
            {
                "card": picked["card"],
                "edits": picked["edits"],
                "levels": levels,
                "proposed": all(entry["place"] == "inside" for entry in levels),
            }
        )


def _answer(
    request: TuneRequest,
    found_bands: Mapping[str, tuple[float, float]],
    source: str,
    screen: Plan,
    search: Search,
) -> dict[str, Any]:
    """The JSON-ready answer of a tune."""
    screened = sum(s["stop"]["games"] for s in search.screened)
    confirmed = sum(e["stop"]["games"] for c in search.confirmed for e in c["levels"])
    tests = search.chosen * len(request.levels)
    return {
        "tune_version": TUNE_VERSION,
        "game": request.game.id,
        "card": request.card,
        "levels": list(request.levels),
        "screen_level": SCREEN_LEVEL,
        "bands": {level: list(band) for level, band in found_bands.items()},
        "band_source": source,
        "budget": request.budget,
        "players": request.players,
        "seeds": {"screen": request.seed, "confirm": request.seed + 1},
        "screen_budget": screen.games,
        "alpha": {
            "total": ALPHA,
            "each": ALPHA / tests if tests else None,
            "versions": search.chosen,
            "levels": len(request.levels),
        },
        "screened": search.screened,
        "confirmed": search.confirmed,
        "proposals": [c["card"] for c in search.confirmed if c["proposed"]],
        "games": {"screen": screened, "confirm": confirmed, "total": screened + confirmed},
        "interrupted": search.interrupted,
    }


def _points(value: float) -> str:
    return f"{100 * value:+.1f}"


def _word(direction: int) -> str:
    return "weaker" if direction == WEAKER else "stronger"


def _edits(count: int) -> str:
    return f"{count} edit{'' if count == 1 else 's'}"
