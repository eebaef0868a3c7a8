"""The Jinja environment: site templates over the built-in theme, display filters, links."""

from __future__ import annotations

import functools
import posixpath
import traceback
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup

from .display import FILTERS
from .layout import SiteLayout
from .records import Problem
from .records.yamlpos import ParseError, decode

if TYPE_CHECKING:  # the views import numpy and pandas, which rendering itself does not need
    from .views import Page

ASSETS = "assets"


def theme_dir() -> Path:
    """The built-in theme: inside the installed package, or the repository's templates/."""
    packaged = Path(__file__).parent / "theme"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "templates"


def template_dirs(site_root: Path) -> list[Path]:
    """A site's own templates/ override the built-in ones file by file."""
    own = SiteLayout(site_root).templates
    dirs = [own] if own.is_dir() else []
    builtin = theme_dir()
    if not dirs or own.resolve() != builtin.resolve():
        dirs.append(builtin)
    return dirs


def relative(from_route: str, to_path: str) -> str:
    """A link from the page in folder `from_route` to `to_path`, both under the site root."""
    if to_path.endswith("/") or to_path == "":
        target = to_path or "."
        rel = posixpath.relpath(target, from_route or ".")
        return "./" if rel == "." else rel + "/"
    return posixpath.relpath(to_path, from_route or ".")


@jinja2.pass_context
def _url(context: jinja2.runtime.Context, to_path: str) -> str:
    page = context["page"]
    if page.filename == "404.html":  # served at any depth: links from the site's root path
        return urlsplit(context["site"].base_url).path + to_path
    return relative(page.route, to_path)


def environment(site_root: Path) -> jinja2.Environment:
    """The site's Jinja environment, kept between builds of one process (sitegen serve).

    Jinja recompiles a template whose file changed; the key holds every template file's path,
    so a template added to or removed from a site's own folder gives a fresh environment.
    """
    dirs = tuple(str(d.resolve()) for d in template_dirs(site_root))
    files = tuple(sorted(str(p) for d in dirs for p in Path(d).rglob("*") if p.is_file()))
    return _environment(dirs, files)


@functools.lru_cache(maxsize=8)
def _environment(dirs: tuple[str, ...], _files: tuple[str, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(dirs)),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(FILTERS)
    env.globals["url"] = _url
    return env


def asset_files(site_root: Path) -> dict[str, bytes]:
    """assets/ of the theme, with the site's own files replacing the theme's of the same name."""
    files: dict[str, bytes] = {}
    for base in reversed(template_dirs(site_root)):
        folder = base / ASSETS
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    files[f"{ASSETS}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
    return files


def render_page(env: jinja2.Environment, page: Page, globals_: dict) -> str:
    template = env.get_template(page.template)
    return template.render(page=page, **globals_, **page.context)


__all__ = [
    "Markup",
    "asset_files",
    "environment",
    "relative",
    "render_page",
    "template_problem",
    "theme_dir",
]


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
        for path in sorted(SiteLayout(site_root).templates.rglob("*.html")):
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
