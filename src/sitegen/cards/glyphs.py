"""The fonts shipped with the theme (templates/fonts/): their advance widths, and text made
printable and cut to fit a width with them.

Link-preview cards draw their text with these fonts (raster.py), never one looked up on the
machine that builds, so a card is the same on every machine; badges and cards fit their
text with these widths, which are the widths cards draw at.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from fontTools.ttLib import TTFont

from ..layout import theme_dir

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


_fit_short = functools.lru_cache(maxsize=2048)(_fit)
