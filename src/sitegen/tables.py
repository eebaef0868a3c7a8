"""pandas: run records -> one summary per model x GPU x workload, ready for pages and JSON."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

import pandas as pd

from . import frontier
from .records import Site, SweepRun

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


def config_frame(sweeps: list[SweepRun]) -> pd.DataFrame:
    """One row per config of every sweep, with its run's identity beside it."""
    rows = []
    for run in sweeps:
        for index, c in enumerate(run.configs):
            rows.append(
                {
                    "model": run.model,
                    "gpu": run.gpu,
                    "workload": run.workload,
                    "engine": run.engine,
                    "precision": run.precision,
                    "date": run.date,
                    "run": run.id,
                    "index": index,
                    "status": c.status,
                    "interactivity": c.interactivity if c.tpot_ms else math.nan,
                    "throughput_per_gpu": c.throughput_per_gpu,
                    "concurrency": c.concurrency,
                    "gpus": c.gpus,
                    "tp": c.tp,
                    "ep": c.ep,
                    "parallelism": c.parallelism,
                    "ttft_ms": c.ttft_ms.median if c.ttft_ms else math.nan,
                    "tpot_ms": c.tpot_ms.median if c.tpot_ms else math.nan,
                }
            )
    columns = (
        GROUP
        + CURVE
        + [
            "date",
            "run",
            "index",
            "status",
            "interactivity",
            "throughput_per_gpu",
            "concurrency",
            "gpus",
            "tp",
            "ep",
            "parallelism",
            "ttft_ms",
            "tpot_ms",
        ]
    )
    return pd.DataFrame(rows, columns=columns)


def current_only(frame: pd.DataFrame) -> pd.DataFrame:
    """Keep, for each engine x precision, the runs of its latest date (DATA.md, step 0)."""
    if frame.empty:
        return frame
    latest = frame.groupby(GROUP + CURVE)["date"].transform("max")
    return frame[frame["date"] == latest]


def _point_record(row: pd.Series) -> dict:
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


def _points(frame: pd.DataFrame) -> list[frontier.Point]:
    return [
        frontier.Point(float(x), float(y))
        for x, y in zip(frame["interactivity"], frame["throughput_per_gpu"], strict=True)
    ]


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


def _history(
    all_rows: pd.DataFrame, engine: str, precision: str, target: float, method: str
) -> tuple[HistoryPoint, ...]:
    """The curve's value at the headline target for each date it was measured."""
    rows = all_rows[(all_rows["engine"] == engine) & (all_rows["precision"] == precision)]
    history = []
    for date, day in rows.groupby("date", sort=True):
        ok = day[day["status"] == "ok"]
        value = frontier.value_at(frontier.pareto_frontier(_points(ok)), target, method)
        history.append(HistoryPoint(date, value, tuple(sorted(set(day["run"])))))
    return tuple(history)


def _headline_config(curve_rows: pd.DataFrame, target: float) -> dict | None:
    """The measured config that carries the headline: the highest throughput meeting the target."""
    meeting = curve_rows[curve_rows["interactivity"] >= target]
    if meeting.empty:
        return None
    best = meeting.sort_values(
        ["throughput_per_gpu", "interactivity"], ascending=False, kind="stable"
    ).iloc[0]
    return _config_record(best)


def _config_record(row: pd.Series) -> dict:
    record = _point_record(row)
    record.update(
        engine=row["engine"],
        precision=row["precision"],
        parallelism=row["parallelism"],
        date=row["date"],
        index=int(row["index"]),
    )
    return record


def summarise_workload(site: Site, rows: pd.DataFrame) -> WorkloadSummary | None:
    """One model x GPU x workload from all of its config rows (current and older)."""
    model, gpu, workload = rows.iloc[0][GROUP]
    config = site.config
    method = config.frontier_method
    current = current_only(rows)
    ok = current[current["status"] == "ok"]
    curves = []
    for (engine, precision), curve_rows in ok.groupby(CURVE, sort=True):
        curve_rows = curve_rows.sort_values(["interactivity", "throughput_per_gpu"], kind="stable")
        curves.append(
            CurveSummary(
                engine,
                precision,
                frontier.pareto_frontier(_points(curve_rows)),
                tuple(_point_record(r) for _, r in curve_rows.iterrows()),
                _history(rows, engine, precision, config.headline_interactivity, method),
            )
        )
    shapes = [frontier.Curve(c.engine, c.precision, c.frontier) for c in curves]
    ladder = [_ladder_row(site, gpu, r) for r in frontier.ladder(shapes, config.targets, method)]
    head = _ladder_row(site, gpu, frontier.best_at(shapes, config.headline_interactivity, method))
    headline_config = None
    if head.engine is not None:
        on_curve = ok[(ok["engine"] == head.engine) & (ok["precision"] == head.precision)]
        headline_config = _headline_config(on_curve, config.headline_interactivity)
    if ok.empty:
        return None
    fastest_ttft = _config_record(ok.sort_values(["ttft_ms", "run", "index"]).iloc[0])
    fastest_tpot = _config_record(ok.sort_values(["tpot_ms", "run", "index"]).iloc[0])
    failed = current[current["status"] != "ok"]
    return WorkloadSummary(
        model=model,
        gpu=gpu,
        workload=workload,
        configs=len(ok),
        engines=tuple(sorted(set(ok["engine"]))),
        precisions=tuple(sorted(set(ok["precision"]))),
        first_date=min(current["date"]),
        last_date=max(current["date"]),
        peak_throughput_per_gpu=float(ok["throughput_per_gpu"].max()),
        ladder=tuple(ladder),
        curves=tuple(curves),
        headline=head,
        headline_config=headline_config,
        fastest_ttft=fastest_ttft,
        fastest_tpot=fastest_tpot,
        failed=tuple(
            {
                "run": r["run"],
                "index": int(r["index"]),
                "concurrency": int(r["concurrency"]),
                "gpus": int(r["gpus"]),
                "engine": r["engine"],
                "precision": r["precision"],
                "parallelism": r["parallelism"],
            }
            for _, r in failed.iterrows()
        ),
        current_runs=tuple(sorted(set(current["run"]))),
        older_runs=tuple(sorted(set(rows["run"]) - set(current["run"]))),
    )


def summarise(site: Site) -> dict[tuple[str, str], list[WorkloadSummary]]:
    """(model, gpu) -> its workloads' summaries, the default workload first."""
    frame = config_frame(site.sweeps)
    pairs: dict[tuple[str, str], list[WorkloadSummary]] = {}
    if frame.empty:
        return pairs
    default = site.config.default_workload
    for _, rows in frame.groupby(GROUP, sort=True):
        summary = summarise_workload(site, rows)
        if summary is not None:
            pairs.setdefault((summary.model, summary.gpu), []).append(summary)
    for summaries in pairs.values():
        summaries.sort(key=lambda s: (s.workload != default, s.workload))
    return pairs
