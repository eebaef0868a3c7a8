"""A model x GPU's frontier chart and ladder for an <iframe> on another site: no header,
footer or navigation, a credit linking to the pair page, kept out of search results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..calc.tables import WorkloadSummary
from ..charts import Chart
from .datafiles import curve_points, pair_route
from .page import Page, Quote, View
from .pair import frontier_chart
from .sources import Sources, embed_route


@dataclass(frozen=True)
class EmbedView(View):
    model: Any
    gpu: Any
    workload: Any  # the workload shown: the pair page's first (the default, where measured)
    summary: WorkloadSummary
    chart: Chart  # the pair page's frontier chart of that workload
    pair_url: str  # the pair page's absolute address: the credit and the canonical link
    prices: Any  # the GPU's $ per GPU-hour by tier
    quote: Quote


def embed_page(src: Sources, model: str, gpu: str) -> Page | None:
    """The embed of a pair with a sweep (None without one: nothing to chart)."""
    summaries = src.summaries(model, gpu)
    if not summaries:
        return None
    site = src.site
    summary = summaries[0]
    chart = frontier_chart(src, summary, curve_points([summary])[0])["chart"]
    m, g = site.models[model], site.gpus[gpu]
    view = EmbedView(
        model=m,
        gpu=g,
        workload=site.workloads[summary.workload],
        summary=summary,
        chart=chart,
        pair_url=site.config.base_url + pair_route(model, gpu),
        prices=site.pricing.for_gpu(gpu),
        quote=src.quote,
    )
    title = f"{m.name} on {g.name}: throughput and cost at every per-user target"
    return Page(
        embed_route(model, gpu), "embed.html", title, view, in_sitemap=False, charts=(chart,)
    )


__all__ = ["EmbedView", "embed_page"]
