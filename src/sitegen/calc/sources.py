"""Sources side by side on one model x GPU: each source's own figure on a workload, and where
two sources disagree by more than a quarter at a ladder target both reach, compared on output
tokens/s per GPU (the count every source gives). Numbers only."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..records import OUTPUT
from . import frontier
from .tables import CurveSummary, WorkloadSummary, throughput_column

# two figures disagree where the higher is more than this share above the lower
DISAGREEMENT = 0.25


@dataclass(frozen=True)
class Side:
    """One workload's output tokens/s per GPU at a target, and who measured the curve read."""

    workload: str
    sources: tuple[str, ...]  # of the curve the figure is read from (CurveSummary.sources)
    output_throughput_per_gpu: float


@dataclass(frozen=True)
class Disagreement:
    target: float  # tokens/s per user
    a: Side  # the higher figure
    b: Side  # the lower
    ratio: float  # a / b: above 1 + DISAGREEMENT


@dataclass(frozen=True)
class SourceFigure:
    """What one source measured of a workload: its own frontier's best at the target."""

    source: str
    workload: str
    configs: int  # its ok configs of the workload's current runs
    runs: tuple[str, ...]  # those runs' ids, sorted
    target: float
    # at `target`, counted as the workload counts (WorkloadSummary.tokens); None if unreached
    throughput_per_gpu: float | None
    engine: str | None
    precision: str | None


def _frontier(curve: CurveSummary, column: str, keep: np.ndarray | None = None):
    """The Pareto frontier of a curve's points on table `column`, of the points `keep` marks
    (all without it); None where a point kept lacks the figure."""
    if curve.table is None:
        return None
    rows = np.asarray(curve.point_rows, dtype=np.int64)
    if keep is not None:
        rows = rows[keep]
    columns = curve.table.columns
    ys = columns[column][rows]
    if np.isnan(ys).any():
        return None
    xs = 1000.0 / columns["tpot_ms"][rows]  # interactivity, as the summaries compute it
    return frontier.pareto_frontier(map(frontier.Point, xs.tolist(), ys.tolist()))


def output_rungs(summary: WorkloadSummary, method: str) -> list[Side | None] | None:
    """At each target of the workload's ladder, its output tokens/s per GPU (None where no
    curve reaches it): the ladder's own value where the workload counts output tokens, else
    the same frontier rules (the best curve at each target) applied to its current points'
    output_throughput_per_gpu. None where a point of it lacks that figure."""
    curves = {(c.engine, c.precision): c for c in summary.curves}
    targets = [row.target for row in summary.ladder]
    if summary.tokens == OUTPUT:
        rungs = [
            (row.target, row.throughput_per_gpu, row.engine, row.precision)
            for row in summary.ladder
        ]
    else:
        readers = []
        for c in summary.curves:
            front = _frontier(c, "output_throughput_per_gpu")
            if front is None:
                return None
            readers.append((c.engine, c.precision, frontier.reader(front, method)))
        best = [frontier.best_of(t, ((e, p, read(t)) for e, p, read in readers)) for t in targets]
        rungs = [(r.target, r.throughput_per_gpu, r.engine, r.precision) for r in best]
    return [
        Side(summary.workload, curves[(engine, precision)].sources, value)
        if value is not None
        else None
        for _, value, engine, precision in rungs
    ]


def disagreements(summaries: Sequence[WorkloadSummary], method: str) -> list[Disagreement]:
    """For every two workloads of a pair whose sources have none in common, each target both
    reach where the higher output figure is more than DISAGREEMENT above the lower; in the
    workloads' order, then by target."""
    read: dict[int, list[Side | None] | None] = {}
    found = []
    for (i, one), (j, other) in itertools.combinations(enumerate(summaries), 2):
        if set(one.sources) & set(other.sources):
            continue  # a source in common: one measurer's two workloads, not two measurers
        for k, s in ((i, one), (j, other)):
            if k not in read:
                read[k] = output_rungs(s, method)
        ones, others = read[i], read[j]
        if ones is None or others is None:
            continue
        for row, x, y in zip(one.ladder, ones, others, strict=True):
            if x is None or y is None:
                continue
            high, low = sorted((x, y), key=lambda side: -side.output_throughput_per_gpu)
            ratio = high.output_throughput_per_gpu / low.output_throughput_per_gpu
            if ratio > 1 + DISAGREEMENT:
                found.append(Disagreement(row.target, high, low, ratio))
    return found


def by_source(
    summary: WorkloadSummary, source_of: Mapping[str, str], target: float, method: str
) -> list[SourceFigure]:
    """What each source of a workload measured (`source_of`: run id -> source): its configs
    and runs, and the best of its own points' frontiers at `target`, curve by curve, counted
    as the workload counts."""
    figures = []
    for source in summary.sources:
        configs, runs, values = 0, set(), []
        for c in summary.curves:
            if source not in c.sources:
                continue
            keep = np.array([source_of[run] == source for run in c.point_runs], dtype=bool)
            configs += int(keep.sum())
            runs.update(run for run, k in zip(c.point_runs, keep.tolist(), strict=True) if k)
            front = _frontier(c, throughput_column(c.tokens), keep)
            value = frontier.reader(front, method)(target) if front else None
            values.append((c.engine, c.precision, value))
        best = frontier.best_of(target, values)
        figures.append(
            SourceFigure(
                source,
                summary.workload,
                configs,
                tuple(sorted(runs)),
                target,
                best.throughput_per_gpu,
                best.engine,
                best.precision,
            )
        )
    return figures
