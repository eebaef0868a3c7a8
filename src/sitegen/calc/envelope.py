"""Upper envelopes: which of several curves is best where, read exactly as the ladder reads.

The envelope of a model x GPU x workload is the best of its engine x precision curves at every
tokens/s per user: at a ladder target it is `frontier.best_at`, and it names the curve that
wins. The same search finds which GPU's envelope is best where. Pure numbers, no I/O.

The search reads every curve at hundreds of grid points: those are read all at once with
numpy (`readings`, `Envelope.values_at`), by the very float operations of the one-at-a-time
readers in the same order, so the winners, and every number found, are the same.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import frontier

# Between two neighbouring knots every curve is one cubic piece, so two curves cross there at
# most three times; this many samples per interval find each change of winner, which
# bisection then places to within a part in 1e12.
SAMPLES = 8
BISECTIONS = 48

ValueAt = Callable[[float], float | None]
ValuesAt = Callable[[np.ndarray], np.ndarray]  # many x at once; NaN where ValueAt gives None


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


def winners(many: Sequence[ValuesAt], xs: Sequence[float]) -> list[int | None]:
    """best(values, x) at every x of `xs`, each curve read at all of them at once (`many`:
    the curves' ValuesAt): the highest value, a tie to the first, None where none has one."""
    grid = np.asarray(xs, dtype=np.float64)
    table = np.vstack([read(grid) for read in many])  # curves x points
    missing = np.isnan(table)
    top = np.where(missing, -np.inf, table).argmax(axis=0)  # argmax: the first of equals
    none = missing.all(axis=0)
    return [None if no else i for i, no in zip(top.tolist(), none.tolist(), strict=True)]


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


def stretches(
    values: Sequence[ValueAt], knots: Sequence[float], many: Sequence[ValuesAt] | None = None
) -> tuple[Stretch, ...]:
    """The winner of `values` across [min(knots), max(knots)], as stretches in x order.

    `knots` are every x where some curve has a measured point: between two of them each curve
    is one smooth piece (or has no value at all). Where the winner changes, the stretch that
    ends and the one that begins share the x where the first still wins (at a curve's last
    point, that point). `many`, the same curves read at many x at once, finds the winner at
    every grid point in one go (the same winners); the boundaries are bisected with `values`.
    """
    xs = sorted(set(knots))
    if not xs:
        return ()
    grid = [xs[0]]
    for a, b in zip(xs, xs[1:], strict=False):
        grid += [a + (b - a) * k / SAMPLES for k in range(1, SAMPLES)] + [b]
    found = winners(many, grid) if many is not None else [best(values, x) for x in grid]
    out: list[Stretch] = []
    start, current = grid[0], found[0]
    for x0, x1, winner in zip(grid, grid[1:], found[1:], strict=False):
        if winner == current:
            continue
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
        values = curve_values(curves, method)
        many = [readings(c.frontier, method) for c in curves]
        env = cls(tuple(curves), method, curve_envelope(curves, method, values, many))
        env.__dict__.update(_values=values, _many=many)  # the search's readers, kept for reading
        return env

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

    @functools.cached_property
    def _many(self) -> list[ValuesAt]:
        return [readings(c.frontier, self.method) for c in self.curves]

    @functools.cached_property
    def _columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each stretch's end, start and curve, as arrays."""
        return (
            np.array(self._ends, dtype=np.float64),
            np.array([s.start for s in self.stretches], dtype=np.float64),
            np.array([s.curve for s in self.stretches], dtype=np.int64),
        )

    def values_at(self, xs: np.ndarray) -> np.ndarray:
        """value_at of every x of `xs` at once (the same numbers), NaN where it is None."""
        out = np.full(xs.shape, np.nan)
        if not self.stretches:
            return out
        ends, starts, curves = self._columns
        # value_at's bisect_left and its fall-back to the first stretch, for all x at once
        held = xs <= self.end
        index = np.minimum(np.searchsorted(ends, xs, side="left"), len(ends) - 1)
        index = np.where(starts[index] > xs, 0, index)
        curve = curves[index]
        for c in np.unique(curve[held]).tolist():
            mine = held & (curve == c)
            out[mine] = self._many[c](xs[mine])
        return out

    def points(self) -> list[EnvelopePoint]:
        return list(self._points)  # a list of its own for each caller

    @functools.cached_property
    def _points(self) -> tuple[EnvelopePoint, ...]:
        # read by several pages
        return tuple(points(self.curves, self.stretches, self.method, self._values))

    def leaders(self) -> list[int]:
        return leaders(self.stretches)


def curve_values(curves: Sequence[frontier.Curve], method: str) -> list[ValueAt]:
    """Each curve's value at any x, as frontier.value_at reads it."""
    return [frontier.reader(c.frontier, method) for c in curves]


def readings(front: Sequence[frontier.Point], method: str) -> ValuesAt:
    """frontier.reader of one curve for many targets at once: the same numbers (numpy does
    the same float operations in the same order), NaN where the reader gives None."""
    xs = np.array([p.interactivity for p in front], dtype=np.float64)
    ys = np.array([p.throughput_per_gpu for p in front], dtype=np.float64)
    if len(xs) < 2:
        return functools.partial(_ends_only, xs, ys)
    tangents = np.array(frontier.monotone_tangents(xs.tolist(), ys.tolist()), dtype=np.float64)
    last = len(xs) - 2

    def read(targets: np.ndarray) -> np.ndarray:
        # the reader's piece, xs[i] < x <= xs[i + 1], for the targets inside the curve (the
        # others read a piece at an end, and are replaced below)
        i = np.clip(np.searchsorted(xs, targets, side="left") - 1, 0, last)
        j = i + 1
        if method == "measured":
            value = ys[j]
        else:
            value = frontier.hermite_value(
                xs[i], xs[j], ys[i], ys[j], tangents[i], tangents[j], targets
            )
        return _ends_only(xs, ys, targets, value)

    return read


def _ends_only(
    xs: np.ndarray, ys: np.ndarray, targets: np.ndarray, inside: np.ndarray | float = np.nan
) -> np.ndarray:
    """`inside` where a curve's reader reads a piece; its peak at and below its slowest point,
    NaN above its fastest (and everywhere for a curve of no points)."""
    if not len(xs):
        return np.full(targets.shape, np.nan)
    return np.where(targets > xs[-1], np.nan, np.where(targets <= xs[0], ys[0], inside))


def curve_envelope(
    curves: Sequence[frontier.Curve],
    method: str,
    values: Sequence[ValueAt] | None = None,
    many: Sequence[ValuesAt] | None = None,
) -> tuple[Stretch, ...]:
    """Where each engine x precision curve is the best, from the slowest measured point per user
    to the fastest. `values` and `many`: the curves' readers, where the caller has them."""
    knots = [p.interactivity for c in curves for p in c.frontier]
    values = curve_values(curves, method) if values is None else values
    many = [readings(c.frontier, method) for c in curves] if many is None else many
    return stretches(values, knots, many)


def points(
    curves: Sequence[frontier.Curve],
    found: Sequence[Stretch],
    method: str,
    values: Sequence[ValueAt] | None = None,
) -> list[EnvelopePoint]:
    """The envelope as points: each stretch's start, the winner's measured points inside it,
    and its end. Where the winner changes the x is listed twice, once for each curve.
    `values`: the curves' readers, where the caller has them."""
    out = []
    # each curve's tangents computed once, not per x
    values = curve_values(curves, method) if values is None else values
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
    "readings",
    "stretches",
    "winners",
]
