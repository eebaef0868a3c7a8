"""Structured data: every JSON-LD block parses; FAQPage, Dataset and BreadcrumbList hold the
properties Google's rich results require; breadcrumbs on every page below the overview."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from conftest import SITE_CONFIG
from sitegen.views.jsonld import license_value

BASE = SITE_CONFIG["base_url"]
BLOCK = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.S)


def blocks(html: str) -> dict[str, dict]:
    found = [json.loads(text) for text in BLOCK.findall(html)]
    by_type = {b["@type"]: b for b in found}
    assert len(by_type) == len(found)  # one block of each type
    assert all(b["@context"] == "https://schema.org" for b in found)
    return by_type


def pages(files: dict[str, bytes]) -> dict[str, str]:
    return {p: d.decode() for p, d in files.items() if p.endswith(".html") and p != "404.html"}


def test_every_page_below_the_overview_has_breadcrumbs_ending_at_itself(arena):
    _, files = arena
    for path, html in pages(files).items():
        found = blocks(html)
        if path.startswith("embed/"):  # for another site's iframe, kept out of search results
            assert not found, path
            continue
        if path == "index.html":
            assert "BreadcrumbList" not in found
            continue
        items = found["BreadcrumbList"]["itemListElement"]
        assert [i["position"] for i in items] == list(range(1, len(items) + 1)), path
        assert items[0] == {"@type": "ListItem", "position": 1, "name": "Leaderboard", "item": BASE}
        assert items[-1]["item"] == BASE + path.removesuffix("index.html"), path
        for item in items:  # every step is a page of the build
            assert item["name"] and item["item"].startswith(BASE)
            assert item["item"].removeprefix(BASE) + "index.html" in files, (path, item)


def test_a_pair_page_trail_goes_through_its_model(arena):
    _, files = arena
    items = blocks(files["models/m1/g1/index.html"].decode())["BreadcrumbList"]
    names = [i["name"] for i in items["itemListElement"]]
    assert names == ["Leaderboard", "Model One", "GPU One"]


def test_the_faq_meets_the_faqpage_rules(arena):
    _, files = arena
    faq = blocks(files["models/m1/g1/index.html"].decode())["FAQPage"]
    assert faq["mainEntity"]
    for q in faq["mainEntity"]:
        assert q["@type"] == "Question" and q["name"].strip()
        assert q["acceptedAnswer"]["@type"] == "Answer" and q["acceptedAnswer"]["text"].strip()


def _check_dataset(data: dict, downloads: dict[str, str], files: dict[str, bytes]) -> None:
    assert data["name"].strip()
    assert 50 <= len(data["description"]) <= 5000
    assert data["url"].startswith(BASE)
    got = {d["contentUrl"]: d["encodingFormat"] for d in data["distribution"]}
    assert got == {BASE + path: kind for path, kind in downloads.items()}
    assert all(path in files for path in downloads)
    first, last = data["temporalCoverage"].split("/")
    assert first <= last == data["dateModified"]
    assert data["creator"] == {"@type": "Organization", "name": "Test Leaderboard"}


def test_the_overview_describes_the_downloads_as_a_dataset(arena):
    _, files = arena
    data = blocks(files["index.html"].decode())["Dataset"]
    downloads = {"data/leaderboard.json": "application/json", "data/leaderboard.csv": "text/csv"}
    _check_dataset(data, downloads, files)
    # the current runs' dates (the arena's are all of 2026-10-01; history runs are older)
    assert data["temporalCoverage"] == "2026-10-01/2026-10-01"
    assert "license" not in data  # sitegen.yaml gives none


def test_a_pair_page_describes_its_data_json(arena):
    _, files = arena
    data = blocks(files["models/m1/g1/index.html"].decode())["Dataset"]
    _check_dataset(data, {"models/m1/g1/data.json": "application/json"}, files)


def test_the_license_comes_from_sitegen_yaml(make_site):
    from sitegen.pipeline.build import render_site

    root = make_site(config={**SITE_CONFIG, "license": "CC-BY-4.0"})
    files, _ = render_site(root, use_cache=False)
    data = blocks(files["index.html"].decode())["Dataset"]
    assert data["license"] == "https://spdx.org/licenses/CC-BY-4.0.html"


def test_license_values():
    assert license_value("") is None
    assert license_value("https://example.org/terms") == "https://example.org/terms"
    assert license_value("MIT") == "https://spdx.org/licenses/MIT.html"
    assert license_value("Ours, all rights") == {
        "@type": "CreativeWork",
        "name": "Ours, all rights",
    }


def test_hostile_names_stay_inside_the_json(make_site):
    from sitegen.pipeline.build import render_site

    models = {"m1": {"name": "</script><script>zq()</script>"}}
    root = make_site(models=models)
    files, _ = render_site(root, use_cache=False)
    html = files["models/m1/g1/index.html"].decode()
    trail = blocks(html)["BreadcrumbList"]["itemListElement"]
    assert trail[1]["name"] == "</script><script>zq()</script>"
    assert "<script>zq" not in html


@given(
    st.text(max_size=30),
    st.lists(st.tuples(st.text(max_size=20), st.text(max_size=20)), max_size=4),
)
def test_breadcrumbs_are_the_text_json_for_html_writes_of_them(base, trail):
    """The breadcrumbs' template writes what the generic writer would, escapes and all
    (names and addresses from data: quotes, '</script>', control characters, any script)."""
    from sitegen.render.jsonhtml import json_for_html
    from sitegen.views.jsonld import breadcrumbs

    items = [("Leaderboard", ""), *trail]
    data = {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": i, "name": name, "item": base + route}
            for i, (name, route) in enumerate(items, start=1)
        ],
    }
    assert str(breadcrumbs(base, trail)) == str(json_for_html(data))
