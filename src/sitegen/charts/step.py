"""Chart drawing as a step of its own: views name their charts, this step draws them.

A view holds a `Chart` (its kind and data) where its page shows a chart; `draw_charts` draws
the charts of the pages about to be rendered, through the cache (but a run report's, cheaper
to draw than to store), before any template runs. A page left out of the step (its output
kept from the last build) costs no drawing at all.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from markupsafe import Markup

from . import envelope_chart, frontier_chart
from .axes import wants_log
from .cache import ChartCache, chart_key
from .envelope_chart import draw_envelopes
from .frontier_chart import curve_label, draw_frontier
from .history_chart import draw_history
from .run_chart import draw_run
from .series import LegendEntry, legend_entries

# each draws a chart from its data alone
DRAW: dict[str, Callable] = {
    "frontier": draw_frontier,
    "history": draw_history,
    "envelopes": draw_envelopes,
    "run": draw_run,
}
# drawn on every build, never cached: writing a signed entry costs more than drawing one, and
# a run report is made again mostly when its run, and so its chart, changed
UNCACHED = frozenset({"run"})


def _labels(kind: str, data: dict) -> list[str | None]:
    """Each series' name, by its number in the chart (None: numbered, not drawn here)."""
    if kind == "envelopes":
        return [s["label"] for s in data["series"]]
    if kind == "history":
        drawn = {(c["engine"], c["precision"]) for c in data["curves"]}
        return [
            curve_label({"engine": e, "precision": p}) if (e, p) in drawn else None
            for e, p in data["order"]
        ]
    return [curve_label(c) for c in data["curves"]]


@dataclass(eq=False)
class Chart:
    """One chart of a page: its kind (a key of DRAW), its data, and once drawn its SVG."""

    kind: str
    data: dict
    svg: Markup | None = None
    key: str = ""  # its chart cache key, once drawn (none for the UNCACHED kinds)

    def __html__(self) -> str:
        if self.svg is None:
            raise RuntimeError(f"{self.kind} chart used before draw_charts drew it")
        return self.svg

    @property
    def legend(self) -> list[LegendEntry]:
        """Every series, the strong ones first: the list under the chart, and its switches."""
        return list(self._legend)

    @functools.cached_property
    def _legend(self) -> tuple[LegendEntry, ...]:  # a template reads it up to four times
        data = self.data
        return tuple(legend_entries(_labels(self.kind, data), data["strong"], data.get("palette")))

    @functools.cached_property
    def log_x(self) -> bool:  # a template reads it once or twice; its data does not change
        """Whether tokens/s per user is drawn on a log axis (values spread over 10x)."""
        xs = {
            "frontier": frontier_chart.x_values,
            "run": frontier_chart.x_values,
            "envelopes": envelope_chart.x_values,
        }
        if self.kind not in xs:
            return False
        return wants_log(xs[self.kind](self.data))

    @property
    def faint(self) -> int:
        return sum(not e.strong for e in self.legend)


def draw_charts(
    charts: Iterable[Chart], cache: ChartCache, step: Callable[[], None] = lambda: None
) -> None:
    """Draw every chart not drawn yet, each through the cache (but the UNCACHED kinds); `step`
    after each chart."""
    for chart in charts:
        if chart.svg is None:
            chart.svg = Markup(_draw(chart, cache))
        step()


def _draw(chart: Chart, cache: ChartCache) -> str:
    if chart.kind in UNCACHED:
        return DRAW[chart.kind](chart.data)
    # the key reads the data as pickle writes it, not as JSON: the JSON the chart's id hashes
    # is written only where the chart is drawn
    chart.key = chart_key(chart.kind, chart.data)
    return cache.get_or_draw(chart.kind, chart.data, DRAW[chart.kind], chart.key)
