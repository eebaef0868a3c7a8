"""llms.txt: what the site measures, the headline table and where the JSON lives, with text
from data escaped so it cannot add Markdown of its own."""

from __future__ import annotations

from conftest import SITE_CONFIG
from sitegen.views.llms import md

BASE = SITE_CONFIG["base_url"]


def test_llms_txt_has_the_headline_table_and_the_data_addresses(arena):
    _, files = arena
    text = files["llms.txt"].decode()
    assert text.startswith("# Test Leaderboard\n\n> ")
    for heading in ("## What it measures", "## Headline table (20 tokens/s per user)", "## Data"):
        assert f"\n{heading}\n" in text
    rows = [line for line in text.splitlines() if line.startswith("| Model One |")]
    leaderboard = files["data/leaderboard.json"].decode()
    assert len(rows) == leaderboard.count('"model":"m1"')
    assert f"<{BASE}models/m1/g1/>" in rows[0]
    assert f"({BASE}data/leaderboard.json)" in text and f"({BASE}feed.xml)" in text


def test_markdown_characters_from_data_are_escaped():
    assert md("a | b") == "a \\| b"
    assert md("[x](javascript:y)\n# h") == "\\[x\\]\\(javascript:y\\) \\# h"
    assert md("<b>") == "\\<b\\>"
