"""Atom feeds: valid Atom (read by feedparser), an entry per run record newest first, each
linking its report and its pair page; a feed per model; hostile text stays text."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import feedparser

from conftest import SITE_CONFIG, arena_runs
from sitegen.records import SweepRun
from sitegen.views.feeds import ATOM, atom_feed

BASE = SITE_CONFIG["base_url"]


def test_the_site_feed_is_atom_with_an_entry_per_run_newest_first(arena):
    _, files = arena
    feed = feedparser.parse(files["feed.xml"])
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "atom10"
    assert feed.feed.title == "Test Leaderboard: new results"
    assert feed.feed.id == BASE + "feed.xml"
    assert len(feed.entries) == len(arena_runs())
    dates = [e.updated_parsed for e in feed.entries]
    assert dates == sorted(dates, reverse=True)
    for entry in feed.entries:
        links = {link.rel: link.href for link in entry.links}
        assert links["alternate"].startswith(BASE + "runs/")
        assert links["alternate"].removeprefix(BASE) + "index.html" in files
        assert links["related"].removeprefix(BASE) + "index.html" in files
        assert entry.author == "Lab" and entry.title and entry.summary


def test_a_model_has_a_feed_of_its_runs(arena):
    _, files = arena
    feed = feedparser.parse(files["models/m1/feed.xml"])
    assert not feed.bozo and feed.version == "atom10"
    assert len(feed.entries) == len(arena_runs())  # every arena run is of m1
    assert {link.rel: link.href for link in feed.feed.links}["alternate"] == BASE + "models/m1/"


def test_pages_name_the_feed(arena):
    _, files = arena
    html = files["models/m1/g1/index.html"].decode()
    assert 'rel="alternate" type="application/atom+xml"' in html
    assert 'href="../../../feed.xml"' in html


def test_hostile_text_is_escaped_and_characters_xml_refuses_are_dropped(arena):
    root, _ = arena
    from sitegen.records import load_site

    site, _ = load_site(root, use_cache=False)
    hostile = SweepRun(
        id="x",
        path="data/runs/x.yaml",
        kind="sweep",
        source='</name><script>zq</script> & "\x00\x1b',
        date=dt.date(2030, 1, 2),
        model="m1",
        gpu="g1",
        engine="]]><zq>",
        precision="fp8",
        url="javascript:alert(1)",
        workload="chat",
    )
    text = atom_feed(site, [hostile], "feed.xml", "T & <b>")
    root_el = ET.fromstring(text.encode())  # well-formed XML
    entry = root_el.find(f"{{{ATOM}}}entry")
    assert entry.find(f"{{{ATOM}}}author/{{{ATOM}}}name").text.startswith("</name><script>")
    assert entry.find(f"{{{ATOM}}}author/{{{ATOM}}}uri") is None  # not a web link
    assert "<script>" not in text and "\x00" not in text
    assert root_el.find(f"{{{ATOM}}}updated").text == "2030-01-02T00:00:00Z"


def _as_elementtree_writes_it(text: str) -> str:
    """`text` read by ElementTree and written back as it wrote the feeds (one space a level)."""
    ET.register_namespace("", ATOM)
    feed = ET.fromstring(text.encode())
    ET.indent(feed, space=" ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, "unicode") + "\n"


def test_a_feed_is_written_as_elementtree_writes_it(arena):
    """The feeds are written as text: the same characters as ElementTree's serialiser, hostile
    strings (in attributes too), empty texts and runs without a link included."""
    root, files = arena
    from sitegen.records import load_site

    site, _ = load_site(root, use_cache=False)
    for name in ("feed.xml", "models/m1/feed.xml"):
        text = files[name].decode()
        assert _as_elementtree_writes_it(text) == text
    runs = [
        SweepRun(
            id=f'x"&<{i}>',
            path="data/runs/x.yaml",
            kind="sweep",
            source=source,
            date=dt.date(2030, 1, 2 + i),
            model="m1",
            gpu="g1",
            engine='a"b & <c>\t',
            precision="fp8",
            url=url,
            workload="chat",
        )
        for i, (source, url) in enumerate(
            [("", None), ('"q" & <t>\n  two  ', 'https://example.org/?a=1&b="2"'), ("\x7f ", "")]
        )
    ]
    for title in ("T & <b>", " "):
        text = atom_feed(site, runs, 'f"e&e<d>.xml', title, 'p"&<>')
        assert _as_elementtree_writes_it(text) == text
        assert "<name />" in text  # an empty source, as ElementTree writes an empty element
    assert _as_elementtree_writes_it(atom_feed(site, [], "feed.xml", "T")).count("<entry>") == 0
