"""Tooltips shown without script: each point's tip right after the point, one rule set a chart.

A chart draws its markers first, then for each point a transparent hit area (class `pt`,
keyboard-focusable) followed by its tip (class `tip`): `.pt:hover+.tip` and `.pt:focus+.tip`
show it, so the style does not grow with the points, and as every tip comes after every
marker no point is drawn over a shown tip. The run report's, pair, comparison, model and
history charts use it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple
from xml.sax.saxutils import escape

from .svg import AXIS, FONT, TEXT, num, tip_place, tip_size


@functools.lru_cache(maxsize=8)  # a chart's tips have one count of lines
def _tip_text(count: int) -> str:
    """A tip's text of `count` lines, each placed inside its box (tip() moves the box, not the
    lines), with a hole for each line."""
    spans = "".join(f'<tspan x="6" y="{19 + 16 * i}">%s</tspan>' for i in range(count))
    return f"<text>{spans}</text>"


def tip(px: float, py: float, lines: list[str], box: tuple[float, float]) -> str:
    """A box of text beside a point, right after the point and hidden until it is hovered or
    focused: one rule set for every tip of a chart (shared_tip_css), none for each."""
    words = tip_words(lines)
    return _tip(_place(px, py, words, box), words)


def point_with_tip(
    shape: str, attrs: str, px: float, py: float, lines: list[str], box: tuple[float, float]
) -> str:
    """A point's hit area, the marker() path `shape` with `attrs` (its data), titled by its
    lines, followed by its tip (as tip() writes it): the lines escaped once for both."""
    return placed_point(shape, attrs, px, py, tip_words(lines), box)


class TipWords(NamedTuple):  # a tuple: a big site's charts have 784,000 points
    """What a point's title and tip say, written, and the tip's size: all but where it goes,
    so that a point drawn on many charts (a GPU's envelope on each of its comparisons) has
    its words written once."""

    title: str  # the hit area's <title>, escaped
    body: str  # the tip's <text> element
    width: int
    height: int


def tip_words(lines: list[str]) -> TipWords:
    title = "; ".join(lines)
    shown = lines
    if "&" in title or "<" in title or ">" in title:
        title, shown = escape(title), [escape(line) for line in lines]
    return TipWords(title, _tip_text(len(lines)) % tuple(shown), *tip_size(lines))


def placed_point(
    shape: str, attrs: str, px: float, py: float, words: TipWords, box: tuple[float, float]
) -> str:
    """point_with_tip of a point at (px, py) whose tip says `words`."""
    return _point(shape, attrs, _place(px, py, words, box), words)


def _place(px: float, py: float, words: TipWords, box: tuple[float, float]) -> str:
    tx, ty = tip_place(px, py, words.width, words.height, box)
    return f"{num(tx)},{num(ty)}"


def _point(shape: str, attrs: str, place: str, words: TipWords) -> str:
    """A point's hit area and its tip at `place` ("x,y", written)."""
    return (
        f'<path class="pt" tabindex="0" d="{shape}" {attrs}><title>{words.title}</title></path>'
        f"{_tip(place, words)}"
    )


def _tip(place: str, words: TipWords) -> str:
    return (
        f'<g class="tip" visibility="hidden" transform="translate({place})">'
        f'<rect width="{words.width}" height="{words.height}" rx="4"/>{words.body}</g>'
    )


def _tip_rules(c: str, focus: str) -> str:
    """The rule set of chart `c` (a selector): `focus` is the points' rule while focused."""
    family = FONT.removeprefix('font-family="').removesuffix('"')
    return (
        f"<style>{c} .pt:hover+.tip,{c} .pt:focus+.tip{{visibility:visible}}"
        f"{c} .pt{{cursor:pointer}}{focus}"
        f"{c} .tip{{pointer-events:none}}{c} .tip rect{{fill:#ffffff;stroke:{AXIS}}}"
        f"{c} .tip text{{font-family:{family};font-size:12px;fill:{TEXT}}}</style>"
    )


def shared_tip_css(chart_id: str, colour: str) -> str:
    """Show the tip after a point while the point is hovered or has keyboard focus, and draw
    the tips (tip()); the points' focus ring is in `colour`. Scoped to one chart."""
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
    "TipWords",
    "placed_point",
    "point_with_tip",
    "series_tip_css",
    "shared_tip_css",
    "tip",
    "tip_words",
]
