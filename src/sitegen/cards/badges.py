"""README badges: a small shields-style SVG with a pair's headline figure.

"B200 | 9,148 tok/s/GPU @ 50": the label on grey, the figure on the accent colour. Widths come
from the shipped font's metrics (glyphs.py); every string is escaped for XML.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from ..records import TOTAL
from ..render import display
from . import glyphs

BADGE = "badge.svg"
SIZE = 11  # px, as shields.io draws them
PAD = 6
HEIGHT = 20
LABEL_BG, VALUE_BG, NONE_BG = "#555", "#0b5cad", "#9f9f9f"


def badge_value(
    throughput_per_gpu: float | None, interactivity: float, tokens_counted: str = TOTAL
) -> str:
    """The badge's right half: "9,148 tok/s/GPU @ 50" ("output tok/s/GPU" where the workload
    counts output tokens), or that no config reaches the target."""
    if throughput_per_gpu is None:
        return f"no config @ {display.rate(interactivity)}"
    unit = display.per_gpu_short(tokens_counted)
    return f"{display.tokens(throughput_per_gpu)} {unit} @ {display.rate(interactivity)}"


def _width(text: str) -> int:
    return round(glyphs.face("regular").width(text, SIZE)) + 2 * PAD


def badge_size(label: str, value: str) -> tuple[int, int]:
    """The width and height in pixels of the badge reading `label | value` (badge_svg's): what
    the page's <img> reserves for it."""
    label, value = glyphs.printable(label)[:60], glyphs.printable(value)[:60]
    return _width(label) + _width(value), HEIGHT


def badge_svg(label: str, value: str, reached: bool = True) -> str:
    """A badge reading `label | value`; grey on the right where nothing was reached."""
    label, value = glyphs.printable(label)[:60], glyphs.printable(value)[:60]
    lw, vw = _width(label), _width(value)
    total = lw + vw
    title = f"{label}: {value}"
    colour = VALUE_BG if reached else NONE_BG

    def text(x: float, s: str, w: int) -> str:
        inner = escape(s)
        length = w - 2 * PAD
        return (
            f'<text x="{x}" y="15" fill="#010101" fill-opacity=".3" textLength="{length}">'
            f'{inner}</text><text x="{x}" y="14" textLength="{length}">{inner}</text>'
        )

    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{HEIGHT}" '
        f'role="img" aria-label={quoteattr(title)}>'
        f"<title>{escape(title)}</title>"
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" '
        'stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{total}" height="{HEIGHT}" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{lw}" height="{HEIGHT}" fill="{LABEL_BG}"/>'
        f'<rect x="{lw}" width="{vw}" height="{HEIGHT}" fill="{colour}"/>'
        f'<rect width="{total}" height="{HEIGHT}" fill="url(#s)"/></g>'
        '<g fill="#fff" font-family="DejaVu Sans,Verdana,Geneva,sans-serif" '
        f'font-size="{SIZE}" text-rendering="geometricPrecision">'
        f"{text(PAD, label, lw)}{text(lw + PAD, value, vw)}</g></svg>\n"
    )


def badge_markdown(alt: str, badge_url: str, page_url: str) -> str:
    """The Markdown that embeds the badge in a README, linking to the page."""

    def bare(text: str) -> str:  # Markdown's own characters in the alt text, escaped
        return "".join("\\" + ch if ch in "\\[]()*_`<>!" else ch for ch in glyphs.printable(text))

    return f"[![{bare(alt)}]({badge_url})]({page_url})"
