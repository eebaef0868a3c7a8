"""`sitegen build`'s work: every output made or kept (outputs.py), staged, then committed."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .gcpause import paused
from .jobcache import JobCache
from .layout import SiteLayout
from .manifest import Manifest
from .output import MARKER, OutputError, Staging, unsafe_out
from .progress import Progress
from .records import Problem, Problems, SiteError
from .survey import Survey

# made by outputs.py, which imports numpy, pyarrow and the templates: only when there is work
_OUTPUTS = ("Rendered", "Reuse", "render_outputs", "render_site")


def __getattr__(name: str) -> Any:
    if name in _OUTPUTS:
        from . import outputs

        return getattr(outputs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class BuildResult:
    out_dir: Path
    pages: int
    files: int
    problems: Problems
    rewritten: tuple[str, ...] = ()  # files written anew; the others kept as they were
    made: tuple[str, ...] = ()  # jobs made anew; the others' outputs kept from the last build


def build(
    site_root: Path | str,
    out_dir: Path | str | None = None,
    strict: bool = False,
    progress: Progress | None = None,
    use_cache: bool = True,
) -> BuildResult:
    """Build the site into out_dir (default: <site>/public); the old output stays on error.

    With `use_cache` (the default) the cache beside the site (.sitegen-cache/) saves work: a
    job whose inputs did not change since the last build into the same folder is not made
    again (its files are carried over), charts are drawn once, and only files whose bytes
    changed are written. Without it nothing is read from the cache; the output is the same,
    byte for byte.
    """
    site_root = Path(site_root)
    out = Path(out_dir) if out_dir is not None else SiteLayout(site_root).public
    refused = unsafe_out(site_root, out)
    if refused:
        raise SiteError([Problem("--out", None, "", refused)], "nothing written")
    progress = progress or Progress()
    try:
        # the lock first: the last build's records are read, and the next ones written, by
        # one build at a time
        with Staging(out) as staging:
            return _build(site_root, out, strict, use_cache, progress, staging)
    except OutputError as exc:
        where = exc.filename or out
        reason = exc.strerror or str(exc)
        told = (
            "partly updated; the next build replaces it whole" if exc.partly else "nothing written"
        )
        raise SiteError(
            [Problem("--out", None, "", f"cannot write {out} ({where}: {reason})")], told
        ) from None


def _build(
    site_root: Path, out: Path, strict: bool, use_cache: bool, progress: Progress, staging: Staging
) -> BuildResult:
    with paused():  # the last build's records: many objects, no cycles
        previous = Manifest.read(site_root, out) if use_cache else None
    # the inputs scanned and the last build's files checked by a child process meanwhile
    options = f"strict={strict}"
    with Survey(site_root, options, previous or Manifest(out)) as survey:
        with paused():
            last = JobCache.read(site_root, out) if previous is not None else None
        if use_cache:
            _import_while(lambda: not survey.digest_ready())
        # without the last build's records nothing is kept: the inputs' digest is wanted only
        # for this build's, once the loader has found the run files' (it reads them anyway)
        first = last is None or not last.records
        inputs = survey.digest() if use_cache and not first else None
        unchanged = last is not None and inputs is not None and last.inputs == inputs
        if unchanged and survey.all_intact():
            return _nothing_to_do(out, previous, last)
        from .outputs import Reuse, render_outputs  # numpy, pyarrow, templates: only for work

        reuse = None
        if last is not None:
            reuse = Reuse(last.records, survey.intact, last.checked)
        if previous is not None:
            staging.previous = previous
        scan = survey.scan(open_runs=first) if use_cache else None
        rendered = render_outputs(
            site_root,
            strict,
            use_cache,
            progress,
            reuse,
            parallel=True,
            store=staging.put,
            scan=scan,
            compiled=survey.compiled if use_cache else None,
        )
    if inputs is None and scan is not None:  # the scan, with the loader's digests where open
        done = scan.completed(rendered.read, site_root)
        inputs = done.digest if done is not None else None
    progress.phase("write")
    # with the whole site still alive, each full collection would walk it again: the commit
    # and the records make many objects and no cycles
    with paused():
        if use_cache:
            JobCache.forget(site_root)  # never a record of files other than those in the output
        written = staging.commit(rendered.files)
        if use_cache:
            written.manifest.write(site_root)
            warnings = tuple(rendered.problems.warnings)
            records = JobCache(out.resolve(), rendered.jobs, inputs, warnings, rendered.checked)
            records.write(site_root)
    files = rendered.files
    pages = sum(1 for name in files if name.endswith(".html"))
    return BuildResult(out, pages, len(files), rendered.problems, written.rewritten, rendered.made)


# what making pages imports, in pieces of 0.1 s at most: imported while the survey's child
# looks at the site, as a build with work to do needs them (one with nothing to do waits for
# one piece at most)
_WORK_MODULES = (
    *("numpy", "jinja2", "markdown_it", "pyarrow", "sitegen.records.load", "sitegen.tables"),
    *("sitegen.content", "sitegen.charts", "sitegen.cards", "sitegen.views", "sitegen.outputs"),
)


def _import_while(waiting: Callable[[], bool]) -> None:
    """Import _WORK_MODULES one by one for as long as `waiting()` says so."""
    for name in _WORK_MODULES:
        if not waiting():
            return
        importlib.import_module(name)


def _nothing_to_do(out: Path, manifest: Manifest, last: JobCache) -> BuildResult:
    """The result of a build whose inputs are those of the last one, whose output is intact."""
    names = [rel for rel in manifest.entries if rel != MARKER]
    pages = sum(1 for rel in names if rel.endswith(".html"))
    return BuildResult(out, pages, len(names), Problems(last.problems))
