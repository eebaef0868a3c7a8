"""pandas: run records -> one summary per model x GPU x workload, ready for pages and JSON."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from . import frontier
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
    energy: dict[str, float] | None = None


@dataclass(frozen=True)
class HistoryPoint:
    date: dt.date
    throughput_per_gpu: float | None  # at the headline target; None if unreachable that day
    run_ids: tuple[str, ...]


@dataclass(frozen=True)
class CurveSummary:
    engine: str
    precision: str
    frontier: tuple[frontier.Point, ...]
    points: tuple[dict, ...]  # every ok config of the curve's current runs
    point_rows: tuple[int, ...] = ()  # each point's row in the site's config table
    point_dates: tuple[str, ...] = ()  # each point's run date, ISO
    history: tuple[HistoryPoint, ...] = ()


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


FRAME_COLUMNS = ("throughput_per_gpu", "concurrency", "gpus", "tp", "ep", "ttft_ms", "tpot_ms")


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


def _cost(site: Site, gpu: str, throughput: float | None) -> dict[str, float] | None:
    prices = site.pricing.for_gpu(gpu)
    if throughput is None or not prices:
        return None
    return {
        tier.slug: frontier.cost_per_million_tokens(prices[tier.slug], throughput)
        for tier in site.pricing.tiers
        if tier.slug in prices
    }


def _ladder_row(site: Site, gpu: str, rung: frontier.Rung) -> LadderRow:
    power_kw = site.gpus[gpu].all_in_power_kw
    energy = None
    if power_kw and rung.throughput_per_gpu:
        energy = frontier.energy(rung.throughput_per_gpu, power_kw)
    return LadderRow(
        rung.target,
        rung.throughput_per_gpu,
        rung.engine,
        rung.precision,
        _cost(site, gpu, rung.throughput_per_gpu),
        energy,
    )


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
    curves = [
        CurveSummary(
            engine,
            precision,
            frontier.pareto_frontier(_points(curve_rows)),
            tuple(_point_record(r) for r in curve_rows),
            history=histories[(engine, precision)],
            point_rows=tuple(int(r["row"]) for r in curve_rows),
            point_dates=tuple(r["date"].isoformat() for r in curve_rows),
        )
        for (engine, precision), curve_rows in by_curve.items()
    ]
    shapes = [frontier.Curve(c.engine, c.precision, c.frontier) for c in curves]
    ladder = [_ladder_row(site, gpu, r) for r in frontier.ladder(shapes, config.targets, method)]
    head = _ladder_row(site, gpu, frontier.best_at(shapes, config.headline_interactivity, method))
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
        curves=tuple(curves),
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
