"""The search index as a step after all pages, as sitemap.xml is: made again from the pages of
the sitemap when one of them is made by another key, kept as the last build left it otherwise
(output/search.py makes it)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..output.search import SearchError, search_files, search_key
from ..output.staging import KEPT
from ..records import Problem, SiteError
from ..views import Job, Keys
from .jobcache import JobRecord

SEARCH_JOB = "search index"  # its record among the jobs' (no job of the plan has this name)


class Outputs(Protocol):
    """Where the bytes of the outputs are before they are written (output.Staging, InMemory)."""

    def source(self, rel: str, out: Any) -> bytes | Path:
        """The bytes of output `rel` (what `store` returned for it, or KEPT), or their file."""
        ...

    def scratch(self) -> AbstractContextManager[str]:
        """An empty folder to work in, removed after."""
        ...


@dataclass(frozen=True)
class InMemory:
    """Outputs whose bytes are in memory: those made now, and the last build's (the preview's)
    for the ones kept."""

    last: Mapping[str, bytes] = field(default_factory=dict)

    def source(self, rel: str, out: Any) -> bytes | Path:
        return out if isinstance(out, bytes) else self.last[rel]

    def scratch(self) -> AbstractContextManager[str]:
        return tempfile.TemporaryDirectory(prefix="sitegen-search-")


# The pages a reader searches for, by job kind, and the templates that mark what is indexed of
# them: their heading (names only, no figure, so that new figures leave the index as it is);
# a content page's whole text.
FOUND = {
    "overview": "index.html",
    "changes": "changes.html",
    "pair": "pair.html",
    "model": "model.html",
    "gpu": "gpu.html",
    "gpu-pair": "gpu_pair.html",
    "content": "content.html",
}
WHOLE = "content"  # the kind whose pages are indexed whole: its job key says what they hold


def indexed_pages(jobs: list[Job], records: Mapping[str, JobRecord]) -> list[tuple[str, str]]:
    """(output path, what its indexed text depends on beside the names) of every page of a
    kind in FOUND that the sitemap lists: a content page's job key, nothing for the others."""
    pages = []
    for job in jobs:
        kind = job.name.split(" ", 1)[0]
        if kind not in FOUND:
            continue
        record = records[job.name]
        for route, _ in record.sitemap:
            rel = route + "index.html"
            if rel in record.outputs:
                pages.append((rel, record.key if kind == WHOLE else ""))
    return pages


def index_basis(keys: Keys) -> str:
    """What every indexed page's text depends on: the names (keys.shared holds the catalogs,
    sitegen.yaml and the versions of the code and Pagefind) and the templates that mark it."""
    return keys.of("search", None, sorted(keys.template(t) for t in FOUND.values()))


def search_outputs(
    pages: list[tuple[str, str]],
    basis: str,
    files: Mapping[str, Any],
    last: JobRecord | None,
    intact: Callable[[str], bool] | None,
    outputs: Outputs,
    store: Callable[[str, bytes], Any],
) -> tuple[JobRecord, dict[str, Any]]:
    """The index's record and its files (what `store` made of each, or KEPT): the last build's
    (`last`, its files `intact`; None: all are) when the same pages are indexed on the same
    `basis` (index_basis)."""
    key = search_key(pages, basis)
    if last is not None and last.key == key and (intact is None or all(map(intact, last.outputs))):
        return last, dict.fromkeys(last.outputs, KEPT)
    with outputs.scratch() as folder:
        sources = ((rel, outputs.source(rel, files[rel])) for rel, _ in pages)
        try:
            made = search_files(sources, Path(folder))
        except SearchError as exc:
            why = f"the search index could not be made ({exc}); install pagefind[bin], or set "
            problem = Problem("sitegen.yaml", None, "search", why + "search: false")
            raise SiteError([problem]) from None
    stored = {rel: store(rel, data) for rel, data in made.items()}
    return JobRecord(key, tuple(made), ()), stored
