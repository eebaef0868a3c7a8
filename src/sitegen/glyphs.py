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
    """One shipped font: advance widths and outlines by character, read once each."""

    font: TTFont

    def __post_init__(self) -> None:
        self.cmap = self.font.getBestCmap()
        self.glyphs = self.font.getGlyphSet()
        self.units = self.font["head"].unitsPerEm
        self._outlines: dict[str, str] = {}

    def glyph(self, ch: str) -> str:
        return self.cmap.get(ord(ch), ".notdef")

    def advance(self, ch: str) -> int:
        return self.glyphs[self.glyph(ch)].width

    def width(self, text: str, size: float) -> float:
        """How wide `text` is at `size` px."""
        return sum(self.advance(ch) for ch in text) * size / self.units

    def outline(self, name: str) -> str:
        """A glyph's outline as SVG path data, in font units (y up)."""
        if name not in self._outlines:
            pen = SVGPathPen(self.glyphs, ntos=lambda v: f"{v:g}")
            self.glyphs[name].draw(pen)
            self._outlines[name] = pen.getCommands()
        return self._outlines[name]


@functools.cache
def face(weight: str = "regular") -> Face:
    return Face(TTFont(font_dir() / FACES[weight], lazy=True))


def fit(text: str, size: float, width: float, weight: str = "regular") -> str:
    """`text` cut (with an ellipsis) to be at most `width` px wide at `size` px."""
    f = face(weight)
    text = printable(text)
    if f.width(text, size) <= width:
        return text
    while text and f.width(text + ELLIPSIS, size) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


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
            pen_x += f.glyphs[name].width
        return (
            f'<g fill="{fill}" transform="translate({x:.1f} {y:.1f}) scale({scale:.5f} '
            f'{-scale:.5f})">{"".join(uses)}</g>'
        )

    def defs(self) -> str:
        paths = "".join(f'<path id="{ref}" d="{d}"/>' for ref, d in self._used.items() if d)
        return f"<defs>{paths}</defs>"
