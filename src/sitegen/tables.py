"""pandas: run records -> one summary per model x GPU x workload, ready for pages and JSON."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from . import energy, frontier
from .energy import Energy, Power
from .records import Site
from .records.columnar import run_rows

CURVE = ["engine", "precision"]
GROUP = ["model", "gpu", "workload"]


@dataclass(frozen=True)
class LadderRow:
    target: float
    throughput_per_gpu: float | None
    engine: str | None
    precision: str | None
    # tier -> $ per million tokens; None when the GPU has no price or the rung no value
    cost_per_million_tokens: dict[str, float] | None
    energy: Energy | None = None  # None where no power is known or the rung has no value
    # tier -> $ per million input (output) tokens, the whole GPU-hour charged to them; None
    # also where the workload's input or output length is unknown (docs/pages.md, "Costs")
    cost_per_million_input_tokens: dict[str, float] | None = None
    cost_per_million_output_tokens: dict[str, float] | None = None


@dataclass(frozen=True)
class HistoryPoint:
    date: dt.date
    throughput_per_gpu: float | None  # at the headline target; None if unreachable that day
    run_ids: tuple[str, ...]


@dataclass(frozen=True)
class CurveRung:
    """One curve's own value at a target of the ladder, and the power behind it."""

    target: float
    throughput_per_gpu: float | None
    power: Power | None  # None where unreached or no power is known


@dataclass(frozen=True)
class CurveSummary:
    engine: str
    precision: str
    frontier: tuple[frontier.Point, ...]
    points: tuple[dict, ...]  # every ok config of the curve's current runs
    point_rows: tuple[int, ...] = ()  # each point's row in the site's config table
    point_dates: tuple[str, ...] = ()  # each point's run date, ISO
    history: tuple[HistoryPoint, ...] = ()
    frontier_power_w: tuple[float | None, ...] = ()  # measured power of each frontier point
    rungs: tuple[CurveRung, ...] = ()  # at each of rung_targets(site)


@dataclass(frozen=True)
class WorkloadSummary:
    """What a model x GPU page says about one workload."""

    model: str
    gpu: str
    workload: str
    configs: int
    engines: tuple[str, ...]
    precisions: tuple[str, ...]
    first_date: dt.date
    last_date: dt.date
    peak_throughput_per_gpu: float
    ladder: tuple[LadderRow, ...]
    curves: tuple[CurveSummary, ...]
    headline: LadderRow
    headline_config: dict | None  # the measured config quoted beside the headline
    fastest_ttft: dict
    fastest_tpot: dict
    failed: tuple[dict, ...]
    current_runs: tuple[str, ...]
    older_runs: tuple[str, ...] = field(default=())


FRAME_COLUMNS = (
    "throughput_per_gpu",
    "concurrency",
    "gpus",
    "tp",
    "ep",
    "ttft_ms",
    "tpot_ms",
    "power_w",
)


def config_frame(site: Site) -> pd.DataFrame:
    """One row per config of every sweep, with its run's identity beside it, from the table.

    Rows follow the site's runs (date, then id), configs in record order; `row` is the config's
    row in the site's table, from which a page makes the config itself when it quotes one.
    """
    sweeps = site.sweeps
    table = site.table
    columns = [*GROUP, *CURVE, "date", "run", "index", "status", "interactivity", *FRAME_COLUMNS]
    if not sweeps or table is None:
        return pd.DataFrame(columns=[*columns, "row"])
    rows, lengths, index = run_rows(sweeps)

    def per_run(values: list) -> np.ndarray:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return np.repeat(out, lengths)

    data: dict[str, Any] = {
        name: per_run([getattr(r, name) for r in sweeps]) for name in (*GROUP, *CURVE, "date")
    }
    data["run"] = per_run([r.id for r in sweeps])
    data["index"] = index
    data["status"] = table.columns["status"][rows]
    tpot = table.columns["tpot_ms"][rows]
    data["interactivity"] = 1000.0 / tpot  # as SweepConfig.interactivity: NaN without a TPOT
    for name in FRAME_COLUMNS:
        data[name] = table.columns[name][rows]
    data["row"] = rows
    return pd.DataFrame(data, columns=[*columns, "row"])


def mark_current(frame: pd.DataFrame) -> pd.DataFrame:
    """Flag, per engine x precision, the configs of its latest date (docs/data.md, numbers, 0)."""
    latest = frame.groupby(GROUP + CURVE)["date"].transform("max")
    return frame.assign(current=frame["date"] == latest)


Row = Mapping[str, Any]


def _point_record(row: Row) -> dict:
    """A config as data.json's `points` lists it."""
    return {
        "interactivity": float(row["interactivity"]),
        "throughput_per_gpu": float(row["throughput_per_gpu"]),
        "concurrency": int(row["concurrency"]),
        "gpus": int(row["gpus"]),
        "tp": None if pd.isna(row["tp"]) else int(row["tp"]),
        "ttft_ms": float(row["ttft_ms"]),
        "tpot_ms": float(row["tpot_ms"]),
        "run": row["run"],
    }


class _Quoting:
    """Turns rows into what a page quotes; the parallelism label comes from the config itself."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def parallelism(self, row: Row) -> str:
        return self.table.config(int(row["row"])).parallelism

    def config(self, row: Row) -> dict:
        """A config as the page quotes it: its point, and where it comes from."""
        return dict(
            _point_record(row),
            engine=row["engine"],
            precision=row["precision"],
            parallelism=self.parallelism(row),
            date=row["date"],
            index=int(row["index"]),
        )

    def failed(self, row: Row) -> dict:
        keys = ("run", "engine", "precision")
        return (
            {k: row[k] for k in keys}
            | {"parallelism": self.parallelism(row)}
            | {k: int(row[k]) for k in ("index", "concurrency", "gpus")}
        )


def _points(rows: list[Row]) -> list[frontier.Point]:
    return [frontier.Point(r["interactivity"], r["throughput_per_gpu"]) for r in rows]


def _by(rows: list[Row], *keys: str) -> dict[tuple, list[Row]]:
    """Rows grouped by the values of `keys`, groups sorted, row order kept within each."""
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        groups.setdefault(tuple(row[k] for k in keys), []).append(row)
    return dict(sorted(groups.items()))


class _Rungs:
    """Turns a curve's value at a target into what a ladder row says: the cost at every tier,
    split into input and output where the workload's lengths are known, and the energy."""

    def __init__(self, site: Site, gpu: str, workload: str) -> None:
        prices = site.pricing.for_gpu(gpu)
        self.prices = [(t.slug, prices[t.slug]) for t in site.pricing.tiers if t.slug in prices]
        self.all_in = energy.all_in(site.gpus[gpu].all_in_power_kw)
        self.method = site.config.frontier_method
        lengths = site.workloads[workload]
        isl, osl = lengths.isl, lengths.osl
        # the shares of input and of output tokens in the total that throughput counts
        self.shares = (isl / (isl + osl), osl / (isl + osl)) if isl and osl else None

    def cost(self, throughput: float | None, share: float = 1.0) -> dict[str, float] | None:
        if throughput is None or not self.prices:
            return None
        return {
            tier: frontier.cost_per_million_tokens(price, throughput * share)
            for tier, price in self.prices
        }

    def power(self, curve: CurveSummary, target: float) -> Power | None:
        """The configs' measured power where the points read have it, else the all-in figure."""
        if any(w is not None for w in curve.frontier_power_w):
            measured = energy.power_at(curve.frontier, curve.frontier_power_w, target, self.method)
            if measured is not None:
                return energy.measured(measured)
        return self.all_in

    def curve_rungs(self, curve: CurveSummary, targets: list[float]) -> tuple[CurveRung, ...]:
        rungs = []
        for target in targets:
            value = frontier.value_at(curve.frontier, target, self.method)
            power = self.power(curve, target) if value is not None else None
            rungs.append(CurveRung(target, value, power))
        return tuple(rungs)

    def row(self, rung: frontier.Rung, power: Power | None) -> LadderRow:
        """The ladder row of `rung`, with the power of the curve it is read from."""
        throughput = rung.throughput_per_gpu
        split = self.shares if throughput is not None else None
        return LadderRow(
            rung.target,
            throughput,
            rung.engine,
            rung.precision,
            self.cost(throughput),
            energy.energy(throughput, power) if power and throughput else None,
            self.cost(throughput, split[0]) if split else None,
            self.cost(throughput, split[1]) if split else None,
        )


def _best_row(make: _Rungs, curves: dict, targets: list[float], target: float) -> LadderRow:
    """The ladder row at `target` from the curves' own rungs, as frontier.best_at picks it."""
    i = targets.index(target)
    values = ((c.engine, c.precision, c.rungs[i].throughput_per_gpu) for c in curves.values())
    best = frontier.best_of(target, values)
    curve = curves.get((best.engine, best.precision))
    return make.row(best, curve.rungs[i].power if curve else None)


def rung_targets(site: Site) -> list[float]:
    """The ladder's targets and the headline's, sorted: where each curve is read on its own."""
    config = site.config
    return sorted({*config.targets, config.headline_interactivity})


def _frontier_power(front: tuple[frontier.Point, ...], rows: list[Row]) -> tuple:
    """The measured power per GPU of each frontier point (the first config at that point)."""
    power: dict[tuple[float, float], float] = {}
    for r in rows:
        watts = r["power_w"]
        if watts is not None and watts == watts:  # NaN: not measured
            power.setdefault((r["interactivity"], r["throughput_per_gpu"]), float(watts))
    return tuple(power.get((p.interactivity, p.throughput_per_gpu)) for p in front)


def _histories(rows: list[Row], target: float, method: str) -> dict[tuple, tuple]:
    """(engine, precision) -> the curve's value at the headline target for each run date."""
    histories: dict[tuple, list[HistoryPoint]] = {}
    for (engine, precision, date), day in _by(rows, "engine", "precision", "date").items():
        ok = [r for r in day if r["status"] == "ok"]
        value = frontier.value_at(frontier.pareto_frontier(_points(ok)), target, method)
        point = HistoryPoint(date, value, tuple(sorted({r["run"] for r in day})))
        histories.setdefault((engine, precision), []).append(point)
    return {key: tuple(points) for key, points in histories.items()}


def _headline_row(curve_rows: list[Row], target: float) -> Row | None:
    """The measured config that carries the headline: the highest throughput meeting the target."""
    meeting = [r for r in curve_rows if r["interactivity"] >= target]
    if not meeting:
        return None
    return max(meeting, key=lambda r: (r["throughput_per_gpu"], r["interactivity"]))


def summarise_workload(site: Site, rows: list[Row], quote: _Quoting) -> WorkloadSummary | None:
    """One model x GPU x workload from all of its config rows (current and older)."""
    model, gpu, workload = (rows[0][k] for k in GROUP)
    config = site.config
    method = config.frontier_method
    current = [r for r in rows if r["current"]]
    ok = [r for r in current if r["status"] == "ok"]
    if not ok:
        return None
    histories = _histories(rows, config.headline_interactivity, method)
    by_curve = _by(ok, *CURVE)
    make = _Rungs(site, gpu, workload)
    targets = rung_targets(site)
    curves = {}
    for (engine, precision), curve_rows in by_curve.items():
        front = frontier.pareto_frontier(_points(curve_rows))
        curve = CurveSummary(
            engine,
            precision,
            front,
            tuple(_point_record(r) for r in curve_rows),
            history=histories[(engine, precision)],
            point_rows=tuple(int(r["row"]) for r in curve_rows),
            point_dates=tuple(r["date"].isoformat() for r in curve_rows),
            frontier_power_w=_frontier_power(front, curve_rows),
        )
        curves[engine, precision] = dataclasses.replace(
            curve, rungs=make.curve_rungs(curve, targets)
        )
    ladder = [_best_row(make, curves, targets, t) for t in sorted(config.targets)]
    head = _best_row(make, curves, targets, config.headline_interactivity)
    headline_config = None
    if head.engine is not None:
        on_curve = by_curve[(head.engine, head.precision)]
        row = _headline_row(on_curve, config.headline_interactivity)
        headline_config = quote.config(row) if row is not None else None
    dates = [r["date"] for r in current]
    return WorkloadSummary(
        model=model,
        gpu=gpu,
        workload=workload,
        configs=len(ok),
        engines=tuple(sorted({r["engine"] for r in ok})),
        precisions=tuple(sorted({r["precision"] for r in ok})),
        first_date=min(dates),
        last_date=max(dates),
        peak_throughput_per_gpu=float(max(r["throughput_per_gpu"] for r in ok)),
        ladder=tuple(ladder),
        curves=tuple(curves.values()),
        headline=head,
        headline_config=headline_config,
        fastest_ttft=quote.config(min(ok, key=lambda r: (r["ttft_ms"], r["run"], r["index"]))),
        fastest_tpot=quote.config(min(ok, key=lambda r: (r["tpot_ms"], r["run"], r["index"]))),
        failed=tuple(quote.failed(r) for r in current if r["status"] != "ok"),
        current_runs=tuple(sorted({r["run"] for r in current})),
        older_runs=tuple(sorted({r["run"] for r in rows} - {r["run"] for r in current})),
    )


def _groups(frame: pd.DataFrame) -> Iterator[list[Row]]:
    """The rows of each model x GPU x workload of a frame sorted by them, as plain dicts.

    Rows are made one group at a time from the columns (never the whole frame at once).
    """
    names = list(frame.columns)
    columns = [frame[name].to_numpy() for name in names]
    keys = frame[GROUP].to_numpy()
    changes = np.flatnonzero((keys[1:] != keys[:-1]).any(axis=1)) + 1
    edges = [0, *changes.tolist(), len(frame)]
    for start, stop in zip(edges, edges[1:], strict=False):
        cells = [col[start:stop].tolist() for col in columns]
        yield [dict(zip(names, values, strict=True)) for values in zip(*cells, strict=True)]


def summarise(site: Site) -> dict[tuple[str, str], list[WorkloadSummary]]:
    """(model, gpu) -> its workloads' summaries, the default workload first.

    pandas does the whole-table work once (the current runs, the order of points); each
    model x GPU x workload is then assembled from its plain rows.
    """
    frame = config_frame(site)
    pairs: dict[tuple[str, str], list[WorkloadSummary]] = {}
    if frame.empty:
        return pairs
    frame = mark_current(frame).sort_values(
        GROUP + CURVE + ["interactivity", "throughput_per_gpu"], kind="stable"
    )
    default = site.config.default_workload
    quote = _Quoting(site.table)
    for rows in _groups(frame):
        summary = summarise_workload(site, rows, quote)
        if summary is not None:
            pairs.setdefault((summary.model, summary.gpu), []).append(summary)
    for summaries in pairs.values():
        summaries.sort(key=lambda s: (s.workload != default, s.workload))
    return pairs
