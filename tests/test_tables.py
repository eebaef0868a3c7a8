"""The summaries: cost split into input and output tokens, and each curve read at every rung."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import WORKLOADS, config, html_tables, html_text, sweep
from sitegen.calc.frontier import Point, pareto_frontier, value_at
from sitegen.calc.tables import beats_the_rest, summarise
from sitegen.pipeline.build import build
from sitegen.records import load_site

# 8,000 tokens in and 2,000 out: 80 % of the tokens counted are input, 20 % output
SPLIT = dict(WORKLOADS, chat={"name": "Chat", "isl": 8000, "osl": 2000})
PRICES = {"owning": 2.0, "retail": 4.0}  # g1, conftest's PRICING


@pytest.fixture
def split_site(make_site, tmp_path):
    runs = {"a.yaml": sweep(), "b.yaml": sweep(workload="long")}
    out = tmp_path / "out"
    build(make_site(runs=runs, workloads=SPLIT), out)
    return out


def test_input_and_output_costs_charge_the_gpu_hour_to_each_kind_of_token(split_site):
    data = json.loads((split_site / "models/m1/g1/data.json").read_text())
    reached = [r for r in data["workloads"]["chat"]["ladder"] if r["throughput_per_gpu"]]
    assert reached
    for rung in reached:
        throughput = rung["throughput_per_gpu"]
        for tier, price in PRICES.items():
            blended = rung["cost_per_million_tokens"][tier]
            cost_in = rung["cost_per_million_input_tokens"][tier]
            cost_out = rung["cost_per_million_output_tokens"][tier]
            assert blended == pytest.approx(price / (throughput * 3600) * 1e6, rel=1e-12)
            assert cost_in == pytest.approx(price / (throughput * 0.8 * 3600) * 1e6, rel=1e-12)
            assert cost_out == pytest.approx(price / (throughput * 0.2 * 3600) * 1e6, rel=1e-12)
            # one request costs the same whichever way it is counted
            assert 8000 * cost_in == pytest.approx(2000 * cost_out)
            assert 8000 * cost_in == pytest.approx(10_000 * blended)


def test_the_ladder_shows_the_split_and_says_how_it_is_made(split_site):
    html = (split_site / "models/m1/g1/index.html").read_text()
    data = json.loads((split_site / "models/m1/g1/data.json").read_text())
    ladders = [t for t in html_tables(html) if t and t[0][0] == "Per-user target"]
    chat, long = ladders
    assert chat[0][2:5] == ["$ / 1M tokens", "$ / 1M input tokens", "$ / 1M output tokens"]
    rung = data["workloads"]["chat"]["ladder"][0]  # 10 tok/s: 1,000 tokens/s per GPU
    assert rung["throughput_per_gpu"] == 1000.0
    # owning, $2/h: $0.56 blended, $0.69 per million input, $2.78 per million output
    assert chat[1][:5] == ["10 tok/s", "1,000", "$0.56", "$0.69", "$2.78"]
    text = html_text(html)
    assert "sends 8,000 tokens and gets 2,000 back" in text
    assert "they do not add up" in text
    # `long` gives an input length only: no split, and no columns for it
    assert "$ / 1M input tokens" not in long[0]
    assert data["workloads"]["long"]["ladder"][0]["cost_per_million_input_tokens"] is None


def test_no_split_where_the_workload_lengths_are_unknown(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(), out)  # chat: no isl, no osl
    data = json.loads((out / "models/m1/g1/data.json").read_text())
    rung = data["workloads"]["chat"]["ladder"][0]
    assert rung["cost_per_million_tokens"] is not None
    assert rung["cost_per_million_input_tokens"] is None
    assert rung["cost_per_million_output_tokens"] is None
    assert "input tokens" not in html_text((out / "models/m1/g1/index.html").read_text())


def test_each_curve_is_read_at_every_rung_and_the_headline(make_site):
    runs = {
        "a.yaml": sweep(),
        "b.yaml": sweep(engine="sglang", configs=[config(8, 8, 700.0, 20.0, power_w=650.0)]),
    }
    site_config = {
        "title": "T",
        "base_url": "https://example.org/",
        "default_workload": "chat",
        "targets": [10, 50, 100],
        "headline": {"interactivity": 30, "tier": "owning"},
    }
    site, _ = load_site(make_site(runs=runs, config=site_config))
    (summary,) = summarise(site)[("m1", "g1")]
    assert [(c.engine, len(c.rungs)) for c in summary.curves] == [("sglang", 4), ("vllm", 4)]
    for curve in summary.curves:
        assert [r.target for r in curve.rungs] == [10, 30, 50, 100]  # the headline's too
        for rung in curve.rungs:
            assert rung.throughput_per_gpu == value_at(curve.frontier, rung.target)
    sglang, vllm = summary.curves
    # sglang's one config runs at 50 tok/s per user (TPOT 20 ms): read as its peak up to 50
    assert sglang.frontier_power_w == (650.0,)
    assert [r.throughput_per_gpu for r in sglang.rungs] == [700.0, 700.0, 700.0, None]
    assert [r.power and (r.power.source, r.power.per_gpu_w) for r in sglang.rungs] == [
        ("measured", 650.0),
        ("measured", 650.0),
        ("measured", 650.0),
        None,
    ]
    assert vllm.frontier_power_w == (None, None, None)
    assert {(r.power.source, r.power.per_gpu_w) for r in vllm.rungs} == {("all_in", 2000.0)}
    # the ladder's rung is the best curve's own
    for rung in summary.ladder:
        best = max(
            (c.rungs[[10, 30, 50, 100].index(rung.target)].throughput_per_gpu or -1)
            for c in summary.curves
        )
        assert (rung.throughput_per_gpu or -1) == best


# a few values only, so that spans hold ties on each axis and exact duplicates
AXIS = st.sampled_from([1.0, 2.0, 2.5, 10.0, 40.0])


@given(st.lists(st.lists(st.tuples(AXIS, AXIS), min_size=1, max_size=12), min_size=1))
def test_the_points_that_beat_the_rest_of_their_span_are_its_pareto_frontier(spans):
    ordered = [sorted(span) for span in spans]  # by interactivity, then throughput
    starts = np.cumsum([0] + [len(span) for span in ordered[:-1]])
    ys = np.array([y for span in ordered for _, y in span])
    kept = beats_the_rest(ys, starts).tolist()
    for start, span in zip(starts, ordered, strict=True):
        on = [Point(*p) for p, k in zip(span, kept[start : start + len(span)], strict=True) if k]
        assert tuple(on) == pareto_frontier(Point(*p) for p in span)


def test_summary_of_a_curve_with_ties_failures_and_an_older_date(make_site):
    """Against figures worked out here: the points' order (ties in the site's order), the
    fastest config (ties to the lowest run id), failed configs, current and older runs."""
    fast = dict(ttft_ms=100.0)
    runs = {
        "old.yaml": sweep(date="2026-09-01", configs=[config(8, 4, 900.0, 10.0)]),
        "b.yaml": sweep(configs=[config(8, 8, 600.0, 25.0, **fast), config(8, 16, 600.0, 20.0)]),
        "a.yaml": sweep(
            configs=[
                config(8, 64, 600.0, 25.0, **fast),
                {"gpus": 8, "concurrency": 512, "status": "failed", "tp": 8},
                config(8, 2, 200.0, 10.0, tp=4),
            ]
        ),
    }
    site, _ = load_site(make_site(runs=runs))
    (summary,) = summarise(site)[("m1", "g1")]
    (curve,) = summary.curves
    # 40 tok/s per user, then two at 50 and 600 tok/s/GPU (run a before b), then 100
    assert [(p["interactivity"], p["run"], p["concurrency"]) for p in curve.points] == [
        (40.0, "a", 64),
        (40.0, "b", 8),
        (50.0, "b", 16),
        (100.0, "a", 2),
    ]
    assert [p["tp"] for p in curve.points] == [None, None, None, 4]
    assert curve.frontier == (Point(50.0, 600.0), Point(100.0, 200.0))
    assert [(h.date.isoformat(), h.run_ids) for h in curve.history] == [
        ("2026-09-01", ("old",)),
        ("2026-10-01", ("a", "b")),
    ]
    assert curve.history[0].throughput_per_gpu == 900.0  # its one point, up to 100 tok/s
    assert (summary.fastest_ttft["run"], summary.fastest_ttft["index"]) == ("a", 0)
    assert summary.fastest_tpot["concurrency"] == 2
    assert summary.headline_config["concurrency"] == 16  # 20 tok/s per user: the best there
    assert summary.failed == (
        {
            "run": "a",
            "engine": "vllm",
            "precision": "fp8",
            "parallelism": "TP8",
            "index": 1,
            "concurrency": 512,
            "gpus": 8,
        },
    )
    assert summary.fastest_tpot["parallelism"] == "TP4"
    assert (summary.configs, summary.current_runs, summary.older_runs) == (4, ("a", "b"), ("old",))


FLOATS = st.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, float("nan"), float("inf"), -float("inf")])


@given(st.lists(st.tuples(st.integers(0, 3), FLOATS), max_size=40))
def test_running_max_is_pandas_cummax_by_group(rows):
    """tables.running_max against the pandas expression it replaced: the same values, NaN
    where pandas has NaN (a zero's sign may differ: beats_the_rest only compares)."""
    import pandas as pd

    from sitegen.calc.tables import running_max

    rows.sort(key=lambda r: r[0])  # groups are runs of one value
    group = np.array([g for g, _ in rows], dtype=np.int64)
    values = np.array([v for _, v in rows], dtype=np.float64)
    expected = pd.Series(values).groupby(group, sort=False).cummax().to_numpy()
    got = running_max(values, group)
    assert np.array_equal(got, expected.astype(np.float64), equal_nan=True)
