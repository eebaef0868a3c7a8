"""A model's page: every GPU it runs on, per workload one chart of each GPU's envelope, the GPU x
target ladder, the fastest and the cheapest GPU at each target; and its data.json."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..calc import frontier
from ..calc.standings import Field
from ..charts import Chart, envelope_chart_data
from ..charts.series import strongest
from ..records.credits import Credit, grouped_credits
from ..render import display
from .datafiles import model_json, pair_route, to_json
from .page import DataFile, Page, Quote, View
from .phrases import Phrase, stressed
from .sources import Sources, compare_route


@dataclass(frozen=True)
class ModelView(View):
    model: Any
    intro: Markup | None
    quote: Quote
    # the default workload's fastest and cheapest at the headline target (views/phrases.py)
    answer: list[Phrase] | None
    workloads: list[dict]  # per workload, the default first (see workload_view)
    matrix_only: list[dict]  # GPUs with matrix runs only: gpu, route
    compare: list[dict]  # per GPU: gpu, links [(other GPU, route)]
    description: str
    credits: list[Credit]  # who measured the runs behind it
    several_sources: bool = False  # measured by more than one: each grid row names its own


def model_outputs(src: Sources, model: str) -> tuple[Page, DataFile]:
    fields = src.fields(model)
    page = model_page(src, model, fields)
    data = to_json(model_json(model, fields, src.site.tokens))
    data = DataFile(f"models/{model}/data.json", data)
    return page, data


def model_page(src: Sources, model: str, fields: list[Field]) -> Page:
    site = src.site
    m = site.models[model]
    workloads = [workload_view(src, f) for f in fields]
    measured = {g for f in fields for g in f.gpus}
    gpus = [g for g in src.gpus_of(model) if g not in measured]
    ranked = list(fields[0].gpus) if fields else []
    sources = {s for f in fields for g in f.gpus for s in f.summaries[g].sources}
    view = ModelView(
        model=m,
        intro=src.copy(src.content.models.get(model), {"model": m, "site": src.site_values()}),
        quote=src.quote,
        answer=workloads[0]["answer"] if workloads else None,
        workloads=workloads,
        matrix_only=[{"gpu": site.gpus[g], "route": pair_route(model, g)} for g in gpus],
        compare=compare_links(
            src, model, ranked + [g for g in src.gpus_of(model) if g not in ranked]
        ),
        description=description(src, model, fields),
        credits=grouped_credits(
            r.source for g in src.gpus_of(model) for r in src.runs_of[(model, g)]
        ),
        several_sources=len(sources) > 1,
    )
    charts = tuple(w["chart"] for w in workloads[:1])  # the others' are on their own pages
    return Page(f"models/{model}/", "model.html", f"{m.name} on every GPU", view, charts=charts)


def model_workload_route(model: str, workload: str) -> str:
    """The page of a model's workload other than its main one."""
    return f"models/{model}/workloads/{workload}/"


@dataclass(frozen=True)
class ModelWorkloadView(View):
    model: Any
    w: dict  # workload_view
    quote: Quote
    description: str


def model_workload_pages(src: Sources, model: str) -> list[Page]:
    """The page of each of a model's workloads but its main one: each GPU's envelope as a
    chart and as tables (the model page keeps their answers and grids)."""
    m = src.site.models[model]
    pages = []
    for f in src.fields(model)[1:]:
        w = workload_view(src, f)
        title = f"{m.name} on every GPU: {w['workload'].name}"
        view = ModelWorkloadView(
            model=m,
            w=w,
            quote=src.quote,
            description=f"{title}: each GPU's best tokens/s per GPU at every tokens/s per user.",
        )
        pages.append(Page(w["route"], "model_workload.html", title, view, charts=(w["chart"],)))
    return pages


def compare_links(src: Sources, model: str, gpus: list[str]) -> list[dict]:
    """Each pair of GPUs once, grouped under the first of the two in `gpus` order."""
    site = src.site
    groups = []
    for i, gpu in enumerate(gpus):
        links = [(site.gpus[o], compare_route(gpu, o, model)) for o in gpus[i + 1 :]]
        if links:
            groups.append({"gpu": site.gpus[gpu], "links": links})
    return groups


def workload_view(src: Sources, f: Field) -> dict:
    site = src.site
    gpus = {g: site.gpus[g] for g in f.gpus}
    series = [
        (gpus[g].name, f.envelopes[g], f.summaries[g].headline.throughput_per_gpu) for g in f.gpus
    ]
    strong = strongest([f.gpus.index(g) for g in f.leaders])
    chart = Chart(
        "envelopes",
        envelope_chart_data(
            site.models[f.model].name,
            site.workloads[f.workload].name,
            site.config.frontier_method,
            site.config.headline_interactivity,
            series,
            strong,
            tokens_counted=site.tokens(f.workload),
        ),
    )
    main = src.fields(f.model)[0].workload
    return {
        "workload": site.workloads[f.workload],
        "tokens": site.tokens(f.workload),
        # the page that shows its chart: the model's for its main workload
        "route": f"models/{f.model}/"
        if f.workload == main
        else model_workload_route(f.model, f.workload),
        "field": f,
        "chart": chart,
        "answer": answer(src, f),
        "answers": target_answers(src, f),
        "grid": grid(src, f),
        "unreached": unreached(src, f),
        "best_where": best_where(src, f),
        "winners": winners(src, f),
        "points": envelope_rows(src, f),
    }


def answer(src: Sources, f: Field) -> list[Phrase]:
    """The fastest and the cheapest GPU at the headline target, in a sentence."""
    site, tier = src.site, src.tier
    target = display.rate(site.config.headline_interactivity)
    workload = site.workloads[f.workload].name
    head = f.headline
    if head.best is None:
        return [Phrase(f"No GPU reaches {target} tokens/s per user on the {workload} workload.")]
    row = head.by_gpu[head.best]
    text = [
        Phrase(f"At {target} tokens/s per user on {workload}, "),
        stressed(
            f"{site.gpus[head.best].name} serves the most: "
            f"{display.tokens(row.throughput_per_gpu)} {display.per_gpu(site.tokens(f.workload))}"
        ),
        Phrase(f" ({display.engine_name(row.engine)} {display.precision_name(row.precision)})."),
    ]
    cheap = head.cheapest.get(tier)
    if cheap is not None:
        cost = (head.by_gpu[cheap].cost_per_million_tokens or {})[tier]
        text += [
            Phrase(f" The cheapest per million {display.counted(site.tokens(f.workload))} is "),
            stressed(f"{site.gpus[cheap].name} at {display.dollars(cost)}"),
            Phrase(f" ({src.quote.tier_label} pricing)."),
        ]
    else:
        text.append(
            Phrase(f" No {src.quote.tier_label} price is known for the GPUs that reach it.")
        )
    return text


def target_answers(src: Sources, f: Field) -> list[dict]:
    """Per target: the fastest GPU and its value, the cheapest GPU and its cost (headline tier)."""
    site, tier = src.site, src.tier
    out = []
    for r in f.rungs:
        cheap = r.cheapest.get(tier)
        out.append(
            {
                "target": r.target,
                "best": site.gpus[r.best] if r.best else None,
                "best_row": r.by_gpu[r.best] if r.best else None,
                "cheapest": site.gpus[cheap] if cheap else None,
                "cheapest_cost": (r.by_gpu[cheap].cost_per_million_tokens or {}).get(tier)
                if cheap
                else None,
            }
        )
    return out


def grid(src: Sources, f: Field) -> list[dict]:
    """The GPU x target table: per GPU (best first) its ladder row at every target."""
    site, tier = src.site, src.tier
    rows = []
    for g in f.gpus:
        cells = []
        for r in f.rungs:
            row = r.by_gpu[g]
            cells.append(
                {
                    "row": row,
                    "cost": (row.cost_per_million_tokens or {}).get(tier),
                    "best": r.best == g,
                    "cheapest": r.cheapest.get(tier) == g,
                }
            )
        rows.append(
            {
                "gpu": site.gpus[g],
                "route": pair_route(f.model, g),
                "cells": cells,
                "sources": f.summaries[g].sources,
            }
        )
    return rows


def unreached(src: Sources, f: Field) -> list[str]:
    """Why a GPU's row has dashes: the first target it misses and its fastest config."""
    out = []
    for g in f.gpus:
        missed = [r.target for r in f.rungs if r.by_gpu[g].throughput_per_gpu is None]
        if missed:
            out.append(
                f"No config reaches {display.rate(missed[0])} tok/s per user on "
                f"{src.site.gpus[g].name} (its fastest config: "
                f"{display.rate(f.envelopes[g].end)} tok/s per user)"
                + (", nor any higher target." if len(missed) > 1 else ".")
            )
    return out


def best_where(src: Sources, f: Field) -> str:
    """Which GPU is the best over which range of tokens/s per user, in a sentence."""
    parts = [
        f"{src.site.gpus[g].name} from {display.rate(start)} to {display.rate(end)}"
        for g, start, end in f.best_where
    ]
    if len(parts) == 1:
        g, start, end = f.best_where[0]
        return (
            f"{src.site.gpus[g].name} is the best at every speed measured, from "
            f"{display.rate(start)} to {display.rate(end)} tokens/s per user."
        )
    return f"The best GPU by tokens/s per user: {display.human_list(parts)} tok/s per user."


def _label(curve: frontier.Curve) -> str:
    return f"{display.engine_name(curve.engine)} {display.precision_name(curve.precision)}"


def winners(src: Sources, f: Field) -> list[dict]:
    """Per GPU, which engine and precision make up its envelope where."""
    out = []
    for g in f.gpus:
        env = f.envelopes[g]
        out.append(
            {
                "gpu": src.site.gpus[g],
                "stretches": [(_label(env.curves[s.curve]), s.start, s.end) for s in env.stretches],
            }
        )
    return out


def envelope_rows(src: Sources, f: Field) -> list[dict]:
    """Every point of every GPU's envelope: the chart as a table."""
    out = []
    for g in f.gpus:
        env = f.envelopes[g]
        for p in env.points():
            curve = env.curves[p.curve]
            measured = any(
                q.interactivity == p.interactivity and q.throughput_per_gpu == p.throughput_per_gpu
                for q in curve.frontier
            )
            out.append(
                {
                    "gpu": src.site.gpus[g],
                    "label": _label(curve),
                    "interactivity": p.interactivity,
                    "throughput_per_gpu": p.throughput_per_gpu,
                    "measured": measured,
                }
            )
    return out


def description(src: Sources, model: str, fields: list[Field]) -> str:
    m = src.site.models[model]
    names = [src.site.gpus[g].name for g in src.gpus_of(model)]
    text = (
        f"{m.name} on {display.plural(len(names), 'GPU')} ({', '.join(names)}): each GPU's best "
        f"tokens/s per GPU at every tokens/s per user, the fastest and the cheapest per target."
    )
    if fields:
        f = fields[0]
        head = f.summaries[f.gpus[0]].headline
        if head.throughput_per_gpu is not None:
            text += (
                f" Fastest at {display.rate(head.target)} tokens/s per user: "
                f"{src.site.gpus[f.gpus[0]].name}, {display.tokens(head.throughput_per_gpu)} "
                f"{display.per_gpu(src.site.tokens(f.workload))} "
                f"({src.site.workloads[f.workload].name})."
            )
    return text


__all__ = ["ModelView", "model_outputs", "model_page"]
