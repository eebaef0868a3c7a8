"""The model x GPU page: quick answer, ladder, costs, charts, FAQ; and its data.json."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..calc.sources import Disagreement
from ..calc.tables import WorkloadSummary
from ..charts import Chart, frontier_chart_data, history_chart_data, history_rows
from ..charts.series import strongest
from ..records import MatrixRun, Run
from ..records.credits import Credit, grouped_credits
from ..render.content import CopyError, faq_applies, fill, render_copy
from ..render.display import counted, dollars, per_gpu, rate, tokens
from . import faq
from .changes import pair_section
from .datafiles import curve_points, pair_json, pair_route, rung_json, to_json
from .jsonld import faq_jsonld, plain
from .page import DataFile, Page, Quote, View
from .run import matrix_summary
from .sidebyside import disagreements_json, pair_disagreements, pair_sources, workload_sources
from .sources import Sources, compare_route


@dataclass(frozen=True)
class PairView(View):
    model: Any
    gpu: Any
    # per workload: summary, workload, faq, chart, chart_data (its curves and their points,
    # each with its figures as the chart's tips write them), history and history_chart
    workloads: list[dict]
    main: WorkloadSummary | None  # the default workload's summary, if measured
    runs: list[Run]  # the runs the main ladder reads and the matrices, newest first
    older_runs: int  # the pair's other runs: on its workloads' pages and in their histories
    credits: list[Credit]  # who measured the runs, linked where the importers know its site
    matrices: list
    illustrative: bool
    prices: Any
    quote: Quote
    intro: Markup | None
    faq: list[faq.Entry]
    faq_jsonld: Markup
    compare: list[tuple[Any, str]]  # the comparisons with the model's other GPUs: (GPU, route)
    description: str
    badge: dict | None = None  # the README badge: path, markdown (views/share.py)
    embed: str | None = None  # the absolute address of its embed, where it has one (share.py)
    changes: dict | None = None  # the "What changed" section (views/changes.py pair_section)
    # where its workloads have several sources: each source's row and where they disagree
    sources: dict | None = None


def placeholders(src: Sources, model: str, gpu: str, summary: WorkloadSummary | None) -> dict:
    """What an editor's placeholders can read on a model x GPU page."""
    site = src.site
    context: dict[str, Any] = {
        "model": site.models[model],
        "gpu": site.gpus[gpu],
        "site": src.site_values(),
    }
    if summary is not None:
        head = summary.headline
        context.update(
            workload=site.workloads[summary.workload],
            headline={
                "throughput_per_gpu": head.throughput_per_gpu,
                "cost_per_million_tokens": (head.cost_per_million_tokens or {}).get(src.tier),
                "costs": head.cost_per_million_tokens or {},
                "interactivity": head.target,
                "tier": src.tier,
                "engine": head.engine,
                "precision": head.precision,
                "tokens": summary.tokens,
            },
            ladder=[rung_json(r) for r in summary.ladder],
            peak_throughput_per_gpu=summary.peak_throughput_per_gpu,
            configs=summary.configs,
            last_date=summary.last_date.isoformat(),
        )
    return context


def frontier_chart(src: Sources, summary: WorkloadSummary, points: list[list[dict]]) -> dict:
    """The frontier chart of one workload and its data. `points`: each curve's points
    (curve_points)."""
    strong = strongest(src.envelope(summary).leaders())
    data = frontier_chart_data(src.site, summary, strong, points)
    return {"chart": Chart("frontier", data), "chart_data": data}


def history_chart(src: Sources, summary: WorkloadSummary) -> dict:
    """A workload's history rows and, where it has older runs, their chart."""
    rows = history_rows(summary)
    chart = None
    if rows:
        strong = strongest(src.envelope(summary).leaders())
        chart = Chart("history", history_chart_data(src.site, summary, rows, strong))
    return {"history": rows, "history_chart": chart}


def workload_route(model: str, gpu: str, workload: str) -> str:
    """The page of one workload of a pair (docs/pages.md, *Workload pages*)."""
    return f"{pair_route(model, gpu)}{workload}/"


def workload_ladder(
    src: Sources, summary: WorkloadSummary, found: Sequence[Disagreement] = ()
) -> dict:
    """What the pair page shows of a workload other than its main one: its ladder, who
    measured it, and where its own page is (`route`). `found`: the pair's disagreements."""
    own = workload_route(summary.model, summary.gpu, summary.workload)
    return {
        "summary": summary,
        "workload": src.site.workloads[summary.workload],
        "route": own,
        "page": own,
        **workload_sources(src, summary, found),
    }


def workload_view(
    src: Sources,
    model: str,
    gpu: str,
    summary: WorkloadSummary,
    points: list[list[dict]],
    on_pair_page: bool = False,
    found: Sequence[Disagreement] = (),
) -> dict:
    """A workload in full: its ladder, who measured it, chart, points, limit and history.
    `route`: the page that shows this view (the pair page for its main workload there);
    `page`: the workload's own page, which also has its history (the pair page only links to
    it, so its chart is not made there). `found`: the pair's disagreements."""
    own = workload_route(model, gpu, summary.workload)
    if on_pair_page:
        history = {"history": history_rows(summary), "history_chart": None}
    else:
        history = history_chart(src, summary)
    return {
        "summary": summary,
        "workload": src.site.workloads[summary.workload],
        "route": pair_route(model, gpu) if on_pair_page else own,
        "page": own,
        **frontier_chart(src, summary, points),
        **history,
        **limit_at_headline(summary),
        **workload_sources(src, summary, found),
    }


@dataclass(frozen=True)
class WorkloadView(View):
    model: Any
    gpu: Any
    w: dict  # workload_view
    workloads: list[dict]  # [w]: what the shared partials read
    runs: list[Run]  # the runs its ladder reads, newest first
    prices: Any
    quote: Quote
    description: str


def workload_pages(src: Sources, model: str, gpu: str) -> list[Page]:
    """The page of each workload of a pair: its ladder, chart, every measured config, the
    bandwidth limit, its history and its runs. The pair page shows all of the main workload's
    but its history, so that one has a page only where it has a history."""
    site = src.site
    summaries = src.summaries(model, gpu)
    found = pair_disagreements(src, summaries)
    if summaries and not history_rows(summaries[0]):
        summaries = summaries[1:]
    pages = []
    for summary, points in zip(summaries, curve_points(summaries), strict=True):
        w = workload_view(src, model, gpu, summary, points, found=found)
        m, g = site.models[model], site.gpus[gpu]
        title = f"{m.name} on {g.name}: {w['workload'].name}"
        view = WorkloadView(
            model=m,
            gpu=g,
            w=w,
            workloads=[w],
            runs=sorted(
                (r for r in src.runs_of.get((model, gpu), []) if r.id in summary.current_runs),
                key=lambda r: r.date,
                reverse=True,
            ),
            prices=site.pricing.for_gpu(gpu),
            quote=src.quote,
            description=f"{title}: throughput at every interactivity target, every measured "
            "config, the bandwidth limit and the history.",
        )
        charts = tuple(c for c in (w["chart"], w["history_chart"]) if c is not None)
        pages.append(
            Page(
                w["route"],
                "pair_workload.html",
                title,
                view,
                lastmod=summary.last_date.isoformat(),
                charts=charts,
            )
        )
    return pages


def limit_at_headline(summary: WorkloadSummary) -> dict:
    """The bandwidth limit at the headline target and the headline's share of it."""
    at = summary.limit.throughput_at(summary.headline.target) if summary.limit else None
    head = summary.headline.throughput_per_gpu
    share = head / at if at and head is not None else None
    return {"limit_at_headline": at, "limit_share": share}


def compare_links(src: Sources, model: str, gpu: str) -> list[tuple[Any, str]]:
    """The comparisons of this pair's GPU with each other GPU of the model: (other GPU,
    route)."""
    return [
        (src.site.gpus[other], compare_route(gpu, other, model))
        for other in src.gpus_of(model)
        if other != gpu
    ]


def editors_faq(src: Sources, model: str, gpu: str, values: dict) -> list[faq.Entry]:
    """The editors' FAQ entries that apply to this pair, placeholders filled."""
    entries = []
    for copy in src.content.faq:
        if faq_applies(copy, model, gpu):
            try:
                question = fill(copy, str(copy.meta["question"]), values)
                answer = render_copy(copy, values)
            except CopyError as exc:
                src.problems.add(exc.problem)
                continue
            entries.append(faq.Entry(question, answer, plain(answer)))
    return entries


def pair_outputs(src: Sources, model: str, gpu: str) -> tuple[Page, DataFile]:
    """The pair's page and its data.json, each curve's points read once for both."""
    summaries = src.summaries(model, gpu)
    points = curve_points(summaries)
    found = pair_disagreements(src, summaries)
    data = pair_json(model, gpu, summaries, src.tier, points, disagreements_json(found))
    page = pair_page(src, model, gpu, points, found)
    return page, DataFile(pair_route(model, gpu) + "data.json", to_json(data))


def pair_page(
    src: Sources,
    model: str,
    gpu: str,
    points: list[list[list[dict]]],
    found: Sequence[Disagreement] = (),
) -> Page:
    """The model x GPU page; `points`: its summaries' curves' points (curve_points);
    `found`: where its sources disagree (sidebyside.pair_disagreements)."""
    site = src.site
    summaries = src.summaries(model, gpu)
    main = summaries[0] if summaries else None
    values = placeholders(src, model, gpu, main)
    runs = src.runs_of.get((model, gpu), [])
    # the main workload in full; the others' ladders, their charts on pages of their own
    workloads = [
        workload_view(src, model, gpu, s, of_summary, on_pair_page=True, found=found)
        if i == 0
        else workload_ladder(src, s, found)
        for i, (s, of_summary) in enumerate(zip(summaries, points, strict=True))
    ]
    sources = sorted({r.source for r in runs if main and r.id in main.current_runs})
    generated = (
        faq.generated(
            site.models[model],
            site.gpus[gpu],
            site.workloads[main.workload],
            main,
            site.pricing,
            src.tier,
            sources,
        )
        if main
        else []
    )
    questions = generated + editors_faq(src, model, gpu, values)
    # the runs the main ladder reads and the matrices; the other workloads' pages list theirs,
    # and each workload's history its older runs
    current = set(main.current_runs) if main else set()
    shown = [r for r in runs if r.id in current or isinstance(r, MatrixRun)]
    view = PairView(
        model=site.models[model],
        gpu=site.gpus[gpu],
        workloads=workloads,
        main=main,
        runs=sorted(shown, key=lambda r: r.date, reverse=True),
        older_runs=len(runs) - len(shown),
        credits=grouped_credits(r.source for r in runs),
        matrices=[matrix_summary(r) for r in runs if isinstance(r, MatrixRun)],
        illustrative=any(r.illustrative for r in runs if main and r.id in main.current_runs),
        prices=site.pricing.for_gpu(gpu),
        quote=src.quote,
        intro=src.copy(src.content.pairs.get((model, gpu)), values),
        faq=questions,
        faq_jsonld=faq_jsonld(questions),
        compare=compare_links(src, model, gpu),
        description=description(src, model, gpu, main),
        changes=pair_section(src, model, gpu) if main else None,
        sources=pair_sources(src, summaries, found),
    )
    charts = tuple(w["chart"] for w in workloads[:1])  # the history is on the workload's page
    return Page(
        pair_route(model, gpu),
        "pair.html",
        f"Running {site.models[model].name} on {site.gpus[gpu].name}",
        view,
        lastmod=main.last_date.isoformat() if main else None,
        charts=charts,
    )


def description(src: Sources, model: str, gpu: str, main: WorkloadSummary | None) -> str:
    m, g = src.site.models[model], src.site.gpus[gpu]
    if main is None or main.headline.throughput_per_gpu is None:
        return f"Benchmarks of {m.name} on {g.name}: throughput, latency and cost."
    head = main.headline
    cost = (head.cost_per_million_tokens or {}).get(src.tier)
    text = (
        f"{m.name} sustains {tokens(head.throughput_per_gpu)} {per_gpu(main.tokens)} on "
        f"{g.name} at {rate(head.target)} tokens/s per user"
    )
    per_million = f", {dollars(cost)} per million {counted(main.tokens)}."
    return text + (per_million if cost is not None else ".")
