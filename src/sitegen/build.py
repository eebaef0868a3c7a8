"""One build: load -> check -> compute -> plan pages -> render -> write."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path

import jinja2

from .content import load_content
from .output import write_tree
from .pages import plan_site
from .records import Problem, Problems, SiteError, load_site
from .records.yamlpos import ParseError, decode
from .render import asset_files, environment, render_page
from .sitemap import robots_txt, sitemap_xml
from .tables import summarise


@dataclass(frozen=True)
class BuildResult:
    out_dir: Path
    pages: int
    files: int
    problems: Problems


def render_site(site_root: Path, strict: bool = False) -> tuple[dict[str, bytes], Problems]:
    """Everything a build writes, as output path -> bytes. Raises SiteError on errors."""
    site_root = Path(site_root)
    site, problems = load_site(site_root)
    if site is None:
        raise SiteError(problems.sorted())
    run_ids = {run.id for run in site.runs}
    content = load_content(site_root, site.models, site.gpus, problems, run_ids)
    pairs = summarise(site)
    plan = plan_site(site, pairs, content, problems)
    if problems.errors or (strict and problems.warnings):
        raise SiteError(problems.sorted())
    env = environment(site_root)
    shared = {"site": site.config, "nav_pages": sorted(content.pages)}
    files: dict[str, bytes] = {}
    failed = Problems()
    for page in plan.pages:
        try:
            files[page.path] = render_page(env, page, shared).encode("utf-8")
        except Exception as exc:  # noqa: BLE001 - a site's own template may fail in any way
            failed.add(template_problem(exc, site_root, page.path))
    if failed:
        raise SiteError(failed.sorted())
    for data in plan.files:
        files[data.path] = data.text.encode("utf-8")
    files["sitemap.xml"] = sitemap_xml(site.config.base_url, plan.pages).encode()
    files["robots.txt"] = robots_txt(site.config.base_url).encode()
    files.update(asset_files(site_root))
    return files, problems


def _template_rel(filename: str, site_root: Path) -> str:
    """templates/x.html for the site's own templates, else the theme's path."""
    path = Path(filename).resolve()
    try:
        return path.relative_to(site_root.resolve()).as_posix()
    except ValueError:
        return f"{path.parent.name}/{path.name} (the built-in theme)"


def template_problem(exc: Exception, site_root: Path, page: str) -> Problem:
    """A template that fails to load or render, as `templates/x.html:line: template: ...`."""
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename:
        rel = _template_rel(exc.filename, site_root)
        return Problem(rel, exc.lineno, "template", exc.message or "syntax error")
    if isinstance(exc, UnicodeDecodeError):
        for path in sorted((site_root / "templates").rglob("*.html")):
            try:
                decode(path.read_bytes())
            except ParseError as bad:
                return Problem(path.relative_to(site_root).as_posix(), bad.line, "", bad.message)
        return Problem(
            "templates/", None, "template", f"a template is not UTF-8 text ({exc.reason})"
        )
    if isinstance(exc, jinja2.TemplateNotFound):
        return Problem("templates/", None, "template", f"{exc.name}: not found (on {page})")
    # Jinja puts the template's file and line into the traceback of a render error
    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if f.filename.endswith((".html", ".xml", ".txt", ".j2"))
    ]
    if frames:
        frame = frames[-1]
        rel = _template_rel(frame.filename, site_root)
        return Problem(rel, frame.lineno, "template", str(exc))  # as `sitegen serve` says it
    return Problem("templates/", None, "template", f"{exc} (rendering {page or 'index.html'})")


SOURCES = ("data", "content", "templates")


def unsafe_out(site_root: Path, out: Path) -> str:
    """Why writing to `out` would destroy something (a build replaces the whole folder), or ''."""
    site, target = site_root.resolve(), out.resolve()
    if target.exists() and not target.is_dir():
        return f"{out} is a file; --out names the folder to write the site into"
    blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        return f"{blocking} is a file, so the folder {out} cannot be made"
    if target == site or target in site.parents:
        return f"{out} is the site folder or holds it; a build replaces its output folder entirely"
    for name in SOURCES:
        source = site / name
        if target == source or source in target.parents:
            return f"{out} is inside the site's {name}/; choose a folder of its own (e.g. public)"
    if target.is_dir() and any((target / name).exists() for name in ("sitegen.yaml", ".git")):
        return (
            f"{out} holds a site or a git repository; a build replaces its output folder entirely"
        )
    return ""


def build(
    site_root: Path | str, out_dir: Path | str | None = None, strict: bool = False
) -> BuildResult:
    """Build the site into out_dir (default: <site>/public); the old output stays on error."""
    site_root = Path(site_root)
    out = Path(out_dir) if out_dir is not None else site_root / "public"
    refused = unsafe_out(site_root, out)
    if refused:
        raise SiteError([Problem("--out", None, "", refused)], "nothing written")
    files, problems = render_site(site_root, strict)
    try:
        write_tree(out, files)
    except OSError as exc:
        where = exc.filename or out
        reason = exc.strerror or str(exc)
        raise SiteError(
            [Problem("--out", None, "", f"cannot write {out} ({where}: {reason})")],
            "nothing written",
        ) from None
    pages = sum(1 for name in files if name.endswith(".html"))
    return BuildResult(out, pages, len(files), problems)
