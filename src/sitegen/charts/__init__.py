"""Charts drawn as inline SVG in Python: the frontier of a model x GPU page and its history.

SVG from Python rather than a plotting library: the charts are a few lines, markers and
ticks, the output must be byte-identical from build to build, visible without JavaScript and
free of network fetches; drawing one takes about a millisecond (bench/chart.py).
"""

from __future__ import annotations

from .cache import ChartCache
from .frontier_chart import draw_frontier, frontier_chart_data, run_chart_data
from .history_chart import draw_history, history_rows
from .step import Chart, draw_charts

__all__ = [
    "Chart",
    "ChartCache",
    "draw_charts",
    "draw_frontier",
    "draw_history",
    "frontier_chart_data",
    "history_rows",
    "run_chart_data",
]
