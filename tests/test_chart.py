"""The frontier chart: its points are data.json's, its lines are the calculator's, it shows
without JavaScript, and an unchanged chart is drawn once."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import chart_entries, write_chart_entries
from sitegen.calc import frontier
from sitegen.charts import ChartCache, draw_frontier
from sitegen.charts.cache import chart_key
from sitegen.charts.svg import nice_ticks
from sitegen.pipeline.build import render_site

SVG_NS = "{http://www.w3.org/2000/svg}"
CACHE_FOLDER = ".sitegen-cache/charts"  # where docs/pages.md says the charts are kept
START = re.compile(r"^M(-?[\d.]+),(-?[\d.]+)")


def _svgs(html: str, cls: str = "frontier-chart") -> list[ET.Element]:
    found = re.findall(rf'<svg id="[^"]+" class="chart {cls}".*?</svg>', html, re.S)
    return [ET.fromstring(svg) for svg in found]


def _points(svg: ET.Element) -> list[dict]:
    out = []
    for el in svg.iter(f"{SVG_NS}path"):
        if "pt" in el.get("class", "").split():
            cx, cy = (float(v) for v in START.match(el.get("d")).groups())
            out.append(
                {
                    "curve": int(el.get("data-series")),
                    "interactivity": float(el.get("data-interactivity")),
                    "throughput_per_gpu": float(el.get("data-throughput-per-gpu")),
                    # an open-loop point has its request rate instead
                    "concurrency": int(c) if (c := el.get("data-concurrency")) else None,
                    "request_rate": float(r) if (r := el.get("data-request-rate")) else None,
                    "cx": cx,
                    "cy": cy,
                    "title": el.find(f"{SVG_NS}title").text,
                    "tabindex": el.get("tabindex"),
                }
            )
    return out


def _fit(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The affine map value -> pixel through the two most distant pairs."""
    (v0, p0), (v1, p1) = min(pairs), max(pairs)
    a = (p1 - p0) / (v1 - v0)
    return a, p0 - a * v0


def _x_of(svg: ET.Element):
    """How the chart places tokens/s per user: as is, or its log on a log axis."""
    return math.log if svg.get("data-x-scale") == "log" else (lambda v: v)


def _pairs(files: dict[str, bytes]) -> list[str]:
    return sorted(
        p.removesuffix("data.json")
        for p in files
        if re.fullmatch(r"models/[^/]+/[^/]+/data\.json", p)
    )


def _workload_svgs(files: dict[str, bytes], route: str, data: dict) -> list[ET.Element]:
    """The frontier charts of a pair's workloads, in data.json's order: the main workload's
    on the pair page, each other one's on its own page."""
    pages = [route] + [route + w + "/" for w in list(data["workloads"])[1:]]
    return [svg for page in pages for svg in _svgs(files[page + "index.html"].decode())]


def test_every_pair_page_has_a_chart_whose_points_match_data_json(flagship_files):
    _, files = flagship_files
    pairs = _pairs(files)
    assert pairs
    charted = 0
    for route in pairs:
        data = json.loads(files[route + "data.json"])
        svgs = _workload_svgs(files, route, data)
        assert len(svgs) == len(data["workloads"]), route
        for svg, (workload, wl) in zip(svgs, data["workloads"].items(), strict=True):
            points = _points(svg)
            expected = sorted(
                (i, p["interactivity"], p["throughput_per_gpu"], p["concurrency"])
                for i, c in enumerate(wl["curves"])
                for p in c["points"]
            )
            got = sorted(
                (p["curve"], p["interactivity"], p["throughput_per_gpu"], p["concurrency"])
                for p in points
            )
            assert got == expected, (route, workload)
            # positions: one affine map per axis (of log x on a log axis) carries every point
            # (a chart of one measured point, as an MLPerf submission can be, has no map)
            if len({(p["interactivity"], p["throughput_per_gpu"]) for p in points}) < 2:
                continue
            fx = _x_of(svg)
            ax, bx = _fit([(fx(p["interactivity"]), p["cx"]) for p in points])
            ay, by = _fit([(p["throughput_per_gpu"], p["cy"]) for p in points])
            assert ax > 0 and ay < 0  # x grows rightwards, y upwards
            for p in points:
                assert p["cx"] == pytest.approx(ax * fx(p["interactivity"]) + bx, abs=0.15)
                assert p["cy"] == pytest.approx(ay * p["throughput_per_gpu"] + by, abs=0.15)
            charted += 1
    assert charted >= 2


def test_points_say_their_config_and_take_focus(flagship_files):
    _, files = flagship_files
    html = files["models/kimi-k3.1-pro/mi355x/index.html"].decode()
    points = _points(_svgs(html)[0])
    assert len(points) == 6 and all(p["tabindex"] == "0" for p in points)
    (p64,) = [p for p in points if p["concurrency"] == 64]
    assert p64["title"] == (
        "SGLang FP4, concurrency 64; TP8 EP8 on 8 GPUs; "
        "50 tok/s/user, 12,926 tok/s/GPU; TTFT 820 ms, TPOT 20 ms (medians); "
        "no MBU (no isl and osl for the workload in workloads.yaml)"
    )
    # no tip markup a point: assets/charts.js draws the title's lines, loaded deferred
    assert not [g for g in _svgs(html)[0].iter(f"{SVG_NS}g") if g.get("class") == "tip"]
    assert re.search(r'<script src="(\.\./)+assets/charts\.js" defer></script>', html)


def test_chart_is_described_with_axes_legend_and_target(flagship_files):
    _, files = flagship_files
    html = files["models/kimi-k3.1-pro/mi355x/index.html"].decode()
    svg = _svgs(html)[0]
    title = svg.find(f"{SVG_NS}title").text
    desc = svg.find(f"{SVG_NS}desc").text
    assert title.startswith("Kimi K3.1 Pro on MI355X: throughput per GPU")
    assert "6 measured configs" in desc and "12,926 tokens/s per GPU" in desc
    assert svg.get("aria-labelledby") and svg.get("aria-describedby")
    texts = [t.text for t in svg.iter(f"{SVG_NS}text") if t.text]
    for expected in (
        "Tokens/s per user (1000 / median TPOT)",
        "Tokens/s per GPU (input + output)",
        "SGLang FP4",
        "target 50 tok/s/user",
        "12,926",
        "0",
        "17,500",
    ):
        assert expected in texts


def _segments(d: str) -> list[list[float]]:
    """A path's cubic segments as [x0, y0, c1x, c1y, c2x, c2y, x1, y1]."""
    numbers = [float(v) for v in re.findall(r"-?[\d.]+", d)]
    x, y, rest = numbers[0], numbers[1], numbers[2:]
    out = []
    for i in range(0, len(rest), 6):
        seg = [x, y, *rest[i : i + 6]]
        out.append(seg)
        x, y = seg[6], seg[7]
    return out


def test_curve_is_the_calculators_monotone_interpolation(flagship_files):
    """Halfway along each drawn segment the line is at frontier.value_at, within a pixel; each
    frontier point is where a segment starts or ends. On a linear axis each piece between two
    points is one segment (the Bezier *is* the Hermite); a log axis bends it, so it is cut finer."""
    _, files = flagship_files
    axes_seen = set()
    for route in _pairs(files):
        data = json.loads(files[route + "data.json"])
        svgs = _workload_svgs(files, route, data)
        for svg, wl in zip(svgs, data["workloads"].values(), strict=True):
            points = _points(svg)
            fx = _x_of(svg)
            axes_seen.add(svg.get("data-x-scale"))
            if len({(p["interactivity"], p["throughput_per_gpu"]) for p in points}) < 2:
                assert not [e for e in svg.iter(f"{SVG_NS}path") if e.get("class") == "curve"]
                continue  # one point: no curve to check
            ax, bx = _fit([(fx(p["interactivity"]), p["cx"]) for p in points])
            ay, by = _fit([(p["throughput_per_gpu"], p["cy"]) for p in points])
            curves = [e for e in svg.iter(f"{SVG_NS}path") if e.get("class") == "curve"]
            drawn = [c for c in wl["curves"] if len(c["frontier"]) > 1]
            assert len(curves) == len(drawn)
            paths = {}
            for path in curves:
                (g,) = [g for g in svg.iter(f"{SVG_NS}g") if path in list(g)]
                paths[int(g.get("data-series"))] = path
            for i, curve in enumerate(wl["curves"]):
                if len(curve["frontier"]) < 2:
                    continue
                front = [
                    frontier.Point(p["interactivity"], p["throughput_per_gpu"])
                    for p in curve["frontier"]
                ]
                segments = _segments(paths[i].get("d"))
                if svg.get("data-x-scale") == "linear":
                    assert len(segments) == len(front) - 1
                ends = [seg[0] for seg in segments] + [segments[-1][6]]
                for knot in front:
                    px = ax * fx(knot.interactivity) + bx
                    assert min(abs(e - px) for e in ends) <= 0.15
                for seg in segments:
                    if seg[6] - seg[0] < 2:
                        continue  # under 2 px wide (two configs 0.03 tok/s/user apart): the
                        # middle's x, written to 0.1 px, is too coarse to read a steep y at
                    # the Bezier at t = 1/2, in pixels, against the calculator
                    mx = (seg[0] + 3 * seg[2] + 3 * seg[4] + seg[6]) / 8
                    my = (seg[1] + 3 * seg[3] + 3 * seg[5] + seg[7]) / 8
                    x = (mx - bx) / ax
                    x = math.exp(x) if svg.get("data-x-scale") == "log" else x
                    value = frontier.value_at(front, x, "interpolate")
                    assert my == pytest.approx(ay * value + by, abs=0.6)
    assert axes_seen == {"linear", "log"}  # the flagship has both kinds


def _chart_data(method: str = "interpolate") -> dict:
    points = [
        {
            "interactivity": x,
            "throughput_per_gpu": y,
            "concurrency": c,
            "gpus": 8,
            "tp": 8,
            "ttft_ms": 500.0,
            "tpot_ms": 1000 / x,
            "run": "r",
            "parallelism": "TP8",
            "date": "d",
        }
        for x, y, c in ((10.0, 1000.0, 64), (25.0, 600.0, 16), (40.0, 200.0, 4), (20, 300, 8))
    ]
    return {
        "model": "M",
        "gpu": "G",
        "workload": "W",
        "method": method,
        "target": 20,
        "headline": {"throughput_per_gpu": 700.0, "engine": "vllm", "precision": "fp8"},
        "curves": [
            {
                "engine": "vllm",
                "precision": "fp8",
                "frontier": [[10.0, 1000.0], [25.0, 600.0], [40.0, 200.0]],
                "points": points,
            }
        ],
        "strong": [0],
    }


def test_measured_method_draws_steps():
    svg = ET.fromstring(draw_frontier(_chart_data("measured")))
    (curve,) = [e for e in svg.iter(f"{SVG_NS}path") if e.get("class") == "curve"]
    d = curve.get("d")
    assert "C" not in d and d.count("V") == 2 and d.count("H") == 2


def test_dominated_points_are_hollow():
    """A point's marker (drawn under every hit area and tip) is in the path of its fill."""
    svg = ET.fromstring(draw_frontier(_chart_data()))
    (group,) = [g for g in svg.iter(f"{SVG_NS}g") if g.get("class") == "markers"]
    fill_of = {d: path.get("fill") for path in group for d in re.findall(r"M[^M]+", path.get("d"))}
    fills = {
        e.get("data-concurrency"): fill_of[e.get("d")]
        for e in svg.iter(f"{SVG_NS}path")
        if "pt" in e.get("class", "")
    }
    assert fills["8"] == "#fff" and fills["64"] != "#fff"


def test_drawing_is_deterministic():
    assert draw_frontier(_chart_data()) == draw_frontier(_chart_data())


@pytest.mark.parametrize("high", [0.3, 1, 7, 55, 157.5, 999, 16954, 123456])
def test_ticks_cover_the_data_with_round_steps(high):
    ticks = nice_ticks(high, 6)
    assert ticks[0] == 0 and ticks[-1] >= high and 5 <= len(ticks) <= 10
    step = ticks[1]
    mantissa = step / 10 ** __import__("math").floor(__import__("math").log10(step))
    assert round(mantissa, 6) in (1, 2, 2.5, 5)
    assert ticks[-2] < high  # no empty interval at the top


# -- the cache -------------------------------------------------------------------------------


def test_unchanged_chart_is_drawn_once_across_builds(make_site, monkeypatch):
    from sitegen.charts import step

    calls = []
    real = step.DRAW["frontier"]

    def counting(data, **options):
        calls.append(1)
        return real(data, **options)

    monkeypatch.setitem(step.DRAW, "frontier", counting)
    root = make_site()
    first, _ = render_site(root)
    assert len(calls) == 1
    assert chart_entries(root / CACHE_FOLDER)
    second, _ = render_site(root)
    assert len(calls) == 1  # read from <site>/.sitegen-cache, not drawn
    assert first == second


def test_corrupt_or_missing_cache_gives_the_same_build(make_site):
    root = make_site()
    clean, _ = render_site(root)
    folder = root / CACHE_FOLDER
    entries = chart_entries(folder)
    (key,) = [k for k, raw in entries.items() if b"frontier-chart" in raw]
    raw = entries[key]
    for bad in (
        raw[:200],  # truncated
        b"\xff\xfe not even text",
        raw.replace(b"Model One", b"Model Evil"),  # edited
    ):
        write_chart_entries(folder, {**entries, key: bad})
        assert render_site(root)[0] == clean
    (folder / "edited.index").write_text("[not json")  # an index that cannot be read
    assert render_site(root)[0] == clean
    write_chart_entries(folder, entries)
    (folder / "edited.pack").write_bytes(b"")  # an index naming what its pack does not hold
    assert render_site(root)[0] == clean
    shutil.rmtree(folder)
    assert render_site(root)[0] == clean


def test_unwritable_cache_folder_still_builds(make_site):
    root = make_site()
    clean, _ = render_site(root)
    shutil.rmtree(root / ".sitegen-cache")
    (root / ".sitegen-cache").write_text("a file where the folder should be")
    assert render_site(root)[0] == clean


def test_changed_data_draws_again_and_prunes_the_old_entry(make_site):
    from conftest import chart_entries, config, sweep

    root = make_site()
    render_site(root)
    old = set(chart_entries(root / CACHE_FOLDER))
    # the pair's chart and the run report's are the same data here: one entry serves both;
    # the model page's chart of every GPU's envelope is the other
    assert len(old) == 2
    make_site(runs={"lab/run.yaml": sweep(configs=[config(8, 64, 1500.0, 100.0)])})
    render_site(root)
    new = set(chart_entries(root / CACHE_FOLDER))
    assert len(new) == 2 and not new & old
    assert len(list((root / CACHE_FOLDER).glob("*.pack"))) == 1  # the old pack pruned whole


def test_cache_counts_hits_and_misses(tmp_path):
    cache = ChartCache(tmp_path / "c")
    data = _chart_data()
    a = cache.get_or_draw("frontier", data, draw_frontier)
    assert cache.get_or_draw("frontier", data, draw_frontier) == a and cache.hits == 1
    cache.flush()  # stored: other caches of the folder read it
    b = ChartCache(tmp_path / "c").get_or_draw("frontier", data, draw_frontier)
    assert a == b and cache.misses == 1
    other = ChartCache(tmp_path / "c")
    other.get_or_draw("frontier", data, draw_frontier)
    assert (other.hits, other.misses) == (1, 0)


# -- in a browser, without JavaScript -------------------------------------------------------


def test_chart_shows_in_chromium_without_javascript(flagship_files, tmp_path, browser):
    root, files = flagship_files
    out = tmp_path / "public"
    for name, body in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(body)
    shots = Path(os.environ.get("SITEGEN_SCREENSHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1100, "height": 900}
    )
    page = context.new_page()
    for route in _pairs(files):
        page.goto((out / route / "index.html").as_uri())
        chart = page.locator("svg.frontier-chart").first
        assert chart.is_visible(), route
        box = chart.bounding_box()
        assert box["width"] > 500 and box["height"] > 250, route
        points = page.locator("svg.frontier-chart").first.locator(".pt")
        assert points.count() >= 1
        for i in range(points.count()):
            pb = points.nth(i).bounding_box()
            assert pb and pb["width"] > 4, (route, i)
            assert box["x"] <= pb["x"] <= box["x"] + box["width"]
            assert box["y"] <= pb["y"] <= box["y"] + box["height"]
        name = route.strip("/").replace("/", "-")
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        chart.screenshot(path=str(shots / f"{name}-chart.png"))
        assert (shots / f"{name}-chart.png").stat().st_size > 5000
        # with no script a point keeps its title, the browser's own tooltip, and takes focus
        # (config, parallelism, figures, latencies and MBU: five lines)
        assert points.nth(0).locator("title").text_content().count("; ") == 4
        points.nth(0).focus()
        assert page.evaluate("document.activeElement.getAttribute('class')") == "pt"
    context.close()


def test_cache_key_covers_the_code_that_writes_the_labels_and_curves():
    """A changed display filter (say, how tok/s round) must redraw every cached chart."""
    from sitegen.charts import cache as cache_module

    names = {p.name for p in cache_module.drawing_sources()}
    assert {"display.py", "frontier.py", "frontier_chart.py", "svg.py"} <= names
    assert all(p.is_file() for p in cache_module.drawing_sources())


@pytest.mark.parametrize(
    "label", ["H100 SXM", "Modèle ünï", "tab\there", "del\x7fchar", "emoji 🚀", 'quote " \\']
)
def test_chart_id_is_the_same_in_every_process_and_apart_for_other_data(label):
    """An id follows the data alone: the same in a process of other string hashes (the id
    is in the page, which must be the same bytes build after build), another where any value
    differs, even as None from NaN, 0.0 from -0.0, 1 from 1.0 or True."""
    import subprocess
    import sys

    from sitegen.charts.svg import chart_id

    data = {"b": [1.5, None, True], "a": {"label": label, "z": 2}}
    code = (
        "import sys; from sitegen.charts.svg import chart_id; "
        f"sys.stdout.write(chart_id('fc', {data!r}))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert other.stdout == chart_id("fc", data)
    assert re.fullmatch(r"fc-[0-9a-f]{10}", chart_id("fc", data))
    ids = {
        chart_id("fc", {**data, "b": [b, None, True]})
        for b in (1.5, float("nan"), None, 0.0, -0.0, 1, 1.0, True)
    }
    assert len(ids) == 8
    assert chart_id("fc", {**data, "a": {"label": label + " ", "z": 2}}) != chart_id("fc", data)


def _key_data() -> dict:
    return {
        "model": "Modèle ünï 🚀",
        "curves": [
            {"engine": "vllm", "points": [{"x": 12.5, "y": 1000.0, "c": 8, "tp": None}]},
            {"engine": "sglang", "points": [{"x": 0.1 + 0.2, "y": 0.0, "c": 1, "tp": 8}]},
        ],
        "strong": [0],
        "flag": True,
    }


def _changes(data: dict):
    """Each way of changing one value of _key_data, by a little: every one draws otherwise."""
    point = lambda d, i: d["curves"][i]["points"][0]  # noqa: E731
    yield lambda d: point(d, 0).update(x=math.nextafter(12.5, 13))  # one ulp
    yield lambda d: point(d, 1).update(y=-0.0)  # "-0" is drawn as "0", but the data differs
    yield lambda d: point(d, 0).update(c=8.0)
    yield lambda d: point(d, 0).update(tp=0)
    yield lambda d: point(d, 1).update(tp="8")
    yield lambda d: d.update(flag=1)
    yield lambda d: d.update(model="Modèle üni 🚀")
    yield lambda d: d.update(model="Modèle ünï 🚀 ")
    yield lambda d: d["strong"].append(1)
    yield lambda d: d["curves"].reverse()
    yield lambda d: d["curves"][0].update(engine="vllm\x00")
    yield lambda d: d.update(extra=None)


def test_the_chart_key_changes_with_any_value_of_the_data_and_its_type():
    from sitegen.charts.cache import chart_key

    base = chart_key("frontier", _key_data())
    assert chart_key("frontier", _key_data()) == base and len(base) == 64
    assert chart_key("history", _key_data()) != base
    keys = {base}
    for change in _changes(_key_data()):
        data = _key_data()
        change(data)
        keys.add(chart_key("frontier", data))
    assert len(keys) == 1 + len(list(_changes(_key_data())))


def test_the_chart_key_reads_values_not_which_objects_they_are(monkeypatch):
    """Equal data built apart, or sharing its lists and strings, has one key (pickle's memo,
    which would write a shared object once, is off); the drawing code is in it too."""
    from sitegen.charts import cache as chart_cache

    shared_points = [{"x": 1.5, "run": "r" * 40}]
    shared = {"a": shared_points, "b": shared_points, "c": ["r" * 40, "r" * 40]}
    apart = {"a": [{"x": 1.5, "run": "".join(["r"] * 40)}], "b": [{"x": 1.5, "run": "r" * 40}]}
    apart["c"] = ["r" * 40, "".join(["r"] * 40)]
    assert chart_cache.chart_key("frontier", shared) == chart_cache.chart_key("frontier", apart)
    before = chart_cache.chart_key("frontier", shared)
    monkeypatch.setattr(chart_cache, "code_digest", lambda: "0" * 64)
    assert chart_cache.chart_key("frontier", shared) != before


def test_parallelism_labels_are_those_of_whole_configs(flagship):
    from sitegen.charts.frontier_chart import parallelism_labels
    from sitegen.records import load_site

    site, _ = load_site(flagship, use_cache=False)
    rows = list(range(site.table.rows))[::-1]  # any order, as a curve's points take them
    labels = parallelism_labels(site.table, rows)
    assert labels == [c.parallelism for c in site.table.at(rows)]
    assert any("disagg" in label for label in labels) and "TP8" in labels  # varied layouts


def test_a_making_stores_its_charts_as_one_pack_and_prune_keeps_what_is_used(tmp_path):
    """A maker's charts go into one pack (a file per chart was a file more per page); pruning
    drops unused entries, writing a mostly dead pack's live ones into a new pack."""
    folder = tmp_path / "c"
    datas = [_chart_data() for _ in range(4)]
    for i, data in enumerate(datas):
        data["model"] = f"Model {i}"
    cache = ChartCache(folder)
    svgs = [cache.get_or_draw("frontier", d, draw_frontier) for d in datas]
    assert cache.misses == 4 and not list(folder.glob("*"))  # nothing stored before flush
    cache.flush()
    assert len(list(folder.glob("*.pack"))) == 1 and len(chart_entries(folder)) == 4
    again = ChartCache(folder)
    assert [again.get_or_draw("frontier", d, draw_frontier) for d in datas] == svgs
    assert again.hits == 4
    keys = [chart_key("frontier", d) for d in datas]
    pruned = ChartCache(folder)
    pruned.keep(keys[:1])
    assert pruned.prune() == 3
    assert set(chart_entries(folder)) == {keys[0]}
    last = ChartCache(folder)
    assert last.get_or_draw("frontier", datas[0], draw_frontier) == svgs[0] and last.hits == 1


def test_a_pack_is_written_every_pack_entries_charts(tmp_path, monkeypatch):
    from sitegen.charts import cache as chart_cache

    monkeypatch.setattr(chart_cache, "PACK_ENTRIES", 2)
    cache = ChartCache(tmp_path / "c")
    for i in range(5):
        data = _chart_data()
        data["model"] = f"Model {i}"
        cache.get_or_draw("frontier", data, draw_frontier)
    assert len(list((tmp_path / "c").glob("*.pack"))) == 2  # the fifth waits for flush
    cache.flush()
    assert len(chart_entries(tmp_path / "c")) == 5


@given(
    st.lists(st.integers(1, 10_000), min_size=2, max_size=8, unique=True),
    st.lists(st.floats(min_value=0, max_value=1e6), min_size=8, max_size=8),
    st.booleans(),
)
def test_a_drawn_curve_has_the_value_the_ladder_reads(xs, ys, log):
    """At every cut of a drawn curve its value is frontier.value_at's to the last bit, and its
    slope is the value's derivative there."""
    from sitegen.charts.paths import _cuts_of, hermite_slope

    pts = tuple((float(x), y) for x, y in zip(sorted(xs), ys[: len(xs)], strict=True))
    cuts = _cuts_of(pts, pts[0][0], pts[-1][0], log)
    front = [frontier.Point(x, y) for x, y in pts]
    assert cuts.xs[0] == pts[0][0] and cuts.xs[-1] == pts[-1][0]
    assert list(cuts.values) == [frontier.value_at(front, x) for x in cuts.xs]
    tangents = frontier.monotone_tangents([x for x, _ in pts], [y for _, y in pts])
    for i in range(len(pts) - 1):
        piece = (pts[i][0], pts[i + 1][0], pts[i][1], pts[i + 1][1], tangents[i], tangents[i + 1])
        x, e = (piece[0] + piece[1]) / 2, (piece[1] - piece[0]) / 1000
        change = frontier.hermite_value(*piece, x + e) - frontier.hermite_value(*piece, x - e)
        assert hermite_slope(*piece, x) == pytest.approx(change / (2 * e), rel=1e-4, abs=1e-3)
