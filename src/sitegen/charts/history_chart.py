"""History: each engine x precision's throughput at the headline target over its run dates."""

from __future__ import annotations

import datetime as dt

from ..calc.tables import WorkloadSummary
from ..records import OUTPUT, Site
from ..render.display import per_gpu, rate, sentence, tokens
from .axes import date_ticks
from .frontier_chart import counting, curve_label, markers
from .series import series_attrs, strongest, styles, svg_legend
from .svg import (
    FONT,
    TEXT,
    Scale,
    axes,
    chart_id,
    marker,
    nice_ticks,
    num,
    svg_start,
    tick_label,
)
from .tips import point_with_tip, points_start, series_tip_css

WIDTH, HEIGHT = 760, 340
LEFT, RIGHT, BOTTOM = 72, 24, 52
RADIUS = 5.0
TIP_BOX = (WIDTH - RIGHT, HEIGHT - BOTTOM)  # a tip stays left of and above these


def history_rows(summary: WorkloadSummary) -> list[dict]:
    """Per curve with two or more run dates: each date's value and its change since the last."""
    rows = []
    for curve in summary.curves:
        if len(curve.history) < 2:
            continue
        entries, previous = [], None
        for h in curve.history:
            change = None
            if h.throughput_per_gpu is not None and previous:
                change = (h.throughput_per_gpu / previous - 1) * 100
            entries.append(
                {
                    "date": h.date.isoformat(),
                    "throughput_per_gpu": h.throughput_per_gpu,
                    "change_percent": change,
                    "runs": list(h.run_ids),
                }
            )
            previous = h.throughput_per_gpu if h.throughput_per_gpu is not None else previous
        rows.append({"engine": curve.engine, "precision": curve.precision, "entries": entries})
    return rows


def history_chart_data(
    site: Site, summary: WorkloadSummary, rows: list[dict], palette: list[int]
) -> dict:
    """The chart's input; `palette` is the frontier chart's strong curves, whose colours and
    markers this chart keeps. Drawn strongly here: the few curves with the most tokens/s per GPU
    at the target on their latest run date."""
    order = [(c.engine, c.precision) for c in summary.curves]
    latest = {
        order.index((r["engine"], r["precision"])): r["entries"][-1]["throughput_per_gpu"]
        for r in rows
    }
    ranked = sorted((i for i, v in latest.items() if v is not None), key=lambda i: -latest[i])
    data = {
        "model": site.models[summary.model].name,
        "gpu": site.gpus[summary.gpu].name,
        "workload": site.workloads[summary.workload].name,
        "target": site.config.headline_interactivity,
        "curves": [
            {
                "engine": r["engine"],
                "precision": r["precision"],
                "points": [[e["date"], e["throughput_per_gpu"]] for e in r["entries"]],
            }
            for r in rows
        ],
        "order": [list(o) for o in order],
        "palette": palette,
        "strong": strongest(ranked or sorted(latest)),
    }
    return counting(data, summary.tokens)


def series_index(data: dict, curve: dict) -> int:
    """A history curve's place among the frontier chart's curves (its series number)."""
    return [tuple(o) for o in data["order"]].index((curve["engine"], curve["precision"]))


def draw_history(data: dict) -> str:
    """The chart as an <svg> element. Every line comes first, then every marker, then each
    point's hit area (tips.py)."""
    chart = chart_id("hc", data)
    curves, counted = data["curves"], data.get("tokens")
    found = styles(len(data["order"]), data["strong"], data["palette"])
    labels = [curve_label({"engine": e, "precision": p}) for e, p in data["order"]]
    shown = {series_index(data, c) for c in curves}
    legend, legend_height = svg_legend(
        [(k, labels[k], found[k]) for k in sorted(shown)], LEFT, WIDTH - RIGHT, 18
    )
    top = 18 + legend_height + 8
    days = sorted({dt.date.fromisoformat(d).toordinal() for c in curves for d, _ in c["points"]})
    pad = max((days[-1] - days[0]) * 0.06, 1)
    x = Scale(days[0] - pad, days[-1] + pad, LEFT, WIDTH - RIGHT)
    values = [v for c in curves for _, v in c["points"] if v is not None]
    y_ticks = nice_ticks(max(values, default=1.0) * 1.08, 5)
    y = Scale(0, y_ticks[-1], HEIGHT - BOTTOM, top)
    target, unit = rate(data["target"]), per_gpu(data.get("tokens"))
    title = (
        f"{data['model']} on {data['gpu']}: {unit} at {target} tok/s per user, "
        f"by run date ({data['workload']})"
    )
    desc = "; ".join(
        f"{curve_label(c)}: "
        + ", ".join(f"{d} {tokens(v) if v is not None else 'not reached'}" for d, v in c["points"])
        for c in curves
    )
    out = svg_start(chart, "history-chart", (WIDTH, HEIGHT), title, desc + ".")
    ticks = date_ticks(x, 0, WIDTH)
    labels_at = dict(ticks)
    out += axes(x, y, [d for d, _ in ticks], y_ticks, lambda d: labels_at[d], tick_label)
    out.append(
        f'<g {FONT} font-size="12.5" fill="{TEXT}">'
        f'<text x="{num((LEFT + WIDTH - RIGHT) / 2)}" y="{HEIGHT - 10}" text-anchor="middle">'
        "Run date</text>"
        f'<text transform="translate(16,{num((top + HEIGHT - BOTTOM) / 2)}) rotate(-90)" '
        f'text-anchor="middle">{sentence(unit)} at {target} tok/s/user</text>'
    )
    out += legend
    out.append("</g>")
    ordered = sorted(curves, key=lambda c: found[series_index(data, c)].strong)
    shown_markers, points = [], []
    for c in ordered:
        k = series_index(data, c)
        style = found[k]
        out.append(f'<g class="series" {series_attrs(k, style)}>')
        segment: list[str] = []
        shapes = []
        for date, value in c["points"]:
            if value is None:  # not reached that day: the line breaks
                if len(segment) > 1:
                    out.append(_polyline(segment, style.colour))
                segment = []
                continue
            px, py = x(dt.date.fromisoformat(date).toordinal()), y(value)
            segment.append(f"{num(px)},{num(py)}")
            shape = marker(style.shape, px, py, RADIUS)
            shapes.append(shape)
            lines = [
                f"{curve_label(c)}, run of {date}",
                f"{tokens(value)} {'output ' if counted == OUTPUT else ''}tok/s per GPU",
            ]
            attrs = f'data-series="{k}" data-date="{date}" data-throughput-per-gpu="{value!r}"'
            points.append(point_with_tip(shape, attrs, lines))
        if len(segment) > 1:
            out.append(_polyline(segment, style.colour))
        out.append("</g>")
        shown_markers += markers(series_attrs(k, style), style.colour, [], shapes, "1")
    out += shown_markers  # over every line, as the points were
    out.append(points_start(TIP_BOX))
    out += points
    out.append("</g>")
    out.append(series_tip_css(chart, [style.colour for style in found]))
    out.append("</svg>")
    return "\n".join(out)


def _polyline(points: list[str], colour: str) -> str:
    return (
        f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
    )
