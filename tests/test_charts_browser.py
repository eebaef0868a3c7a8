"""The charts in Chromium: a reader switches a series off and on, follows a comparison from a
GPU page, and reads date labels that do not overlap; without JavaScript every series shows,
and hovering or focusing a point of a pair's charts (frontier, history) or a comparison's shows
its own tip, drawn by assets/charts.js."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import static_server
from sitegen.render.display import rate, tokens

PAIR = "models/m1/g1/index.html"  # three engine x precision curves
HISTORY = "models/m1/g1/chat/index.html"  # its main workload's page: the history
COMPARE = "compare/g1-vs-g3/m1/index.html"  # two GPUs' envelopes


@pytest.fixture(scope="module")
def public(arena_public) -> Path:
    return arena_public


@pytest.fixture
def tab(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _series(page, figure, index: str):
    """The chart's elements of one series: its line(s) and its points."""
    svg = figure.locator("svg.chart")
    return svg.locator(f'.series[data-series="{index}"] path.curve'), svg.locator(
        f'.pt[data-series="{index}"]'
    )


def test_switch_a_series_off_and_on(public, tab):
    tab.goto((public / PAIR).as_uri())
    figure = tab.locator("figure.chart-figure").first
    switches = figure.locator("button.series-switch")
    assert switches.count() == 3
    vllm = figure.get_by_role("button", name="vLLM FP8")
    index = vllm.get_attribute("data-series")
    line, points = _series(tab, figure, index)
    assert line.is_visible() and points.count() == 3 and points.first.is_visible()
    assert vllm.get_attribute("aria-pressed") == "true"

    vllm.click()
    assert vllm.get_attribute("aria-pressed") == "false"
    assert not line.is_visible()
    assert all(not points.nth(i).is_visible() for i in range(points.count()))
    # the other series stay
    other = switches.filter(has_not_text="vLLM FP8").first.get_attribute("data-series")
    assert _series(tab, figure, other)[1].first.is_visible()

    vllm.click()
    assert vllm.get_attribute("aria-pressed") == "true" and line.is_visible()

    figure.get_by_role("button", name="Hide all").click()
    assert figure.locator("svg.chart .pt:visible").count() == 0
    figure.get_by_role("button", name="Show all").click()
    assert figure.locator("svg.chart .pt:visible").count() == 8  # every config of the chart


def test_switch_a_gpu_off_on_the_model_page(public, tab):
    tab.goto((public / "models/m1/index.html").as_uri())
    figure = tab.locator("figure.chart-figure").first
    gpu_two = figure.get_by_role("button", name="GPU Two")
    index = gpu_two.get_attribute("data-series")
    envelope = figure.locator(f'svg.chart .series[data-series="{index}"] path.envelope')
    assert envelope.is_visible()
    gpu_two.click()
    assert not envelope.is_visible()
    assert figure.locator(f'svg.chart .pt[data-series="{index}"]:visible').count() == 0


def test_without_javascript_every_series_is_drawn_and_listed(public, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((public / PAIR).as_uri())
    figure = page.locator("figure.chart-figure").first
    assert figure.locator("button").count() == 0
    assert figure.locator(".series-list li").count() == 3
    curves = figure.locator("svg.chart path.curve")
    assert curves.count() == 3 and all(curves.nth(i).is_visible() for i in range(3))
    assert figure.locator(".series-list li.faint").count() == 1  # TRT FP8: never the best
    context.close()


@pytest.fixture(scope="module")
def served(public) -> Iterator[str]:
    """The built site over HTTP, as a host serves it (a folder's link opens its index.html)."""
    with static_server(public) as address:
        yield address


def test_follow_a_comparison_from_a_gpu_page(served, tab):
    tab.goto(served + "gpus/g3/")
    tab.get_by_role("link", name="GPU Three vs GPU One", exact=True).click()
    tab.wait_for_load_state()
    assert tab.url == served + "compare/g1-vs-g3/m1/"
    assert tab.locator("h1").inner_text() == "Model One: GPU One vs GPU Three"
    verdict = tab.locator("#verdict .answer").inner_text()
    assert "GPU One serves 1.1x the tokens/s per GPU of GPU Three" in verdict
    # and from there back to either pair page
    tab.get_by_role("link", name="Model One on GPU Three").first.click()
    tab.wait_for_load_state()
    assert tab.locator("h1").inner_text() == "Running Model One on GPU Three"


def test_date_labels_do_not_overlap_as_drawn(public, tab):
    """Measured by the browser's own text layout, not an estimate."""
    tab.goto((public / HISTORY).as_uri())
    boxes = tab.evaluate(
        """() => {
          const svg = document.querySelector('svg.history-chart');
          const bottom = svg.viewBox.baseVal.height - 52 + 19;
          return [...svg.querySelectorAll('g.axes text')]
            .filter(t => Math.abs(t.y.baseVal[0].value - bottom) < 0.01)
            .map(t => { const b = t.getBBox(); return [b.x, b.x + b.width, t.textContent]; });
        }"""
    )
    assert len(boxes) >= 3
    width = tab.evaluate("document.querySelector('svg.history-chart').viewBox.baseVal.width")
    assert boxes[0][0] >= 0 and boxes[-1][1] <= width
    for (_, right, a), (left, _, b) in zip(boxes, boxes[1:], strict=False):
        assert right + 4 <= left, (a, b)


@pytest.mark.parametrize(
    ("page_path", "chart_class"),
    [(PAIR, "frontier-chart"), (HISTORY, "history-chart"), (COMPARE, "envelope-chart")],
)
def test_a_point_shows_its_own_tip_on_hover_and_focus(public, tab, page_path, chart_class):
    """assets/charts.js draws one tip a chart, the hovered or focused point's title lines: its
    numbers are the point's own. The page carries no tip markup a point."""
    tab.goto((public / page_path).as_uri())
    chart = tab.locator(f"svg.{chart_class}").first
    chart.scroll_into_view_if_needed()
    points, tip = chart.locator(".pt"), chart.locator(".tip")
    assert points.count() >= 3 and tip.count() == 0
    checked = 0
    for i in range(points.count()):
        point = points.nth(i)
        point.hover(force=True)  # a later point's hit area may lie over this one's edge
        assert tip.count() == 1 and tip.is_visible()
        said = "; ".join(tip.locator("tspan").all_text_contents())
        if said != point.locator("title").text_content():
            continue  # covered by a later point: its tip shows, as it should
        throughput = tokens(float(point.get_attribute("data-throughput-per-gpu")))
        if chart_class == "history-chart":  # a run date's value at the target
            date = point.get_attribute("data-date")
            assert f", run of {date}; {throughput} tok/s per GPU" in said
        else:
            assert rate(float(point.get_attribute("data-interactivity"))) + " tok/s/user" in said
            assert throughput + " tok/s/GPU" in said
        if chart_class == "frontier-chart":
            assert f"concurrency {point.get_attribute('data-concurrency')}" in said
        checked += 1
    assert checked >= points.count() // 2
    tab.mouse.move(0, 0)
    assert not tip.is_visible()
    points.nth(0).focus()
    titles = [points.nth(k).locator("title").text_content() for k in (0, 1)]
    assert tip.is_visible() and "; ".join(tip.locator("tspan").all_text_contents()) == titles[0]
    tab.keyboard.press("Tab")  # to the next point, by keyboard
    assert "; ".join(tip.locator("tspan").all_text_contents()) == titles[1]
    # the tip stays inside the chart
    box, tip_box = chart.bounding_box(), tip.bounding_box()
    assert box["x"] <= tip_box["x"] and tip_box["x"] + tip_box["width"] <= box["x"] + box["width"]
    assert box["y"] <= tip_box["y"] and tip_box["y"] + tip_box["height"] <= box["y"] + box["height"]
