"""Owner effects: what holding a card from the start is worth to the seat that holds it.

Game i is played twice on one deal with the same bot seeds: as dealt, and with seat
``i % players`` holding one more copy of the card from the start (`SimConfig.owned`). The
owning seat's paired change of win rate (with its 95% interval) and the change of game
length answer "is this card too strong?" causally, where the seat win rates of a card both
players can buy only measure who reaches it first. A card that is not in the game is added
to its merchant or point deck and taken out of every deal (`SimConfig.unseen`), so both
sides play the deals of the game without it. Each answer is measured at several skill
levels (one bot in every seat) and says whether it holds across them.

`reference_table` measures every merchant card of a game the same way, cached by content in
the user's cache folder (JSON only) so asking again is instant; `place` ranks a card in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from century.model.ruleset import Ruleset
from century.reports.report import value_line
from century.reports.verdicts import across, band, points, sign_verdict
from century.simulation.compare import paired_interval, row
from century.simulation.config import ProgressFn, SimConfig
from century.simulation.sequential import (
    ALPHA,
    Side,
    StopRule,
    stop_json,
    stop_line,
    watch,
    watched_row,
)
from century.simulation.simulate import check_config, iter_results

OWN_VERSION = 1
"""The version of owner-effect answers and of the cached reference tables."""

DEFAULT_LEVELS = ("greedy", "planner")
"""The skill levels an owner effect is measured at unless told: a weak and a strong bot."""

Run = tuple[list[int], list[int]]
"""The winners and the lengths (rounds) of a side's games, in game order."""


@dataclass(frozen=True)
class Plan:
    """What an owner-effect run plays: `games` deals of `players`, at each bot of `levels`
    (one bot in every seat), from `seed`; `unseen` is a card taken out of every deal."""

    games: int
    players: int
    levels: tuple[str, ...]
    seed: int = 0
    unseen: str | tuple[str, ...] = ""
    stop: StopRule | None = None
    """When each card's games at a level stop (`century.simulation.sequential`); None:
    after `games` games."""
    cluster: str | None = None
    """The Dask scheduler the games run on (None: this machine); the answers are the same."""
    band: tuple[float, float] | None = None
    """Stop each card's games once its interval lies wholly inside or outside this band."""
    alpha: float = ALPHA
    """The error rate of each card's always-valid interval (sequential plans)."""

    @property
    def rule(self) -> StopRule:
        """When a card's games at a level stop (`games` is their budget)."""
        rule = StopRule(self.games) if self.stop is None else replace(self.stop, budget=self.games)
        band = self.band if self.band is not None else rule.band
        return replace(rule, alpha=self.alpha, band=band)

    def config(self, level: str, owned: str = "") -> SimConfig:
        """The simulation of one side at `level`: as dealt, or with `owned` given."""
        bots = (level,) * self.players
        return SimConfig(self.games, self.players, bots, self.seed, owned=owned, unseen=self.unseen)

    def side(
        self,
        ruleset: Ruleset,
        level: str,
        owned: str = "",
        workers: int = 1,
        progress: ProgressFn | None = None,
        **changes: Any,
    ) -> Side:
        """The games of one side at `level` (`config`, changed by `changes`, e.g. a card
        placed in the row), played on demand here or on the plan's cluster."""
        config = replace(self.config(level, owned), **changes)
        keep = "row_taken" if config.row else ""  # who took a card placed in the row
        return Side(ruleset, config, workers, progress, cluster=self.cluster, keep=keep)

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "games": self.games,
            "players": self.players,
            "levels": list(self.levels),
            "seed": self.seed,
        }
        if self.rule.sequential:  # a fixed-size plan keeps the key of the tables before
            rule = self.rule
            found["stop"] = {"sure": rule.sure, "width": rule.width, "alpha": rule.alpha}
            if rule.band is not None:
                found["stop"]["band"] = list(rule.band)
        return found


def play_side(
    ruleset: Ruleset, config: SimConfig, workers: int = 1, progress: ProgressFn | None = None
) -> Run:
    """The winners and lengths of `config`'s games on `ruleset`."""
    check_config(ruleset, config)
    winners, rounds = [], []
    for result in iter_results(ruleset, config, workers, progress=progress):
        winners.append(result["winner"])
        rounds.append(result["rounds"])
    return winners, rounds


def owner_rows(base: Run, owned: Run, players: int) -> dict[str, dict[str, Any]]:
    """The paired effect of owning: the owning seat's win rate (game i's owner is seat
    ``i % players``) and the game length, owned side minus base side, with 95% intervals."""
    (wa, ra), (wb, rb) = base, owned
    n = len(wa)
    won_a = [int(w == i % players) for i, w in enumerate(wa)]
    won_b = [int(w == i % players) for i, w in enumerate(wb)]
    mean, half = paired_interval([b - a for a, b in zip(won_a, won_b, strict=True)])
    rate = sum(won_a) / n if n else 0.0
    owner = row("win rate of the owning seat", rate, rate + mean, mean, half)
    mean, half = paired_interval([b - a for a, b in zip(ra, rb, strict=True)])
    length = sum(ra) / n if n else 0.0
    rounds = row("game length (rounds, mean)", length, length + mean, mean, half)
    return {"owner": owner, "length": rounds}


def owner_effect(
    host: Ruleset,
    card: str,
    plan: Plan,
    workers: int = 1,
    progress: ProgressFn | None = None,
    bases: Mapping[str, Side] | None = None,
) -> dict[str, Any]:
    """Card `card` of `host` owned from the start, measured at every level of `plan`: the
    owning seat's paired change of win rate and of game length per level, and whether the
    answer holds across them. `bases` are base sides, played on as far as a card needs (by
    level). With a sequential plan each level stops on its own (`century.simulation.sequential`):
    its entry says after how many games and why, and its interval is always-valid."""
    levels: list[dict[str, Any]] = []
    players, rule = plan.players, plan.rule
    for level in plan.levels:
        base = (bases or {}).get(level) or plan.side(host, level, "", workers, progress)
        owned = plan.side(host, level, card, workers, progress)

        def owner_change(i: int, base: Side = base, owned: Side = owned) -> tuple[int]:
            seat = i % players
            return ((owned.winners[i] == seat) - (base.winners[i] == seat),)

        sequences, games, why = watch(base, owned, owner_change, 1, rule)
        rows = owner_rows(base.run(games), owned.run(games), players)
        if rule.sequential:
            rows["owner"] = watched_row(rows["owner"], sequences[0])
        levels.append({"bots": level, **rows, "stop": stop_json(rule, games, why)})
    return {
        "card": card,
        "levels": levels,
        "verdict": sign_verdict([level["owner"] for level in levels], plan.levels),
    }


def merchant_ids(ruleset: Ruleset) -> list[str]:
    """The distinct merchant cards of `ruleset`'s deck, in deck order."""
    return list(dict.fromkeys(card.id for card in ruleset.merchant_deck))


# -- the reference table ---------------------------------------------------------------------


def table_key(ruleset: Ruleset, plan: Plan) -> str:
    """The content key of `ruleset`'s reference table under `plan`: a digest of the game's
    data, the bots, the games and the seed (and of this code's version)."""
    from century.base.version import __version__

    content = {
        "version": OWN_VERSION,
        "century": __version__,
        "rules": ruleset.to_json(),
        "plan": plan.to_json(),
    }
    text = json.dumps(content, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def table_path(ruleset: Ruleset, plan: Plan) -> Path | None:
    """The cache file of `ruleset`'s reference table (None: no cache folder)."""
    from century.base.cache import cache_root

    root = cache_root()
    if root is None:
        return None
    return root / "owner-effects" / f"{ruleset.id}-{table_key(ruleset, plan)[:32]}.json"


def cached_table(ruleset: Ruleset, plan: Plan) -> dict[str, Any] | None:
    """The reference table of `ruleset` under `plan` if it was measured before (a file that
    cannot be read, or is not such a table, counts as none)."""
    path = table_path(ruleset, plan)
    if path is None:
        return None
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(table, dict) or table.get("key") != table_key(ruleset, plan):
        return None
    if not _well_formed(table, plan):
        return None
    return table if [c["card"] for c in table["cards"]] == merchant_ids(ruleset) else None


def _well_formed(table: Mapping[str, Any], plan: Plan) -> bool:
    """Whether a table read back has the shape `place` and the pages read (a cache file
    written by hand, or cut short, is measured again instead)."""
    try:
        for card in table["cards"]:
            if not isinstance(card["card"], str):
                return False
            if [level["bots"] for level in card["levels"]] != list(plan.levels):
                return False
            for level in card["levels"]:
                for key in ("owner", "length"):
                    low, high = level[key]["ci95"]
                    values = (level[key]["difference"], level[key]["a"], level[key]["b"], low, high)
                    if not all(isinstance(v, int | float) for v in values):
                        return False
    except (KeyError, TypeError, ValueError):
        return False
    return isinstance(table.get("plan"), dict)


def _store(path: Path, table: Mapping[str, Any]) -> None:
    """Write `table` to `path` atomically; a cache that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, suffix=".tmp", delete=False
        ) as tmp:
            json.dump(table, tmp, indent=1, sort_keys=True)
        os.replace(tmp.name, path)
    except OSError:
        return


def reference_table(
    ruleset: Ruleset,
    plan: Plan,
    workers: int = 1,
    progress: ProgressFn | None = None,
    cards: Iterable[str] | None = None,
) -> tuple[dict[str, Any], bool]:
    """Every merchant card of `ruleset`'s deck (or `cards`) owned from the start, at every
    level of `plan`, from the cache when measured before: (the table, whether it was
    cached). The base side of each level is played once for all cards."""
    chosen = list(cards) if cards is not None else merchant_ids(ruleset)
    if cards is None and (found := cached_table(ruleset, plan)) is not None:
        return found, True
    bases = {level: plan.side(ruleset, level, "", workers, progress) for level in plan.levels}
    rows = [owner_effect(ruleset, card, plan, workers, progress, bases) for card in chosen]
    fixed = plan.games * (len(chosen) + 1) * len(plan.levels)
    played = sum(len(side.winners) for side in bases.values())
    played += sum(level["stop"]["games"] for row in rows for level in row["levels"])
    table = {
        "own_version": OWN_VERSION,
        "key": table_key(ruleset, plan),
        "game": ruleset.id,
        "source_hash": ruleset.source_hash,
        "plan": plan.to_json(),
        "games": {"played": played, "fixed": fixed, "saved": fixed - played},
        "cards": rows,
    }
    if cards is None and (path := table_path(ruleset, plan)) is not None:
        _store(path, table)
    return table, False


@dataclass(frozen=True)
class Measurement:
    """Owner effects asked at every level of `plan`: of `cards` (ids of `host`, which is
    `base` or a variant holding cards written as data), and with `own_all` the reference
    table of `base`, `cached` when it was measured before (then not played again)."""

    base: Ruleset
    host: Ruleset
    cards: tuple[str, ...]
    own_all: bool
    plan: Plan
    cached: dict[str, Any] | None = None

    @property
    def games(self) -> int:
        """The most games `measure` plays at each level: the table's (its base side, then
        one per card) and the cards' (one base side for every card)."""
        games = self.plan.games
        measured = len(merchant_ids(self.base)) if self.own_all and self.cached is None else 0
        table_games = games * (measured + 1) if measured else 0
        return table_games + (games * (len(self.cards) + 1) if self.cards else 0)


@dataclass(frozen=True)
class Measured:
    """What `measure` found: the reference table (None if never measured), whether it came
    from the cache, and the answers (`owner_effect`), one per card."""

    table: dict[str, Any] | None
    cached: bool
    answers: list[dict[str, Any]]


def measurement(
    base: Ruleset, host: Ruleset, cards: Iterable[str], own_all: bool, plan: Plan
) -> Measurement:
    """The owner effects of `cards` in `host` (and the reference table of `base` with
    `own_all`), the table read from the cache if it was measured before."""
    cached = cached_table(base, replace(plan, unseen="")) if own_all else None
    return Measurement(base, host, tuple(cards), own_all, plan, cached)


def measure(asked: Measurement, workers: int = 1, progress: ProgressFn | None = None) -> Measured:
    """Play what `asked` asks (the reference table unless cached, then the cards' effects on
    one base side per level); the table is read from the cache when not asked for."""
    plan = asked.plan
    whole = replace(plan, unseen="")  # the reference table
    table, cached = asked.cached, asked.cached is not None
    if asked.own_all and table is None:
        table, cached = reference_table(asked.base, whole, workers, progress)
    bases = {lv: plan.side(asked.host, lv, "", workers, progress) for lv in plan.levels}
    answers = [owner_effect(asked.host, c, plan, workers, progress, bases) for c in asked.cards]
    if table is None:
        table = cached_table(asked.base, whole)
    return Measured(table, cached, answers)


def table_for(game: str, source_hash: str) -> dict[str, Any] | None:
    """The cached reference table of the game `game` whose sources hash to `source_hash`
    (the one of most games, then most levels; None when none was measured), for a balance
    report of that game."""
    from century.base.cache import cache_root

    root = cache_root()
    folder = root / "owner-effects" if root is not None else None
    if folder is None or not folder.is_dir():
        return None
    best: tuple[int, int] | None = None
    found = None
    for path in sorted(folder.glob("*.json")):
        try:
            table = json.loads(path.read_text(encoding="utf-8"))
            matches = (table["game"], table["source_hash"]) == (game, source_hash)
            rank = (int(table["plan"]["games"]), len(table["plan"]["levels"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if matches and table.get("own_version") == OWN_VERSION and (best is None or rank > best):
            best, found = rank, table
    return found


def place(effect: float, level: str, table: Mapping[str, Any], skip: str = "") -> dict[str, Any]:
    """Where an owner effect of `effect` (a win-rate change) stands among the table's cards
    at `level` (`skip`: the card itself): its rank, the cards stronger, the strongest."""
    known = []
    for card in table["cards"]:
        if card["card"] == skip:
            continue
        for entry in card["levels"]:
            if entry["bots"] == level:
                known.append((entry["owner"]["difference"], card["card"]))
    known.sort(reverse=True)
    stronger = sum(1 for value, _ in known if value > effect)
    best = known[0] if known else (0.0, "")
    return {
        "bots": level,
        "rank": stronger + 1,
        "of": len(known) + 1,
        "strongest": {"card": best[1], "difference": best[0]},
        "weakest": {"card": known[-1][1], "difference": known[-1][0]} if known else None,
    }


def placement_line(effect: float, placed: Mapping[str, Any], game: str) -> str:
    """A placement in words, e.g. ``+48 points, stronger than every card of The Game; the
    strongest today: +36 (its card id)``."""
    best = placed["strongest"]
    today = f"the strongest today: {points(best['difference'])} ({best['card']})"
    if placed["rank"] == 1:
        return f"{points(effect)}, stronger than every card of {game}; {today}"
    if placed["rank"] == placed["of"]:
        return f"{points(effect)}, weaker than every card of {game}; {today}"
    return f"{points(effect)}, rank {placed['rank']} of {placed['of']} in {game}; {today}"


def interval(entry: Mapping[str, Any]) -> str:
    """A win-rate change with its interval, e.g. ``+46.9 points [+43.7, +50.1]``."""
    lo, hi = entry["ci95"]
    mark = " *" if entry["significant"] else ""
    return f"{points(entry['difference'], 1)} [{100 * lo:+.1f}, {100 * hi:+.1f}]{mark}"


def rounds_interval(entry: Mapping[str, Any]) -> str:
    """A change of game length with its interval, e.g. ``-3.2 rounds [-3.5, -2.9]``."""
    lo, hi = entry["ci95"]
    mark = " *" if entry["significant"] else ""
    return f"{entry['difference']:+.1f} rounds [{lo:+.1f}, {hi:+.1f}]{mark}"


def own_report(
    game: Ruleset,
    host: Ruleset,
    card: str,
    written: str,
    plan: Plan,
    answer: Mapping[str, Any],
    table: Mapping[str, Any] | None,
    game_name: str,
) -> dict[str, Any]:
    """The JSON-ready report of an owner effect `answer` of `card` (as the user wrote it,
    `written`) played in `host` (`game`, or a variant of it with the card added): the value
    model of a point card, and for a merchant card its place at each level among the cards
    of the reference `table` when there is one, with the verdict against that band."""
    report: dict[str, Any] = {
        "own_version": OWN_VERSION,
        "game": game.id,
        "written": written,
        "plan": plan.to_json(),
        **answer,
        "value_model": value_model(host, card),
    }
    placements: dict[str, Any] = {}
    bands: dict[str, Any] = {}
    if table is not None and report["value_model"] is None:
        for entry in report["levels"]:
            level = entry["bots"]
            placements[level] = place(entry["owner"]["difference"], level, table, skip=card)
            bands[level] = band(entry["owner"], placements[level], game_name)
    report["placements"] = placements
    report["bands"] = bands
    report["band_verdict"] = across(bands, game_name) if len(bands) > 1 else None
    return report


# -- point cards: the value model --------------------------------------------------------------


def value_model(ruleset: Ruleset, card: str) -> dict[str, Any] | None:
    """A point card's points against the deck's value model (the `C309` check): its
    points, the model's value of its cost, and the points per cube value of the deck's
    cards; None for a merchant card."""
    found = next((c for c in ruleset.point_deck if c.id == card), None)
    if found is None:
        return None
    model = ruleset.point_card_value(found.cost)
    rates = sorted(
        c.points / v
        for c in ruleset.point_deck
        if c.id != card and (v := ruleset.point_card_value(c.cost))
    )
    return {
        "card": card,
        "points": found.points,
        "model": model,
        "per_value": round(found.points / model, 4) if model else None,
        "deck_per_value": [round(rates[0], 4), round(rates[-1], 4)] if rates else None,
        "strays": model != found.points,
    }


# -- the answer in words -----------------------------------------------------------------------


def own_lines(
    report: Mapping[str, Any],
    game_name: str,
    placements: Mapping[str, Mapping[str, Any]] | None = None,
    next_command: Callable[[], str] | None = None,
) -> list[str]:
    """An owner-effect answer as text: per level the owning seat's change and the change of
    length, where the card stands in the reference table, the verdict across levels."""
    plan = report["plan"]
    lines = [
        f"{report['game']}: one seat owning {report['written']} from the start "
        f"({'at most ' if 'stop' in plan else ''}{plan['games']} paired games per level, the "
        "owning seat alternating; owned minus as dealt, "
        f"{'always-valid ' if 'stop' in plan else ''}95% intervals; * significant):"
    ]
    for entry in report["levels"]:
        lines.append(
            f"  {entry['bots']}: owning seat {interval(entry['owner'])} "
            f"({100 * entry['owner']['a']:.1f}% → {100 * entry['owner']['b']:.1f}%); "
            f"game length {rounds_interval(entry['length'])}"
        )
        if "stop" in plan:
            lines.append(f"    {stop_line(entry['stop'])}")
        found = report.get("bands", {}).get(entry["bots"])
        if found:
            lines.append(f"    verdict: {found['line']}")
        elif placements and (placed := placements.get(entry["bots"])):
            line = placement_line(entry["owner"]["difference"], placed, game_name)
            lines.append(f"    {line}")
    if len(report["levels"]) > 1:
        lines.append(f"  across levels: {report.get('band_verdict') or report['verdict']}")
    elif not report.get("bands"):
        lines.append(f"  verdict: {report['verdict']}")
    if report.get("value_model"):
        lines.append(f"  {value_line(report['value_model'])}")
    if next_command is not None:
        lines.append(f"  {next_command()}")
    return lines


def table_lines(table: Mapping[str, Any], cached: bool) -> list[str]:
    """The reference table as text, strongest first at the first level; a sequential table
    gives each card's games at each level and the games saved against the fixed size."""
    plan = table["plan"]
    levels = plan["levels"]
    watched = "stop" in plan
    games = (
        f"at most {plan['games']} paired games per card and level, each stopping on its own "
        "when sure; always-valid 95% intervals"
        if watched
        else f"{plan['games']} paired games per card and level; 95% intervals"
    )
    head = (
        f"{table['game']}: owner effect of each merchant card ({games}; win-rate change of the "
        "owning seat, points)" + (" [cached]" if cached else "")
    )
    width = max((len(c["card"]) for c in table["cards"]), default=4)
    cell = 44 if watched else 32
    columns = "".join(f"  {lv:<{cell}}" for lv in levels)
    lines = [head, ("  " + "card".ljust(width) + columns).rstrip()]

    def first(card: Mapping[str, Any]) -> float:
        return float(-card["levels"][0]["owner"]["difference"])

    def shown(entry: Mapping[str, Any]) -> str:
        text = interval(entry["owner"])
        return f"{text} ({entry['stop']['games']} games)" if watched and "stop" in entry else text

    for card in sorted(table["cards"], key=lambda c: (first(c), c["card"])):
        cells = "".join(f"  {shown(e):<{cell}}" for e in card["levels"])
        lines.append(("  " + card["card"].ljust(width) + cells).rstrip())
    if watched and "games" in table:
        count = table["games"]
        lines.append(
            f"  games played: {count['played']:,} of the fixed table's {count['fixed']:,} "
            f"({count['saved']:,} saved, {100 * count['saved'] / max(count['fixed'], 1):.0f}%)"
        )
    return lines
