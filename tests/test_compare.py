"""Comparison pages and compare/<a>-vs-<b>/<model>/data.json: a verdict, the ratio at every
target and both envelopes, recomputed here from the pair pages' own data.json."""

from __future__ import annotations

import copy
import itertools
import json
import re
from html import unescape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import config, html_tables, sweep
from sitegen.calc.tables import summarise
from sitegen.charts import ChartCache, draw_envelopes, envelope_chart
from sitegen.pipeline.build import render_site
from sitegen.pipeline.making import Maker
from sitegen.records import load_site
from sitegen.render.content import Content
from sitegen.render.display import ratio, tokens
from sitegen.render.environment import environment
from sitegen.views import Keys, Sources, plan_jobs
from sitegen.views.compare import compare_outputs_of
from sitegen.views.social import compare_card

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
        assert set(workload) == {"tokens", "ladder"}
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
        linked -= {r.removesuffix("m1/") for r in routes}  # its GPU pair pages: elsewhere
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


# -- what a comparison shares with the others of its GPUs, made once ------------------------


def _made_apart(root, names: list[str]) -> dict[str, bytes]:
    """The outputs of the jobs `names`, each made by a plan of its own, no series kept."""
    out: dict[str, bytes] = {}
    for name in names:
        envelope_chart._SIDES.clear()
        out.update(_made(root, [name]))
    return out


def _made(root, names: list[str]) -> dict[str, bytes]:
    """The outputs of the jobs `names`, made one after another by one plan."""
    site, _ = load_site(root)
    src = Sources(site, summarise(site), Content())
    env = environment(root)
    jobs = [j for j in plan_jobs(src, Keys(src, env, [])) if j.name in names]
    maker = Maker(src, env, {"site": site.config, "nav_pages": []}, root, ChartCache(None))
    return maker.make(jobs).files


def test_comparisons_sharing_their_gpus_are_the_bytes_each_makes_alone(arena, monkeypatch):
    """Each GPU is on two of the three comparisons: the second is made with what the first
    prepared of it (its chart's series, its rows' cells and text, its card's envelope), and
    is, page, data and card, what it is made apart."""
    names = [
        f"{kind} m1 {a} {b}"
        for a, b in itertools.combinations(GPUS, 2)
        for kind in ("compare", "card")
    ]
    prepared = []
    prepare = envelope_chart._prepare
    monkeypatch.setattr(
        envelope_chart, "_prepare", lambda *args: prepared.append(args) or prepare(*args)
    )
    envelope_chart._SIDES.clear()
    together = _made(arena[0], names)
    # each GPU's chat series and GPU One's long one, once each: eight series on five charts
    assert len(prepared) == 4
    assert together == _made_apart(arena[0], names)
    assert len(together) == 9 and together == {k: arena[1][k] for k in together}


def test_a_comparisons_card_reads_each_gpus_envelope_once_a_plan(arena):
    site, _ = load_site(arena[0])
    src = Sources(site, summarise(site), Content())
    g1_g2, g1_g3 = compare_card(src, "m1", "g1", "g2"), compare_card(src, "m1", "g1", "g3")
    assert g1_g2.series[0] is g1_g3.series[0]
    again = Sources(site, summarise(site), Content())  # the next build of `sitegen serve`
    assert compare_card(again, "m1", "g1", "g2").series[0] is not g1_g2.series[0]
    assert compare_card(again, "m1", "g1", "g2") == g1_g2


def test_a_rebuild_with_changed_runs_never_draws_a_gpu_as_it_was(make_site):
    """`sitegen serve` builds again in the same process: a GPU whose runs changed is drawn
    anew, though its last chart's series are still kept."""
    runs = {"lab/a.yaml": sweep(gpu="g1"), "lab/b.yaml": sweep(gpu="g2")}
    page = "compare/g1-vs-g2/m1/index.html"
    before = render_site(make_site(runs), use_cache=False)[0][page]
    faster = [config(8, 64, 2400.0, 40.0), config(8, 8, 800.0, 12.0)]
    root = make_site({**runs, "lab/a.yaml": sweep(gpu="g1", configs=faster)})
    after = render_site(root, use_cache=False)[0]
    envelope_chart._SIDES.clear()
    assert after[page] != before
    assert after == render_site(root, use_cache=False)[0]


@pytest.fixture(scope="module")
def chart_data(arena) -> dict:
    site, _ = load_site(arena[0])
    page, _ = compare_outputs_of(Sources(site, summarise(site), Content()), "m1", "g1", "g2")
    return page.charts[0].data


@settings(max_examples=60, deadline=None)
@given(
    side=st.sampled_from([0, 1]),
    change=st.sampled_from(["label", "headline", "point", "stretch", "target"]),
    value=st.floats(min_value=0.5, max_value=2.0),
)
def test_a_series_changed_in_any_value_is_never_drawn_from_one_kept(
    chart_data, side, change, value
):
    """A chart drawn with the series of the last charts kept is the chart drawn with none
    kept, whatever value of a series (or of the chart they are read with) differs."""
    changed = copy.deepcopy(chart_data)
    series = changed["series"][side]
    if change == "label":
        series["label"] += f" {value}"
    elif change == "headline":
        series["headline"] = (series["headline"] or 1000.0) * value
    elif change == "point":
        series["curves"][0]["frontier"][-1][1] *= value
    elif change == "stretch":
        series["stretches"][-1][2] = min(
            series["stretches"][-1][2] * value, series["stretches"][-1][2]
        )
    else:
        changed["target"] *= value
    draw_envelopes(chart_data)  # its series kept
    sides = envelope_chart._sides(changed)  # what the axis holds, as the page reads it too
    assert envelope_chart._x_values(changed, sides) == envelope_chart.x_values(changed)
    kept = draw_envelopes(changed)
    envelope_chart._SIDES.clear()
    assert kept == draw_envelopes(changed)
    # 20 and 20.0 are equal, not the same data: the chart's id reads its JSON
    assert (kept == draw_envelopes(chart_data)) == (json.dumps(changed) == json.dumps(chart_data))
