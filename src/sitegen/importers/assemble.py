"""Measurements -> sweep run records: throughput per GPU, one config per measurement sorted by
concurrency; a matrix goes to `matrix`, and what both share is in `planning`."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..records import Catalogs, Problem
from ..records.schema import CONFIG_FIELDS
from .common import Identity, Measurement, Options, Reading, SiteError
from .matrix import plan_matrix
from .merge import item_order
from .planning import (
    Key,
    Origin,
    Planned,
    Resolver,
    file_name,
    import_notes,
    match,
    measured_by,
    record_paths,
    run_name,
    tidy,
)

# -- configs -----------------------------------------------------------------------------------


def _config(m: Measurement, gpus: int, concurrency: int | None) -> dict[str, Any]:
    raw = dict(m.config)
    if gpus and m.total_throughput is not None:
        raw["gpus"] = gpus  # --gpus wins over a count in the file (lmx's gpuCount)
    else:
        raw.setdefault("gpus", gpus)  # InferenceX rows are already per GPU: their own count
    if concurrency is not None:
        raw.setdefault("concurrency", concurrency)
    if "throughput_per_gpu" not in raw and m.total_throughput is not None:
        raw["throughput_per_gpu"] = m.total_throughput / raw["gpus"]
    if "output_throughput_per_gpu" not in raw and m.output_throughput is not None:
        raw["output_throughput_per_gpu"] = m.output_throughput / raw["gpus"]
    # figures a file writes in decimal (MLPerf's) are kept as they are; the others tidied
    keep = (lambda value: value) if m.exact else tidy
    # the schema's order, so that records read the way site owners write them
    ordered = {k: keep(raw[k]) for k in CONFIG_FIELDS if k in raw}
    ordered.update({k: keep(v) for k, v in raw.items() if k not in ordered})
    return ordered


def _check_counts(resolver: Resolver, measurements: list[Measurement], options: Options) -> None:
    """GPUs and concurrency: from each result, else from the one option given for all."""
    # an open-loop result (MLPerf's) gives its request rate instead
    lacking = [m for m in measurements if not {"concurrency", "request_rate"} & set(m.config)]
    if len(lacking) > 1 and options.concurrency is not None:
        resolver.gap(
            lacking[0].file,
            "--concurrency",
            f"{len(lacking)} results lack their concurrency and one --concurrency cannot "
            "stand for all; import them one at a time",
        )
    elif lacking and options.concurrency is None:
        resolver.gap(
            lacking[0].file,
            "--concurrency",
            "the file does not say the concurrency (no max_concurrency / streams); "
            "give --concurrency",
        )
    for m in measurements:
        if "gpus" not in m.config and options.gpus is None:
            resolver.gap(m.file, "--gpus", "the file does not say the GPUs; give --gpus")


def _configs(
    measurements: list[Measurement], options: Options
) -> tuple[list[dict[str, Any]], tuple[Origin, ...]]:
    """The configs sorted as records keep them, and where each came from."""
    configs = [
        (_config(m, options.gpus or 0, options.concurrency), (m.file, m.line)) for m in measurements
    ]
    configs.sort(key=lambda pair: item_order("configs", pair[0]))
    return [config for config, _ in configs], tuple(origin for _, origin in configs)


# -- records -----------------------------------------------------------------------------------


# Formats of which one input holds many runs (engines, dates, systems): a record for each.
MANY_RUNS = ("inferencex", "mlperf")
SWEEP_WIDE = ("model", "gpu", "engine", "precision", "isl", "osl")


def _sameness(name: str, value: Any, options: Options, known: Catalogs | None) -> Any:
    """What two files must share for one sweep: nothing where an option decides, else the
    slug a model or GPU name finds (a local path and an hf_id may name one model)."""
    given = {
        "model": options.model,
        "gpu": options.gpu,
        "engine": options.engine,
        "precision": options.precision,
        "isl": options.workload,
        "osl": options.workload,
    }
    if given.get(name):
        return None
    if name in ("model", "gpu") and known:
        return match(value, getattr(known, f"{name}s")) or value
    return value.strip().lower() if isinstance(value, str) else value


def one_sweep(
    measurements: list[Measurement], options: Options | None = None, known: Catalogs | None = None
) -> Measurement:
    """A stand-in carrying what the files of one sweep say together; they must not disagree.

    A file that says nothing (vLLM's openai-chat backend names no engine) takes what the
    others say; an option given settles the matter whatever the files say.
    """
    options = options or Options()
    merged: dict[str, Any] = {}
    for name in SWEEP_WIDE + ("engine_version", "source", "url"):
        said = {getattr(m.identity, name): m.file for m in measurements}
        said.pop(None, None)
        if name in SWEEP_WIDE:
            kinds = {_sameness(name, value, options, known) for value in said}
            if len(kinds) > 1:
                listing = ", ".join(f"{v} in {Path(file).name}" for v, file in said.items())
                raise SiteError(
                    [
                        Problem(
                            measurements[0].file,
                            None,
                            f"--{name}",
                            f"the files are not one sweep: their {name} differs ({listing}); "
                            "import them separately",
                        )
                    ]
                )
        merged[name] = next(iter(said), None)
    dates = [m.identity.date for m in measurements if m.identity.date]
    identity = Identity(date=min(dates) if dates else None, **merged)
    return Measurement(file=measurements[0].file, identity=identity, config={})


def _record(
    key: Key,
    date: dt.date,
    source: str,
    url: str | None,
    version: str | None,
    notes: str,
    configs: list[dict],
) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": "sweep", "source": source}
    if url:
        record["url"] = url
    record.update(date=date, model=key.model, gpu=key.gpu, engine=key.engine)
    if version:
        record["engine_version"] = version
    record.update(precision=key.precision, workload=key.workload, notes=notes, configs=configs)
    return record


def plan_records(
    fmt: str,
    readings: list[Reading],
    options: Options,
    known: Catalogs,
    out: Path,
    site: Path,
    suffix: str = ".yaml",
) -> list[Planned]:
    """Every record this import writes, with its path; SiteError on any gap.

    `suffix` is what is written (`record_suffix`): records of .parquet share one archive.
    """
    resolver = Resolver(fmt, options, known)
    matrices = [r.matrix for r in readings if r.matrix is not None]
    if matrices:
        return plan_matrix(fmt, readings, matrices, resolver, out, suffix)
    measurements = [m for r in readings for m in r.measurements]
    # One file may hold several engines and dates (InferenceX); a sweep spread over files
    # of other tools is one run, whatever day each file was written.
    groups: dict[Key, list[Measurement]] = defaultdict(list)
    if fmt in MANY_RUNS:
        for m in measurements:
            groups[resolver.key(m, dated=True)].append(m)
    else:
        groups[resolver.key(one_sweep(measurements, options, known), dated=False)] = measurements
    sources = {key: measured_by(resolver, options, ms) for key, ms in groups.items()}
    _check_counts(resolver, measurements, options)
    resolver.fail_if_gaps()
    planned_keys, records = [], []
    for key, ms in groups.items():
        dates = sorted({d for m in ms if (d := options.date or m.identity.date)})
        date = dates[0]
        extra = (
            [f"measured {dates[0]} to {dates[-1]}, dated by its first day"]
            if len(dates) > 1
            else []
        )
        extra += list(dict.fromkeys(note for m in ms for note in m.notes))
        configs, origins = _configs(ms, options)
        urls = sorted({m.identity.url for m in ms if m.identity.url})
        versions = sorted({m.identity.engine_version for m in ms if m.identity.engine_version})
        files = list(dict.fromkeys(m.file for m in ms))
        notes = import_notes(fmt, readings, files, extra)
        record = _record(
            key,
            date,
            sources[key],
            urls[0] if urls else None,
            ", ".join(versions) or None,
            notes,
            configs,
        )
        planned_keys.append(file_name(key, date))
        records.append((record, tuple(files), origins, run_name(key, date)))
    paths = record_paths(out, planned_keys, suffix)
    return [
        Planned(path, record, files, origins, run)
        for path, (record, files, origins, run) in zip(paths, records, strict=True)
    ]
