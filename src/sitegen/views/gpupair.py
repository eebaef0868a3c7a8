"""The page of two GPUs across every model both serve: each model's comparison verdict at the
headline target, linked to that comparison; and its data.json."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..calc.standings import Pairing
from ..render import display
from .compare import headline_pairing, verdict_workload
from .datafiles import gpu_pair_json, to_json
from .page import DataFile, Page, Quote, View
from .sources import Sources, compare_route, gpu_pair_route


@dataclass(frozen=True)
class GpuPairView(View):
    a: Any  # the GPUs, a before b by slug
    b: Any
    # per model both serve: model, route (its comparison), workload (the one its verdict
    # reads, None where the GPUs share none) and pairing (both at the headline target)
    rows: list[dict]
    lead: str  # which GPU serves more on how many models
    quote: Quote
    description: str


@dataclass(frozen=True)
class _Row:
    model: str
    workload: str | None
    pairing: Pairing | None
    route: str


def _rows(src: Sources, a: str, b: str) -> list[_Row]:
    """Each model both GPUs serve, by slug, read as its comparison's verdict reads it (from
    the briefs, which hold each workload's headline: a page of every model summarises none
    whose runs did not change)."""
    rows, briefs = [], src.briefs  # a list of every pair's headlines reads briefs
    for model in src.gpu_pairs[(a, b)]:
        side_a = {s.workload: s for s in briefs.get((model, a), ())}
        side_b = {s.workload: s for s in briefs.get((model, b), ())}
        workload = verdict_workload(src, side_a, side_b)
        at = headline_pairing(src, side_a[workload], side_b[workload]) if workload else None
        rows.append(_Row(model, workload, at, compare_route(a, b, model)))
    return rows


def lead(src: Sources, a: str, b: str, rows: list[_Row]) -> str:
    """On how many of the models both GPUs reach the headline target each GPU serves more
    tokens/s per GPU, and the range of the ratio."""
    site = src.site
    a_name, b_name = site.gpus[a].name, site.gpus[b].name
    at = display.rate(site.config.headline_interactivity)
    known = [
        (r.model, r.pairing.throughput_ratio)
        for r in rows
        if r.pairing and r.pairing.throughput_ratio is not None
    ]
    if not known:
        return (
            f"No model has a ratio at {at} tok/s per user: on each, a GPU does not reach the "
            "target or the two share no workload."
        )
    if len(known) == 1:
        ((model, x),) = known
        lead_name, trail_name, times = (a_name, b_name, x) if x >= 1 else (b_name, a_name, 1 / x)
        return (
            f"{site.models[model].name} is the one model both reach {at} tok/s per user on: "
            f"there {lead_name} serves {display.ratio(times)} the tokens/s per GPU of "
            f"{trail_name}."
        )
    ratios = [x for _, x in known]
    ahead_a, ahead_b = sum(x > 1 for x in ratios), sum(x < 1 for x in ratios)
    even = len(ratios) - ahead_a - ahead_b
    text = (
        f"Of the {len(ratios)} models both reach {at} tok/s per user on, {a_name} serves more "
        f"tokens/s per GPU on {ahead_a} and {b_name} on {ahead_b}"
    )
    text += f" ({even} even)." if even else "."
    return (
        f"{text} {a_name} serves {display.ratio(min(ratios))} to "
        f"{display.ratio(max(ratios))} the tokens/s per GPU of {b_name}."
    )


def gpu_pair_outputs(src: Sources, a: str, b: str) -> tuple[Page, DataFile]:
    """Two GPUs' page and data.json (a before b by slug)."""
    site = src.site
    a, b = sorted((a, b))
    rows = _rows(src, a, b)
    said = lead(src, a, b, rows)
    a_name, b_name = site.gpus[a].name, site.gpus[b].name
    names = display.human_list([site.models[r.model].name for r in rows])
    view = GpuPairView(
        a=site.gpus[a],
        b=site.gpus[b],
        rows=[
            {
                "model": site.models[r.model],
                "route": r.route,
                "workload": site.workloads[r.workload] if r.workload else None,
                "tokens": site.tokens(r.workload) if r.workload else None,
                "pairing": r.pairing,
            }
            for r in rows
        ],
        lead=said,
        quote=src.quote,
        description=(
            f"{a_name} and {b_name} on every model both serve ({names}): tokens/s per GPU and $ "
            f"per million tokens at {display.rate(site.config.headline_interactivity)} tokens/s "
            f"per user, and their ratio. {said}"
        ),
    )
    route = gpu_pair_route(a, b)
    page = Page(route, "gpu_pair.html", f"{a_name} vs {b_name}: every model on both", view)
    data = gpu_pair_json(
        a,
        b,
        src.tier,
        site.config.headline_interactivity,
        [(r.model, r.workload, r.pairing, r.route) for r in rows],
        site.tokens,
    )
    return page, DataFile(route + "data.json", to_json(data))


__all__ = ["GpuPairView", "gpu_pair_outputs"]
