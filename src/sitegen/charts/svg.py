"""SVG building blocks shared by the charts: scales, nice ticks, markers, escaping."""

from __future__ import annotations

import functools
import hashlib
import math
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

# Okabe-Ito hues (distinguishable with the common colour-vision deficiencies), darkened where
# needed so that each line keeps a 3:1 contrast on white; shapes differ too.
COLOURS = ("#0072b2", "#c85200", "#007d5a", "#a8488e", "#806600", "#1b1f24")
MARKERS = ("circle", "square", "triangle", "diamond")
TEXT = "#1b1f24"
MUTED = "#57606a"
GRID = "#e3e7eb"
AXIS = "#8c959f"
FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif"'


def num(value: float) -> str:
    """A coordinate with one decimal, without a trailing .0 (smaller, stable output)."""
    text = f"{value:.1f}"
    if text[-1] != "0":  # one decimal always: only x.0 ends in 0 (the hottest function here)
        return text
    text = text[:-2]
    return "0" if text == "-0" else text


def text(value: str) -> str:
    if "&" in value or "<" in value or ">" in value:
        return escape(value)
    return value  # most labels have nothing to escape: three tests cost less than escape()


def attr(value: str) -> str:
    return quoteattr(value)


@dataclass(frozen=True)
class Scale:
    """Maps a data interval onto a pixel interval (pixels may run backwards, as y does)."""

    d0: float
    d1: float
    p0: float
    p1: float

    log = False

    def __call__(self, value: float) -> float:
        return self.p0 + (value - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)

    def slope(self, value: float) -> float:
        """Pixels per data unit at `value`."""
        return (self.p1 - self.p0) / (self.d1 - self.d0)

    def invert(self, pixel: float) -> float:
        """The data value drawn at `pixel`."""
        return self.d0 + (pixel - self.p0) / (self.p1 - self.p0) * (self.d1 - self.d0)

    def pixels(self, values: Sequence[float]) -> list[float]:
        """[self(v) for v in values], by the same operations, without a call for each."""
        p0, d0, data_span, pixel_span = self.p0, self.d0, self.d1 - self.d0, self.p1 - self.p0
        return [p0 + (v - d0) / data_span * pixel_span for v in values]

    def slopes(self, values: Sequence[float]) -> list[float]:
        """[self.slope(v) for v in values]."""
        return [self.slope(values[0])] * len(values) if values else []


@dataclass(frozen=True)
class LogScale(Scale):
    """A logarithmic scale: equal ratios take equal room. The data interval must be > 0."""

    log = True

    def __post_init__(self) -> None:
        # the logs of the ends, taken once: a chart maps thousands of values (not fields)
        object.__setattr__(self, "_log_d0", math.log(self.d0))
        object.__setattr__(self, "_log_span", math.log(self.d1) - math.log(self.d0))

    def __call__(self, value: float) -> float:
        span = self._log_span
        return self.p0 + (math.log(value) - self._log_d0) / span * (self.p1 - self.p0)

    def slope(self, value: float) -> float:
        return (self.p1 - self.p0) / (self._log_span * value)

    def invert(self, pixel: float) -> float:
        span = self._log_span
        return math.exp(self._log_d0 + (pixel - self.p0) / (self.p1 - self.p0) * span)

    def pixels(self, values: Sequence[float]) -> list[float]:
        p0, log_d0, span, pixel_span = self.p0, self._log_d0, self._log_span, self.p1 - self.p0
        log = math.log
        return [p0 + (log(v) - log_d0) / span * pixel_span for v in values]

    def slopes(self, values: Sequence[float]) -> list[float]:
        pixel_span, span = self.p1 - self.p0, self._log_span
        return [pixel_span / (span * v) for v in values]


def nice_ticks(high: float, count: int = 5) -> list[float]:
    """Ticks from 0 by a step of 1, 2, 2.5 or 5 x 10^k, ending at the first tick >= `high`.

    Of the steps giving between `count - 1` and `count + 3` intervals, the one that wastes the
    least room above `high` wins, so that the points fill the plot.
    """
    if high <= 0:
        high = 1.0
    power = 10 ** math.floor(math.log10(high))
    candidates = []
    for scale in (power / 100, power / 10, power):
        for factor in (1, 2, 2.5, 5):
            step = factor * scale
            n = math.ceil(high / step - 1e-9)
            if count - 1 <= n <= count + 3:
                candidates.append((n * step, n, step))
    if not candidates:
        candidates.append((high, 1, high))
    _, n, step = min(candidates)
    return [round(i * step, 10) for i in range(n + 1)]


def tick_label(value: float) -> str:
    """16,000 / 2.5 / 0: no trailing zeros, thousands separated."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def marker(shape: str, cx: float, cy: float, r: float) -> str:
    """A path drawing `shape` around (cx, cy); it starts with `M cx,cy` so it can be read back."""
    return f"M{num(cx)},{num(cy)}{_marker_outline(shape, r)}"


@functools.lru_cache(maxsize=64)  # a chart has a few shapes and sizes, and many points
def _marker_outline(shape: str, r: float) -> str:
    """The relative moves of a marker around its centre."""
    if shape == "square":
        s = r * 0.9
        return f"m{num(-s)},{num(-s)}h{num(2 * s)}v{num(2 * s)}h{num(-2 * s)}z"
    if shape == "triangle":
        h = r * 1.25
        return f"m0,{num(-h)}l{num(h)},{num(1.8 * h)}h{num(-2 * h)}z"
    if shape == "diamond":
        d = r * 1.3
        return f"m0,{num(-d)}l{num(d)},{num(d)}l{num(-d)},{num(d)}l{num(-d)},{num(-d)}z"
    arc = f"a{num(r)},{num(r)} 0 1,0"
    return f"m{num(-r)},0{arc} {num(2 * r)},0{arc} {num(-2 * r)},0z"


def axes(x: Scale, y: Scale, x_ticks: list[float], y_ticks: list[float], x_fmt, y_fmt) -> list[str]:
    """Grid lines, tick labels and the two axis lines of a plot area."""
    left, right = x.p0, x.p1
    bottom, top = y.p0, y.p1
    out = [f'<g class="axes" {FONT} font-size="12" fill="{MUTED}">']
    for t in y_ticks:
        py = num(y(t))
        out.append(
            f'<line x1="{num(left)}" x2="{num(right)}" y1="{py}" y2="{py}" stroke="{GRID}"/>'
            f'<text x="{num(left - 8)}" y="{py}" dy="0.32em" text-anchor="end">{y_fmt(t)}</text>'
        )
    for t in x_ticks:
        px = num(x(t))
        out.append(
            f'<line x1="{px}" x2="{px}" y1="{num(bottom)}" y2="{num(bottom + 5)}" stroke="{AXIS}"/>'
            f'<text x="{px}" y="{num(bottom + 19)}" text-anchor="middle">{x_fmt(t)}</text>'
        )
    out.append(
        f'<path d="M{num(left)},{num(top)}V{num(bottom)}H{num(right)}" fill="none" '
        f'stroke="{AXIS}"/>'
    )
    out.append("</g>")
    return out


def chart_id(prefix: str, data: object) -> str:
    """A chart's element id, from its data: stable between builds, apart between charts."""
    return f"{prefix}-{data_digest(data)[:10]}"


def data_digest(data: object, salt: str = "") -> str:
    """The SHA-256 of `salt` and `data` written by pickle without its memo: every value with
    its type and exact bits (a float's 8 bytes, not its repr: a fifth of the cost of writing
    the data as JSON), so any change to the data changes it; equal data gives the same bytes
    whatever objects it shares (the memo would write a shared one once). The data holds no
    set, whose order would follow the process' string hashes."""
    digest = hashlib.sha256(salt.encode())
    pickler = pickle.Pickler(_Sink(digest.update), protocol=5)
    pickler.fast = True  # no memo: the bytes follow the values alone, not their identity
    pickler.dump(data)
    return digest.hexdigest()


class _Sink:
    """A file whose writes go to `write` (pickle writes the data to the hash in frames)."""

    def __init__(self, write: Callable[[bytes], object]) -> None:
        self.write = write


def id_of_json(prefix: str, written: str) -> str:
    """A chart's element id from its data as JSON text, `written` (envelope_chart.py writes
    each series' JSON once for all its charts)."""
    return f"{prefix}-{hashlib.sha256(written.encode()).hexdigest()[:10]}"


def svg_start(
    chart: str, kind: str, size: tuple[int, int], title: str, desc: str, attrs: str = ""
) -> list[str]:
    """The opening of a chart: the <svg> element named by its title and description, and a
    white ground. `attrs` are added to the <svg> element as they are."""
    width, height = size
    return [
        f'<svg id="{chart}" class="chart {kind}" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="group" '
        f'aria-labelledby="{chart}-title" aria-describedby="{chart}-desc"{attrs}>',
        f'<title id="{chart}-title">{text(title)}</title>',
        f'<desc id="{chart}-desc">{text(desc)}</desc>',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
