"""A site's inputs as one digest: when it matches the last build's, there is nothing to do.

The digest covers the bytes of every file a build can read (sitegen.yaml, data/, content/, the
site's templates/ and the built-in theme), sitegen's own code and the versions of the libraries
that shape its output, and the options that change what a build does. A file whose stat is the
one recorded by an earlier build is taken at its recorded digest without being read
(filedigests): a build with nothing to do stats the site's files, it does not read them.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .codeversion import code_version
from .filedigests import FileDigests
from .layout import SiteLayout
from .quickfiles import QuickSiteFiles
from .records.problems import Problems
from .render import theme_dir

LIBRARIES = (
    *("jinja2", "markupsafe", "markdown-it-py", "pyyaml", "numpy", "pandas", "pyarrow"),
    *("pillow", "fonttools"),  # the cards' glyph rasteriser (FreeType inside) and font reader
    "isal",  # the cards' deflate (pngwrite.py)
)


@functools.cache
def library_versions() -> tuple[str, ...]:
    """name=version of each library that shapes the output."""
    out = []
    for name in LIBRARIES:
        try:
            out.append(f"{name}={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            out.append(f"{name}=none")
    return tuple(out)


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file())


@dataclass(frozen=True)
class InputScan:
    """What one look over a site's files found: the digest of everything a build reads, and
    the digest of each site file's bytes, for the loader to take instead of looking again."""

    digest: str
    files: dict[str, str]  # site file name -> the digest of its bytes, in the walks' order
    plain: bool  # no link was met: each file was found once, under its one name

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

    @classmethod
    def from_json(cls, value: object) -> InputScan | None:
        """A scan sent as JSON ({"digest", "files", "plain"}, as the survey's child sends
        it); None for anything else."""
        if not isinstance(value, dict) or not isinstance(value.get("digest"), str):
            return None
        files, plain = value.get("files"), value.get("plain")
        if not isinstance(files, dict) or not isinstance(plain, bool):
            return None
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            return None
        return cls(value["digest"], files, plain)


def site_inputs(site_root: Path, options: str, stat_first: bool = True) -> str | None:
    """The digest of everything a build of `site_root` reads; None if a file cannot be read,
    or must not be (a link leaving the site, a pipe: the build itself says so).

    With `stat_first`, files whose stat is as recorded in the site's cache are not read.
    """
    scan = scan_inputs(site_root, options, stat_first)
    return scan.digest if scan is not None else None


def scan_inputs(site_root: Path, options: str, stat_first: bool = True) -> InputScan | None:
    """site_inputs, with what it found of each file; None where site_inputs is None."""
    layout = SiteLayout(site_root)
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{code_version()}\0{library_versions()}\0{options}\0".encode())
    site_files, refused = QuickSiteFiles(site_root), Problems()
    names = [layout.CONFIG] if site_files.check(layout.config, refused) else []
    for name in SiteLayout.SOURCE_FOLDERS:
        names += site_files.walk_names(site_root / name, refused)
    if refused:
        return None
    at = os.path.join(site_root, "")
    named = [(name, at + name) for name in names]
    theme = theme_dir()
    themed = [("theme/" + p.relative_to(theme).as_posix(), p) for p in _files(theme)]
    table = FileDigests.for_site(site_root) if stat_first else FileDigests(None)
    files: dict[str, str] = {}
    try:
        for name, path in named:
            files[name] = digest = table.digest(name, path)
            h.update(name.encode() + b"\0")
            h.update(bytes.fromhex(digest))
        for name, path in themed:
            h.update(name.encode() + b"\0")
            h.update(bytes.fromhex(table.digest(name, path)))
    except (OSError, ValueError):
        return None
    table.save()
    return InputScan(h.hexdigest(), files, not site_files.met_links)
