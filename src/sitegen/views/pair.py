"""The model x GPU page: quick answer, ladder, costs, charts, FAQ; and its data.json."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..calc.tables import WorkloadSummary
from ..charts import Chart, frontier_chart_data, history_chart_data, history_rows
from ..charts.frontier_chart import curve_label
from ..charts.series import strongest
from ..records import MatrixRun, Run
from ..records.credits import Credit, credits_for
from ..render.content import CopyError, faq_applies, fill, render_copy
from ..render.display import dollars, engine_name, percent, precision_name, rate, tokens
from ..render.environment import relative
from ..render.htmlrows import engine_precision, escaped
from . import faq
from .datafiles import curve_points, pair_json, pair_route, rung_json, to_json
from .jsonld import faq_jsonld, plain
from .page import DataFile, Page, Quote, View
from .run_report import matrix_summary, run_route
from .sources import Sources, compare_route


@dataclass(frozen=True)
class PairView(View):
    model: Any
    gpu: Any
    # per workload: summary, workload, faq, chart, chart_data, point_rows (the rows of the
    # chart's points), history, history_chart and history_rows (the table's rows)
    workloads: list[dict]
    main: WorkloadSummary | None  # the default workload's summary, if measured
    runs: list[Run]
    run_rows: Markup  # the table of the runs (htmlrows.py)
    credits: list[Credit]  # who measured the runs, linked where the importers know its site
    matrices: list
    illustrative: bool
    prices: Any
    quote: Quote
    intro: Markup | None
    faq: list[faq.Entry]
    faq_jsonld: Markup
    compare: Markup  # links to the comparisons with the model's other GPUs
    description: str
    badge: dict | None = None  # the README badge: path, markdown (views/share.py)


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
            },
            ladder=[rung_json(r) for r in summary.ladder],
            peak_throughput_per_gpu=summary.peak_throughput_per_gpu,
            configs=summary.configs,
            last_date=summary.last_date.isoformat(),
        )
    return context


def point_rows(chart_data: dict, page_route: str) -> Markup:
    """The table of the chart's points, curve after curve, as its rows (htmlrows.py): each
    measured config with its run's report linked from the page at `page_route`. Figures as
    display.py writes them hold nothing to escape (tests/test_htmlrows.py)."""
    rows = []
    links: dict[tuple[str, str], str] = {}  # (run, date) -> the cell linking it
    for c in chart_data["curves"]:
        curve = escaped(curve_label(c))
        for p in c["points"]:
            run = (p["run"], p["date"])
            if run not in links:
                href = escaped(relative(page_route, run_route(run[0])))
                links[run] = f'<td><a href="{href}">Run of {escaped(run[1])}</a></td></tr>'
            throughput, interactivity, ttft, tpot = p["figures"]  # as the chart's tips say them
            rows.append(
                f'        <tr><th scope="row">{curve}</th><td class="num">{p["concurrency"]}</td>'
                f'<td>{escaped(p["parallelism"])}</td><td class="num">{p["gpus"]}</td>'
                f'<td class="num">{interactivity}</td><td class="num">{throughput}</td>'
                f'<td class="num">{ttft}</td><td class="num">{tpot}</td>{links[run]}'
            )
    return Markup("\n".join(rows))


def workload_charts(src: Sources, summary: WorkloadSummary, points: list[list[dict]]) -> dict:
    """The frontier chart of one workload and, where it has older runs, its history. `points`:
    each curve's points (curve_points)."""
    strong = strongest(src.envelope(summary).leaders())
    data = frontier_chart_data(src.site, summary, strong, points)
    route = pair_route(summary.model, summary.gpu)
    out: dict[str, Any] = {
        "chart": Chart("frontier", data),
        "chart_data": data,
        "point_rows": point_rows(data, route),
        "history": history_rows(summary),
        "history_chart": None,
    }
    if out["history"]:
        history = history_chart_data(src.site, summary, out["history"], strong)
        out["history_chart"] = Chart("history", history)
        out["history_rows"] = history_rows_html(out["history"], route)
    return out


def history_rows_html(history: list[dict], page_route: str) -> Markup:
    """The table of each curve's value on each run date, newest first (htmlrows.py)."""
    lines = []
    for h in history:
        curve = engine_precision(h["engine"], h["precision"])
        for e in reversed(h["entries"]):
            date, runs = escaped(e["date"]), e["runs"]
            value = e["throughput_per_gpu"]
            shown = (
                tokens(value) if value is not None else '<span class="reason">not reached</span>'
            )
            links = ", ".join(
                f'<a href="{escaped(relative(page_route, run_route(r)))}">Run of {date}'
                f"{f' ({i})' if len(runs) > 1 else ''}</a>"
                for i, r in enumerate(runs, start=1)
            )
            lines.append(
                f'      <tr><th scope="row">{date}</th><td>{curve}</td><td class="num">{shown}</td>'
                f'<td class="num">{percent(e["change_percent"])}</td><td>{links}</td></tr>'
            )
    return Markup("\n".join(lines))


def run_rows(runs: list[Run], main: WorkloadSummary | None, page_route: str) -> Markup:
    """The table of every run of the pair, newest first (htmlrows.py)."""
    lines = []
    for r in sorted(runs, key=lambda r: r.date, reverse=True):
        href = escaped(relative(page_route, run_route(r.id)))
        source = escaped(r.source)
        if r.url:
            source = f'<a href="{escaped(r.url)}" rel="nofollow">{source}</a>'
        engine = escaped(engine_name(r.engine)) + (
            f" {escaped(r.engine_version)}" if r.engine_version else ""
        )
        if r.kind == "matrix":
            status = "shown beside the ladder" if main else "matrix run, not ranked"
        else:
            status = "current" if main and r.id in main.current_runs else "history"
        lines += [
            f'      <tr><th scope="row"><a href="{href}">Run of {escaped(r.date)}</a></th>',
            f"        <td>{source}</td>",
            f"        <td>{escaped(r.kind)}</td><td>{engine}</td>",
            f"        <td>{escaped(precision_name(r.precision))}</td>",
            f"        <td>{status}</td></tr>",
        ]
    return Markup("\n".join(lines))


def compare_links(src: Sources, model: str, gpu: str) -> Markup:
    """Links to the comparisons of this pair's GPU with each other GPU of the model."""
    name = escaped(src.site.gpus[gpu].name)
    route = pair_route(model, gpu)
    return Markup(
        ", ".join(
            f'<a href="{escaped(relative(route, compare_route(gpu, other, model)))}">{name} vs '
            f"{escaped(src.site.gpus[other].name)}</a>"
            for other in src.gpus_of(model)
            if other != gpu
        )
    )


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
    data = pair_json(model, gpu, summaries, src.tier, points)
    page = pair_page(src, model, gpu, points)
    return page, DataFile(pair_route(model, gpu) + "data.json", to_json(data))


def pair_page(src: Sources, model: str, gpu: str, points: list[list[list[dict]]]) -> Page:
    """The model x GPU page; `points`: its summaries' curves' points (curve_points)."""
    site = src.site
    summaries = src.summaries(model, gpu)
    main = summaries[0] if summaries else None
    values = placeholders(src, model, gpu, main)
    runs = src.runs_of.get((model, gpu), [])
    workloads = []
    for s, of_summary in zip(summaries, points, strict=True):
        sources = sorted({r.source for r in runs if r.id in s.current_runs})
        workloads.append(
            {
                "summary": s,
                "workload": site.workloads[s.workload],
                "faq": faq.generated(
                    site.models[model],
                    site.gpus[gpu],
                    site.workloads[s.workload],
                    s,
                    site.pricing,
                    src.tier,
                    sources,
                ),
                **workload_charts(src, s, of_summary),
            }
        )
    questions = (workloads[0]["faq"] if workloads else []) + editors_faq(src, model, gpu, values)
    view = PairView(
        model=site.models[model],
        gpu=site.gpus[gpu],
        workloads=workloads,
        main=main,
        runs=runs,
        run_rows=run_rows(runs, main, pair_route(model, gpu)),
        credits=credits_for(r.source for r in runs),
        matrices=[matrix_summary(r) for r in runs if isinstance(r, MatrixRun)],
        illustrative=any(r.illustrative for r in runs if main and r.id in main.current_runs),
        prices=site.pricing.for_gpu(gpu),
        quote=src.quote,
        intro=src.copy(src.content.pairs.get((model, gpu)), values),
        faq=questions,
        faq_jsonld=faq_jsonld(questions),
        compare=compare_links(src, model, gpu),
        description=description(src, model, gpu, main),
    )
    charts = tuple(c for w in workloads for c in (w["chart"], w["history_chart"]) if c is not None)
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
        f"{m.name} sustains {tokens(head.throughput_per_gpu)} tokens/s per GPU on {g.name} "
        f"at {rate(head.target)} tokens/s per user"
    )
    return text + (f", {dollars(cost)} per million tokens." if cost is not None else ".")
