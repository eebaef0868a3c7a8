"""The site's search index: Pagefind's bundle (the index, its fragments, the search UI's script
and style) made from the built pages, for `pagefind/` under the output root.

Pagefind reads the pages as a static host serves them: it indexes what a page marks with
`data-pagefind-body` (the theme's `<main>`) and takes each result's title from the element
marked `data-pagefind-meta="title[content]"`. The pages are put in a scratch folder (hard links
where they are files already) and indexed as one folder by Pagefind's binary, the one the
`pagefind[bin]` package ships (found by `pagefind.service.get_executable`). Not through its
Python service: that answers a message a tenth of a second after the last (a minute for the
flagship's pages one by one), its in-memory answer is cut at 2 MiB, and it answers WriteFiles
before the files are all written (an empty `pagefind-entry.json` was read back); the binary
run as a command has written them all when it exits. Pagefind sorts what it reads: the same
pages give the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
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


def search_key(pages: Iterable[tuple[str, str]], basis: str) -> str:
    """The digest of what the index is made of: each indexed page's output path and what its
    indexed text depends on, and what all of them do (`basis`: names, templates, versions)."""
    digest = hashlib.sha256(f"search index 2\0{basis}\0".encode())
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
    site.mkdir(exist_ok=True)
    _index(site, bundle, scratch)
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


def _index(site: Path, bundle: Path, scratch: Path) -> None:
    """Run Pagefind on `site` into `bundle`; in `scratch`, so that no Pagefind config file of
    the folder sitegen runs in is read, and without PAGEFIND_ settings of the environment."""
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        raise SearchError("Pagefind's binary is not installed")
    env = {name: value for name, value in os.environ.items() if not name.startswith("PAGEFIND_")}
    command = [str(binary), "--site", str(site), "--output-path", str(bundle), "--silent"]
    try:
        done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, check=False)
    except OSError as exc:
        raise SearchError(f"{binary}: {exc.strerror or exc}") from None
    if done.returncode != 0 or not (bundle / "pagefind-entry.json").is_file():
        said = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
        raise SearchError(said[-1] if said else f"Pagefind exited with {done.returncode}")
