"""Summaries kept between the builds of one process: a pair whose runs did not change since
the last build is not summarised again (the preview, which rebuilds on every save).

A pair's summaries depend on its own runs only, given the catalogs and `sitegen.yaml`: its
fingerprint is the digest of those files and of each of its runs' file. A kept summary is the
same object as before, but for the rows its chart points name in the site's config table,
which move when another file's configs come before them: they are moved with their run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .records import Site
from .records.columnar import ConfigTable
from .records.model import SweepRun
from .tables import WorkloadSummary, summarise

Pair = tuple[str, str]


@dataclass(frozen=True)
class _Kept:
    fingerprint: tuple
    starts: dict[str, int]  # run id -> its first row in the table the summaries were made from
    summaries: list[WorkloadSummary]


class SummaryMemo:
    """summarise(site), made again only for the pairs whose inputs changed since last time."""

    def __init__(self) -> None:
        self._pairs: dict[Pair, _Kept] = {}

    def summarise(self, site: Site) -> dict[Pair, list[WorkloadSummary]]:
        shared = tuple(site.shared_digests())  # the catalogs and sitegen.yaml
        sweeps: dict[Pair, list[SweepRun]] = {}
        for run in site.sweeps:
            sweeps.setdefault((run.model, run.gpu), []).append(run)
        fingerprints = {
            pair: (shared, tuple((r.id, r.path, site.digests.get(r.path)) for r in runs))
            for pair, runs in sweeps.items()
        }
        todo = [p for p, fp in fingerprints.items() if self._fingerprint(p) != fp]
        fresh = summarise(dataclasses.replace(site, runs=_runs_of(site, set(todo))))
        out: dict[Pair, list[WorkloadSummary]] = {}
        kept: dict[Pair, _Kept] = {}
        for pair, runs in sweeps.items():
            starts = {r.id: r.configs.start for r in runs}
            if pair in fresh:
                summaries = fresh[pair]
            elif pair in todo:  # no ok config: a pair of failed runs has no summary
                summaries = []
            else:
                summaries = _moved(self._pairs[pair], starts, site.table)
            kept[pair] = _Kept(fingerprints[pair], starts, summaries)
            if summaries:
                out[pair] = summaries
        self._pairs = kept
        return dict(sorted(out.items()))  # as summarise orders them: by model, then GPU

    def _fingerprint(self, pair: Pair) -> tuple | None:
        kept = self._pairs.get(pair)
        return kept.fingerprint if kept is not None else None


def _runs_of(site: Site, pairs: set[Pair]) -> tuple:
    return tuple(r for r in site.runs if (r.model, r.gpu) in pairs)


def _moved(kept: _Kept, starts: dict[str, int], table: ConfigTable) -> list[WorkloadSummary]:
    """The kept summaries reading the points of `table`, the new site's, their rows moved to
    where their runs are now (the old table is not kept alive by them)."""
    shift = {run: starts[run] - start for run, start in kept.starts.items()}
    return [
        dataclasses.replace(
            s,
            curves=tuple(
                dataclasses.replace(
                    c,
                    point_rows=tuple(
                        row + shift[run]
                        for row, run in zip(c.point_rows, c.point_runs, strict=True)
                    ),
                    table=table,
                )
                for c in s.curves
            ),
        )
        for s in kept.summaries
    ]
