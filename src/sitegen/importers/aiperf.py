"""NVIDIA AIPerf `profile_export_aiperf.json` and GenAI-Perf `profile_export_genai_perf.json`.

Each metric is an object with a `unit` and `avg`, `p50`, `p90`, `p99`...; their
`inter_token_latency` is the decode-only TPOT. GenAI-Perf has no total throughput and no date.
"""

from __future__ import annotations

from typing import Any

from ..records import SiteError
from .common import (
    MISSING,
    MS_PER,
    Identity,
    Measurement,
    Options,
    Reading,
    Source,
    date_at,
    dig,
    first_present,
    latency,
    mapping,
    need,
    positive,
    text,
    whole,
)

NAME = "aiperf"
TITLE = "AIPerf / GenAI-Perf profile export JSON"
MODEL_PATHS = (
    ("input_config", "endpoint", "model_names", 0),
    ("input_config", "model_names", 0),
    ("input_config", "model", 0),
    ("input_config", "model"),
)
CONCURRENCY_PATHS = (
    ("input_config", "loadgen", "concurrency"),
    ("input_config", "perf_analyzer", "stimulus", "concurrency"),
    ("input_config", "concurrency"),
)
UNITS = {"ms": "ms", "milliseconds": "ms", "s": "s", "sec": "s", "ns": "ns", "us": "us"}


def detect(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("time_to_first_token"), dict)


def _metric(source: Source, obj: dict, key: str) -> dict:
    """One latency metric in ms, whatever unit the file gives it."""
    body = obj.get(key)
    if not isinstance(body, dict):
        return {}
    unit = UNITS.get(str(body.get("unit", "ms")).lower())
    if unit is None or unit not in MS_PER:
        raise SiteError([source.problem(0, (key, "unit"), f"unknown unit {body.get('unit')!r}")])
    median = body.get("p50", body.get("median"))
    return latency(unit, median, body.get("avg"), body.get("p90"), body.get("p99"))


def _total(source: Source, obj: dict, genai_perf: bool) -> tuple[float, str | None]:
    """Total tokens/s and, where it had to be derived, how."""
    raw = dig(obj, "total_token_throughput", "avg")
    if raw is not MISSING and raw is not None:  # a total there is used, or refused: never replaced
        path = ("total_token_throughput", "avg")
        return need(source, 0, path, positive(raw), "total tokens/s, a number > 0"), None
    isl, osl = positive(dig(obj, "total_isl", "avg")), positive(dig(obj, "total_osl", "avg"))
    duration = positive(dig(obj, "benchmark_duration", "avg"))
    if isl and osl and duration:
        return (isl + osl) / duration, "total throughput = (total_isl + total_osl) / duration"
    rate = positive(dig(obj, "request_throughput", "avg"))
    mean_in = positive(dig(obj, "input_sequence_length", "avg"))
    mean_out = positive(dig(obj, "output_sequence_length", "avg"))
    if rate and mean_in and mean_out:
        return rate * (mean_in + mean_out), (
            "total throughput = request throughput x (mean input + mean output tokens), "
            f"as {'GenAI-Perf' if genai_perf else 'this export'} gives no total"
        )
    raise SiteError(
        [
            source.problem(
                0,
                ("total_token_throughput",),
                "missing, and no request_throughput with input/output_sequence_length "
                "to derive it from",
            )
        ]
    )


def read(source: Source, options: Options) -> Reading:
    obj = mapping(source, 0, "an AIPerf / GenAI-Perf profile export")
    genai_perf = "start_time" not in obj and "total_isl" not in obj
    ttft = _metric(source, obj, "time_to_first_token")
    tpot = _metric(source, obj, "inter_token_latency")
    need(source, 0, ("time_to_first_token", "p50"), ttft or None, "the TTFT's p50")
    need(
        source,
        0,
        ("inter_token_latency",),
        tpot or None,
        "inter_token_latency (the decode-only TPOT); run with streaming on",
    )
    config: dict[str, Any] = {"ttft_ms": ttft, "tpot_ms": tpot}
    if e2e := _metric(source, obj, "request_latency"):
        config["e2el_ms"] = e2e
    if (concurrency := whole(first_present(obj, *CONCURRENCY_PATHS)[1])) is not None:
        config["concurrency"] = concurrency
    total, derived = _total(source, obj, genai_perf)
    version = text(dig(obj, "aiperf_version")) or text(dig(obj, "version"))
    tool = "GenAI-Perf" if genai_perf else "AIPerf"
    measurement = Measurement(
        file=source.name,
        identity=Identity(
            model=text(first_present(obj, *MODEL_PATHS)[1]),
            date=date_at(source, 0, ("start_time",), dig(obj, "start_time")),
        ),
        config=config,
        total_throughput=total,
        output_throughput=positive(dig(obj, "output_token_throughput", "avg")),
    )
    notes = (derived,) if derived else ()
    return Reading(
        tool=f"{tool} {version}" if version else tool, measurements=(measurement,), notes=notes
    )
