"""The line of a frontier as the calculator reads it, over any stretch, on any axis.

With `interpolate` a frontier is a monotone cubic Hermite (frontier.monotone_tangents). On a
linear axis each piece between two points is drawn as the one cubic Bezier with the same ends
and tangents, so the line *is* the value; on a log axis the pieces are cut finer (the mapping
to pixels bends them), each a Bezier with the exact values and slopes at its ends. With
`measured` the line steps down just after each point.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..calc import frontier
from .svg import Scale, num

LOG_PIECE = 0.05  # on a log axis, at most this many decades per drawn piece


def hermite_slope(
    x0: float, x1: float, y0: float, y1: float, m0: float, m1: float, x: float
) -> float:
    """The slope at x of frontier.hermite_value's cubic (the same arguments)."""
    h = x1 - x0
    t = (x - x0) / h
    t2 = t * t
    return (
        (6 * t2 - 6 * t) * y0 / h
        + (3 * t2 - 4 * t + 1) * m0
        + (-6 * t2 + 6 * t) * y1 / h
        + (3 * t2 - 2 * t) * m1
    )


def _cuts(a: float, b: float, log: bool) -> list[float]:
    if not log or a <= 0:
        return [a, b]
    n = max(1, math.ceil(math.log10(b / a) / LOG_PIECE))
    ratio = (b / a) ** (1 / n)
    return [a * ratio**k for k in range(n)] + [b]


@dataclass(frozen=True)
class Cuts:
    """Where the pieces of a curve drawn over a stretch are cut, as values on any scale: at
    each cut x, the curve's value and slope there; `starts`, the cuts that begin a piece's
    Bezier (each cut but the last of its piece)."""

    xs: tuple[float, ...]
    values: tuple[float, ...]
    slopes: tuple[float, ...]
    starts: tuple[int, ...]


@functools.lru_cache(maxsize=1024)  # a GPU's envelope is drawn on each of its comparisons
def _cuts_of(pts: tuple[tuple[float, float], ...], start: float, end: float, log: bool) -> Cuts:
    """The cuts of each piece of the curve drawn from `start` to `end`."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    tangents = frontier.monotone_tangents(xs, ys)
    cuts: list[tuple[float, float, float]] = []
    starts: list[int] = []
    for i in range(len(xs) - 1):
        a, b = max(xs[i], start), min(xs[i + 1], end)
        if a >= b:
            continue
        at = _cuts(a, b, log)
        starts += range(len(cuts), len(cuts) + len(at) - 1)
        piece = (xs[i], xs[i + 1], ys[i], ys[i + 1], tangents[i], tangents[i + 1])
        cuts += [(x, frontier.hermite_value(*piece, x), hermite_slope(*piece, x)) for x in at]
    xs_cut, values, slopes = (
        (tuple(column) for column in zip(*cuts, strict=True)) if cuts else ((), (), ())
    )
    return Cuts(xs_cut, values, slopes, tuple(starts))


def _smooth(pts: Sequence[Sequence[float]], start: float, end: float, x: Scale, y: Scale) -> str:
    cuts = _cuts_of(tuple(map(tuple, pts)), start, end, x.log)
    if not cuts.xs:
        return ""
    # each cut's pixel and slope in pixels, taken once, all cuts of all pieces in one go:
    # slopes in pixels are dY/dX = y'(value) * dy/dx / x'(u)
    px, py = x.pixels(cuts.xs), y.pixels(cuts.values)
    slopes = [
        c * dy / dx
        for c, dy, dx in zip(cuts.slopes, y.slopes(cuts.values), x.slopes(cuts.xs), strict=True)
    ]
    out = [f"M{num(px[0])},{num(py[0])}"]
    for k in cuts.starts:  # each cut ends one Bezier and starts the next
        third = (px[k + 1] - px[k]) / 3
        out.append(
            f"C{num(px[k] + third)},{num(py[k] + third * slopes[k])} "
            f"{num(px[k + 1] - third)},{num(py[k + 1] - third * slopes[k + 1])} "
            f"{num(px[k + 1])},{num(py[k + 1])}"
        )
    return "".join(out)


def _steps(pts: Sequence[Sequence[float]], start: float, end: float, x: Scale, y: Scale) -> str:
    """The best measured value at or above each x: y[k] on (x[k-1], x[k]], y[0] at x[0]."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    k = next(i for i, v in enumerate(xs) if v >= start)
    out = [f"M{num(x(start))},{num(y(ys[k]))}"]
    if xs[k] > start:
        out.append(f"H{num(x(min(xs[k], end)))}")
    while xs[k] < end:
        k += 1
        out.append(f"V{num(y(ys[k]))}H{num(x(min(xs[k], end)))}")
    return "".join(out)


def curve_path(
    pts: Sequence[Sequence[float]],
    method: str,
    x: Scale,
    y: Scale,
    start: float | None = None,
    end: float | None = None,
) -> str:
    """The line of a frontier ([x, y] pairs, x ascending) from `start` to `end` (default: its
    whole measured range); "" where that is a single point."""
    if not pts:
        return ""
    start = pts[0][0] if start is None else max(start, pts[0][0])
    end = pts[-1][0] if end is None else min(end, pts[-1][0])
    if end <= start:
        return ""
    if method == "measured":
        return _steps(pts, start, end, x, y)
    return _smooth(pts, start, end, x, y)


__all__ = ["curve_path", "hermite_slope"]
