"""Comparison pages and compare/<a>-vs-<b>/<model>/data.json: a verdict, the ratio at every
target and both envelopes, recomputed here from the pair pages' own data.json."""

from __future__ import annotations

import itertools
import json
import re
from html import unescape

import pytest

from conftest import config, html_tables, sweep
from sitegen.build import render_site
from sitegen.display import ratio, tokens

GPUS = ("g1", "g2", "g3")


@pytest.fixture(scope="module")
def built(arena) -> dict[str, bytes]:
    return arena[1]


def _pair(built, gpu: str) -> dict:
    return json.loads(built[f"models/m1/{gpu}/data.json"])


def _compare(built, a: str, b: str) -> dict:
    return json.loads(built[f"compare/{a}-vs-{b}/m1/data.json"])


def _side(row: dict | None) -> dict | None:
    return None if row is None else {k: v for k, v in row.items() if k != "target"}


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(GPUS, 2)))
def test_compare_data_is_both_pair_ladders_and_their_ratios(built, a, b):
    data = _compare(built, a, b)
    assert set(data) == {"model", "a", "b", "workloads"}
    assert (data["model"], data["a"], data["b"]) == ("m1", a, b)
    pa, pb = _pair(built, a)["workloads"], _pair(built, b)["workloads"]
    assert list(data["workloads"]) == sorted(set(pa) | set(pb), key=lambda w: w != "chat")
    for name, workload in data["workloads"].items():
        assert set(workload) == {"ladder"}
        targets = [r["target"] for r in workload["ladder"]]
        assert targets == [10, 20, 50, 100]
        for i, rung in enumerate(workload["ladder"]):
            assert set(rung) == {"target", "a", "b", "throughput_ratio", "cost_ratio"}
            ra = pa[name]["ladder"][i] if name in pa else None
            rb = pb[name]["ladder"][i] if name in pb else None
            assert rung["a"] == _side(ra) and rung["b"] == _side(rb)
            ta = ra and ra["throughput_per_gpu"]
            tb = rb and rb["throughput_per_gpu"]
            assert rung["throughput_ratio"] == (ta / tb if ta and tb else None)
            for tier in ("owning", "retail"):
                ca = ((ra and ra["cost_per_million_tokens"]) or {}).get(tier)
                cb = ((rb and rb["cost_per_million_tokens"]) or {}).get(tier)
                assert rung["cost_ratio"][tier] == (ca / cb if ca and cb else None)


def test_the_cases_are_there(built):
    g1_g3 = _compare(built, "g1", "g3")["workloads"]
    assert g1_g3["long"]["ladder"][0]["b"] is None  # GPU Three never ran the long workload
    top = g1_g3["chat"]["ladder"][-1]
    assert top["a"]["throughput_per_gpu"] and top["b"]["throughput_per_gpu"] is None
    assert top["throughput_ratio"] is None
    no_price = _compare(built, "g1", "g2")["workloads"]["chat"]["ladder"][0]
    assert no_price["throughput_ratio"] and no_price["cost_ratio"] == {
        "owning": None,
        "retail": None,
    }


def _plain(html: str) -> str:
    """Text as read: tags dropped without adding space, white space folded."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def _verdict(html: str) -> str:
    return _plain(re.search(r'<section class="quick-answer verdict".*?</section>', html, re.S)[0])


def test_verdict_gives_the_ratio_at_the_headline_target(built):
    data = _compare(built, "g1", "g3")
    rung = next(r for r in data["workloads"]["chat"]["ladder"] if r["target"] == 20)
    assert rung["throughput_ratio"] > 1  # GPU One leads, so it is named first
    verdict = _verdict(built["compare/g1-vs-g3/m1/index.html"].decode())
    assert verdict.startswith(
        f"Verdict At 20 tok/s per user on Chat, GPU One serves "
        f"{ratio(rung['throughput_ratio'])} the tokens/s per GPU of GPU Three, at "
        f"{ratio(rung['cost_ratio']['owning'])} the cost per million tokens (Owning pricing)."
    )
    assert ratio(rung["throughput_ratio"]) == "1.1x" and ratio(rung["cost_ratio"]["owning"]) == (
        "1.8x"
    )


def test_verdict_leads_with_the_faster_gpu(built):
    # GPU Three beats GPU Two: the slugs put GPU Two first, the verdict does not
    data = _compare(built, "g2", "g3")
    rung = next(r for r in data["workloads"]["chat"]["ladder"] if r["target"] == 20)
    assert rung["throughput_ratio"] < 1
    verdict = _verdict(built["compare/g2-vs-g3/m1/index.html"].decode())
    assert (
        f"GPU Three serves {ratio(1 / rung['throughput_ratio'])} the tokens/s per GPU of GPU Two"
        in (verdict)
    )
    # GPU Two has no price: no cost ratio, and the page says why
    assert "GPU Two has no known Owning price, so the costs are not compared." in verdict


def test_notes_say_what_differs_and_what_is_missing(built):
    text = _plain(built["compare/g1-vs-g3/m1/index.html"].decode())
    assert (
        "Precisions differ at every target both reach: GPU One with FP4, GPU Three with FP8."
        in text
    )
    assert "GPU Three does not reach 100 tok/s per user" in text
    assert "GPU Three has no run of this workload: only GPU One's figures are shown." in text
    table = next(
        t for t in html_tables(built["compare/g1-vs-g3/m1/index.html"].decode()) if len(t) == 5
    )
    assert table[0][:2] == ["Per-user target", "GPU One / GPU Three"]
    assert table[4][:4] == ["100 tok/s", "-", table[4][2], "not reached"]


def test_both_envelopes_are_on_one_chart(built):
    html = built["compare/g1-vs-g3/m1/index.html"].decode()
    svgs = re.findall(r'<svg id="[^"]+" class="chart envelope-chart".*?</svg>', html, re.S)
    assert len(svgs) == 2  # chat (both GPUs) and long (GPU One alone)
    assert 'data-series="1"' in svgs[0] and 'data-series="1"' not in svgs[1]
    assert "GPU One" in svgs[0] and "GPU Three" in svgs[0]


def test_comparisons_are_linked_from_gpu_pairs_and_model_pages(built):
    routes = {f"compare/{a}-vs-{b}/m1/" for a, b in itertools.combinations(GPUS, 2)}
    for gpu in GPUS:
        html = built[f"gpus/{gpu}/index.html"].decode()
        linked = {
            "compare/" + h.split("compare/")[1]
            for h in re.findall(r'href="([^"]+)"', html)
            if "compare/" in h
        }
        assert linked == {r for r in routes if gpu in r.split("/")[1].split("-vs-")}, gpu
        pair = built[f"models/m1/{gpu}/index.html"].decode()
        assert linked == {
            "compare/" + h.split("compare/")[1]
            for h in re.findall(r'href="([^"]+)"', pair)
            if "compare/" in h
        }
    model = built["models/m1/index.html"].decode()
    assert {
        "compare/" + h.split("compare/")[1]
        for h in re.findall(r'href="([^"]+compare/[^"]+)"', model)
    } == routes
    # and a comparison links back to both pair pages and the model page
    html = built["compare/g1-vs-g3/m1/index.html"].decode()
    for href in ("../../../models/m1/g1/", "../../../models/m1/g3/", "../../../models/m1/"):
        assert f'href="{href}"' in html
    assert "Measured by Lab." in _plain(html)


def test_one_side_below_the_headline_target(make_site):
    slow = sweep(gpu="g2", configs=[config(8, 64, 900.0, 100.0), config(8, 8, 500.0, 70.0)])
    files, _ = render_site(make_site({"lab/a.yaml": sweep(gpu="g1"), "lab/b.yaml": slow}))
    verdict = _verdict(files["compare/g1-vs-g2/m1/index.html"].decode())
    data = json.loads(files["compare/g1-vs-g2/m1/data.json"])
    at_10 = data["workloads"]["chat"]["ladder"][0]
    assert at_10["target"] == 10 and at_10["throughput_ratio"] is not None
    assert verdict.startswith(
        "Verdict At 20 tok/s per user on Chat, only GPU One reaches the target: "
        f"{tokens(data['workloads']['chat']['ladder'][1]['a']['throughput_per_gpu'])} tokens/s "
        "per GPU; no GPU Two config is that fast. At 10 tok/s per user, the fastest target both "
        f"reach, GPU One serves {ratio(at_10['throughput_ratio'])} the tokens/s per GPU of GPU Two"
    )


def test_no_workload_in_common(make_site):
    files, _ = render_site(
        make_site({"lab/a.yaml": sweep(gpu="g1"), "lab/b.yaml": sweep(gpu="g2", workload="long")})
    )
    verdict = _verdict(files["compare/g1-vs-g2/m1/index.html"].decode())
    assert "No workload was measured on both GPUs (GPU One on chat; GPU Two on long)" in verdict
    data = json.loads(files["compare/g1-vs-g2/m1/data.json"])
    assert data["workloads"]["chat"]["ladder"][0]["b"] is None
    assert data["workloads"]["long"]["ladder"][0]["a"] is None


def test_a_sites_template_written_before_still_links_the_chart_script(make_site):
    """charts_script takes the page's link to charts.js, so that a page imports _charts.html
    without its context; a site's own template that imports it with its context and gives no
    link, as the built-in ones did, still gets the same tag."""
    runs = {"lab/a.yaml": sweep(gpu="g1"), "lab/b.yaml": sweep(gpu="g2")}
    page = "compare/g1-vs-g2/m1/index.html"
    built_in = render_site(make_site(runs))[0][page].decode()
    tag = '<script src="../../../assets/charts.js" defer></script>'
    assert built_in.count(tag) == 1
    root = make_site(runs)
    (root / "templates").mkdir()
    (root / "templates/compare.html").write_text(
        '{% extends "base.html" %}{% from "_charts.html" import charts_script with context %}'
        "{% block head %}{{ charts_script() }}{% endblock %}{% block main %}{% endblock %}"
    )
    assert render_site(root)[0][page].decode().count(tag) == 1
