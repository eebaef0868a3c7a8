"""Link-preview cards: a 1200 x 630 PNG per pair, model and comparison page, referenced by
absolute URLs from base_url, the same bytes from build to build, no data string as text."""

from __future__ import annotations

import re
import struct

import pytest
import yaml

from conftest import SITE_CONFIG, sweep
from sitegen.build import render_site
from sitegen.cards import HEIGHT, WIDTH, Card, Series, card_png, card_svg
from sitegen.records import SiteError

BASE = SITE_CONFIG["base_url"]
CARD_PAGES = ["models/m1/g1/", "models/m1/", "compare/g1-vs-g2/m1/"]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def meta(html: str, key: str) -> str | None:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)">', html)
    return found.group(1) if found else None


def test_every_pair_model_and_comparison_page_has_its_card(arena):
    _, files = arena
    pages = [p.removesuffix("index.html") for p in files if p.endswith("index.html")]
    with_card = [
        p
        for p in pages
        if p.startswith("models/") or (p.startswith("compare/") and p.count("/") == 3)
    ]
    assert set(CARD_PAGES) <= set(with_card)
    for route in with_card:
        html = files[route + "index.html"].decode()
        image = meta(html, "og:image")
        assert image == BASE + route + "social.png", route
        # the URL resolves under base_url: the file is in the build at that path
        assert png_size(files[image.removeprefix(BASE)]) == (WIDTH, HEIGHT)
        assert meta(html, "twitter:card") == "summary_large_image"
        assert meta(html, "twitter:image") == image
        assert meta(html, "og:image:width") == "1200" and meta(html, "og:image:height") == "630"


def test_pages_without_a_card_keep_the_small_summary(arena):
    _, files = arena
    for page in ("index.html", "gpus/g1/index.html", "404.html"):
        html = files[page].decode()
        assert meta(html, "og:image") is None
        assert meta(html, "twitter:card") == "summary"


def test_two_builds_give_the_same_png_bytes(arena):
    root, files = arena
    again, _ = render_site(root, use_cache=False)
    pngs = sorted(p for p in files if p.endswith(".png"))
    assert pngs and pngs == sorted(p for p in again if p.endswith(".png"))
    assert all(files[p] == again[p] for p in pngs)


def test_text_from_data_never_reaches_the_svg_as_text():
    hostile = '</svg><script>alert(1)</script><text>&amp;"'
    card = Card(
        site=hostile,
        title=hostile * 3,
        figure="9,148",
        unit=hostile,
        lines=(hostile, "\x00\x1b[31m", "\u202eevil"),
        footer=hostile,
        series=(Series(hostile, ((10.0, 100.0), (50.0, 40.0))),),
        x_mark=50.0,
    )
    svg = card_svg(card)
    assert "<script" not in svg and "<text" not in svg and "alert" not in svg
    assert svg.count("<svg") == 1 and svg.count("</svg>") == 1
    # nothing outside the SVG itself: every reference is to a glyph defined in it
    refs = re.findall(r'href="([^"]*)"', svg)
    ids = set(re.findall(r'id="([^"]*)"', svg))
    assert refs and all(r.startswith("#") and r[1:] in ids for r in refs)
    assert png_size(card_png(card)) == (WIDTH, HEIGHT)


def test_a_long_title_is_cut_not_drawn_off_the_card():
    short = card_svg(Card(site="s", title="Model on GPU", figure="1", unit="u"))
    long = card_svg(Card(site="s", title="Model " * 40, figure="1", unit="u"))
    # the smallest title size, and about as many glyphs as fit one line, not 240
    assert long.count("<use") < short.count("<use") + 60


def _built(root, cards) -> dict[str, bytes]:
    config = root / "sitegen.yaml"
    config.write_text(yaml.safe_dump({**SITE_CONFIG, "cards": cards}))
    files, problems = render_site(root, use_cache=False)
    return files


def test_cards_names_the_page_kinds_that_get_one(make_site):
    runs = {"lab/a.yaml": sweep(), "lab/b.yaml": sweep(gpu="g2")}
    root = make_site(runs=runs)
    only_pairs = _built(root, ["pair"])
    pngs = sorted(p for p in only_pairs if p.endswith(".png"))
    assert pngs == ["models/m1/g1/social.png", "models/m1/g2/social.png"]
    for page, card in (
        ("models/m1/", False),
        ("compare/g1-vs-g2/m1/", False),
        ("models/m1/g1/", True),
    ):
        html = only_pairs[page + "index.html"].decode()
        assert (meta(html, "og:image") is not None) is card, page
        assert meta(html, "twitter:card") == ("summary_large_image" if card else "summary")
    none = _built(root, [])
    assert not [p for p in none if p.endswith(".png")]
    assert "models/m1/g1/badge.svg" in none  # badges are not cards


def test_a_page_kind_that_is_not_one_is_an_error_with_its_line(make_site):
    root = make_site()
    text = yaml.safe_dump({**SITE_CONFIG, "cards": ["pair", "gpu"]}, sort_keys=False)
    (root / "sitegen.yaml").write_text(text)
    line = text.splitlines().index("- gpu") + 1
    with pytest.raises(SiteError) as info:
        render_site(root, use_cache=False)
    [problem] = [p for p in info.value.problems if p.field.startswith("cards")]
    assert (problem.file, problem.field) == ("sitegen.yaml", "cards[1]")
    assert problem.line == line and "one of pair, model, compare" in problem.message
