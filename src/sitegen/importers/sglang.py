"""SGLang `python -m sglang.bench_serving --output-file` JSON Lines, one line per run.

No model and no date in the file; `request_rate` may be a bare Infinity (not strict JSON,
which Python reads); totals are `total_input_tokens` or, newer, `total_input`.
"""

from __future__ import annotations

from typing import Any

from .common import (
    Identity,
    Measurement,
    Options,
    Reading,
    Source,
    dig,
    engine_from_backend,
    latency,
    mapping,
    need,
    positive,
    text,
    whole,
)
from .vllm import request_rate, spread, total_from_tokens, total_rate

NAME = "sglang"
TITLE = "SGLang bench_serving JSONL"


def detect(obj: Any) -> bool:
    if not isinstance(obj, dict) or "median_ttft_ms" not in obj:
        return False
    marks = ("median_e2e_latency_ms", "total_output_tokens_retokenized", "total_output")
    return any(key in obj for key in marks) and "model_id" not in obj


def _total(source: Source, index: int, obj: dict) -> tuple[float, str | None]:
    """Total tokens/s and, where it had to be derived, the note that says from what."""
    total = total_rate(source, index, obj, "total_throughput")
    if total is not None:
        return total, None
    inputs, outputs = (
        positive(dig(obj, "input_throughput")),
        positive(dig(obj, "output_throughput")),
    )
    if inputs is not None and outputs is not None:
        return inputs + outputs, "total throughput = input_throughput + output_throughput"
    return total_from_tokens(source, index, obj, "total_throughput")


def read(source: Source, options: Options) -> Reading:
    measurements = []
    rates, derived = set(), set()
    for index in range(len(source.objects)):
        obj = mapping(source, index, "an SGLang bench_serving result")
        ttft, tpot = spread(obj, "ttft"), spread(obj, "tpot")
        need(source, index, ("median_ttft_ms",), ttft or None, "the median TTFT in ms")
        need(source, index, ("median_tpot_ms",), tpot or None, "the median TPOT in ms")
        config: dict[str, Any] = {"ttft_ms": ttft, "tpot_ms": tpot}
        e2e = latency(
            "ms",
            dig(obj, "median_e2e_latency_ms"),
            dig(obj, "mean_e2e_latency_ms"),
            dig(obj, "p90_e2e_latency_ms"),
            dig(obj, "p99_e2e_latency_ms"),
        )
        if e2e:
            config["e2el_ms"] = e2e
        if (concurrency := whole(dig(obj, "max_concurrency"))) is not None:
            config["concurrency"] = concurrency
        if rate := request_rate(obj):
            rates.add(rate)
        total, note = _total(source, index, obj)
        if note:
            derived.add(note)
        measurements.append(
            Measurement(
                file=source.name,
                identity=Identity(engine=engine_from_backend(text(dig(obj, "backend")))),
                config=config,
                total_throughput=total,
                output_throughput=positive(dig(obj, "output_throughput")),
                line=source.first_lines[index],
            )
        )
    notes = [f"request rate {', '.join(sorted(rates))}"] if rates else []
    notes += sorted(derived)
    return Reading(
        tool="SGLang bench_serving", measurements=tuple(measurements), notes=tuple(notes)
    )
