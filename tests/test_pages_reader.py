"""The built flagship as a reader, a sharer and a keyboard user meet it (templates and CSS)."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import html_text
from sitegen.pipeline.build import render_site

KIMI = "models/kimi-k3.1-pro/mi355x/"
DEEPSEEK = "models/deepseek-v4-pro/b200/"
MATRIX_RUN = "runs/localmaxxing-paiton-kimi-k3.1-pro-mi355x-2026-11-11/"
PHONE_WIDTH_PX = 390


@pytest.fixture(scope="module")
def files(flagship_files) -> dict[str, bytes]:
    return flagship_files[1]


@pytest.fixture(scope="module")
def pages(files) -> dict[str, str]:
    return {name: body.decode() for name, body in files.items() if name.endswith(".html")}


class _Outline(HTMLParser):
    """Headings, tables (caption, header scopes, the wrapper around each), links and meta tags."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[int] = []
        self.meta: dict[str, str] = {}
        self.links: list[tuple[str, str]] = []  # (href, text)
        self.tables: list[dict] = []
        self.stack: list[tuple[str, dict]] = []
        self._link: list[str] | None = None
        self._href = ""
        self._in_thead = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        elif tag == "meta" and ("name" in a or "property" in a):
            self.meta[a.get("name") or a["property"]] = a.get("content", "")
        elif tag == "a":
            self._link, self._href = [], a.get("href", "")
        elif tag == "table":
            wrapper = self.stack[-1][1].get("class", "") if self.stack else ""
            self.tables.append({"wrapper": wrapper, "caption": False, "th": []})
        elif tag == "caption" and self.tables:
            self.tables[-1]["caption"] = True
        elif tag == "thead":
            self._in_thead = True
        elif tag == "th" and self.tables:
            self.tables[-1]["th"].append(("head" if self._in_thead else "body", a.get("scope")))
        if tag not in ("meta", "link", "br", "img", "input"):
            self.stack.append((tag, a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._link is not None:
            self.links.append((self._href, " ".join("".join(self._link).split())))
            self._link = None
        elif tag == "thead":
            self._in_thead = False
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._link is not None:
            self._link.append(data)


def outline(html: str) -> _Outline:
    parser = _Outline()
    parser.feed(html)
    return parser


def test_every_page_has_one_h1_and_no_skipped_levels(pages):
    for name, html in pages.items():
        levels = outline(html).headings
        assert levels.count(1) == 1 and levels[0] == 1, (name, levels)
        for before, after in zip(levels, levels[1:], strict=False):
            assert after <= before + 1, (name, levels)


def test_every_page_can_be_shared_with_title_description_and_address(pages):
    for name, html in pages.items():
        meta = outline(html).meta
        if name.startswith("embed/"):  # shared as its pair page: tests/test_gpu_pairs_and_embeds
            assert meta.get("robots") == "noindex"
            continue
        assert meta.get("og:title") and meta.get("twitter:title"), name
        # pages with a link-preview card (docs/pages.md) say so; the others are small cards
        card = "summary_large_image" if meta.get("og:image") else "summary"
        assert meta.get("twitter:card") == card, name
        title = unescape(re.search(r"<title>(.*?)</title>", html).group(1))
        assert title.endswith("LLM Inference Leaderboard") and title.count("·") <= 1, (name, title)
        if name == "404.html":
            assert "og:url" not in meta  # no canonical address to share
            assert meta.get("robots") == "noindex"
            continue
        description = meta.get("description", "")
        assert len(description) >= 50, (name, description)
        assert meta["og:description"] == description == meta["twitter:description"], name
        canonical = re.search(r'<link rel="canonical" href="([^"]+)"', html).group(1)
        assert meta["og:url"] == canonical, name
        assert "&amp;amp;" not in html, name


def test_descriptions_say_what_the_page_holds(pages):
    index = outline(pages["index.html"]).meta["description"]
    assert "Kimi K3.1 Pro on MI355X at 12,926 tokens/s per GPU (AgentX agentic coding)" in index
    run = outline(pages[MATRIX_RUN + "index.html"]).meta["description"]
    assert run.startswith("Kimi K3.1 Pro on MI355X")
    sweep = pages["runs/inferencex-deepseek-v4-pro-b200-dynamo-vllm-fp4-8k1k-2026-08-26/index.html"]
    assert "1 configs" not in sweep and "1 config." in html_text(sweep)


def test_every_navigation_landmark_is_named(pages):
    for name, html in pages.items():
        for nav in re.findall(r"<nav[^>]*>", html):
            assert "aria-label=" in nav, (name, nav)


def test_json_ld_is_valid_json(pages):
    for name, html in pages.items():
        for block in re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S):
            data = json.loads(block)
            assert data["@type"] in ("FAQPage", "BreadcrumbList", "Dataset"), name
            if data["@type"] == "FAQPage":
                assert all(q["acceptedAnswer"]["text"] for q in data["mainEntity"])


def test_tables_have_captions_scoped_headers_and_scroll_on_narrow_screens(pages):
    for name, html in pages.items():
        # editors' Markdown tables (content/) have the heading above them, no caption
        editors = name.startswith("methodology/")
        for i, table in enumerate(outline(html).tables):
            assert table["caption"] or editors, (name, i)
            assert "scroll" in table["wrapper"].split(), (name, i, table["wrapper"])
            for part, scope in table["th"]:
                assert scope == ("col" if part == "head" else "row"), (name, i, part, scope)


def test_link_text_makes_sense_out_of_context(pages):
    for name, html in pages.items():
        for href, text in outline(html).links:
            assert text.lower() not in {"report", "here", "link", "more", ""}, (name, href)
            assert not re.fullmatch(r"[\d-]+", text), (name, href, text)


def test_no_context_zero_and_legends_carry_units(pages):
    kimi = html_text(pages[KIMI + "index.html"])
    assert "context 0" not in kimi and "no added context" in kimi
    assert re.search(r"741 tok/s [\d,]+ tok/s per GPU, 16 requests", kimi)
    report = html_text(pages[MATRIX_RUN + "index.html"])
    for legend in re.findall(r"(?:slower|faster) \(([^)]*)\)", report):
        assert re.search(r"\d (tok/s|tok/s per GPU|s)$", legend), legend


def test_nothing_is_fetched_from_the_network(pages):
    for name, html in pages.items():
        fetched = r'<(?:link rel="stylesheet"|script|img)[^>]+(?:src|href)="(?:https?:)?//'
        assert not re.search(fetched, html), name
        assert "@import" not in html and "fonts.googleapis" not in html, name


# -- the stylesheet ---------------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_ratio_of_a_known_pair():
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)


def test_text_colours_meet_wcag_aa(files):
    css = files["assets/style.css"].decode()
    var = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-fA-F]{6})", css))
    for fg in ("fg", "muted", "accent", "warn"):
        for bg in ("bg", "panel"):
            assert contrast(var[fg], var[bg]) >= 4.5, (fg, bg)


def test_chart_labels_meet_wcag_aa(pages):
    svg = re.search(r"<svg.*?</svg>", pages[DEEPSEEK + "index.html"], re.S).group(0)
    for colour in set(re.findall(r'<g[^>]*fill="(#[0-9a-fA-F]{6})"', svg)):
        assert contrast(colour, "#ffffff") >= 4.5, colour


def test_heat_cells_keep_their_numbers_readable(pages):
    html = pages[MATRIX_RUN + "index.html"]
    colours = set(re.findall(r'class="num heat" style="background-color: (#[0-9a-f]{6})"', html))
    assert len(colours) > 10
    for colour in colours:
        assert contrast(colour, "#1b1f24") >= 4.5, colour


def test_dates_do_not_break_at_their_hyphens(pages):
    assert (
        '<span class="nowrap">2026-11-05</span> &rarr; <span class="nowrap">2026-11-05</span>'
        in (pages[KIMI + "index.html"])
    )


def test_browse_links_are_told_apart(pages):
    browse = re.search(r'<section class="browse">(.*?)</section>', pages["index.html"], re.S)
    assert "</a> &middot; <a" in browse.group(1)


def test_one_phrase_row_labels_do_not_wrap(files):
    css = files["assets/style.css"].decode()
    assert re.search(r"table\.ladder tbody th, \.runs tbody th[^{]*\{ white-space: nowrap", css)


def test_focus_is_visible_and_print_is_styled(files):
    css = files["assets/style.css"].decode()
    assert re.search(r"(^|\n):focus-visible\s*\{[^}]*outline: 2px solid", css)
    # the chart's inline style says outline:none on its points; ours must win
    assert re.search(r"svg\.chart \.pt:focus-visible\s*\{[^}]*!important", css)
    print_rules = " ".join(re.findall(r"@media print \{(.*?)\n\}", css, re.S))
    assert ".site-header nav" in print_rules and "overflow: visible" in print_rules
    assert ".screen-only" in print_rules


def test_print_leaves_out_what_paper_cannot_do(pages):
    kimi = pages[KIMI + "index.html"]
    assert '<span class="screen-only">Hover over a point' in kimi


# -- in Chromium --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def public(files, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("public")
    for name, body in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(body)
    return out


def phone_pages(pages: dict[str, str]) -> list[str]:
    """Every page, but of run reports and comparisons, which come by the hundred with real
    data and share one layout each, the longest (most configs, longest names) of each model x
    GPU: what could overflow is its widest content, not its numbers."""
    chosen, longest = [], {}
    for name in sorted(pages):
        kind, *parts = name.split("/")
        if kind == "runs":
            pair = re.search(r'href="(?:\.\./)*models/([^/"]+)/([^/"]+)/"', pages[name])
            group = ("runs", *(pair.groups() if pair else (name,)))
        elif kind == "compare" and len(parts) == 3:
            group = ("compare", parts[1], parts[0].split("-vs-")[0])
        else:
            chosen.append(name)
            continue
        if len(pages[name]) > len(pages.get(longest.get(group, ""), "")):
            longest[group] = name
    return chosen + sorted(longest.values())


def test_phone_pages_are_every_kind_of_page(pages):
    names = phone_pages(pages)
    assert set(names) >= {n for n in pages if not n.startswith(("runs/", "compare/"))}
    runs = [n for n in names if n.startswith("runs/")]
    assert MATRIX_RUN + "index.html" in runs and DEEPSEEK + "index.html" in names
    assert len(runs) == len({n for n in names if n.startswith("models/") and n.count("/") == 3})
    assert any(n.startswith("compare/") for n in names)


@pytest.mark.parametrize("javascript", [True, False])
def test_nothing_overflows_at_phone_width(pages, public, browser, javascript):
    context = browser.new_context(
        viewport={"width": PHONE_WIDTH_PX, "height": 800}, java_script_enabled=javascript
    )
    page = context.new_page()
    for name in phone_pages(pages):
        page.goto((public / name).as_uri())
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE_WIDTH_PX, (name, width)
    context.close()


def test_keyboard_reaches_a_chart_point_and_shows_its_tip(public, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((public / KIMI / "index.html").as_uri())
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    for _ in range(40):
        page.keyboard.press("Tab")
        if "pt" in (page.evaluate("document.activeElement.getAttribute('class')") or "").split():
            break
    else:
        pytest.fail("Tab never reached a chart point")
    outline_style = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline_style == "solid"
    assert page.locator("svg.frontier-chart").first.locator(".tip").first.is_visible()
    context.close()


def test_compare_page_reads_like_the_others(make_site):
    from conftest import sweep

    root = make_site({"lab/a.yaml": sweep(gpu="g1"), "lab/b.yaml": sweep(gpu="g2")})
    built, _ = render_site(root)
    html = built["compare/g1-vs-g2/m1/index.html"].decode()
    page = outline(html)
    assert page.headings.count(1) == 1
    assert "GPU One and GPU Two side by side" in page.meta["description"]
    assert page.tables and all(t["caption"] and "scroll" in t["wrapper"] for t in page.tables)
    # GPU Two has no price: its cost cells say so rather than showing a bare dash
    assert html_text(html).count("no price") == 4
    gpu_two = html_text(built["gpus/g2/index.html"].decode())
    assert "no price" in gpu_two
    pair = built["models/m1/g1/index.html"].decode()
    assert "GPU One vs GPU Two</a>" in pair  # the link names both GPUs, not a bare slug


def test_model_and_gpu_pages_give_the_reason_for_a_dash(make_site):
    from conftest import config, sweep

    slow = sweep(configs=[config(8, 64, 1000.0, 100.0), config(8, 16, 600.0, 80.0)])
    built, _ = render_site(make_site({"lab/slow.yaml": slow}))
    for name in ("models/m1/index.html", "gpus/g1/index.html"):
        text = html_text(built[name].decode())
        assert "No config reaches 20 tok/s per user" in text, name
