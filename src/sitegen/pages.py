"""The page plan: every output path with its template and context, and the data files."""

from __future__ import annotations

import dataclasses
import functools
import itertools
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from . import display, faq
from .charts import (
    ChartCache,
    draw_frontier,
    draw_history,
    frontier_chart_data,
    history_rows,
    run_chart_data,
)
from .charts.history_chart import history_chart_data
from .content import Content, CopyError, faq_applies, fill, markdown, render_copy
from .datafiles import (
    leaderboard_csv,
    leaderboard_rows,
    pair_json,
    pair_route,
    run_json,
    rung_json,
    to_json,
)
from .jsonhtml import json_for_html
from .records import MatrixRun, Problems, Run, Site, SweepRun
from .runs import matrix_report, matrix_summary, run_route, sweep_report
from .tables import WorkloadSummary


@dataclass(frozen=True)
class Page:
    """One HTML page. `route` is its folder under the output ("" for the home page)."""

    route: str
    template: str
    title: str
    context: dict = field(default_factory=dict)
    filename: str = "index.html"
    in_sitemap: bool = True
    lastmod: str | None = None

    @property
    def path(self) -> str:
        return self.route + self.filename


@dataclass(frozen=True)
class DataFile:
    path: str
    text: str


@dataclass
class Plan:
    pages: list[Page] = field(default_factory=list)
    files: list[DataFile] = field(default_factory=list)


def compare_route(gpu_a: str, gpu_b: str, model: str) -> str:
    a, b = sorted((gpu_a, gpu_b))
    return f"compare/{a}-vs-{b}/{model}/"


class Planner:
    """Builds the plan; content placeholders that fail are collected as problems."""

    def __init__(
        self,
        site: Site,
        pairs: dict[tuple[str, str], list[WorkloadSummary]],
        content: Content,
        problems: Problems,
        charts: ChartCache | None = None,
    ) -> None:
        self.charts = charts if charts is not None else ChartCache(None)
        self.site = site
        self.pairs = pairs
        self.content = content
        self.problems = problems
        self.tier = site.config.headline_tier
        self.tiers = {t.slug: t.label for t in site.pricing.tiers}
        # what every page that quotes the headline point needs beside its own values
        self.headline_context = {
            "tier": self.tier,
            "tier_label": self.tiers.get(self.tier, self.tier),
            "tiers": site.pricing.tiers,
            "pricing": site.pricing,
            "interactivity": site.config.headline_interactivity,
        }

    def copy(self, copy, context: dict) -> Markup | None:
        if copy is None:
            return None
        try:
            return render_copy(copy, context)
        except CopyError as exc:
            self.problems.add(exc.problem)
            return None

    def placeholders(self, model: str, gpu: str, summary: WorkloadSummary | None) -> dict:
        """What an editor's placeholders can read on a model x GPU page."""
        site = self.site
        context: dict[str, Any] = {
            "model": site.models[model],
            "gpu": site.gpus[gpu],
            "site": {"title": site.config.title},
        }
        if summary is not None:
            head = summary.headline
            context.update(
                workload=site.workloads[summary.workload],
                headline={
                    "throughput_per_gpu": head.throughput_per_gpu,
                    "cost_per_million_tokens": (head.cost_per_million_tokens or {}).get(self.tier),
                    "costs": head.cost_per_million_tokens or {},
                    "interactivity": head.target,
                    "tier": self.tier,
                    "engine": head.engine,
                    "precision": head.precision,
                },
                ladder=[rung_json(r) for r in summary.ladder],
                peak_throughput_per_gpu=summary.peak_throughput_per_gpu,
                configs=summary.configs,
                last_date=summary.last_date.isoformat(),
            )
        return context

    # the model x GPU page

    def pair_page(self, model: str, gpu: str) -> Page:
        site = self.site
        summaries = self.pairs.get((model, gpu), [])
        main = summaries[0] if summaries else None
        values = self.placeholders(model, gpu, main)
        runs = self.runs_of.get((model, gpu), [])
        workloads = []
        for s in summaries:
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
                        self.tier,
                        sources,
                    ),
                    **self.workload_charts(s),
                }
            )
        editors = []
        for copy in self.content.faq:
            if faq_applies(copy, model, gpu):
                try:
                    question = fill(copy, str(copy.meta["question"]), values)
                    answer = render_copy(copy, values)
                except CopyError as exc:
                    self.problems.add(exc.problem)
                    continue
                editors.append(faq.Entry(question, answer, _plain(answer)))
        questions = (workloads[0]["faq"] if workloads else []) + editors
        title = f"Running {site.models[model].name} on {site.gpus[gpu].name}"
        context = {
            "model": site.models[model],
            "gpu": site.gpus[gpu],
            "workloads": workloads,
            "main": main,
            "runs": runs,
            "matrices": [matrix_summary(r) for r in runs if isinstance(r, MatrixRun)],
            "illustrative": any(r.illustrative for r in runs if main and r.id in main.current_runs),
            "prices": site.pricing.for_gpu(gpu),
            **self.headline_context,
            "intro": self.copy(self.content.pairs.get((model, gpu)), values),
            "faq": questions,
            "faq_jsonld": _faq_jsonld(questions),
            "compare": [
                (other, compare_route(gpu, other, model))
                for other in self.gpus_of(model)
                if other != gpu
            ],
            "description": _pair_description(site, model, gpu, main, self.tier),
            "gpus": site.gpus,  # names for the compare links
        }
        return Page(
            pair_route(model, gpu),
            "pair.html",
            title,
            context,
            lastmod=main.last_date.isoformat() if main else None,
        )

    def workload_charts(self, summary: WorkloadSummary) -> dict:
        """The frontier chart of one workload and, where it has older runs, its history."""
        data = frontier_chart_data(self.site, summary)
        out: dict[str, Any] = {
            "chart": Markup(self.charts.get_or_draw("frontier", data, draw_frontier)),
            "chart_data": data,
            "history": history_rows(summary),
            "history_chart": None,
        }
        if out["history"]:
            history = history_chart_data(self.site, summary, out["history"])
            out["history_chart"] = Markup(self.charts.get_or_draw("history", history, draw_history))
        return out

    def run_page(self, run: Run) -> Page:
        """The report of one run: a matrix's grids or a sweep's configs, with the write-up."""
        site = self.site
        if isinstance(run, SweepRun):  # its configs made from the table once for this page
            run = dataclasses.replace(run, configs=tuple(run.configs))
        model, gpu = site.models[run.model], site.gpus[run.gpu]
        chart = None
        if isinstance(run, MatrixRun):
            report: Any = matrix_report(run, site)
            title = run.title
        else:
            report = sweep_report(run, site)
            engine = f"{display.engine_name(run.engine)} {display.precision_name(run.precision)}"
            title = f"{model.name} on {gpu.name}, {engine}, measured by {run.source}"
            if (data := run_chart_data(site, run)) is not None:
                chart = Markup(self.charts.get_or_draw("frontier", data, draw_frontier))
        values = {"model": model, "gpu": gpu, "run": run, "site": {"title": site.config.title}}
        return Page(
            run_route(run.id),
            "run.html",
            title,
            {
                "report": report,
                "chart": chart,
                "model": model,
                "gpu": gpu,
                "pair_route": pair_route(run.model, run.gpu),
                "writeup": self.copy(self.content.runs.get(run.id), values),
                "description": f"{title}, {run.date.isoformat()}: {report.facts}",
            },
            lastmod=run.date.isoformat(),
        )

    def gpus_of(self, model: str) -> list[str]:
        return self.gpus_by_model.get(model, [])

    @functools.cached_property
    def gpus_by_model(self) -> dict[str, list[str]]:
        """model -> the GPUs it has runs on, sorted (pair keys are sorted already)."""
        out: dict[str, list[str]] = {}
        for model, gpu in self.pair_keys:
            out.setdefault(model, []).append(gpu)
        return out

    @functools.cached_property
    def runs_of(self) -> dict[tuple[str, str], list[Run]]:
        """(model, gpu) -> its runs, in the site's order."""
        out: dict[tuple[str, str], list[Run]] = {}
        for run in self.site.runs:
            out.setdefault((run.model, run.gpu), []).append(run)
        return out

    @functools.cached_property
    def pair_keys(self) -> list[tuple[str, str]]:
        """Every model x GPU with a run of either kind."""
        keys = set(self.pairs) | {(r.model, r.gpu) for r in self.site.runs}
        return sorted(keys)

    def best_first(self, keys: list[tuple[str, str]]) -> list[dict]:
        """Rows for lists of pairs: the default workload's headline, best first."""
        rows = []
        for model, gpu in keys:
            summaries = self.pairs.get((model, gpu), [])
            main = summaries[0] if summaries else None
            rows.append(
                {
                    "model": self.site.models[model],
                    "gpu": self.site.gpus[gpu],
                    "summary": main,
                    "route": pair_route(model, gpu),
                    "workload": self.site.workloads[main.workload] if main else None,
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

    def plan(self) -> Plan:
        site = self.site
        plan = Plan()
        keys = self.pair_keys
        rows = leaderboard_rows(site, self.pairs)
        plan.pages.append(self.index_page(rows, keys))
        for model, gpu in keys:
            plan.pages.append(self.pair_page(model, gpu))
            plan.files.append(
                DataFile(
                    pair_route(model, gpu) + "data.json",
                    to_json(pair_json(model, gpu, self.pairs.get((model, gpu), []), self.tier)),
                )
            )
        for model in sorted({m for m, _ in keys}):
            plan.pages.append(self.model_page(model, keys))
        for gpu in sorted({g for _, g in keys}):
            plan.pages.append(self.gpu_page(gpu, keys))
        plan.pages.extend(self.compare_pages(keys))
        for name, copy in sorted(self.content.pages.items()):
            body = self.copy(copy, {"site": {"title": site.config.title}})
            title = str(copy.meta.get("title") or name.replace("-", " ").capitalize())
            plan.pages.append(
                Page(f"{name}/", "content.html", title, {"body": body, "meta": copy.meta})
            )
        for run in site.runs:
            page = self.run_page(run)
            plan.pages.append(page)
            data = run_json(page.context["report"].run)
            plan.files.append(DataFile(run_route(run.id) + "data.json", to_json(data)))
        plan.pages.append(
            Page("", "404.html", "Page not found", {}, filename="404.html", in_sitemap=False)
        )
        plan.files.append(DataFile("data/leaderboard.json", to_json(rows)))
        plan.files.append(DataFile("data/leaderboard.csv", leaderboard_csv(site, rows)))
        return plan

    def index_page(self, rows: list[dict], keys: list[tuple[str, str]]) -> Page:
        """The overview: one board per workload (the default first), each ranked on its own.

        Throughput on one workload says nothing about another, so rows of different
        workloads are never ranked against each other.
        """
        site = self.site
        default = site.config.default_workload
        boards = []
        for workload in sorted({r["workload"] for r in rows}, key=lambda w: (w != default, w)):
            board = [
                dict(r, model_obj=site.models[r["model"]], gpu_obj=site.gpus[r["gpu"]])
                for r in rows
                if r["workload"] == workload
            ]
            boards.append({"workload": site.workloads[workload], "rows": board})
        models = sorted({m for m, _ in keys}, key=lambda m: site.models[m].name)
        gpus = sorted({g for _, g in keys}, key=lambda g: site.gpus[g].name)
        leaders = [
            f"{b['rows'][0]['model_obj'].name} on {b['rows'][0]['gpu_obj'].name} at "
            f"{display.tokens(b['rows'][0]['throughput_per_gpu'])} tokens/s per GPU "
            f"({b['workload'].name})"
            for b in boards
            if b["rows"][0]["throughput_per_gpu"] is not None
        ]
        description = site.config.description or (
            f"Tokens/s per GPU and $ per million tokens at "
            f"{display.rate(site.config.headline_interactivity)} tokens/s per user: "
            f"{display.plural(len(models), 'model')} on {display.plural(len(gpus), 'GPU type')}, "
            "measured by concurrency sweeps and ranked per workload."
            + (f" Best: {display.human_list(leaders)}." if leaders else "")
        )
        return Page(
            "",
            "index.html",
            site.config.title,
            {
                "boards": boards,
                "only_matrix": [k for k in keys if k not in self.pairs],
                "models": [site.models[m] for m in models],
                "gpus": [site.gpus[g] for g in gpus],
                **self.headline_context,
                "description": description,
            },
        )

    def model_page(self, model: str, keys: list[tuple[str, str]]) -> Page:
        m = self.site.models[model]
        values = {"model": m, "site": {"title": self.site.config.title}}
        return Page(
            f"models/{model}/",
            "model.html",
            f"{m.name} on every GPU",
            {
                "model": m,
                "rows": self.best_first([k for k in keys if k[0] == model]),
                "intro": self.copy(self.content.models.get(model), values),
                **self.headline_context,
            },
        )

    def gpu_page(self, gpu: str, keys: list[tuple[str, str]]) -> Page:
        g = self.site.gpus[gpu]
        values = {"gpu": g, "site": {"title": self.site.config.title}}
        return Page(
            f"gpus/{gpu}/",
            "gpu.html",
            f"Every model on {g.name}",
            {
                "gpu": g,
                "rows": self.best_first([k for k in keys if k[1] == gpu]),
                "intro": self.copy(self.content.gpus.get(gpu), values),
                "prices": self.site.pricing.for_gpu(gpu),
                **self.headline_context,
            },
        )

    def compare_pages(self, keys: list[tuple[str, str]]) -> list[Page]:
        pages = []
        for model in sorted({m for m, _ in keys}):
            gpus = self.gpus_of(model)
            for a, b in itertools.combinations(gpus, 2):
                sides = [
                    {
                        "gpu": self.site.gpus[g],
                        "route": pair_route(model, g),
                        "summaries": {s.workload: s for s in self.pairs.get((model, g), [])},
                    }
                    for g in (a, b)
                ]
                workloads = sorted(
                    set(sides[0]["summaries"]) | set(sides[1]["summaries"]),
                    key=lambda w: (w != self.site.config.default_workload, w),
                )
                m = self.site.models[model]
                pages.append(
                    Page(
                        compare_route(a, b, model),
                        "compare.html",
                        f"{m.name}: {self.site.gpus[a].name} vs {self.site.gpus[b].name}",
                        {
                            "model": m,
                            "sides": sides,
                            "workloads": [self.site.workloads[w] for w in workloads],
                            "targets": self.site.config.targets,
                            **self.headline_context,
                        },
                    )
                )
        return pages


def _plain(html: Markup) -> str:
    return " ".join(Markup(html).striptags().split())


def _faq_jsonld(entries: list[faq.Entry]) -> Markup:
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": e.question,
                "acceptedAnswer": {"@type": "Answer", "text": e.answer_text},
            }
            for e in entries
        ],
    }
    return json_for_html(data, indent=1)


def _pair_description(
    site: Site, model: str, gpu: str, main: WorkloadSummary | None, tier: str
) -> str:
    from .display import dollars, rate, tokens

    m, g = site.models[model], site.gpus[gpu]
    if main is None or main.headline.throughput_per_gpu is None:
        return f"Benchmarks of {m.name} on {g.name}: throughput, latency and cost."
    head = main.headline
    cost = (head.cost_per_million_tokens or {}).get(tier)
    text = (
        f"{m.name} sustains {tokens(head.throughput_per_gpu)} tokens/s per GPU on {g.name} "
        f"at {rate(head.target)} tokens/s per user"
    )
    return text + (f", {dollars(cost)} per million tokens." if cost is not None else ".")


def plan_site(
    site: Site, pairs: dict, content: Content, problems: Problems, cache_charts: bool = True
) -> Plan:
    """The whole plan; charts come from the site's disk cache unless `cache_charts` is off."""
    charts = ChartCache.for_site(site.root) if cache_charts else ChartCache(None)
    plan = Planner(site, pairs, content, problems, charts).plan()
    charts.prune()  # entries no page of this build uses would only pile up
    return plan


__all__ = ["DataFile", "Page", "Plan", "markdown", "plan_site"]
