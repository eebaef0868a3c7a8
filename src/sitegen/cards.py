"""Link-preview images: a card (title, the headline figure, a small frontier) drawn as SVG,
then rasterised to a 1200 x 630 PNG.

Every piece of text is drawn as glyph outlines of the shipped fonts (glyphs.py), so no string
from data ever reaches the SVG as text: there is nothing to escape and nothing for the
rasteriser to look up. vl-convert's resvg draws the SVG (docs/pages.md says why this one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from . import glyphs

WIDTH, HEIGHT = 1200, 630
BG, FG, MUTED, LINE, ACCENT = "#ffffff", "#1b1f24", "#57606a", "#d8dee4", "#0b5cad"
SERIES = ("#0b5cad", "#cf222e", "#1a7f37", "#8250df")
LEFT = 64
TEXT_WIDTH = 640  # the frontier takes the right of the card
PLOT = (760, 300, 1140, 540)  # x0, y0, x1, y1 of the small frontier


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


def _text(
    g: glyphs.Glyphs,
    text: str,
    x: float,
    y: float,
    size: float,
    colour: str,
    weight: str = "regular",
    width: float = TEXT_WIDTH,
) -> str:
    return g.text(glyphs.fit(text, size, width, weight), x, y, size, colour, weight)


def _title_size(title: str) -> int:
    """The largest of a few sizes at which the title fits one line; else the smallest, cut."""
    for size in (60, 52, 44):
        if glyphs.face("bold").width(glyphs.printable(title), size) <= WIDTH - 2 * LEFT:
            return size
    return 44


def _plot(g: glyphs.Glyphs, card: Card) -> list[str]:
    """The small frontier: each series' points joined, on linear axes from zero."""
    drawn = [s for s in card.series if s.points]
    if not drawn:
        return []
    x0, y0, x1, y1 = PLOT
    xs = [x for s in drawn for x, _ in s.points] + ([card.x_mark] if card.x_mark else [])
    ys = [y for s in drawn for _, y in s.points]
    x_max, y_max = max(xs) * 1.05 or 1.0, max(ys) * 1.1 or 1.0

    def at(x: float, y: float) -> str:
        return f"{x0 + (x1 - x0) * x / x_max:.1f},{y1 - (y1 - y0) * y / y_max:.1f}"

    out = [
        f'<rect x="{x0 - 24}" y="{y0 - 24}" width="{x1 - x0 + 48}" height="{y1 - y0 + 76}" '
        f'rx="16" fill="#f6f8fa" stroke="{LINE}" stroke-width="2"/>',
        f'<path d="M{x0} {y0}V{y1}H{x1}" fill="none" stroke="{MUTED}" stroke-width="2"/>',
    ]
    if card.x_mark:
        mx = x0 + (x1 - x0) * card.x_mark / x_max
        out.append(
            f'<path d="M{mx:.1f} {y0}V{y1}" stroke="{MUTED}" stroke-width="2" '
            'stroke-dasharray="6 6"/>'
        )
    for i, s in enumerate(drawn):
        colour = SERIES[i % len(SERIES)]
        points = " ".join(at(x, y) for x, y in sorted(s.points))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="5" '
            'stroke-linejoin="round" stroke-linecap="round"/>'
        )
    out.append(_text(g, "tok/s per user \u2192", x0, y1 + 36, 22, MUTED, width=x1 - x0))
    labels = [s.label for s in drawn if s.label][: len(SERIES)]
    for i, label in enumerate(labels):
        y = y0 - 44 - 28 * (len(labels) - 1 - i)
        out.append(f'<rect x="{x0}" y="{y - 14}" width="22" height="6" fill="{SERIES[i]}"/>')
        out.append(_text(g, label, x0 + 32, y, 22, FG, width=x1 - x0 - 32))
    return out


def card_svg(card: Card) -> str:
    """The card as SVG, 1200 x 630, with no <text> element and no reference outside itself."""
    size = _title_size(card.title)
    g = glyphs.Glyphs()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BG}"/>',
        f'<rect width="{WIDTH}" height="14" fill="{ACCENT}"/>',
        _text(g, card.site, LEFT, 84, 30, MUTED, width=WIDTH - 2 * LEFT),
        _text(g, card.title, LEFT, 84 + 20 + size, size, FG, "bold", WIDTH - 2 * LEFT),
    ]
    y = 330
    if card.figure:
        parts.append(_text(g, card.figure, LEFT, y, 120, ACCENT, "bold"))
        parts.append(_text(g, card.unit, LEFT, y + 52, 36, FG, width=TEXT_WIDTH))
        y += 52
    for line in card.lines[:3]:
        y += 52
        parts.append(_text(g, line, LEFT, y, 30, MUTED))
    parts += _plot(g, card)
    if card.footer:
        parts.append(_text(g, card.footer, LEFT, HEIGHT - 40, 26, MUTED, width=WIDTH - 2 * LEFT))
    parts.insert(1, g.defs())
    parts.append("</svg>")
    return "\n".join(parts)


def rasterise(svg: str) -> bytes:
    """The SVG as PNG bytes: the same bytes for the same SVG on every machine (no fonts)."""
    import vl_convert  # a native library: loaded only by a build that draws a card

    return bytes(vl_convert.svg_to_png(svg))


def card_png(card: Card) -> bytes:
    return rasterise(card_svg(card))


def series_of(label: str, points: Sequence[tuple[float, float]]) -> Series:
    return Series(glyphs.printable(label), tuple((float(x), float(y)) for x, y in points))
