"""Upper envelopes: which of several curves is best where, read exactly as the ladder reads.

The envelope of a model x GPU x workload is the best of its engine x precision curves at every
tokens/s per user: at a ladder target it is `frontier.best_at`, and it names the curve that
wins. The same search finds which GPU's envelope is best where. Pure numbers, no I/O.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import frontier

# Between two neighbouring knots every curve is one cubic piece, so two curves cross there at
# most three times; this many samples per interval find each change of winner, which
# bisection then places to within a part in 1e12.
SAMPLES = 8
BISECTIONS = 48

ValueAt = Callable[[float], float | None]


@dataclass(frozen=True)
class Stretch:
    """Where one curve is the best: from `start` to `end` tokens/s per user."""

    curve: int  # index into the curves searched
    start: float
    end: float


@dataclass(frozen=True)
class EnvelopePoint:
    interactivity: float
    throughput_per_gpu: float
    curve: int  # the curve the value comes from


def best(values: Sequence[ValueAt], x: float) -> int | None:
    """The index of the highest value at `x`; a tie goes to the first, as in frontier.best_at."""
    winner, top = None, None
    for i, value_at in enumerate(values):
        value = value_at(x)
        if value is not None and (top is None or value > top):
            winner, top = i, value
    return winner


def _boundary(
    values: Sequence[ValueAt], lo: float, hi: float, left: int | None
) -> tuple[float, float]:
    """Where the winner stops being `left` between lo (left wins) and hi (it does not): the last
    x found where it still wins, and the first where it does not."""
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if best(values, mid) == left:
            lo = mid
        else:
            hi = mid
    return lo, hi


def stretches(values: Sequence[ValueAt], knots: Sequence[float]) -> tuple[Stretch, ...]:
    """The winner of `values` across [min(knots), max(knots)], as stretches in x order.

    `knots` are every x where some curve has a measured point: between two of them each curve
    is one smooth piece (or has no value at all). Where the winner changes, the stretch that
    ends and the one that begins share the x where the first still wins (at a curve's last
    point, that point).
    """
    xs = sorted(set(knots))
    if not xs:
        return ()
    grid = [xs[0]]
    for a, b in zip(xs, xs[1:], strict=False):
        grid += [a + (b - a) * k / SAMPLES for k in range(1, SAMPLES)] + [b]
    out: list[Stretch] = []
    start, current = grid[0], best(values, grid[0])
    for x0, x1 in zip(grid, grid[1:], strict=False):
        lo = x0
        while best(values, x1) != current:
            last, first = _boundary(values, lo, x1, current)
            if current is not None:
                out.append(Stretch(current, start, last))
            start = last if current is not None else first
            current, lo = best(values, first), first
    if current is not None:
        out.append(Stretch(current, start, grid[-1]))
    return tuple(out)


def leaders(found: Sequence[Stretch]) -> list[int]:
    """The curves that make up an envelope, the one best over the widest range first (ranges
    compared as ratios, as a log axis shows them)."""
    span: dict[int, float] = {}
    for s in found:
        if s.start > 0:
            span[s.curve] = span.get(s.curve, 0.0) + math.log(s.end / s.start)
    for s in found:
        span.setdefault(s.curve, 0.0)
    return sorted(span, key=lambda i: (-span[i], i))


@dataclass(frozen=True)
class Envelope:
    """A set of curves with where each is the best: the value at x is the ladder's."""

    curves: tuple[frontier.Curve, ...]
    method: str
    stretches: tuple[Stretch, ...]

    @classmethod
    def of(cls, curves: Sequence[frontier.Curve], method: str) -> Envelope:
        return cls(tuple(curves), method, curve_envelope(curves, method))

    @property
    def start(self) -> float:
        return self.stretches[0].start

    @property
    def end(self) -> float:
        return self.stretches[-1].end

    @functools.cached_property
    def _values(self) -> list[ValueAt]:
        return curve_values(self.curves, self.method)

    @functools.cached_property
    def _ends(self) -> list[float]:
        return [s.end for s in self.stretches]

    def value_at(self, x: float) -> float | None:
        """The best curve's value at x: its peak below the slowest point, None above the fastest."""
        if not self.stretches or x > self.end:
            return None
        # the first stretch holding x: stretches run in x order, so it is the first ending at
        # or after x, if it starts at or before x; else (below the envelope) the first
        found = self.stretches[bisect.bisect_left(self._ends, x)]
        if found.start > x:
            found = self.stretches[0]
        return self._values[found.curve](x)

    def points(self) -> list[EnvelopePoint]:
        return list(self._points)  # a list of its own for each caller

    @functools.cached_property
    def _points(self) -> tuple[EnvelopePoint, ...]:
        return tuple(points(self.curves, self.stretches, self.method))  # read by several pages

    def leaders(self) -> list[int]:
        return leaders(self.stretches)


def curve_values(curves: Sequence[frontier.Curve], method: str) -> list[ValueAt]:
    """Each curve's value at any x, as frontier.value_at reads it."""
    return [frontier.reader(c.frontier, method) for c in curves]


def curve_envelope(curves: Sequence[frontier.Curve], method: str) -> tuple[Stretch, ...]:
    """Where each engine x precision curve is the best, from the slowest measured point per user
    to the fastest."""
    knots = [p.interactivity for c in curves for p in c.frontier]
    return stretches(curve_values(curves, method), knots)


def points(
    curves: Sequence[frontier.Curve], found: Sequence[Stretch], method: str
) -> list[EnvelopePoint]:
    """The envelope as points: each stretch's start, the winner's measured points inside it,
    and its end. Where the winner changes the x is listed twice, once for each curve."""
    out = []
    values = curve_values(curves, method)  # each curve's tangents computed once, not per x
    for s in found:
        curve = curves[s.curve]
        inside = [p.interactivity for p in curve.frontier if s.start < p.interactivity < s.end]
        for x in [s.start, *inside, s.end] if s.end > s.start else [s.start]:
            value = values[s.curve](x)
            assert value is not None, "a stretch lies where its curve has a value"
            out.append(EnvelopePoint(x, value, s.curve))
    return out


__all__ = [
    "Envelope",
    "EnvelopePoint",
    "Stretch",
    "best",
    "curve_envelope",
    "curve_values",
    "leaders",
    "points",
    "stretches",
]
