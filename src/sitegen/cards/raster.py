"""Drawing straight into palette entries: a few colours, blended at 16 levels of coverage.

A card has ten colours. Its palette (Palette) holds them and, for each pair that meets on a
card, the blends between them: each text colour on what it is drawn on as a ramp of 17
entries (so that a glyph's entry is the ramp's first plus its level), a frontier's line on the
panel at 16 levels, and edges that meet here and there (the panel's corners, lines crossing)
at 8. Drawing is coverage: glyphs (FreeType through Pillow, at four times the size and
reduced, so that each lands on the quarter pixel of its advance, the width glyphs.fit
measured) and strokes (from each pixel's distance to the line). Laying a colour at level k
over a pixel of entry i gives `blend(colour)[i, k]`, the entry nearest to the true blend.

Nothing here reads a string: text arrives as characters to draw, one glyph each.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from . import glyphs

if TYPE_CHECKING:
    from PIL import ImageFont

# Pillow is imported where it draws: a build without cards does not load it

LEVELS = 16  # coverage steps: 0 (nothing) to 16 (solid)
SUPER = 4  # glyphs are drawn at 4x and reduced: quarter-pixel placement, exact coverage


def rgb(colour: str) -> tuple[int, int, int]:
    """'#rrggbb' as (r, g, b)."""
    value = int(colour.lstrip("#"), 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


class Palette:
    """Up to 256 colours: `solids` first (entry 0 is the background), then each of `ramps`
    (under, over) as 17 entries, `under` blended with `over` at level 0 to 16, then each of
    `pairs` (under, over, steps) as its blends at 1/steps to (steps - 1)/steps. Text is laid
    through a ramp (entry = its first + level); anything else through `blend`."""

    def __init__(
        self,
        solids: Sequence[str],
        ramps: Sequence[tuple[str, str]],
        pairs: Sequence[tuple[str, str, int]],
    ) -> None:
        entries = [rgb(c) for c in solids]
        self.index = {c: i for i, c in enumerate(solids)}
        self.ramps: dict[tuple[str, str], int] = {}
        for under, over in ramps:
            self.ramps[under, over] = len(entries)
            entries += self._steps(under, over, LEVELS, 0, LEVELS + 1)
        for under, over, steps in pairs:
            entries += self._steps(under, over, steps, 1, steps)
        if len(entries) > 256:
            raise ValueError(f"{len(entries)} colours: a PNG palette holds 256")
        self.colours = np.array(entries, float)
        self.plte = bytes(np.array(entries, np.uint8).reshape(-1))

    @staticmethod
    def _steps(under: str, over: str, steps: int, first: int, stop: int) -> list[tuple]:
        a, b = np.array(rgb(under), float), np.array(rgb(over), float)
        return [tuple(int(v) for v in np.rint(a + (b - a) * k / steps)) for k in range(first, stop)]

    def nearest(self, colours: np.ndarray) -> np.ndarray:
        """The entry nearest to each colour (..., 3): the first, where two are as near."""
        flat = colours.reshape(-1, 3).astype(np.float32)
        entries = self.colours.astype(np.float32).T[:, None, :]  # channel x 1 x entry
        out = np.empty(len(flat), np.uint8)
        for start in range(0, len(flat), 1024):
            part = flat[start : start + 1024].T[:, :, None]  # channel x colour x 1
            dist = np.square(part[0] - entries[0])
            dist += np.square(part[1] - entries[1])
            dist += np.square(part[2] - entries[2])
            out[start : start + 1024] = dist.argmin(1)
        return out.reshape(colours.shape[:-1])

    @functools.cache  # noqa: B019 (palettes live as long as the module)
    def blend(self, colour: str) -> np.ndarray:
        """[entry, level]: the entry nearest to `colour` laid at level/16 over `entry`."""
        over = np.array(rgb(colour), float)
        k = np.arange(LEVELS + 1)[None, :, None] / LEVELS
        table = self.nearest(self.colours[:, None, :] * (1 - k) + over * k)
        table[:, 0] = np.arange(len(self.colours))  # nothing laid: the pixel as it was
        table[:, LEVELS] = self.index[colour]
        return table


class Canvas:
    """A height x width image of palette indices, kept as PNG's rows: each led by its
    filter byte (0), so that the array is the stream to compress as it is."""

    def __init__(self, width: int, height: int) -> None:
        self.rows = np.zeros((height, width + 1), np.uint8)
        self.pixels = self.rows[:, 1:]
        self.width, self.height = width, height

    def copy(self) -> Canvas:
        """A canvas of the same pixels, to draw on."""
        canvas = Canvas(self.width, self.height)
        canvas.rows[...] = self.rows
        return canvas

    def rect(self, x0: int, y0: int, x1: int, y1: int, entry: int) -> None:
        """Fill [x0, x1) x [y0, y1) (pixel-aligned) with one entry."""
        x0, x1 = max(x0, 0), min(x1, self.width)
        y0, y1 = max(y0, 0), min(y1, self.height)
        if x0 < x1 and y0 < y1:
            self.pixels[y0:y1, x0:x1] = entry

    def lay(self, x: int, y: int, patch: np.ndarray, ink: np.ndarray) -> None:
        """Set the entries of `patch` where `ink` is true, its top left at (x, y); what falls
        outside the canvas is dropped."""
        h, w = patch.shape
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x0 < x1 and y0 < y1:
            part = (slice(y0 - y, y1 - y), slice(x0 - x, x1 - x))
            np.copyto(self.pixels[y0:y1, x0:x1], patch[part], where=ink[part])

    def blend(self, ys: np.ndarray, xs: np.ndarray, levels: np.ndarray, table: np.ndarray):
        """Lay a colour at `levels` (0-16) on the pixels at (ys, xs), which are on the canvas,
        each once at most, through its blend table (Palette.blend)."""
        self.pixels[ys, xs] = table[self.pixels[ys, xs], levels]


# Text


@functools.cache
def _font(weight: str, size: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    path = glyphs.font_dir() / glyphs.FACES[weight]
    return ImageFont.truetype(str(path), size * SUPER, layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=4096)
def _glyph(weight: str, size: int, ch: str, phase: int) -> tuple[np.ndarray, int, int]:
    """The coverage levels (0-16) of one glyph whose origin is `phase` quarter pixels right
    of a pixel's left edge, on the baseline: (levels, left, top), from that pixel."""
    from PIL import Image

    core, (ox, oy) = _font(weight, size).getmask2(ch, mode="L", anchor="ls")
    big = np.asarray(Image.Image()._new(core))
    left, top = phase + ox, oy
    pad_x, pad_y = left % SUPER, top % SUPER
    h = -(-(big.shape[0] + pad_y) // SUPER) * SUPER
    w = -(-(big.shape[1] + pad_x) // SUPER) * SUPER
    grid = np.zeros((h, w), np.uint32)
    grid[pad_y : pad_y + big.shape[0], pad_x : pad_x + big.shape[1]] = big
    sums = grid.reshape(h // SUPER, SUPER, w // SUPER, SUPER).sum(axis=(1, 3))
    # the mean of 16 samples (0-255) as a level 0-16, rounded
    levels = ((sums * LEVELS + 255 * SUPER * SUPER // 2) // (255 * SUPER * SUPER)).astype(np.uint8)
    levels.flags.writeable = False
    return levels, left // SUPER, top // SUPER


@functools.lru_cache(maxsize=512)
def text_levels(text: str, size: int, weight: str) -> tuple[np.ndarray, int, int]:
    """`text` (already printable and fitted) as coverage levels (0-16): (levels, left, top)
    from its origin on the baseline. Each glyph is placed at its advance (the widths of
    glyphs.Face.width, which fitted it), rounded to a quarter pixel; where glyphs overlap,
    the more ink of the two."""
    face = glyphs.face(weight)
    quarter = size * SUPER / face.units
    placed = []
    pen = 0  # font units
    for ch in text:
        col, phase = divmod(round(pen * quarter), SUPER)
        levels, left, top = _glyph(weight, size, ch, phase)
        pen += face.advance(ch)
        if levels.size:
            placed.append((levels, col + left, top))
    if not placed:
        return np.zeros((0, 0), np.uint8), 0, 0
    x0 = min(x for _, x, _ in placed)
    y0 = min(y for _, _, y in placed)
    x1 = max(x + levels.shape[1] for levels, x, _ in placed)
    y1 = max(y + levels.shape[0] for levels, _, y in placed)
    out = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for levels, x, y in placed:
        h, w = levels.shape
        part = out[y - y0 : y - y0 + h, x - x0 : x - x0 + w]
        np.maximum(part, levels, out=part)
    out.flags.writeable = False
    return out, x0, y0


@functools.lru_cache(maxsize=512)
def text_patch(
    text: str, size: int, weight: str, ramp: int
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """`text` as entries of a palette ramp (its first entry `ramp`) and where it has ink:
    (patch, ink, left, top), for Canvas.lay."""
    levels, left, top = text_levels(text, size, weight)
    patch, ink = levels + np.uint8(ramp), levels > 0
    patch.flags.writeable = ink.flags.writeable = False
    return patch, ink, left, top


# Strokes


def stroke(
    points: Sequence[tuple[float, float]], width: float, clip: tuple[int, int, int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A polyline `width` wide with round joins and caps, as (ys, xs, levels) of the pixels
    it covers within `clip` (x0, y0, x1, y1: within the canvas), each pixel once; a point
    that is not finite is left out.

    Each pixel's coverage is from its centre's distance to the nearest segment, as an edge
    at that distance covers it. Each segment is measured along x never falling: a line that
    turns back in x is taken as the pieces along which x only grows or only falls, the
    latter reversed."""
    with np.errstate(all="ignore"):  # huge coordinates: what overflows covers nothing
        starts, stops = _ends(np.array(points, float).reshape(-1, 2))
        if not len(starts):
            return _nothing()
        return _segments(starts, stops, width / 2 + 0.5, clip)


def _ends(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The segments (starts, ends: n x 2 each) that stroke() measures of the points."""
    pts = pts[np.isfinite(pts).all(axis=1)]
    if len(pts) > 1:  # a repeated point adds nothing
        pts = pts[np.concatenate(([True], (np.diff(pts, axis=0) != 0).any(axis=1)))]
    if not len(pts):
        return pts, pts
    if len(pts) == 1:
        pts = np.vstack([pts, pts])  # one point: a dot, as a round cap draws it
    pieces = _monotone(pts)
    if len(pieces) == 1:
        return pts[:-1], pts[1:]
    return np.concatenate([p[:-1] for p in pieces]), np.concatenate([p[1:] for p in pieces])


def _monotone(pts: np.ndarray) -> list[np.ndarray]:
    """The polyline as pieces along which x never falls (those along which it never rises,
    reversed), each piece starting where the one before ends."""
    pieces, start, way = [], 0, 0.0
    steps = np.sign(np.diff(pts[:, 0])).tolist()
    for i, step in enumerate(steps):
        if step and way and step != way:  # x turns back at point i
            pieces.append(pts[start : i + 1])
            start = i
        if step:
            way = step
    pieces.append(pts[start:])
    return [p if p[-1, 0] >= p[0, 0] else p[::-1] for p in pieces]


def _segments(a: np.ndarray, b: np.ndarray, reach: float, clip: tuple[int, int, int, int]):
    """stroke() of the segments from a[i] to b[i] (n x 2 each), in one pass: the pixels of
    each column that a segment comes within `reach` of (a pixel whose centre is that far from
    the line is not touched), each measured against every segment that reaches its column,
    the nearest counting.

    Measuring only a column's rows near the line, all of a line's columns at once, is what
    makes a card's frontier cheap: each segment measured over the box it reaches, one segment
    at a time (the plain way, as tests/test_raster.py's reference measures it), costs 0.7 ms
    more a card (1.06 ms against 0.34 ms for a card's lines, 100-pair site), some 8 s of CPU
    of the 2,000-pair site's cold build (11,200 cards), 10 % of its 80 s."""
    ax, ay, bx = a[:, 0], a[:, 1], b[:, 0]
    dx, dy = bx - ax, b[:, 1] - ay
    inverse = 1 / np.maximum(dx * dx + dy * dy, 1e-12)
    # each segment's columns: those whose centres it comes within reach of in x
    c0 = _bounded(np.ceil(np.minimum(ax, bx) - reach - 0.5), clip[0], clip[2])
    c1 = _bounded(np.floor(np.maximum(ax, bx) + reach - 0.5) + 1, clip[0], clip[2])
    n = np.maximum(c1 - c0, 0)
    seg = np.repeat(np.arange(len(ax)), n)
    col = np.arange(len(seg)) - np.repeat(np.cumsum(n) - n - c0, n)
    # in each, the rows of its extent in y over the column's reach in x, grown by the reach
    sx, sy, ox, oy = dx[seg], dy[seg], ax[seg], ay[seg]
    cx = col + 0.5
    flat = sx == 0
    over = 1 / np.where(flat, 1.0, sx)
    t0 = np.where(flat, 0.0, np.minimum(np.maximum((cx - reach - ox) * over, 0.0), 1.0))
    t1 = np.where(flat, 1.0, np.minimum(np.maximum((cx + reach - ox) * over, 0.0), 1.0))
    y0, y1 = oy + t0 * sy, oy + t1 * sy
    r0 = _bounded(np.ceil(np.minimum(y0, y1) - reach - 0.5), clip[1], clip[3])
    r1 = _bounded(np.floor(np.maximum(y0, y1) + reach - 0.5) + 1, clip[1], clip[3])
    some = np.flatnonzero(r1 > r0)
    if not len(some):
        return _nothing()
    seg, col, r0, r1, cx = seg[some], col[some], r0[some], r1[some], cx[some]
    # a column's pixels: the rows any segment reaches, each measured against one of them
    # here (`one`), against the others below
    first = col.min()
    at = col - first
    cols = at.max() + 1
    top, bottom = np.full(cols, clip[3]), np.full(cols, clip[1])
    np.minimum.at(top, at, r0)
    np.maximum.at(bottom, at, r1)
    one = np.zeros(cols, np.intp)
    one[at] = np.arange(len(seg))  # any one of those in the column
    count = np.maximum(bottom - top, 0)
    start = np.cumsum(count) - count  # the column's first pixel
    j = seg[one]
    cy = np.arange(count.sum(), dtype=float) - np.repeat(start - top - 0.5, count)
    column = first + np.arange(cols)
    px = (column + 0.5) - ax[j]
    sx, sy, inv = dx[j], dy[j], inverse[j]
    dist2 = _distance2(np.repeat(px, count), cy - np.repeat(ay[j], count), sx, sy, inv, count)
    # the other segments of each column, over their own rows
    other = np.flatnonzero(one[at] != np.arange(len(seg)))
    if len(other):
        j, at, m = seg[other], at[other], r1[other] - r0[other]
        pixel = np.arange(m.sum()) - np.repeat(
            np.cumsum(m) - m - (start[at] + r0[other] - top[at]), m
        )
        d2 = _distance2(
            np.repeat(cx[other] - ax[j], m),
            cy[pixel] - np.repeat(ay[j], m),
            dx[j],
            dy[j],
            inverse[j],
            m,
        )
        np.minimum.at(dist2, pixel, d2)
    levels = _levels(reach, dist2)
    keep = np.flatnonzero(levels)
    ys = (cy[keep] - 0.5).astype(np.intp)
    xs = np.repeat(column, count)[keep]
    return ys, xs, levels[keep]


def _distance2(px, py, sx, sy, inverse, count) -> np.ndarray:
    """The squared distances from points (px, py) from a segment's start to it, the
    segment by (sx, sy) (`inverse` 1 / its squared length), each of these given for
    `count` points in a row."""
    sx, sy = np.repeat(sx, count), np.repeat(sy, count)
    t = (px * sx + py * sy) * np.repeat(inverse, count)
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    px -= t * sx
    py -= t * sy
    return px * px + py * py


def _bounded(v: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Whole numbers `v` (floats, perhaps huge or not numbers) held within [lo, hi]."""
    return np.fmin(np.fmax(v, lo), hi).astype(np.intp)


def _levels(reach: float, dist2: np.ndarray) -> np.ndarray:
    """The level (0-16) at which an edge `reach` - distance away covers a pixel."""
    return np.rint(np.minimum(np.fmax(reach - np.sqrt(dist2), 0.0), 1.0) * LEVELS).astype(np.uint8)


def _nothing() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    empty = np.zeros(0, np.intp)
    return empty, empty, np.zeros(0, np.uint8)


def vertical_dashes(
    x: float, width: float, y0: int, y1: int, dash: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A vertical line centred on x, `width` wide, from y0 to y1 (whole pixels), dashed
    `dash` on, `dash` off from y0: (ys, xs, levels) of its pixels (none where x is not
    finite)."""
    if not math.isfinite(x):
        return _nothing()
    lo, hi = x - width / 2, x + width / 2
    cols = np.arange(math.floor(lo), math.ceil(hi))
    cover = np.clip(np.minimum(cols + 1, hi) - np.maximum(cols, lo), 0.0, 1.0)
    levels = np.rint(cover * LEVELS).astype(np.uint8)
    cols, levels = cols[levels > 0], levels[levels > 0]
    rows = np.arange(y0, y1)
    rows = rows[(rows - y0) // dash % 2 == 0]
    return np.repeat(rows, len(cols)), np.tile(cols, len(rows)), np.tile(levels, len(rows))


def rounded_box(
    box: tuple[int, int, int, int], radius: float, border: float, scale: int = 8
) -> tuple[tuple[int, int], np.ndarray, np.ndarray]:
    """Coverage (0-1) of a rounded rectangle's fill and of its border (centred on its edge)
    over the pixels of `box` grown by the border: ((left, top), fill, border), the arrays y
    by x, drawn at `scale` times and averaged."""
    from PIL import Image, ImageDraw

    x0, y0, x1, y1 = box
    grow = math.ceil(border)
    w, h = (x1 - x0 + 2 * grow) * scale, (y1 - y0 + 2 * grow) * scale

    def cover(inset: float, r: float) -> np.ndarray:
        im = Image.new("L", (w, h))
        d = (grow + inset) * scale
        ImageDraw.Draw(im).rounded_rectangle(
            (d, d, w - d - 1, h - d - 1), radius=r * scale, fill=255
        )
        return np.asarray(im.reduce(scale), float) / 255

    outer = cover(-border / 2, radius + border / 2)
    inner = cover(border / 2, radius - border / 2)
    return (x0 - grow, y0 - grow), inner, outer - inner
