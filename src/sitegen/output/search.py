"""The site's search index: Pagefind's bundle (the index, its fragments, the search UI's script
and style) made from the built pages, for `pagefind/` under the output root.

Pagefind reads the pages as a static host serves them: it indexes what a page marks with
`data-pagefind-body` (the theme's `<main>`) and takes each result's title from the element
marked `data-pagefind-meta="title[content]"`. The pages are put in a scratch folder (hard links
where they are files already) and indexed as one folder: the Python API answers one message a
tenth of a second, so a page each would take a minute for the flagship. Pagefind sorts what it
reads, so the same pages give the same bytes.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

FOLDER = "pagefind"  # under the output root

# Pagefind's other UIs, which the theme does not load (its default UI, pagefind-ui.js, is)
UNUSED = frozenset(
    {
        "pagefind-component-ui.css",
        "pagefind-component-ui.js",
        "pagefind-modular-ui.css",
        "pagefind-modular-ui.js",
        "pagefind-highlight.js",
    }
)


class SearchError(Exception):
    """Pagefind could not make the index (not installed, or it failed)."""


def search_key(pages: Iterable[tuple[str, str]]) -> str:
    """The digest of what the index is made of: each indexed page's output path and the key of
    the job that made it (equal keys, equal bytes; the keys cover Pagefind's version)."""
    digest = hashlib.sha256(b"search index 1\0")
    for rel, key in sorted(pages):
        digest.update(f"{rel}\0{key}\0".encode())
    return digest.hexdigest()


def search_files(pages: Iterable[tuple[str, bytes | Path]], scratch: Path) -> dict[str, bytes]:
    """Pagefind's bundle for `pages` (output path -> its bytes, or the file holding them), as
    output path under pagefind/ -> bytes, in path order. `scratch`: an empty folder to work in,
    best on the file system of the pages' files (they are linked, not copied)."""
    site, bundle = scratch / "site", scratch / "bundle"
    for rel, source in pages:
        _place(site / rel, source)
    try:
        asyncio.run(_index(site, bundle))
    except SearchError:
        raise
    except Exception as exc:  # the binary missing, or failing: Pagefind says which
        raise SearchError(str(exc) or type(exc).__name__) from exc
    found = sorted(p for p in bundle.rglob("*") if p.is_file() and p.name not in UNUSED)
    return {f"{FOLDER}/{p.relative_to(bundle).as_posix()}": p.read_bytes() for p in found}


def _place(target: Path, source: bytes | Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(source, bytes):
        target.write_bytes(source)
        return
    try:
        os.link(source, target)
    except OSError:  # another file system, or one without hard links
        shutil.copyfile(source, target)


async def _index(site: Path, bundle: Path) -> None:
    from pagefind.index import PagefindIndex  # starts nothing until entered

    # leaving the context writes the bundle to `output_path` and stops Pagefind's process
    async with PagefindIndex(config={"output_path": str(bundle)}) as index:
        if site.is_dir():
            await index.add_directory(str(site))
