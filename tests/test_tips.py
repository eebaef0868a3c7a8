"""A chart's points (charts/tips.py): each a hit area titled by its tip's lines, no tip markup a
point (assets/charts.js draws the tip), one rule set a chart, every string from data escaped;
the pair's (frontier and history) and comparison charts drawn that way. The frontier chart's
points and markers say their node class for the filter by GPU count."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from sitegen.charts import draw_envelopes, draw_frontier, draw_history
from sitegen.charts.svg import text
from sitegen.charts.tips import point_with_tip, points_start, series_tip_css, shared_tip_css

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & </title><g>'


def test_a_point_is_its_hit_area_titled_by_its_lines():
    for lines in (["a, concurrency 8", "TP8 on 8 GPUs"], [HOSTILE, "x & y", "<b>"]):
        shape = "M10,20m-5,0a5,5 0 1,0 10,0z"
        got = point_with_tip(shape, 'data-series="1"', lines)
        title = text("; ".join(lines))
        assert got == (
            f'<path class="pt" tabindex="0" d="{shape}" data-series="1"><title>{title}</title>'
            "</path>"
        )


def test_hostile_lines_stay_text_in_the_title():
    lines = [HOSTILE, "plain"]
    point = point_with_tip("M1,2", 'data-series="0"', lines)
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{point}</svg>'
    assert "<script>" not in svg and "</title><g>" not in svg
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}path/{SVG}title").text == "; ".join(lines)


def test_the_points_group_says_where_a_tip_must_stay():
    group = ET.fromstring(points_start((736, 378.5)) + "</g>")
    assert group.get("class") == "points" and group.get("data-tip-box") == "736 378.5"


def test_one_rule_set_a_chart_and_a_focus_colour_a_series():
    css = series_tip_css("fc-0123456789", ["#0072b2", "#c85200"])
    assert "#fc-0123456789 .tip rect{" in css and "#fc-0123456789 .tip text{" in css
    assert '.pt[data-series="0"]:focus{stroke:#0072b2}' in css
    assert '.pt[data-series="1"]:focus{stroke:#c85200}' in css
    assert not re.search(r"\.[pt]\d", css)
    # the run report's chart: one series, its colour on every point
    assert shared_tip_css("rc-x", "#0072b2").count("stroke:#0072b2") == 1


def _frontier_data(points: int, parallelism: str = "TP8", engine: str = "vllm") -> dict:
    xs = [10.0 + 5 * i for i in range(points)]
    return {
        "model": "M",
        "gpu": "G",
        "workload": "W",
        "method": "interpolate",
        "target": 20,
        "headline": {"throughput_per_gpu": None, "engine": None, "precision": None},
        "curves": [
            {
                "engine": engine,
                "precision": "fp8",
                "frontier": [[x, 1000.0 - 10 * i] for i, x in enumerate(xs)],
                "points": [
                    {
                        "interactivity": x,
                        "throughput_per_gpu": 1000.0 - 10 * i,
                        "concurrency": 2**i,
                        "gpus": 8,
                        "tp": 8,
                        "ttft_ms": 500.0,
                        "tpot_ms": 1000 / x,
                        "run": "r",
                        "parallelism": parallelism,
                        "date": "d",
                    }
                    for i, x in enumerate(xs)
                ],
            }
        ],
        "strong": [0],
    }


def _points(svg: ET.Element) -> list[ET.Element]:
    """Each hit area with its title's lines; the points group comes after every marker group
    and last, and holds hit areas only."""
    groups = [g for g in svg if g.tag == f"{SVG}g"]
    classes = [g.get("class") for g in groups]
    assert "markers" in classes and classes[-1] == "points"
    assert max(i for i, c in enumerate(classes) if c == "markers") < len(classes) - 1
    points = list(groups[-1])
    assert all(p.get("class") == "pt" for p in points)
    assert not [g for g in svg.iter(f"{SVG}g") if g.get("class") == "tip"]
    return points


def _lines(point: ET.Element) -> list[str]:
    return point.find(f"{SVG}title").text.split("; ")


def test_the_frontier_chart_shows_hostile_labels_as_text():
    data = _frontier_data(3, parallelism=HOSTILE, engine='x"><script>y')
    drawn = draw_frontier(copy.deepcopy(data))
    assert "<script>" not in drawn
    svg = ET.fromstring(drawn)
    for point in _points(svg):
        assert _lines(point)[1] == f"{HOSTILE} on 8 GPUs"


def test_the_frontier_chart_style_does_not_grow_with_its_points():
    styles = set()
    for points in (2, 5, 40):
        svg = ET.fromstring(draw_frontier(_frontier_data(points)))
        assert len(_points(svg)) == points
        (style,) = svg.iter(f"{SVG}style")
        styles.add(re.sub(r"#fc-[0-9a-f]{10}", "#", style.text))
    assert len(styles) == 1


def test_the_envelope_chart_shows_hostile_gpu_names_as_text():
    data = {
        "model": "M",
        "workload": "W",
        "method": "interpolate",
        "target": 20,
        "series": [
            {
                "label": label,
                "curves": [
                    {
                        "engine": "vllm",
                        "precision": "fp8",
                        "frontier": [[10.0, top], [20.0, top * 0.7], [40.0, top * 0.3]],
                    }
                ],
                "stretches": [[0, 10.0, 40.0]],
                "headline": top * 0.7,
            }
            for label, top in ((HOSTILE, 1000.0), ("GPU & Two", 800.0))
        ],
        "strong": [0, 1],
    }
    drawn = draw_envelopes(data)
    assert "<script>" not in drawn
    svg = ET.fromstring(drawn)
    points = _points(svg)
    assert len(points) == 6  # each measured point of each envelope
    first = {_lines(p)[0] for p in points}
    assert first == {f"{HOSTILE}, vLLM FP8", "GPU & Two, vLLM FP8"}
    (style,) = svg.iter(f"{SVG}style")
    assert style.text.count(":focus{stroke:") == 2  # a colour a GPU, none a point


def _history_data(dates: int, engine: str = "vllm") -> dict:
    days = [f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}" for i in range(dates)]
    return {
        "model": "M",
        "gpu": "G",
        "workload": "W",
        "target": 20,
        "curves": [
            {
                "engine": e,
                "precision": "fp8",
                # a date that did not reach the target breaks the line and has no point
                "points": [[d, None if i == 1 else 900.0 + 10 * i + k] for i, d in enumerate(days)],
            }
            for k, e in enumerate((engine, "sglang"))
        ],
        "order": [[engine, "fp8"], ["trt", "fp8"], ["sglang", "fp8"]],
        "palette": [0, 2],
        "strong": [0],
    }


def test_the_history_chart_shows_hostile_engine_names_as_text():
    drawn = draw_history(_history_data(4, engine=HOSTILE))
    assert "<script>" not in drawn and "</title><g>" not in drawn
    svg = ET.fromstring(drawn)
    points = _points(svg)
    assert len(points) == 2 * 3  # the date that did not reach the target has none
    for point in points:
        lines = _lines(point)
        date, value = point.get("data-date"), float(point.get("data-throughput-per-gpu"))
        assert lines[0].endswith(f", run of {date}") and lines[1] == f"{value:,.0f} tok/s per GPU"
    first = {_lines(p)[0].split(",")[0] for p in points}
    assert first == {f"{HOSTILE} FP8", "SGLang FP8"}
    # a point's focus ring in its series' colour: the series are the frontier chart's
    assert {p.get("data-series") for p in points} == {"0", "2"}


def test_the_history_chart_style_does_not_grow_with_its_points():
    styles = set()
    for dates in (3, 8, 60):
        svg = ET.fromstring(draw_history(_history_data(dates)))
        assert len(_points(svg)) == 2 * (dates - 1)
        (style,) = svg.iter(f"{SVG}style")
        styles.add(re.sub(r"#hc-[0-9a-f]{10}", "#", style.text))
        assert not re.search(r"\.[pt]\d", style.text)
    assert len(styles) == 1


def test_frontier_points_and_markers_say_their_node_class():
    """Single node: at most 8 GPUs; multi-node: more; disaggregated: whatever its GPUs. Each
    marker path holds one class's markers, so the filter hides a class's markers whole."""
    data = _frontier_data(5)
    kinds = {0: (8, False), 1: (16, False), 2: (4, True), 3: (72, True), 4: (1, False)}
    expected = {}
    for i, p in enumerate(data["curves"][0]["points"]):
        gpus, disagg = kinds[i]
        p["gpus"], p["nodes"] = gpus, "disagg" if disagg else ("single" if gpus <= 8 else "multi")
        expected[p["concurrency"]] = p["nodes"]
    svg = ET.fromstring(draw_frontier(data))
    got = {int(p.get("data-concurrency")): p.get("data-nodes") for p in _points(svg)}
    assert got == expected
    (markers,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "markers"]
    paths = list(markers)
    assert sorted(p.get("data-nodes") for p in paths) == ["disagg", "multi", "single"]
    for path in paths:  # one marker ("z"-closed shape) a point of its class
        assert path.get("d").count("z") == list(expected.values()).count(path.get("data-nodes"))
