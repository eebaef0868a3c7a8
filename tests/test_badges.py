"""README badges: models/<model>/<gpu>/badge.svg with the headline figure, the Markdown to
embed it on the pair page, and names that cannot break the SVG or the Markdown."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

from conftest import SITE_CONFIG
from sitegen.cards.badges import badge_markdown, badge_svg, badge_value

SVG = "{http://www.w3.org/2000/svg}"
BASE = SITE_CONFIG["base_url"]


def texts(svg: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_the_badge_reads_gpu_and_headline_figure(arena):
    _, files = arena
    svg = files["models/m1/g1/badge.svg"].decode()
    root = ET.fromstring(svg)
    assert root.get("height") == "20" and int(root.get("width")) > 100
    shown = texts(svg)
    assert shown[1] == "GPU One"
    assert re.fullmatch(r"[\d,]+ tok/s/GPU @ 20", shown[3])  # the arena's headline target
    assert root.get("aria-label") == f"GPU One: {shown[3]}"


def test_the_pair_page_shows_the_badge_and_its_markdown(arena):
    _, files = arena
    page = files["models/m1/g1/index.html"].decode()
    assert '<img src="badge.svg"' in page
    code = re.search(r'<pre class="embed"><code>(.*?)</code></pre>', page, re.S).group(1)
    assert html.unescape(code) == (
        f"[![Model One on GPU One]({BASE}models/m1/g1/badge.svg)]({BASE}models/m1/g1/)"
    )


def test_widths_follow_the_text():
    short, long = badge_svg("B200", "1 tok/s"), badge_svg("B200", "9,148 tok/s/GPU @ 50")
    assert int(ET.fromstring(long).get("width")) > int(ET.fromstring(short).get("width"))
    assert badge_value(None, 50) == "no config @ 50"
    assert badge_value(9148.4, 50) == "9,148 tok/s/GPU @ 50"


def test_hostile_names_are_escaped():
    svg = badge_svg('<script>zq</script>" onload="x', "]]>&\x00")
    assert ET.fromstring(svg) is not None and "<script>" not in svg
    assert texts(svg)[1] == '<script>zq</script>" onload="x'
    md = badge_markdown("a](javascript:x) ![b", "https://e.org/b.svg", "https://e.org/")
    assert md == "[![a\\]\\(javascript:x\\) \\!\\[b](https://e.org/b.svg)](https://e.org/)"
