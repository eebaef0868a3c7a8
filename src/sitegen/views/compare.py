"""Comparison pages: one model on two GPUs, side by side."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..datafiles import pair_route
from .page import Page, Quote, View
from .sources import Sources, compare_route


@dataclass(frozen=True)
class CompareView(View):
    model: Any
    sides: list[dict]  # per GPU: gpu, route, summaries by workload
    workloads: list[Any]  # the workloads either side measured, the default first
    targets: Any
    quote: Quote


def compared(src: Sources) -> Iterator[tuple[str, str, str]]:
    """(model, GPU a, GPU b) of every comparison page: each two GPUs a model runs on."""
    for model in src.models:
        for a, b in itertools.combinations(src.gpus_of(model), 2):
            yield model, a, b


def compare_page(src: Sources, model: str, a: str, b: str) -> Page:
    site = src.site
    sides = [
        {
            "gpu": site.gpus[g],
            "route": pair_route(model, g),
            "summaries": {s.workload: s for s in src.summaries(model, g)},
        }
        for g in (a, b)
    ]
    workloads = sorted(
        set(sides[0]["summaries"]) | set(sides[1]["summaries"]),
        key=lambda w: (w != site.config.default_workload, w),
    )
    m = site.models[model]
    view = CompareView(
        model=m,
        sides=sides,
        workloads=[site.workloads[w] for w in workloads],
        targets=site.config.targets,
        quote=src.quote,
    )
    title = f"{m.name}: {site.gpus[a].name} vs {site.gpus[b].name}"
    return Page(compare_route(a, b, model), "compare.html", title, view)
