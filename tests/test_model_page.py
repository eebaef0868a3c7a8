"""The model page and models/<model>/data.json: every GPU of a model, recomputed here from the
pair pages' own data.json (SITE.md's contract)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import html_tables, html_text
from sitegen.calc import frontier

MODEL = "models/m1/"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def built(arena) -> dict[str, bytes]:
    return arena[1]


@pytest.fixture(scope="module")
def data(built) -> dict:
    return json.loads(built[MODEL + "data.json"])


def _pair(built, gpu: str) -> dict:
    return json.loads(built[f"{MODEL}{gpu}/data.json"])


def test_model_data_has_the_shape_site_md_gives(data):
    assert set(data) == {"model", "workloads"} and data["model"] == "m1"
    assert list(data["workloads"]) == ["chat", "long"]  # the default workload first
    for workload in data["workloads"].values():
        assert set(workload) == {"tokens", "gpus", "ladder", "envelopes"}
        assert workload["tokens"] == "total"
        for rung in workload["ladder"]:
            assert set(rung) == {"target", "best", "cheapest", "by_gpu"}
            assert set(rung["cheapest"]) == {"owning", "retail"}
            assert list(rung["by_gpu"]) == workload["gpus"]
            for side in rung["by_gpu"].values():
                assert {"throughput_per_gpu", "engine", "precision", "cost_per_million_tokens"} <= (
                    set(side)
                )
        assert list(workload["envelopes"]) == workload["gpus"]
        for points in workload["envelopes"].values():
            for p in points:
                assert set(p) == {"interactivity", "throughput_per_gpu", "engine", "precision"}


def test_model_ladder_is_the_pair_ladders_side_by_side(built, data):
    for name, workload in data["workloads"].items():
        pairs = {g: _pair(built, g)["workloads"][name] for g in workload["gpus"]}
        # GPUs best first at the headline target (20 tok/s per user in conftest's site)
        head = {
            g: next(r for r in p["ladder"] if r["target"] == 20)["throughput_per_gpu"]
            for g, p in pairs.items()
        }
        assert workload["gpus"] == sorted(head, key=lambda g: (head[g] is None, -(head[g] or 0)))
        for i, rung in enumerate(workload["ladder"]):
            rows = {g: pairs[g]["ladder"][i] for g in workload["gpus"]}
            for g, row in rows.items():
                assert row["target"] == rung["target"]
                assert rung["by_gpu"][g] == {k: v for k, v in row.items() if k != "target"}
            reached = {
                g: r["throughput_per_gpu"] for g, r in rows.items() if r["throughput_per_gpu"]
            }
            assert rung["best"] == (max(reached, key=reached.get) if reached else None)
            for tier in ("owning", "retail"):
                costs = {
                    g: r["cost_per_million_tokens"][tier]
                    for g, r in rows.items()
                    if r["cost_per_million_tokens"]
                }
                assert rung["cheapest"][tier] == (min(costs, key=costs.get) if costs else None)


def test_the_arena_has_the_cases_the_page_must_handle(data):
    chat = data["workloads"]["chat"]
    assert chat["gpus"] == ["g1", "g3", "g2"]
    top = chat["ladder"][-1]  # 100 tok/s per user: only g1 is that fast
    assert top["best"] == "g1" and top["by_gpu"]["g3"]["throughput_per_gpu"] is None
    # g3 is slower than g1 but at $1 an hour the cheapest; g2 has no price at all
    assert chat["ladder"][0]["cheapest"] == {"owning": "g3", "retail": "g3"}
    assert chat["ladder"][0]["by_gpu"]["g2"]["cost_per_million_tokens"] is None
    assert data["workloads"]["long"]["gpus"] == ["g1"]


def _curves(pair_workload: dict) -> dict[tuple[str, str], list[frontier.Point]]:
    return {
        (c["engine"], c["precision"]): [
            frontier.Point(p["interactivity"], p["throughput_per_gpu"]) for p in c["frontier"]
        ]
        for c in pair_workload["curves"]
    }


def test_envelopes_are_the_best_of_the_pair_curves_and_name_them(built, data):
    for name, workload in data["workloads"].items():
        for gpu, points in workload["envelopes"].items():
            curves = _curves(_pair(built, gpu)["workloads"][name])
            assert points[0]["interactivity"] == min(c[0].interactivity for c in curves.values())
            assert points[-1]["interactivity"] == max(c[-1].interactivity for c in curves.values())
            by_x: dict[float, list[float]] = {}
            for p in points:
                own = frontier.value_at(curves[(p["engine"], p["precision"])], p["interactivity"])
                assert p["throughput_per_gpu"] == own
                by_x.setdefault(p["interactivity"], []).append(p["throughput_per_gpu"])
            for x, values in by_x.items():
                best = max(v for c in curves.values() if (v := frontier.value_at(c, x)) is not None)
                assert max(values) == pytest.approx(best, rel=1e-9)
            # every measured frontier point on top of all curves is a point of the envelope
            for curve in curves.values():
                for p in curve:
                    best = max(
                        v
                        for c in curves.values()
                        if (v := frontier.value_at(c, p.interactivity)) is not None
                    )
                    if p.throughput_per_gpu >= best * (1 + 1e-9):
                        assert p.interactivity in by_x


def test_g1_envelope_switches_engine_where_the_curves_cross(data):
    g1 = data["workloads"]["chat"]["envelopes"]["g1"]
    engines = [p["engine"] for p in g1]
    # vLLM is best at the slowest speeds, SGLang (its peak read below 25 tok/s) above
    assert engines[0] == "vllm" and engines[-1] == "sglang"
    assert "trt" not in engines  # beaten everywhere: drawn faint, never part of the envelope


def test_model_page_answers_fastest_and_cheapest_and_marks_the_best(built, data):
    html = built[MODEL + "index.html"].decode()
    text = html_text(html)
    assert (
        "At 20 tokens/s per user on Chat, GPU One serves the most: 2,600 tokens/s per GPU "
        "(SGLang FP4). The cheapest per million tokens is GPU Three at $0.12" in text
    )
    answers = next(t for t in html_tables(html) if t[0][:2] == ["Per-user target", "Fastest GPU"])
    assert answers[1][:4] == ["10 tok/s", "GPU One SGLang FP4", "2,600", "GPU Three"]
    assert answers[4][1:3] == ["GPU One SGLang FP4", "780"]  # 100 tok/s: only GPU One
    grid = next(t for t in html_tables(html) if t[0][:2] == ["GPU", "10 tok/s"])
    assert [row[0] for row in grid[1:]][:3] == ["GPU One", "GPU Three", "GPU Two"]
    assert grid[1][1].startswith("2,600 fastest") and "cheapest" in grid[2][1]
    assert grid[2][4] == "-"  # GPU Three does not reach 100 tok/s per user ...
    assert "No config reaches 100 tok/s per user on GPU Three" in text  # ... and it says why
    # the grid marks exactly one fastest per target
    for column in range(1, 5):
        assert sum("fastest" in row[column] for row in grid[1:]) == 1


def test_model_page_chart_holds_every_gpu_and_the_envelope_points(built, data):
    html = built[MODEL + "index.html"].decode()
    svgs = re.findall(r'<svg id="[^"]+" class="chart envelope-chart".*?</svg>', html, re.S)
    assert len(svgs) == 1  # the main workload's: each other one's is on its own page
    (other,) = [w for w in data["workloads"] if w != "chat"]
    own = built[f"{MODEL}workloads/{other}/index.html"].decode()
    assert len(re.findall(r'class="chart envelope-chart"', own)) == 1
    assert f'href="workloads/{other}/"' in html
    svg = ET.fromstring(svgs[0])
    assert svg.get("data-x-scale") == "log"  # 5 to 125 tok/s per user: over 10x
    series = {e.get("data-series") for e in svg.iter() if e.get("data-series") is not None}
    assert series == {"0", "1", "2"}
    labels = [t.text for t in svg.iter(f"{SVG_NS}text") if "stretch-label" in t.get("class", "")]
    assert "vLLM FP8" in labels and "SGLang FP4" in labels  # who wins where, on the chart
    # GPU One's markers are the measured configs its envelope passes through
    curves = _curves(_pair(built, "g1")["workloads"]["chat"])
    on_curves = {(p.interactivity, p.throughput_per_gpu) for c in curves.values() for p in c}
    expected = sorted(
        (p["interactivity"], p["throughput_per_gpu"])
        for p in data["workloads"]["chat"]["envelopes"]["g1"]
        if (p["interactivity"], p["throughput_per_gpu"]) in on_curves
    )
    markers = sorted(
        (float(e.get("data-interactivity")), float(e.get("data-throughput-per-gpu")))
        for e in svg.iter(f"{SVG_NS}path")
        if "pt" in e.get("class", "").split() and e.get("data-series") == "0"
    )
    assert markers == expected and len(markers) >= 4
    # the legend under the chart lists every GPU, the strong first: charts.js makes switches
    legend = re.search(r'<ul class="series-list">(.*?)</ul>', html, re.S).group(1)
    names = re.findall(r'class="series-name">([^<]+)<', legend)
    assert names == ["GPU One", "GPU Three", "GPU Two"]
    assert '<script src="../../assets/charts.js" defer></script>' in html


def test_model_page_links_every_comparison_once(built):
    html = built[MODEL + "index.html"].decode()
    links = re.findall(r'<a href="(\.\./\.\./compare/[^"]+)">([^<]+)</a>', html)
    assert sorted(h for h, _ in links) == [
        "../../compare/g1-vs-g2/m1/",
        "../../compare/g1-vs-g3/m1/",
        "../../compare/g2-vs-g3/m1/",
    ]
    assert ("../../compare/g1-vs-g3/m1/", "GPU One vs GPU Three") in links
    assert "Measured by Lab." in html_text(html)  # the source of the runs, credited
