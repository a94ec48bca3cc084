"""The bot ladder: every bot against every other, so that a designer knows which bot to trust.

A pairing plays one bot (the row's) against another (the column's) in seeded games: with
two players one game each way round, seats alternating; with more, the row's bot takes one
seat (moving on from game to game) and the column's bot every other. Each bot also plays
itself, for the length of its games. The ladder is written as JSON beside the balance
report of the game, which then names each bot's measured strength.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from century.model.ruleset import Ruleset
from century.simulation.config import ProgressFn, SimConfig, derive_seed
from century.simulation.simulate import iter_results
from century.simulation.stats import wilson

LADDER_VERSION = 1
LADDER_FILE = "ladder.json"


@dataclass(frozen=True)
class Pairing:
    """The games of one bot (`bot`) against another (`against`; itself on the diagonal)."""

    bot: str
    against: str
    games: int
    wins: int  # games the row's bot won (with itself: the bot in the first seat)
    rounds: int  # rounds summed over the games

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "bot": self.bot,
            "against": self.against,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "rounds": round(self.mean_rounds, 2),
        }


def default_bots() -> list[str]:
    """The bots `century bots` ranks unless told which: every bot fast enough for large runs
    (`BotKind.auto`), weakest first. The expert, whose games take seconds each, only on
    request: with it a ladder of a hundred games per pairing takes half an hour."""
    from century.bots.registry import BOTS, STRONGEST_FIRST

    return [spec for spec in STRONGEST_FIRST[::-1] if BOTS[spec].auto]


def ladder_bots(names: str, expert: bool) -> list[str]:
    """The bots a ladder ranks: those named (comma-separated; the default bots if none), the
    expert added with `expert`. A `ValueError` says why a name is refused."""
    from century.bots.registry import BOTS, check_spec

    specs = [s.strip() for s in names.split(",") if s.strip()] or default_bots()
    if expert and not any(spec.partition(":")[0] == "expert" for spec in specs):
        specs.append("expert")
    for spec in specs:
        check_spec(spec)
    if len(set(specs)) != len(specs) or len(specs) < 2:
        raise ValueError(f"--bots names two or more different bots (known: {', '.join(BOTS)})")
    return specs


def pairings(bots: Sequence[str], players: int) -> list[tuple[str, str]]:
    """The pairings to play: with two players each pair once (the other way round is its
    complement), with more each ordered pair; then each bot with itself (only the length
    of its games), so that a ladder stopped early has ranked what it could."""
    found = []
    for i, bot in enumerate(bots):
        for j, other in enumerate(bots):
            if i != j and (players > 2 or i < j):
                found.append((bot, other))
    return found + [(bot, bot) for bot in bots]


class LadderRun:
    """A ladder being played: the pairings finished so far (`played`) and the games of the
    one under way (`current`), so that a run stopped midway keeps what it played."""

    def __init__(
        self, ruleset: Ruleset, bots: Sequence[str], players: int, games: int, seed: int = 0
    ) -> None:
        self.ruleset, self.bots, self.players = ruleset, list(bots), players
        self.games, self.seed = games, seed
        self.order = pairings(bots, players)
        self.played: list[Pairing] = []
        self.current: Pairing | None = None

    def play(
        self,
        workers: int = 1,
        progress: ProgressFn | None = None,
        done: Callable[[Pairing], None] | None = None,
    ) -> None:
        """Play every pairing not finished yet, telling `progress` of every game and `done`
        of every pairing finished (its row's side)."""
        players, games = self.players, self.games
        for bot, other in self.order[self.finished :]:
            config = SimConfig(
                games,
                players,
                (bot,) + (other,) * (players - 1),
                derive_seed(self.seed, bot, other),
                True,
            )
            wins = rounds = 0
            self.current = Pairing(bot, other, 0, 0, 0)
            results = iter_results(self.ruleset, config, workers, progress=progress, chunk=1)
            for played, result in enumerate(results, 1):
                if bot == other:
                    wins += result["winner"] == 0
                else:
                    wins += result["bots"][result["winner"]] == bot
                rounds += result["rounds"]
                self.current = Pairing(bot, other, played, wins, rounds)
            finished = self.current
            self.played = self.played + _both_ways(finished, players)
            self.current = None
            if done:
                done(finished)

    @property
    def finished(self) -> int:
        """The pairings finished, of `len(self.order)` (played in order)."""
        played = {(p.bot, p.against) for p in self.played}
        return sum(pair in played for pair in self.order)

    @property
    def complete(self) -> bool:
        return self.finished == len(self.order)

    def data(self) -> dict[str, Any]:
        """The ladder as JSON-ready data: every pairing finished, and of a run stopped midway
        the games of the pairing under way too (`complete` false, `stopped_in` naming it)."""
        played = list(self.played)
        current = self.current
        partial = (
            current is not None
            and current.games > 0
            and all((p.bot, p.against) != (current.bot, current.against) for p in played)
        )
        if partial and current is not None:
            played += _both_ways(current, self.players)
        data: dict[str, Any] = {
            "ladder_version": LADDER_VERSION,
            "game": self.ruleset.id,
            "source_hash": self.ruleset.source_hash,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "pairings": [p.to_json() for p in played],
            "ranking": ranking(played, self.bots, self.players),
            "complete": self.complete,
        }
        if not self.complete:
            data["pairings_finished"] = [self.finished, len(self.order)]
            if partial and current is not None:
                data["stopped_in"] = {
                    "bot": current.bot,
                    "against": current.against,
                    "games": current.games,
                }
        return data


def _both_ways(pairing: Pairing, players: int) -> list[Pairing]:
    """A pairing and, with two players, its complement (the column's bot's side)."""
    if players != 2 or pairing.bot == pairing.against:
        return [pairing]
    flipped = Pairing(
        pairing.against,
        pairing.bot,
        pairing.games,
        pairing.games - pairing.wins,
        pairing.rounds,
    )
    return [pairing, flipped]


def run_ladder(
    ruleset: Ruleset,
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Play every pairing and return the ladder as JSON-ready data."""
    run = LadderRun(ruleset, bots, players, games, seed)
    run.play(workers, progress)
    return run.data()


def play(
    run: LadderRun,
    workers: int = 1,
    progress: ProgressFn | None = None,
    done: Callable[[Pairing], None] | None = None,
) -> bool:
    """Play `run` (`LadderRun.play`); whether Ctrl-C stopped it after some games, the
    pairings played and the one under way kept in `run`. Ctrl-C before any game is raised
    again: there is nothing to keep."""
    try:
        run.play(workers, progress, done)
    except KeyboardInterrupt:
        if not run.played and not (run.current and run.current.games):
            raise
        return True
    return False


def pairing_costs(run: LadderRun, timing: Callable[[str], None] | None = None) -> list[float]:
    """Each pairing's cost per game, in the ladder's order: the mean of its seats' bots'
    seconds per game, measured here on a couple of games each (bots differ a hundredfold);
    `timing` is told which bot is timed."""
    from century.simulation.simulate import seconds_per_game

    cost = {}
    for spec in run.bots:
        if timing is not None:
            timing(spec)
        cost[spec] = seconds_per_game(run.ruleset, spec, run.players)
    players = run.players
    return [(cost[bot] + (players - 1) * cost[other]) / players for bot, other in run.order]


def ranking(played: Sequence[Pairing], bots: Sequence[str], players: int) -> list[dict[str, Any]]:
    """The bots by their mean win rate against the others, strongest first (a bot that has
    played no other, in a ladder stopped early, is not ranked)."""
    rows: list[dict[str, Any]] = []
    for bot in bots:
        rates = [p.win_rate for p in played if p.bot == bot and p.against != bot]
        if rates:
            rows.append({"bot": bot, "mean_win_rate": round(sum(rates) / len(rates), 4)})
    rows.sort(key=lambda row: -row["mean_win_rate"])
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def cell(ladder: dict[str, Any], bot: str, against: str) -> dict[str, Any] | None:
    """The pairing of `bot` against `against` in a ladder, if it was played."""
    for pairing in ladder["pairings"]:
        if pairing["bot"] == bot and pairing["against"] == against:
            return pairing
    return None


def format_ladder(ladder: dict[str, Any]) -> str:
    """The win matrix as text: the row's bot's win rate against the column's with its 95%
    interval, and the mean rounds of their games."""
    bots = ladder["bots"]
    width = max(16, *(len(b) + 2 for b in bots))
    seats = "seats alternating" if ladder["players"] == 2 else "the row's bot in one seat, moving"
    lines = [
        f"Bot ladder for {ladder['game']}: {ladder['players']} players, {ladder['games']} games "
        f"per pairing, {seats} (seed {ladder['seed']}).",
        "Each cell: how often the row's bot wins against the column's, with its 95% interval,",
        "and the mean rounds of their games (on the diagonal: the bot against itself).",
        "",
        " " * width + "".join(f"{b:<{width}}" for b in bots),
    ]
    for bot in bots:
        rates, lengths = [], []
        for other in bots:
            found = cell(ladder, bot, other)
            if found is None:
                rates.append("")
                lengths.append("")
                continue
            lo, hi = found["ci95"]
            rate = (
                "-"
                if bot == other
                else f"{100 * found['win_rate']:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]"
            )
            rates.append(rate)
            lengths.append(f"{found['rounds']:.1f} rounds")
        lines.append(f"{bot:<{width}}" + "".join(f"{r:<{width}}" for r in rates))
        lines.append(" " * width + "".join(f"{r:<{width}}" for r in lengths))
    order = ", ".join(
        f"{row['bot']} ({100 * row['mean_win_rate']:.0f}%)" for row in ladder["ranking"]
    )
    lines += ["", f"Strongest first (mean win rate against the others): {order or 'none yet'}"]
    if not ladder.get("complete", True):
        finished, of = ladder["pairings_finished"]
        stopped = f"Stopped: {finished} of {of} pairings finished"
        partial = ladder.get("stopped_in")
        if partial:
            stopped += (
                f"; {partial['bot']} against {partial['against']} after {partial['games']} of "
                f"{ladder['games']} games (its cells count those)"
            )
        lines.append(stopped + ".")
    return "\n".join(lines)


def pairing_line(pairing: Pairing) -> str:
    """One finished pairing in a line, as a ladder run tells it."""
    rounds = f"{pairing.mean_rounds:.1f} rounds"
    if pairing.bot == pairing.against:
        return f"{pairing.bot} against itself: {pairing.games} games, {rounds}"
    lo, hi = wilson(pairing.wins, pairing.games)
    return (
        f"{pairing.bot} against {pairing.against}: {pairing.bot} won {pairing.wins} of "
        f"{pairing.games}, {100 * pairing.win_rate:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}], "
        f"{rounds}"
    )


def read_ladder(folder: Path, ruleset: Ruleset, players: int) -> dict[str, Any] | None:
    """The ladder saved in `folder` for this game (same rules data) and player count; None
    for none, or for a ladder of another version, game or shape: the report then says the
    bots were not measured. A file that cannot be read as JSON within the caps of
    `century.base.inputs` (a FIFO, too large, too deep, not JSON) raises `DiagnosticError`."""
    from century.base.inputs import read_json
    from century.base.limits import MAX_REPORT_BYTES

    path = folder / LADDER_FILE
    if not os.path.lexists(path):
        return None
    ladder = read_json(path, str(path), MAX_REPORT_BYTES)
    if (
        not isinstance(ladder, dict)
        or ladder.get("ladder_version") != LADDER_VERSION
        or ladder.get("source_hash") != ruleset.source_hash
        or ladder.get("players") != players
        or not _well_formed(ladder)
    ):
        return None
    return ladder


def _well_formed(ladder: dict[str, Any]) -> bool:
    """Whether a ladder read from a file has every field `strength` reads, of its type."""

    def number(value: Any) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)

    def row(entry: Any) -> bool:
        return (
            isinstance(entry, dict)
            and isinstance(entry.get("bot"), str)
            and isinstance(entry.get("rank"), int)
            and number(entry.get("mean_win_rate"))
        )

    def pairing(entry: Any) -> bool:
        ci95 = entry.get("ci95") if isinstance(entry, dict) else None
        return (
            isinstance(entry, dict)
            and isinstance(entry.get("bot"), str)
            and isinstance(entry.get("against"), str)
            and isinstance(entry.get("games"), int)
            and number(entry.get("win_rate"))
            and isinstance(ci95, list)
            and len(ci95) == 2
            and all(map(number, ci95))
        )

    ranking, pairings = ladder.get("ranking"), ladder.get("pairings")
    return (
        isinstance(ladder.get("games"), int)
        and isinstance(ranking, list)
        and all(map(row, ranking))
        and isinstance(pairings, list)
        and all(map(pairing, pairings))
    )


def strength(ladder: dict[str, Any] | None, bot: str) -> dict[str, Any] | None:
    """A bot's measured strength in a ladder: its rank and win rates against the others."""
    if ladder is None:
        return None
    rank = next((row for row in ladder["ranking"] if row["bot"] == bot), None)
    if rank is None:
        return None
    against = {
        p["against"]: {"win_rate": p["win_rate"], "ci95": p["ci95"], "games": p["games"]}
        for p in ladder["pairings"]
        if p["bot"] == bot and p["against"] != bot
    }
    return {
        "rank": rank["rank"],
        "of": len(ladder["ranking"]),
        "mean_win_rate": rank["mean_win_rate"],
        "against": against,
        "games_per_pairing": ladder["games"],
    }
