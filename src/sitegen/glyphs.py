"""Text drawn as outlines of the fonts shipped with the theme (templates/fonts/).

Link-preview images give their text to the rasteriser as paths, not as <text>: no font is
looked up on the machine that builds, so an image is the same on every machine, and the
rasteriser does no font work. Widths come from the same fonts (badges and cards fit their
text with them).
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.ttLib import TTFont

from .render import theme_dir

FACES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
ELLIPSIS = "\u2026"


def font_dir() -> Path:
    return theme_dir() / "fonts"


@functools.cache
def fonts_digest() -> str:
    """The shipped fonts' digest: part of every image key, so a new font redraws them."""
    h = hashlib.blake2b(digest_size=16)
    for name in sorted(FACES.values()):
        h.update(name.encode() + b"\0" + (font_dir() / name).read_bytes())
    return h.hexdigest()


def printable(text: str) -> str:
    """`text` without control and format characters (which have no glyph, and which XML 1.0
    does not allow), whitespace runs made one space."""
    text = str(text)
    if text.isprintable():  # the common case, checked in C: only spaces to fold
        return " ".join(text.split()) if "  " in text or text != text.strip() else text
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())


@dataclass
class Face:
    """One shipped font: advance widths by character, read once each."""

    font: TTFont

    def __post_init__(self) -> None:
        self.cmap = self.font.getBestCmap()
        self.metrics = self.font["hmtx"].metrics
        self.units = self.font["head"].unitsPerEm
        self._advances: dict[str, int] = {}
        self._outlines: dict[str, str] = {}

    def glyph(self, ch: str) -> str:
        return self.cmap.get(ord(ch), ".notdef")

    def advance(self, ch: str) -> int:
        """How far `ch` moves the pen, in font units (a character the font lacks: .notdef's)."""
        try:
            return self._advances[ch]
        except KeyError:
            width = self._advances[ch] = self.metrics[self.glyph(ch)][0]
            return width

    def width(self, text: str, size: float) -> float:
        """How wide `text` is at `size` px."""
        return sum(map(self.advance, text)) * size / self.units

    def outline(self, name: str) -> str:
        """A glyph's outline as SVG path data, in font units (y up)."""
        if name not in self._outlines:
            glyphs = self.font.getGlyphSet()
            pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:g}")
            glyphs[name].draw(pen)
            self._outlines[name] = pen.getCommands()
        return self._outlines[name]


@functools.cache
def face(weight: str = "regular") -> Face:
    return Face(TTFont(font_dir() / FACES[weight], lazy=True))


def fit(text: str, size: float, width: float, weight: str = "regular") -> str:
    """`text` made printable and cut (with an ellipsis) to be at most `width` px wide at
    `size` px: the longest start of it that fits with the ellipsis. Reads no further than
    fits, so that a huge string costs no more than a short one."""
    if len(text) <= 200:  # the strings cards repeat (remembered; a huge one is not kept)
        return _fit_short(text, size, width, weight)
    return _fit(text, size, width, weight)


def _fit(text: str, size: float, width: float, weight: str) -> str:
    f = face(weight)
    text = printable(text)
    ellipsis = f.advance(ELLIPSIS)
    units = cut = 0
    for i, ch in enumerate(text):
        if (units + ellipsis) * size / f.units <= width:
            cut = i  # text[:i] and the ellipsis fit
        units += f.advance(ch)
        if units * size / f.units > width:
            return text[:cut].rstrip() + ELLIPSIS
    return text


class Glyphs:
    """Text for one SVG: each string placed as <use> of glyph outlines, which `defs()` then
    defines once each (in font units, y up, flipped by the string's transform)."""

    def __init__(self) -> None:
        self._used: dict[str, str] = {}

    def text(self, text: str, x: float, y: float, size: float, fill: str, weight: str) -> str:
        """`text` with its baseline starting at (x, y), `size` px high, as an SVG group."""
        f = face(weight)
        scale = size / f.units
        uses = []
        pen_x = 0
        for ch in printable(text):
            name = f.glyph(ch)
            ref = f"{weight[0]}{f.font.getGlyphID(name)}"
            if ref not in self._used:
                self._used[ref] = f.outline(name)
            if self._used[ref]:
                uses.append(f'<use href="#{ref}" x="{pen_x}"/>')
            pen_x += f.metrics[name][0]
        return (
            f'<g fill="{fill}" transform="translate({x:.1f} {y:.1f}) scale({scale:.5f} '
            f'{-scale:.5f})">{"".join(uses)}</g>'
        )

    def defs(self) -> str:
        paths = "".join(f'<path id="{ref}" d="{d}"/>' for ref, d in self._used.items() if d)
        return f"<defs>{paths}</defs>"


_fit_short = functools.lru_cache(maxsize=2048)(_fit)
