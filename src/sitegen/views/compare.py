"""Comparison pages: one model on two GPUs, with a verdict, the ratio at every target, both
envelopes on one chart; and their data.json."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..calc.briefs import Brief
from ..calc.standings import Pairing, pairing, pairings
from ..calc.tables import WorkloadSummary
from ..charts import Chart, envelope_chart_data, envelope_series
from ..records.credits import Credit, grouped_credits
from ..render import display
from .datafiles import compare_json, pair_route, to_json
from .page import DataFile, Page, Quote, View
from .phrases import Phrase, plain, stressed
from .sources import Sources, compare_route, gpu_pair_route


@dataclass(frozen=True)
class CompareView(View):
    model: Any
    sides: list[dict]  # per GPU (a, b): gpu, route, summaries by workload
    verdict: list[Phrase]  # the answer in a sentence or three (views/phrases.py)
    workloads: list[dict]  # per workload either side measured, the default first
    quote: Quote
    description: str
    credits: list[Credit]  # who measured the runs behind it
    gpu_pair: str  # the route of the page of both GPUs across every model


def compared(src: Sources) -> Iterator[tuple[str, str, str]]:
    """(model, GPU a, GPU b) of every comparison page: each two GPUs a model runs on."""
    for model in src.models:
        for a, b in itertools.combinations(src.gpus_of(model), 2):
            yield model, a, b


def compare_outputs_of(src: Sources, model: str, a: str, b: str) -> tuple[Page, DataFile]:
    site = src.site
    a, b = sorted((a, b))
    sides = [
        {
            "gpu": site.gpus[g],
            "route": pair_route(model, g),
            "summaries": {s.workload: s for s in src.summaries(model, g)},
        }
        for g in (a, b)
    ]
    names = sorted(
        set(sides[0]["summaries"]) | set(sides[1]["summaries"]),
        key=lambda w: (w != site.config.default_workload, w),
    )
    tiers = site.pricing.slugs
    rungs = {
        w: pairings(
            sides[0]["summaries"].get(w), sides[1]["summaries"].get(w), site.config.targets, tiers
        )
        for w in names
    }
    workloads = [workload_view(src, model, sides, w, rungs[w]) for w in names]
    m = site.models[model]
    said = verdict(src, sides, workloads)
    view = CompareView(
        model=m,
        sides=sides,
        verdict=said,
        workloads=workloads,
        quote=src.quote,
        description=description(src, model, sides, said),
        credits=grouped_credits(r.source for g in (a, b) for r in src.runs_of.get((model, g), [])),
        gpu_pair=gpu_pair_route(a, b),
    )
    title = f"{m.name}: {site.gpus[a].name} vs {site.gpus[b].name}"
    route = compare_route(a, b, model)
    charts = tuple(w["chart"] for w in workloads if w["chart"] is not None)
    page = Page(route, "compare.html", title, view, charts=charts)
    data = to_json(compare_json(model, a, b, rungs, site.tokens))
    return page, DataFile(route + "data.json", data)


def workload_view(
    src: Sources, model: str, sides: list[dict], workload: str, rungs: tuple[Pairing, ...]
) -> dict:
    site = src.site
    summaries: list[WorkloadSummary | None] = [s["summaries"].get(workload) for s in sides]
    measured = [s for s in summaries if s is not None]
    chart = None
    if measured:
        series = [
            (site.gpus[s.gpu].name, src.envelope(s), s.headline.throughput_per_gpu)
            for s in measured
        ]
        chart = Chart(
            "envelopes",
            envelope_chart_data(
                site.models[model].name,
                site.workloads[workload].name,
                site.config.frontier_method,
                site.config.headline_interactivity,
                series,
                list(range(len(series))),
                functools.partial(src.per_row, envelope_series),  # once per plan
                tokens_counted=site.tokens(workload),
            ),
        )
    return {
        "workload": site.workloads[workload],
        "tokens": site.tokens(workload),
        "summaries": summaries,
        "rungs": rungs,
        "chart": chart,
        "notes": notes(src, sides, summaries, rungs),
    }


def _names(sides: list[dict]) -> tuple[str, str]:
    return sides[0]["gpu"].name, sides[1]["gpu"].name


def notes(
    src: Sources,
    sides: list[dict],
    summaries: list[WorkloadSummary | None],
    rungs: tuple[Pairing, ...],
) -> list[str]:
    """What a reader must know to read the ratios: a side not measured, a target one side does
    not reach, precisions or engines that differ."""
    a, b = _names(sides)
    out = []
    for name, other, s in ((a, b, summaries[0]), (b, a, summaries[1])):
        if s is None:
            out.append(f"{name} has no run of this workload: only {other}'s figures are shown.")
    if None in summaries:
        return out
    for name, s in ((a, summaries[0]), (b, summaries[1])):
        missed = [r.target for r in s.ladder if r.throughput_per_gpu is None]
        if missed:
            fastest = max(p.interactivity for c in s.curves for p in c.frontier)
            out.append(
                f"{name} does not reach {display.rate(missed[0])} tok/s per user (its fastest "
                f"config: {display.rate(fastest)}), so there is no ratio at "
                f"{display.human_list([display.rate(t) for t in missed])} tok/s per user."
            )
    for what, differ in (("Precisions", "precision"), ("Engines", "engine")):
        at = [p for p in rungs if getattr(p, f"{differ}s_differ")]
        if not at:
            continue
        where = (
            "at every target both reach"
            if len(at) == sum(p.throughput_ratio is not None for p in rungs)
            else f"at {display.human_list([display.rate(p.target) for p in at])} tok/s per user"
        )
        show = display.precision_name if differ == "precision" else display.engine_name
        used_a = sorted({show(getattr(p.a, differ)) for p in at})
        used_b = sorted({show(getattr(p.b, differ)) for p in at})
        text = (
            f"{what} differ {where}: {a} with {display.human_list(used_a)}, "
            f"{b} with {display.human_list(used_b)}."
        )
        if differ == "precision":
            text += (
                " A lower precision is faster but computes differently, so there the ratio "
                "compares two quantisations as well as two GPUs."
            )
        else:
            text += " Each GPU is shown with its best engine measured at each target."
        out.append(text)
    return out


def verdict_workload(src: Sources, a: Iterable[str], b: Iterable[str]) -> str | None:
    """The workload a comparison's verdict reads, of the workloads each GPU ran: the default
    if both ran it, else the first (by slug) they both ran; None where they share none."""
    default = src.site.config.default_workload
    both = sorted(set(a) & set(b), key=lambda w: (w != default, w))
    return both[0] if both else None


def headline_pairing(
    src: Sources, a: WorkloadSummary | Brief, b: WorkloadSummary | Brief
) -> Pairing:
    """Two GPUs' summaries (or briefs) of one workload at the headline target, as the verdict
    reads them: each side's headline row, a / b of throughput and of cost at every tier."""
    target = src.site.config.headline_interactivity
    return pairing(target, a.headline, b.headline, src.site.pricing.slugs)


def _pick(src: Sources, sides: list[dict], workloads: list[dict]) -> dict | None:
    """The workload the verdict reads (verdict_workload), as the page shows it."""
    name = verdict_workload(src, sides[0]["summaries"], sides[1]["summaries"])
    return next((w for w in workloads if w["workload"].slug == name), None)


def _sentence(
    src: Sources, sides: list[dict], p: Pairing, where: str, counted: str
) -> list[Phrase]:
    """ "<where>, X serves Rx the tokens/s per GPU of Y, at Cx the cost per million tokens";
    `counted`: what the workload's figures count (Site.tokens)."""
    tier = src.tier
    a_first = p.throughput_ratio is not None and p.throughput_ratio >= 1
    lead, trail = (0, 1) if a_first else (1, 0)
    rows = (p.a, p.b)
    r = rows[lead].throughput_per_gpu / rows[trail].throughput_per_gpu
    lead_name, trail_name = sides[lead]["gpu"].name, sides[trail]["gpu"].name
    text = [
        Phrase(f"{where}, "),
        stressed(
            f"{lead_name} serves {display.ratio(r)} the {display.per_gpu(counted)} of {trail_name}"
        ),
    ]
    cost = [(row.cost_per_million_tokens or {}).get(tier) for row in rows]
    if None not in cost:
        text += [
            Phrase(", at "),
            stressed(
                f"{display.ratio(cost[lead] / cost[trail])} the cost per million "
                f"{display.counted(counted)}"
            ),
            Phrase(f" ({src.quote.tier_label} pricing)."),
        ]
    else:
        unpriced = [s["gpu"].name for s, c in zip(sides, cost, strict=True) if c is None]
        has = "has" if len(unpriced) == 1 else "have"
        text.append(
            Phrase(
                f". {display.human_list(unpriced)} {has} no known {src.quote.tier_label} price, "
                "so the costs are not compared."
            )
        )
    return text


def spread(sides: list[dict], rungs: tuple[Pairing, ...], counted: str) -> str:
    """Across every target both GPUs reach: the range of the ratio, or who leads where."""
    both = [p for p in rungs if p.throughput_ratio is not None]
    if len(both) < 2:
        return ""
    a, b = _names(sides)
    ratios = [p.throughput_ratio for p in both if p.throughput_ratio is not None]
    if all(r >= 1 for r in ratios) or all(r <= 1 for r in ratios):
        lead, trail = (a, b) if ratios[0] >= 1 else (b, a)
        shown = sorted(r if lead == a else 1 / r for r in ratios)
        return (
            f"At every target both reach ({display.rate(both[0].target)} to "
            f"{display.rate(both[-1].target)} tok/s per user), {lead} serves "
            f"{display.ratio(shown[0])} to {display.ratio(shown[-1])} the "
            f"{display.per_gpu(counted)} of "
            f"{trail}."
        )
    ahead_a = [display.rate(p.target) for p in both if (p.throughput_ratio or 0) > 1]
    ahead_b = [display.rate(p.target) for p in both if (p.throughput_ratio or 0) < 1]
    return (
        f"Which GPU leads depends on the target: {a} at {display.human_list(ahead_a)}, "
        f"{b} at {display.human_list(ahead_b)} tok/s per user."
    )


def verdict(src: Sources, sides: list[dict], workloads: list[dict]) -> list[Phrase]:
    """The answer at the headline target on the default workload, and what to read if it
    cannot be given there."""
    a, b = _names(sides)
    w = _pick(src, sides, workloads)
    if w is None:
        ran = [
            f"{s['gpu'].name} on {display.human_list(sorted(s['summaries']))}"
            if s["summaries"]
            else f"{s['gpu'].name} has no concurrency sweep"
            for s in sides
        ]
        return [
            Phrase(
                f"No workload was measured on both GPUs ({'; '.join(ran)}), so they cannot be "
                "compared."
            )
        ]
    name = w["workload"].name
    target = src.site.config.headline_interactivity
    at = headline_pairing(src, *w["summaries"])
    counted = w["tokens"]
    after = Phrase(" " + spread(sides, w["rungs"], counted))
    if at.throughput_ratio is not None:
        where = f"At {display.rate(target)} tok/s per user on {name}"
        return [*_sentence(src, sides, at, where, counted), after]
    reached = [
        s["gpu"].name for s, row in zip(sides, (at.a, at.b), strict=True) if row.throughput_per_gpu
    ]
    if reached:
        only = 0 if at.a.throughput_per_gpu is not None else 1
        row = at.a if only == 0 else at.b
        text = [
            Phrase(f"At {display.rate(target)} tok/s per user on {name}, "),
            stressed(f"only {reached[0]} reaches the target"),
            Phrase(
                f": {display.tokens(row.throughput_per_gpu)} {display.per_gpu(counted)}; no "
                f"{b if only == 0 else a} config is that fast."
            ),
        ]
    else:
        text = [Phrase(f"Neither GPU reaches {display.rate(target)} tok/s per user on {name}.")]
    both = [p for p in w["rungs"] if p.throughput_ratio is not None]
    if both:
        where = f"At {display.rate(both[-1].target)} tok/s per user, the fastest target both reach"
        text += [Phrase(" "), *_sentence(src, sides, both[-1], where, counted)]
    return [*text, after]


def description(src: Sources, model: str, sides: list[dict], said: list[Phrase]) -> str:
    a, b = _names(sides)
    text = (
        f"{src.site.models[model].name} on {a} and {b} side by side: tokens/s per GPU and $ per "
        "million tokens at every per-user target, and their ratio."
    )
    return f"{text} {plain(said)}"


__all__ = [
    "CompareView",
    "compare_outputs_of",
    "compared",
    "headline_pairing",
    "verdict_workload",
]
