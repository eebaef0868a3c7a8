"""Axes that hold real data: a log axis where tokens/s per user spreads over 10x, and date
labels that never overlap, whatever the run dates."""

from __future__ import annotations

import datetime as dt
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.charts import draw_frontier, draw_history
from sitegen.charts.axes import interactivity_axis, log_ticks
from sitegen.charts.history_chart import BOTTOM, HEIGHT, WIDTH
from sitegen.charts.svg import num

SVG_NS = "{http://www.w3.org/2000/svg}"
CHAR_PX = 7.2  # wider than any digit, letter or hyphen of 12 px system-ui text


@pytest.mark.parametrize(
    ("low", "high", "log"), [(10, 99, False), (10, 100, False), (10, 101, True), (5, 310, True)]
)
def test_log_axis_when_tokens_per_user_spread_over_10x(low, high, log):
    axis = interactivity_axis([low, high, 50], 72, 736)
    assert axis.log is log
    scale = axis.scale
    assert scale.d0 <= low and scale.d1 >= high
    for v in (low, 50, high):
        assert scale.invert(scale(v)) == pytest.approx(v)
    if log:
        # equal ratios take equal room, and the ticks are 1, 2, 5 x 10^k inside the plot
        assert scale(20) - scale(10) == pytest.approx(scale(200) - scale(100))
        assert all(str(t).lstrip("0.").rstrip("0.")[:1] in "125" for t in axis.ticks)
        assert len(axis.ticks) >= 3 and all(scale.d0 <= t <= scale.d1 for t in axis.ticks)
    else:
        assert scale.d0 == 0 and axis.ticks[0] == 0


def test_a_coordinate_has_one_decimal_and_no_trailing_zero_or_minus_zero():
    values = [0.0, -0.0, -0.04, 0.05, -0.05, 12.0, -3.0, 99.96, 1234.56, -1.26]
    written = ["0", "0", "0", "0.1", "-0.1", "12", "-3", "100", "1234.6", "-1.3"]
    assert [num(v) for v in values] == written


def test_log_ticks():
    assert log_ticks(4.5, 350) == [5, 10, 20, 50, 100, 200]
    assert log_ticks(0.3, 3) == [0.5, 1, 2]


def _frontier_data(xs: list[float]) -> dict:
    points = [
        {
            "interactivity": x,
            "throughput_per_gpu": 4000.0 / (1 + i),
            "concurrency": 2 ** (8 - i),
            "gpus": 8,
            "tp": 8,
            "ttft_ms": 500.0,
            "tpot_ms": 1000 / x,
            "run": "r",
            "parallelism": "TP8",
            "date": "2026-01-01",
        }
        for i, x in enumerate(xs)
    ]
    return {
        "model": "M",
        "gpu": "G",
        "workload": "W",
        "method": "interpolate",
        "target": 50,
        "headline": {"throughput_per_gpu": None, "engine": None, "precision": None},
        "curves": [
            {
                "engine": "vllm",
                "precision": "fp8",
                "frontier": [[p["interactivity"], p["throughput_per_gpu"]] for p in points],
                "points": points,
            }
        ],
        "strong": [0],
    }


def _point_xs(svg: ET.Element) -> dict[float, float]:
    out = {}
    for el in svg.iter(f"{SVG_NS}path"):
        if "pt" in el.get("class", "").split():
            cx = float(el.get("d")[1:].split(",")[0])
            out[float(el.get("data-interactivity"))] = cx
    return out


def test_one_fast_config_does_not_squash_the_rest():
    """The issue's case: configs from 20 to 60 tok/s per user, and one at 310."""
    svg = ET.fromstring(draw_frontier(_frontier_data([20, 30, 45, 60, 310])))
    assert svg.get("data-x-scale") == "log"
    x = _point_xs(svg)
    # on a linear axis the four slow configs would share a seventh of the width; here, over a
    # third, and the gap from 20 to 60 is as wide as from 103 to 310 (both 3x)
    assert (x[60] - x[20]) / (x[310] - x[20]) > 0.35
    texts = [t.text for t in svg.iter(f"{SVG_NS}text")]
    assert "Tokens/s per user (1000 / median TPOT, log scale)" in texts
    close = ET.fromstring(draw_frontier(_frontier_data([20, 30, 45, 60, 150])))
    assert close.get("data-x-scale") == "linear"


def _history_data(dates: list[str]) -> dict:
    return {
        "model": "M",
        "gpu": "G",
        "workload": "W",
        "target": 50,
        "curves": [
            {
                "engine": "vllm",
                "precision": "fp8",
                "points": [[d, 1000.0 + 10 * i] for i, d in enumerate(dates)],
            }
        ],
        "order": [["vllm", "fp8"]],
        "palette": [0],
        "strong": [0],
    }


def _date_labels(svg: ET.Element) -> list[tuple[float, str]]:
    """The x axis's tick labels: (centre, text)."""
    axis_y = f"{HEIGHT - BOTTOM + 19:g}"
    return [
        (float(t.get("x")), t.text)
        for g in svg.iter(f"{SVG_NS}g")
        if g.get("class") == "axes"
        for t in g.iter(f"{SVG_NS}text")
        if t.get("y") == axis_y
    ]


def _days(start: str, offsets: list[int]) -> list[str]:
    first = dt.date.fromisoformat(start)
    return [(first + dt.timedelta(days=d)).isoformat() for d in offsets]


CASES = {
    # InferenceX's DeepSeek R1 history: runs days apart, clustered, over half a year
    "days apart over months": [
        "2025-11-02",
        "2025-12-05",
        "2025-12-06",
        "2025-12-08",
        "2026-01-10",
        "2026-01-11",
        "2026-02-07",
        "2026-02-11",
        "2026-02-12",
        "2026-02-13",
        "2026-03-18",
        "2026-03-20",
        "2026-03-23",
        "2026-05-18",
        "2026-05-19",
        "2026-05-20",
        "2026-05-22",
        "2026-06-11",
    ],
    "two days in a row": ["2026-05-19", "2026-05-20"],
    "every day for a month": _days("2026-03-01", list(range(31))),
    "a week apart": _days("2026-03-02", [0, 7, 14, 21]),
    "years": ["2023-01-15", "2024-06-01", "2026-11-30"],
}


@pytest.mark.parametrize("case", CASES)
def test_date_labels_never_overlap(case):
    dates = CASES[case]
    svg = ET.fromstring(draw_history(_history_data(dates)))
    labels = _date_labels(svg)
    assert labels, case
    boxes = [(x - CHAR_PX * len(s) / 2, x + CHAR_PX * len(s) / 2) for x, s in labels]
    assert boxes[0][0] >= 0 and boxes[-1][1] <= WIDTH
    for (_, right), (left, _) in zip(boxes, boxes[1:], strict=False):
        assert right < left, (case, labels)
    # labels read in time order, at their dates' places
    centres = [x for x, _ in labels]
    assert centres == sorted(centres)
    if case == "days apart over months":
        # month by month: enough labels to read the axis, none squeezed out
        assert [s for _, s in labels] == [
            "Nov 2025",
            "Dec 2025",
            "Jan 2026",
            "Feb 2026",
            "Mar 2026",
            "Apr 2026",
            "May 2026",
            "Jun 2026",
        ]
    # every run date is a point of the chart, whatever is labelled
    drawn = {el.get("data-date") for el in svg.iter(f"{SVG_NS}path") if el.get("data-date")}
    assert drawn == set(dates)


def _labelled_every_step(first: int, last: int, x, left: float, right: float):
    """date_ticks as it was: every step labelled in full, then the first that fits."""
    from sitegen.charts import axes

    for make, every in axes.DATE_STEPS:
        ticks = make(first, last, every)
        if len(ticks) > 40:
            continue
        if ticks and axes.fits(ticks, x, left, right):
            return ticks
    kept = []
    for tick in axes._month_ticks(first, last, 12) or axes._day_ticks(first, last, 1)[:1]:
        if axes.fits([*kept, tick], x, left, right):
            kept.append(tick)
    return kept


@settings(max_examples=300, deadline=None)
@given(
    start=st.integers(dt.date(2020, 1, 1).toordinal(), dt.date(2030, 1, 1).toordinal()),
    days=st.integers(0, 4000),
    width=st.floats(20, 2000),
    fraction=st.floats(0, 0.999),
)
def test_date_ticks_skip_long_steps_without_changing_a_tick(start, days, width, fraction):
    """Days are counted before they are labelled; the ticks are those of labelling them all."""
    from sitegen.charts.axes import date_ticks
    from sitegen.charts.svg import Scale

    d0 = start + fraction
    x = Scale(d0, d0 + max(days, 1), 50.0, 50.0 + width)
    first, last = math.ceil(x.d0), math.floor(x.d1)
    assert date_ticks(x, 40.0, 60.0 + width) == _labelled_every_step(
        first, last, x, 40.0, 60.0 + width
    )
