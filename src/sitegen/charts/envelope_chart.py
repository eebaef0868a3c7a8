"""Envelopes of several GPUs on one chart: each GPU's best tokens/s per GPU at every tokens/s per
user, labelled with the engine and precision that give it (the model and comparison pages).

`envelope_chart_data` turns envelopes into plain JSON-able data (the cache key);
`draw_envelopes` turns that data into SVG and reads nothing else.
"""

from __future__ import annotations

import functools
import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..calc import frontier
from ..calc.envelope import Envelope
from ..records import TOTAL
from ..render.display import per_gpu, rate, tokens
from .axes import interactivity_axis
from .cache import chart_key
from .frontier_chart import (
    BOTTOM,
    HEIGHT,
    LEFT,
    RIGHT,
    TIP_BOX,
    WIDTH,
    axis_titles,
    counting,
    curve_label,
    markers,
    target_line,
    x_title,
    y_title,
)
from .paths import curve_path
from .series import Style, series_attrs, styles, svg_legend
from .svg import (
    FONT,
    MUTED,
    TEXT,
    Scale,
    axes,
    id_of_json,
    marker,
    nice_ticks,
    num,
    svg_start,
    text,
    tick_label,
)
from .tips import points_start, series_tip_css, tip_title, titled_point

RADIUS = 4.5
LABEL_CHAR_PX = 6.4  # 11 px labels
MIN_LABELLED_PX = 36  # a stretch narrower than this carries no label (its tips still say it)
# series prepared (_side), the latest kept: the plan makes a model's comparisons one after
# another, so each GPU's envelope is drawn on nine charts in a row; a model page draws all
# its GPUs' on one
SIDES_KEPT = 64


def envelope_chart_data(
    model: str,
    workload: str,
    method: str,
    target: float,
    series: Sequence[tuple[str, Envelope, float | None]],
    strong: Sequence[int],
    series_of: Callable[[Envelope, str, float | None], dict] | None = None,
    tokens_counted: str = TOTAL,
) -> dict:
    """The chart's input: per series (a GPU) its label, its winning curves and where each wins,
    and its value at the target. `series_of` writes a series (envelope_series, or the one it
    wrote already: a GPU's envelope is on each of its comparisons)."""
    write = series_of or envelope_series
    data = {
        "model": model,
        "workload": workload,
        "method": method,
        "target": target,
        "series": [write(env, label, headline) for label, env, headline in series],
        "strong": list(strong),
    }
    return counting(data, tokens_counted)


def envelope_series(env: Envelope, label: str, headline: float | None) -> dict:
    """One series of the chart's input: an envelope, named `label`, reaching `headline`."""
    used = sorted({s.curve for s in env.stretches})
    curves = [env.curves[i] for i in used]
    return {
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


@functools.lru_cache(maxsize=256)  # a chart reads each of its curves a dozen times
def _reader(
    points: tuple[tuple[float, float], ...], method: str
) -> Callable[[float], float | None]:
    """frontier.value_at of one curve, its tangents computed once (the same numbers)."""
    return frontier.reader([frontier.Point(px, py) for px, py in points], method)


@dataclass(frozen=True)
class _Side:
    """What a series draws alike on every chart it is on, whatever the chart's scales and
    wherever it is in the chart: what it says, its tips' words, where it is measured."""

    json: str  # the series as chart_id's JSON writes it
    readers: tuple[Callable[[float], float | None], ...]  # each curve's value, by x
    measured: tuple[tuple[float, float], ...]  # the measured points it passes, x ascending
    tips: tuple[tuple[str, str], ...]  # each such point's data attributes and title
    labels: tuple[str, ...]  # each stretch's curve as the chart names it
    said: str  # its part of the chart's description

    def value(self, curve: int, x: float) -> float:
        value = self.readers[curve](x)
        assert value is not None, "a stretch lies where its curve has a value"
        return value


_SIDES: OrderedDict[str, _Side] = OrderedDict()


def _side(series: dict, method: str, target: float) -> _Side:
    """The series prepared, once for equal series: keyed by every value it is made of, so a
    series kept from another chart is this one."""
    key = chart_key("envelope-series", (series, method, target))
    side = _SIDES.get(key)
    if side is None:
        side = _SIDES[key] = _prepare(series, method, target)
        if len(_SIDES) > SIDES_KEPT:
            _SIDES.popitem(last=False)
    else:
        _SIDES.move_to_end(key)
    return side


def _prepare(series: dict, method: str, target: float) -> _Side:
    curves = series["curves"]
    measured = _measured(series)
    names = [curve_label(c) for c in curves]
    tips = tuple(
        (
            f'data-interactivity="{px!r}" data-throughput-per-gpu="{py!r}"',
            tip_title(
                [
                    f"{series['label']}, {names[ci]}",
                    f"{rate(px)} tok/s/user, {tokens(py)} tok/s/GPU (a measured config)",
                ]
            ),
        )
        for ci, px, py in measured
    )
    return _Side(
        json=json.dumps(series, sort_keys=True),
        readers=tuple(_reader(tuple(map(tuple, c["frontier"])), method) for c in curves),
        measured=tuple((px, py) for _, px, py in measured),
        tips=tips,
        labels=tuple(names[ci] for ci, _, _ in series["stretches"]),
        said=_said(series, names, target),
    )


def _measured(series: dict) -> list[tuple[int, float, float]]:
    """The measured points the envelope passes through: (curve, x, y), x ascending."""
    return [
        (ci, px, py)
        for ci, start, end in series["stretches"]
        for px, py in series["curves"][ci]["frontier"]
        if start <= px <= end
    ]


def _said(series: dict, names: list[str], target: float) -> str:
    winners = ", ".join(
        f"{names[ci]} from {rate(start)} to {rate(end)} tok/s per user"
        for ci, start, end in series["stretches"]
    )
    head = series["headline"]
    at = (
        f"{tokens(head)} tokens/s per GPU at {rate(target)} tok/s per user"
        if head is not None
        else f"does not reach {rate(target)} tok/s per user"
    )
    return f"{series['label']}: {at}; best {winners}"


def _line(series: dict, side: _Side, x: Scale, y: Scale, method: str) -> tuple[str, str]:
    """The envelope, stretch after stretch: the measured range of each curve as a solid path,
    and dotted what is read rather than measured (a curve's peak below its slowest point, the
    drop where a curve ends, the run-in from the plot's left edge)."""
    solid, dotted = [], []
    ci, start, _ = series["stretches"][0]
    dotted.append(f"M{num(x.p0)},{num(y(side.value(ci, start)))}H{num(x(start))}")
    previous = None
    for ci, start, end in series["stretches"]:
        curve = series["curves"][ci]
        first_x = curve["frontier"][0][0]
        begin = y(side.value(ci, start))
        if previous is not None and abs(previous - begin) > 0.05:
            dotted.append(f"M{num(x(start))},{num(previous)}V{num(begin)}")
        if start < first_x:  # this stretch starts on the curve's run-in: flat at its peak
            dotted.append(f"M{num(x(start))},{num(begin)}H{num(x(min(first_x, end)))}")
        solid.append(curve_path(curve["frontier"], method, x, y, start, end))
        previous = y(side.value(ci, end))
    return "".join(solid), "".join(dotted)


def _boxes_clash(box: tuple[float, ...], taken: list[tuple[float, ...]]) -> bool:
    x0, y0, x1, y1 = box
    return any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in taken)


def _stretch_labels(
    data: dict, sides: Sequence[_Side], found: Sequence[Style], x: Scale, y: Scale, top: float
) -> list[str]:
    """Each strong series' engine and precision written above (or below) the middle of each
    stretch where it wins, where the words fit without covering another label."""
    out: list[str] = []
    taken: list[tuple[float, ...]] = []
    for i in data["strong"]:
        series, side = data["series"][i], sides[i]
        for (ci, start, end), label in zip(series["stretches"], side.labels, strict=True):
            if x(end) - x(start) < MIN_LABELLED_PX:
                continue
            width = LABEL_CHAR_PX * len(label)
            px = (x(start) + x(end)) / 2
            mid = x.invert(px)
            py = y(side.value(ci, mid))
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


def _describe(data: dict, sides: Sequence[_Side], log: bool) -> tuple[str, str]:
    title = (
        f"{data['model']}: each GPU's best {per_gpu(data.get('tokens'))} against tokens/s per user "
        f"({data['workload']})"
    )
    desc = "; ".join(side.said for side in sides) + "."
    if log:
        desc += " Tokens/s per user is on a log scale."
    return title, desc


def _sides(data: dict) -> list[_Side]:
    return [_side(s, data["method"], data["target"]) for s in data["series"]]


def _chart_id(data: dict, sides: Sequence[_Side]) -> str:
    """chart_id("ec", data), each series' JSON as its side wrote it."""
    written = ", ".join(
        f"{json.dumps(name)}: "
        + (
            "[" + ", ".join(side.json for side in sides) + "]"
            if name == "series"
            else json.dumps(data[name], sort_keys=True)
        )
        for name in sorted(data)
    )
    return id_of_json("ec", "{" + written + "}")


def x_values(data: dict) -> list[float]:
    """What the x axis must hold: where each envelope starts, its measured points, the target."""
    xs = [px for s in data["series"] for _, px, _ in _measured(s)]
    return xs + [s["stretches"][0][1] for s in data["series"]] + [data["target"]]


def _x_values(data: dict, sides: Sequence[_Side]) -> list[float]:
    """x_values(data), the measured points as the series' sides hold them."""
    xs = [px for side in sides for px, _ in side.measured]
    return xs + [s["stretches"][0][1] for s in data["series"]] + [data["target"]]


def draw_envelopes(data: dict) -> str:
    """The chart as an <svg> element for inline use in a page."""
    sides = _sides(data)
    chart = _chart_id(data, sides)
    all_series = data["series"]
    found = styles(len(all_series), data["strong"])
    legend, legend_height = svg_legend(
        [(i, s["label"], found[i]) for i, s in enumerate(all_series)], LEFT, WIDTH - RIGHT, 18
    )
    top = 18 + legend_height + 8
    x_axis = interactivity_axis(_x_values(data, sides), LEFT, WIDTH - RIGHT)
    x = x_axis.scale
    # every curve falls from left to right, and so does an envelope: its top is where it starts
    peaks = [side.value(*s["stretches"][0][:2]) for s, side in zip(all_series, sides, strict=True)]
    y_ticks = nice_ticks(max(peaks) * 1.05)
    y = Scale(0, y_ticks[-1], HEIGHT - BOTTOM, top)
    title, desc = _describe(data, sides, x_axis.log)
    scale = "log" if x_axis.log else "linear"
    out = svg_start(
        chart, "envelope-chart", (WIDTH, HEIGHT), title, desc, f' data-x-scale="{scale}"'
    )
    out += axes(x, y, x_axis.ticks, y_ticks, tick_label, tick_label)
    out.append(f'<g {FONT} font-size="12.5" fill="{TEXT}">')
    counted = y_title(data.get("tokens"))
    out += axis_titles(x_title(x_axis.log), "Best " + counted[0].lower() + counted[1:], top)
    out += legend
    out.append("</g>")
    out.append(f'<g class="target" {FONT} font-size="12" fill="{MUTED}">')
    out.append(target_line(data["target"], x, top))
    out.append("</g>")
    order = sorted(range(len(all_series)), key=lambda i: found[i].strong)
    for i in order:
        series, side, style = all_series[i], sides[i], found[i]
        line, read = _line(series, side, x, y, data["method"])
        width = "2.5" if style.strong else "1.5"
        out.append(
            f'<g class="series" {series_attrs(i, style)} fill="none" stroke="{style.colour}">'
            f'<path class="run-in" d="{read}" stroke-width="{width}" stroke-dasharray="2 4"/>'
            f'<path class="envelope" d="{line}" stroke-width="{width}"/>'
        )
        for ci, start, _ in series["stretches"][1:]:  # where another curve takes over
            py = y(side.value(ci, start))
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
    out += _stretch_labels(data, sides, found, x, y, top)
    out.append("</g>")
    points = []
    for i in order:
        side, style = sides[i], found[i]
        pxs = x.pixels([v for v, _ in side.measured])
        pys = y.pixels([v for _, v in side.measured])
        shapes = [marker(style.shape, px, py, RADIUS) for px, py in zip(pxs, pys, strict=True)]
        attrs = [f'data-series="{i}" {data}' for data, _ in side.tips]
        points += [
            titled_point(shape, a, title)
            for shape, a, (_, title) in zip(shapes, attrs, side.tips, strict=True)
        ]
        out += markers(series_attrs(i, style), style.colour, [], shapes, stroke_width="1")
    out.append(points_start(TIP_BOX))
    out += points
    out.append("</g>")
    out.append(series_tip_css(chart, [style.colour for style in found]))
    out.append("</svg>")
    return "\n".join(out)


__all__ = ["draw_envelopes", "envelope_chart_data", "envelope_series", "x_values"]
