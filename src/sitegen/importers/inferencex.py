"""InferenceX results: the public API response ({"rows": [...]}, each row with `metrics`) or
the aggregated list (`agg_*.json`, flat rows). Throughput is already per GPU; latencies are in
seconds. One file holds several engines and dates, so it becomes several records.

GPUs of a row: prefill + decode GPUs when disaggregated, else decode TP x PP. A
disaggregated row's output_tput_per_gpu is per decode GPU; it is rescaled to all its GPUs.
Single-node rows can carry num_*_gpu = TP x EP (64 for TP8 EP8), an upstream bug; the
measured power, avg_total_gpu_power_w / avg_power_w, gives the true count and is checked
against ours.
"""

from __future__ import annotations

from typing import Any

from ..records import Problem, SiteError
from ..records.credits import INFERENCEX
from ..records.problems import WARNING
from ..records.yamlpos import field_name
from .common import (
    Identity,
    Measurement,
    Options,
    Reading,
    Source,
    date_at,
    latency,
    link,
    positive,
    text,
    whole,
)

NAME = "inferencex"
TITLE = "InferenceX API response or aggregated results"
SOURCE = INFERENCEX.name  # the records' `source`; pages credit it with a link (credits.py)
PUBLISHER = INFERENCEX.publisher
HOMEPAGE = INFERENCEX.url
# How far the power-derived GPU count may stray from ours before we say so.
POWER_COUNT_TOLERANCE = 0.25


def _rows(obj: Any) -> list | None:
    if isinstance(obj, dict) and isinstance(obj.get("rows"), list):
        return obj["rows"]
    if isinstance(obj, list):
        return obj
    return None


def detect(obj: Any) -> bool:
    rows = _rows(obj)
    if not rows or not isinstance(rows[0], dict):
        return False
    row = rows[0]
    return "tput_per_gpu" in row or "tput_per_gpu" in (row.get("metrics") or {})


def _seconds(m: dict, name: str) -> dict:
    return latency(
        "s",
        m.get(f"median_{name}"),
        m.get(f"mean_{name}"),
        m.get(f"p90_{name}"),
        m.get(f"p99_{name}"),
    )


def _flag(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1", "yes")


def _gpus(row: dict, m: dict, tp: int, pp: int) -> tuple[int, int | None, int | None]:
    """(GPUs, prefill GPUs, decode GPUs) of a row, as docs/importing.md derives them."""
    if _flag(row.get("disagg")):
        prefill, decode = whole(row.get("num_prefill_gpu")), whole(row.get("num_decode_gpu"))
        if prefill and decode:
            return prefill + decode, prefill, decode
    return tp * pp, None, None


def _engine(row: dict) -> str | None:
    framework = text(row.get("framework"))
    spec = text(row.get("spec_method") or row.get("spec_decoding"))
    if framework and spec and spec.lower() != "none":
        return f"{framework}-{spec.lower()}"
    return framework


def _row(source: Source, i: int, row: Any, path: tuple, warnings: list, names: dict) -> Measurement:
    if not isinstance(row, dict):
        raise SiteError([source.problem(0, path, "expected a row (a JSON object)")])
    m = row.get("metrics") if isinstance(row.get("metrics"), dict) else row
    here = (*path, "metrics") if m is not row else path

    def required(key: str, what: str) -> float:
        value = positive(m.get(key))
        if value is None:
            raise SiteError([source.problem(0, (*here, key), f"missing; expected {what}")])
        return value

    throughput = required("tput_per_gpu", "total tokens/s per GPU")
    tp = whole(row.get("decode_tp", row.get("tp"))) or 1
    ep = whole(row.get("decode_ep", row.get("ep")))
    pp = whole(m.get("pp", m.get("decode_pp", row.get("pp")))) or 1
    gpus, prefill, decode = _gpus(row, m, tp, pp)
    power, total_power = positive(m.get("avg_power_w")), positive(m.get("avg_total_gpu_power_w"))
    if power and total_power and abs(total_power / power - gpus) > POWER_COUNT_TOLERANCE:
        warnings.append(
            Problem(
                source.name,
                source.line(0, path),
                field_name(path),
                f"{gpus} GPUs derived, but measured power says {total_power / power:.1f} "
                "(avg_total_gpu_power_w / avg_power_w)",
                WARNING,
            )
        )
    required("median_ttft", "the median TTFT in s")
    required("median_tpot", "the median TPOT in s")
    config: dict[str, Any] = {"gpus": gpus, "tp": tp}
    if pp > 1:
        config["pp"] = pp
    if ep:
        config["ep"] = ep
    dp_attention = row.get("decode_dp_attention", row.get("dp_attention"))
    if dp_attention is not None:
        config["dp_attention"] = _flag(dp_attention)
    spec = text(row.get("spec_method") or row.get("spec_decoding"))
    if spec and spec.lower() != "none":
        config["spec_decoding"] = spec.lower()
    if prefill:
        config.update(disagg=True, prefill_gpus=prefill, decode_gpus=decode)
    config["concurrency"] = whole(row.get("conc"))
    config["throughput_per_gpu"] = throughput
    if (output := positive(m.get("output_tput_per_gpu"))) is not None:
        # InferenceX divides a split row's output by its decode GPUs only (its total by all).
        config["output_throughput_per_gpu"] = output * decode / gpus if prefill else output
    config["ttft_ms"] = _seconds(m, "ttft")
    config["tpot_ms"] = _seconds(m, "tpot")
    if e2el := _seconds(m, "e2el"):
        config["e2el_ms"] = e2el
    if power:
        config["power_w"] = power
    if image := text(row.get("image")):
        config["image"] = image
    if config["concurrency"] is None:
        del config["concurrency"]
    identity = Identity(
        model=names.get(text(row.get("model")), text(row.get("model"))),
        gpu=text(row.get("hardware", row.get("hw"))),
        engine=_engine(row),
        precision=text(row.get("precision")),
        isl=whole(row.get("isl")),
        osl=whole(row.get("osl")),
        date=date_at(source, 0, (*path, "date"), row.get("date")),
        source=SOURCE,
        url=link(source, 0, (*path, "run_url"), row.get("run_url"), warnings),
    )
    return Measurement(
        file=source.name, identity=identity, config=config, line=source.line(0, path)
    )


def read(source: Source, options: Options) -> Reading:
    obj = source.objects[0]
    rows = _rows(obj)
    if not rows:
        raise SiteError([source.problem(0, ("rows",), "expected a non-empty list of rows")])
    base = ("rows",) if isinstance(obj, dict) else ()
    warnings: list[Problem] = []
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    # The API keys rows by a raw model name (dsv4) and says which display name it stands for.
    names = {}
    if text(meta.get("raw_model")) and text(meta.get("requested_model")):
        names[text(meta["raw_model"])] = text(meta["requested_model"])
    measurements = tuple(
        _row(source, i, row, (*base, i), warnings, names) for i, row in enumerate(rows)
    )
    notes = [
        "GPUs per config: prefill + decode GPUs when disaggregated, else decode TP x PP "
        "(num_prefill_gpu / num_decode_gpu of single-node rows ignored), checked against "
        "avg_total_gpu_power_w / avg_power_w",
    ]
    if any(m.config.get("disagg") for m in measurements):
        notes.append(
            "output_throughput_per_gpu of disaggregated configs = output_tput_per_gpu x decode "
            "GPUs / GPUs (InferenceX divides their output by the decode GPUs only)"
        )
    if any("power_w" in m.config for m in measurements):
        notes.append("power_w is the measured average power per GPU (avg_power_w)")
    version = text(meta.get("package_version"))
    if retrieved := text(meta.get("retrieved_at")):
        notes.append(f"retrieved {retrieved}")
    if query := text(meta.get("query_url")):
        notes.append(f"query {query}")
    tool = "InferenceX API" + (f", package {version}" if version else "")
    if not isinstance(obj, dict):
        tool = "InferenceX aggregated results"
    return Reading(
        tool=tool, measurements=measurements, notes=tuple(notes), warnings=tuple(warnings)
    )
