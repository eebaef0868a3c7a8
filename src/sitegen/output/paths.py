"""Every output path of a build, checked in one place before anything is written.

The plan's pages and data files, sitemap.xml, robots.txt and the assets: each path must be
one a file system takes (components of at most 255 bytes, the whole at most MAX_PATH_BYTES, no
control characters, no `.` or `..`), the only one of its name (also with case folded, as
macOS and Windows fold it), never a file where another path needs a folder, and no reserved
name. A problem names the data that made the path (the line of a slug, a content file, a
run record), so `sitegen check` reports it exactly as `build` does, and `--out` is never
blamed for it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..layout import SiteLayout
from ..records import Problem, Problems, Site
from ..records.load import read_document
from ..render.content import Content
from ..render.environment import ASSETS, asset_names
from .search import FOLDER as SEARCH_FOLDER

MAX_COMPONENT_BYTES = 255  # NAME_MAX of ext4, APFS, NTFS...
# Linux allows 4096 bytes for a whole path: this leaves the output folder's own path room
MAX_PATH_BYTES = 1024
# the files a build writes at the root, and the folders it fills
SITE_FILES = (
    *("index.html", "404.html", "sitemap.xml", "robots.txt", "feed.xml", "llms.txt"),
    "changes.json",
)
RESERVED_PAGE_NAMES = (*SITE_FILES, ASSETS, "data", SEARCH_FOLDER)
# no folder may take the name of a file a build writes in folders
FILE_NAMES = ("index.html", "data.json", "social.png", "badge.svg", *SITE_FILES)
VS = "-vs-"


@dataclass(frozen=True)
class Origin:
    """Where an output path comes from: the file (and line, field) to name in a problem."""

    file: str
    line: int | None
    field: str
    what: str  # "the page of GPU g1", for the other side of a collision


class _Origins:
    """The data behind each path, found from the path's shape (docs/pages.md)."""

    def __init__(self, site: Site, content: Content, root: Path) -> None:
        self.site, self.content, self.root = site, content, root
        self.runs = {run.id: run.path for run in site.runs}
        self._lines: dict[str, object] = {}

    def _slug(self, file: str, slug: str, what: str) -> Origin:
        if file not in self._lines:
            self._lines[file] = read_document(self.root / file, file, Problems())
        line = self._lines[file].line((slug,))  # type: ignore[attr-defined]
        return Origin(file, line, slug, what)

    def model(self, slug: str) -> Origin:
        return self._slug("data/models.yaml", slug, f"the page of model {slug}")

    def workload(self, slug: str, what: str) -> Origin:
        return self._slug("data/workloads.yaml", slug, what)

    def gpu(self, slug: str, what: str = "") -> Origin:
        return self._slug("data/gpus.yaml", slug, what or f"the page of GPU {slug}")

    def compare(self, pair: str, model: str | None) -> Origin:
        """A comparison folder <a>-vs-<b> names a GPU whose slug holds "-vs-", where one does
        (two comparisons can then share the folder), else its first GPU. `model`: the
        comparison's, None for the page of the two GPUs across every model."""
        splits = [
            (a, pair[len(a) + len(VS) :])
            for a in sorted(self.site.gpus)
            if pair.startswith(a + VS) and pair[len(a) + len(VS) :] in self.site.gpus
        ]
        of = f" for {model}" if model is not None else ""
        if not splits:
            return self.gpu(pair, f"the comparison {pair}{of}")
        what = " and of ".join(f"{a} with {b}" for a, b in splits)
        blamed = next((g for split in splits for g in split if VS in g), splits[0][0])
        return self.gpu(blamed, f"the comparison of {what}{of}")

    def of(self, path: str, part: int | None = None) -> Origin:
        """The data behind `path`; with `part`, the data behind that part of it (a model's
        slug in models/<model>/<gpu>/, say)."""
        parts = path.split("/")
        head, rest = parts[0], parts[1:]
        if rest == ["index.html"] and head in self.content.pages:
            return Origin(f"content/{head}.md", None, "", f"the page content/{head}.md")
        if head == "models" and len(rest) >= 4 and part == 3:  # a pair's other workload
            return self.workload(rest[2], f"the page of {rest[0]} on {rest[1]}, {rest[2]}")
        if head in ("models", "embed") and len(rest) >= 3 and part != 1:
            page = "page" if head == "models" else "embed"
            return self.gpu(rest[1], f"the {page} of {rest[0]} on GPU {rest[1]}")
        if head in ("models", "embed") and rest:
            return self.model(rest[0])
        if head == "gpus" and rest:
            return self.gpu(rest[0])
        if head == "compare" and len(rest) == 2:  # the two GPUs across every model
            return self.compare(rest[0], None)
        if head == "compare" and len(rest) >= 2 and part == 2:
            return self.model(rest[1])
        if head == "compare" and len(rest) >= 2:
            return self.compare(rest[0], rest[1])
        if head == "runs" and rest and rest[0] in self.runs:
            return Origin(self.runs[rest[0]], None, "", f"the report of run {rest[0]}")
        if head == ASSETS:
            own = SiteLayout(self.root).templates / path
            file = own.relative_to(self.root).as_posix() if own.exists() else "templates/"
            return Origin(file, None, "", f"the asset {path}")
        return Origin("sitegen", None, "", f"the site's own {path}")


# a part of ASCII letters, digits, `.`, `_` and `-` needs no look at each character
_PLAIN_PART = re.compile(r"[A-Za-z0-9._-]{1,255}\Z")


def _odd(component: str) -> str:
    if _PLAIN_PART.match(component) and component not in (".", ".."):
        return ""
    if component in ("", ".", ".."):
        return f"an empty, . or .. part ({component!r})"
    if len(component.encode("utf-8")) > MAX_COMPONENT_BYTES:
        return f"a part of {len(component.encode('utf-8'))} bytes (at most {MAX_COMPONENT_BYTES})"
    for char in component:
        if char in '\\:*?"<>|' or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            return f"the character {char!r}, which file systems or URLs do not take"
    return ""


def shape_problem(path: str) -> tuple[str, int | None]:
    """What is wrong with one path on its own ('' when nothing), and the part that is."""
    size = len(path.encode("utf-8"))
    if size > MAX_PATH_BYTES:
        return f"is {size} bytes long (at most {MAX_PATH_BYTES})", None
    parts = path.split("/")
    for i, part in enumerate(parts):
        if odd := _odd(part):
            return f"has {odd}", i
    if len(parts) == 2 and parts[1] == "index.html" and parts[0] in RESERVED_PAGE_NAMES:
        return f"is where {parts[0]!r} is reserved for the site's own files", 0
    for i, part in enumerate(parts[:-1]):
        if part in FILE_NAMES:
            return f"has a folder named {part!r}, a name reserved for the files a build writes", i
    return "", None


def output_list(made: Iterable[str], root: Path) -> list[str]:
    """Every output path of a build: those the jobs `made` (a path twice where two jobs make
    it), the sitemap, robots.txt and the assets."""
    return [*made, "sitemap.xml", "robots.txt", *asset_names(root)]


def list_digest(paths: list[str]) -> str:
    """The digest of a build's output paths in any order: whether they pass path_problems
    depends on the paths alone, so paths that passed once pass again."""
    return hashlib.blake2b("\0".join(sorted(paths)).encode(), digest_size=20).hexdigest()


def check_outputs(site: Site, content: Content, paths: list[str], root: Path) -> Problems:
    """The problems of a build's output paths (output_list)."""
    return path_problems(paths, _Origins(site, content, Path(root)))


def _problem(origin: Origin, message: str) -> Problem:
    return Problem(origin.file, origin.line, origin.field, message)


def path_problems(paths: Iterable[str], origins: _Origins) -> Problems:
    problems = Problems()
    exact: dict[str, str] = {}
    folded: dict[str, str] = {}
    folders: dict[str, str] = {}  # every folder some path needs -> that path
    for path in paths:
        why, part = shape_problem(path)
        if why:
            problems.add(_problem(origins.of(path, part), f"the output path {path} {why}"))
            continue
        other = exact.get(path) or folded.get(path.casefold())
        if other is not None:
            problems.add(_collision(origins, path, other))
            continue
        exact[path] = folded[path.casefold()] = path
        parts = path.split("/")
        for i in range(1, len(parts)):
            folders.setdefault("/".join(parts[:i]), path)
    for path in exact:
        if path in folders:
            problems.add(_collision(origins, folders[path], path, as_folder=True))
    return problems


def _collision(origins: _Origins, path: str, other: str, as_folder: bool = False) -> Problem:
    here, there = origins.of(path), origins.of(other)
    if as_folder:
        clash = f"needs the folder {other}/, where {there.what} is the file {other}"
    elif path == other and here == there:  # one path, two pages told apart only by data
        clash = "is the path of both"
    elif path == other:
        clash = f"is also {there.what}"
    else:
        clash = f"is {other} ({there.what}) once case is folded, as macOS and Windows fold it"
    hint = " (GPU slugs containing -vs- make comparison addresses ambiguous)" if VS in path else ""
    return _problem(here, f"{here.what}: its output path {path} {clash}; rename one{hint}")
