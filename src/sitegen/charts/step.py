"""Chart drawing as a step of its own: views name their charts, this step draws them.

A view holds a `Chart` (its kind and data) where its page shows a chart; `draw_charts` draws
the charts of the pages about to be rendered, through the cache, before any template runs.
A page left out of the step (its output kept from the last build) costs no drawing at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from markupsafe import Markup

from .cache import ChartCache, chart_key
from .frontier_chart import draw_frontier
from .history_chart import draw_history

DRAW: dict[str, Callable] = {"frontier": draw_frontier, "history": draw_history}


@dataclass(eq=False)
class Chart:
    """One chart of a page: its kind (a key of DRAW), its data, and once drawn its SVG."""

    kind: str
    data: dict
    svg: Markup | None = None
    key: str = ""  # its chart cache key, once drawn

    def __html__(self) -> str:
        if self.svg is None:
            raise RuntimeError(f"{self.kind} chart used before draw_charts drew it")
        return self.svg


def draw_charts(
    charts: Iterable[Chart], cache: ChartCache, step: Callable[[], None] = lambda: None
) -> None:
    """Draw every chart not drawn yet, each through the cache; `step` after each chart."""
    for chart in charts:
        if chart.svg is None:
            chart.key = chart_key(chart.kind, chart.data)
            svg = cache.get_or_draw(chart.kind, chart.data, DRAW[chart.kind], chart.key)
            chart.svg = Markup(svg)
        step()
