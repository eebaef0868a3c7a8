"""The stages of a build, top to bottom: load -> check -> calc -> plan -> render; every output
of a site, as what `store` made of it or as KEPT (the last build's file). Writing the output
folder is build.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..calc.briefs import Brief, BriefCache, BriefMemo
from ..calc.limits import above_limit
from ..calc.summaries import Summaries, SummaryMemo
from ..charts import ChartCache
from ..output.paths import check_outputs, list_digest, output_list
from ..output.sitemap import robots_txt, sitemap_xml
from ..output.staging import KEPT
from ..records import Problem, Problems, Site, SiteError, load_site
from ..records.fingerprint import InputScan
from ..records.load import config_places
from ..records.loadcache import LoadMemo
from ..records.problems import NOTE
from ..render.content import Content, load_content
from ..render.display import utilisation
from ..render.environment import asset_files, check_templates, environment
from ..views import Job, Keys, Sources, keep_brief_texts, plan_jobs
from ..views.replan import LastPlan, kept_jobs, last_plan
from .jobcache import JobRecord
from .making import Maker, keep_bytes, make_all, workers_for
from .progress import Progress
from .search import (
    SEARCH_JOB,
    InMemory,
    Outputs,
    index_basis,
    indexed_pages,
    search_outputs,
)


@dataclass(frozen=True)
class Reuse:
    """What the last build left: its jobs' records, and which of their files are still there."""

    records: dict[str, JobRecord]
    # is this output of the last build still as it left it? None: every one is (the preview's
    # last good build in memory holds every output of its records)
    intact: Callable[[str], bool] | None
    checked: str | None = None  # output.paths.list_digest of the paths it checked and passed
    plan: LastPlan | None = None  # its plan: what each job read, of the jobs that can be kept
    read: dict[str, str] = field(default_factory=dict)  # data file -> digest, as it loaded them

    def changed(self, read: dict[str, str]) -> set[str]:
        """The data files whose bytes differ from those the last build loaded (or that it did
        not load, or that are gone)."""
        last = self.read
        found = {name for name, digest in read.items() if last.get(name) != digest}
        return found | (last.keys() - read.keys())

    def split(self, jobs: list[Job]) -> tuple[dict[str, JobRecord], list[Job]]:
        """The last build's records of the jobs whose key is unchanged and whose outputs are
        intact (by job name), and the other jobs, to make: one loop over 38,600 jobs."""
        kept: dict[str, JobRecord] = {}
        to_make: list[Job] = []
        last, intact = self.records.get, self.intact
        for job in jobs:
            record = last(job.name)
            # map: no frame a file (67,800)
            if (
                record is not None
                and record.key == job.key
                and (intact is None or all(map(intact, record.outputs)))
            ):
                kept[job.name] = record
            else:
                to_make.append(job)
        return kept, to_make


@dataclass
class Memo:
    """What a process that builds again and again (the preview) keeps from one build to the
    next: the load cache as it last kept it, the summaries of pairs whose runs are unchanged,
    and every pair's briefs by pair digest, for the catalogs they were made with."""

    loaded: LoadMemo = field(default_factory=LoadMemo)
    summaries: SummaryMemo = field(default_factory=SummaryMemo)
    briefs: tuple[Any, dict[str, list[Brief]]] = (None, {})  # (catalog digests, briefs)
    plan: LastPlan | None = None  # the last plan, made after the load `loaded` last made
    brief_texts: BriefMemo = field(default_factory=BriefMemo)  # the overview's, of each brief


@dataclass
class Rendered:
    files: dict[str, Any]  # output path -> what `store` returned (bytes by default), or KEPT
    problems: Problems
    jobs: dict[str, JobRecord] = field(default_factory=dict)  # every job's record, for the next
    made: tuple[str, ...] = ()  # the jobs made this time
    checked: str | None = None  # the list_digest of the output paths, which passed the checks
    fresh: dict[str, Any] = field(default_factory=dict)  # the outputs made this time (not KEPT)
    base_url: str = ""  # the site's, as its config has it
    read: dict[str, str] = field(default_factory=dict)  # data file -> digest of the bytes loaded
    plan: LastPlan | None = None  # what each job read, for the next build's plan


def render_outputs(
    site_root: Path,
    strict: bool = False,
    use_cache: bool = True,
    progress: Progress | None = None,
    reuse: Reuse | None = None,
    parallel: bool = False,
    store: Callable[[str, bytes], Any] = keep_bytes,
    memo: Memo | None = None,
    scan: InputScan | None = None,
    changed: set[str] | None = None,
    notes: bool = False,
    outputs: Outputs | None = None,
) -> Rendered:
    """Every output of the site; a job that `reuse` can keep is given as KEPT, not made.

    Each output made is handed to `store` as soon as it is made (output.Staging.put writes
    it beside the output folder; the default keeps its bytes). Raises SiteError on errors.
    With `use_cache` off the cache beside the site (parsed records, charts) is neither read
    nor written (sitegen check). With `parallel`, a big build makes its pages on every core.
    A `memo` keeps the load cache, summaries, briefs and plan between builds of one process
    (the preview); with it, `changed` names the site's files changed since its last build,
    as a watcher reported them (records.load.listed_changes; None: not known). A `scan` of
    the site's files made by this build saves the loader a look of its own. `outputs` finds
    the bytes of the pages for the search index: those kept are not in memory (the default
    holds only the ones made now). With `notes`, the problems also hold notes (configs whose
    MBU is above 100 %: sitegen check).
    """
    site_root = Path(site_root)
    progress = progress or Progress()
    before = memo.plan if memo else reuse.plan if reuse else None
    if memo is not None:  # a build that fails before its plan is made leaves none
        memo.plan = None

    progress.phase("load")  # load -> check
    site, content, problems = _load(site_root, use_cache, memo, scan, changed)

    if notes:
        problems.extend(mbu_notes(site_root, site))
    progress.phase("compute")  # calc
    src, briefs = _calc(site_root, site, content, use_cache, memo)

    env = environment(site_root)  # plan
    nav_pages = sorted(content.pages)
    # each key records what it read: the next plan keeps the jobs that read nothing changed
    keys = Keys(src, env, nav_pages, record=memo is not None or use_cache)
    if memo is not None:
        changed_runs = memo.loaded.reread
    else:
        changed_runs = reuse.changed(site.digests) if reuse is not None else None
    kept_job, stood = kept_jobs(before, src, keys, changed_runs)
    jobs = plan_jobs(src, keys, kept_job)
    plan = last_plan(src, keys, jobs, stood) if keys.recording else None
    if memo is not None:
        memo.plan = plan
    kept, to_make = reuse.split(jobs) if reuse is not None else ({}, list(jobs))

    cache = ChartCache.for_site(site_root) if use_cache else ChartCache(None)  # render
    shared = {"site": site.config, "nav_pages": nav_pages}
    maker = Maker(src, env, shared, site_root, cache, store)
    workers = workers_for(len(to_make)) if parallel else 1
    made = make_all(maker, to_make, progress, workers)
    if memo is not None and workers > 1:
        keep_brief_texts(src)  # for the next build, which makes the overview here
    problems.extend(made.copy_problems)

    records = {**made.records, **kept}  # check what would be written
    paths = output_list((rel for record in records.values() for rel in record.outputs), site_root)
    checked = list_digest(paths)
    if reuse is None or reuse.checked != checked:  # the same paths as last time passed
        problems.extend(check_outputs(site, content, paths, site_root))
    if problems.has_errors or (strict and problems.warnings):
        raise SiteError(problems.sorted())
    if made.failed:
        raise SiteError(made.failed.sorted())

    for record in records.values():  # keep what the next build reads
        cache.keep(record.charts)
    cache.prune()  # entries no page of this build uses would only pile up
    if briefs is not None:
        briefs.save(src.pairs.by_digest())
    if memo is not None:
        memo.briefs = (site.shared_digests(), src.pairs.by_digest())

    files: dict[str, Any] = {rel: KEPT for record in kept.values() for rel in record.outputs}
    fresh = dict(made.files)
    if site.config.search:
        progress.phase("search")
        last_index = reuse.records.get(SEARCH_JOB) if reuse is not None else None
        intact = reuse.intact if reuse is not None else None
        pages = indexed_pages(jobs, records)
        record, index = search_outputs(
            pages,
            index_basis(keys),
            {**files, **fresh},
            last_index,
            intact,
            outputs or InMemory(),
            store,
        )
        records[SEARCH_JOB] = record
        for rel, out in index.items():
            (files if out is KEPT else fresh)[rel] = out
    sitemap = [row for job in jobs for row in records[job.name].sitemap]
    own = {
        "sitemap.xml": sitemap_xml(site.config.base_url, sitemap).encode(),
        "robots.txt": robots_txt(site.config.base_url).encode(),
        **asset_files(site_root),
    }
    fresh.update((rel, store(rel, data)) for rel, data in own.items())
    files.update(fresh)
    made_jobs = tuple(job.name for job in to_make)
    base_url = site.config.base_url
    return Rendered(
        files, problems, records, made_jobs, checked, fresh, base_url, site.digests, plan
    )


def _load(
    site_root: Path,
    use_cache: bool,
    memo: Memo | None,
    scan: InputScan | None,
    changed: set[str] | None,
) -> tuple[Site, Content, Problems]:
    """The site's data, its editors' copy and its templates, read and checked; SiteError
    with every problem found when one is an error."""
    site, problems = load_site(site_root, use_cache, memo.loaded if memo else None, scan, changed)
    if site is None:
        raise SiteError(problems.sorted())
    run_ids = {run.id for run in site.runs}
    content = load_content(site_root, site.models, site.gpus, problems, run_ids)
    if check_templates(site_root, problems):  # no template is read before this passes
        raise SiteError(problems.sorted())
    return site, content, problems


def _calc(
    site_root: Path, site: Site, content: Content, use_cache: bool, memo: Memo | None
) -> tuple[Sources, BriefCache | None]:
    """What every view builder reads: the site with its pairs' summaries, made when first
    read, from the briefs the last build kept where their runs are unchanged; and the briefs'
    cache on disk, to save this build's into."""
    catalogs = site.shared_digests()  # what briefs are valid for, beside the code
    briefs = None
    if memo is not None:
        kept_for, kept_briefs = memo.briefs
        if kept_for != catalogs:
            kept_briefs = {}  # made for other catalogs
        summaries = Summaries(site, kept_briefs, memo=memo.summaries)
    else:
        if use_cache:
            briefs = BriefCache.for_site(site_root, dict(catalogs))
        summaries = Summaries(site, briefs.entries if briefs else None)
    texts = memo.brief_texts.start(catalogs) if memo else None
    return Sources(site, summaries, content, texts), briefs


def mbu_notes(site_root: Path, site: Site) -> list[Problem]:
    """A note for each config whose estimated MBU is above 100 %."""
    over = above_limit(site)
    places = config_places(site_root, [(run, i) for run, i, _ in over])
    return [
        Problem(
            run.path,
            line,
            field,
            f"MBU is {utilisation(mbu)}, above 100 %: the estimate assumes uniform expert "
            "routing and the parallelism the record gives",
            NOTE,
        )
        for (run, _, mbu), (line, field) in zip(over, places, strict=True)
    ]


def render_site(
    site_root: Path,
    strict: bool = False,
    use_cache: bool = True,
    progress: Progress | None = None,
    notes: bool = False,
) -> tuple[dict[str, bytes], Problems]:
    """Every output of the site, made now, as output path -> bytes. Raises SiteError on errors.

    With `use_cache` off the cache beside the site is neither read nor written (sitegen check);
    with `notes`, the problems hold notes too (render_outputs).
    """
    rendered = render_outputs(site_root, strict, use_cache, progress, notes=notes)
    files = {rel: data for rel, data in rendered.files.items() if isinstance(data, bytes)}
    return files, rendered.problems
