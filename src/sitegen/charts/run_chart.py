"""A run report's chart: the frontier chart of one sweep's ok configs (frontier_chart.py draws
its axes and curve), with lighter points than a model x GPU page's.

Each point is drawn twice: as a marker, and as a transparent hit area that takes the hover and
the keyboard focus, titled by its tip (tips.py; assets/charts.js draws the tip over every
point). The chart is drawn on each build, not cached: a signed cache
entry cost more to write than the chart to draw, and a report is made again mostly when its
run changed, and its chart with it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import NamedTuple

from ..calc import frontier
from ..calc.tables import throughput_column
from ..records import Site, SweepRun
from ..records.columnar import ConfigValues
from ..render.display import DASH, latency, rate, tokens
from .frontier_chart import (
    BOTTOM,
    HEIGHT,
    RADIUS,
    RIGHT,
    WIDTH,
    chart_data,
    curve_label,
    draw_plot,
    point_attrs,
    tip_lines,
)
from .svg import marker
from .tips import point_with_tip, points_start, shared_tip_css


class Figures(NamedTuple):
    """A config's figures as its report writes them (a dash for one it lacks)."""

    throughput_per_gpu: str
    interactivity: str
    ttft: str
    tpot: str


def config_figures(values: ConfigValues) -> tuple[Figures, ...]:
    """Each config's figures, in the run's order: the report's table and its chart's tips."""
    columns = values.columns
    figures = zip(
        columns["throughput_per_gpu"],
        values.interactivity,
        columns["ttft_ms"],
        columns["tpot_ms"],
        strict=True,
    )
    return tuple(
        Figures(
            tokens(throughput),
            DASH if tpot is None else rate(interactivity),
            DASH if ttft is None else latency(ttft),
            DASH if tpot is None else latency(tpot),
        )
        for throughput, interactivity, ttft, tpot in figures
    )


TIP_BOX = (WIDTH - RIGHT, HEIGHT - BOTTOM)


def run_chart_data(
    site: Site,
    run: SweepRun,
    values: ConfigValues | None = None,
    figures: Sequence[Figures] | None = None,
) -> dict | None:
    """The chart of one sweep on its own: its ok configs, its frontier, its value at the target.
    `values`, `figures`: the run's configs as values and their figures as its report writes
    them (config_figures), where the caller has them."""
    v = ConfigValues.of(run.configs) if values is None else values
    figures = config_figures(v) if figures is None else figures
    columns = v.columns
    status, throughput = columns["status"], columns[throughput_column(site.tokens(run.workload))]
    ttft, tpot, interactivity = columns["ttft_ms"], columns["tpot_ms"], v.interactivity
    ok = [
        i
        for i in range(len(v))
        if status[i] == "ok" and tpot[i] is not None and ttft[i] is not None
    ]
    if not ok:
        return None
    config = site.config
    front = frontier.pareto_frontier(frontier.Point(interactivity[i], throughput[i]) for i in ok)
    ordered = sorted(ok, key=lambda i: (interactivity[i], throughput[i]))
    head = frontier.value_at(front, config.headline_interactivity, config.frontier_method)
    reached = head is not None  # the headline as the pair page says it
    concurrency, gpus, labels = columns["concurrency"], columns["gpus"], v.parallelism
    curves = [
        {
            "engine": run.engine,
            "precision": run.precision,
            "frontier": [[p.interactivity, p.throughput_per_gpu] for p in front],
            "points": [
                {
                    "interactivity": interactivity[i],
                    "throughput_per_gpu": throughput[i],
                    "concurrency": concurrency[i],
                    "gpus": gpus[i],
                    "parallelism": labels[i],
                    "figures": figures[i],
                }
                for i in ordered
            ],
        }
    ]
    data = chart_data(
        site,
        run.model,
        run.gpu,
        run.workload,
        (head, run.engine if reached else None, run.precision if reached else None),
        curves,
        [0],
    )
    data["run"] = run.id
    return data


def run_chart_id(run_id: str) -> str:
    """The chart's element id: one chart a page, named by its run (a hash, as a run id may hold
    what a CSS selector cannot)."""
    return "rc-" + hashlib.sha256(run_id.encode()).hexdigest()[:10]


def draw_run(data: dict) -> str:
    """The chart of run_chart_data as an <svg> element for inline use in a page."""
    chart = run_chart_id(data["run"])
    plot = draw_plot(data, chart)
    ((curve,), (style,)) = data["curves"], plot.styles
    colour, points = style.colour, curve["points"]
    interactivity = [p["interactivity"] for p in points]
    throughput = [p["throughput_per_gpu"] for p in points]
    xs, ys = list(map(plot.x, interactivity)), list(map(plot.y, throughput))
    shapes = [marker(style.shape, x, y, RADIUS) for x, y in zip(xs, ys, strict=True)]
    on_frontier = {tuple(p) for p in curve["frontier"]}
    filled, hollow = [], []
    for shape, xy in zip(shapes, zip(interactivity, throughput, strict=True), strict=True):
        # points the frontier dominates are drawn hollow
        (filled if xy in on_frontier else hollow).append(shape)
    out = plot.out
    out.append(f'<g class="markers" stroke="{colour}" stroke-width="1.5">')
    for drawn, fill in ((hollow, "#fff"), (filled, colour)):  # the frontier's over the rest
        if drawn:
            out.append(f'<path d="{"".join(drawn)}" fill="{fill}"/>')
    out.append("</g>" + points_start(TIP_BOX))
    out += _hit_areas(curve_label(curve), points, shapes)
    out.append("</g>")
    out.append(shared_tip_css(chart, colour))
    out.append("</svg>")
    return "\n".join(out)


def _hit_areas(label: str, points: list[dict], shapes: list[str]) -> list[str]:
    """Each point's hit area titled by its tip (tips.point_with_tip, as the other charts write
    it)."""
    return [
        point_with_tip(shape, attrs, tip_lines(label, p, p["figures"]))
        for shape, attrs, p in zip(shapes, point_attrs(points), points, strict=True)
    ]


__all__ = ["draw_run", "run_chart_data", "run_chart_id"]
