"""A pair's and a model's workloads other than their main one: the pair page keeps their ladders
and the model page their answers and grids, and each gets a page of its own with its charts,
every point, the bandwidth limit, the history and its runs."""

from __future__ import annotations

import json
import re

from conftest import config, html_tables, html_text, sweep
from sitegen.pipeline.build import render_site

RUNS = {
    "lab/chat.yaml": sweep(),
    "lab/chat-old.yaml": sweep(date="2026-09-01"),
    "lab/long.yaml": sweep(workload="long", configs=[config(8, 8, 300.0, 20.0)]),
    "lab/long-sglang.yaml": sweep(
        workload="long", engine="sglang", configs=[config(8, 4, 200.0, 10.0)]
    ),
}


def _built(make_site) -> dict[str, bytes]:
    files, _ = render_site(make_site(runs=RUNS))
    return files


def _svgs(html: str, kind: str) -> list[str]:
    return re.findall(rf'<svg id="[^"]+" class="chart {kind}".*?</svg>', html, re.S)


def test_the_pair_page_keeps_every_ladder_and_the_main_chart(make_site):
    files = _built(make_site)
    html = files["models/m1/g1/index.html"].decode()
    ladders = [t for t in html_tables(html) if t[0][0] == "Per-user target"]
    assert len(ladders) == 2  # chat and long
    assert len(_svgs(html, "frontier-chart")) == 1  # chat's
    assert 'href="long/"' in html
    text = html_text(html)
    assert "The Long context workload's chart, every measured config" in text


def test_a_workload_page_shows_its_chart_points_limit_history_and_runs(make_site):
    files = _built(make_site)
    html = files["models/m1/g1/long/index.html"].decode()
    data = json.loads(files["models/m1/g1/data.json"])["workloads"]["long"]
    (chart,) = _svgs(html, "frontier-chart")
    points = sum(len(c["points"]) for c in data["curves"])
    assert chart.count('class="pt"') == points == 2
    text = html_text(html)
    assert "<h1>Model One on GPU One: Long context</h1>" in html
    assert "How close to the limit" in text
    runs = [t for t in html_tables(html) if t[0][0] == "Run report"]
    assert [row[1] for row in runs[0][1:]] == ["Lab", "Lab"]
    assert 'href="../../../../runs/lab-long/"' in html and "lab-chat" not in html
    assert '<a href="../">GPU One</a>' in html  # breadcrumbs up to the pair
    sitemap = files["sitemap.xml"].decode()
    assert "https://example.org/board/models/m1/g1/long/</loc>" in sitemap


def test_the_pair_page_lists_its_main_ladders_runs_and_says_where_the_others_are(make_site):
    files = _built(make_site)
    html = files["models/m1/g1/index.html"].decode()
    runs = [t for t in html_tables(html) if t[0][0] == "Run report"][0]
    assert len(runs) == 2  # the header and chat's current run
    text = html_text(html)
    # the two long runs on their page, the older chat run under the history
    assert "3 more runs of Model One on GPU One" in text


def test_a_models_other_workloads_have_their_envelope_charts_on_their_own_pages(make_site):
    files = _built(make_site)
    html = files["models/m1/index.html"].decode()
    assert len(_svgs(html, "envelope-chart")) == 1
    assert 'href="workloads/long/"' in html
    own = files["models/m1/workloads/long/index.html"].decode()
    assert len(_svgs(own, "envelope-chart")) == 1
    assert "<h1>Model One on every GPU: Long context</h1>" in own
