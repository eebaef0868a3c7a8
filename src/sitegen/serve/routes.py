"""Which bytes answer which URL: the site's files only, under its base path, never anything else.

Pure functions over a Snapshot, so every rule can be tested without a socket. The files come
from an in-memory build, so no URL can reach the disk; the checks below keep the URL space
itself strict (one spelling per file) and turn every odd spelling into the site's 404 page.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html import escape
from importlib.resources import files as package_files
from posixpath import splitext
from urllib.parse import unquote

import jinja2

from .state import Snapshot

PREFIX = "/__sitegen/"  # the preview's own URLs; site slugs cannot start with "_"
EVENTS_PATH = PREFIX + "events"
SCRIPT_PATH = PREFIX + "livereload.js"
INDEX = "index.html"
NOT_FOUND_PAGE = "404.html"

# Fixed here rather than taken from the `mimetypes` module, which reads the machine's tables.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
}
HTML = CONTENT_TYPES[".html"]


@dataclass(frozen=True)
class Redirect:
    location: str


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    content_type: str
    location: str | None = None


def content_type(name: str) -> str:
    return CONTENT_TYPES.get(splitext(name)[1].lower(), "application/octet-stream")


def _segments(rest: str) -> list[str] | None:
    """Decoded path segments, or None for any spelling that could step or hide a step."""
    raw = rest.split("/")
    decoded = []
    for i, segment in enumerate(raw):
        name = unquote(segment, errors="strict") if "%" in segment else segment
        if name in ("", ".", "..") and not (name == "" and i == len(raw) - 1):
            return None  # "//", "/./", "/../" (raw or encoded)
        if any(char in name for char in "/\\\x00"):
            return None  # an encoded slash, a backslash or a NUL inside one segment
        decoded.append(name)
    return decoded


def locate(files: dict[str, bytes], base_path: str, target: str) -> str | Redirect | None:
    """The output file that answers `target` (a request path with query), a redirect, or None."""
    path, _, query = target.partition("?")
    path = path.partition("#")[0]
    suffix = f"?{query}" if query else ""
    if not path.startswith("/") or "\\" in path:
        return None
    if path == base_path.rstrip("/") or (path == "/" and base_path != "/"):
        return Redirect(base_path + suffix)
    if not path.startswith(base_path):
        return None
    try:
        segments = _segments(path[len(base_path) :])
    except UnicodeDecodeError:
        return None
    if segments is None:
        return None
    name = "/".join(segments)
    if name == "" or name.endswith("/"):
        index = name + INDEX
        return index if index in files else None
    if name in files:
        return name
    if f"{name}/{INDEX}" in files:
        return Redirect(path + "/" + suffix)  # the folder's page, at its one spelling
    return None


def script_tag(version: str) -> bytes:
    return f'<script src="{SCRIPT_PATH}" data-version="{escape(version)}"></script>\n'.encode()


def inject(html: bytes, version: str) -> bytes:
    """The page with the live-reload script before its closing </body> (or at its end)."""
    at = html.lower().rfind(b"</body>")
    tag = script_tag(version)
    return html + tag if at < 0 else html[:at] + tag + html[at:]


@functools.cache
def _failed_template() -> jinja2.Template:
    """The preview's own page (failed.html beside this module): never the site's templates,
    which may be what fails."""
    source = package_files(__package__).joinpath("failed.html").read_text(encoding="utf-8")
    return jinja2.Environment(autoescape=True, keep_trailing_newline=True).from_string(source)


def failed_page(snapshot: Snapshot) -> bytes:
    """Shown before any build has succeeded: the problems, and the script to reload when fixed."""
    page = _failed_template().render(problems=[str(problem) for problem in snapshot.problems])
    return inject(page.encode("utf-8"), snapshot.version)


def script() -> bytes:
    return package_files(__package__).joinpath("livereload.js").read_bytes()


def reply(snapshot: Snapshot, target: str) -> Reply:
    """Everything but the event stream: a site file, a redirect, the script, or a 404."""
    if target.partition("?")[0] == SCRIPT_PATH:
        return Reply(200, script(), CONTENT_TYPES[".js"])
    if not snapshot.files:
        return Reply(503, failed_page(snapshot), HTML)
    found = locate(snapshot.files, snapshot.base_path, target)
    if isinstance(found, Redirect):
        return Reply(302, b"", "text/plain; charset=utf-8", found.location)
    if found is None:
        page = snapshot.files.get(NOT_FOUND_PAGE)
        if page is None:
            return Reply(404, b"404 not found\n", CONTENT_TYPES[".txt"])
        return Reply(404, inject(page, snapshot.version), HTML)
    body = snapshot.files[found]
    kind = content_type(found)
    return Reply(200, inject(body, snapshot.version) if kind == HTML else body, kind)
