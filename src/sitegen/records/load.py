"""Reading a site folder: every data file parsed, checked and turned into a Site."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..layout import SiteLayout
from . import columnar, parquet, schema
from .checker import SLUG, Checker
from .columnar import ConfigTable
from .model import Catalogs, Run, Site, SweepRun
from .parsecache import MISSING, ParseCache
from .problems import WARNING, Problem, Problems
from .yamlpos import Document, ParseError, decode, parse

EMPTY = Document({})
# plain sweeps are screened this many files at a time: all of a big site's parsed documents at
# once would take gigabytes; the table holds their configs in a fraction of that
SCREEN_FILES = 256


def file_digest(raw: bytes) -> str:
    """The digest of a file's bytes: what later builds compare to know it did not change."""
    return hashlib.blake2b(raw, digest_size=20).hexdigest()


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
    if not path.is_file():
        if required:
            problems.add(Problem(rel, None, "", "file not found"))
        return EMPTY
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
        return EMPTY
    digest = file_digest(raw)
    if digests is not None:
        digests[rel] = digest
    json_file = path.suffix == ".json"
    if parsed is not None and not json_file:
        data = parsed.get(digest)
        if data is not MISSING:
            return Document(data, text=raw.decode("utf-8"))
    try:
        doc = parse(decode(raw), json_file=json_file)
    except ParseError as exc:
        problems.add(Problem(rel, exc.line, "", exc.message))
        return EMPTY
    if parsed is not None and not json_file:
        parsed.put(digest, doc.data, len(raw))
    return doc


def run_id(rel_to_runs: str) -> str:
    """data/runs/localmaxxing/paiton.yaml -> localmaxxing-paiton."""
    stem = re.sub(r"\.(ya?ml|json|parquet)$", "", rel_to_runs)
    return stem.replace("/", "-")


def catalogs(root: Path, problems: Problems, digests: dict[str, str] | None = None) -> Catalogs:
    """models, GPUs, workloads, pricing and sitegen.yaml, checked; their digests into `digests`."""

    def checked(rel: str, fn, *args):
        doc = read_document(root / rel, rel, problems, digests=digests)
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
            f"run id {rid!r} (from the file path) must be lowercase a-z 0-9 . -; rename the file",
        )
    kind = c.choice(record, (), "kind", ("sweep", "matrix"), default="sweep")
    check = schema.matrix if kind == "matrix" else schema.sweep
    run = check(c, record, rid, rel, known)
    return None if c.failed else run


def run_files(root: Path, ids: dict[str, str], problems: Problems) -> list[tuple[Path, str, str]]:
    """(path, path relative to the site, run id) of every run file under data/runs/.

    `ids` gets the id of each record file (an archive's runs are named when it is read).
    """
    runs_dir, suffixes = SiteLayout(root).runs, SiteLayout.RUN_SUFFIXES
    found: list[tuple[Path, str, str]] = []
    if not runs_dir.is_dir():
        return found
    for path in sorted(p for p in runs_dir.rglob("*") if p.suffix.lower() in suffixes):
        inside = path.relative_to(runs_dir).parts
        if any(part.startswith(".") for part in inside):
            continue  # hidden files and folders (editor backups, .git) are not records
        rel = path.relative_to(root).as_posix()
        if path.suffix not in suffixes:
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
        if path.is_symlink() and not path.exists():
            problems.add(
                Problem(rel, None, "", "cannot read: a link to a file that does not exist")
            )
            continue
        if not path.is_file():
            continue
        rid = run_id(path.relative_to(runs_dir).as_posix())
        if path.suffix == parquet.SUFFIX:
            found.append((path, rel, rid))
            continue
        if rid in ids:
            problems.add(Problem(rel, None, "", f"run id {rid!r} is also the id of {ids[rid]}"))
            continue
        ids[rid] = rel
        found.append((path, rel, rid))
    return found


def _plain_sweep(data: Any, rid: str) -> bool:
    """A sweep whose configs the columnar screen can read: the common case by far."""
    return (
        isinstance(data, dict)
        and data.get("kind", "sweep") == "sweep"
        and isinstance(data.get("configs"), list)
        and len(data["configs"]) > 0
        and SLUG.match(rid) is not None
    )


def load_runs(
    root: Path,
    known: Catalogs,
    problems: Problems,
    digests: dict[str, str] | None = None,
    parsed: ParseCache | None = None,
) -> tuple[list[Run], ConfigTable]:
    """Every run record, checked; the sweeps' configs in one table; each file's digest.

    Plain sweeps go through the columnar screen together; a file the screen flags, and every
    other record, goes through the exact checker, which words each problem and finds its line.
    """
    runs: list[Run] = []
    plain: list[tuple[str, str, Document]] = []  # waiting for the screen, SCREEN_FILES at most
    clean: list[tuple[str, str, dict, int]] = []  # (rel, id, run fields, configs) in the table
    parts: list[dict[str, np.ndarray]] = []  # their columns, a part per batch

    def screen_batch() -> None:
        """Screen the waiting sweeps together; their documents are dropped afterwards."""
        screened = columnar.screen([doc.data["configs"] for _, _, doc in plain])
        good: list[int] = []
        for k, (rel, rid, doc) in enumerate(plain):
            if k in screened.flagged:
                if (run := check_run(doc.data, doc, rel, rid, known, problems)) is not None:
                    runs.append(run)
                continue
            c = Checker(rel, doc, problems)
            fields = schema.sweep_fields(c, doc.data, known)
            if not c.failed:
                good.append(k)
                clean.append((rel, rid, fields, len(doc.data["configs"])))
        keep = np.isin(screened.owner, good)
        parts.append({name: col[keep] for name, col in screened.columns.items()})
        plain.clear()

    ids: dict[str, str] = {}
    files = run_files(root, ids, problems)
    for path, rel, rid in files:
        if path.suffix == parquet.SUFFIX:  # rows -> records, each checked as a YAML one is
            try:
                raw = path.read_bytes()
            except OSError as exc:
                problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
                continue
            if digests is not None:
                digests[rel] = file_digest(raw)
            runs.extend(archive_runs(raw, rel, rid, known, ids, problems))
            continue
        doc = read_document(path, rel, problems, digests=digests, parsed=parsed)
        if doc is EMPTY:
            continue
        if _plain_sweep(doc.data, rid):
            plain.append((rel, rid, doc))
            if len(plain) >= SCREEN_FILES:
                screen_batch()
        elif (run := check_run(doc.data, doc, rel, rid, known, problems)) is not None:
            runs.append(run)
    screen_batch()
    # sweeps the exact checker built: their configs follow the screened ones in the table
    checked = [(i, r) for i, r in enumerate(runs) if isinstance(r, SweepRun)]
    parts += [columnar.columns_of(r.configs) for _, r in checked]
    table = columnar.ConfigTable.concat(parts)
    start = 0
    for rel, rid, fields, count in clean:
        stop = start + count
        rows = columnar.ConfigRows(table, start, stop)
        runs.append(SweepRun(id=rid, path=rel, kind="sweep", configs=rows, **fields))
        start = stop
    for i, run in checked:
        stop = start + len(run.configs)
        runs[i] = dataclasses.replace(run, configs=columnar.ConfigRows(table, start, stop))
        start = stop
    order = {rel: n for n, (_, rel, _) in enumerate(files)}
    runs.sort(key=lambda run: order[run.path])
    _cross_checks(root, runs, table, known, problems)
    return runs, table


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


def _same_configs(runs: list[Run], table: ConfigTable) -> dict[tuple, list[tuple[SweepRun, int]]]:
    """Configs measured more than once on the same date (any files), in file order."""
    sweeps = [r for r in runs if isinstance(r, SweepRun) and len(r.configs)]
    if not sweeps:
        return {}
    identity = ("model", "gpu", "workload", "engine", "precision", "date")
    order, lengths, index = columnar.run_rows(sweeps)
    frame = pd.DataFrame({k: table.columns[k][order] for k in schema.CONFIG_KEY})
    for name in identity:
        frame[name] = np.repeat(np.array([str(getattr(r, name)) for r in sweeps]), lengths)
    frame["run"] = np.repeat(np.arange(len(sweeps)), lengths)
    frame["i"] = index
    twice = frame[frame.duplicated(subset=[*identity, *schema.CONFIG_KEY], keep=False)]
    groups: dict[tuple, list[tuple[SweepRun, int]]] = defaultdict(list)
    for row in twice.itertuples(index=False):
        key = tuple(getattr(row, k) for k in identity) + tuple(
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


def load_site(root: Path | str, use_cache: bool = False) -> tuple[Site | None, Problems]:
    """Read and check a whole site. The Site is None when any error was found.

    With `use_cache`, YAML run records parsed by an earlier build are read from the site's
    cache (records.parsecache) instead of being parsed again, and the cache is kept up to date.
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
    parsed = ParseCache(layout.cache / "parsed") if use_cache else None
    runs, table = load_runs(root, known, problems, digests, parsed)
    if parsed is not None:
        parsed.prune()
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
    )
    return site, problems
