"""Tooltips without script (charts/tips.py): a point's tip right after it, one rule set a
chart, every string from data escaped, and the pair's (frontier and history) and comparison
charts drawn that way."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from sitegen.charts import draw_envelopes, draw_frontier, draw_history
from sitegen.charts.svg import text
from sitegen.charts.tips import (
    point_with_tip,
    series_tip_css,
    shared_tip_css,
    tip,
)

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & </title><g>'
BOX = (736, 378)


def test_a_point_with_its_tip_is_the_hit_area_and_tip_the_run_chart_writes():
    for lines in (["a, concurrency 8", "TP8 on 8 GPUs"], [HOSTILE, "x & y", "<b>"]):
        shape = "M10,20m-5,0a5,5 0 1,0 10,0z"
        got = point_with_tip(shape, 'data-series="1"', 10, 20, lines, BOX)
        title = text("; ".join(lines))
        expected = (
            f'<path class="pt" tabindex="0" d="{shape}" data-series="1"><title>{title}</title>'
            f"</path>{tip(10, 20, lines, BOX)}"
        )
        assert got == expected


def test_hostile_lines_stay_text_in_title_and_tip():
    lines = [HOSTILE, "plain"]
    point = point_with_tip("M1,2", 'data-series="0"', 1, 2, lines, BOX)
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{point}</svg>'
    assert "<script>" not in svg and "</title><g>" not in svg
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}path/{SVG}title").text == "; ".join(lines)
    assert [s.text for s in root.iter(f"{SVG}tspan")] == lines
    # the box fits the text as it reads, not as it is escaped
    assert root.find(f"{SVG}g/{SVG}rect").get("width") == str(12 + 7 * len(HOSTILE))


def test_one_rule_set_a_chart_and_a_focus_colour_a_series():
    css = series_tip_css("fc-0123456789", ["#0072b2", "#c85200"])
    assert "#fc-0123456789 .pt:hover+.tip" in css and "#fc-0123456789 .pt:focus+.tip" in css
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


def _points_and_tips(svg: ET.Element) -> list[tuple[ET.Element, ET.Element]]:
    """Each hit area with the element right after it; the points group comes after every
    marker group and last."""
    groups = [g for g in svg if g.tag == f"{SVG}g"]
    classes = [g.get("class") for g in groups]
    assert "markers" in classes and classes[-1] == "points"
    assert max(i for i, c in enumerate(classes) if c == "markers") < len(classes) - 1
    children = list(groups[-1])
    pairs = list(zip(children[::2], children[1::2], strict=True))
    assert all(p.get("class") == "pt" and t.get("class") == "tip" for p, t in pairs)
    return pairs


def test_the_frontier_chart_shows_hostile_labels_as_text():
    data = _frontier_data(3, parallelism=HOSTILE, engine='x"><script>y')
    drawn = draw_frontier(copy.deepcopy(data))
    assert "<script>" not in drawn
    svg = ET.fromstring(drawn)
    for point, tip_el in _points_and_tips(svg):
        lines = [s.text for s in tip_el.iter(f"{SVG}tspan")]
        assert lines[1] == f"{HOSTILE} on 8 GPUs"
        assert point.find(f"{SVG}title").text == "; ".join(lines)


def test_the_frontier_chart_style_does_not_grow_with_its_points():
    styles = set()
    for points in (2, 5, 40):
        svg = ET.fromstring(draw_frontier(_frontier_data(points)))
        assert len(_points_and_tips(svg)) == points
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
    pairs = _points_and_tips(svg)
    assert len(pairs) == 6  # each measured point of each envelope
    first = {[s.text for s in t.iter(f"{SVG}tspan")][0] for _, t in pairs}
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
    pairs = _points_and_tips(svg)
    assert len(pairs) == 2 * 3  # the date that did not reach the target has none
    for point, tip_el in pairs:
        lines = [s.text for s in tip_el.iter(f"{SVG}tspan")]
        assert point.find(f"{SVG}title").text == "; ".join(lines)
        date, value = point.get("data-date"), float(point.get("data-throughput-per-gpu"))
        assert lines[0].endswith(f", run of {date}") and lines[1] == f"{value:,.0f} tok/s per GPU"
    first = {[s.text for s in t.iter(f"{SVG}tspan")][0].split(",")[0] for _, t in pairs}
    assert first == {f"{HOSTILE} FP8", "SGLang FP8"}
    # a point's focus ring in its series' colour: the series are the frontier chart's
    assert {p.get("data-series") for p, _ in pairs} == {"0", "2"}


def test_the_history_chart_style_does_not_grow_with_its_points():
    styles = set()
    for dates in (3, 8, 60):
        svg = ET.fromstring(draw_history(_history_data(dates)))
        assert len(_points_and_tips(svg)) == 2 * (dates - 1)
        (style,) = svg.iter(f"{SVG}style")
        styles.add(re.sub(r"#hc-[0-9a-f]{10}", "#", style.text))
        assert not re.search(r"\.[pt]\d", style.text)
    assert len(styles) == 1
