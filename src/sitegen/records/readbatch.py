"""Run files read, parsed and screened a batch at a time, here or in a pool of processes.

Each file of a batch comes out as one outcome: `Hit` (its bytes are those the load cache
holds), `Clean` (a plain sweep the screen passed and whose fields checked: its columns are
the batch's), `Done` (nothing to load: the problems say why) or `Other` (a record for the
exact checker: a matrix run, a flagged sweep, anything the screen does not read). A worker
process sends back outcomes and columns, never parsed documents: an `Other` from a worker has
none, and the parent reads that file again itself.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..cache.digests import file_digest
from . import columnar, schema
from .checker import SLUG, Checker
from .loadcache import Clean
from .model import Catalogs
from .parsecache import MISSING, ParseCache
from .problems import Problem, Problems
from .yamlpos import Document, ParseError, decode, parse

EMPTY = Document({})
Columns = dict[str, np.ndarray]


@dataclass
class Hit:
    """A file whose bytes are those its load cache entry was made from."""

    rel: str
    digest: str


@dataclass
class Done:
    """A file with nothing to load (unreadable, unparsable, or its run fields failed)."""

    rel: str
    digest: str | None
    problems: list[Problem]


@dataclass
class Other:
    """A record for the exact checker (check_run)."""

    rel: str
    rid: str
    digest: str
    doc: Document | None  # None from a worker: read it again


Outcome = Hit | Clean | Done | Other


def read_bytes(path: Path, rel: str, problems: Problems, required: bool = True) -> bytes | None:
    """A file's bytes; None (and a problem) when it is missing or cannot be read."""
    if not path.is_file():
        if required:
            problems.add(Problem(rel, None, "", "file not found"))
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
        return None


def parse_bytes(
    raw: bytes,
    json_file: bool,
    rel: str,
    problems: Problems,
    parsed: ParseCache | None,
    digest: str,
) -> tuple[Document, bool]:
    """The document of a file's bytes (EMPTY on a parse error), and whether it was parsed
    now (rather than read from `parsed`)."""
    if parsed is not None and not json_file:
        data = parsed.get(digest)
        if data is not MISSING:
            return Document(data, text=raw.decode("utf-8")), False
    try:
        return parse(decode(raw), json_file=json_file), True
    except ParseError as exc:
        problems.add(Problem(rel, exc.line, exc.field, exc.message))
        return EMPTY, True


def plain_sweep(data: Any, rid: str) -> bool:
    """A sweep whose configs the columnar screen can read: the common case by far."""
    return (
        isinstance(data, dict)
        and data.get("kind", "sweep") == "sweep"
        and isinstance(data.get("configs"), list)
        and len(data["configs"]) > 0
        and SLUG.match(rid) is not None
    )


def read_batch(
    files: Sequence[tuple[Path, str, str]],
    known: Catalogs,
    cached: dict[str, str],
    parsed: ParseCache | None,
    keep_docs: bool,
) -> tuple[list[Outcome], Columns]:
    """The outcome of each (path, rel, run id), and the columns of the Clean ones' configs,
    one file after another. `cached`: rel -> the digest the load cache holds it at."""
    outcomes: list[Outcome | None] = []
    plain: list[tuple[int, str, str, str, Document, bool, int]] = []
    for path, rel, rid in files:
        problems = Problems()
        raw = read_bytes(path, rel, problems)
        if raw is None:
            outcomes.append(Done(rel, None, problems.items))
            continue
        digest = file_digest(raw)
        if cached.get(rel) == digest:
            outcomes.append(Hit(rel, digest))
            continue
        json_file = path.suffix == ".json"
        doc, fresh = parse_bytes(raw, json_file, rel, problems, parsed, digest)
        if doc is EMPTY:
            outcomes.append(Done(rel, digest, problems.items))
            continue
        store = fresh and not json_file
        if plain_sweep(doc.data, rid):
            plain.append((len(outcomes), rel, rid, digest, doc, store, len(raw)))
            outcomes.append(None)
            continue
        if store and parsed is not None:
            parsed.put(digest, doc.data, len(raw))
        outcomes.append(Other(rel, rid, digest, doc if keep_docs else None))
    screened = columnar.screen([doc.data["configs"] for _, _, _, _, doc, _, _ in plain])
    good: list[int] = []
    start = 0
    for k, (i, rel, rid, digest, doc, store, size) in enumerate(plain):
        if k in screened.flagged:
            if store and parsed is not None:  # checked again by every build: parsed once
                parsed.put(digest, doc.data, size)
            outcomes[i] = Other(rel, rid, digest, doc if keep_docs else None)
            continue
        told = Problems()
        c = Checker(rel, doc, told)
        fields = schema.sweep_fields(c, doc.data, known)
        if c.failed:
            outcomes[i] = Done(rel, digest, told.items)
            continue
        count = len(doc.data["configs"])
        good.append(k)
        outcomes[i] = Clean(rel, rid, digest, fields, count, told.items, start=start)
        start += count
    keep = np.isin(screened.owner, good)
    columns = {name: col[keep] for name, col in screened.columns.items()}
    return outcomes, columns  # type: ignore[return-value]


# -- in a pool of processes ------------------------------------------------------------------

_SHARED: dict[str, Any] = {}  # what the workers were forked with


def _work(batch: Sequence[tuple[Path, str, str]]) -> tuple[list[Outcome], Columns]:
    """read_batch in a worker, with what the pool was forked with."""
    return read_batch(batch, _SHARED["known"], _SHARED["cached"], None, keep_docs=False)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def read_in_pool(
    batches: Sequence[Sequence[tuple[Path, str, str]]],
    known: Catalogs,
    cached: dict[str, str],
    workers: int,
) -> Iterator[tuple[list[Outcome], Columns]]:
    """read_batch of each batch, in order, by `workers` forked processes. The caller closes
    the generator (contextlib.closing), so the pool ends also when it stops half way."""
    _SHARED.update(known=known, cached=cached)
    # batches this big are screened with pandas (columnar.FEW_ROWS): imported here, before
    # the fork, the workers share it; each importing its own took the 4,000-pair build from
    # 1.89 to 2.07 GB
    import pandas  # noqa: F401

    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(_work, batches)
    finally:
        _SHARED.clear()
