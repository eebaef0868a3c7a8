"""The Jinja environment: site templates over the built-in theme, display filters, links."""

from __future__ import annotations

import functools
import operator
import posixpath
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup

from ..layout import SiteLayout, theme_dir
from ..records import Problem, Problems
from ..records.sitefiles import SiteFiles
from ..records.yamlpos import ParseError, decode
from .display import FILTERS
from .jsonhtml import json_for_html
from .reproducible import NotReproducible, page_address, printable

ASSETS = "assets"


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
        rel = _relpath(target, from_route or ".")
        return "./" if rel == "." else rel + "/"
    return _relpath(to_path, from_route or ".")


@functools.lru_cache(maxsize=4096)  # a page's own route, for each of its links; the targets
def _segments(path: str) -> tuple[str, ...] | None:
    """The folders and file of a plain relative path ("a/b/", "a/b.json", "."), or None for
    any other (absolute, or with an empty, "." or ".." part)."""
    if path == ".":
        return ()
    parts = path.split("/")
    if parts[-1] == "":
        parts.pop()  # a folder's trailing slash
    if not parts or "" in parts or "." in parts or ".." in parts:
        return None
    return tuple(parts)


@functools.lru_cache(maxsize=8192)  # a page links to the same few places many times
def _relpath(path: str, start: str) -> str:
    """posixpath.relpath(path, start), without its two abspath calls for plain paths."""
    to, here = _segments(path), _segments(start)
    if to is None or here is None:
        return posixpath.relpath(path, start)
    common = 0
    for a, b in zip(to, here, strict=False):
        if a != b:
            break
        common += 1
    return "/".join((*([".."] * (len(here) - common)), *to[common:])) or "."


def page_links(page: Renderable, site: Any) -> Callable[[str], str]:
    """`url(to_path)` for the links of one page: relative to its folder. `site`: the site's
    config (the 404 page's links start at the path of its base_url)."""
    if page.filename == "404.html":  # served at any depth: links from the site's root path
        return functools.partial(operator.add, urlsplit(site.base_url).path)
    return functools.partial(relative, page.route)


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
        finalize=printable,  # an object printed would differ from build to build
    )
    env.filters.update(FILTERS)
    env.filters["tojson"] = json_for_html  # the one way JSON goes into HTML
    return env


def check_templates(site_root: Path, problems: Problems) -> bool:
    """The site's own templates/ (assets too) hold only files of the site: a link leaving its
    input folders is a problem (into `problems`), and nothing under templates/ may be read
    before this passes. True when it does not."""
    found = Problems()
    SiteFiles(site_root).walk(SiteLayout(site_root).templates, found)
    problems.extend(found)
    return found.has_errors


def _files(folder: Path, site_root: Path) -> list[Path]:
    """The files under one template folder: the site's own confined to the site (a problem
    left out is one `check_templates` has reported), the built-in theme's as they are."""
    if folder.resolve().is_relative_to(theme_dir().resolve()):
        return sorted(p for p in folder.rglob("*") if p.is_file())
    return SiteFiles(site_root).walk(folder, Problems())


def _assets(site_root: Path) -> dict[str, Path]:
    """Output path -> file of assets/: the theme's, with the site's own replacing them."""
    found: dict[str, Path] = {}
    for base in reversed(template_dirs(site_root)):
        folder = base / ASSETS
        if folder.is_dir():
            for path in _files(folder, site_root):
                found[f"{ASSETS}/{path.relative_to(folder).as_posix()}"] = path
    return found


def asset_names(site_root: Path) -> list[str]:
    """The output paths of the assets, for the checks of output/paths.py."""
    return sorted(_assets(site_root))


def asset_files(site_root: Path) -> dict[str, bytes]:
    """assets/ of the theme, with the site's own files replacing the theme's of the same name."""
    return {name: path.read_bytes() for name, path in _assets(site_root).items()}


class Renderable(Protocol):
    """What a page gives the renderer: its template, its place (its links are relative to its
    folder) and the template's variables."""

    template: str
    route: str
    filename: str
    path: str
    context: dict[str, Any]


def render_page(env: jinja2.Environment, page: Renderable, globals_: dict) -> str:
    """The page's HTML; NotReproducible when it shows an object's memory address (printed
    through `~` or a filter, which `printable` does not see)."""
    template = env.get_template(page.template)
    # url() is the page's own: a function of the environment would need the page from the
    # context, and Jinja makes a new context for each such call in a loop (some 5 us a link)
    links = page_links(page, globals_.get("site"))
    html = template.render(page=page, url=links, **globals_, **page.context)
    if (shown := page_address(html)) is not None:
        exc = NotReproducible(
            f"the page {page.path} shows an object's memory address, which changes from build "
            f"to build: {shown}"
        )
        exc.filename = template.filename  # type: ignore[attr-defined]
        raise exc
    return html


__all__ = [
    "Markup",
    "asset_files",
    "asset_names",
    "check_templates",
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
    if isinstance(exc, NotReproducible) and getattr(exc, "filename", None):
        return Problem(_template_rel(exc.filename, site_root), None, "template", str(exc))
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
