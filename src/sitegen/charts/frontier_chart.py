"""The frontier chart: tokens/s per GPU against tokens/s per user, one line per engine x precision.

`frontier_chart_data` turns a workload summary into plain JSON-able data (the cache key);
`draw_frontier` turns that data into SVG and reads nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..calc.tables import WorkloadSummary
from ..records import OUTPUT, Site
from ..records.columnar import parallelism_labels
from ..render.display import (
    engine_name,
    latency,
    load,
    mbu_missing,
    per_gpu,
    per_gpu_short,
    precision_name,
    rate,
    tokens,
    utilisation,
)
from .axes import interactivity_axis
from .paths import curve_path
from .series import Style, series_attrs, styles, svg_legend
from .svg import (
    FONT,
    MUTED,
    TEXT,
    Scale,
    axes,
    chart_id,
    marker,
    nice_ticks,
    num,
    svg_start,
    text,
    tick_label,
)
from .tips import point_with_tip, points_start, series_tip_css

WIDTH, HEIGHT = 760, 430
LEFT, RIGHT, BOTTOM = 72, 24, 52
RADIUS = 5.0
TIP_BOX = (WIDTH - RIGHT, HEIGHT - BOTTOM)  # a tip's right and bottom edges
SINGLE_NODE_GPUS = 8  # the most GPUs of one node: a config on more spans several


def chart_data(
    site: Site,
    model: str,
    gpu: str,
    workload: str,
    headline: tuple[float | None, str | None, str | None],
    curves: list[dict],
    strong: list[int],
) -> dict:
    """The one shape of a chart's input, whichever page draws it. `strong`: the curves drawn
    strongly (those making up the envelope), the rest faint."""
    throughput, engine, precision = headline
    data = {
        "model": site.models[model].name,
        "gpu": site.gpus[gpu].name,
        "workload": site.workloads[workload].name,
        "method": site.config.frontier_method,
        "target": site.config.headline_interactivity,
        "headline": {"throughput_per_gpu": throughput, "engine": engine, "precision": precision},
        "curves": curves,
        "strong": strong,
    }
    return counting(data, site.tokens(workload))


def counting(data: dict, tokens_counted: str) -> dict:
    """A chart's `data`, marked `"tokens": "output"` where its throughputs count output tokens;
    a chart of total tokens (the default) keeps the data, and so the cache key, it had."""
    if tokens_counted == OUTPUT:
        data["tokens"] = OUTPUT
    return data


def frontier_chart_data(
    site: Site,
    summary: WorkloadSummary,
    strong: list[int],
    points: Sequence[list[dict]] | None = None,
) -> dict:
    """Everything the chart shows, as plain values: the chart is a function of this alone.
    `points`: each curve's points as its `points` reads them, where the caller has them."""
    head = summary.headline
    if points is None:
        points = [c.points for c in summary.curves]
    disagg = [site.table.values(c.point_rows, ("disagg",))["disagg"] for c in summary.curves]
    curves = [
        {
            "engine": c.engine,
            "precision": c.precision,
            "frontier": [[p.interactivity, p.throughput_per_gpu] for p in c.frontier],
            "points": [
                dict(
                    p,
                    parallelism=label,
                    date=date,
                    figures=point_figures(p),
                    nodes=node_class(p["gpus"], bool(split)),
                )
                for p, label, date, split in zip(
                    curve_points,
                    parallelism_labels(site.table, c.point_rows),
                    c.point_dates,
                    curve_disagg,
                    strict=True,
                )
            ],
        }
        for c, curve_points, curve_disagg in zip(summary.curves, points, disagg, strict=True)
    ]
    data = chart_data(
        site,
        summary.model,
        summary.gpu,
        summary.workload,
        (head.throughput_per_gpu, head.engine, head.precision),
        curves,
        strong,
    )
    limit = summary.limit
    data["limit"] = (
        {
            "gpus": limit.gpus,
            "curve": [list(point) for point in limit.curve],
            "at_target": limit.throughput_at(data["target"]),
        }
        if limit is not None
        else None
    )
    data["spreads"] = [
        [row.target, row.spread["min"], row.spread["max"], row.spread["n"]]
        for row in summary.ladder
        if row.spread is not None and row.throughput_per_gpu is not None
    ]
    return data


def node_class(gpus: int, disagg: bool) -> str:
    """What the chart's filter by GPU count calls a config: "disagg" (prefill and decode on
    GPUs of their own), else "single" (at most SINGLE_NODE_GPUS GPUs) or "multi"."""
    if disagg:
        return "disagg"
    return "single" if gpus <= SINGLE_NODE_GPUS else "multi"


def point_attrs(points: list[dict], prefix: str = "") -> list[str]:
    """Each point's hit area's data: its figures unrounded, after `prefix` (a series')."""
    return [
        f'{prefix}data-interactivity="{p["interactivity"]!r}" '
        f'data-throughput-per-gpu="{p["throughput_per_gpu"]!r}" '
        + (
            f'data-concurrency="{p["concurrency"]}"'
            if p["concurrency"] is not None
            else f'data-request-rate="{p.get("request_rate")!r}"'
        )
        for p in points
    ]


def curve_label(curve: dict) -> str:
    return f"{engine_name(curve['engine'])} {precision_name(curve['precision'])}"


def point_figures(p: dict) -> tuple[str, str, str, str]:
    """A point's tokens/s per GPU, tokens/s per user, TTFT and TPOT as text: what its tip says
    and the chart's points table shows, written once for both."""
    return (
        tokens(p["throughput_per_gpu"]),
        rate(p["interactivity"]),
        latency(p["ttft_ms"]),
        latency(p["tpot_ms"]),
    )


def tip_lines(
    label: str, p: dict, figures: Sequence[str] | None = None, tokens_counted: str | None = None
) -> list[str]:
    """What the tooltip of point `p` of the curve named `label` says. `figures`: its
    point_figures, where the caller has them; `tokens_counted`: the chart's "tokens"."""
    throughput, interactivity, ttft, tpot = point_figures(p) if figures is None else figures
    gpus = f"{p['gpus']} GPU{'s' if p['gpus'] != 1 else ''}"
    lines = [
        f"{label}, {load(p['concurrency'], p.get('request_rate'))}",
        # a config without parallelism fields is labelled by its GPUs alone ("8 GPUs")
        p["parallelism"] if p["parallelism"] == gpus else f"{p['parallelism']} on {gpus}",
        f"{interactivity} tok/s/user, {throughput} {per_gpu_short(tokens_counted)}",
        f"TTFT {ttft}, TPOT {tpot} (medians)",
    ]
    if "mbu" in p:  # a pair's points say how close to the bandwidth limit they are
        lines.append(
            f"MBU {utilisation(p['mbu'])}"
            if p["mbu"] is not None
            else f"no MBU ({mbu_missing(p.get('mbu_missing'))})"
        )
    return lines


def _describe(data: dict, log: bool) -> tuple[str, str]:
    unit = per_gpu(data.get("tokens"))
    points = sum(len(c["points"]) for c in data["curves"])
    title = (
        f"{data['model']} on {data['gpu']}: throughput per GPU against tokens/s per user "
        f"({data['workload']})"
    )
    head = data["headline"]
    strong = [data["curves"][i] for i in data["strong"]]
    faint = len(data["curves"]) - len(strong)
    desc = (
        f"{points} measured config{'s' if points != 1 else ''} in "
        f"{len(data['curves'])} engine and precision curve"
        f"{'s' if len(data['curves']) != 1 else ''}"
        + (f" ({len(strong)} drawn strongly, {faint} faint)" if faint else "")
        + ": "
        + "; ".join(
            f"{curve_label(c)} from {tokens(c['frontier'][0][1])} {unit} at "
            f"{rate(c['frontier'][0][0])} tok/s per user to {tokens(c['frontier'][-1][1])} at "
            f"{rate(c['frontier'][-1][0])}"
            for c in data["curves"]
        )
        + ". "
    )
    if log:
        desc += "Tokens/s per user is on a log scale. "
    if data.get("limit"):
        gpus = data["limit"]["gpus"]
        desc += (
            "A dash-dot line marks the memory-bandwidth limit of one model instance on "
            f"{gpus} GPU{'s' if gpus != 1 else ''} (an estimate). "
        )
    if head["throughput_per_gpu"] is not None:
        desc += (
            f"At the {rate(data['target'])} tok/s per user target: "
            f"{tokens(head['throughput_per_gpu'])} {unit} "
            f"({engine_name(head['engine'])} {precision_name(head['precision'])})."
        )
    else:
        desc += f"No config reaches the {rate(data['target'])} tok/s per user target."
    return title, desc


def y_title(tokens_counted: str | None) -> str:
    """The y axis's title: what its throughput counts."""
    return (
        "Output tokens/s per GPU"
        if tokens_counted == OUTPUT
        else "Tokens/s per GPU (input + output)"
    )


def axis_titles(x_title: str, y_title: str, top: float) -> list[str]:
    return [
        f'<text x="{num((LEFT + WIDTH - RIGHT) / 2)}" y="{HEIGHT - 10}" text-anchor="middle">'
        f"{text(x_title)}</text>",
        f'<text transform="translate(16,{num((top + HEIGHT - BOTTOM) / 2)}) rotate(-90)" '
        f'text-anchor="middle">{text(y_title)}</text>',
    ]


def x_title(log: bool) -> str:
    return "Tokens/s per user (1000 / median TPOT" + (", log scale)" if log else ")")


def target_line(target: float, x: Scale, top: float) -> str:
    """The headline target: a dashed line across the plot, labelled."""
    tx = x(target)
    return (
        f'<line x1="{num(tx)}" x2="{num(tx)}" y1="{num(top)}" y2="{num(HEIGHT - BOTTOM)}" '
        f'stroke="{MUTED}" stroke-dasharray="5 4"/>'
        f'<text x="{num(tx + 6)}" y="{num(top + 12)}">target {rate(target)} tok/s/user</text>'
    )


def x_values(data: dict) -> list[float]:
    """What the x axis must hold: every point and the target."""
    return [p["interactivity"] for c in data["curves"] for p in c["points"]] + [data["target"]]


@dataclass(frozen=True)
class Plot:
    """A frontier chart drawn up to its points: its SVG so far, its scales and series."""

    out: list[str]
    x: Scale
    y: Scale
    styles: list[Style]
    order: list[int]  # the curves as drawn: faint ones first, the strong ones over them


def draw_plot(data: dict, chart: str) -> Plot:
    """The chart with element id `chart` up to its points: axes, titles, legend, target,
    headline and each curve's line."""
    curves = data["curves"]
    found = styles(len(curves), data["strong"])
    legend, legend_height = svg_legend(
        [(i, curve_label(c), found[i]) for i, c in enumerate(curves)], LEFT, WIDTH - RIGHT, 18
    )
    top = 18 + legend_height + 8
    all_points = [p for c in curves for p in c["points"]]
    x_axis = interactivity_axis(x_values(data), LEFT, WIDTH - RIGHT)
    x = x_axis.scale
    y_ticks = nice_ticks(max(p["throughput_per_gpu"] for p in all_points) * 1.05, 5)
    y = Scale(0, y_ticks[-1], HEIGHT - BOTTOM, top)
    title, desc = _describe(data, x_axis.log)
    scale = "log" if x_axis.log else "linear"
    out = svg_start(
        chart, "frontier-chart", (WIDTH, HEIGHT), title, desc, f' data-x-scale="{scale}"'
    )
    out += axes(x, y, x_axis.ticks, y_ticks, tick_label, tick_label)
    out.append(f'<g {FONT} font-size="12.5" fill="{TEXT}">')
    out += axis_titles(x_title(x_axis.log), y_title(data.get("tokens")), top)
    out += legend
    out.append("</g>")
    out.append(f'<g class="target" {FONT} font-size="12" fill="{MUTED}">')
    out.append(target_line(data["target"], x, top))
    head = data["headline"]["throughput_per_gpu"]
    if head is not None:
        tx = x(data["target"])
        out.append(
            f'<circle class="headline" cx="{num(tx)}" cy="{num(y(head))}" r="8" fill="none" '
            f'stroke="{TEXT}" stroke-width="1.5"/>'
            f'<text x="{num(tx + 12)}" y="{num(y(head) - 10)}" fill="{TEXT}" '
            f'font-weight="600">{tokens(head)}</text>'
        )
    out.append("</g>")
    # faint series first, so that the strong ones are drawn over them
    order = sorted(range(len(curves)), key=lambda i: found[i].strong)
    for i in order:
        curve, style = curves[i], found[i]
        # below its slowest point a curve is read as its peak (docs/data.md): a dotted run-in
        peak_x, peak_y = curve["frontier"][0]
        out.append(
            f'<g class="series" {series_attrs(i, style)}>'
            f'<path class="run-in" d="M{num(x.p0)},{num(y(peak_y))}H{num(x(peak_x))}" '
            f'stroke="{style.colour}" stroke-width="1.5" stroke-dasharray="2 4"/>'
        )
        if path := curve_path(curve["frontier"], data["method"], x, y):
            width = "2.5" if style.strong else "1.5"
            out.append(
                f'<path class="curve" d="{path}" fill="none" stroke="{style.colour}" '
                f'stroke-width="{width}"/>'
            )
        out.append("</g>")
    return Plot(out, x, y, found, order)


def limit_line(
    limit: dict, target: float, chart: str, x: Scale, y: Scale, tokens_counted: str | None
) -> list[str]:
    """The bandwidth limit as a dashed line, clipped to the plot, labelled where it enters;
    where it passes above the whole plot, an arrow at the target says what it is there."""
    area = f"{chart}-plot"
    left, right = min(x.p0, x.p1), max(x.p0, x.p1)
    top, bottom = min(y.p0, y.p1), max(y.p0, y.p1)
    xs = x.pixels([u for u, _ in limit["curve"]])
    ys = y.pixels([v for _, v in limit["curve"]])
    path = "M" + "L".join(f"{num(px)},{num(py)}" for px, py in zip(xs, ys, strict=True))
    inside = [(px, py) for px, py in zip(xs, ys, strict=True) if py >= top and px <= right]
    gpus = limit["gpus"]
    words = f"bandwidth limit, {gpus} GPU{'s' if gpus != 1 else ''}"
    out = [
        f'<clipPath id="{area}"><rect x="{num(left)}" y="{num(top)}" '
        f'width="{num(right - left)}" height="{num(bottom - top)}"/></clipPath>',
        f'<g class="limit" {FONT} font-size="12" fill="{MUTED}">',
        f"<title>{text(words)}: the most {per_gpu(tokens_counted)} at each speed per user that the "
        "GPUs' memory bandwidth allows one model instance (an estimate)</title>",
        f'<path d="{path}" fill="none" stroke="{TEXT}" stroke-width="1.5" '
        f'stroke-dasharray="8 3 2 3" clip-path="url(#{area})"/>',
    ]
    if inside:
        px, py = inside[0]
        out.append(
            f'<text x="{num(min(px + 6, right - 150))}" y="{num(max(py, top) + 14)}">'
            f"{text(words)}</text>"
        )
    elif limit.get("at_target") is not None:  # all of it above the plot: say where it is
        tx = x(target)
        label = f"{words}: {tokens(limit['at_target'])} (off the scale)"
        # on the target's right where it fits (about 6.2 px a character at 12 px), else ending
        # at the plot's right edge
        fits = tx + 8 + len(label) * 6.2 <= right
        anchor = "" if fits else ' text-anchor="end"'
        out.append(
            f'<path d="M{num(tx)},{num(top + 28)}v-10m-4,4l4,-4l4,4" fill="none" '
            f'stroke="{TEXT}" stroke-width="1.5"/>'
            f'<text x="{num(tx + 8 if fits else right)}" y="{num(top + (30 if fits else 46))}"'
            f"{anchor}>{text(label)}</text>"
        )
    out.append("</g>")
    return out


def spread_bars(spreads: list, x: Scale, y: Scale, tokens_counted: str | None) -> list[str]:
    """At each rung where the winning curve was run more than once: its lowest and highest
    value on one run, as an error bar."""
    out = [f'<g class="spread" stroke="{TEXT}" stroke-width="1.5">']
    for target, low, high, runs in spreads:
        px, y0, y1 = x(target), y(low), y(high)
        out.append(
            f'<path d="M{num(px)},{num(y0)}V{num(y1)}M{num(px - 4)},{num(y0)}h8'
            f'M{num(px - 4)},{num(y1)}h8"><title>{text(rate(target))} tok/s per user: '
            f"{text(tokens(low))} to {text(tokens(high))} {per_gpu(tokens_counted)} "
            f"over {runs} runs"
            "</title></path>"
        )
    out.append("</g>")
    return out


def draw_frontier(data: dict) -> str:
    """The chart as an <svg> element for inline use in a page. Each series' markers come
    first, then each point's hit area (tips.py). Markers and hit areas carry their config's
    node class (`data-nodes`, node_class) for the filter by GPU count of assets/charts.js.
    Under the markers: the bandwidth limit and the spread of repeated runs at the rungs."""
    chart = chart_id("fc", data)
    plot = draw_plot(data, chart)
    out, x, y, curves = plot.out, plot.x, plot.y, data["curves"]
    counted = data.get("tokens")
    if data.get("limit"):
        out += limit_line(data["limit"], data["target"], chart, x, y, counted)
    if data.get("spreads"):
        out += spread_bars(data["spreads"], x, y, counted)
    points = []
    for i in plot.order:
        curve, style = curves[i], plot.styles[i]
        on_frontier = {tuple(p) for p in curve["frontier"]}
        radius = RADIUS if style.strong else RADIUS * 0.8
        label, series = curve_label(curve), f'data-series="{i}"'
        drawn = curve["points"]
        xy = [(p["interactivity"], p["throughput_per_gpu"]) for p in drawn]
        pxs, pys = x.pixels([a for a, _ in xy]), y.pixels([b for _, b in xy])
        shapes = [marker(style.shape, px, py, radius) for px, py in zip(pxs, pys, strict=True)]
        nodes = [p.get("nodes", "single") for p in drawn]
        filled: dict[str, list[str]] = {}
        hollow: dict[str, list[str]] = {}
        for shape, at, kind in zip(shapes, xy, nodes, strict=True):
            # points the frontier dominates are drawn hollow
            (filled if at in on_frontier else hollow).setdefault(kind, []).append(shape)
        attrs = point_attrs(drawn, series + " ")
        points += [
            point_with_tip(
                shape, f'{a} data-nodes="{kind}"', tip_lines(label, p, p.get("figures"), counted)
            )
            for shape, a, kind, p in zip(shapes, attrs, nodes, drawn, strict=True)
        ]
        out += node_markers(series_attrs(i, style), style.colour, hollow, filled)
    out.append(points_start(TIP_BOX))
    out += points
    out.append("</g>")
    out.append(series_tip_css(chart, [style.colour for style in plot.styles]))
    out.append("</svg>")
    return "\n".join(out)


def node_markers(
    attrs: str, colour: str, hollow: dict[str, list[str]], filled: dict[str, list[str]]
) -> list[str]:
    """markers() of a frontier chart's series, one path per node class and fill, each with its
    class (`data-nodes`), the hollow ones under the filled ones."""
    paths = "".join(
        f'<path d="{"".join(shapes[kind])}" fill="{fill}" data-nodes="{kind}"/>'
        for shapes, fill in ((hollow, "#fff"), (filled, colour))
        for kind in sorted(shapes)
    )
    stroke = f'stroke="{colour}" stroke-width="1.5"'
    return [f'<g class="markers" {attrs} {stroke}>{paths}</g>'] if paths else []


def markers(
    attrs: str, colour: str, hollow: list[str], filled: list[str], stroke_width: str = "1.5"
) -> list[str]:
    """A series' markers (paths of marker()) as one group, the hollow ones under the filled
    ones; none for a series without points."""
    paths = "".join(
        f'<path d="{"".join(shapes)}" fill="{fill}"/>'
        for shapes, fill in ((hollow, "#fff"), (filled, colour))
        if shapes
    )
    stroke = f'stroke="{colour}" stroke-width="{stroke_width}"'
    return [f'<g class="markers" {attrs} {stroke}>{paths}</g>'] if paths else []


__all__ = [
    "Plot",
    "chart_data",
    "draw_plot",
    "tip_lines",
    "curve_label",
    "draw_frontier",
    "markers",
    "node_class",
    "frontier_chart_data",
    "axis_titles",
    "target_line",
    "x_title",
    "x_values",
]
