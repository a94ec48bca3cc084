"""The balance report of a simulation: a JSON document and an HTML page with inline SVG charts.

The HTML is self-contained (no scripts, fonts or images from the network). Every name from
the data is escaped, so a hostile card or game name stays text.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from century.base.resources import templates
from century.model.ruleset import Ruleset
from century.model.text import shown
from century.reports.charts import Series, bar_chart, histogram
from century.simulation.aggregate import Aggregate, CardTally
from century.simulation.compare import needed_line, sample_sizes, unpaired
from century.simulation.stats import MOMENTS, Z95, clustered_difference, holm, wilson

REPORT_LANGUAGE = "en"
"""The language of the report (its headings are English); names fall back per `shown`."""

REPORT_VERSION = 3


def _r(x: float) -> float:
    """Round for stable, readable JSON."""
    return round(x, 4)


def _dist(hist: Counter) -> dict[str, Any]:
    """Mean, standard deviation, quartiles and the histogram of integer observations."""
    n = sum(hist.values())
    if n == 0:
        return {"n": 0, "mean": 0.0, "sd": 0.0, "min": 0, "max": 0, "quartiles": [0, 0, 0]}
    mean = sum(v * c for v, c in hist.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in hist.items()) / n
    return {
        "n": n,
        "mean": _r(mean),
        "sd": _r(math.sqrt(var)),
        "min": min(hist),
        "max": max(hist),
        "quartiles": [_quantile(hist, q) for q in (0.25, 0.5, 0.75)],
        "histogram": {str(v): hist[v] for v in sorted(hist)},
    }


def _quantile(hist: Counter, q: float) -> int:
    n = sum(hist.values())
    rank, seen = q * (n - 1), 0
    for value in sorted(hist):
        seen += hist[value]
        if seen > rank:
            return value
    return max(hist)


def _card_rows(table: Mapping[str, CardTally], games: int, names: Mapping[str, str]) -> list:
    rows = []
    for card_id, t in sorted(table.items()):
        lo, hi = wilson(t.takers_won, t.takers)
        offers = sum(t.offers)
        rows.append(
            {
                "id": card_id,
                "name": names.get(card_id, card_id),
                "taken": t.taken,
                "per_game": _r(t.taken / games) if games else 0.0,
                "winners_share": _r(t.by_winner / t.taken) if t.taken else None,
                "takers": t.takers,
                "takers_won": t.takers_won,
                "takers_win_rate": _r(t.takers_won / t.takers) if t.takers else None,
                "takers_ci95": [_r(lo), _r(hi)],
                "passers": t.passers,
                "passers_won": t.passers_won,
                "passers_win_rate": _r(t.passers_won / t.passers) if t.passers else None,
                "offers": offers,
                "pick_rate": _r(t.taken / offers) if offers else None,
            }
        )
    return rows


def _merchant_rows(total: Aggregate, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The market's cards (never the starting cards, which are dealt, not bought): turns on
    offer and pick rate, by market slot too, and the takers' win rate against the matched
    players who had the card on offer and left it: a 95% interval taking each game as one
    unit (`stats.clustered_difference`), significant after Holm's correction for every card
    tested at once."""
    market = {c.id for c in total.ruleset.merchant_deck}
    table = {k: t for k, t in total.merchants.items() if k in market}
    rows = _card_rows(table, total.games, names)
    for row in rows:
        t = table[row["id"]]
        row["offers_by_slot"] = list(t.offers)
        row["taken_by_slot"] = list(t.taken_at) + [0] * (len(t.offers) - len(t.taken_at))
        row["pick_rate_by_slot"] = [
            _r(k / n) if n else None for k, n in zip(row["taken_by_slot"], t.offers, strict=False)
        ]
        row["takers_vs_passers"] = None
        if t.takers and t.passers:
            sums = dict(zip(MOMENTS, t.moments, strict=True))
            d, lo, hi, p = clustered_difference(sums, total.games)
            row["takers_vs_passers"] = {"difference": _r(d), "ci95": [_r(lo), _r(hi)], "p": p}
    tested = [row["takers_vs_passers"] for row in rows if row["takers_vs_passers"]]
    for found, significant in zip(tested, holm([f["p"] for f in tested]), strict=True):
        found["p"] = _r(found["p"])
        found["significant"] = significant
        found["tests"] = len(tested)
    return rows


def _point_rows(total: Aggregate) -> list[dict[str, Any]]:
    """The point cards: points per cube value of the cost (the ruleset's balance model),
    the takers' turns to pay, turns in the row and pick rate."""
    rs = total.ruleset
    rows = _card_rows(total.points, total.games, {})
    cards = {c.id: c for c in rs.point_deck}
    for row in rows:
        card, t = cards.get(row["id"]), total.points[row["id"]]
        value = sum(w * n for w, n in zip(rs.value_weights, card.cost, strict=True)) if card else 0
        row["points"] = card.points if card else None
        row["cube_value"] = value
        row["model_value"] = rs.point_card_value(card.cost) if card else None
        row["points_per_cube_value"] = _r(card.points / value) if card and value else None
        row["turns_to_pay"] = _r(t.turns_to_pay / t.taken) if t.taken else None
    return rows


def _game_quality(total: Aggregate) -> dict[str, Any]:
    """Lead changes per game and, per round, how often the one leader then won."""
    leader = []
    for number in sorted(total.led):
        games, won = total.led[number], total.led_won[number]
        lo, hi = wilson(won, games)
        leader.append(
            {
                "round": number,
                "games": games,
                "leader_won": won,
                "rate": _r(won / games),
                "ci95": [_r(lo), _r(hi)],
            }
        )
    return {"lead_changes": _dist(total.lead_changes), "leader_wins": leader}


def build_report(total: Aggregate, ladder: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready report of a simulation; `ladder` (see `century.simulation.ladder`) gives
    the bots' measured strength."""
    rs, cfg, games = total.ruleset, total.config, total.games
    fair = 1 / cfg.players
    seats = []
    for seat in range(cfg.players):
        lo, hi = wilson(total.wins[seat], games)
        rate = total.wins[seat] / games if games else 0.0
        seats.append(
            {
                "seat": seat + 1,
                "bot": "rotating" if cfg.rotate else cfg.bots[seat],
                "wins": total.wins[seat],
                "win_rate": _r(rate),
                "ci95": [_r(lo), _r(hi)],
                "advantage": _r(rate - fair),
                "advantage_ci95": [_r(lo - fair), _r(hi - fair)],
                "score": _dist(total.score_hist[seat]),
            }
        )
    merchant_names = {
        c.id: shown(c.name, REPORT_LANGUAGE, c.id) for c in (*rs.starting_cards, *rs.merchant_deck)
    }
    coins = []
    for coin in rs.coins:
        taken = total.coins_taken[coin.id]
        supply = coin.count(cfg.players) * games
        coins.append(
            {
                "id": coin.id,
                "name": shown(coin.name, REPORT_LANGUAGE, coin.id),
                "value": coin.value,
                "supply": coin.count(cfg.players),
                "taken_per_game": _r(taken / games) if games else 0.0,
                "used_share": _r(taken / supply) if supply else 0.0,
                "winners_share": _r(total.coins_by_winner[coin.id] / taken) if taken else None,
                "emptied_games": total.coins_emptied[coin.id],
            }
        )
    return {
        "report_version": REPORT_VERSION,
        "game": rs.id,
        "name": shown(rs.name, REPORT_LANGUAGE, rs.id),
        "source_hash": rs.source_hash,
        "config": {
            "games": cfg.games,
            "players": cfg.players,
            "bots": list(cfg.bots),
            "seed": cfg.seed,
            "rotate": cfg.rotate,
        },
        "results_digest": total.digest.hexdigest(),
        "seats": seats,
        "bots": bot_rows(total, ladder),
        "winner_score": _dist(total.winner_scores),
        "margin": _dist(total.margins),
        "rounds": {**_dist(total.rounds), "mean_ci95": _mean_interval(total.rounds)},
        "point_cards": _point_rows(total),
        "merchant_cards": _merchant_rows(total, merchant_names),
        "game_quality": _game_quality(total),
        "coins": coins,
        "games_needed": sample_sizes({"seats": seats}),
    }


def _mean_interval(hist: Counter) -> list[float]:
    """The 95% interval of the mean of integer observations (normal approximation)."""
    n = sum(hist.values())
    if n < 2:
        return [0.0, 0.0]
    mean = sum(v * c for v, c in hist.items()) / n
    sd = math.sqrt(sum(c * (v - mean) ** 2 for v, c in hist.items()) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return [_r(mean - half), _r(mean + half)]


def bot_rows(total: Aggregate, ladder: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The bots of a simulation: what each does, its wins here, and its strength measured
    by the bot ladder (None when no ladder of this game was found)."""
    from century.bots.registry import BOTS
    from century.simulation.ladder import strength

    rows = []
    for spec in dict.fromkeys(total.config.bots):
        seated = total.bot_seats[spec]
        rows.append(
            {
                "spec": spec,
                "summary": BOTS[spec.partition(":")[0]].summary,
                "seats": seated,
                "wins": total.bot_wins[spec],
                "win_rate_per_seat": _r(total.bot_wins[spec] / seated) if seated else 0.0,
                "strength": strength(dict(ladder), spec) if ladder else None,
            }
        )
    return rows


def seat_advantages(report: Mapping[str, Any]) -> list[str]:
    """Per seat, how far its win rate is from a fair share, with the 95% margin the sample
    leaves, e.g. ``seat 1 advantage: +3.1% ± 1.9%``, and the games a ±1% and ±2% answer
    needs."""
    lines = []
    for seat in report["seats"]:
        lo, hi = seat["advantage_ci95"]
        lines.append(
            f"seat {seat['seat']} advantage: {100 * seat['advantage']:+.1f}% "
            f"± {100 * (hi - lo) / 2:.1f}%"
        )
    return [*lines, needed_line(report)]


def to_json_bytes(report: Mapping[str, Any]) -> bytes:
    """The report as stable, pretty JSON."""
    return (json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


# -- charts ---------------------------------------------------------------------------------


def _cards(reports: Sequence[Mapping[str, Any]], section: str) -> list[str]:
    """The ids of a card section in the first report's order, then any only the other has."""
    return list(dict.fromkeys(c["id"] for r in reports for c in r[section]))


def _card_series(
    reports: Sequence[Mapping[str, Any]], section: str, ids: list[str], key: str
) -> list[Series]:
    series = []
    for r in reports:
        rows = {c["id"]: c for c in r[section]}
        series.append(Series(r["name"], [rows[i][key] if i in rows else None for i in ids]))
    return series


def charts(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The report's charts, each drawing every report (one, or the two compared) on one
    shared scale."""
    seats = [f"seat {s['seat']}" for s in reports[0]["seats"]]
    merchants, points = _cards(reports, "merchant_cards"), _cards(reports, "point_cards")
    names = {c["id"]: c["name"] for r in reports for c in r["merchant_cards"]}
    rounds = sorted({q["round"] for r in reports for q in r["game_quality"]["leader_wins"]})

    def leader(r: Mapping[str, Any]) -> Series:
        found = {q["round"]: q for q in r["game_quality"]["leader_wins"]}
        return Series(
            r["name"],
            [found[n]["rate"] if n in found else None for n in rounds],
            [found[n]["ci95"] if n in found else None for n in rounds],
        )

    def hist(key: str, title: str, axis: str) -> Markup:
        return histogram([(r["name"], r[key].get("histogram", {})) for r in reports], title, axis)

    return {
        "seats": bar_chart(
            seats,
            [
                Series(
                    r["name"], [s["win_rate"] for s in r["seats"]], [s["ci95"] for s in r["seats"]]
                )
                for r in reports
            ],
            "Win rate per seat",
            "win rate (95% Wilson interval)",
            "seat",
            top=1.0,
        ),
        "rounds": hist("rounds", "Game length in rounds", "rounds played"),
        "winner_score": hist("winner_score", "Winning score", "winner's score"),
        "margin": hist("margin", "Winning margin", "points ahead of the runner-up"),
        "scores": [
            histogram(
                [(r["name"], r["seats"][seat]["score"].get("histogram", {})) for r in reports],
                f"Scores of seat {seat + 1}",
                f"score of seat {seat + 1}",
            )
            for seat in range(len(seats))
        ],
        "lead_changes": histogram(
            [(r["name"], r["game_quality"]["lead_changes"].get("histogram", {})) for r in reports],
            "Lead changes per game",
            "lead changes in a game",
        ),
        "leader_wins": bar_chart(
            [f"round {n}" for n in rounds],
            [leader(r) for r in reports],
            "How often the leader after a round wins",
            "games the leader then won (95% interval)",
            "leader at the end of",
            top=1.0,
        ),
        "merchant_cards": bar_chart(
            [names.get(i, i) for i in merchants],
            _card_series(reports, "merchant_cards", merchants, "pick_rate"),
            "Merchant cards: pick rate given availability",
            "taken / turns on offer",
            "merchant card",
        ),
        "point_cards": bar_chart(
            points,
            _card_series(reports, "point_cards", points, "pick_rate"),
            "Point cards: pick rate given availability",
            "claimed / turns in the row",
            "point card",
        ),
        "coins": bar_chart(
            [c["name"] for c in reports[0]["coins"]],
            [Series(r["name"], [c["used_share"] for c in r["coins"]]) for r in reports],
            "Coin use",
            "share of the supply taken",
            "coin pile",
            top=1.0,
        ),
    }


# -- HTML -----------------------------------------------------------------------------------


def report_html(
    reports: Sequence[Mapping[str, Any]],
    differences: Sequence[Mapping[str, Any]] | None = None,
    paired_note: str = "",
    card_effects: Sequence[Mapping[str, Any]] = (),
    title: str = "",
    own_table: Mapping[str, Any] | None = None,
) -> str:
    """One report, or several side by side (``--compare``), as a standalone HTML page; two
    are compared figure by figure with 95% intervals (`differences`, else those of two
    independent samples; `paired_note` says how paired ones were played); `card_effects`
    are cards' takers against the players who left them (`compare.buyers_against_passers`);
    `title` names the page (an experiment names its change); `own_table` is the game's
    reference table of owner effects (`century.experiments.owner`), drawn as a chart."""
    env = _environment()
    env.globals["zip"] = zip
    env.filters["fig"] = figure
    template = env.get_template("report.html.j2")
    if differences is None and len(reports) == 2:
        differences = unpaired(reports[0], reports[1])
    return template.render(
        reports=[{"r": r, "needed": sample_sizes(r)} for r in reports],
        charts=charts(reports),
        differences=differences or [],
        paired_note=paired_note,
        card_effects=card_effects,
        title=title,
        own_table=own_table,
        own_chart=own_chart(own_table) if own_table else "",
    )


FIGURE_DECIMALS = 2
"""The decimals of every measured figure the HTML report prints that is not a percentage (a
mean, an interval, a spread): one precision throughout, as the differences are printed."""


def experiment_html(report: Mapping[str, Any], described: str, game: str, sequential: bool) -> str:
    """The page of a paired experiment (`century.experiments.changes`): both sides and
    their paired differences, its note saying how they were played (and why they stopped
    when a `sequential` rule watched them) and the change `described`, of the game named
    `game`."""
    from century.simulation.sequential import stop_line

    stopped = ""
    if sequential:
        stopped = (
            stop_line(report["stop"]).capitalize()
            + "; the seats' intervals hold however often they were looked at. "
        )
    note = (
        f"{stopped}The change: {described}. Both sides played the same "
        f"{report['config']['games']} seeds (game i of each dealt from one seed), so "
        "the intervals are those of paired differences, game by game. "
    )
    return report_html(
        [report["base"], report["changed"]],
        report["effects"],
        note,
        report["cards"],
        title=f"Experiment: {game}, {described}",
    )


def figure(value: Any) -> str:
    """A measured figure as the report prints it (``46.51``); a whole count stays whole and
    anything else (a dash for none) is printed as it is."""
    if isinstance(value, float):
        return f"{value:.{FIGURE_DECIMALS}f}"
    return str(value)


def ruleset_label(ruleset: Ruleset) -> str:
    """A readable name for a ruleset in reports."""
    return shown(ruleset.name, REPORT_LANGUAGE, ruleset.id)


def own_chart(table: Mapping[str, Any], rows: Sequence[Mapping[str, Any]] = ()) -> Markup:
    """A reference table of owner effects as a chart: one row per card (`rows`, else the
    table's cards, strongest first at the first level), a dot with its 95% interval per
    level."""
    from century.reports.charts import effect_chart

    rows = rows or _strongest_first(table)
    series = [
        Series(
            level,
            [c["levels"][i]["owner"]["difference"] for c in rows],
            [c["levels"][i]["owner"]["ci95"] for c in rows],
        )
        for i, level in enumerate(table["plan"]["levels"])
    ]
    return effect_chart(
        [c["card"] for c in rows],
        series,
        "Owner effect of each merchant card",
        "change of the owning seat's win rate, points (95% interval)",
        "card",
    )


def _strongest_first(table: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return sorted(table["cards"], key=lambda c: (-c["levels"][0]["owner"]["difference"], c["card"]))


def value_line(check: Mapping[str, Any]) -> str:
    """The value-model check in words."""
    text = (
        f"value model: point card {check['card']!r} gives {check['points']} points; "
        f"the deck's value model says {check['model']}"
    )
    low_high = check["deck_per_value"]
    if low_high:
        text += f" (points per cube value {check['per_value']:.2f}; the deck's other cards "
        text += f"{low_high[0]:.2f} to {low_high[1]:.2f})"
    return text + (" — warning C309" if check["strays"] else "")


def own_report_html(
    game: str, answer: Mapping[str, Any] | None, table: Mapping[str, Any] | None
) -> str:
    """An owner-effect answer and the game's reference table (either may be missing) as a
    standalone HTML page; the title names what was measured."""

    env = _environment()
    if answer is not None:
        title = f"{game}: what owning {_named(answer)} from the start is worth"
    else:
        title = f"{game}: what owning each merchant card from the start is worth"
    check = answer.get("value_model") if answer else None
    rows = _ranked_rows(table, answer) if table else []
    return env.get_template("own.html.j2").render(
        title=title,
        game=game,
        answer=answer,
        value_line=value_line(check) if check else "",
        table=table,
        rows=rows,
        chart=own_chart(table, rows) if table else "",
    )


def _named(answer: Mapping[str, Any]) -> str:
    """An owned card as the user wrote it, with its id when written as data."""
    written, card = answer["written"], answer.get("card", "")
    return written if not card or written.strip() == card else f"{card} = {written}"


def own_index_html(game: str, pages: Sequence[tuple[Mapping[str, Any], str]]) -> str:
    """The index of several owner-effect reports (each answer with its page's file name):
    per card its change at each level and its verdict, linked to its page."""
    rows = [
        {"name": _named(answer), "page": page, "answer": answer, "verdict": _verdict(answer)}
        for answer, page in pages
    ]
    title = f"{game}: what owning each of {len(rows)} cards from the start is worth"
    return _environment().get_template("own-index.html.j2").render(title=title, rows=rows)


def _verdict(answer: Mapping[str, Any]) -> str:
    """An owner-effect answer's verdict: against the band across levels, at its one level,
    or by its sign when it was not placed."""
    if answer.get("band_verdict"):
        return str(answer["band_verdict"])
    bands = answer.get("bands") or {}
    if len(bands) == 1:
        return str(next(iter(bands.values()))["line"])
    return str(answer["verdict"])


def versus_html(game: str, report: Mapping[str, Any]) -> str:
    """A versus answer (card A against card B on the same deals) as a standalone page:
    per level the owning seat's win rate with each, the paired difference, a chart."""
    from century.reports.charts import effect_chart

    levels = report["levels"]
    chart = effect_chart(
        [entry["bots"] for entry in levels],
        [
            Series(
                "B minus A",
                [entry["owner"]["difference"] for entry in levels],
                [entry["owner"]["ci95"] for entry in levels],
            )
        ],
        "Card B against card A, owned from the start",
        "change of the owning seat's win rate, B minus A, points (95% interval)",
        "bots",
    )
    written = report["written"]
    title = f"{game}: {written['b']} against {written['a']} owned from the start"
    return (
        _environment()
        .get_template("versus.html.j2")
        .render(title=title, report=report, chart=chart)
    )


def row_html(game: str, report: Mapping[str, Any]) -> str:
    """A row answer (a card placed in the merchant row against the same deals without it)
    as a standalone page."""
    title = f"{game}: {report['written']} in the merchant row at slot {report['slot']}"
    return _environment().get_template("row.html.j2").render(title=title, report=report)


MEASURED = "{card} (this card)"
"""The label of the measured card among the table's cards it is ranked in."""


def _ranked_rows(
    table: Mapping[str, Any], answer: Mapping[str, Any] | None
) -> list[Mapping[str, Any]]:
    """The table's cards strongest first, with the measured card of `answer` among them
    (in place of the table's entry of the same id) when the answer was placed in it."""
    if not answer or not answer.get("placements"):
        return _strongest_first(table)
    by_level = {entry["bots"]: entry for entry in answer["levels"]}
    levels = table["plan"]["levels"]
    if not all(level in by_level for level in levels):
        return _strongest_first(table)
    mine = {
        "card": MEASURED.format(card=answer["card"]),
        "levels": [by_level[level] for level in levels],
        "measured": True,
    }
    others = [c for c in table["cards"] if c["card"] != answer["card"]]
    return _strongest_first({"cards": [*others, mine]})


def _environment() -> Any:
    """The Jinja environment of the report templates beside this module (HTML-escaped)."""
    return templates(__name__.rpartition(".")[0], html=True)


def own_pages(
    game: str,
    reports: Sequence[Mapping[str, Any]],
    files: Sequence[Sequence[str]],
    table: Mapping[str, Any] | None,
    index: bool,
) -> dict[str, bytes]:
    """The files of owner-effect reports of the game named `game`: each report's JSON and
    page (named by `files`, pair by pair), the reference table's JSON when there is one, a
    page of the table alone when no card was asked for, and with `index` a page of them all."""
    outputs: dict[str, bytes] = {}
    if table is not None:
        outputs["reference.json"] = to_json_bytes(table)
    for report, (json_name, html_name) in zip(reports, files, strict=False):
        outputs[json_name] = to_json_bytes(report)
        outputs[html_name] = own_report_html(game, report, table).encode()
    if not reports:
        outputs["own.html"] = own_report_html(game, None, table).encode()
    if index:
        pages = [(report, pair[1]) for report, pair in zip(reports, files, strict=True)]
        outputs["index.html"] = own_index_html(game, pages).encode()
    return outputs
