"""Making jobs: their views, then their charts, then their pages, on one core or on all.

A big build forks one worker per core (where the system can fork); each makes every n-th
chunk of jobs from the plan it inherited and hands each output to the maker's `store` (a
build's stages them beside the output folder, output.Staging), then sends back what `store`
returned, the records and the problems: never the pages' bytes, unless `store` keeps them. The
result is the same, byte for byte, as making them in order here.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.pool
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ..cards import card as cards
from ..charts import ChartCache, draw_charts
from ..forking import can_fork
from ..records import Problems
from ..render.environment import render_page, template_problem
from ..views import DataFile, Job, Page, Sources
from .jobcache import JobRecord
from .progress import Progress

# fewer jobs than this are made here: starting the workers costs more than they save (the
# flagship, 770 jobs: 2.9-3.4 s cold in one process, 1.9-2.2 s on 2 cores from 200)
PARALLEL_FROM_JOBS = 200
CHUNK_JOBS = 64
# the last TAIL_CHUNKS chunks a worker of each pool would make are cut into chunks of
# TAIL_CHUNK_JOBS (a card's chunk of 64 is some 0.15 s, a pair page's 0.6 s)
TAIL_CHUNKS = 2
TAIL_CHUNK_JOBS = 16
# a worker makes this many chunks, then a fresh one is forked in its place: what the worker
# copied of the plan as it touched it, and what its caches filled, go with it (each worker of
# a 4,000-pair build grew to 400 MB of its own). Not much more often: a new worker copies
# again what its first chunks touch (at 2,000 pairs 125 MB in its first 25 chunks, 235 MB
# after 250), about half a second of CPU each time
CHUNKS_PER_WORKER = 128

Bounds = tuple[int, int]  # of a chunk of jobs: the first's index, one past the last's


def keep_bytes(rel: str, data: bytes) -> bytes:
    """A `store` that keeps each output's bytes in memory (the preview, sitegen check)."""
    return data


@dataclass
class Made:
    files: dict[str, Any] = field(default_factory=dict)  # output path -> what `store` returned
    records: dict[str, JobRecord] = field(default_factory=dict)
    copy_problems: Problems = field(default_factory=Problems)  # editors' copy that failed
    failed: Problems = field(default_factory=Problems)  # templates that failed

    def add(self, other: Made) -> None:
        self.files.update(other.files)
        self.records.update(other.records)
        self.copy_problems.extend(other.copy_problems)
        self.failed.extend(other.failed)


@dataclass
class Maker:
    """What making a job needs beside the job: the plan's sources, templates, the caches."""

    src: Sources
    env: jinja2.Environment
    shared: dict  # variables every template sees
    site_root: Path
    charts: ChartCache
    store: Callable[[str, bytes], Any] = keep_bytes  # takes each output as it is made

    def warm(self) -> None:
        """What every worker would make for itself, made here once before they are forked:
        every page template compiled (one that fails is left to its page, whose render
        reports it with its line), the chart cache's indexes read, the card drawer's tables
        where cards are drawn, and every pair's summaries and briefs (each worker would
        otherwise make those its pages read, most of them)."""
        for name in self.env.list_templates(filter_func=lambda name: name.endswith(".html")):
            with contextlib.suppress(jinja2.TemplateError, UnicodeDecodeError):
                self.env.get_template(name)
        if self.charts.folder is not None:
            self.charts.places()
        if self.src.site.config.cards:
            cards.warm()
        self.src.pairs.everything()
        self.src.pairs.briefs()

    def make(self, jobs: Sequence[Job], progress: Progress | None = None) -> Made:
        """Views of every job; then, unless editors' copy failed, their charts and pages."""
        progress = progress or Progress()
        made = Made()
        built: list[tuple[Job, list[Page], list]] = []
        before = len(self.src.problems)
        for job in jobs:
            built.append((job, *job.make(self.src)))
        made.copy_problems.extend(self.src.problems.items[before:])
        if made.copy_problems:
            return made
        built = _cards_drawn(built, progress)
        pages = [page for _, job_pages, _ in built for page in job_pages]
        charts = [chart for page in pages for chart in page.charts]
        progress.phase("charts", len(charts))
        draw_charts(charts, self.charts, progress.step)
        progress.phase("render", len(pages))
        for page in pages:
            try:
                html = render_page(self.env, page, self.shared).encode("utf-8")
            except Exception as exc:  # noqa: BLE001 - a site's own template may fail in any way
                made.failed.add(template_problem(exc, self.site_root, page.path))
            else:
                made.files[page.path] = self.store(page.path, html)  # the disk's errors: its own
            progress.step()
        for job, job_pages, job_files in built:
            for data in job_files:
                made.files[data.path] = self.store(data.path, data.data)
            made.records[job.name] = JobRecord(
                job.key,
                tuple(p.path for p in job_pages) + tuple(d.path for d in job_files),
                tuple((p.route, p.lastmod) for p in job_pages if p.in_sitemap),
                tuple(c.key for p in job_pages for c in p.charts if c.key),
            )
        return made


def _cards_drawn(
    built: list[tuple[Job, list[Page], list]], progress: Progress
) -> list[tuple[Job, list[Page], list]]:
    """`built` with every card its jobs' files hold drawn, a step each."""
    cards_of = [f.text for _, _, files in built for f in files if isinstance(f.text, cards.Card)]
    if not cards_of:
        return built
    progress.phase("cards", len(cards_of))
    pngs = []
    for card in cards_of:
        pngs.append(cards.card_png(card))
        progress.step()
    drawn = iter(pngs)
    return [
        (
            job,
            pages,
            [DataFile(f.path, next(drawn)) if isinstance(f.text, cards.Card) else f for f in files],
        )
        for job, pages, files in built
    ]


def workers_for(jobs: int) -> int:
    """How many processes make `jobs` jobs: all cores for a big build, else this one."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if jobs < PARALLEL_FROM_JOBS or (cores or 1) < 2:
        return 1
    if not can_fork():  # a worker must inherit the plan: pickling views would cost more
        return 1
    return cores or 1


_MAKER: Maker | None = None  # the plan a forked worker inherits
_JOBS: Sequence[Job] = ()


def _make_chunk(bounds: Bounds) -> Made:
    """A worker's chunk of jobs, made with the cycle collector waiting until the chunk is
    done. A page's render makes many short-lived objects and few cycles; collecting along the
    way walks them again and again (with the freeze in make_all: the 2,000-pair cold build
    of bench/scale.py in 43 s, not 54 s)."""
    assert _MAKER is not None
    gc.disable()
    # a worker renders with each template as it first loaded it: Jinja would otherwise stat
    # its file each time it is used (a page's, and each it extends or imports), to load it
    # again if it changed; the parent (the preview's builds) still does
    _MAKER.env.auto_reload = False
    made = _MAKER.make(_JOBS[bounds[0] : bounds[1]])
    _MAKER.charts.flush()  # before the worker may end: the rest of its charts, stored
    gc.enable()
    return made


def _spans(jobs: Sequence[Job]) -> Iterator[tuple[bool, int, int]]:
    """(reads_summaries, start, stop) of each longest stretch of jobs that agree on it."""
    start = 0
    for index in range(1, len(jobs) + 1):
        if index == len(jobs) or jobs[index].reads_summaries != jobs[start].reads_summaries:
            yield jobs[start].reads_summaries, start, index
            start = index


def _chunks(start: int, stop: int, size: int = CHUNK_JOBS) -> list[Bounds]:
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def chunks(jobs: Sequence[Job], workers: int) -> tuple[list[Bounds], list[Bounds]]:
    """The chunks of the jobs that read no summaries, and of the others, in the order a pool
    hands them out: plan order (but for the others' last, first), each list ending in smaller
    chunks, so that the last one handed out is short and no core waits long for another."""
    free: list[Bounds] = []
    rest: list[Bounds] = []
    for reads, start, stop in _spans(jobs):
        (rest if reads else free).extend(_chunks(start, stop))
    rest = _tapered(rest, workers)
    # the plan ends with the site's feed and llms.txt, whole-site outputs (at 2,000 pairs the
    # feed alone is 0.18 s, a chunk of 16 cards 0.04 s): handed out first, not last
    return _tapered(free, workers), rest[-1:] + rest[:-1]


def _tapered(bounds: list[Bounds], workers: int) -> list[Bounds]:
    """`bounds` with its last TAIL_CHUNKS chunks a worker cut into chunks of TAIL_CHUNK_JOBS."""
    tail = min(len(bounds), TAIL_CHUNKS * workers)
    cut = [
        small for a, b in bounds[len(bounds) - tail :] for small in _chunks(a, b, TAIL_CHUNK_JOBS)
    ]
    return bounds[: len(bounds) - tail] + cut


def make_all(maker: Maker, jobs: Sequence[Job], progress: Progress, workers: int = 1) -> Made:
    """Make `jobs` with `workers` processes (1: here, in order).

    Workers forked first make the jobs that read no summaries while this process warms what
    the others need (Maker.warm: the summaries, the templates); then workers forked after,
    which inherit it, make the others. Their results are added in plan order, as if made
    here."""
    if workers <= 1:
        made = maker.make(jobs, progress)
        maker.charts.flush()
        return made
    global _MAKER, _JOBS
    _MAKER, _JOBS = maker, jobs
    progress.phase("make", len(jobs))
    free, rest = chunks(jobs, workers)
    parts: dict[Bounds, Made] = {}
    # what workers inherit (the site, the plan) out of their collector's sight: a collection
    # would otherwise write to every object, copying the memory they share page by page
    gc.freeze()
    try:
        with contextlib.ExitStack() as pools:
            # the early pool's workers compile the few templates they use for themselves
            early = pools.enter_context(_pool(workers)) if free else None
            first = early.imap(_make_chunk, free) if early is not None else iter(())
            if rest:
                maker.warm()  # while the early workers make the first chunks
            _collect(free, first, parts, progress)
            if early is not None:
                early.terminate()  # its workers are done: their memory back before the next
            if rest:
                # forked once the early ones are gone: never two pools' workers at once
                late = pools.enter_context(_pool(workers))
                _collect(rest, late.imap(_make_chunk, rest), parts, progress)
    finally:
        _MAKER, _JOBS = None, ()
        gc.unfreeze()
    made = Made()
    for bounds in sorted(parts):
        made.add(parts.pop(bounds))
    return made


def _pool(workers: int) -> multiprocessing.pool.Pool:
    """Workers forked now, each replaced after CHUNKS_PER_WORKER chunks of CHUNK_JOBS: its
    share of a pool's small last chunks counts for no more than the chunks they were cut
    from (a replacement forked for those alone would cost more than they do)."""
    small = TAIL_CHUNKS * max(CHUNK_JOBS // TAIL_CHUNK_JOBS - 1, 0)
    tasks = CHUNKS_PER_WORKER + small
    return multiprocessing.get_context("fork").Pool(workers, maxtasksperchild=tasks)


def _collect(
    bounds: list[Bounds],
    results: Iterator[Made],
    parts: dict[Bounds, Made],
    progress: Progress,
) -> None:
    for chunk, part in zip(bounds, results, strict=True):
        parts[chunk] = part
        for _ in range(chunk[1] - chunk[0]):
            progress.step()
