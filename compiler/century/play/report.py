"""The balance report of a simulation: a JSON document and an HTML page with inline SVG charts.

The HTML is self-contained (no scripts, fonts or images from the network). Every name from
the data is escaped, so a hostile card or game name stays text.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from markupsafe import Markup

from century.model.ruleset import Ruleset
from century.model.text import shown
from century.play.aggregate import Aggregate, CardTally
from century.play.compare import needed_line, sample_sizes, unpaired
from century.play.stats import Z95, newcombe, wilson

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
    players who had the card on offer and left it (Newcombe's 95% interval)."""
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
            d, lo, hi = newcombe(t.takers_won, t.takers, t.passers_won, t.passers)
            row["takers_vs_passers"] = {
                "difference": _r(d),
                "ci95": [_r(lo), _r(hi)],
                "significant": lo > 0 or hi < 0,
            }
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
    """The JSON-ready report of a simulation; `ladder` (see `century.play.ladder`) gives
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
    from century.play.bots import BOTS
    from century.play.ladder import strength

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


# -- SVG charts ---------------------------------------------------------------------------

_FONT = 'font-family="DejaVu Sans, Verdana, sans-serif" font-size="11"'
_PALETTE = ("#3b6ea8", "#d1843b", "#4f9a5a", "#b24a4a", "#7d5ba6", "#8c6d3f", "#c75d9c")


def _svg(width: int, height: int, body: list[str], title: str) -> Markup:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {_FONT}>'
        f"<title>{escape(title)}</title>"
    )
    return Markup(head + "".join(body) + "</svg>")


def _text(x: float, y: float, s: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {extra}>{escape(s)}</text>'


def win_rate_chart(seats: Sequence[Mapping[str, Any]], title: str = "Win rate per seat") -> Markup:
    """Horizontal bars of seat win rates with their 95% intervals as whiskers."""
    row, left, width = 26, 150, 300
    height = row * len(seats) + 40
    body = [_line(left, 8, left, height - 24, "#999")]
    for k in range(0, 101, 25):
        x = left + width * k / 100
        body.append(_line(x, height - 24, x, height - 20, "#999"))
        body.append(_text(x, height - 8, f"{k}%", "middle"))
    for i, s in enumerate(seats):
        y = 10 + i * row
        w = width * s["win_rate"]
        lo, hi = (left + width * v for v in s["ci95"])
        colour = _PALETTE[i % len(_PALETTE)]
        body.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="16" fill="{colour}"/>')
        body.append(_line(lo, y + 8, hi, y + 8, "#222"))
        body.append(_line(lo, y + 3, lo, y + 13, "#222"))
        body.append(_line(hi, y + 3, hi, y + 13, "#222"))
        body.append(_text(left - 6, y + 12, f"seat {s['seat']} ({s['bot']})", "end"))
        body.append(_text(hi + 6, y + 12, f"{100 * s['win_rate']:.1f}%"))
    return _svg(left + width + 70, height, body, title)


def _line(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="1.5"/>'
    )


def histogram_chart(hist: Mapping[str, int], title: str, colour: str = "#3b6ea8") -> Markup:
    """Vertical bars of an integer histogram (value -> count), binned when the range is wide."""
    if not hist:
        return _svg(300, 40, [_text(10, 24, f"{title}: no data")], title)
    counts = {int(v): n for v, n in hist.items()}
    lo, hi = min(counts), max(counts)
    width = max(1, math.ceil((hi - lo + 1) / 40))  # at most 40 bars
    bins: Counter = Counter()
    for v, n in counts.items():
        bins[lo + (v - lo) // width * width] += n
    starts = range(lo, hi + 1, width)
    plot_w, height, left, bottom, top_pad = 420, 170, 36, 24, 26
    bar = plot_w / len(starts)
    top = max(bins.values())
    body = [
        _text(left, 14, title, extra='font-weight="bold"'),
        _line(left, height - bottom, left + plot_w, height - bottom, "#999"),
        _text(left - 4, top_pad + 4, str(top), "end"),
    ]
    for i, start in enumerate(starts):
        count = bins.get(start, 0)
        h = (height - bottom - top_pad) * count / top
        label = str(start) if width == 1 else f"{start}-{start + width - 1}"
        body.append(
            f'<rect x="{left + i * bar + 0.5:.1f}" y="{height - bottom - h:.1f}" '
            f'width="{max(1.0, bar - 1):.1f}" height="{h:.1f}" fill="{colour}">'
            f"<title>{escape(label)}: {count}</title></rect>"
        )
    step = max(1, len(starts) // 10)
    for i in range(0, len(starts), step):
        body.append(_text(left + (i + 0.5) * bar, height - 8, str(starts[i]), "middle"))
    return _svg(left + plot_w + 10, height, body, title)


def card_chart(rows: Sequence[Mapping[str, Any]], title: str) -> Markup:
    """Per card: bars of takes per game and a dot for the win rate of the players taking it."""
    rows = [r for r in rows if r["taken"]] or list(rows)
    row, left, width = 18, 150, 260
    height = row * len(rows) + 44
    most = max((r["per_game"] for r in rows), default=0) or 1
    body = [
        _text(left, 12, "taken per game (bar)"),
        _text(left + width + 20, 12, "takers' win rate (dot, 95% CI)"),
    ]
    rate_left = left + width + 20
    for i, r in enumerate(rows):
        y = 20 + i * row
        w = width * r["per_game"] / most
        body.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="12" fill="#3b6ea8"/>')
        body.append(_text(left - 6, y + 10, r["name"], "end"))
        body.append(_text(left + w + 4, y + 10, f"{r['per_game']:.2f}", extra='fill="#555"'))
        if r["takers_win_rate"] is not None:
            lo, hi = (rate_left + 160 * v for v in r["takers_ci95"])
            x = rate_left + 160 * r["takers_win_rate"]
            body.append(_line(lo, y + 6, hi, y + 6, "#999"))
            body.append(f'<circle cx="{x:.1f}" cy="{y + 6}" r="4" fill="#d1843b"/>')
    for k in (0, 50, 100):
        x = rate_left + 160 * k / 100
        body.append(_line(x, 16, x, height - 22, "#ddd"))
        body.append(_text(x, height - 8, f"{k}%", "middle"))
    return _svg(rate_left + 180, height, body, title)


def coin_chart(coins: Sequence[Mapping[str, Any]], title: str = "Coin use") -> Markup:
    """Bars of the share of each coin pile taken."""
    row, left, width = 24, 120, 300
    height = row * len(coins) + 30
    body = []
    for i, c in enumerate(coins):
        y = 8 + i * row
        w = width * c["used_share"]
        body.append(f'<rect x="{left}" y="{y}" width="{width}" height="14" fill="#eee"/>')
        body.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="14" fill="#c9a227"/>')
        body.append(_text(left - 6, y + 11, c["name"], "end"))
        label = f"{100 * c['used_share']:.0f}% of {c['supply']} a game"
        body.append(_text(left + width + 6, y + 11, label))
    return _svg(left + width + 90, height, body, title)


# -- HTML -----------------------------------------------------------------------------------


def _charts(report: Mapping[str, Any]) -> dict[str, Markup | list[Markup]]:
    return {
        "seats": win_rate_chart(report["seats"]),
        "rounds": histogram_chart(report["rounds"].get("histogram", {}), "Game length in rounds"),
        "winner_score": histogram_chart(
            report["winner_score"].get("histogram", {}), "Winning score", "#4f9a5a"
        ),
        "margin": histogram_chart(
            report["margin"].get("histogram", {}), "Winning margin", "#7d5ba6"
        ),
        "scores": [
            histogram_chart(
                s["score"].get("histogram", {}),
                f"Scores of seat {s['seat']}",
                _PALETTE[i % len(_PALETTE)],
            )
            for i, s in enumerate(report["seats"])
        ],
        "point_cards": card_chart(report["point_cards"], "Point cards"),
        "merchant_cards": card_chart(report["merchant_cards"], "Merchant cards"),
        "coins": coin_chart(report["coins"]),
    }


def render_html(
    reports: Sequence[Mapping[str, Any]],
    differences: Sequence[Mapping[str, Any]] | None = None,
    paired_note: str = "",
    card_effects: Sequence[Mapping[str, Any]] = (),
) -> str:
    """One report, or several side by side (``--compare``), as a standalone HTML page; two
    are compared figure by figure with 95% intervals (`differences`, else those of two
    independent samples; `paired_note` says how paired ones were played); `card_effects`
    are cards' takers against the players who left them (`compare.buyers_against_passers`)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(Path(__file__).resolve().parent),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["zip"] = zip
    template = env.get_template("report.html.j2")
    if differences is None and len(reports) == 2:
        differences = unpaired(reports[0], reports[1])
    return template.render(
        reports=[{"r": r, "charts": _charts(r), "needed": sample_sizes(r)} for r in reports],
        differences=differences or [],
        paired_note=paired_note,
        card_effects=card_effects,
    )


def ruleset_label(ruleset: Ruleset) -> str:
    """A readable name for a ruleset in reports."""
    return shown(ruleset.name, REPORT_LANGUAGE, ruleset.id)
