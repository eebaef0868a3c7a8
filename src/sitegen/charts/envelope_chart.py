"""Envelopes of several GPUs on one chart: each GPU's best tokens/s per GPU at every tokens/s per
user, labelled with the engine and precision that give it (the model and comparison pages).

`envelope_chart_data` turns envelopes into plain JSON-able data (the cache key);
`draw_envelopes` turns that data into SVG and reads nothing else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from .. import frontier
from ..display import rate, tokens
from ..envelope import Envelope
from .axes import interactivity_axis
from .frontier_chart import (
    BOTTOM,
    HEIGHT,
    LEFT,
    RIGHT,
    TIP_BOX,
    WIDTH,
    axis_titles,
    curve_label,
    markers,
    target_line,
    x_title,
)
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
from .tips import point_with_tip, series_tip_css

RADIUS = 4.5
LABEL_CHAR_PX = 6.4  # 11 px labels
MIN_LABELLED_PX = 36  # a stretch narrower than this carries no label (its tips still say it)


def envelope_chart_data(
    model: str,
    workload: str,
    method: str,
    target: float,
    series: Sequence[tuple[str, Envelope, float | None]],
    strong: Sequence[int],
) -> dict:
    """The chart's input: per series (a GPU) its label, its winning curves and where each wins,
    and its value at the target."""
    out = []
    for label, env, headline in series:
        used = sorted({s.curve for s in env.stretches})
        curves = [env.curves[i] for i in used]
        out.append(
            {
                "label": label,
                "curves": [
                    {
                        "engine": c.engine,
                        "precision": c.precision,
                        "frontier": [[p.interactivity, p.throughput_per_gpu] for p in c.frontier],
                    }
                    for c in curves
                ],
                "stretches": [[used.index(s.curve), s.start, s.end] for s in env.stretches],
                "headline": headline,
            }
        )
    return {
        "model": model,
        "workload": workload,
        "method": method,
        "target": target,
        "series": out,
        "strong": list(strong),
    }


def _value(curve: dict, x: float, method: str) -> float:
    value = _reader(tuple(map(tuple, curve["frontier"])), method)(x)
    assert value is not None, "a stretch lies where its curve has a value"
    return value


@functools.lru_cache(maxsize=256)  # a chart reads each of its curves a dozen times
def _reader(
    points: tuple[tuple[float, float], ...], method: str
) -> Callable[[float], float | None]:
    """frontier.value_at of one curve, its tangents computed once (the same numbers)."""
    return frontier.reader([frontier.Point(px, py) for px, py in points], method)


def _measured(series: dict) -> list[tuple[dict, float, float]]:
    """The measured points the envelope passes through: (curve, x, y), x ascending."""
    out = []
    for ci, start, end in series["stretches"]:
        curve = series["curves"][ci]
        out += [(curve, px, py) for px, py in curve["frontier"] if start <= px <= end]
    return out


def _line(series: dict, method: str, x: Scale, y: Scale) -> tuple[str, str]:
    """The envelope, stretch after stretch: the measured range of each curve as a solid path,
    and dotted what is read rather than measured (a curve's peak below its slowest point, the
    drop where a curve ends, the run-in from the plot's left edge)."""
    solid, dotted = [], []
    ci, start, _ = series["stretches"][0]
    dotted.append(
        f"M{num(x.p0)},{num(y(_value(series['curves'][ci], start, method)))}H{num(x(start))}"
    )
    previous = None
    for ci, start, end in series["stretches"]:
        curve = series["curves"][ci]
        first_x = curve["frontier"][0][0]
        begin = y(_value(curve, start, method))
        if previous is not None and abs(previous - begin) > 0.05:
            dotted.append(f"M{num(x(start))},{num(previous)}V{num(begin)}")
        if start < first_x:  # this stretch starts on the curve's run-in: flat at its peak
            dotted.append(f"M{num(x(start))},{num(begin)}H{num(x(min(first_x, end)))}")
        solid.append(curve_path(curve["frontier"], method, x, y, start, end))
        previous = y(_value(curve, end, method))
    return "".join(solid), "".join(dotted)


def _boxes_clash(box: tuple[float, ...], taken: list[tuple[float, ...]]) -> bool:
    x0, y0, x1, y1 = box
    return any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in taken)


def _stretch_labels(
    data: dict, found: Sequence[Style], x: Scale, y: Scale, top: float
) -> list[str]:
    """Each strong series' engine and precision written above (or below) the middle of each
    stretch where it wins, where the words fit without covering another label."""
    out: list[str] = []
    taken: list[tuple[float, ...]] = []
    for i in data["strong"]:
        series = data["series"][i]
        for ci, start, end in series["stretches"]:
            if x(end) - x(start) < MIN_LABELLED_PX:
                continue
            curve = series["curves"][ci]
            label = curve_label(curve)
            width = LABEL_CHAR_PX * len(label)
            px = (x(start) + x(end)) / 2
            mid = x.invert(px)
            py = y(_value(curve, mid, data["method"]))
            for dy in (-9, 17, -23):
                box = (px - width / 2, py + dy - 10, px + width / 2, py + dy + 2)
                inside = box[0] >= x.p0 and box[2] <= x.p1 and box[1] >= top
                if inside and box[3] <= y.p0 and not _boxes_clash(box, taken):
                    taken.append(box)
                    out.append(
                        f'<text class="stretch-label" {series_attrs(i, found[i])} '
                        f'x="{num(px)}" y="{num(py + dy)}" text-anchor="middle" '
                        f'fill="{found[i].colour}">{text(label)}</text>'
                    )
                    break
    return out


def _describe(data: dict, log: bool) -> tuple[str, str]:
    title = (
        f"{data['model']}: each GPU's best throughput per GPU against tokens/s per user "
        f"({data['workload']})"
    )
    parts = []
    for s in data["series"]:
        winners = ", ".join(
            f"{curve_label(s['curves'][ci])} from {rate(start)} to {rate(end)} tok/s per user"
            for ci, start, end in s["stretches"]
        )
        head = s["headline"]
        at = (
            f"{tokens(head)} tokens/s per GPU at {rate(data['target'])} tok/s per user"
            if head is not None
            else f"does not reach {rate(data['target'])} tok/s per user"
        )
        parts.append(f"{s['label']}: {at}; best {winners}")
    desc = "; ".join(parts) + "."
    if log:
        desc += " Tokens/s per user is on a log scale."
    return title, desc


def x_values(data: dict) -> list[float]:
    """What the x axis must hold: where each envelope starts, its measured points, the target."""
    xs = [px for s in data["series"] for _, px, _ in _measured(s)]
    return xs + [s["stretches"][0][1] for s in data["series"]] + [data["target"]]


def draw_envelopes(data: dict) -> str:
    """The chart as an <svg> element for inline use in a page."""
    chart = chart_id("ec", data)
    all_series = data["series"]
    found = styles(len(all_series), data["strong"])
    legend, legend_height = svg_legend(
        [(i, s["label"], found[i]) for i, s in enumerate(all_series)], LEFT, WIDTH - RIGHT, 18
    )
    top = 18 + legend_height + 8
    x_axis = interactivity_axis(x_values(data), LEFT, WIDTH - RIGHT)
    x = x_axis.scale
    # every curve falls from left to right, and so does an envelope: its top is where it starts
    peaks = [
        _value(s["curves"][s["stretches"][0][0]], s["stretches"][0][1], data["method"])
        for s in all_series
    ]
    y_ticks = nice_ticks(max(peaks) * 1.05)
    y = Scale(0, y_ticks[-1], HEIGHT - BOTTOM, top)
    title, desc = _describe(data, x_axis.log)
    scale = "log" if x_axis.log else "linear"
    out = svg_start(
        chart, "envelope-chart", (WIDTH, HEIGHT), title, desc, f' data-x-scale="{scale}"'
    )
    out += axes(x, y, x_axis.ticks, y_ticks, tick_label, tick_label)
    out.append(f'<g {FONT} font-size="12.5" fill="{TEXT}">')
    out += axis_titles(x_title(x_axis.log), "Best tokens/s per GPU (input + output)", top)
    out += legend
    out.append("</g>")
    out.append(f'<g class="target" {FONT} font-size="12" fill="{MUTED}">')
    out.append(target_line(data["target"], x, top))
    out.append("</g>")
    order = sorted(range(len(all_series)), key=lambda i: found[i].strong)
    for i in order:
        series, style = all_series[i], found[i]
        line, read = _line(series, data["method"], x, y)
        width = "2.5" if style.strong else "1.5"
        out.append(
            f'<g class="series" {series_attrs(i, style)} fill="none" stroke="{style.colour}">'
            f'<path class="run-in" d="{read}" stroke-width="{width}" stroke-dasharray="2 4"/>'
            f'<path class="envelope" d="{line}" stroke-width="{width}"/>'
        )
        for ci, start, _ in series["stretches"][1:]:  # where another curve takes over
            py = y(_value(series["curves"][ci], start, data["method"]))
            out.append(
                f'<path class="switch" d="M{num(x(start))},{num(py - 6)}v12" stroke-width="2"/>'
            )
        if series["headline"] is not None:
            out.append(
                f'<circle class="headline" cx="{num(x(data["target"]))}" '
                f'cy="{num(y(series["headline"]))}" r="6" stroke-width="1.5"/>'
            )
        out.append("</g>")
    out.append(
        f'<g class="labels" {FONT} font-size="11" font-weight="600" paint-order="stroke" '
        'stroke="#ffffff" stroke-width="3" stroke-linejoin="round">'
    )
    out += _stretch_labels(data, found, x, y, top)
    out.append("</g>")
    points = []
    for i in order:
        series, style = all_series[i], found[i]
        shapes = []
        for curve, px_value, py_value in _measured(series):
            px, py = x(px_value), y(py_value)
            shape = marker(style.shape, px, py, RADIUS)
            shapes.append(shape)
            lines = [
                f"{series['label']}, {curve_label(curve)}",
                f"{rate(px_value)} tok/s/user, {tokens(py_value)} tok/s/GPU (a measured config)",
            ]
            attrs = (
                f'data-series="{i}" data-interactivity="{px_value!r}" '
                f'data-throughput-per-gpu="{py_value!r}"'
            )
            points.append(point_with_tip(shape, attrs, px, py, lines, TIP_BOX))
        out += markers(series_attrs(i, style), style.colour, [], shapes, stroke_width="1")
    out.append('<g class="points" fill="transparent">')
    out += points
    out.append("</g>")
    out.append(series_tip_css(chart, [style.colour for style in found]))
    out.append("</svg>")
    return "\n".join(out)


__all__ = ["draw_envelopes", "envelope_chart_data", "x_values"]
