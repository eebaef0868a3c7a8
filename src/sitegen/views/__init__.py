"""The page plan: view builders, one per page kind, each returning a page with a typed view.

`plan_jobs` lists what the build emits as jobs: each names the outputs of one view builder
(a page and its data file, say) and carries its key, the digest of everything the builder
reads (views.keys). A job runs only when its outputs are needed anew; `plan_site` runs them
all. Charts are drawn by a step of their own (charts.step), templates render the views.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import jinja2

from ..content import Content
from ..records import Problems, Site
from ..runs import run_route
from ..tables import WorkloadSummary
from .catalog import gpu_page
from .compare import compare_outputs_of, compared
from .copy_pages import content_page, not_found_page
from .keys import Keys
from .model import model_outputs
from .overview import overview_outputs
from .page import DataFile, Page, Plan, Quote, View
from .pair import pair_outputs
from .run import run_outputs
from .share import Share, share_jobs
from .sources import Sources, compare_route

Made = tuple[list[Page], list[DataFile]]


class Job(NamedTuple):  # a tuple: a big site's plan makes 38,600 each build
    """One view builder's outputs: `make` builds them; `key` says when they change."""

    name: str  # unique in a plan, the same from build to build
    key: str
    make: Callable[[], Made]
    # False where making it never reads a pair's summaries or briefs (a run's report): such
    # jobs can be made by workers forked before the summaries are (making.make_all)
    reads_summaries: bool = True


def plan_jobs(src: Sources, keys: Keys) -> list[Job]:
    """Every job of the site, in output order; nothing is built yet."""
    site, content = src.site, src.content
    share = Share(src)
    jobs = [
        Job(
            "overview",
            keys.of("overview", "index.html", sorted(keys.pair(*k) for k in src.pair_keys)),
            lambda: _one(*overview_outputs(src), share.overview),
        )
    ]
    for model, gpu in src.pair_keys:
        key = keys.of(
            "pair",
            "pair.html",
            keys.pair(model, gpu),
            keys.faq,
            keys.copy(content.pairs.get((model, gpu))),
            src.gpus_of(model),
        )
        jobs.append(
            Job(
                f"pair {model} {gpu}",
                key,
                lambda m=model, g=gpu: _one(
                    *pair_outputs(src, m, g), lambda p: share.pair(p, m, g)
                ),
            )
        )
    for model in src.models:
        key = keys.of(
            "model",
            "model.html",
            [keys.pair(model, g) for g in src.gpus_of(model)],
            keys.copy(content.models.get(model)),
        )
        jobs.append(
            Job(
                f"model {model}",
                key,
                lambda m=model: _one(*model_outputs(src, m), lambda p: share.model(p, m)),
            )
        )
    for gpu in src.gpus:
        pairs = [keys.pair(m, g) for m, g in src.pair_keys if g == gpu]
        # its comparison links: every other GPU of each of its models
        others = [src.gpus_of(m) for m, g in src.pair_keys if g == gpu]
        key = keys.of("gpu", "gpu.html", pairs, others, keys.copy(content.gpus.get(gpu)))
        jobs.append(Job(f"gpu {gpu}", key, lambda g=gpu: ([share.gpu(gpu_page(src, g), g)], [])))
    for page_model, a, b in compared(src):
        key = keys.of("compare", "compare.html", keys.pair(page_model, a), keys.pair(page_model, b))
        jobs.append(
            Job(
                f"compare {page_model} {a} {b}",
                key,
                lambda m=page_model, a=a, b=b: _one(
                    *compare_outputs_of(src, m, a, b), lambda p: share.compare(p, m, a, b)
                ),
            )
        )
    for name, copy in sorted(content.pages.items()):
        key = keys.of("content", "content.html", keys.copy(copy))
        jobs.append(
            Job(f"content {name}", key, lambda n=name: ([share.content(content_page(src, n))], []))
        )
    for run in site.runs:
        key = keys.of("run", "run.html", keys.run(run), keys.copy(content.runs.get(run.id)))
        jobs.append(
            Job(
                f"run {run_route(run.id)}",
                key,
                lambda r=run: _one(*run_outputs(src, r), lambda p: share.run(p, r.model, r.gpu)),
                reads_summaries=False,
            )
        )
    jobs.extend(share_jobs(src, keys, Job))
    jobs.append(Job("404", keys.of("404", "404.html"), lambda: ([not_found_page()], [])))
    return jobs


def _one(
    page: Page, files: DataFile | list[DataFile], extras: Callable[[Page], Page] = lambda p: p
) -> Made:
    """One page and its files; `extras` adds what makes it travel (views/share.py)."""
    return [extras(page)], files if isinstance(files, list) else [files]


def run_jobs(jobs: Iterable[Job]) -> Plan:
    plan = Plan()
    for job in jobs:
        pages, files = job.make()
        plan.pages.extend(pages)
        plan.files.extend(files)
    return plan


def plan_site(
    site: Site,
    pairs: dict[tuple[str, str], list[WorkloadSummary]],
    content: Content,
    env: jinja2.Environment,
) -> tuple[Plan, Problems]:
    """Every page and data file of the site, all built, and the problems editors' copy raised."""
    src = Sources(site, pairs, content)
    plan = run_jobs(plan_jobs(src, Keys(src, env, sorted(content.pages))))
    return plan, src.problems


__all__ = [
    "DataFile",
    "Job",
    "Keys",
    "Page",
    "Plan",
    "Quote",
    "Sources",
    "View",
    "compare_route",
    "plan_jobs",
    "plan_site",
    "run_jobs",
]
