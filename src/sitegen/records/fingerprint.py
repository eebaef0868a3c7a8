"""A site's inputs as one digest: when it matches the last build's, there is nothing to do.

The digest covers the bytes of every file a build can read (sitegen.yaml, data/, content/, the
site's templates/ and the built-in theme), sitegen's own code and the versions of the libraries
that shape its output, and the options that change what a build does. A file whose stat is the
one recorded by an earlier build is taken at its recorded digest without being read
(cache/digests.py): a build with nothing to do stats the site's files, it does not read them.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..cache.codeversion import code_version
from ..cache.digests import FileDigests, file_digest
from ..layout import SiteLayout, theme_dir
from .problems import Problems
from .sitefiles import SiteFiles, run_suffixed

LIBRARIES = (
    *("jinja2", "markupsafe", "markdown-it-py", "pyyaml", "numpy", "pandas", "pyarrow"),
    *("pillow", "fonttools"),  # the cards' glyph rasteriser (FreeType inside) and font reader
    *("pagefind", "pagefind-bin"),  # the search index (output/search.py)
)


@functools.cache
def library_versions() -> tuple[str, ...]:
    """name=version of each library that shapes the output, and of the zlib Python runs."""
    out = []
    for name in LIBRARIES:
        try:
            out.append(f"{name}={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            out.append(f"{name}=none")
    out.append(f"zlib={zlib.ZLIB_RUNTIME_VERSION}")  # the cards' PNG compressor (cards.png)
    return tuple(out)


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file())


@dataclass(frozen=True)
class InputScan:
    """What one look over a site's files found: the digest of everything a build reads, and
    the digest of each site file's bytes, for the loader to take instead of looking again.

    An open scan (scan_inputs with `open_runs`) leaves the run files' digests (None) and so
    its own (None) to the loader, which reads them anyway: `completed` takes them from it."""

    digest: str | None
    files: dict[str, str | None]  # site file name -> the digest of its bytes, in the walks' order
    plain: bool  # no link was met: each file was found once, under its one name
    # what the digest is made of beside the files, for `completed`
    head: bytes = field(default=b"", compare=False)
    theme: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def open(self) -> bool:
        return self.digest is None

    def completed(self, read: Mapping[str, str], site_root: Path) -> InputScan | None:
        """This scan with each digest it left open taken from `read` (the loader's: the
        digest of the bytes it parsed); a file the loader did not read (under a hidden
        folder) is read now, as no page shows it. None if one cannot be read."""
        if not self.open:
            return self
        files = dict(self.files)
        try:
            for name, digest in files.items():
                if digest is None:
                    known = read.get(name)
                    files[name] = known or file_digest((site_root / name).read_bytes())
        except OSError:
            return None
        digest = _combined(self.head, files.items(), self.theme)
        return InputScan(digest, files, self.plain, self.head, self.theme)

    def under(
        self, prefix: str, wanted: Callable[[str], bool], skipped: Callable[[str], bool]
    ) -> list[str] | None:
        """The names of the files SiteFiles.walk finds under the site folder `prefix`
        ("data/runs/") with these filters, in its order (sorted: one walk's files); None when
        links were met (a walk of its own says where they lead)."""
        if not self.plain:
            return None
        found = []
        for name in self.files:
            if not name.startswith(prefix):
                continue
            folders, _, file_name = name[len(prefix) :].rpartition("/")
            if not wanted(file_name):
                continue
            if folders and any(skipped(folder) for folder in folders.split("/")):
                continue
            found.append(name)
        return found


def site_inputs(site_root: Path, options: str, stat_first: bool = True) -> str | None:
    """The digest of everything a build of `site_root` reads; None if a file cannot be read,
    or must not be (a link leaving the site, a pipe: the build itself says so).

    With `stat_first`, files whose stat is as recorded in the site's cache are not read.
    """
    scan = scan_inputs(site_root, options, stat_first)
    return scan.digest if scan is not None else None


def scan_inputs(
    site_root: Path, options: str, stat_first: bool = True, open_runs: bool = False
) -> InputScan | None:
    """site_inputs, with what it found of each file; None where site_inputs is None. With
    `open_runs`, the run files under data/runs/ are listed, not read: an open scan (unless
    links were met)."""
    layout = SiteLayout(site_root)
    head = f"{code_version()}\0{library_versions()}\0{options}\0".encode()
    site_files, refused = SiteFiles(site_root), Problems()
    names = [layout.CONFIG] if site_files.check(layout.config, refused) else []
    for name in SiteLayout.SOURCE_FOLDERS:
        names += site_files.walk_names(site_root / name, refused)
    if refused:
        return None
    at = os.path.join(site_root, "")
    theme = theme_dir()
    themed = [("theme/" + p.relative_to(theme).as_posix(), p) for p in _files(theme)]
    table = FileDigests.for_site(site_root) if stat_first else FileDigests(None)
    # where links were met the loader walks for itself, and may name a file otherwise: whole
    open_runs = open_runs and not site_files.met_links
    files: dict[str, str | None] = {}
    try:
        for name in names:
            if open_runs and _run_file(name):
                files[name] = None
                table.keep(name)  # the loader brings its entry up to date
            else:
                files[name] = table.digest(name, at + name)
        theme_digests = tuple((name, table.digest(name, path)) for name, path in themed)
    except (OSError, ValueError):
        return None
    table.save()
    open_ = None in files.values()
    digest = None if open_ else _combined(head, files.items(), theme_digests)
    return InputScan(digest, files, not site_files.met_links, head, theme_digests)


def _run_file(name: str) -> bool:
    """A file under data/runs/ of a run file's suffix: one the loader reads (or passes by, in
    a hidden folder)."""
    return name.startswith(SiteLayout.RUNS_PREFIX) and run_suffixed(name.rpartition("/")[2])


def _combined(
    head: bytes, files: Iterable[tuple[str, str | None]], theme: Iterable[tuple[str, str]]
) -> str:
    """The digest of the inputs: the code, libraries and options, then each file's name and
    digest in the walks' order, then the theme's."""
    h = hashlib.blake2b(digest_size=20)
    h.update(head)
    for name, digest in (*files, *theme):
        h.update(name.encode() + b"\0")
        h.update(bytes.fromhex(digest))
    return h.hexdigest()
