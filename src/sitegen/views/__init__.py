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

from ..calc.tables import WorkloadSummary
from ..records import Problems, Site
from ..render.content import Content
from .catalog import gpu_page
from .changes import changes_outputs
from .compare import compare_outputs_of, compared
from .copy_pages import content_page, not_found_page
from .embed import embed_page
from .gpupair import gpu_pair_outputs
from .keys import Keys
from .llms import table_rows
from .model import model_outputs, model_workload_pages
from .overview import brief_texts, overview_outputs
from .page import DataFile, Page, Plan, Quote, View
from .pair import pair_outputs, workload_pages
from .run import run_outputs, run_route
from .share import Share, share_jobs
from .sources import Sources, compare_route

Made = tuple[list[Page], list[DataFile]]


class Job(NamedTuple):  # a tuple: a big site's plan makes 38,600 each build
    """One view builder's outputs: `make(src)` builds them from a plan's sources (never the
    sources of the plan that listed it: the preview carries unchanged jobs over from one plan
    to the next, views.replan); `key` says when they change."""

    name: str  # unique in a plan, the same from build to build
    key: str
    make: Callable[[Sources], Made]
    # False where making it never reads a pair's summaries or briefs (a run's report): such
    # jobs can be made by workers forked before the summaries are (making.make_all)
    reads_summaries: bool = True


def none_kept(name: str) -> Job | None:
    """A plan's `kept` that keeps no job: every one listed and keyed."""
    return None


def plan_jobs(src: Sources, keys: Keys, kept: Callable[[str], Job | None] = none_kept) -> list[Job]:
    """Every job of the site, in output order; nothing is built yet. `kept(name)` gives the
    last plan's job of that name where it still stands (views.replan), which is then neither
    keyed nor listed again."""
    site, content = src.site, src.content
    jobs = [
        kept("overview")
        or Job(
            "overview",
            keys.of("overview", "index.html", sorted(keys.pair(*k) for k in src.pair_keys)),
            lambda src: _one(*overview_outputs(src), Share(src).overview),
        )
    ]
    jobs.append(
        kept("changes")
        or Job(
            "changes",
            keys.of("changes", "changes.html", sorted(keys.pair(*k) for k in src.pair_keys)),
            lambda src: _one(*changes_outputs(src), Share(src).changes),
        )
    )
    for model, gpu in src.pair_keys:
        name = f"pair {model} {gpu}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of(
                    "pair",
                    "pair.html",
                    keys.pair(model, gpu),
                    keys.faq,
                    keys.copy(content.pairs.get((model, gpu))),
                    src.gpus_of(model),
                ),
                lambda src, m=model, g=gpu: _one(
                    *pair_outputs(src, m, g), lambda p: Share(src).pair(p, m, g)
                ),
            )
        )
    for model, gpu in src.pair_keys:
        name = f"workloads {model} {gpu}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of("workloads", "pair_workload.html", keys.pair(model, gpu)),
                lambda src, m=model, g=gpu: (
                    [Share(src).pair_workload(p, m, g) for p in workload_pages(src, m, g)],
                    [],
                ),
            )
        )
    for model in src.models:
        name = f"model-workloads {model}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of(
                    "model-workloads",
                    "model_workload.html",
                    [keys.pair(model, g) for g in src.gpus_of(model)],
                ),
                lambda src, m=model: (
                    [Share(src).model_workload(p, m) for p in model_workload_pages(src, m)],
                    [],
                ),
            )
        )
    for model in src.models:
        name = f"model {model}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of(
                    "model",
                    "model.html",
                    [keys.pair(model, g) for g in src.gpus_of(model)],
                    keys.copy(content.models.get(model)),
                ),
                lambda src, m=model: _one(*model_outputs(src, m), lambda p: Share(src).model(p, m)),
            )
        )
    for gpu in src.gpus:
        name = f"gpu {gpu}"
        job = kept(name)
        if job is None:
            pairs = [keys.pair(m, g) for m, g in src.pair_keys if g == gpu]
            # its comparison links: every other GPU of each of its models
            others = [src.gpus_of(m) for m, g in src.pair_keys if g == gpu]
            key = keys.of("gpu", "gpu.html", pairs, others, keys.copy(content.gpus.get(gpu)))
            job = Job(name, key, lambda src, g=gpu: ([Share(src).gpu(gpu_page(src, g), g)], []))
        jobs.append(job)
    for page_model, a, b in compared(src):
        name = f"compare {page_model} {a} {b}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of(
                    "compare", "compare.html", keys.pair(page_model, a), keys.pair(page_model, b)
                ),
                lambda src, m=page_model, a=a, b=b: _one(
                    *compare_outputs_of(src, m, a, b), lambda p: Share(src).compare(p, m, a, b)
                ),
            )
        )
    for (a, b), shared in src.gpu_pairs.items():
        name = f"gpu-pair {a} {b}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of(
                    "gpu-pair",
                    "gpu_pair.html",
                    [(m, keys.pair(m, a), keys.pair(m, b)) for m in shared],
                ),
                lambda src, a=a, b=b: _one(
                    *gpu_pair_outputs(src, a, b), lambda p: Share(src).gpu_pair(p, a, b)
                ),
            )
        )
    for model, gpu in src.pair_keys:
        name = f"embed {model} {gpu}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of("embed", "embed.html", keys.pair(model, gpu)),
                lambda src, m=model, g=gpu: (_some(embed_page(src, m, g)), []),
            )
        )
    for name, copy in sorted(content.pages.items()):
        key = keys.of("content", "content.html", keys.copy(copy))
        jobs.append(
            Job(
                f"content {name}",
                key,
                lambda src, n=name: ([Share(src).content(content_page(src, n))], []),
            )
        )
    for run in site.runs:
        name = f"run {run_route(run.id)}"
        jobs.append(
            kept(name)
            or Job(
                name,
                keys.of("run", "run.html", keys.run(run), keys.copy(content.runs.get(run.id))),
                lambda src, r=run.id: _run(src, r),
                reads_summaries=False,
            )
        )
    jobs.extend(share_jobs(src, keys, Job, kept))
    jobs.append(Job("404", keys.of("404", "404.html"), lambda src: ([not_found_page()], [])))
    return jobs


def _run(src: Sources, run_id: str) -> Made:
    run = src.run(run_id)
    return _one(*run_outputs(src, run), lambda p: Share(src).run(p, run.model, run.gpu))


def _some(page: Page | None) -> list[Page]:
    return [] if page is None else [page]


def _one(
    page: Page, files: DataFile | list[DataFile], extras: Callable[[Page], Page] = lambda p: p
) -> Made:
    """One page and its files; `extras` adds what makes it travel (views/share.py)."""
    return [extras(page)], files if isinstance(files, list) else [files]


def keep_brief_texts(src: Sources) -> None:
    """What the overview and llms.txt write of each brief, made into the sources' BriefMemo:
    a preview's first build makes those pages in workers, whose memo ends with them."""
    brief_texts(src)
    table_rows(src.site, src.briefs, src.brief_memo)


def run_jobs(src: Sources, jobs: Iterable[Job]) -> Plan:
    plan = Plan()
    for job in jobs:
        pages, files = job.make(src)
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
    plan = run_jobs(src, plan_jobs(src, Keys(src, env, sorted(content.pages))))
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
    "keep_brief_texts",
    "none_kept",
    "plan_jobs",
    "plan_site",
    "run_jobs",
]
