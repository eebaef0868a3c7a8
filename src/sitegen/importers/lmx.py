"""`lmx speed-test run --out run.json` (camelCase), bare or wrapped as {"id", "payload": {...}}.

One file is one configuration. `tokSOut` is read as the decode rate summed over the
concurrent requests, so one user sees tokSOut / concurrency; TPOT is 1000 over that.
"""

from __future__ import annotations

from typing import Any

from ..records import SiteError
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

NAME = "lmx"
TITLE = "lmx speed-test run JSON"


def payload(obj: Any) -> tuple[tuple, Any]:
    """The run itself and the path to it: lmx sometimes wraps it as {"id", "payload"}."""
    if isinstance(obj, dict) and isinstance(obj.get("payload"), dict):
        return ("payload",), obj["payload"]
    return (), obj


def detect(obj: Any) -> bool:
    _, run = payload(obj)
    return isinstance(run, dict) and "tokSOut" in run


def _pick(run: dict, *paths: tuple) -> Any:
    """The first of several spellings present (flat or nested), or None."""
    value = first_present(run, *paths)[1]
    return None if value is MISSING else value


def read(source: Source, options: Options) -> Reading:
    base, run = payload(source.objects[0])
    if not isinstance(run, dict):
        raise SiteError([source.problem(0, (), "expected an lmx run (a JSON object)")])

    def missing(key: str, what: str) -> SiteError:
        return SiteError([source.problem(0, (*base, key), f"missing; expected {what}")])

    output = positive(run.get("tokSOut"))
    if output is None:
        raise missing("tokSOut", "the decode rate in tokens/s")
    concurrency = whole(
        _pick(run, ("engineFlags", "concurrency"), ("batchSize",), ("numParallel",))
    )
    users = concurrency or options.concurrency or 1
    per_user = output / users
    ttft_ms = positive(_pick(run, ("ttftMs",), ("ttft_ms",)))
    if ttft_ms is None:
        raise missing("ttftMs", "the time to first token in ms")
    notes = [
        "TPOT = 1000 / (tokSOut / concurrency): tokSOut read as the decode rate of all "
        "concurrent requests together"
    ]
    total = None
    if run.get("tokSTotal") is not None:  # a total there is used, or refused: never replaced
        raw = run["tokSTotal"]
        total = need(source, 0, (*base, "tokSTotal"), positive(raw), "total tokens/s, a number > 0")
    if total is None:
        prompt, out = positive(run.get("promptTokens")), positive(run.get("outputTokens"))
        if not (prompt and out):
            raise missing("tokSTotal", "total tokens/s (or promptTokens and outputTokens)")
        seconds = ttft_ms / 1000.0 + out / per_user
        total = users * (prompt + out) / seconds
        notes.append("total throughput derived from promptTokens, outputTokens, ttftMs, tokSOut")
    config: dict[str, Any] = {
        "ttft_ms": latency("ms", ttft_ms),
        "tpot_ms": {"median": 1000.0 / per_user},
    }
    if concurrency is not None:
        config["concurrency"] = concurrency
    if (gpus := whole(dig(run, "hardware", "gpuCount"))) is not None:
        config["gpus"] = gpus
    date_path, date = first_present(run, ("createdAt",), ("timestamp",), ("date",))
    identity = Identity(
        model=text(_pick(run, ("hfId",), ("model", "hfId"), ("model",))),
        gpu=text(dig(run, "hardware", "gpuName")),
        engine=text(_pick(run, ("engineName",), ("engine", "engineName"))),
        engine_version=text(_pick(run, ("engineVersion",), ("engine", "engineVersion"))),
        precision=text(_pick(run, ("quantization",), ("engine", "quantization"))),
        date=date_at(source, 0, (*base, *date_path), None if date is MISSING else date),
    )
    measurement = Measurement(
        file=source.name,
        identity=identity,
        config=config,
        total_throughput=total,
        output_throughput=output,
    )
    version = text(_pick(run, ("lmxVersion",), ("toolVersion",), ("version",)))
    return Reading(
        tool=f"lmx {version}" if version else "lmx",
        measurements=(measurement,),
        notes=tuple(notes),
    )
