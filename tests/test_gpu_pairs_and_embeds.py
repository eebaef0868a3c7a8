"""GPU pair pages (compare/<a>-vs-<b>/: two GPUs across every model both serve) and embeds
(embed/<model>/<gpu>/: a pair's chart and ladder for an iframe), read as a buyer, a search
engine and another site's author meet them; the ratios recomputed from the pair pages' own
data.json."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
import yaml

from conftest import MODELS, SITE_CONFIG, WORKLOADS, config, sweep
from sitegen.pipeline.build import build, render_site

BASE = SITE_CONFIG["base_url"]
TIER = SITE_CONFIG["headline"]["tier"]
TARGET = SITE_CONFIG["headline"]["interactivity"]
DEFAULT = SITE_CONFIG["default_workload"]
# g2's name holds what HTML must escape; g5 shares no model with another GPU
GPUS = {
    "g1": {"name": "GPU One", "vendor": "Acme"},
    "g2": {"name": 'GPU "Two" & <b>', "vendor": "Acme"},
    "g3": {"name": "GPU Three", "vendor": "Other"},
    "g4": {"name": "GPU Four", "vendor": "Other"},
    "g5": {"name": "GPU Five", "vendor": "Other"},
}
PRICING = {
    "source": "Test TCO",
    "as_of": "2026-07",
    "tiers": {"owning": {"label": "Owning"}, "retail": {"label": "Retail"}},
    "prices": {"g1": {"owning": 2.0, "retail": 4.0}, "g3": {"owning": 1.0}, "g4": {"owning": 3.0}},
}


def _c(tpot_ms: float, throughput: float, concurrency: int) -> dict:
    return config(8, concurrency, throughput, tpot_ms)


# m1 on g1 (both workloads), g2 (chat), g3 (long only: g1 vs g3 reads long, g2 vs g3 shares
# no workload); m2 on g1, g2 and g4 (too slow for the headline target); m3 on g5 alone
RUNS = {
    "lab/m1-g1.yaml": sweep(gpu="g1", configs=[_c(100, 3000, 64), _c(25, 1500, 16), _c(8, 300, 2)]),
    "lab/m1-g1-long.yaml": sweep(
        gpu="g1", workload="long", configs=[_c(50, 900, 64), _c(20, 400, 8)]
    ),
    "lab/m1-g2.yaml": sweep(gpu="g2", engine="sglang", configs=[_c(80, 2000, 64), _c(30, 700, 8)]),
    "lab/m1-g3.yaml": sweep(gpu="g3", workload="long", configs=[_c(60, 1200, 64), _c(20, 500, 8)]),
    "lab/m2-g1.yaml": sweep(model="m2", gpu="g1", configs=[_c(90, 2500, 64), _c(40, 1800, 16)]),
    "lab/m2-g2.yaml": sweep(model="m2", gpu="g2", precision="fp4", configs=[_c(45, 2200, 32)]),
    "lab/m2-g4.yaml": sweep(model="m2", gpu="g4", configs=[_c(200, 900, 64), _c(100, 400, 8)]),
    "lab/m3-g5.yaml": sweep(model="m3", gpu="g5"),
}
NAMES = {slug: m["name"] for slug, m in {**MODELS, "m3": {"name": "Model Three"}}.items()}
SITE = {
    "sitegen.yaml": SITE_CONFIG,
    "data/models.yaml": {slug: {"name": name} for slug, name in NAMES.items()},
    "data/gpus.yaml": GPUS,
    "data/workloads.yaml": WORKLOADS,
    "data/pricing.yaml": PRICING,
    **{f"data/runs/{name}": record for name, record in RUNS.items()},
}


def write_site(root: Path) -> Path:
    for name, value in SITE.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, bytes]:
    files, _ = render_site(write_site(tmp_path_factory.mktemp("gpu-pairs") / "site"))
    return files


def shared_models() -> dict[tuple[str, str], list[str]]:
    """(a, b) -> the models with a run on both, from the run records."""
    gpus_of: dict[str, set[str]] = {}
    for record in RUNS.values():
        gpus_of.setdefault(record["model"], set()).add(record["gpu"])
    out: dict[tuple[str, str], list[str]] = {}
    for model, gpus in sorted(gpus_of.items()):
        for a, b in itertools.combinations(sorted(gpus), 2):
            out.setdefault((a, b), []).append(model)
    return out


JSONLD = r'<script type="application/ld\+json">(.*?)</script>'


def hrefs(html: str) -> list[str]:
    """The links of a page to other files (not to a part of itself)."""
    return [unescape(h) for h in re.findall(r'href="([^"#]+)"', html)]


def resolve(page: str, href: str) -> str:
    """The output path a link of the page at `page` (a folder route) points at, relative or
    absolute under base_url."""
    if href.startswith(BASE):
        page, href = "", href.removeprefix(BASE)
    parts = page.rstrip("/").split("/") if page else []
    for part in href.split("/"):
        if part == "..":
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    path = "/".join(parts)
    return (path + "/" if path else "") + "index.html" if href.endswith("/") else path


def test_a_gpu_pair_page_for_every_two_gpus_sharing_a_model(built):
    pages = {p for p in built if re.fullmatch(r"compare/[^/]+/index\.html", p)}
    expected = {f"compare/{a}-vs-{b}/index.html" for a, b in shared_models()}
    assert pages == expected
    assert not any("g5" in p for p in pages)  # it shares no model
    # exactly the GPU pairs that have a comparison of some model
    per_model = {p.rsplit("/", 2)[0] for p in built if p.count("/") == 3 and "compare/" in p}
    assert {p.removesuffix("/index.html") for p in pages} == per_model
    sitemap = built["sitemap.xml"].decode()
    for page in pages:
        assert f"<loc>{BASE}{page.removesuffix('index.html')}</loc>" in sitemap


def _at_headline(pair: dict, workload: str) -> dict:
    (row,) = [r for r in pair["workloads"][workload]["ladder"] if r["target"] == TARGET]
    return row


def test_the_verdicts_are_the_ratios_of_the_pair_pages_headlines(built):
    for (a, b), models in shared_models().items():
        data = json.loads(built[f"compare/{a}-vs-{b}/data.json"])
        assert (data["a"], data["b"]) == (a, b)
        assert [row["model"] for row in data["models"]] == models
        for row in data["models"]:
            model = row["model"]
            assert row["url"] == f"compare/{a}-vs-{b}/{model}/"
            assert row["url"] + "index.html" in built
            pairs = [json.loads(built[f"models/{model}/{g}/data.json"]) for g in (a, b)]
            both = set(pairs[0]["workloads"]) & set(pairs[1]["workloads"])
            if not both:  # m1 on g2 (chat) and g3 (long)
                assert row["workload"] is None and row["throughput_ratio"] is None
                assert row["a"] is None and row["b"] is None
                continue
            workload = DEFAULT if DEFAULT in both else sorted(both)[0]
            assert (row["workload"], row["interactivity"], row["tier"]) == (workload, TARGET, TIER)
            if workload == DEFAULT:  # the pair page's own headline is that point
                assert all(p["headline"]["workload"] == DEFAULT for p in pairs)
            rungs = [_at_headline(p, workload) for p in pairs]
            for side, rung in zip((row["a"], row["b"]), rungs, strict=True):
                assert side["throughput_per_gpu"] == rung["throughput_per_gpu"]
                assert (side["engine"], side["precision"]) == (rung["engine"], rung["precision"])
                cost = (rung["cost_per_million_tokens"] or {}).get(TIER)
                assert side["cost_per_million_tokens"] == cost
            x, y = (r["throughput_per_gpu"] for r in rungs)
            assert row["throughput_ratio"] == (x / y if None not in (x, y) else None)
            cx, cy = (row[s]["cost_per_million_tokens"] for s in "ab")
            assert row["cost_ratio"] == (cx / cy if None not in (cx, cy) else None)
    # the cases the site holds: a ratio and a cost ratio, a side without a price, a side that
    # does not reach the target, a workload other than the default
    rows = {
        (a, b, r["model"]): r
        for (a, b) in shared_models()
        for r in json.loads(built[f"compare/{a}-vs-{b}/data.json"])["models"]
    }
    assert rows[("g1", "g3", "m1")]["workload"] == "long"
    assert rows[("g1", "g3", "m1")]["cost_ratio"] is not None
    assert (
        rows[("g1", "g2", "m1")]["throughput_ratio"]
        and rows[("g1", "g2", "m1")]["cost_ratio"] is None
    )
    assert rows[("g1", "g4", "m2")]["b"]["throughput_per_gpu"] is None


def test_the_page_lists_the_shared_models_and_its_links_resolve(built):
    for (a, b), models in shared_models().items():
        route = f"compare/{a}-vs-{b}/"
        html = built[route + "index.html"].decode()
        links = {resolve(route, h) for h in hrefs(html)}
        table = html[html.index("<tbody>") : html.index("</tbody>")]
        linked = [resolve(route, h) for h in hrefs(table)]
        assert linked == [f"{route}{m}/index.html" for m in models]
        for target in links:
            assert target in built, (route, target)
        assert f"gpus/{a}/index.html" in links and f"gpus/{b}/index.html" in links
        assert route + "data.json" in links
        assert "<h1" in html and "<b>" not in html  # g2's name escaped
    g1_g2 = built["compare/g1-vs-g2/index.html"].decode()
    assert "GPU &#34;Two&#34; &amp; &lt;b&gt;" in g1_g2
    ratio = json.loads(built["compare/g1-vs-g2/data.json"])["models"][0]["throughput_ratio"]
    assert f"<strong>{ratio:.1f}x</strong>" in g1_g2  # 1x to 10x: one decimal
    assert "No workload measured on both GPUs" in built["compare/g2-vs-g3/index.html"].decode()


def test_gpu_pages_and_comparisons_link_to_it(built):
    pairs = shared_models()
    for gpu in GPUS:
        page = f"gpus/{gpu}/"
        links = {resolve(page, h) for h in hrefs(built[page + "index.html"].decode())}
        pair_pages = {p for p in links if re.fullmatch(r"compare/[^/]+/index\.html", p)}
        assert pair_pages == {f"compare/{a}-vs-{b}/index.html" for a, b in pairs if gpu in (a, b)}
    for (a, b), models in pairs.items():
        for model in models:
            page = f"compare/{a}-vs-{b}/{model}/"
            html = built[page + "index.html"].decode()
            crumbs = re.search(r'<nav class="crumbs".*?</nav>', html, re.S).group(0)
            assert f"compare/{a}-vs-{b}/index.html" in {resolve(page, h) for h in hrefs(crumbs)}
            (trail,) = [
                block["itemListElement"]
                for block in map(json.loads, re.findall(JSONLD, html, re.S))
                if block["@type"] == "BreadcrumbList"
            ]
            assert [i["item"] for i in trail] == [BASE, f"{BASE}compare/{a}-vs-{b}/", BASE + page]


def test_an_embed_is_the_pairs_chart_and_ladder_with_a_credit_and_no_site_frame(built):
    sitemap = built["sitemap.xml"].decode()
    embeds = sorted(p for p in built if p.startswith("embed/"))
    assert embeds == sorted({f"embed/{r['model']}/{r['gpu']}/index.html" for r in RUNS.values()})
    assert "embed/" not in sitemap
    for path in embeds:
        _, model, gpu, _ = path.split("/")
        html = built[path].decode()
        pair_url = f"{BASE}models/{model}/{gpu}/"
        assert '<meta name="robots" content="noindex">' in html
        assert re.findall(r'<link rel="canonical" href="([^"]+)">', html) == [pair_url]
        for tag in ("<header", "<footer", "<nav", 'class="skip-link"'):
            assert tag not in html, (path, tag)
        assert re.search(r'<svg [^>]*class="chart frontier-chart"', html), path
        assert '<table class="numbers ladder"' in html
        credit = re.findall(r'<a href="([^"]+)" target="_top">', html)
        assert credit == [pair_url]
        # the chart and ladder of the pair page's first workload, figures and all
        pair = json.loads(built[f"models/{model}/{gpu}/data.json"])
        first = next(iter(pair["workloads"].values()))
        for rung in first["ladder"]:
            if rung["throughput_per_gpu"] is not None:
                assert f"{rung['throughput_per_gpu']:,.0f}" in html
        for href in hrefs(html):  # the credit, stylesheets and script
            assert resolve(path.removesuffix("index.html"), href) in built, href


def test_the_pair_page_carries_the_iframe_markup_to_copy(built):
    for record in RUNS.values():
        model, gpu = record["model"], record["gpu"]
        html = built[f"models/{model}/{gpu}/index.html"].decode()
        assert "<iframe" not in html  # shown, not embedded
        (code,) = re.findall(r'<details class="embed-snippet".*?<code>(.*?)</code>', html, re.S)
        markup = unescape(code)
        assert markup.startswith(f'<iframe src="{BASE}embed/{model}/{gpu}/"')
        assert re.search(r' width="\d+" height="\d+"', markup)
        title = re.search(r' title="([^"]*)"', markup).group(1)
        assert unescape(title).startswith(f"{NAMES[model]} on {GPUS[gpu]['name']}")
    # a name with quotes, & and < stays a valid attribute in the markup copied
    g2 = unescape(
        re.search(r"<code>(&lt;iframe.*?)</code>", built["models/m1/g2/index.html"].decode()).group(
            1
        )
    )
    assert 'title="Model One on GPU &#34;Two&#34; &amp; &lt;b&gt;' in g2


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_an_edited_run_makes_its_gpu_pair_pages_and_embed_again(tmp_path):
    root = write_site(tmp_path / "site")
    build(root)
    before = _tree(root / "public")
    record = sweep(gpu="g3", workload="long", configs=[_c(60, 1500, 64), _c(20, 650, 8)])
    (root / "data/runs/lab/m1-g3.yaml").write_text(yaml.safe_dump(record))
    made = set(build(root).made)
    assert {"gpu-pair g1 g3", "gpu-pair g2 g3", "embed m1 g3"} <= made
    # the pairs m1 on g3 is no part of
    assert not {"gpu-pair g1 g2", "gpu-pair g1 g4", "embed m1 g1", "embed m2 g1"} & made
    after = _tree(root / "public")
    assert after["compare/g1-vs-g3/data.json"] != before["compare/g1-vs-g3/data.json"]
    assert after["embed/m1/g3/index.html"] != before["embed/m1/g3/index.html"]
    fresh = tmp_path / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    build(root, fresh, use_cache=False)
    assert after == _tree(fresh)


def test_a_headline_target_off_the_ladder_is_read_all_the_same(tmp_path):
    """The verdicts read each side's headline row, which exists whether or not the headline
    interactivity is one of the ladder's targets."""
    root = write_site(tmp_path / "site")
    off = {**SITE_CONFIG, "headline": {"interactivity": 25, "tier": TIER}}
    (root / "sitegen.yaml").write_text(yaml.safe_dump(off), encoding="utf-8")
    files, _ = render_site(root)
    (row, _) = json.loads(files["compare/g1-vs-g2/data.json"])["models"]
    heads = [json.loads(files[f"models/m1/{g}/data.json"])["headline"] for g in ("g1", "g2")]
    assert row["interactivity"] == 25 == heads[0]["interactivity"]
    x, y = (h["throughput_per_gpu"] for h in heads)
    assert row["throughput_ratio"] == x / y
    assert "At 25 tok/s per user" in files["compare/g1-vs-g2/m1/index.html"].decode()
