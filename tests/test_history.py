"""History: a pair's value at the headline target over run dates equals each date's own ladder."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import config, sweep
from sitegen.pipeline.build import render_site
from sitegen.render.display import percent, tokens

SVG_NS = "{http://www.w3.org/2000/svg}"
PAIR = "models/m1/g1/index.html"
PAGE = "models/m1/g1/chat/index.html"  # the history is on the workload's page
HEADLINE = 20  # conftest's SITE_CONFIG headline interactivity

# vLLM FP8 on three dates, getting faster; SGLang FP8 on two, the older not reaching 20 tok/s
RUNS = {
    "lab/vllm-0901.yaml": sweep(
        date="2026-09-01",
        configs=[config(8, 64, 800.0, 100.0), config(8, 16, 500.0, 40.0), config(8, 4, 150, 10)],
    ),
    "lab/vllm-1001.yaml": sweep(
        date="2026-10-01",
        configs=[config(8, 64, 1000.0, 100.0), config(8, 16, 600.0, 25.0), config(8, 4, 200, 10)],
    ),
    "lab/vllm-1101.yaml": sweep(
        date="2026-11-01",
        configs=[config(8, 64, 1100.0, 90.0), config(8, 16, 700.0, 30.0), config(8, 4, 260, 8)],
    ),
    "lab/sglang-1001.yaml": sweep(
        date="2026-10-01", engine="sglang", configs=[config(8, 64, 1500.0, 80.0)]
    ),
    "lab/sglang-1101.yaml": sweep(
        date="2026-11-01",
        engine="sglang",
        configs=[config(8, 64, 1600.0, 80.0), config(8, 8, 900.0, 40.0)],
    ),
}


@pytest.fixture(scope="module")
def expected(tmp_path_factory) -> dict[tuple[str, str], float | None]:
    """(engine, date) -> that date's ladder value, each from a site of its own."""
    import yaml

    from conftest import GPUS, MODELS, PRICING, SITE_CONFIG, WORKLOADS

    values = {}
    for name, record in RUNS.items():
        root = tmp_path_factory.mktemp("one")
        files = {
            "sitegen.yaml": SITE_CONFIG,
            "data/models.yaml": MODELS,
            "data/gpus.yaml": GPUS,
            "data/workloads.yaml": WORKLOADS,
            "data/pricing.yaml": PRICING,
            f"data/runs/{name}": record,
        }
        for rel, value in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(yaml.safe_dump(value, sort_keys=False))
        built, _ = render_site(root)
        data = json.loads(built["models/m1/g1/data.json"])
        (rung,) = [r for r in data["workloads"]["chat"]["ladder"] if r["target"] == HEADLINE]
        values[(record["engine"], record["date"])] = rung["throughput_per_gpu"]
    return values


@pytest.fixture
def page(make_site) -> str:
    files, _ = render_site(make_site(runs=RUNS))
    return files[PAGE].decode()


def _history_svg(html: str) -> ET.Element:
    (svg,) = re.findall(r'<svg id="[^"]+" class="chart history-chart".*?</svg>', html, re.S)
    return ET.fromstring(svg)


def _history_table(html: str) -> list[list[str]]:
    table = re.search(r'<table class="numbers history">(.*?)</table>', html, re.S).group(1)
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, re.S)
        rows.append([" ".join(re.sub(r"<[^>]+>", "", c).split()) for c in cells])
    return rows


def test_the_setup_is_what_the_test_means(expected):
    assert expected[("sglang", "2026-10-01")] is None  # does not reach 20 tok/s per user
    dates = [expected[("vllm", d)] for d in ("2026-09-01", "2026-10-01", "2026-11-01")]
    assert None not in dates and len(set(dates)) == 3


def test_history_chart_points_equal_each_dates_ladder(page, expected):
    svg = _history_svg(page)
    points = [
        (e.get("data-date"), float(e.get("data-throughput-per-gpu")))
        for e in svg.iter(f"{SVG_NS}path")
        if "pt" in e.get("class", "").split()
    ]
    reached = sorted((d, v) for (_, d), v in expected.items() if v is not None)
    assert sorted(points) == reached
    assert svg.find(f"{SVG_NS}title").text.startswith("Model One on GPU One: tokens/s per GPU")
    assert "not reached" in svg.find(f"{SVG_NS}desc").text


def test_history_table_equals_each_dates_ladder(page, expected):
    rows = _history_table(page)
    assert rows[0][:3] == ["Run date", "Engine, precision", "Tokens/s per GPU at 20 tok/s/user"]
    shown = {(r[1].split()[0].lower(), r[0]): r[2] for r in rows[1:]}
    assert shown == {
        (engine, date): tokens(v) if v is not None else "not reached"
        for (engine, date), v in expected.items()
    }
    # newest first, each with its change since the last run of that curve
    vllm = [r for r in rows[1:] if r[1] == "vLLM FP8"]
    assert [r[0] for r in vllm] == ["2026-11-01", "2026-10-01", "2026-09-01"]
    v = [expected[("vllm", d)] for d in ("2026-09-01", "2026-10-01", "2026-11-01")]
    assert vllm[0][3] == percent((v[2] / v[1] - 1) * 100)
    assert vllm[1][3] == percent((v[1] / v[0] - 1) * 100)
    assert vllm[2][3] == "-"
    # after a date that did not reach the target there is nothing to compare with
    sglang = [r for r in rows[1:] if r[1] == "SGLang FP8"]
    assert [r[3] for r in sglang] == ["-", "-"]


def test_since_the_last_run_sentence(page, expected):
    v1, v2 = expected[("vllm", "2026-10-01")], expected[("vllm", "2026-11-01")]
    text = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert (
        f"vLLM FP8: {tokens(v2)} tokens/s per GPU on 2026-11-01; since the last run: "
        f"{percent((v2 / v1 - 1) * 100)}."
    ) in text


def test_ladder_uses_only_the_latest_date(page, expected, make_site):
    data = json.loads(render_site(make_site(runs=RUNS))[0]["models/m1/g1/data.json"])
    (rung,) = [r for r in data["workloads"]["chat"]["ladder"] if r["target"] == HEADLINE]
    latest = [expected[(e, "2026-11-01")] for e in ("vllm", "sglang")]
    assert rung["throughput_per_gpu"] == max(v for v in latest if v is not None)


def test_history_rows_link_to_run_reports(page):
    for rid in ("lab-vllm-0901", "lab-vllm-1001", "lab-vllm-1101", "lab-sglang-1001"):
        assert f'href="../../../../runs/{rid}/"' in page


def test_no_history_without_older_runs(make_site):
    files, _ = render_site(make_site())
    html = files[PAIR].decode()
    assert "history-chart" not in html and "over time" not in html
    assert "frontier-chart" in html
    assert PAGE not in files  # the pair page shows all there is of its main workload


def test_the_pair_page_links_to_its_main_workloads_history(make_site):
    files, _ = render_site(make_site(runs=RUNS))
    html = files[PAIR].decode()
    assert "history-chart" not in html
    assert 'href="chat/#history-chat">Chat over time</a>' in html
