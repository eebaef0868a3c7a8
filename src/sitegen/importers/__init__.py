"""Importers: the result files of the benchmark tools people already run -> run records.

One module per tool (docs/importing.md); each has NAME, TITLE, `detect(obj)` and
`read(source, options) -> Reading`. `assemble` groups what they read into records (a grid
through `matrix`; what both share in `planning`) and `writer` checks the records as a build
would and writes them.

Errors: a `records.SiteError` carrying every `Problem` found (file:line: field: message),
as a build raises them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..layout import SiteLayout
from ..records import Catalogs, Problem, Problems, SiteError
from ..records.load import catalogs
from . import aiperf, guidellm, inferencex, llm_inference_bench, llmperf, lmx, mlperf, sglang, vllm
from .assemble import plan_records
from .common import Options, Reading, Source, read_source
from .planning import Planned, record_suffix
from .writer import check_records, write_outputs

# Order matters for `auto`: the more specific layouts are tried first.
FORMATS: dict[str, ModuleType] = {
    module.NAME: module
    for module in (
        inferencex,
        lmx,
        llm_inference_bench,
        guidellm,
        aiperf,
        llmperf,
        vllm,
        sglang,
        mlperf,
    )
}
# Formats that read a folder (a results tree), not files.
TREES: dict[str, ModuleType] = {mlperf.NAME: mlperf}
AUTO = "auto"

__all__ = [
    "AUTO",
    "FORMATS",
    "ImportResult",
    "Options",
    "detect",
    "detect_tree",
    "import_results",
]


@dataclass(frozen=True)
class ImportResult:
    format: str
    written: tuple[Path, ...]  # files: one per record, or one archive for them all
    merged: tuple[Path, ...]  # of which were there and got something new
    unchanged: tuple[Path, ...]  # of which were there and got nothing new (not rewritten)
    records: int
    configs: int  # configs (or matrix cells) read from the files
    already: int  # of which each record already had (measured the same; not repeated)
    warnings: tuple[Problem, ...]


def detect(obj: object) -> str | None:
    """The format whose layout this parsed result object has, or None."""
    for name, module in FORMATS.items():
        if module.detect(obj):
            return name
    return None


def _format_of(fmt: str, source: Source) -> str:
    """The format to read `source` with; a clear problem when the named one does not fit."""
    found = detect(source.objects[0])
    if fmt == AUTO:
        if found is None:
            names = ", ".join(FORMATS)
            raise SiteError(
                [Problem(source.name, None, "", f"not a result file of any known tool ({names})")]
            )
        return found
    if FORMATS[fmt].detect(source.objects[0]):
        return fmt
    hint = f"it looks like {found} ({FORMATS[found].TITLE})" if found else "no known layout"
    raise SiteError([Problem(source.name, None, "", f"not a {FORMATS[fmt].TITLE} file: {hint}")])


def read_all(
    fmt: str,
    paths: Sequence[Path],
    options: Options,
    on_format: Callable[[str], None] | None = None,
    known: Catalogs | None = None,
) -> tuple[str, list[Reading]]:
    """Read every file with one format (auto: the one they all have), told to `on_format`;
    a folder with the format that reads results trees (`known`: the site's catalogs)."""
    if fmt in TREES or any(Path(p).is_dir() for p in paths):
        return _read_trees(fmt, [Path(p) for p in paths], options, on_format, known)
    sources = [read_source(Path(p), str(p)) for p in paths]
    formats = {source.name: _format_of(fmt, source) for source in sources}
    chosen = set(formats.values())
    if len(chosen) > 1:
        listing = ", ".join(f"{name}: {f}" for name, f in formats.items())
        raise SiteError(
            [Problem(sources[0].name, None, "", f"files of different tools ({listing})")]
        )
    name = chosen.pop()
    if on_format is not None:
        on_format(name)  # before reading, so that it is said even if the reading fails
    return name, [FORMATS[name].read(source, options) for source in sources]


def _read_trees(
    fmt: str,
    paths: list[Path],
    options: Options,
    on_format: Callable[[str], None] | None,
    known: Catalogs | None,
) -> tuple[str, list[Reading]]:
    """Results trees, read with the one format that reads folders (`auto` finds it)."""
    for path in paths:
        problem = _tree_problem(fmt, path)
        if problem is not None:
            raise SiteError([Problem(str(path), None, "", problem)])
    name = fmt if fmt in TREES else detect_tree(paths[0]) or AUTO
    if on_format is not None:
        on_format(name)
    if known is None:
        raise ValueError("reading a results tree needs the site's catalogs")
    return name, [TREES[name].read_tree(path, options, known) for path in paths]


def detect_tree(path: Path) -> str | None:
    """The format that reads the results tree at `path`, or None."""
    return next((name for name, module in TREES.items() if module.is_tree(path)), None)


def _tree_problem(fmt: str, path: Path) -> str | None:
    """Why `path` cannot be read as a tree with `fmt`, or None."""
    trees = ", ".join(TREES)
    if not path.exists():
        return "not found"
    if fmt not in TREES and fmt != AUTO:
        return f"a folder: the {fmt} format reads result files; only {trees} reads a folder"
    if not path.is_dir():
        if fmt == AUTO:
            return f"a file among folders: import the files and the {trees} tree separately"
        return f"a file: {fmt} reads a results tree ({TREES[fmt].TITLE}), a folder"
    if fmt == AUTO and detect_tree(path) is None:
        return f"a folder, but not a results tree that {trees} reads; files are read one by one"
    return None


def import_results(
    fmt: str,
    paths: Sequence[Path],
    out: Path,
    site_root: Path,
    options: Options,
    on_format: Callable[[str], None] | None = None,
    record_format: str | None = None,
) -> ImportResult:
    """Read, assemble, check and write; SiteError (nothing written) on any error.

    `record_format` (yaml, json, parquet) is what is written; by default --out's suffix says.
    """
    suffix = record_suffix(out, record_format)
    if fmt in TREES or any(Path(p).is_dir() for p in paths):  # read against the catalogs
        known, problems = site_catalogs(site_root)
        name, readings = read_all(fmt, paths, options, on_format, known)
    else:
        name, readings = read_all(fmt, paths, options, on_format)
        known, problems = site_catalogs(site_root)
    planned: list[Planned] = plan_records(name, readings, options, known, out, site_root, suffix)
    checked = check_records(planned, known, site_root, problems)
    warnings = tuple(w for r in readings for w in r.warnings) + tuple(checked.warnings)
    write_outputs(checked.outputs)
    outputs = checked.outputs
    configs = sum(len(p.record.get("configs", p.record.get("decode", []))) for p in planned)
    return ImportResult(
        format=name,
        written=tuple(out.path for out in outputs),
        merged=tuple(out.path for out in outputs if out.existed and not out.unchanged),
        unchanged=tuple(out.path for out in outputs if out.unchanged),
        records=len(planned),
        configs=configs,
        already=configs - sum(m.items_after - m.items_before for m in checked.merged),
        warnings=warnings,
    )


def site_catalogs(site_root: Path) -> tuple[Catalogs, Problems]:
    """The site's catalogs (models, GPUs, workloads...), which must themselves be sound."""
    problems = Problems()
    if reason := SiteLayout(site_root).missing():
        raise SiteError([Problem(SiteLayout.CONFIG, None, "", reason)])
    known = catalogs(site_root, problems)
    if problems.has_errors:
        raise SiteError(problems.sorted())
    return known, problems
