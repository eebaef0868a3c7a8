"""A GPU's page (every model on it, and its comparisons); rows of pairs, best first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..records import OUTPUT
from .datafiles import pair_route
from .page import Page, Quote, View
from .sources import Sources, compare_route, gpu_pair_route


@dataclass(frozen=True)
class GpuView(View):
    gpu: Any
    rows: list[dict]  # its pairs, best first
    intro: Markup | None
    prices: Any
    quote: Quote
    compare: list[dict]  # per model on it: model, links [(other GPU, comparison route)]
    gpu_pairs: list[tuple[Any, str]]  # each GPU it shares a model with: (GPU, their page's route)


def best_first(src: Sources, keys: list[tuple[str, str]]) -> list[dict]:
    """Rows for lists of pairs: the default workload's headline, best first."""
    rows = []
    for model, gpu in keys:
        briefs = src.briefs.get((model, gpu))
        main = briefs[0] if briefs else None  # the default workload's
        rows.append(
            {
                "model": src.site.models[model],
                "gpu": src.site.gpus[gpu],
                "summary": main,
                "route": pair_route(model, gpu),
                "workload": src.site.workloads[main.workload] if main else None,
                "tokens": src.site.tokens(main.workload) if main else None,
            }
        )
    return sorted(
        rows,
        key=lambda r: (
            r["tokens"] == OUTPUT,  # output-token figures after total ones, never among them
            r["summary"] is None or r["summary"].headline.throughput_per_gpu is None,
            -((r["summary"] and r["summary"].headline.throughput_per_gpu) or 0),
            r["model"].slug,
            r["gpu"].slug,
        ),
    )


def gpu_page(src: Sources, gpu: str) -> Page:
    g = src.site.gpus[gpu]
    values = {"gpu": g, "site": src.site_values()}
    view = GpuView(
        gpu=g,
        rows=best_first(src, [k for k in src.pair_keys if k[1] == gpu]),
        intro=src.copy(src.content.gpus.get(gpu), values),
        prices=src.site.pricing.for_gpu(gpu),
        quote=src.quote,
        compare=[
            {
                "model": src.site.models[model],
                "links": [
                    (src.site.gpus[other], compare_route(gpu, other, model))
                    for other in src.gpus_of(model)
                    if other != gpu
                ],
            }
            for model in src.models
            if gpu in src.gpus_of(model) and len(src.gpus_of(model)) > 1
        ],
        gpu_pairs=[
            (src.site.gpus[b if a == gpu else a], gpu_pair_route(a, b))
            for a, b in src.gpu_pairs
            if gpu in (a, b)
        ],
    )
    return Page(f"gpus/{gpu}/", "gpu.html", f"Every model on {g.name}", view)
