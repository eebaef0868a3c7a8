"""Axes that hold real data: a log axis where values spread widely, date ticks that never collide.

Label widths are estimated from their characters (12 px system-ui text: about 7 px a
character at most), so that ticks are chosen, not drawn and hoped for.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .svg import LogScale, Scale, nice_ticks

# Tokens/s per user goes on a log axis once its largest value is more than this many times its
# smallest: on a linear axis the slow configs would be squeezed into a sliver at the left.
LOG_SPREAD = 10.0
LOG_PAD = 1.12  # the plot runs this factor beyond the data on both sides of a log axis
CHAR_PX = 7.0  # widest average glyph of 12 px tick labels
LABEL_GAP_PX = 10.0


@dataclass(frozen=True)
class Axis:
    scale: Scale
    ticks: list[float]
    log: bool


def label_width(label: str) -> float:
    return CHAR_PX * len(label)


def wants_log(values: Sequence[float]) -> bool:
    """Whether values spread so widely (over 10x) that a linear axis would squash the small ones."""
    positive = [v for v in values if v > 0]
    return max(positive) / min(positive) > LOG_SPREAD


def interactivity_axis(values: Sequence[float], p0: float, p1: float, count: int = 6) -> Axis:
    """Linear from 0 when the values are close together; log when they spread over 10x."""
    positive = [v for v in values if v > 0]
    low, high = min(positive), max(positive)
    if not wants_log(positive):
        ticks = nice_ticks(high * 1.05, count)
        return Axis(Scale(0, ticks[-1], p0, p1), ticks, log=False)
    d0, d1 = low / LOG_PAD, high * LOG_PAD
    return Axis(LogScale(d0, d1, p0, p1), log_ticks(d0, d1), log=True)


def log_ticks(low: float, high: float) -> list[float]:
    """1, 2, 5, 10, 20, 50... inside [low, high]."""
    out = []
    for power in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for mantissa in (1, 2, 5):
            value = round(mantissa * 10.0**power, 10)
            if low <= value <= high:
                out.append(value)
    return out


# -- dates ------------------------------------------------------------------------------------

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


FIRST_DAY, LAST_DAY = dt.date.min.toordinal(), dt.date.max.toordinal()
MAX_TICKS = 40  # a step with more ticks than this is not tried


def _days(first: int, last: int, every: int) -> range:
    start = -(-first // every) * every  # the first multiple of `every` days, counted from day 1
    return range(start, last + 1, every)


def _day_ticks(first: int, last: int, every: int) -> list[tuple[int, str]]:
    return [(d, dt.date.fromordinal(d).isoformat()) for d in _days(first, last, every)]


def _month_ticks(first: int, last: int, every: int) -> list[tuple[int, str]]:
    day = dt.date.fromordinal(first)
    year, month = day.year, day.month
    if day.day != 1:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    out = []
    while year <= dt.MAXYEAR and (date := dt.date(year, month, 1)).toordinal() <= last:
        if (month - 1) % every == 0:
            label = str(year) if every == 12 else f"{MONTHS[month - 1]} {year}"
            out.append((date.toordinal(), label))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


# finest first: the first that fits is used
DATE_STEPS: tuple[tuple[Callable[[int, int, int], list[tuple[int, str]]], int], ...] = (
    (_day_ticks, 1),
    (_day_ticks, 2),
    (_day_ticks, 7),
    (_day_ticks, 14),
    (_month_ticks, 1),
    (_month_ticks, 2),
    (_month_ticks, 3),
    (_month_ticks, 6),
    (_month_ticks, 12),
)


def fits(ticks: list[tuple[int, str]], x: Scale, left: float, right: float) -> bool:
    """Every label lies within [left, right] and keeps a gap to its neighbours."""
    boxes = [(x(d) - label_width(s) / 2, x(d) + label_width(s) / 2) for d, s in ticks]
    inside = all(a >= left and b <= right for a, b in boxes)
    apart = all(b0 + LABEL_GAP_PX <= a1 for (_, b0), (a1, _) in zip(boxes, boxes[1:], strict=False))
    return inside and apart


def date_ticks(x: Scale, left: float, right: float) -> list[tuple[int, str]]:
    """Calendar ticks (days, weeks, months or years) across a date scale of day ordinals, the
    finest whose labels all fit between `left` and `right` without touching."""
    # inside the calendar Python counts (years 1 to 9999), however far a scale is padded
    first = max(math.ceil(x.d0), FIRST_DAY)
    last = min(math.floor(x.d1), LAST_DAY)
    for make, every in DATE_STEPS:
        if make is _day_ticks and len(_days(first, last, every)) > MAX_TICKS:
            continue  # counted, not labelled: a long history has hundreds of days
        ticks = make(first, last, every)
        if len(ticks) > MAX_TICKS:
            continue
        if ticks and fits(ticks, x, left, right):
            return ticks
    # the coarsest step, keeping only the labels that fit from the left
    kept: list[tuple[int, str]] = []
    for tick in _month_ticks(first, last, 12) or _day_ticks(first, min(first, last), 1):
        if fits([*kept, tick], x, left, right):
            kept.append(tick)
    return kept


__all__ = [
    "Axis",
    "date_ticks",
    "fits",
    "interactivity_axis",
    "label_width",
    "log_ticks",
    "wants_log",
]
