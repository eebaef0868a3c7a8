"""One build: load -> check -> compute -> plan pages -> render -> write."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .content import load_content
from .layout import SiteLayout
from .manifest import Manifest
from .output import unsafe_out, write_tree
from .output_paths import check_outputs
from .pages import plan_site
from .progress import Progress
from .records import Problem, Problems, SiteError, load_site
from .render import asset_files, check_templates, environment, render_page, template_problem
from .sitemap import robots_txt, sitemap_xml
from .tables import summarise


@dataclass(frozen=True)
class BuildResult:
    out_dir: Path
    pages: int
    files: int
    problems: Problems
    rewritten: tuple[str, ...] = ()  # files written anew; the others kept as they were


def render_site(
    site_root: Path,
    strict: bool = False,
    cache_charts: bool = True,
    progress: Progress | None = None,
) -> tuple[dict[str, bytes], Problems]:
    """Everything a build writes, as output path -> bytes. Raises SiteError on errors.

    With `cache_charts` off nothing at all is written, not even the chart cache (sitegen check).
    """
    site_root = Path(site_root)
    progress = progress or Progress()
    progress.phase("load")
    site, problems = load_site(site_root)
    if site is None:
        raise SiteError(problems.sorted())
    run_ids = {run.id for run in site.runs}
    content = load_content(site_root, site.models, site.gpus, problems, run_ids)
    check_templates(site_root, problems)
    progress.phase("compute")
    pairs = summarise(site)
    plan = plan_site(site, pairs, content, problems, cache_charts)
    problems.extend(check_outputs(site, content, plan, site_root))
    if problems.has_errors or (strict and problems):
        raise SiteError(problems.sorted())
    env = environment(site_root)
    shared = {"site": site.config, "nav_pages": sorted(content.pages)}
    files: dict[str, bytes] = {}
    failed = Problems()
    progress.phase("render", len(plan.pages))
    for page in plan.pages:
        try:
            files[page.path] = render_page(env, page, shared).encode("utf-8")
        except Exception as exc:  # noqa: BLE001 - a site's own template may fail in any way
            failed.add(template_problem(exc, site_root, page.path))
        progress.step()
    if failed:
        raise SiteError(failed.sorted())
    for data in plan.files:
        files[data.path] = data.text.encode("utf-8")
    files["sitemap.xml"] = sitemap_xml(site.config.base_url, plan.pages).encode()
    files["robots.txt"] = robots_txt(site.config.base_url).encode()
    files.update(asset_files(site_root))
    return files, problems


def build(
    site_root: Path | str,
    out_dir: Path | str | None = None,
    strict: bool = False,
    progress: Progress | None = None,
    use_cache: bool = True,
) -> BuildResult:
    """Build the site into out_dir (default: <site>/public); the old output stays on error.

    With `use_cache` (the default) the cache beside the site (.sitegen-cache/) saves work: charts
    are drawn once, and only files whose bytes changed are written. Without it nothing is read
    from the cache; the output is the same, byte for byte.
    """
    site_root = Path(site_root)
    out = Path(out_dir) if out_dir is not None else SiteLayout(site_root).public
    refused = unsafe_out(site_root, out)
    if refused:
        raise SiteError([Problem("--out", None, "", refused)], "nothing written")
    progress = progress or Progress()
    files, problems = render_site(site_root, strict, cache_charts=use_cache, progress=progress)
    progress.phase("write")
    previous = Manifest.read(site_root, out) if use_cache else None
    try:
        written = write_tree(out, files, previous)
    except OSError as exc:
        where = exc.filename or out
        reason = exc.strerror or str(exc)
        raise SiteError(
            [Problem("--out", None, "", f"cannot write {out} ({where}: {reason})")],
            "nothing written",
        ) from None
    if use_cache:
        written.manifest.write(site_root)
    pages = sum(1 for name in files if name.endswith(".html"))
    return BuildResult(out, pages, len(files), problems, written.rewritten)
