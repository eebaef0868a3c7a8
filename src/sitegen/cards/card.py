"""Link-preview images: a card (title, the headline figure, a small frontier) drawn straight
into a 1200 x 630 palette PNG.

Text is drawn from the shipped fonts (templates/fonts/, through glyphs.py and raster.py), so a
card is the same pixels on every machine, and no string from data is ever interpreted: each is
made printable, cut to fit its box with the widths it is drawn at, and drawn one glyph per
character. Colours are a fixed palette of the card's ten and their blends (raster.Palette).
The PNG is compressed by Python's zlib: the same pixels give the same bytes with the same zlib
(its version is in every card's key: fingerprint.library_versions). docs/pages.md says why a
card is drawn here rather than rasterised from SVG.
"""

from __future__ import annotations

import functools
import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import glyphs, raster

WIDTH, HEIGHT = 1200, 630
BG, FG, MUTED, LINE, ACCENT = "#ffffff", "#1b1f24", "#57606a", "#d8dee4", "#0b5cad"
BOX = "#f6f8fa"  # the frontier's panel
SERIES = ("#0b5cad", "#cf222e", "#1a7f37", "#8250df")
LEFT = 64
TEXT_WIDTH = 640  # the frontier takes the right of the card
PLOT = (760, 300, 1140, 540)  # x0, y0, x1, y1 of the small frontier
PANEL = (PLOT[0] - 24, PLOT[1] - 24, PLOT[2] + 24, PLOT[3] + 52)  # its box, rounded 16
GAP = 24  # between the footer and the panel
STROKE = 5  # the frontier's lines
MAX_SERIES = 16  # drawn (a card has 1 to 3; more is data gone wrong, and would cost)
MAX_POINTS = 400  # of a series, drawn: about one a pixel of the plot's width


@dataclass(frozen=True)
class Series:
    label: str
    points: tuple[tuple[float, float], ...]  # (tokens/s per user, tokens/s per GPU)


@dataclass(frozen=True)
class Card:
    """What a card says, top to bottom. Every string may come from data."""

    site: str
    title: str
    figure: str  # the headline figure ("9,148"), or "" where there is none
    unit: str  # what the figure counts ("tokens/s per GPU")
    lines: tuple[str, ...] = ()  # up to three lines under the figure
    footer: str = ""
    series: tuple[Series, ...] = field(default=())
    x_mark: float | None = None  # the headline target, drawn as a dashed line


@functools.cache
def palette() -> raster.Palette:
    """The card's colours, then their blends: each text colour on what it is drawn on (16
    levels), the frontier's lines on the panel (16), and at 8 levels where edges meet: the
    panel's, the lines' over the axes and over each other."""
    solids = [BG, ACCENT, FG, MUTED, BOX, LINE, *SERIES[1:]]
    text = [(BG, FG), (BG, MUTED), (BG, ACCENT), (BOX, MUTED)]
    fine = [(BOX, s, 16) for s in SERIES]
    coarse = [(BG, BOX), (BG, LINE), (BOX, LINE), *((MUTED, s) for s in SERIES)]
    coarse += [(a, b) for i, a in enumerate(SERIES) for b in SERIES[i + 1 :]]
    return raster.Palette(solids, text, fine + [(a, b, 8) for a, b in coarse])


def _text(
    canvas: raster.Canvas,
    text: str,
    x: int,
    y: int,
    size: int,
    colour: str,
    weight: str = "regular",
    width: float = TEXT_WIDTH,
    under: str = BG,
) -> None:
    """`text` made printable and cut to `width`, its baseline starting at (x, y)."""
    fitted = glyphs.fit(text, size, width, weight)
    ramp = palette().ramps[under, colour]
    patch, ink, left, top = raster.text_patch(fitted, size, weight, ramp)
    canvas.lay(x + left, y + top, patch, ink)


def _title_size(title: str) -> int:
    """The largest of a few sizes at which the title fits one line; else the smallest, cut."""
    text = glyphs.printable(title)
    for size in (60, 52):
        if glyphs.fit(text, size, WIDTH - 2 * LEFT, "bold") == text:  # it fits uncut
            return size
    return 44


@functools.cache
def _template(plot: bool) -> raster.Canvas:
    """What every card has: the background, the accent bar; with `plot`, the frontier's
    panel, its axes and the x axis' label."""
    canvas = raster.Canvas(WIDTH, HEIGHT)
    index = palette().index
    canvas.rect(0, 0, WIDTH, 14, index[ACCENT])
    if plot:
        x0, y0, x1, y1 = PLOT
        (left, top), fill, border = raster.rounded_box(PANEL, 16, 2)
        panel = canvas.pixels[top : top + fill.shape[0], left : left + fill.shape[1]]
        panel[fill == 1] = index[BOX]
        panel[border == 1] = index[LINE]
        edge = ((fill > 0) & (fill < 1)) | ((border > 0) & (border < 1))  # the corners
        colour = palette().colours[[index[c] for c in (BG, LINE, BOX)]]
        f, b = fill[edge][:, None], border[edge][:, None]
        panel[edge] = palette().nearest((1 - f - b) * colour[0] + b * colour[1] + f * colour[2])
        muted = index[MUTED]
        canvas.rect(x0 - 1, y0, x0 + 1, y1 + 1, muted)  # the axes, 2 px on their lines
        canvas.rect(x0 - 1, y1 - 1, x1, y1 + 1, muted)
        _text(canvas, "tok/s per user \u2192", x0, y1 + 36, 22, MUTED, width=x1 - x0, under=BOX)
    canvas.rows.flags.writeable = False
    return canvas


def _finite(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points that can be drawn, in order of x: finite, and on the axes (from zero);
    of more than MAX_POINTS, evenly spaced ones and the last."""
    drawn = sorted((max(x, 0.0), max(y, 0.0)) for x, y in points if math.isfinite(x + y))
    if len(drawn) > MAX_POINTS:
        step = -(-len(drawn) // MAX_POINTS)
        drawn = drawn[::step] + ([drawn[-1]] if (len(drawn) - 1) % step else [])
    return drawn


def _drawn(card: Card) -> list[tuple[Series, list[tuple[float, float]]]]:
    """The series the frontier draws (those with a point to draw, MAX_SERIES at most), each
    with its points."""
    drawn = []
    for s in card.series:
        if points := _finite(s.points):
            drawn.append((s, points))
            if len(drawn) == MAX_SERIES:
                break
    return drawn


class _Frame(NamedTuple):
    """Where a card's small frontier goes: its series' lines in pixels, and its mark's x."""

    lines: list[list[tuple[float, float]]]
    mark_x: float | None  # the dashed line's, where the card has a mark


def _frame(card: Card, drawn: list[tuple[Series, list[tuple[float, float]]]]) -> _Frame:
    """The small frontier's lines and mark in pixels, on linear axes from zero."""
    x0, y0, x1, y1 = PLOT
    mark = card.x_mark if card.x_mark and math.isfinite(card.x_mark) else None
    xs = [x for _, points in drawn for x, _ in points] + ([mark] if mark else [])
    ys = [y for _, points in drawn for _, y in points]
    x_max, y_max = max(max(xs), 0) * 1.05 or 1.0, max(max(ys), 0) * 1.1 or 1.0

    def at(x: float, y: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * x / x_max, y1 - (y1 - y0) * y / y_max

    mark_x = min(at(mark, 0)[0], x1) if mark and mark > 0 else None
    return _Frame([[at(x, y) for x, y in points] for _, points in drawn], mark_x)


INSIDE = (PANEL[0] + 2, PANEL[1] + 2, PANEL[2] - 2, PANEL[3] - 2)  # where the lines may draw


def _plot(
    canvas: raster.Canvas,
    drawn: list[tuple[Series, list[tuple[float, float]]]],
    frame: _Frame,
) -> None:
    """The small frontier: its mark, each series' line, the legend."""
    x0, y0, x1, y1 = PLOT
    if frame.mark_x is not None:
        canvas.blend(*raster.vertical_dashes(frame.mark_x, 2, y0, y1, 6), palette().blend(MUTED))
    for i, line in enumerate(frame.lines):
        ys, xs, levels = raster.stroke(line, STROKE, INSIDE)
        canvas.blend(ys, xs, levels, palette().blend(SERIES[i % len(SERIES)]))
    legend = [(s.label, SERIES[i % len(SERIES)]) for i, (s, _) in enumerate(drawn) if s.label]
    legend = legend[: len(SERIES)]
    for i, (label, colour) in enumerate(legend):
        y = y0 - 44 - 28 * (len(legend) - 1 - i)
        canvas.rect(x0, y - 14, x0 + 22, y - 8, palette().index[colour])
        _text(canvas, label, x0 + 32, y, 22, FG, width=x1 - x0 - 32)


def card_png(card: Card) -> bytes:
    """The card as an 8-bit palette PNG, 1200 x 630."""
    drawn = _drawn(card)
    frame = _frame(card, drawn) if drawn else None
    size = _title_size(card.title)
    canvas = _template(frame is not None).copy()
    _text(canvas, card.site, LEFT, 84, 30, MUTED, width=WIDTH - 2 * LEFT)
    _text(canvas, card.title, LEFT, 84 + 20 + size, size, FG, "bold", WIDTH - 2 * LEFT)
    y = 330
    if card.figure:
        _text(canvas, card.figure, LEFT, y, 120, ACCENT, "bold")
        _text(canvas, card.unit, LEFT, y + 52, 36, FG)
        y += 52
    for line in card.lines[:3]:
        y += 52
        _text(canvas, line, LEFT, y, 30, MUTED)
    if frame is not None:
        _plot(canvas, drawn, frame)
    if card.footer:
        # beside the panel where there is one, not over it
        width = PANEL[0] - GAP - LEFT if frame is not None else WIDTH - 2 * LEFT
        _text(canvas, card.footer, LEFT, HEIGHT - 40, 26, MUTED, width=width)
    return png(canvas.rows, palette().plte)


LEVEL = 1  # zlib's fastest: 1.5 ms a card, 34 KB (its default, 6: 3.4 ms, 25 KB)


def png(rows: np.ndarray, plte: bytes) -> bytes:
    """An 8-bit palette PNG of `rows` (raster.Canvas.rows: each row of palette entries led by
    its filter byte, 0, as PNG compresses them) with the palette `plte` (RGB triples)."""
    height, stride = rows.shape
    header = struct.pack(">IIBBBBB", stride - 1, height, 8, 3, 0, 0, 0)  # 8 bits, palette
    chunks = ((b"IHDR", header), (b"PLTE", plte), (b"IDAT", zlib.compress(rows, LEVEL)))
    return b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        for kind, data in (*chunks, (b"IEND", b""))
    )


def series_of(label: str, points: Sequence[tuple[float, float]]) -> Series:
    return Series(glyphs.printable(label), tuple((float(x), float(y)) for x, y in points))


def warm() -> None:
    """The palette's tables, the fonts and both blank cards made now, by drawing one card: a
    process about to fork its workers makes them once for all of them (a process's first
    card costs about 80 ms more than the next)."""
    series = (Series("0", ((0.0, 1.0), (1.0, 0.5))),)
    card_png(Card("0", "0", "0.0x", "0", ("0",), "0", series, x_mark=0.5))
    card_png(Card("0", "0", "", "0"))
