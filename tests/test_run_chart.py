"""A run report's chart: its points are data.json's ok configs, each titled by its tip, which
assets/charts.js draws over every marker on hover and keyboard focus; never cached."""

from __future__ import annotations

import json
import math
import re
import struct
import xml.etree.ElementTree as ET
import zlib

import pytest

from sitegen.calc import frontier
from sitegen.charts import Chart, ChartCache, draw_charts, run_chart_data, tips
from sitegen.charts import svg as svg_parts
from sitegen.charts.frontier_chart import RADIUS, curve_label, draw_plot, tip_lines
from sitegen.charts.run_chart import TIP_BOX, draw_run, run_chart_id
from sitegen.records import SweepRun, load_site
from sitegen.render.display import load

SVG = "{http://www.w3.org/2000/svg}"
START = re.compile(r"M(-?[\d.]+),(-?[\d.]+)")
TRANSLATE = re.compile(r"translate\((-?[\d.]+),(-?[\d.]+)\)")


def _chart(html: str) -> ET.Element | None:
    found = re.search(
        r'<svg id="rc-[0-9a-f]{10}" class="chart frontier-chart".*?</svg>', html, re.S
    )
    return ET.fromstring(found.group(0)) if found else None


def _charted(files: dict[str, bytes]) -> dict[str, ET.Element]:
    """Each run report's chart by the report's folder."""
    out = {}
    for path, body in files.items():
        if re.fullmatch(r"runs/[^/]+/index\.html", path):
            svg = _chart(body.decode())
            if svg is not None:
                out[path.removesuffix("index.html")] = svg
    return out


@pytest.fixture(scope="module")
def charts(flagship_files) -> dict[str, ET.Element]:
    found = _charted(flagship_files[1])
    assert len(found) > 100
    return found


def _points(svg: ET.Element) -> list[dict]:
    """Each point's hit area (in the points group), in order."""
    (group,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "points"]
    out = []
    for el in group:
        assert el.tag == f"{SVG}path" and el.get("class") == "pt"
        cx, cy = (float(v) for v in START.match(el.get("d")).groups())
        out.append(
            {
                "interactivity": float(el.get("data-interactivity")),
                "throughput_per_gpu": float(el.get("data-throughput-per-gpu")),
                # an open-loop point has its request rate instead
                "concurrency": int(c) if (c := el.get("data-concurrency")) else None,
                "request_rate": float(r) if (r := el.get("data-request-rate")) else None,
                "cx": cx,
                "cy": cy,
                "tabindex": el.get("tabindex"),
                "title": el.find(f"{SVG}title").text,
            }
        )
    return out


def _markers(svg: ET.Element) -> dict[str, set[tuple[float, float]]]:
    """Marker centres by fill: one path for the frontier's points, one for the rest."""
    (group,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "markers"]
    return {
        path.get("fill"): {(float(x), float(y)) for x, y in START.findall(path.get("d"))}
        for path in group
    }


def _fit(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    (v0, p0), (v1, p1) = min(pairs), max(pairs)
    a = (p1 - p0) / (v1 - v0)
    return a, p0 - a * v0


def test_every_point_is_an_ok_config_of_data_json_where_it_belongs(flagship_files, charts):
    _, files = flagship_files
    for route, svg in charts.items():
        data = json.loads(files[route + "data.json"])
        ok = [
            c
            for c in data["configs"]
            if c["status"] == "ok" and c["tpot_ms"] is not None and c["ttft_ms"] is not None
        ]
        points = _points(svg)
        # the chart counts what the run's workload counts, as its pair's data.json says
        pair = json.loads(files[f"models/{data['model']}/{data['gpu']}/data.json"])
        counted = pair["workloads"][data["workload"]]["tokens"]
        figure = "output_throughput_per_gpu" if counted == "output" else "throughput_per_gpu"
        ok = [dict(c, throughput_per_gpu=c[figure]) for c in ok]
        got = sorted(
            (p["interactivity"], p["throughput_per_gpu"], p["concurrency"], p["request_rate"])
            for p in points
        )
        expected = sorted(
            (c["interactivity"], c["throughput_per_gpu"], c["concurrency"], c["request_rate"])
            for c in ok
        )
        assert got == expected, route
        fx = math.log if svg.get("data-x-scale") == "log" else (lambda v: v)
        if len({p["interactivity"] for p in points}) > 1 < len({p["cy"] for p in points}):
            ax, bx = _fit([(fx(p["interactivity"]), p["cx"]) for p in points])
            ay, by = _fit([(p["throughput_per_gpu"], p["cy"]) for p in points])
            for p in points:
                assert p["cx"] == pytest.approx(ax * fx(p["interactivity"]) + bx, abs=0.15)
                assert p["cy"] == pytest.approx(ay * p["throughput_per_gpu"] + by, abs=0.15)
        # the frontier's points filled in the curve's colour, the points it beats hollow
        front = {
            (q.interactivity, q.throughput_per_gpu)
            for q in frontier.pareto_frontier(
                frontier.Point(c["interactivity"], c["throughput_per_gpu"]) for c in ok
            )
        }
        markers = _markers(svg)
        hollow = markers.pop("#fff", set())
        (filled,) = markers.values()
        at = {(p["interactivity"], p["throughput_per_gpu"]): (p["cx"], p["cy"]) for p in points}
        assert filled == {at[xy] for xy in front}, route
        assert hollow == {at[xy] for xy in at if xy not in front}, route


def test_each_point_takes_focus_and_says_its_tip(charts):
    for route, svg in charts.items():
        for p in _points(svg):
            assert p["tabindex"] == "0"
            lines = p["title"].split("; ")
            assert len(lines) == 4, route
            assert load(p["concurrency"], p["request_rate"]) in lines[0]
            assert lines[3].startswith("TTFT ") and ", TPOT " in lines[3]
        # the tip stays inside the plot: its right and bottom edges, for assets/charts.js
        (group,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "points"]
        assert group.get("data-tip-box") == f"{TIP_BOX[0]} {TIP_BOX[1]}"
        assert not [g for g in svg.iter(f"{SVG}g") if g.get("class") == "tip"]


def test_the_tips_are_one_rule_set_for_every_point(charts):
    """No rule names a point: the chart's style is the same, but for its id and colour,
    whatever its points."""
    styles = set()
    for svg in charts.values():
        (style,) = svg.iter(f"{SVG}style")
        styles.add(re.sub(r"#rc-[0-9a-f]{10}|#[0-9a-f]{6}\b", "#", style.text))
    assert len(styles) == 1
    (style,) = styles
    assert "# .tip rect{" in style and "# .pt:focus{" in style
    assert not re.search(r"\.[pt]\d", style)


def test_the_tips_come_after_every_marker(charts):
    for svg in charts.values():
        classes = [el.get("class") for el in svg if el.tag == f"{SVG}g"]
        assert classes.index("markers") < classes.index("points") == len(classes) - 1


def test_a_run_chart_is_drawn_without_the_cache(flagship, tmp_path):
    site, _ = load_site(flagship)
    run = next(r for r in site.runs if isinstance(r, SweepRun))
    chart = Chart("run", run_chart_data(site, run))
    cache = ChartCache(tmp_path / "charts")
    draw_charts([chart], cache)
    assert chart.svg.startswith('<svg id="rc-') and chart.key == ""
    assert (cache.hits, cache.misses) == (0, 0) and not (tmp_path / "charts").exists()


def _hostile(data: dict) -> dict:
    """The chart's data with markup in its engine (so its label) and parallelism labels."""
    (curve,) = data["curves"]
    curve["engine"] = "<b>x&y"
    for i, p in enumerate(curve["points"]):
        p["parallelism"] = f"TP<{i}> & 'q'"
    return data


@pytest.mark.parametrize("hostile", [False, True])
def test_each_point_is_its_marker_and_svg_tip_markup(flagship, hostile):
    """A hit area is the point's marker path and its data, titled by its tip's lines; markup in
    an engine or parallelism label stays text."""
    site, _ = load_site(flagship)
    run = next(r for r in site.runs if isinstance(r, SweepRun))
    data = run_chart_data(site, run)
    if hostile:
        data = _hostile(data)
    drawn = draw_run(data)
    plot = draw_plot(data, run_chart_id(run.id))
    ((curve,), (style,)) = data["curves"], plot.styles
    label = curve_label(curve)
    expected = []
    for p in curve["points"]:
        px, py = plot.x(p["interactivity"]), plot.y(p["throughput_per_gpu"])
        lines = tip_lines(label, p, p["figures"], data.get("tokens"))
        attrs = (
            f'data-concurrency="{p["concurrency"]}"'
            if p["concurrency"] is not None
            else f'data-request-rate="{p["request_rate"]!r}"'
        )
        expected.append(
            f'<path class="pt" tabindex="0" d="{svg_parts.marker(style.shape, px, py, RADIUS)}" '
            f'data-interactivity="{p["interactivity"]!r}" '
            f'data-throughput-per-gpu="{p["throughput_per_gpu"]!r}" '
            f"{attrs}><title>{svg_parts.text('; '.join(lines))}"
            f"</title></path>"
        )
    points = drawn.split(tips.points_start(TIP_BOX) + "\n", 1)[1].split("\n</g>")[0]
    assert points.split("\n") == expected
    for point in _points(ET.fromstring(drawn)):  # markup read back as text
        said = point["title"].split("; ")
        assert said[0] == f"{label}, {load(point['concurrency'], point['request_rate'])}"
        assert said[1].startswith("TP<") == hostile
    if hostile:
        assert "<b>" not in drawn and "&lt;b&gt;x&amp;y" in drawn


# -- in a browser ------------------------------------------------------------------------


def _pixel(png: bytes) -> tuple[int, int, int]:
    """The colour of a one-pixel PNG (its only row: every filter leaves the bytes as they are)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            idat += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    return raw[1], raw[2], raw[3]


def _tip_boxes(page) -> list[list[float]]:
    """The tip assets/charts.js draws for each point of the page's chart, hovered in turn: its
    left, top, width and height in the chart's units."""
    return page.evaluate(
        """() => {
        const svg = document.querySelector("svg.frontier-chart");
        return [...svg.querySelectorAll(".pt")].map((pt) => {
          pt.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
          const tip = svg.querySelector("g.tip"), r = tip.querySelector("rect");
          const m = tip.transform.baseVal.consolidate().matrix;
          pt.dispatchEvent(new MouseEvent("mouseout", {bubbles: true}));
          return [m.e, m.f, +r.getAttribute("width"), +r.getAttribute("height")];
        });
      }"""
    )


def _covered(svg: ET.Element, boxes: list[list[float]]) -> tuple[int, tuple[float, float]] | None:
    """A point whose tip covers another point's filled marker, and that marker's centre."""
    points = _points(svg)
    filled = [m for fill, ms in _markers(svg).items() if fill != "#fff" for m in ms]
    for i, (p, (tx, ty, w, h)) in enumerate(zip(points, boxes, strict=True)):
        for cx, cy in filled:
            if (
                (cx, cy) != (p["cx"], p["cy"])
                and tx + 8 < cx < tx + w - 8
                and ty + 8 < cy < ty + h - 8
            ):
                return i, (cx, cy)
    return None


ASSETS = ("assets/charts.js", "assets/style.css", "assets/look.css", "assets/theme.js")


def test_a_tip_shows_on_hover_and_focus_over_every_marker(
    flagship_files, charts, tmp_path, browser
):
    """assets/charts.js draws the hovered or focused point's tip, its title's lines, over
    every marker; without the script the title is the browser's own tooltip."""
    _, files = flagship_files
    for name in ASSETS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(files[name])
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    for route, svg in sorted(charts.items())[:40]:
        (tmp_path / route).mkdir(parents=True, exist_ok=True)
        (tmp_path / route / "index.html").write_bytes(files[route + "index.html"])
        page.goto((tmp_path / route / "index.html").as_uri())
        if found := _covered(svg, _tip_boxes(page)):
            break
    else:
        raise AssertionError("no tip covers a marker in the first 40 run charts")
    index, centre = found
    chart = page.locator("svg.frontier-chart")
    points, tip = chart.locator(".pt"), chart.locator(".tip")
    assert not tip.is_visible()
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    unit = box["width"] / float(chart.get_attribute("width"))  # pixels per unit of the chart
    x, y = box["x"] + centre[0] * unit, box["y"] + centre[1] * unit
    clip = {"x": round(x), "y": round(y), "width": 1, "height": 1}
    blue = _pixel(page.screenshot(clip=clip))
    assert blue[2] > blue[0] + 60  # the marker's own colour
    points.nth(index).hover()
    assert tip.count() == 1 and tip.is_visible()
    title = _points(svg)[index]["title"]
    assert tip.locator("tspan").all_text_contents() == title.split("; ")
    over = _pixel(page.screenshot(clip=clip))
    assert over[2] < over[0] + 30, "the tip is drawn under a later marker"
    page.mouse.move(0, 0)
    assert not tip.is_visible()
    points.nth(0).focus()
    page.keyboard.press("Tab")  # to the next point, by keyboard
    assert tip.is_visible()
    second = _points(svg)[1]["title"]
    assert tip.locator("tspan").all_text_contents() == second.split("; ")
    context.close()
