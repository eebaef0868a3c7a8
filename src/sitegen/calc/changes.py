"""What changed between run dates: each curve's ladder on a date against its previous date's.

A curve is one engine x precision of a model x GPU x workload. On each of its run dates its
ok configs make a frontier of their own, read at the ladder's targets as the ladder is read
(frontier.reader). Where a rung both dates reach moved by at least the site's
`change_threshold`, the date makes an entry (docs/pages.md, "What changed").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..records import Site, SweepRun
from ..records.columnar import run_rows
from . import frontier
from .tables import CurveKey, beats_the_rest, day_ranks, laddered

REGRESSION, IMPROVEMENT = "regression", "improvement"
# a change is compared with the threshold to within float rounding: 90 after 100 is the 10 %
# it reads as, not 9.999999999999998 %
TOLERANCE = 1e-9


@dataclass(frozen=True)
class RungChange:
    """One target both dates reach: throughput per GPU before and after, and after/before - 1."""

    target: float
    before: float
    after: float
    change: float


@dataclass(frozen=True)
class Change:
    """A curve's ladder on `date` against its previous run date's."""

    date: dt.date
    previous_date: dt.date
    model: str
    gpu: str
    workload: str
    engine: str
    precision: str
    kind: str  # REGRESSION or IMPROVEMENT
    headline_change: float | None  # None where the two dates do not both reach the headline
    rungs: tuple[RungChange, ...]  # every ladder target both dates reach, ascending


def day_frontiers(
    site: Site, sweeps: Sequence[SweepRun]
) -> dict[CurveKey, dict[dt.date, list[frontier.Point]]]:
    """Each curve's run dates, each with the Pareto frontier of its ok configs (interactivity
    ascending), the configs' points computed as the summaries compute them (calc/tables.py).
    A date whose configs all failed is a run date too, with no points.

    numpy sorts the configs by curve, date, interactivity and throughput and keeps those on
    their date's frontier (tables.beats_the_rest): only they become points, a tenth of them."""
    out: dict[CurveKey, dict[dt.date, list[frontier.Point]]] = {}
    if not sweeps or site.table is None:
        return out
    ranked, day_of_run = day_ranks(sweeps)
    for key, date in ranked:
        out.setdefault(key, {})[date] = []
    rows, lengths, _ = run_rows(sweeps)
    columns = site.table.columns
    ok = columns["status"][rows] == "ok"
    day = np.repeat(day_of_run, lengths)[ok]
    x = (1000.0 / columns["tpot_ms"][rows])[ok]
    y = laddered(site.table, sweeps, rows, lengths, site.output_workloads)[ok]
    order = np.lexsort((y, x, day))
    day, x, y = day[order], x[order], y[order]
    starts = np.flatnonzero(np.concatenate(([True], day[1:] != day[:-1])))
    on = beats_the_rest(y, starts) if len(day) else np.zeros(0, dtype=bool)
    for i, xi, yi in zip(day[on].tolist(), x[on].tolist(), y[on].tolist(), strict=True):
        key, date = ranked[i]
        out[key][date].append(frontier.Point(xi, yi))
    return out


@dataclass(frozen=True)
class Ladder:
    """A curve's frontier of one date, read at the ladder's targets and at the headline."""

    values: list[float | None]  # at each ladder target, ascending
    headline: float | None

    @classmethod
    def of(
        cls, front: list[frontier.Point], targets: Sequence[float], headline: float, method: str
    ) -> Ladder:
        """The ladder of a date's frontier (`front`, interactivity ascending)."""
        read = frontier.reader(front, method)
        return cls([read(t) for t in targets], read(headline))


def _size(rung: RungChange) -> float:
    return abs(rung.change)


def compare(
    before: Ladder, after: Ladder, targets: Sequence[float], threshold: float
) -> tuple[float | None, str, tuple[RungChange, ...]] | None:
    """(headline change, kind, rungs) of a date's ladder against the previous date's, or None
    where no rung both reach moved by at least `threshold`. The kind: a regression where the
    headline fell, or, where the two do not both reach the headline, where the change of
    largest size is a fall."""
    rungs = tuple(
        RungChange(t, b, a, a / b - 1)
        for t, b, a in zip(targets, before.values, after.values, strict=True)
        if b is not None and a is not None
    )
    if not any(_size(r) >= threshold * (1 - TOLERANCE) for r in rungs):
        return None
    headline = None
    if before.headline is not None and after.headline is not None:
        headline = after.headline / before.headline - 1
    deciding = headline if headline is not None else max(rungs, key=_size).change
    return headline, REGRESSION if deciding < 0 else IMPROVEMENT, rungs


def changes(site: Site, sweeps: Iterable[SweepRun] | None = None) -> list[Change]:
    """Every change entry of `sweeps` (by default every sweep of the site), newest first, then
    by model, GPU, workload, engine and precision."""
    config = site.config
    targets = sorted(config.targets)
    found = []
    found_days = day_frontiers(site, list(site.sweeps if sweeps is None else sweeps))
    for key, days in found_days.items():
        dates = sorted(days)
        ladders = [
            Ladder.of(days[d], targets, config.headline_interactivity, config.frontier_method)
            for d in dates
        ]
        for i in range(1, len(dates)):
            made = compare(ladders[i - 1], ladders[i], targets, config.change_threshold)
            if made is not None:
                headline, kind, rungs = made
                found.append(Change(dates[i], dates[i - 1], *key, kind, headline, rungs))
    return newest_first(found)


def newest_first(entries: Iterable[Change]) -> list[Change]:
    return sorted(
        entries,
        key=lambda c: (-c.date.toordinal(), c.model, c.gpu, c.workload, c.engine, c.precision),
    )
