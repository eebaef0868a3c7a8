"""Reading a site folder: every data file parsed, checked and turned into a Site."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from . import parquet, schema
from .checker import SLUG, Checker
from .model import Run, Site, SweepRun
from .problems import WARNING, Problem, Problems, SiteError
from .yamlpos import Document, ParseError, decode, parse

RUN_SUFFIXES = (".yaml", ".yml", ".json", parquet.SUFFIX)
EMPTY = Document({})


def read_document(path: Path, rel: str, problems: Problems, required: bool = True) -> Document:
    """Parse one file; a missing or unreadable file becomes a problem and an empty document."""
    if not path.is_file():
        if required:
            problems.add(Problem(rel, None, "", "file not found"))
        return EMPTY
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
        return EMPTY
    try:
        return parse(decode(raw), json_file=path.suffix == ".json")
    except ParseError as exc:
        problems.add(Problem(rel, exc.line, "", exc.message))
        return EMPTY


def run_id(rel_to_runs: str) -> str:
    """data/runs/localmaxxing/paiton.yaml -> localmaxxing-paiton."""
    stem = re.sub(r"\.(ya?ml|json|parquet)$", "", rel_to_runs)
    return stem.replace("/", "-")


def catalogs(root: Path, problems: Problems) -> dict[str, Any]:
    """models, GPUs, workloads, pricing and sitegen.yaml, checked."""

    def checked(rel: str, fn, *args):
        doc = read_document(root / rel, rel, problems)
        # a file that is missing or unreadable is one problem, not one per field it lacks
        told = problems if doc is not EMPTY else Problems()
        return fn(Checker(rel, doc, told), doc.data, *args)

    out: dict[str, Any] = {
        "models": checked("data/models.yaml", schema.models),
        "gpus": checked("data/gpus.yaml", schema.gpus),
        "workloads": checked("data/workloads.yaml", schema.workloads),
    }
    out["pricing"] = checked("data/pricing.yaml", schema.pricing, out["gpus"])
    out["config"] = checked("sitegen.yaml", schema.site_config, out["workloads"], out["pricing"])
    return out


def check_run(
    data: Any, doc: Document, rel: str, rid: str, known: dict, problems: Problems
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


def load_runs(root: Path, known: dict, problems: Problems) -> list[Run]:
    runs_dir = root / "data" / "runs"
    runs: list[Run] = []
    ids: dict[str, str] = {}
    if not runs_dir.is_dir():
        return runs
    for path in sorted(p for p in runs_dir.rglob("*") if p.suffix.lower() in RUN_SUFFIXES):
        inside = path.relative_to(runs_dir).parts
        if any(part.startswith(".") for part in inside):
            continue  # hidden files and folders (editor backups, .git) are not records
        rel = path.relative_to(root).as_posix()
        if path.suffix not in RUN_SUFFIXES:
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
            runs.extend(archive_runs(path, rel, rid, known, ids, problems))
            continue
        if rid in ids:
            problems.add(Problem(rel, None, "", f"run id {rid!r} is also the id of {ids[rid]}"))
            continue
        ids[rid] = rel
        doc = read_document(path, rel, problems)
        if doc is EMPTY:
            continue
        run = check_run(doc.data, doc, rel, rid, known, problems)
        if run is not None:
            runs.append(run)
    _cross_checks(runs, known, problems)
    return runs


def archive_runs(
    source: Path | bytes,
    rel: str,
    file_id: str,
    known: dict,
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


def _cross_checks(runs: list[Run], known: dict, problems: Problems) -> None:
    """Warnings that need more than one record: duplicate configs, GPUs without a price."""
    groups: dict[tuple, list[tuple[SweepRun, int]]] = defaultdict(list)
    for run in runs:
        if isinstance(run, SweepRun):
            for i, config in enumerate(run.configs):
                key = (
                    run.model,
                    run.gpu,
                    run.workload,
                    run.engine,
                    run.precision,
                    run.date,
                    schema._config_key(config),
                )
                groups[key].append((run, i))
    for places in groups.values():
        files = {run.path for run, _ in places}
        if len(files) > 1:
            first, i = places[0]
            for run, j in places[1:]:
                if run.path != first.path:
                    problems.add(
                        Problem(
                            run.path,
                            run.configs[j].line,
                            f"configs[{j}]",
                            f"duplicate config: also measured in {first.path} configs[{i}] "
                            "on the same date",
                            WARNING,
                        )
                    )
    priced = known["pricing"].prices
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


def load_site(root: Path | str) -> tuple[Site | None, Problems]:
    """Read and check a whole site. The Site is None when any error was found."""
    root = Path(root)
    problems = Problems()
    if not (root / "sitegen.yaml").is_file():
        problems.add(
            Problem(
                "sitegen.yaml",
                None,
                "",
                f"not found in {root}: is this a site folder? (--site DIR)",
            )
        )
        return None, problems
    if not (root / "data").is_dir():
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
    known = catalogs(root, problems)
    runs = load_runs(root, known, problems)
    if problems.errors:
        return None, problems
    site = Site(
        root=str(root),
        config=known["config"],
        models=known["models"],
        gpus=known["gpus"],
        workloads=known["workloads"],
        pricing=known["pricing"],
        runs=tuple(sorted(runs, key=lambda r: (r.date, r.id))),
    )
    return site, problems


def load_site_or_raise(root: Path | str, strict: bool = False) -> tuple[Site, Problems]:
    site, problems = load_site(root)
    if site is None or (strict and problems.warnings):
        raise SiteError(problems.sorted())
    return site, problems
