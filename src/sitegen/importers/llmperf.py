"""Ray llmperf `*_summary.json` (token_benchmark_ray.py --results-dir).

A flat object: `results_<metric>_quantiles_p50`, `results_<metric>_mean`... in seconds.
llmperf has no total throughput and its inter-token latency divides the whole request time
(TTFT included) by the output tokens, so neither is used as-is: the total is rebuilt from the
mean token counts and TPOT from (e2e - TTFT) / (output tokens - 1) at the medians.
"""

from __future__ import annotations

from typing import Any

from ..records import SiteError
from .common import (
    Identity,
    Measurement,
    Options,
    Reading,
    Source,
    date_at,
    dig,
    latency,
    mapping,
    positive,
    text,
    whole,
)

NAME = "llmperf"
TITLE = "Ray llmperf *_summary.json"


def detect(obj: Any) -> bool:
    return isinstance(obj, dict) and "results_mean_output_throughput_token_per_s" in obj


def _stat(obj: dict, metric: str, stat: str) -> Any:
    key = f"results_{metric}_{'quantiles_' + stat if stat.startswith('p') else stat}"
    return obj.get(key)


def _spread_s(obj: dict, metric: str) -> dict:
    return latency(
        "s",
        _stat(obj, metric, "p50"),
        _stat(obj, metric, "mean"),
        _stat(obj, metric, "p90"),
        _stat(obj, metric, "p99"),
    )


def _required(source: Source, obj: dict, key: str, what: str) -> float:
    value = positive(obj.get(key))
    if value is None:
        got = "missing" if key not in obj else "not a number > 0"
        raise SiteError([source.problem(0, (key,), f"{got}; expected {what}")])
    return value


def read(source: Source, options: Options) -> Reading:
    obj = mapping(source, 0, "an llmperf summary")
    output_rate = _required(
        source, obj, "results_mean_output_throughput_token_per_s", "output tokens/s"
    )
    mean_in = _required(source, obj, "results_number_input_tokens_mean", "mean input tokens")
    mean_out = _required(source, obj, "results_number_output_tokens_mean", "mean output tokens")
    ttft_s = _required(source, obj, "results_ttft_s_quantiles_p50", "the median TTFT in s")
    e2e_s = _required(
        source, obj, "results_end_to_end_latency_s_quantiles_p50", "the median request time in s"
    )
    median_out = positive(_stat(obj, "number_output_tokens", "p50")) or mean_out
    if median_out <= 1 or e2e_s <= ttft_s:
        raise SiteError(
            [
                source.problem(
                    0,
                    ("results_number_output_tokens_quantiles_p50",),
                    "cannot derive a decode-only TPOT from one output token or "
                    "a request time below its TTFT",
                )
            ]
        )
    tpot_ms = (e2e_s - ttft_s) * 1000.0 / (median_out - 1)
    config: dict[str, Any] = {
        "ttft_ms": _spread_s(obj, "ttft_s"),
        "tpot_ms": {"median": tpot_ms},
        "e2el_ms": _spread_s(obj, "end_to_end_latency_s"),
    }
    if (concurrency := whole(obj.get("num_concurrent_requests"))) is not None:
        config["concurrency"] = concurrency
    measurement = Measurement(
        file=source.name,
        identity=Identity(
            model=text(obj.get("model")),
            date=date_at(source, 0, ("timestamp",), obj.get("timestamp")),
        ),
        config=config,
        total_throughput=output_rate * (mean_in + mean_out) / mean_out,
        output_throughput=output_rate,
    )
    version = text(dig(obj, "version"))
    notes = (
        "TPOT derived as (median e2e - median TTFT) / (median output tokens - 1): "
        "llmperf's inter_token_latency_s includes the TTFT and is not used",
        "total throughput = output throughput x (mean input + mean output tokens) "
        "/ mean output tokens",
    )
    tool = f"llmperf, results format {version}" if version else "llmperf"
    return Reading(tool=tool, measurements=(measurement,), notes=notes)
