"""vLLM `vllm bench serve --save-result` / benchmarks/benchmark_serving.py result JSON.

One object per file, or one per line with --append-result. Latencies are in ms; TPOT is
per request (e2e - ttft) / (output tokens - 1), the decode-only figure docs/data.md asks for.
"""

from __future__ import annotations

from typing import Any

from ..records import SiteError
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
    engine_from_backend,
    finite,
    first_present,
    latency,
    mapping,
    need,
    positive,
    text,
    whole,
)

NAME = "vllm"
TITLE = "vLLM benchmark_serving / vllm bench serve JSON"
# The old script wrote its goodput under a key with a colon in it.
GOODPUT_KEYS = ("request_goodput", "request_goodput:")


def detect(obj: Any) -> bool:
    if not isinstance(obj, dict) or "median_ttft_ms" not in obj:
        return False
    marks = ("total_token_throughput", "model_id", "median_e2el_ms", *GOODPUT_KEYS)
    return any(key in obj for key in marks)


def spread(obj: dict, name: str, unit: str = "ms") -> dict:
    """{median, mean, p90, p99} of `<stat>_<name>_ms` keys, in ms."""
    return latency(
        unit,
        dig(obj, f"median_{name}_ms"),
        dig(obj, f"mean_{name}_ms"),
        dig(obj, f"p90_{name}_ms"),
        dig(obj, f"p99_{name}_ms"),
    )


def request_rate(obj: dict) -> str | None:
    """The offered request rate in words: "inf" (vLLM) and Infinity (SGLang) mean all at once."""
    raw = dig(obj, "request_rate")
    rate = finite(raw)
    if rate is not None:
        return f"{rate:g} req/s"
    if str(raw).strip().lower() in ("inf", "infinity"):
        return "all at once"
    return None


# Token totals and duration as vLLM and SGLang (older and newer) spell them.
INPUT_TOKENS = (("total_input_tokens",), ("total_input",))
OUTPUT_TOKENS = (("total_output_tokens",), ("total_output",))
DURATION = (("duration",), ("benchmark_duration",))


def total_rate(source: Source, index: int, obj: dict, key: str) -> float | None:
    """The file's total tokens/s; None where it has none, an error where it is no figure."""
    raw = dig(obj, key)
    if raw is MISSING or raw is None:
        return None
    return need(source, index, (key,), positive(raw), "total tokens/s, a number > 0")


def _count(value: Any) -> float | None:
    number = finite(value)
    return number if number is not None and number >= 0 else None


def total_from_tokens(source: Source, index: int, obj: dict, total: str) -> tuple[float, str]:
    """Input + output tokens over the benchmark's duration, for files without a total rate,
    and the note that says so; each part missing or not a count is an error naming it."""
    why = f"a token count (the file has no {total}: the total is derived from its parts)"
    parts = []
    for spellings in (INPUT_TOKENS, OUTPUT_TOKENS):
        path, raw = first_present(obj, *spellings)
        parts.append((path, need(source, index, path, _count(raw), why)))
    (in_path, inputs), (out_path, outputs) = parts
    duration_path, raw = first_present(obj, *DURATION)
    duration = need(source, index, duration_path, positive(raw), "the duration in seconds")
    if inputs + outputs <= 0:
        raise SiteError([source.problem(index, in_path, "no tokens; expected a token count")])
    names = [field_name(p) for p in (in_path, out_path, duration_path)]
    note = f"total throughput = ({names[0]} + {names[1]}) / {names[2]}, as the file has no {total}"
    return (inputs + outputs) / duration, note


def read(source: Source, options: Options) -> Reading:
    measurements = []
    rates, derived = set(), set()
    for index in range(len(source.objects)):
        obj = mapping(source, index, "a vLLM result")
        total = total_rate(source, index, obj, "total_token_throughput")
        if total is None:
            total, note = total_from_tokens(source, index, obj, "total_token_throughput")
            derived.add(note)
        measurements.append(_measurement(source, index, obj, total))
        if rate := request_rate(obj):
            rates.add(rate)
    notes = [f"request rate {', '.join(sorted(rates))}"] if rates else []
    notes += sorted(derived)
    return Reading(
        tool="vLLM benchmark_serving", measurements=tuple(measurements), notes=tuple(notes)
    )


def _measurement(source: Source, index: int, obj: dict, total: float) -> Measurement:
    ttft = spread(obj, "ttft")
    tpot = spread(obj, "tpot")
    need(source, index, ("median_ttft_ms",), ttft or None, "the median TTFT in ms")
    need(
        source,
        index,
        ("median_tpot_ms",),
        tpot or None,
        "the median TPOT in ms (run with --percentile-metrics ttft,tpot,itl,e2el)",
    )
    config: dict[str, Any] = {"ttft_ms": ttft, "tpot_ms": tpot}
    if e2el := spread(obj, "e2el"):
        config["e2el_ms"] = e2el
    if (concurrency := whole(dig(obj, "max_concurrency"))) is not None:
        config["concurrency"] = concurrency
    identity = Identity(
        model=text(dig(obj, "model_id")),
        engine=engine_from_backend(text(dig(obj, "backend"))),
        date=date_at(source, index, ("date",), dig(obj, "date")),
    )
    return Measurement(
        file=source.name,
        identity=identity,
        config=config,
        total_throughput=total,
        output_throughput=positive(dig(obj, "output_throughput")),
        line=source.first_lines[index],
    )
