"""llm-inference-bench `benchmark_results.json` (the harness behind `lmx speed-test`).

Cells are concurrency x context; each has `aggregate_tps` (output tokens/s of all requests)
and `per_request_avg_tps`, TTFTs in seconds. It imports as a **matrix** record.
"""

from __future__ import annotations

from typing import Any

from ..records import SiteError
from .common import (
    Identity,
    MatrixResult,
    Options,
    Reading,
    Source,
    date_at,
    dig,
    finite,
    first_present,
    positive,
    text,
    whole,
)

NAME = "llm-inference-bench"
TITLE = "llm-inference-bench benchmark_results.json (matrix)"


def detect(obj: Any) -> bool:
    results = obj.get("results") if isinstance(obj, dict) else None
    return (
        isinstance(results, list)
        and bool(results)
        and isinstance(results[0], dict)
        and "aggregate_tps" in results[0]
    )


def _cell(source: Source, i: int, cell: Any) -> dict | None:
    """One decode cell; None for a cell the harness skipped or that failed."""
    path = ("results", i)
    if not isinstance(cell, dict):
        raise SiteError([source.problem(0, path, "expected a cell (a JSON object)")])
    aggregate = positive(cell.get("aggregate_tps"))
    if aggregate is None or cell.get("failure_reason"):
        return None
    concurrency = whole(cell.get("concurrency"))
    context = finite(cell.get("context_tokens"))
    if concurrency is None or context is None or context < 0:
        raise SiteError(
            [source.problem(0, path, "expected concurrency >= 1 and context_tokens >= 0")]
        )
    ttft = positive(first_present(cell, ("ttft_p50",), ("ttft_avg",))[1])
    if ttft is None:
        raise SiteError([source.problem(0, (*path, "ttft_p50"), "missing; expected seconds")])
    per_request = positive(cell.get("per_request_avg_tps")) or aggregate / concurrency
    return {
        "context": int(context),
        "concurrency": concurrency,
        "aggregate_tok_s": aggregate,
        "per_request_tok_s": per_request,
        "ttft_s": ttft,
    }


def _prefill(source: Source, obj: dict) -> list[dict]:
    rows = []
    raw = obj.get("prefill")
    if not isinstance(raw, dict):
        return rows
    for key, row in raw.items():
        context = whole(key)
        rate = positive(dig(row, "tok_per_sec"))
        ttft = positive(dig(row, "ttft_seconds"))
        if context is None or rate is None or ttft is None:
            continue
        prompt = whole(dig(row, "prompt_tokens")) or context
        rows.append({"context": context, "prompt_tokens": prompt, "ttft_s": ttft, "tok_s": rate})
    return sorted(rows, key=lambda r: r["context"])


def read(source: Source, options: Options) -> Reading:
    obj = source.objects[0]
    read_cells = (_cell(source, i, raw) for i, raw in enumerate(obj["results"]))
    cells = [cell for cell in read_cells if cell is not None]
    if not cells:
        raise SiteError([source.problem(0, ("results",), "no cell with a measured rate")])
    skipped = len(obj["results"]) - len(cells)
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    version = text(meta.get("version"))
    harness = f"llm-inference-bench {version}" if version else "llm-inference-bench"
    bench: dict[str, Any] = {"harness": harness}
    for key, name in (("duration", "decode_seconds"), ("max_tokens", "max_output_tokens")):
        if (value := finite(meta.get(key))) is not None:
            bench[name] = int(value) if value.is_integer() else value
    fields = {
        "bench": bench,
        "prefill": _prefill(source, obj),
        "decode": sorted(cells, key=lambda c: (c["context"], c["concurrency"])),
    }
    identity = Identity(
        model=text(meta.get("model")),
        engine=text(meta.get("engine")),
        engine_version=text(meta.get("engine_version")),
        date=date_at(source, 0, ("metadata", "timestamp"), meta.get("timestamp")),
    )
    notes = ["decode throughput counts output tokens only"]
    if skipped:
        notes.append(f"{skipped} cells skipped or failed in the harness, left out")
    return Reading(
        tool=harness,
        matrix=MatrixResult(file=source.name, identity=identity, fields=fields),
        notes=tuple(notes),
    )
