"""A `century tune` answer in words (`tune_lines`) and as a standalone page (`tune_html`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PLACES = {
    "inside": "inside the band",
    "outside": "outside the band",
    "undecided": "undecided at the budget",
}


def _pts(value: float) -> str:
    return f"{100 * value:+.1f}"


def measured(entry: Mapping[str, Any]) -> str:
    """One measurement in words, e.g. ``+14.2 points [+9.0, +19.5], inside the band
    +10.0 to +20.0 (150 games)``."""
    lo, hi = entry["owner"]["ci95"]
    low, high = entry["band"]
    return (
        f"{_pts(entry['owner']['difference'])} points [{_pts(lo)}, {_pts(hi)}], "
        f"{PLACES[entry['place']]} {_pts(low)} to {_pts(high)} ({entry['stop']['games']} games)"
    )


def multiple_testing(answer: Mapping[str, Any]) -> str:
    """How the answer's error rate is held across the versions confirmed."""
    alpha = answer["alpha"]
    if alpha["each"] is None:
        return "no version was confirmed"
    versions, levels = alpha["versions"], alpha["levels"]
    return (
        f"each of the {versions * levels} confirming intervals is an always-valid "
        f"{100 * (1 - alpha['each']):.2f}% interval (5% split evenly across {versions} "
        f"versions x {levels} levels), so every proposal holds together with "
        "at least 95% confidence; screening picks the versions on other deals and claims nothing"
    )


def tune_lines(answer: Mapping[str, Any]) -> list[str]:
    """A tune answer as text: the band, the screened versions, the confirmed ones, the
    proposals, the games spent."""
    lines = [
        f"{answer['game']}: versions of {answer['card']} whose owner effect (the owning seat's "
        f"paired change of win rate) lies in the band ({answer['band_source']}):",
        f"  screened at {answer['screen_level']} on seed {answer['seeds']['screen']} "
        f"(at most {answer['screen_budget']} games each):",
    ]
    for entry in answer["screened"]:
        lines.append(f"    {entry['card']} ({_edits(entry['edits'])}): {measured(entry)}")
    if answer["confirmed"]:
        lines.append(
            f"  confirmed at {', '.join(answer['levels'])} on seed {answer['seeds']['confirm']} "
            f"(at most {answer['budget']} games each):"
        )
    for version in answer["confirmed"]:
        mark = "proposed" if version["proposed"] else "not proposed"
        lines.append(f"    {version['card']} ({_edits(version['edits'])}, {mark}):")
        for entry in version["levels"]:
            lines.append(f"      {entry['bots']}: {measured(entry)}")
    if answer["confirmed"]:
        lines.append(f"  multiple testing: {multiple_testing(answer)}")
    games = answer["games"]
    lines.append(
        f"  games: {games['total']:,} ({games['screen']:,} screening, "
        f"{games['confirm']:,} confirming)"
    )
    if answer["proposals"]:
        lines.append("  proposals: " + "; ".join(answer["proposals"]))
    elif not answer["interrupted"]:
        lines.append("  no proposal: no confirmed interval lies inside the band at every level")
        near = [
            version["card"]
            for version in answer["confirmed"]
            if all(e["place"] == "undecided" and e["estimate_in_band"] for e in version["levels"])
        ]
        if near:
            lines.append(
                "  undecided, estimated inside the band (a larger --budget may settle them): "
                + "; ".join(near)
            )
    return lines


def tune_html(game: str, answer: Mapping[str, Any]) -> str:
    """A tune answer as a standalone page."""
    from century.reports.report import _environment

    title = f"{game}: versions of {answer['card']} in the band"
    return (
        _environment()
        .get_template("tune.html.j2")
        .render(
            title=title,
            answer=answer,
            measured=measured,
            testing=multiple_testing(answer),
        )
    )


def _edits(count: int) -> str:
    return f"{count} edit{'' if count == 1 else 's'}"
