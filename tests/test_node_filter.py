"""The pair chart's filter by GPU count (assets/charts.js): single node, multi-node and
disaggregated configs switched off and on; without JavaScript every point shows and there is
no filter. Checked on the flagship's DeepSeek R1 on B200, whose configs are of every class."""

from __future__ import annotations

from pathlib import Path

import pytest

PAIR = "models/deepseek-r1/b200/index.html"
LABELS = {
    "single": "Single node (up to 8 GPUs)",
    "multi": "Multi-node (more than 8 GPUs)",
    "disagg": "Disaggregated",
}


@pytest.fixture(scope="module")
def public(flagship_files, tmp_path_factory) -> Path:
    _, files = flagship_files
    out = tmp_path_factory.mktemp("node-filter")
    for name in (PAIR, "assets/charts.js", "assets/style.css", "assets/look.css"):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(files[name])
    return out


def _classes(figure_section) -> list[tuple[str, str]]:
    """Each point of the chart's table as (curve, class), from its parallelism (a
    disaggregated config's says "disagg") and its GPUs: what the filter must count."""
    rows = figure_section.locator("details.chart-points tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    out = []
    for cells in rows:
        curve, parallelism, gpus = cells[0], cells[2], int(cells[3])
        kind = "disagg" if "disagg" in parallelism else "single" if gpus <= 8 else "multi"
        out.append((curve, kind))
    return out


def _drawn(curves) -> int:
    """How many of the curves' groups are drawn (a dotted run-in is too flat to be "visible")."""
    return curves.evaluate_all(
        "gs => gs.filter(g => getComputedStyle(g).display !== 'none').length"
    )


def test_filter_by_gpu_count(public, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((public / PAIR).as_uri())
    section = page.locator("section.chart-section").first
    figure = section.locator("figure.chart-figure")
    points = figure.locator("svg.chart .pt")
    expected = _classes(section)
    counts = {k: sum(1 for _, c in expected if c == k) for k in LABELS}
    assert points.count() == len(expected) and sum(v > 0 for v in counts.values()) >= 2
    switches = figure.locator("p.node-filter button")
    assert switches.all_inner_texts() == [f"{LABELS[k]} ({n})" for k, n in counts.items() if n]
    shown = figure.locator("svg.chart .pt:visible")
    assert shown.count() == len(expected)

    disagg = figure.get_by_role("button", name=LABELS["disagg"])
    disagg.click()
    assert disagg.get_attribute("aria-pressed") == "false"
    assert shown.count() == len(expected) - counts["disagg"]
    assert all(shown.nth(i).get_attribute("data-nodes") != "disagg" for i in range(shown.count()))
    # a curve of disaggregated configs only loses its line too; the others keep theirs
    curves = figure.locator("svg.chart .series")
    lines_left = _drawn(curves)
    only_disagg = {c for c, _ in expected} - {c for c, k in expected if k != "disagg"}
    assert lines_left == curves.count() - len(only_disagg)
    # markers of the class are hidden with it
    assert figure.locator('svg.chart .markers path[data-nodes="disagg"]:visible').count() == 0

    disagg.click()
    assert shown.count() == len(expected)
    assert _drawn(curves) == curves.count()
    context.close()


def test_without_javascript_every_point_shows_and_no_filter(public, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((public / PAIR).as_uri())
    figure = page.locator("figure.chart-figure").first
    assert figure.locator("p.node-filter").count() == 0
    points = figure.locator("svg.chart .pt")
    assert points.count() > 10
    assert figure.locator("svg.chart .pt:visible").count() == points.count()
    context.close()
