"""Reading a site folder: every data file parsed, checked and turned into a Site."""

from __future__ import annotations

import contextlib
import dataclasses
import operator
import os
import re
import stat
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..cache.digests import FileDigests, file_digest
from ..cache.trust import cache_folder
from ..forking import can_fork
from ..layout import SiteLayout
from . import columnar, parquet, readbatch, schema, sitefiles
from .checker import SLUG, Checker
from .columnar import ConfigTable
from .fingerprint import InputScan
from .loadcache import Clean, Listing, LoadCache, LoadMemo, cache_key
from .model import Catalogs, Run, Site, SweepRun
from .names import fold
from .parsecache import ParseCache
from .problems import WARNING, Problem, Problems, describe
from .readbatch import EMPTY, Done, Hit, Other, parse_bytes, read_bytes
from .yamlpos import Document

# plain sweeps are screened this many files at a time: all of a big site's parsed documents at
# once would take gigabytes; the table holds their configs in a fraction of that
SCREEN_FILES = 256
# run files to read from which a pool of processes (one per core) reads them: below it, the
# cost of starting workers and sending back their columns is more than they save
POOL_FILES = 1000
POOL_BATCH_FILES = 64  # files a worker reads at a time: small enough to share out evenly


def read_document(
    path: Path,
    rel: str,
    problems: Problems,
    required: bool = True,
    digests: dict[str, str] | None = None,
    parsed: ParseCache | None = None,
) -> Document:
    """Parse one file; a missing or unreadable file becomes a problem and an empty document.

    `digests` gets the digest of the very bytes parsed, under `rel`; a YAML file's data comes
    from `parsed` when it was parsed before (and goes there when not).
    """
    raw = read_bytes(path, rel, problems, required)
    if raw is None:
        return EMPTY
    digest = file_digest(raw)
    if digests is not None:
        digests[rel] = digest
    json_file = path.suffix == ".json"
    doc, fresh = parse_bytes(raw, json_file, rel, problems, parsed, digest)
    if fresh and doc is not EMPTY and parsed is not None and not json_file:
        parsed.put(digest, doc.data, len(raw))
    return doc


def run_id(rel_to_runs: str) -> str:
    """data/runs/localmaxxing/paiton.yaml -> localmaxxing-paiton."""
    stem = re.sub(r"\.(ya?ml|json|parquet)\Z", "", rel_to_runs)
    return stem.replace("/", "-")


def catalogs(root: Path, problems: Problems, digests: dict[str, str] | None = None) -> Catalogs:
    """models, GPUs, workloads, pricing and sitegen.yaml, checked; their digests into `digests`."""

    files = sitefiles.SiteFiles(root)

    def checked(rel: str, fn, *args):
        if files.check(root / rel, problems):
            doc = read_document(root / rel, rel, problems, digests=digests)
        else:
            doc = EMPTY
        # a file that is missing or unreadable is one problem, not one per field it lacks
        told = problems if doc is not EMPTY else Problems()
        return fn(Checker(rel, doc, told), doc.data, *args)

    models = checked("data/models.yaml", schema.models)
    gpus = checked("data/gpus.yaml", schema.gpus)
    workloads = checked("data/workloads.yaml", schema.workloads)
    pricing = checked("data/pricing.yaml", schema.pricing, gpus)
    config = checked(SiteLayout.CONFIG, schema.site_config, workloads, pricing)
    return Catalogs(models, gpus, workloads, pricing, config)


def check_run(
    data: Any, doc: Document, rel: str, rid: str, known: Catalogs, problems: Problems
) -> Run | None:
    """One run record, of either kind; None when it has errors (they go into problems)."""
    c = Checker(rel, doc, problems)
    record = c.mapping(data, (), "a run record (a mapping)")
    if record is None:
        return None
    if not SLUG.match(rid):
        c.error(
            (),
            f"run id {rid!r} (from the file path) must be lowercase a-z 0-9 . -, starting and "
            "ending with a letter or digit; rename the file",
        )
    kind = c.choice(record, (), "kind", ("sweep", "matrix"), default="sweep")
    check = schema.matrix if kind == "matrix" else schema.sweep
    run = check(c, record, rid, rel, known)
    return None if c.failed else run


def _hidden(name: str) -> bool:
    """A file or folder the walk of data/runs/ passes by (editor backups, .git)."""
    return name.startswith(".")


def _wanted_run(name: str) -> bool:
    """A file name the walk of data/runs/ lists: not hidden, of a run file's suffix in any
    case (run_files tells of one not in lowercase)."""
    return not _hidden(name) and sitefiles.run_suffixed(name)


def run_files(
    root: Path, ids: dict[str, str], problems: Problems, scan: InputScan | None = None
) -> list[tuple[str, str, str]]:
    """(path, path relative to the site, run id) of every run file under data/runs/.

    `ids` gets the id of each record file (an archive's runs are named when it is read).
    The files a `scan` of the site found are taken as it found them, without a walk of their
    own. Paths are text: a Path each would cost more than the rest of their look.
    """
    runs_dir, suffixes = SiteLayout(root).runs, SiteLayout.RUN_SUFFIXES
    found: list[tuple[str, str, str]] = []
    names = None
    if scan is not None:
        names = scan.under(SiteLayout.RUNS_PREFIX, _wanted_run, _hidden)
    if names is None:
        names = sitefiles.SiteFiles(root).walk_names(runs_dir, problems, _wanted_run, _hidden)
    at, prefix = os.path.join(root, ""), len(SiteLayout.RUNS_PREFIX)
    for rel in names:
        path = at + rel
        suffix = sitefiles.suffix_of(rel.rpartition("/")[2])
        if suffix not in suffixes:
            problems.add(
                Problem(
                    rel,
                    None,
                    "",
                    "not read: a run record's extension is lowercase .yaml, .yml, .json "
                    "or .parquet",
                    WARNING,
                )
            )
            continue
        # run_id's: the path below data/runs/ without its suffix (one of RUN_SUFFIXES)
        rid = rel[prefix : -len(suffix)].replace("/", "-")
        if suffix == parquet.SUFFIX:
            found.append((path, rel, rid))
            continue
        if rid in ids:
            problems.add(Problem(rel, None, "", f"run id {rid!r} is also the id of {ids[rid]}"))
            continue
        ids[rid] = rel
        found.append((path, rel, rid))
    return found


def listed_changes(root: Path, listing: Listing, changed: set[str]) -> set[str] | None:
    """The listed run files among `changed` (site-relative paths a watcher reported), if the
    listing still stands for the others: None when one of them is a run file the listing
    lacks, or one no longer there or not a regular file (a folder, a link), which only a walk
    can tell apart, or a path that is not of a file inside an input folder (an input
    folder itself, data/runs/, a trigger that names no path). Files that no walk of
    data/runs/ lists (other inputs, hidden files and folders, other extensions) change
    nothing."""
    listed = {rel for _, rel, _ in listing.files}
    prefix = SiteLayout.RUNS_PREFIX
    inputs = tuple(f"{folder}/" for folder in SiteLayout.SOURCE_FOLDERS)
    found: set[str] = set()
    for rel in changed:
        if not rel.startswith(prefix):
            if rel == SiteLayout.CONFIG or (rel.startswith(inputs) and rel != prefix[:-1]):
                continue  # another input: read again whole by every build
            return None  # an input folder itself, data/runs/, or no path at all
        folders, _, name = rel[len(prefix) :].rpartition("/")
        if _hidden(name) or any(map(_hidden, folders.split("/"))):
            continue  # hidden, or in a hidden folder: never walked
        try:
            info = os.lstat(os.path.join(root, rel))
        except OSError:
            return None  # gone: a file, or a folder of them
        if not stat.S_ISREG(info.st_mode):
            return None  # a folder (moved here whole, perhaps), a link
        if not _wanted_run(name):
            continue  # a file of another kind: never listed
        if rel not in listed:
            return None  # new, or one the walk told of
        found.add(rel)
    return found


def load_runs(
    root: Path,
    known: Catalogs,
    problems: Problems,
    digests: dict[str, str] | None = None,
    parsed: ParseCache | None = None,
    stats: FileDigests | None = None,
    cache: LoadCache | None = None,
    scan: InputScan | None = None,
    listing: Listing | None = None,
    changed: set[str] | None = None,
) -> tuple[list[Run], ConfigTable, list[Clean], Listing]:
    """Every run record, checked; the sweeps' configs in one table; each file's digest.

    Plain sweeps go through the columnar screen together; a file the screen flags, and every
    other record, goes through the exact checker, which words each problem and finds its line.
    A file whose stat (`stats`) or bytes are those `cache` holds it at is neither parsed nor
    screened: its run and columns come from the cache. A `scan` of the site's files gives
    their paths and digests (it recorded their stats): they are not looked at again (an open
    scan, their paths only: their stats and digests are this load's to find). So does
    the `listing` of the last build, given the run files `changed` since (listed_changes):
    the others are taken at the digest it holds. Also returns the plain sweeps loaded, in
    table order (their rows come first), for the cache of the next build, and this build's
    Listing.
    """
    stats = stats if stats is not None else FileDigests(None)
    cache = cache if cache is not None else LoadCache(None, {})
    runs: list[Run] = []
    cleans: dict[str, Clean] = {}
    others: list[Other] = []
    ids: dict[str, str] = {}
    # a file's digest as a (whole) scan found it or the listing has it (None: changed since)
    given: dict[str, str | None] | None = None
    if listing is not None and changed is not None:
        files, walked = listing.files, listing.problems
        ids.update((rid, rel) for _, rel, rid in files if not rel.endswith(parquet.SUFFIX))
        given = {rel: d for rel, d in listing.digests.items() if rel not in changed}
    else:
        if scan is not None and not scan.open:
            given = scan.files
        told = Problems()
        files = run_files(root, ids, told, scan)
        walked = told.items
    problems.extend(walked)
    stored = cache.digests()
    fresh: list[tuple[Path, str, str]] = []
    stat_at: dict[str, tuple[os.stat_result, int]] = {}  # a fresh file's stat, and when
    for where, rel, rid in files:
        if rel.endswith(parquet.SUFFIX):  # rows -> records (a run file's suffix is exact)
            try:
                raw = Path(where).read_bytes()
            except OSError as exc:
                problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
                continue
            if digests is not None:
                digests[rel] = file_digest(raw)
            runs.extend(archive_runs(raw, rel, rid, known, ids, problems))
            continue
        if given is not None:  # its digest as found, its stat recorded
            digest = given.get(rel)
            if rel in stored and digest == stored[rel]:
                cleans[rel] = cache.clean(rel)
            else:
                fresh.append((Path(where), rel, rid))
            continue
        stat_ns = time.time_ns()
        try:
            st = os.stat(where)
        except OSError:  # reading it says why
            fresh.append((Path(where), rel, rid))
            continue
        if rel in stored and stats.known(rel, st) == stored[rel]:
            cleans[rel] = cache.clean(rel)
            continue
        stat_at[rel] = (st, stat_ns)
        fresh.append((Path(where), rel, rid))
    workers = readbatch.cores()
    if len(fresh) >= POOL_FILES and workers > 1 and can_fork():
        results = readbatch.read_in_pool(_batches(fresh, POOL_BATCH_FILES), known, stored, workers)
    else:
        batches = _batches(fresh, SCREEN_FILES)
        results = (readbatch.read_batch(b, known, stored, parsed, keep_docs=True) for b in batches)
    with contextlib.closing(results):  # the pool ends even if this stops half way
        for outcomes, columns in results:
            for o in outcomes:
                if o.digest is not None and o.rel in stat_at:
                    stats.record(o.rel, stat_at[o.rel][0], o.digest, stat_at[o.rel][1])
                if isinstance(o, Hit):
                    cleans[o.rel] = cache.clean(o.rel)
                elif isinstance(o, Clean):
                    o.source = columns
                    cleans[o.rel] = o
                elif isinstance(o, Done):
                    if digests is not None and o.digest is not None:
                        digests[o.rel] = o.digest
                    problems.extend(o.problems)
                else:
                    others.append(o)
    paths = {rel: path for path, rel, _ in fresh}
    for o in others:
        if o.doc is None:  # read by a worker, which does not send documents
            doc = read_document(paths[o.rel], o.rel, problems, digests=digests, parsed=parsed)
            if doc is EMPTY:
                continue
        else:
            doc = o.doc
            if digests is not None:
                digests[o.rel] = o.digest
        if (run := check_run(doc.data, doc, o.rel, o.rid, known, problems)) is not None:
            runs.append(run)
    ordered = [cleans[rel] for _, rel, _ in files if rel in cleans]
    parts = _parts(ordered)
    # sweeps the exact checker built: their configs follow the screened ones in the table
    checked = [(i, r) for i, r in enumerate(runs) if isinstance(r, SweepRun)]
    parts += [columnar.columns_of(r.configs) for _, r in checked]
    table = columnar.ConfigTable.concat(parts)
    start = 0
    for clean in ordered:
        if digests is not None:
            digests[clean.rel] = clean.digest
        problems.extend(clean.problems)
        stop = start + clean.count
        rows = columnar.ConfigRows(table, start, stop)
        fields = {**clean.fields, "id": clean.rid, "path": clean.rel, "kind": "sweep"}
        fields["configs"] = rows
        runs.append(SweepRun(**fields))
        start = stop
    for i, run in checked:
        stop = start + len(run.configs)
        runs[i] = dataclasses.replace(run, configs=columnar.ConfigRows(table, start, stop))
        start = stop
    order = {rel: n for n, (_, rel, _) in enumerate(files)}
    runs.sort(key=lambda run: order[run.path])
    _cross_checks(root, runs, table, known, problems)
    read = digests if digests is not None else {}
    found = Listing(files, walked, {rel: read[rel] for _, rel, _ in files if rel in read})
    return runs, table, ordered, found


def _batches(items: list, size: int) -> list[list]:
    """`items` in lists of `size` (the last one shorter)."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def _parts(cleans: list[Clean]) -> list[dict[str, np.ndarray]]:
    """The columns of the files' configs, one file after another, as few slices as can be."""
    spans: list[tuple[dict[str, np.ndarray], int, int]] = []
    for c in cleans:
        assert c.source is not None
        if spans and spans[-1][0] is c.source and spans[-1][2] == c.start:
            spans[-1] = (c.source, spans[-1][1], c.start + c.count)
        else:
            spans.append((c.source, c.start, c.start + c.count))
    return [{name: col[a:b] for name, col in source.items()} for source, a, b in spans]


def archive_runs(
    source: Path | bytes,
    rel: str,
    file_id: str,
    known: Catalogs,
    ids: dict[str, str],
    problems: Problems,
) -> list[Run]:
    """The runs of one Parquet archive (a file or its bytes), each checked as a YAML record is.

    `ids` maps the run ids taken so far to their files; the archive's are added.
    """
    runs: list[Run] = []
    for record in parquet.read_archive(source, rel, file_id, problems):
        if record.id in ids:
            where = record.doc.line(())
            message = f"run id {record.id!r} is also the id of {ids[record.id]}"
            problems.add(Problem(rel, where, parquet.RUN, message))
            continue
        ids[record.id] = rel
        run = check_run(record.data, record.doc, rel, record.id, known, problems)
        if run is not None:
            runs.append(run)
    return runs


# what makes two runs one measurement: a config of both is a duplicate; another source or
# another published run (url) is another measurement (MLPerf submitters at the same load)
IDENTITY = ("model", "gpu", "workload", "engine", "precision", "date", "source", "url")


def _same_configs(runs: list[Run], table: ConfigTable) -> dict[tuple, list[tuple[SweepRun, int]]]:
    """Configs measured more than once on the same date by runs of more than one file, in
    file order. Only runs that share (model, gpu, workload, engine, precision, date) with a
    run of another file can hold such configs: those alone are compared."""
    identity = operator.attrgetter(*IDENTITY)  # text and a date: equal exactly when their
    by_identity: dict[tuple, list[SweepRun]] = defaultdict(list)  # str() are, as below
    for r in runs:
        if isinstance(r, SweepRun):
            by_identity[identity(r)].append(r)
    shared: set[int] = set()
    for group in by_identity.values():
        if len(group) > 1:  # most identities are one run's: no set of paths made for them
            measured = [r for r in group if len(r.configs)]
            if len({r.path for r in measured}) > 1:
                shared.update(map(id, measured))
    sweeps = [r for r in runs if id(r) in shared]  # in file order, as the runs are
    if not sweeps:
        return {}
    import pandas as pd  # only for a site whose files share runs: most do not

    order, lengths, index = columnar.run_rows(sweeps)
    frame = pd.DataFrame({k: table.columns[k][order] for k in schema.CONFIG_KEY})
    for name in IDENTITY:
        frame[name] = np.repeat(np.array([str(getattr(r, name)) for r in sweeps]), lengths)
    frame["run"] = np.repeat(np.arange(len(sweeps)), lengths)
    frame["i"] = index
    twice = frame[frame.duplicated(subset=[*IDENTITY, *schema.CONFIG_KEY], keep=False)]
    groups: dict[tuple, list[tuple[SweepRun, int]]] = defaultdict(list)
    for row in twice.itertuples(index=False):
        key = tuple(getattr(row, k) for k in IDENTITY) + tuple(
            None if v != v else v for v in (getattr(row, k) for k in schema.CONFIG_KEY)
        )
        groups[key].append((sweeps[row.run], row.i))
    return groups


class _Positions:
    """The documents of runs a warning points into, read again (with positions) when asked."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.docs: dict[tuple[str, str], Document] = {}

    def of(self, run: Run) -> Document:
        if (run.path, run.id) not in self.docs:
            if run.path.endswith(parquet.SUFFIX):
                file_id = run_id(run.path.removeprefix(SiteLayout.RUNS_PREFIX))
                records = parquet.read_archive(self.root / run.path, run.path, file_id, Problems())
                for record in records:
                    self.docs[(run.path, record.id)] = record.doc
            else:
                doc = read_document(self.root / run.path, run.path, Problems())
                self.docs[(run.path, run.id)] = doc
        return self.docs.get((run.path, run.id), EMPTY)


def config_places(root: Path, places: Iterable[tuple[Run, int]]) -> list[tuple[int | None, str]]:
    """The line and field name of each (run, index of a config), for a message about it."""
    docs = _Positions(root)
    return [
        (docs.of(run).line(("configs", i)), docs.of(run).field_name(("configs", i)))
        for run, i in places
    ]


def _cross_checks(
    root: Path, runs: list[Run], table: ConfigTable, known: Catalogs, problems: Problems
) -> None:
    """Warnings that need more than one record: duplicate configs, GPUs without a price."""
    groups = _same_configs(runs, table)
    docs = _Positions(root)
    for places in groups.values():
        files = {run.path for run, _ in places}
        if len(files) > 1:
            first, i = places[0]
            for run, j in places[1:]:
                if run.path != first.path:
                    doc, there = docs.of(run), docs.of(first)
                    problems.add(
                        Problem(
                            run.path,
                            doc.line(("configs", j)),
                            doc.field_name(("configs", j)),
                            f"duplicate config: also measured in {first.path} "
                            f"{there.place_name(('configs', i))} on the same date",
                            WARNING,
                        )
                    )
    _lookalike_engines(runs, docs, problems)
    priced = known.pricing.prices
    for gpu in sorted({run.gpu for run in runs}):
        if gpu not in priced:
            problems.add(
                Problem(
                    "data/pricing.yaml",
                    None,
                    f"prices.{gpu}",
                    f"GPU {gpu!r} has runs but no price; its cost cells will say "
                    "that no price is known",
                    WARNING,
                )
            )


def output_counts(
    runs: Sequence[Run], table: ConfigTable
) -> tuple[frozenset[str], list[tuple[SweepRun, int]]]:
    """The workloads with a record that counts output tokens only (an ok config without
    throughput_per_gpu: the schema holds every ok config of a record to one count), and the
    ok configs of those workloads without output_throughput_per_gpu (run, index), which
    could only be ranked against output figures by their total."""
    sweeps = [r for r in runs if isinstance(r, SweepRun)]
    rows, lengths, index = columnar.run_rows(sweeps)
    if not len(rows):
        return frozenset(), []
    columns = table.columns
    ok = columns["status"][rows] == "ok"
    run = np.repeat(np.arange(len(sweeps)), lengths)
    no_total = np.unique(run[ok & np.isnan(columns["throughput_per_gpu"][rows])])
    counted = frozenset(sweeps[i].workload for i in no_total.tolist())
    if not counted:
        return counted, []
    lacking = np.flatnonzero(ok & np.isnan(columns["output_throughput_per_gpu"][rows]))
    places = [(sweeps[run[k]], int(index[k])) for k in lacking.tolist()]
    return counted, [(sweep, i) for sweep, i in places if sweep.workload in counted]


def _output_errors(root: Path, lacking: list[tuple[SweepRun, int]], problems: Problems) -> None:
    """An error for each config of a workload counted in output tokens that gives only a
    total (output_counts)."""
    docs = _Positions(root)
    for sweep, i in lacking:
        doc = docs.of(sweep)
        problems.add(
            Problem(
                sweep.path,
                doc.line(("configs", i)),
                doc.field_name(("configs", i, "output_throughput_per_gpu")),
                f"expected a number > 0: workload {sweep.workload!r} is counted in output "
                "tokens (a record of it gives output tokens only), and a total cannot be "
                "ranked against them",
            )
        )


def _lookalike_engines(runs: list[Run], docs: _Positions, problems: Problems) -> None:
    """Warn about an engine that reads as another (vLLM, vllm, vⅼlm): two rows alike."""
    first: dict[str, Run] = {}  # each engine as written -> its first run, in file order
    for run in runs:
        first.setdefault(run.engine, run)
    seen: dict[str, Run] = {}
    for engine, run in first.items():
        other = seen.setdefault(fold(engine), run)
        if other is not run:
            doc = docs.of(run)
            problems.add(
                Problem(
                    run.path,
                    doc.line(("engine",)),
                    "engine",
                    f"{describe(engine)} looks like engine {describe(other.engine)} of "
                    f"{other.path}: pages would show their runs as two engines alike",
                    WARNING,
                )
            )


def load_site(
    root: Path | str,
    use_cache: bool = False,
    memo: LoadMemo | None = None,
    scan: InputScan | None = None,
    changed: set[str] | None = None,
) -> tuple[Site | None, Problems]:
    """Read and check a whole site. The Site is None when any error was found.

    With `use_cache`, the site's cache saves work, and is kept up to date: a plain sweep
    file whose stat or bytes are as an earlier build found them comes from the load cache
    (records.loadcache) without being read or parsed, and other YAML records parsed before
    are read from the parse cache (records.parsecache). A `memo` keeps the load cache in
    memory from one call to the next (the preview's rebuilds), and the run files the last
    call found: given the paths `changed` since (the preview's watcher's), data/runs/ is
    neither walked nor stat'ed when they name only files it still lists (listed_changes).
    """
    root = Path(root)
    problems = Problems()
    layout = SiteLayout(root)
    if reason := layout.missing():
        problems.add(Problem(layout.CONFIG, None, "", reason))
        return None, problems
    if not layout.data.is_dir():
        problems.add(
            Problem(
                "data/",
                None,
                "",
                f"not found in {root}: a site keeps models.yaml, gpus.yaml, workloads.yaml, "
                "pricing.yaml and runs/ there",
            )
        )
        return None, problems
    digests: dict[str, str] = {}
    known = catalogs(root, problems, digests)
    listing, runs_changed = memo.listing if memo else None, None
    if listing is not None and changed is not None and use_cache:
        runs_changed = listed_changes(root, listing, changed)
    if memo is not None:  # a load that fails half way leaves none: the next one walks
        memo.listing = memo.reread = None
    if use_cache:
        parsed = ParseCache(cache_folder(root, "parsed"))
        # a whole scan or the listing stands for every file's stat: a table of the loader's
        # own would be a copy (an open scan leaves the run files to it)
        looked = (scan is not None and not scan.open) or runs_changed is not None
        stats = FileDigests(None) if looked else FileDigests.for_site(root)
        folder, key = cache_folder(root, "loaded"), cache_key(digests)
        cache = memo.cache_for(folder, key) if memo else LoadCache(folder, key)
    else:
        parsed, stats, cache = None, FileDigests(None), LoadCache(None, {})
    runs, table, cleans, found = load_runs(
        root, known, problems, digests, parsed, stats, cache, scan, listing, runs_changed
    )
    if memo is not None:
        memo.listing, memo.reread = found, runs_changed
    if use_cache:
        parsed.prune()
        stats.save(SiteLayout.RUNS_PREFIX)
        cache.save(cleans, table.columns)
    counted, lacking = output_counts(runs, table)
    _output_errors(root, lacking, problems)
    if problems.has_errors:
        return None, problems
    site = Site(
        root=str(root),
        config=known.config,
        models=known.models,
        gpus=known.gpus,
        workloads=known.workloads,
        pricing=known.pricing,
        runs=tuple(sorted(runs, key=lambda r: (r.date, r.id))),
        table=table,
        digests=digests,
        output_workloads=counted,
    )
    return site, problems
