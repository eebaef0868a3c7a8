"""GuideLLM `benchmarks.json`: several benchmarks in one file, one per strategy.

Each metric is split by request status; the `successful` part has mean, median and
percentiles. `inter_token_latency_ms` is the decode-only TPOT (GuideLLM's own
`time_per_output_token_ms` includes the TTFT); `request_latency` is in seconds.
"""

from __future__ import annotations

from typing import Any

from ..records import Problem, SiteError
from ..records.problems import WARNING, describe
from ..records.yamlpos import field_name
from .common import (
    MISSING,
    Identity,
    Measurement,
    Options,
    Reading,
    Source,
    date_at,
    dig,
    first_present,
    latency,
    need,
    positive,
    text,
    whole,
)

NAME = "guidellm"
TITLE = "GuideLLM benchmarks.json"
STRATEGY_PATHS = (("config", "strategy"), ("args", "strategy"), ("strategy",))
MODEL_PATHS = (("config", "backend", "model"), ("worker", "backend_model"), ("config", "model"))
START_PATHS = (("start_time",), ("run_stats", "start_time"), ("scheduler_metrics", "start_time"))


def detect(obj: Any) -> bool:
    benchmarks = obj.get("benchmarks") if isinstance(obj, dict) else None
    return (
        isinstance(benchmarks, list)
        and bool(benchmarks)
        and isinstance(benchmarks[0], dict)
        and "metrics" in benchmarks[0]
    )


def _spread(metrics: dict, key: str, unit: str) -> dict:
    part = dig(metrics, key, "successful")
    if not isinstance(part, dict):
        return {}
    return latency(
        unit,
        part.get("median", dig(part, "percentiles", "p50")),
        part.get("mean"),
        dig(part, "percentiles", "p90"),
        dig(part, "percentiles", "p99"),
    )


def _concurrency(bench: dict) -> tuple[int | None, str, tuple]:
    """The benchmark's concurrency, its strategy and the path to its `streams`."""
    strategy_path, strategy = first_present(bench, *STRATEGY_PATHS)
    streams = (*strategy_path, "streams")
    kind = str(dig(strategy, "type_")) if isinstance(strategy, dict) else "unknown"
    if kind == "synchronous":
        return 1, kind, streams
    if kind == "concurrent":
        return whole(dig(strategy, "streams")), kind, streams
    return None, kind, streams


def _left_out(source: Source, bench: dict, path: tuple, streams: tuple) -> Problem:
    """The warning for a concurrent benchmark whose `streams` is no concurrency."""
    raw = dig(bench, *streams)
    got = "missing" if raw is MISSING else f"got {describe(raw)}"
    where = (*path, *streams)
    message = f"benchmark left out: {got}; expected the concurrency, a whole number >= 1"
    return Problem(source.name, source.line(0, where), field_name(where), message, WARNING)


def read(source: Source, options: Options) -> Reading:
    report = source.objects[0]
    measurements, skipped, warnings = [], [], []
    benchmarks = need(source, 0, ("benchmarks",), dig(report, "benchmarks"), "a list")
    for i, bench in enumerate(benchmarks):
        path = ("benchmarks", i)
        concurrency, kind, streams = _concurrency(bench)
        if concurrency is None and kind == "concurrent":
            warnings.append(_left_out(source, bench, path, streams))
            continue
        if concurrency is None and len(benchmarks) > 1:
            # Rate-driven benchmarks (throughput, constant, poisson) fix no concurrency, so
            # they have no place on a concurrency sweep.
            skipped.append(f"benchmarks[{i}] ({kind})")
            continue
        metrics = need(source, 0, (*path, "metrics"), dig(bench, "metrics"), "the metrics")
        ttft = _spread(metrics, "time_to_first_token_ms", "ms")
        tpot = _spread(metrics, "inter_token_latency_ms", "ms")
        need(source, 0, (*path, "metrics", "time_to_first_token_ms"), ttft or None, "a TTFT")
        need(source, 0, (*path, "metrics", "inter_token_latency_ms"), tpot or None, "a TPOT")
        total = positive(dig(metrics, "tokens_per_second", "successful", "mean"))
        need(source, 0, (*path, "metrics", "tokens_per_second"), total, "total tokens/s")
        config: dict[str, Any] = {"ttft_ms": ttft, "tpot_ms": tpot}
        if e2e := _spread(metrics, "request_latency", "s"):
            config["e2el_ms"] = e2e
        if concurrency is not None:
            config["concurrency"] = concurrency
        start_path, start = first_present(bench, *START_PATHS)
        measurements.append(
            Measurement(
                file=source.name,
                identity=Identity(
                    model=text(first_present(bench, *MODEL_PATHS)[1]),
                    date=date_at(source, 0, (*path, *start_path), start),
                ),
                config=config,
                total_throughput=total,
                output_throughput=positive(
                    dig(metrics, "output_tokens_per_second", "successful", "mean")
                ),
            )
        )
    if not measurements:
        none = source.problem(0, ("benchmarks",), "no benchmark with a fixed concurrency")
        raise SiteError([*warnings, none])
    notes = []
    if skipped:
        notes.append(
            "skipped rate-driven benchmarks without a fixed concurrency: " + ", ".join(skipped)
        )
    version = text(dig(report, "metadata", "guidellm_version")) or text(
        dig(report, "metadata", "version")
    )
    return Reading(
        tool=f"GuideLLM {version}" if version else "GuideLLM",
        measurements=tuple(measurements),
        notes=tuple(notes),
        warnings=tuple(warnings),
    )
