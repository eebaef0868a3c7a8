"""Series of a chart: which are drawn strongly, their colours and markers, and their legends.

A chart with real data can hold a dozen series. The few that make up its envelope (the best
of them somewhere) are drawn strongly and take the first, distinct colours; the rest are drawn
faint and listed, and a reader can switch any of them off and on (assets/charts.js). Without
the script every series is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from .svg import COLOURS, FONT, MARKERS, MUTED, marker, num, text

MAX_STRONG = 5  # "a handful": more lines than this in full colour cannot be told apart
FAINT_OPACITY = "0.35"
LEGEND_ROW = 20
RADIUS = 5.0


@dataclass(frozen=True)
class Style:
    colour: str
    shape: str
    strong: bool


def strongest(order: Sequence[int], limit: int = MAX_STRONG) -> list[int]:
    """The first `limit` distinct series of `order` (series as they count, most first)."""
    out: list[int] = []
    for i in order:
        if i not in out:
            out.append(i)
    return out[:limit]


def styles(count: int, strong: Sequence[int], first: Sequence[int] | None = None) -> list[Style]:
    """Colour and marker of each of `count` series: the strong ones (or those of `first`, so
    that a second chart of the same series keeps the colours of the first) take the palette
    first."""
    lead = strong if first is None else first
    ranked = [i for i in range(count) if i in lead] + [i for i in range(count) if i not in lead]
    out: dict[int, Style] = {}
    for k, i in enumerate(ranked):
        out[i] = Style(COLOURS[k % len(COLOURS)], MARKERS[k % len(MARKERS)], i in strong)
    return [out[i] for i in range(count)]


def swatch_svg(style: Style, line: bool = True) -> str:
    """A line and marker as in the chart, for a legend outside it."""
    stroke = (
        f'<line x1="1" x2="23" y1="8" y2="8" stroke="{style.colour}" stroke-width="2.5"/>'
        if line
        else ""
    )
    return (
        '<svg class="swatch" viewBox="0 0 24 16" width="24" height="16" aria-hidden="true" '
        f'focusable="false">{stroke}<path d="{marker(style.shape, 12, 8, RADIUS)}" '
        f'fill="{style.colour}"/></svg>'
    )


@dataclass(frozen=True)
class LegendEntry:
    """One series as the legend under a chart lists it."""

    index: int
    label: str
    swatch: Markup
    strong: bool


def legend_entries(
    labels: Sequence[str | None], strong: Sequence[int], first: Sequence[int] | None = None
) -> list[LegendEntry]:
    """The strong series first, then the faint ones, each in its chart order; a label of None
    is a series numbered (and styled) but not in this chart."""
    found = styles(len(labels), strong, first)
    entries = [
        LegendEntry(i, label, Markup(swatch_svg(found[i])), found[i].strong)
        for i, label in enumerate(labels)
        if label is not None
    ]
    return sorted(entries, key=lambda e: not e.strong)


def svg_legend(
    series: Sequence[tuple[int, str, Style]], left: float, right: float, top: float
) -> tuple[list[str], float]:
    """The strong series (index, label, style) as swatches in rows across the top of a chart,
    and a note on how many more are drawn faint; returns the SVG and the height used."""
    out, px, row = [], left, 0
    strong = [s for s in series if s[2].strong]
    faint = len(series) - len(strong)
    for i, label, style in strong:
        width = 44 + 7.2 * len(label)
        if px + width > right and px > left:
            px, row = left, row + 1
        py = top + row * LEGEND_ROW
        out.append(
            f'<g class="legend-item" data-series="{i}"><line x1="{num(px)}" x2="{num(px + 24)}" '
            f'y1="{num(py)}" y2="{num(py)}" stroke="{style.colour}" stroke-width="2.5"/>'
            f'<path d="{marker(style.shape, px + 12, py, RADIUS)}" fill="{style.colour}"/>'
            f'<text x="{num(px + 30)}" y="{num(py)}" dy="0.32em">{text(label)}</text></g>'
        )
        px += width
    if faint:
        note = f"+ {faint} more drawn faint (listed below the chart)"
        if px + 7.2 * len(note) > right and px > left:
            px, row = left, row + 1
        out.append(
            f'<text class="faint-note" x="{num(px)}" y="{num(top + row * LEGEND_ROW)}" '
            f'dy="0.32em" fill="{MUTED}" {FONT}>{text(note)}</text>'
        )
    return out, (row + 1) * LEGEND_ROW


def series_attrs(index: int, style: Style) -> str:
    """The attributes every element of a series carries: its index, and faintness."""
    faint = "" if style.strong else f' opacity="{FAINT_OPACITY}"'
    return f'data-series="{index}"{faint}'


__all__ = [
    "MAX_STRONG",
    "LegendEntry",
    "Style",
    "legend_entries",
    "series_attrs",
    "strongest",
    "styles",
    "svg_legend",
    "swatch_svg",
]
