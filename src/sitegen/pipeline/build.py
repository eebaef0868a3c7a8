"""`sitegen build`'s work: every output made or kept (stages.py), staged, then committed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cache.manifest import Manifest
from ..layout import SiteLayout
from ..output.staging import MARKER, OutputError, Staging, unsafe_out
from ..records import Problem, Problems, SiteError
from ..records.fingerprint import scan_inputs
from .jobcache import JobCache
from .progress import Progress

if TYPE_CHECKING:
    from ..views.replan import LastPlan

# made by stages.py, which imports numpy, pyarrow and the templates: only when there is work
_OUTPUTS = ("Rendered", "Reuse", "render_outputs", "render_site")


def __getattr__(name: str) -> Any:
    if name in _OUTPUTS:
        from . import stages

        return getattr(stages, name)
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
    previous = Manifest.read(site_root, out) if use_cache else None
    last = JobCache.read(site_root, out) if previous is not None else None
    # without the last build's records nothing is kept: the inputs' digest is then taken from
    # the loader, which reads the run files anyway (an open scan)
    first = last is None or not last.records
    scan = scan_inputs(site_root, f"strict={strict}", open_runs=first) if use_cache else None
    inputs = scan.digest if scan is not None else None
    reuse = None
    if previous is not None and last is not None:
        changed = frozenset(previous.not_intact())
        if inputs is not None and last.inputs == inputs and previous.entries and not changed:
            return _nothing_to_do(out, previous, last)
        from .stages import Reuse  # numpy, pyarrow, the templates: only for a build with work

        def intact(rel: str) -> bool:
            return rel in previous.entries and rel not in changed

        reuse = Reuse(last.records, intact, last.checked, _last_plan(last, intact), last.loaded)
    if previous is not None:  # the files whose bytes a build would not change are kept
        staging.previous = previous
    from .stages import render_outputs

    rendered = render_outputs(
        site_root,
        strict,
        use_cache,
        progress,
        reuse,
        parallel=True,
        store=staging.put,
        scan=scan,
        outputs=staging,
    )
    if inputs is None and scan is not None:  # the scan, with the loader's digests where open
        done = scan.completed(rendered.read, site_root)
        inputs = done.digest if done is not None else None
    progress.phase("write")
    if use_cache:
        JobCache.forget(site_root)  # never a record of files other than those in the output
    written = staging.commit(rendered.files)
    if use_cache:
        written.manifest.write(site_root)
        warnings = tuple(rendered.problems.warnings)
        plan = rendered.plan.to_json() if rendered.plan is not None else None
        records = JobCache(
            out.resolve(), rendered.jobs, inputs, warnings, rendered.checked, plan, rendered.read
        )
        records.write(site_root)
    files = rendered.files
    pages = sum(1 for name in files if name.endswith(".html"))
    return BuildResult(out, pages, len(files), rendered.problems, written.rewritten, rendered.made)


def _last_plan(last: JobCache, intact: Callable[[str], bool]) -> LastPlan | None:
    """The last build's plan, of the jobs whose outputs are all still as it left them."""
    from ..views.replan import LastPlan

    if last.plan is None:
        return None
    keys_of = {
        name: record.key
        for name, record in last.records.items()
        if all(map(intact, record.outputs))
    }
    try:
        return LastPlan.from_json(last.plan, keys_of)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # not a plan this code wrote: every job is keyed anew


def _nothing_to_do(out: Path, manifest: Manifest, last: JobCache) -> BuildResult:
    """The result of a build whose inputs are those of the last one, whose output is intact."""
    names = [rel for rel in manifest.entries if rel != MARKER]
    pages = sum(1 for rel in names if rel.endswith(".html"))
    return BuildResult(out, pages, len(names), Problems(last.problems))
