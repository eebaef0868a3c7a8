"""Link-preview cards: a 1200 x 630 palette PNG per pair, model and comparison page, referenced
by absolute URLs from base_url, the same bytes from build to build, every string from data
drawn as glyphs within its box."""

from __future__ import annotations

import io
import re
import struct
import zlib

import numpy as np
import pytest
import yaml
from PIL import Image

from conftest import SITE_CONFIG, sweep
from sitegen.cards import card as cards
from sitegen.cards import glyphs, raster
from sitegen.cards.card import HEIGHT, WIDTH, Card, Series, card_png
from sitegen.pipeline.build import render_site
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
    # pair and model pages (not their workloads' pages) and per-model comparisons
    with_card = [
        p
        for p in pages
        if (p.startswith("models/") and p.count("/") <= 3 and "/workloads/" not in p)
        or (p.startswith("compare/") and p.count("/") == 3)
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


HOSTILE = '</svg><script>alert(1)</script><text>&amp;"'


def decode(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """A card's pixels as palette entries (y by x) and its palette (entries x rgb)."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.mode == "P" and image.size == (WIDTH, HEIGHT)
        palette = np.array(image.getpalette(), np.uint8).reshape(-1, 3)
        return np.asarray(image), palette


def rgb_of(data: bytes) -> np.ndarray:
    entries, palette = decode(data)
    return palette[entries]


def colour(hex_colour: str) -> np.ndarray:
    return np.array(raster.rgb(hex_colour), np.uint8)


PLOTTED = Card(
    site="LLM Inference Leaderboard",
    title="DeepSeek R1 on B200",
    figure="9,148",
    unit="tokens/s per GPU",
    lines=("at 50 tokens/s per user", "$0.053 per million tokens", "vLLM FP8, 1k in / 1k out"),
    footer="example.org/leaderboard",
    series=(
        Series("B200", ((17.8, 12515.7), (74.0, 7111.4), (309.2, 49.3))),
        Series("H200", ((10.0, 6000.0), (60.0, 3000.0), (200.0, 100.0))),
    ),
    x_mark=50.0,
)


def test_a_card_is_a_1200_by_630_palette_png_that_zlib_and_pillow_read():
    data = card_png(PLOTTED)
    assert png_size(data) == (WIDTH, HEIGHT)
    assert data[24:26] == bytes([8, 3])  # 8 bits, palette
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    assert [k for k, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    rows = zlib.decompress(chunks[2][1])  # checks the stream's adler32 too
    assert len(rows) == HEIGHT * (WIDTH + 1)
    entries, _ = decode(data)
    assert np.array_equal(np.frombuffer(rows, np.uint8).reshape(HEIGHT, -1)[:, 1:], entries)
    assert len(data) < 60_000  # 160 KB through vl-convert; about 34 KB now


def test_a_png_reads_back_as_its_entries_and_palette_and_is_the_same_bytes_again():
    rng = np.random.default_rng(9)
    entries = np.repeat(rng.integers(0, 7, (40, 30)), 4, axis=1).astype(np.uint8)
    rows = np.zeros((40, 121), np.uint8)  # each row led by its filter byte, 0
    rows[:, 1:] = entries
    plte = bytes(rng.integers(0, 256, 21).astype(np.uint8))
    data = cards.png(rows, plte)
    with Image.open(io.BytesIO(data)) as image:
        assert image.mode == "P" and image.size == (120, 40)
        assert np.array_equal(np.asarray(image), entries)
        assert bytes(image.getpalette()[:21]) == plte
    assert cards.png(rows.copy(), plte) == data


def test_the_card_has_its_colours_where_they_belong():
    pixels = rgb_of(card_png(PLOTTED))
    assert (pixels[5, 600] == colour(cards.ACCENT)).all()  # the accent bar
    assert (pixels[30, 600] == colour(cards.BG)).all()
    assert (pixels[350, 1150] == colour(cards.BOX)).all()  # inside the panel, right margin
    # the panel's border, 2 px on its edge (y = 276), and its rounded corner
    assert (pixels[275:277, 1000] == colour(cards.LINE)).all()
    assert (pixels[277, 1000] == colour(cards.BOX)).all()
    assert (pixels[276, 736] == colour(cards.BG)).all()
    assert (pixels[420, 760] == colour(cards.MUTED)).all()  # the y axis
    # each series' colour, solid, in the plot; the figure's accent under the title
    plot = pixels[cards.PLOT[1] : cards.PLOT[3], cards.PLOT[0] : cards.PLOT[2]]
    for hex_colour in cards.SERIES[:2]:
        assert (plot == colour(hex_colour)).all(axis=2).sum() > 300, hex_colour
    figure = pixels[230:340, cards.LEFT : cards.LEFT + cards.TEXT_WIDTH]
    assert (figure == colour(cards.ACCENT)).all(axis=2).sum() > 3000
    # anti-aliased: text edges are blends, not only the solid colours
    _, palette = decode(card_png(PLOTTED))
    title = pixels[100:170, cards.LEFT : WIDTH - cards.LEFT].reshape(-1, 3)
    distinct = {tuple(p) for p in title}
    assert len(distinct) > 8
    assert distinct <= {tuple(p) for p in palette}


def test_a_card_without_a_frontier_has_no_panel():
    plain = rgb_of(card_png(Card(site="s", title="Model on GPU", figure="", unit="")))
    assert (plain[400:600, 700:1200] == colour(cards.BG)).all()
    assert (plain[:14] == colour(cards.ACCENT)).all()


def test_hostile_strings_are_drawn_as_glyphs_and_stay_in_their_boxes():
    rtl_and_missing = "\u202eevil \u05e9\u05dc\u05d5\u05dd \U0001f600 \u4e2d\ufffe\U0010fffd"
    card = Card(
        site=HOSTILE * 50,
        title=HOSTILE * 300 + "\x00\x1b[31m",
        figure="9" * 10_000,
        unit=rtl_and_missing * 100,
        lines=(HOSTILE, "\x00\x1b[31m\x07", rtl_and_missing, "a fourth line is not drawn"),
        footer="W" * 100_000,
        series=(
            Series(HOSTILE * 20, ((10.0, 100.0), (50.0, 40.0))),
            Series("", ((float("nan"), 1.0), (float("inf"), 2.0), (-5.0, -10.0), (3.0, 1e300))),
            *(Series(f"s{i}", ((1.0, float(i)),)) for i in range(6)),
        ),
        x_mark=float("inf"),
    )
    data = card_png(card)
    assert png_size(data) == (WIDTH, HEIGHT)
    pixels = rgb_of(data)
    bg = colour(cards.BG)
    # the title and the footer end before the right margin; the footer before the panel
    assert (pixels[90:190, WIDTH - cards.LEFT + 4 : cards.PANEL[0] + 1000] == bg).all()
    assert (pixels[560:600, cards.PANEL[0] - cards.GAP + 2 : cards.PANEL[0] - 1] == bg).all()
    # the figure and its unit end at the text column's width
    right = cards.LEFT + cards.TEXT_WIDTH + 4
    assert (pixels[230:400, right : cards.PANEL[0] - 1] == bg).all()
    assert card_png(card) == data


def test_a_long_title_is_cut_at_the_smallest_size_not_drawn_off_the_card():
    assert cards._title_size("Model on GPU") == 60
    assert cards._title_size("Model " * 40) == 44
    pixels = rgb_of(card_png(Card(site="s", title="Model " * 40, figure="1", unit="u")))
    ink = (pixels[100:170] != colour(cards.BG)).any(axis=(0, 2))
    assert ink[cards.LEFT : cards.LEFT + 20].any()
    assert not ink[WIDTH - cards.LEFT + 2 :].any()


def test_text_is_drawn_as_wide_as_it_was_fitted():
    for text, size, weight in (("DeepSeek R1 on B200", 60, "bold"), ("at 50 tok/s", 30, "regular")):
        levels, left, _ = raster.text_levels(text, size, weight)
        inked = np.flatnonzero(levels.any(axis=0))
        drawn = left + inked[-1] + 1 - (left + inked[0])
        fitted = glyphs.face(weight).width(text, size)
        # the ink spans the advances less the side bearings of the first and last glyphs
        assert fitted - size * 0.25 < drawn <= fitted + 1, (text, drawn, fitted)
    fitted = glyphs.fit("A very long model name " * 5, 30, 300)
    levels, left, _ = raster.text_levels(fitted, 30, "regular")
    assert left + levels.shape[1] <= 300 + 2


def test_the_same_card_is_the_same_bytes_whatever_was_drawn_before():
    first = card_png(PLOTTED)
    card_png(Card(site="other", title="Another title", figure="1.5x", unit="u", lines=("x",)))
    raster.text_patch.cache_clear()
    raster.text_levels.cache_clear()
    assert card_png(PLOTTED) == first


def test_a_flood_of_series_and_points_is_drawn_in_bounded_time():
    import time

    rng = np.random.default_rng(3)
    xs, ys = rng.uniform(0, 300, 20_000).tolist(), rng.uniform(0, 1e4, 20_000).tolist()
    points = tuple(zip(xs, ys, strict=True))
    card = Card(site="s", title="t", figure="1", unit="u", series=(Series("a", points),) * 200)
    start = time.process_time()
    assert png_size(card_png(card)) == (WIDTH, HEIGHT)
    assert time.process_time() - start < 10
    assert len(cards._drawn(card)) == cards.MAX_SERIES
    assert len(cards._drawn(card)[0][1]) <= cards.MAX_POINTS + 1


def test_a_stroke_covers_what_its_distance_says_and_nothing_else():
    rng = np.random.default_rng(7)
    clip = (738, 278, 1162, 590)
    yy, xx = np.mgrid[clip[1] : clip[3], clip[0] : clip[2]]
    cx, cy = xx + 0.5, yy + 0.5
    for trial in range(40):
        k = int(rng.integers(1, 12))
        xs = rng.uniform(760, 1140, k)
        xs = np.sort(np.round(xs / 40) * 40 if trial % 4 == 0 else xs) if trial % 3 else xs
        pts = np.column_stack((xs, rng.uniform(300, 540, k)))
        ys_, xs_, levels = raster.stroke([tuple(p) for p in pts], 5, clip)
        got = np.zeros(cx.shape)
        got[ys_ - clip[1], xs_ - clip[0]] = levels
        ends = np.vstack([pts, pts]) if k == 1 else pts
        dist = np.full(cx.shape, np.inf)
        for a, b in zip(ends[:-1], ends[1:], strict=True):
            d = b - a
            t = np.clip(((cx - a[0]) * d[0] + (cy - a[1]) * d[1]) / max(d @ d, 1e-12), 0, 1)
            dist = np.minimum(dist, np.hypot(cx - a[0] - t * d[0], cy - a[1] - t * d[1]))
        want = np.clip(3.0 - dist, 0, 1) * raster.LEVELS
        assert np.abs(got - want).max() <= 0.5 + 1e-6, trial


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
