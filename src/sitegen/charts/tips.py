"""A chart's points: each a transparent hit area titled by what its tip says, one rule set a chart.

A chart draws its markers first, then each point's hit area (class `pt`, keyboard-focusable),
inside a group (class `points`) that says where a tip must stay (`data-tip-box`). The hit
area's `<title>` holds the tip's lines joined by "; ": the browser's own tooltip without
JavaScript, and what assets/charts.js draws as the tip box beside a hovered or focused point
(one tip a chart, drawn over every point). The run report's, pair, comparison, model and
history charts use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from .svg import AXIS, FONT, TEXT, num

TIP_SEPARATOR = "; "  # between a tip's lines in the title; assets/charts.js splits on it


def tip_title(lines: list[str]) -> str:
    """A point's <title> text from its tip's lines, escaped."""
    title = TIP_SEPARATOR.join(lines)
    if "&" in title or "<" in title or ">" in title:
        return escape(title)
    return title


def point_with_tip(shape: str, attrs: str, lines: list[str]) -> str:
    """A point's hit area, the marker() path `shape` with `attrs` (its data), titled by its
    tip's lines."""
    return titled_point(shape, attrs, tip_title(lines))


def titled_point(shape: str, attrs: str, title: str) -> str:
    """point_with_tip of a point whose title (tip_title) is written already."""
    return f'<path class="pt" tabindex="0" d="{shape}" {attrs}><title>{title}</title></path>'


def points_start(box: tuple[float, float]) -> str:
    """The opening of a chart's group of hit areas: `box`, the right and bottom edges a tip
    stays inside, for assets/charts.js."""
    right, bottom = box
    return f'<g class="points" fill="transparent" data-tip-box="{num(right)} {num(bottom)}">'


def _tip_rules(c: str, focus: str) -> str:
    """The rule set of chart `c` (a selector): `focus` is the points' rule while focused."""
    family = FONT.removeprefix('font-family="').removesuffix('"')
    return (
        f"<style>{c} .pt{{cursor:pointer}}{focus}"
        f"{c} .tip{{pointer-events:none}}{c} .tip rect{{fill:#ffffff;stroke:{AXIS}}}"
        f"{c} .tip text{{font-family:{family};font-size:12px;fill:{TEXT}}}</style>"
    )


def shared_tip_css(chart_id: str, colour: str) -> str:
    """The look of a chart's tip (drawn by assets/charts.js) and of its focused points, whose
    focus ring is in `colour`. Scoped to one chart."""
    c = f"#{chart_id}"
    return _tip_rules(c, f"{c} .pt:focus{{outline:none;stroke:{colour};stroke-width:3}}")


def series_tip_css(chart_id: str, colours: Sequence[str]) -> str:
    """shared_tip_css for a chart of several series: the focus ring of a point of series i
    (its `data-series`) is in `colours[i]`. A rule a series, none a point."""
    c = f"#{chart_id}"
    rings = "".join(
        f'{c} .pt[data-series="{i}"]:focus{{stroke:{colour}}}' for i, colour in enumerate(colours)
    )
    return _tip_rules(c, f"{c} .pt:focus{{outline:none;stroke-width:3}}{rings}")


__all__ = [
    "TIP_SEPARATOR",
    "point_with_tip",
    "points_start",
    "series_tip_css",
    "shared_tip_css",
    "tip_title",
    "titled_point",
]
