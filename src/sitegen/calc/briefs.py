"""Briefs: what the pages that list every pair read of each pair's summaries, kept between
builds so that a rebuild summarises only the pairs whose runs changed.

The overview, its leaderboard.json and .csv, llms.txt, the GPU pages and the overview's
Dataset read, of each workload summary, its headline row, its number of configs, its dates, its
sources and each curve's throughput and measured power at every rung and sources: a `Brief`.
Every build makes them from summaries (`brief_of`) or takes them from
`.sitegen-cache/briefs.json`, a signed cache file (cache/files.py: plain JSON, never code)
keyed by the code and the catalogs, with one entry per pair keyed by the digest of its run
files (`pair_digest`). A brief read back is
equal to the one it was written from, field for field and type for type (floats as JSON
writes them, which is exact; dates as ISO text).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..cache import keys as keyhash
from ..cache.codeversion import code_version
from ..cache.files import ORJSON, finite, read_signed_by, write_signed
from ..cache.trust import cache_folder
from .energy import MEASURED, Energy
from .tables import LadderRow, WorkloadSummary

T = TypeVar("T")

KIND = "briefs"
VERSION = 2
FILE = "briefs.json"


@dataclass(frozen=True)
class BriefCurve:
    """One engine x precision of a summary: its value and measured power at every rung."""

    engine: str
    precision: str
    throughput_per_gpu: tuple[float | None, ...]  # at each of tables.rung_targets
    measured_power_w: tuple[float | None, ...]  # None where the power is not measured
    sources: tuple[str, ...] = ()  # who measured its current runs, sorted


@dataclass(frozen=True)
class Brief:
    """A workload summary as the pages that list every pair read it (the same names)."""

    model: str
    gpu: str
    workload: str
    configs: int
    first_date: dt.date
    last_date: dt.date
    headline: LadderRow
    curves: tuple[BriefCurve, ...]
    sources: tuple[str, ...] = ()  # who measured the current runs, sorted


def brief_of(s: WorkloadSummary) -> Brief:
    curves = tuple(
        BriefCurve(
            c.engine,
            c.precision,
            tuple(r.throughput_per_gpu for r in c.rungs),
            tuple(
                r.power.per_gpu_w if r.power and r.power.source == MEASURED else None
                for r in c.rungs
            ),
            c.sources,
        )
        for c in s.curves
    )
    # the pages that list every pair quote no config read nor spread: a brief keeps neither
    headline = dataclasses.replace(s.headline, reads=None, spread=None)
    return Brief(
        s.model,
        s.gpu,
        s.workload,
        s.configs,
        s.first_date,
        s.last_date,
        headline,
        curves,
        s.sources,
    )


def pair_digest(runs: Sequence[tuple[str, str, str | None]]) -> str:
    """The digest of a pair's runs, each (id, file, digest of the file's bytes): a pair's
    summaries are a function of these, given the code and the catalogs."""
    return keyhash.of(sorted(runs))


def _row_json(row: LadderRow) -> list:
    e = row.energy
    return [
        row.target,
        row.throughput_per_gpu,
        row.engine,
        row.precision,
        row.cost_per_million_tokens,
        None if e is None else list(dataclasses.astuple(e)),  # Energy(*it) reads it back
        row.cost_per_million_input_tokens,
        row.cost_per_million_output_tokens,
    ]


def _row(stored: list) -> LadderRow:
    target, throughput, engine, precision, cost, energy, cost_in, cost_out = stored
    return LadderRow(
        target,
        throughput,
        engine,
        precision,
        cost,
        None if energy is None else Energy(*energy),
        cost_in,
        cost_out,
    )


def to_json(b: Brief) -> list:
    curves = [
        [c.engine, c.precision, c.throughput_per_gpu, c.measured_power_w, c.sources]
        for c in b.curves
    ]
    dates = [b.first_date.isoformat(), b.last_date.isoformat()]
    head = _row_json(b.headline)
    return [b.model, b.gpu, b.workload, b.configs, *dates, head, curves, b.sources]


def from_json(stored: list) -> Brief:
    model, gpu, workload, configs, first, last, headline, curves, sources = stored
    return Brief(
        model,
        gpu,
        workload,
        configs,
        dt.date.fromisoformat(first),
        dt.date.fromisoformat(last),
        _row(headline),
        tuple(BriefCurve(e, p, tuple(ys), tuple(ws), tuple(by)) for e, p, ys, ws, by in curves),
        tuple(sources),
    )


class BriefMemo:
    """What the pages that list every pair make of each brief (the overview's rows), kept
    from one build to the next by a process that builds again and again (the preview) for as
    long as the brief is its pair's: a pair's briefs are the same objects while its runs and
    the catalogs are unchanged (summaries.Summaries.briefs). What a build did not ask for is
    let go when the next one asks (a brief replaced is kept no longer than a build)."""

    def __init__(self) -> None:
        self.catalogs: object = None  # what the kept values were made with
        self._last: dict[tuple[str, int], tuple[Brief, Any]] = {}
        self._now: dict[tuple[str, int], tuple[Brief, Any]] = {}

    def start(self, catalogs: object) -> BriefMemo:
        """This memo for a build of a site with `catalogs` (its shared digests)."""
        if catalogs != self.catalogs:
            self.catalogs, self._last, self._now = catalogs, {}, {}
        elif self._now:
            self._last, self._now = self._now, {}
        return self

    def get(self, kind: str, brief: Brief, make: Callable[[Brief], T]) -> T:
        key = (kind, id(brief))
        kept = self._now.get(key) or self._last.get(key)
        if kept is None or kept[0] is not brief:
            kept = (brief, make(brief))
        self._now[key] = kept
        return kept[1]


class BriefCache:
    """The briefs of the last build, by pair digest; `path` None: a cache of nothing.

    Anything unexpected in the file (another key, a wrong shape) reads as an empty cache."""

    def __init__(self, path: Path | None, key: Any) -> None:
        self.path = path
        self.key = key
        self.entries: dict[str, list[Brief]] = {}
        self._stored: dict[str, list] = {}
        self._finite = True  # no NaN nor infinity in what is stored (orjson wrote it)
        if path is not None:
            stored, writer = read_signed_by(path, KIND, VERSION)
            self._finite = writer == ORJSON
            try:
                if isinstance(stored, dict) and stored.get("key") == key:
                    entries = stored["pairs"]
                    self.entries = {d: [from_json(b) for b in bs] for d, bs in entries.items()}
                    self._stored = entries
            except (TypeError, ValueError, KeyError, AttributeError):
                self.entries, self._stored = {}, {}

    @classmethod
    def for_site(cls, site_root: Path, catalog_digests: dict[str, str]) -> BriefCache:
        folder = cache_folder(site_root)
        key = [code_version(), sorted(catalog_digests.items())]
        return cls(folder / FILE if folder is not None else None, json.loads(json.dumps(key)))

    def save(self, briefs: dict[str, list[Brief]]) -> None:
        """Keep `briefs` (pair digest -> its briefs) for the next build, if they changed."""
        if self.path is None or briefs.keys() == self._stored.keys():
            return  # the same pairs' digests: the same briefs
        kept = self._stored  # a pair whose digest was kept has the briefs stored then
        new = {d: [to_json(b) for b in bs] for d, bs in briefs.items() if d not in kept}
        stored = {d: kept[d] if d in kept else new[d] for d in briefs}
        # orjson where no brief holds a NaN or an infinity (it would write null): the new ones
        # are looked at (a few, or a cold build's 2,000 in 0.02 s), and those kept too unless
        # their file was written by orjson
        carried = [stored[d] for d in briefs if d in kept]
        nonfinite = not (finite(new) and (self._finite or finite(carried)))
        write_signed(self.path, KIND, VERSION, {"key": self.key, "pairs": stored}, nonfinite)
        self._stored, self._finite = stored, not nonfinite
