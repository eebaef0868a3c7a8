"""A model's page (every GPU it runs on) and a GPU's page (every model on it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..datafiles import pair_route
from .page import Page, Quote, View
from .sources import Sources


@dataclass(frozen=True)
class ModelView(View):
    model: Any
    rows: list[dict]  # its pairs, best first
    intro: Markup | None
    quote: Quote


@dataclass(frozen=True)
class GpuView(View):
    gpu: Any
    rows: list[dict]  # its pairs, best first
    intro: Markup | None
    prices: Any
    quote: Quote


def best_first(src: Sources, keys: list[tuple[str, str]]) -> list[dict]:
    """Rows for lists of pairs: the default workload's headline, best first."""
    rows = []
    for model, gpu in keys:
        summaries = src.summaries(model, gpu)
        main = summaries[0] if summaries else None
        rows.append(
            {
                "model": src.site.models[model],
                "gpu": src.site.gpus[gpu],
                "summary": main,
                "route": pair_route(model, gpu),
                "workload": src.site.workloads[main.workload] if main else None,
            }
        )
    return sorted(
        rows,
        key=lambda r: (
            r["summary"] is None or r["summary"].headline.throughput_per_gpu is None,
            -((r["summary"] and r["summary"].headline.throughput_per_gpu) or 0),
            r["model"].slug,
            r["gpu"].slug,
        ),
    )


def model_page(src: Sources, model: str) -> Page:
    m = src.site.models[model]
    values = {"model": m, "site": src.site_values()}
    view = ModelView(
        model=m,
        rows=best_first(src, [(model, gpu) for gpu in src.gpus_of(model)]),
        intro=src.copy(src.content.models.get(model), values),
        quote=src.quote,
    )
    return Page(f"models/{model}/", "model.html", f"{m.name} on every GPU", view)


def gpu_page(src: Sources, gpu: str) -> Page:
    g = src.site.gpus[gpu]
    values = {"gpu": g, "site": src.site_values()}
    view = GpuView(
        gpu=g,
        rows=best_first(src, [k for k in src.pair_keys if k[1] == gpu]),
        intro=src.copy(src.content.gpus.get(gpu), values),
        prices=src.site.pricing.for_gpu(gpu),
        quote=src.quote,
    )
    return Page(f"gpus/{gpu}/", "gpu.html", f"Every model on {g.name}", view)
