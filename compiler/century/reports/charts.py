"""The SVG charts of the balance report: grouped horizontal bars and histograms, each with
titles on both axes and, when two reports are compared, both sides overlaid on one shared
scale in two colours with a legend.

A chart's `Series` are the sides (one report, or the two of ``--compare``). Names from the
data are escaped, and long ones shortened (the full name stays in a tooltip).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

FONT = 'font-family="DejaVu Sans, Verdana, sans-serif" font-size="11"'
PALETTE = ("#3b6ea8", "#d1843b", "#4f9a5a", "#b24a4a", "#7d5ba6", "#8c6d3f", "#c75d9c")
LABEL_CHARS = 20
"""Category labels longer than this are shortened with an ellipsis."""
CHAR_WIDTH = 6.5
"""The width of one character of the chart font, in pixels (for laying out labels)."""


@dataclass(frozen=True)
class Series:
    """One side of a chart: its name in the legend and a value (None: no data) per
    category, with optional 95% intervals drawn as whiskers."""

    name: str
    values: Sequence[float | None]
    intervals: Sequence[Sequence[float] | None] = ()


def svg(width: float, height: float, body: list[str], title: str) -> Markup:
    """A standalone SVG element with an accessible title."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{escape(title)}" '
        f"{FONT}><title>{escape(title)}</title>"
    )
    return Markup(head + "".join(body) + "</svg>")


def text(x: float, y: float, s: str, anchor: str = "start", extra: str = "") -> str:
    """A text element (escaped)."""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {extra}>{escape(s)}</text>'


def line(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    """A line element."""
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="1.5"/>'
    )


def short(label: str, chars: int = LABEL_CHARS) -> str:
    """`label`, cut to `chars` characters with an ellipsis when longer."""
    return label if len(label) <= chars else label[: chars - 1] + "…"


def percent(v: float) -> str:
    """A share as a percentage, with a decimal only where a tick needs one (2.5%)."""
    value = 100 * v
    return f"{value:.0f}%" if abs(value - round(value)) < 1e-9 else f"{value:.1f}%"


def points(v: float) -> str:
    """A change of a share in percentage points, signed (``+12``)."""
    value = 100 * v
    if abs(value) < 1e-9:
        return "0"
    return f"{value:+.0f}" if abs(value - round(value)) < 1e-9 else f"{value:+.1f}"


def _ticks(top: float, fmt: Callable[[float], str]) -> list[tuple[float, str]]:
    """About five round ticks from 0 to `top`."""
    if top <= 0:
        return [(0.0, fmt(0.0))]
    raw = top / 4
    step = 10 ** math.floor(math.log10(raw))
    step = next(m * step for m in (1, 2, 2.5, 5, 10) if m * step >= raw)
    return [(k * step, fmt(k * step)) for k in range(int(top / step + 1e-9) + 1)]


def _legend(series: Sequence[Series], x: float, y: float) -> list[str]:
    """Swatches and names of the sides (none for one side)."""
    if len(series) < 2:
        return []
    body = []
    for i, s in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        body.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{colour}"/>')
        body.append(text(x + 14, y, short(s.name, 40)))
        x += 24 + CHAR_WIDTH * len(short(s.name, 40))
    return body


def _legend_width(series: Sequence[Series]) -> float:
    if len(series) < 2:
        return 0.0
    return sum(24 + CHAR_WIDTH * len(short(s.name, 40)) for s in series)


def bar_chart(
    labels: Sequence[str],
    series: Sequence[Series],
    title: str,
    value_axis: str,
    category_axis: str,
    top: float | None = None,
    fmt: Callable[[float], str] = percent,
) -> Markup:
    """Horizontal bars, one group per category (`labels`) and one bar per side in the
    group, on one value scale from 0 to `top` (default: the largest value or interval)."""
    found = [v for s in series for v in s.values if v is not None]
    found += [iv[1] for s in series for iv in s.intervals if iv]
    top = top or max(found, default=0) or 1.0
    bar, gap = 12, 6
    group = bar * len(series) + gap
    names = [short(label) for label in labels]
    left = 34 + CHAR_WIDTH * max((len(n) for n in names), default=4)
    plot_w, top_pad = 320, 30 if len(series) > 1 else 12
    plot_h = group * len(labels)
    height = top_pad + plot_h + 44
    body = _legend(series, left, 14)
    x_of = lambda v: left + plot_w * min(v, top) / top  # noqa: E731
    for value, label in _ticks(top, fmt):
        x = x_of(value)
        body.append(line(x, top_pad, x, top_pad + plot_h, "#e4e4e4"))
        body.append(text(x, top_pad + plot_h + 14, label, "middle"))
    body.append(line(left, top_pad, left, top_pad + plot_h, "#999"))
    body += _axis_titles(
        left + plot_w / 2, height - 8, top_pad + plot_h / 2, value_axis, category_axis
    )
    for g, (label, name) in enumerate(zip(labels, names, strict=True)):
        y0 = top_pad + g * group + gap / 2
        body.append(
            f'<text x="{left - 6:.1f}" y="{y0 + group / 2:.1f}" text-anchor="end">'
            f"<title>{escape(label)}</title>{escape(name)}</text>"
        )
        for i, s in enumerate(series):
            found_value, y = s.values[g], y0 + i * bar
            if found_value is None:
                continue
            value = found_value
            colour = PALETTE[i % len(PALETTE)]
            body.append(
                f'<rect x="{left}" y="{y:.1f}" width="{x_of(value) - left:.1f}" '
                f'height="{bar - 2}" fill="{colour}"><title>{escape(s.name)}, '
                f"{escape(label)}: {escape(fmt(value))}</title></rect>"
            )
            interval = s.intervals[g] if g < len(s.intervals) else None
            if interval:
                lo, hi = x_of(interval[0]), x_of(interval[1])
                mid = y + (bar - 2) / 2
                body += [line(lo, mid, hi, mid, "#222"), line(lo, mid - 3, lo, mid + 3, "#222")]
                body.append(line(hi, mid - 3, hi, mid + 3, "#222"))
    return svg(max(left + plot_w + 30, left + _legend_width(series)), height, body, title)


def histogram(
    hists: Sequence[tuple[str, Mapping[str, int]]],
    title: str,
    value_axis: str,
) -> Markup:
    """Vertical bars of integer histograms (value -> count), binned when the range is wide;
    several sides are overlaid as neighbouring bars, as shares of their games (so sides of
    different sizes share one scale), a single one as counts."""
    counts = [{int(v): n for v, n in h.items()} for _, h in hists]
    values = [v for c in counts for v in c]
    if not values:
        return svg(300, 40, [text(10, 24, f"{title}: no data")], title)
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / 40))  # at most 40 groups
    starts = range(lo, hi + 1, width)
    shares = len(hists) > 1
    binned = []
    for c in counts:
        total = sum(c.values()) or 1
        bins: dict[int, float] = {}
        for v, n in c.items():
            start = lo + (v - lo) // width * width
            bins[start] = bins.get(start, 0) + (n / total if shares else n)
        binned.append(bins)
    top = max(max(b.values(), default=0) for b in binned) or 1
    fmt = percent if shares else (lambda v: f"{v:.0f}")
    left, plot_w, plot_h, top_pad = 56, 420, 120, 30 if shares else 12
    height = top_pad + plot_h + 44
    group = plot_w / len(starts)
    bar = max(1.0, (group - 1) / len(hists))
    sides = [Series(name, ()) for name, _ in hists]
    body = _legend(sides, left, 14)
    for value, label in _ticks(top, fmt):
        y = top_pad + plot_h - plot_h * value / top
        body.append(line(left - 3, y, left + plot_w, y, "#eee"))
        body.append(text(left - 5, y + 4, label, "end"))
    base = top_pad + plot_h
    body.append(line(left, base, left + plot_w, base, "#999"))
    for i, start in enumerate(starts):
        label = str(start) if width == 1 else f"{start}-{start + width - 1}"
        for k, bins in enumerate(binned):
            share = bins.get(start, 0.0)
            h = plot_h * share / top
            body.append(
                f'<rect x="{left + i * group + k * bar:.1f}" y="{base - h:.1f}" '
                f'width="{bar:.1f}" height="{h:.1f}" fill="{PALETTE[k % len(PALETTE)]}">'
                f"<title>{escape(hists[k][0])}, {escape(label)}: "
                f"{escape(fmt(share))}</title></rect>"
            )
    step = max(1, math.ceil(len(starts) / 10))
    for i in range(0, len(starts), step):
        body.append(text(left + (i + 0.5) * group, base + 14, str(starts[i]), "middle"))
    axis = "share of games" if shares else "games"
    body += _axis_titles(left + plot_w / 2, height - 8, top_pad + plot_h / 2, value_axis, axis)
    return svg(max(left + plot_w + 10, left + _legend_width(sides)), height, body, title)


def effect_chart(
    labels: Sequence[str],
    series: Sequence[Series],
    title: str,
    value_axis: str,
    category_axis: str,
    fmt: Callable[[float], str] = points,
) -> Markup:
    """Signed effects with their 95% intervals: one row per category (`labels`), a dot and
    whiskers per side, on one scale through zero (a line marks zero)."""
    found = [v for s in series for v in s.values if v is not None]
    found += [b for s in series for iv in s.intervals if iv for b in iv]
    low, high = min([0.0, *found]), max([0.0, *found])
    span = (high - low) or 1.0
    step = 10 ** math.floor(math.log10(span / 4))
    step = next(m * step for m in (1, 2, 2.5, 5, 10) if m * step >= span / 4)
    first, last = math.floor(low / step - 1e-9), math.ceil(high / step + 1e-9)
    low, high = first * step, last * step
    row_h = 8 + 10 * len(series)
    names = [short(label) for label in labels]
    left = 34 + CHAR_WIDTH * max((len(n) for n in names), default=4)
    plot_w, top_pad = 360, 30 if len(series) > 1 else 12
    plot_h = row_h * len(labels)
    height = top_pad + plot_h + 44
    body = _legend(series, left, 14)
    x_of = lambda v: left + plot_w * (v - low) / (high - low)  # noqa: E731
    for k in range(first, last + 1):
        x = x_of(k * step)
        colour = "#999" if k == 0 else "#e4e4e4"
        body.append(line(x, top_pad, x, top_pad + plot_h, colour))
        body.append(text(x, top_pad + plot_h + 14, fmt(k * step), "middle"))
    body += _axis_titles(
        left + plot_w / 2, height - 8, top_pad + plot_h / 2, value_axis, category_axis
    )
    for g, (label, name) in enumerate(zip(labels, names, strict=True)):
        y0 = top_pad + g * row_h + 4
        body.append(
            f'<text x="{left - 6:.1f}" y="{y0 + row_h / 2:.1f}" text-anchor="end">'
            f"<title>{escape(label)}</title>{escape(name)}</text>"
        )
        for i, s in enumerate(series):
            value = s.values[g]
            if value is None:
                continue
            y, colour = y0 + 5 + 10 * i, PALETTE[i % len(PALETTE)]
            interval = s.intervals[g] if g < len(s.intervals) else None
            if interval:
                lo, hi = x_of(interval[0]), x_of(interval[1])
                body += [line(lo, y, hi, y, colour), line(lo, y - 3, lo, y + 3, colour)]
                body.append(line(hi, y - 3, hi, y + 3, colour))
            body.append(
                f'<circle cx="{x_of(value):.1f}" cy="{y:.1f}" r="3.5" fill="{colour}">'
                f"<title>{escape(s.name)}, {escape(label)}: {escape(fmt(value))}</title></circle>"
            )
    return svg(max(left + plot_w + 30, left + _legend_width(series)), height, body, title)


def _axis_titles(
    x: float, y: float, middle: float, value_axis: str, category_axis: str
) -> list[str]:
    """A bar chart's axis titles: the value axis's under the plot at (`x`, `y`), the category
    axis's turned up the left edge at height `middle`."""
    return [
        text(x, y, value_axis, "middle", 'font-weight="bold"'),
        text(
            12,
            middle,
            category_axis,
            "middle",
            f'font-weight="bold" transform="rotate(-90 12 {middle:.1f})"',
        ),
    ]
