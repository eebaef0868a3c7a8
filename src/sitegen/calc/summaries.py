"""A site's summaries, made when a page first needs them (`Summaries`), and summaries kept
between the builds of one process (`SummaryMemo`): a pair whose runs did not change since the
last build is not summarised again (the preview, which rebuilds on every save).

A pair's summaries depend on its own runs only, given the catalogs and `sitegen.yaml`: its
fingerprint is the digest of those files and of each of its runs' file. A kept summary is the
same object as before, but for the rows its chart points name in the site's config table,
which move when another file's configs come before them: they are moved with their run.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from ..records import Site
from ..records.columnar import ConfigTable
from ..records.model import SweepRun
from .briefs import Brief, brief_of, pair_digest
from .tables import WorkloadSummary, summarise

Pair = tuple[str, str]


class Summaries:
    """(model, GPU) -> its workload summaries, each pair summarised the first time it is read,
    with the other pairs of its model (a rebuild reads few); and every pair's briefs.

    Summaries depend on a pair's own runs (given the catalogs, sitegen.yaml and the code):
    summarising some pairs gives what summarising the whole site gives for them. `briefs`
    takes a pair's briefs from `kept` (pair digest -> briefs, the last build's) while its runs'
    digest is unchanged, so a build that makes only the pages of one pair summarises one model.
    """

    def __init__(
        self,
        site: Site,
        kept: dict[str, list[Brief]] | None = None,
        made: dict[Pair, list[WorkloadSummary]] | None = None,
        memo: SummaryMemo | None = None,
    ) -> None:
        self.site = site
        self._kept = kept or {}
        self._memo = memo
        self._made: dict[Pair, list[WorkloadSummary]] = {}
        self._models: set[str] = set()  # the models whose pairs are all in _made
        self._runs: dict[str, list[SweepRun]] = {}  # model -> its sweeps
        for run in site.sweeps:
            self._runs.setdefault(run.model, []).append(run)
        self._briefs: dict[Pair, list[Brief]] | None = None
        if made is not None:  # every pair summarised already
            self._made = dict(made)
            self._models = set(self._runs)

    def get(self, pair: Pair) -> list[WorkloadSummary]:
        """The pair's summaries ([] for a pair without any), its model summarised first."""
        if pair[0] not in self._models:
            self._summarise(pair[0])
        return self._made.get(pair, [])

    def everything(self) -> dict[Pair, list[WorkloadSummary]]:
        """Every pair's summaries (made now for the models not summarised yet): what workers
        forked to make many pages inherit."""
        if len(self._models) < len(self._runs):
            self._summarise(*(m for m in self._runs if m not in self._models))
        return self._made

    def _summarise(self, *models: str) -> None:
        if self._memo is not None:
            self._made.update(self._memo.summarise(self.site, set(models)))
        else:
            runs = tuple(r for m in models for r in self._runs.get(m, ()))
            self._made.update(summarise(dataclasses.replace(self.site, runs=runs)))
        self._models.update(models)

    @functools.cached_property
    def digests(self) -> dict[Pair, str]:
        """(model, GPU) -> pair_digest of its sweeps, for every pair with a sweep."""
        identity = self.site.run_identity
        runs: dict[Pair, list[tuple[str, str, str | None]]] = {}
        for model_runs in self._runs.values():
            for r in model_runs:
                runs.setdefault((r.model, r.gpu), []).append(identity(r))
        return {pair: pair_digest(rs) for pair, rs in sorted(runs.items())}

    def briefs(self) -> dict[Pair, list[Brief]]:
        """Every pair's briefs (only pairs that have summaries), by model, then GPU."""
        if self._briefs is None:
            self._briefs = {}
            by_digest = self.digests
            missing = {p[0] for p, d in by_digest.items() if d not in self._kept}
            if missing - self._models:
                self._summarise(*sorted(missing - self._models))
            for pair, digest in by_digest.items():
                if pair[0] in self._models:
                    briefs = [brief_of(s) for s in self._made.get(pair, [])]
                else:
                    briefs = self._kept[digest]
                if briefs:
                    self._briefs[pair] = briefs
        return self._briefs

    def by_digest(self) -> dict[str, list[Brief]]:
        """Every pair's briefs (none for a pair without summaries) by its pair digest: what
        the next build may keep."""
        briefs = self.briefs()
        return {d: briefs.get(pair, []) for pair, d in self.digests.items()}


@dataclass(frozen=True)
class _Kept:
    fingerprint: tuple
    starts: dict[str, int]  # run id -> its first row in the table the summaries were made from
    summaries: list[WorkloadSummary]  # their curves hold no table (the old one is not kept)


class SummaryMemo:
    """summarise(site), made again only for the pairs whose inputs changed since last time."""

    def __init__(self) -> None:
        self._pairs: dict[Pair, _Kept] = {}

    def summarise(
        self, site: Site, models: set[str] | None = None
    ) -> dict[Pair, list[WorkloadSummary]]:
        """The summaries of every pair, or of the pairs of `models`."""
        shared = tuple(site.shared_digests())  # the catalogs and sitegen.yaml
        sweeps: dict[Pair, list[SweepRun]] = {}
        for run in site.sweeps:
            if models is None or run.model in models:
                sweeps.setdefault((run.model, run.gpu), []).append(run)
        fingerprints = {
            pair: (shared, tuple(map(site.run_identity, runs))) for pair, runs in sweeps.items()
        }
        todo = [p for p, fp in fingerprints.items() if self._fingerprint(p) != fp]
        fresh = summarise(dataclasses.replace(site, runs=_runs_of(site, set(todo))))
        gone = [p for p in self._pairs if p not in sweeps and (models is None or p[0] in models)]
        for pair in gone:
            del self._pairs[pair]
        out: dict[Pair, list[WorkloadSummary]] = {}
        for pair, runs in sweeps.items():
            starts = {r.id: r.configs.start for r in runs}
            if pair in todo:  # no summary in fresh: a pair of failed runs has none
                summaries = fresh.get(pair, [])
                self._pairs[pair] = _Kept(fingerprints[pair], starts, _tableless(summaries))
            else:
                summaries = _moved(self._pairs[pair], starts, site.table)
            if summaries:
                out[pair] = summaries
        return dict(sorted(out.items()))  # as summarise orders them: by model, then GPU

    def _fingerprint(self, pair: Pair) -> tuple | None:
        kept = self._pairs.get(pair)
        return kept.fingerprint if kept is not None else None


def _tableless(summaries: list[WorkloadSummary]) -> list[WorkloadSummary]:
    return [
        dataclasses.replace(s, curves=tuple(dataclasses.replace(c, table=None) for c in s.curves))
        for s in summaries
    ]


def _runs_of(site: Site, pairs: set[Pair]) -> tuple:
    return tuple(r for r in site.runs if (r.model, r.gpu) in pairs)


def _moved(kept: _Kept, starts: dict[str, int], table: ConfigTable) -> list[WorkloadSummary]:
    """The kept summaries reading the points of `table`, the new site's, their rows moved to
    where their runs are now."""
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
