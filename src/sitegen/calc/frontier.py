"""Pure numbers: Pareto frontier, monotone interpolation, the ladder and its cost. No I/O.

x is interactivity (decode tokens/s seen by one user), y is throughput per GPU (total tokens/s).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

SECONDS_PER_HOUR = 3600.0
TOKENS_PER_MILLION = 1e6


@dataclass(frozen=True)
class Point:
    interactivity: float
    throughput_per_gpu: float


@dataclass(frozen=True)
class Curve:
    """One engine x precision: its measured points and their upper-left frontier."""

    engine: str
    precision: str
    frontier: tuple[Point, ...]  # interactivity ascending, throughput strictly descending


@dataclass(frozen=True)
class Rung:
    """One ladder cell: the best curve's value at a per-user target, or None if unreachable."""

    target: float
    throughput_per_gpu: float | None
    engine: str | None
    precision: str | None


def pareto_frontier(points: Iterable[Point]) -> tuple[Point, ...]:
    """Keep the points that no other point matches or beats on both axes.

    Of exact duplicates one is kept. The result is sorted by interactivity ascending, and
    throughput then falls strictly from left to right.
    """
    ordered = sorted(points, key=lambda p: (-p.interactivity, -p.throughput_per_gpu))
    kept: list[Point] = []
    best_y = -math.inf
    for point in ordered:  # from the fastest per user to the slowest
        if point.throughput_per_gpu > best_y:
            kept.append(point)
            best_y = point.throughput_per_gpu
    kept.reverse()
    return tuple(kept)


def _sign(v: float) -> float:
    return (v > 0) - (v < 0)


def monotone_tangents(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """Tangents as d3.curveMonotoneX sets them: Steffen's inside, (3s - m)/2 at both ends."""
    n = len(xs)
    if n < 2:
        return [0.0] * n
    secants = [(ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(n - 1)]
    if n == 2:  # d3 draws a straight line between two points
        return [secants[0], secants[0]]
    tangents = [0.0] * n
    for i in range(1, n - 1):
        h0, h1 = xs[i] - xs[i - 1], xs[i + 1] - xs[i]
        s0, s1 = secants[i - 1], secants[i]
        p = (s0 * h1 + s1 * h0) / (h0 + h1)
        tangents[i] = (_sign(s0) + _sign(s1)) * min(abs(s0), abs(s1), 0.5 * abs(p))
    tangents[0] = (3 * secants[0] - tangents[1]) / 2
    tangents[-1] = (3 * secants[-1] - tangents[-2]) / 2
    return tangents


F = TypeVar("F")  # a float, or a numpy array of them


def hermite_value(x0: F, x1: F, y0: F, y1: F, m0: F, m1: F, x: F) -> F:
    """The cubic Hermite through (x0, y0) and (x1, y1) with slopes m0, m1, at x. Given numpy
    arrays it computes every element by the same float operations, in the same order."""
    h = x1 - x0
    t = (x - x0) / h
    t2, t3 = t * t, t * t * t
    return (
        (2 * t3 - 3 * t2 + 1) * y0
        + (t3 - 2 * t2 + t) * h * m0
        + (-2 * t3 + 3 * t2) * y1
        + (t3 - t2) * h * m1
    )


def value_at(frontier: Sequence[Point], target: float, method: str = "interpolate") -> float | None:
    """Throughput per GPU a curve sustains at `target` tokens/s per user.

    Above the fastest measured point there is no value; below the slowest, the curve's peak.
    """
    if not frontier or target > frontier[-1].interactivity:
        return None
    if target <= frontier[0].interactivity:
        return frontier[0].throughput_per_gpu
    if method == "measured":
        return max(p.throughput_per_gpu for p in frontier if p.interactivity >= target)
    xs = [p.interactivity for p in frontier]
    ys = [p.throughput_per_gpu for p in frontier]
    tangents = monotone_tangents(xs, ys)
    for i in range(len(xs) - 1):
        if xs[i] <= target <= xs[i + 1]:
            return hermite_value(
                xs[i], xs[i + 1], ys[i], ys[i + 1], tangents[i], tangents[i + 1], target
            )
    raise AssertionError("unreachable: target lies inside the frontier's range")


def reader(
    frontier: Sequence[Point], method: str = "interpolate"
) -> Callable[[float], float | None]:
    """value_at of one curve for many targets, its tangents computed once: the same numbers."""
    if not frontier:
        return lambda target: None
    xs = [p.interactivity for p in frontier]
    ys = [p.throughput_per_gpu for p in frontier]
    tangents = monotone_tangents(xs, ys) if method != "measured" else []

    def read(target: float) -> float | None:
        if target > xs[-1]:
            return None
        if target <= xs[0]:
            return ys[0]
        i = bisect.bisect_left(xs, target) - 1  # xs[i] < target <= xs[i + 1]
        if method == "measured":
            return ys[i + 1]  # the highest y with x >= target: throughput falls along x
        j = i + 1
        return hermite_value(xs[i], xs[j], ys[i], ys[j], tangents[i], tangents[j], target)

    return read


def build_curves(points: Mapping[tuple[str, str], Iterable[Point]]) -> list[Curve]:
    """One curve per (engine, precision), sorted by engine then precision."""
    return [
        Curve(engine, precision, pareto_frontier(pts))
        for (engine, precision), pts in sorted(points.items())
    ]


def best_of(target: float, values: Iterable[tuple[str, str, float | None]]) -> Rung:
    """The highest of the curves' values at `target`, each given as (engine, precision, value);
    ties go to the first."""
    best = Rung(target, None, None, None)
    for engine, precision, value in values:
        if value is not None and (
            best.throughput_per_gpu is None or value > best.throughput_per_gpu
        ):
            best = Rung(target, value, engine, precision)
    return best


def best_at(curves: Sequence[Curve], target: float, method: str = "interpolate") -> Rung:
    """The curve with the highest value at `target`; ties go to the first curve in order."""
    values = ((c.engine, c.precision, value_at(c.frontier, target, method)) for c in curves)
    return best_of(target, values)


def ladder(
    curves: Sequence[Curve], targets: Iterable[float], method: str = "interpolate"
) -> list[Rung]:
    return [best_at(curves, t, method) for t in sorted(targets)]


def cost_per_million_tokens(price_per_gpu_hour: float, throughput_per_gpu: float) -> float:
    """US$ per million tokens when a GPU costing `price_per_gpu_hour` serves that throughput."""
    tokens_per_hour = throughput_per_gpu * SECONDS_PER_HOUR
    return price_per_gpu_hour / tokens_per_hour * TOKENS_PER_MILLION
