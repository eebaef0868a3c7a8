"""Charts drawn as inline SVG in Python: a pair's frontier and its history, a run's configs, and
several GPUs' envelopes on one chart (model and comparison pages).

SVG from Python rather than a plotting library: the charts are a few lines, markers and
ticks, the output must be byte-identical from build to build, visible without JavaScript and
free of network fetches; drawing one takes about a millisecond (bench/chart.py).
"""

from __future__ import annotations

from .cache import ChartCache
from .envelope_chart import draw_envelopes, envelope_chart_data, envelope_series
from .frontier_chart import draw_frontier, frontier_chart_data
from .history_chart import draw_history, history_chart_data, history_rows
from .run_chart import draw_run, run_chart_data
from .step import Chart, draw_charts

__all__ = [
    "Chart",
    "ChartCache",
    "draw_charts",
    "draw_envelopes",
    "draw_frontier",
    "draw_history",
    "draw_run",
    "envelope_chart_data",
    "envelope_series",
    "frontier_chart_data",
    "history_chart_data",
    "history_rows",
    "run_chart_data",
]
