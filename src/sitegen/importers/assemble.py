"""Measurements -> run records: slugs resolved against the site, throughput per GPU, one
config per measurement sorted by concurrency, provenance in the notes."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..records import Problem
from ..records.parquet import SUFFIX as ARCHIVE
from ..records.schema import CONFIG_FIELDS
from .common import Identity, Measurement, Options, Reading, SiteError

RUN_SUFFIXES = (".yaml", ".yml", ".json")
SUFFIXES = {"yaml": ".yaml", "json": ".json", "parquet": ARCHIVE}  # --format -> what is written
FILE_SAFE = re.compile(r"[^a-z0-9.-]+")


@dataclass(frozen=True)
class Planned:
    """A record about to be written, and where."""

    path: Path
    record: dict[str, Any]
    files: tuple[str, ...]  # the result files it came from


@dataclass(frozen=True)
class Key:
    """What makes one record: everything but the configs."""

    model: str
    gpu: str
    engine: str
    precision: str
    workload: str
    date: dt.date | None  # None while the date is still to be settled (one sweep, many files)


class Resolver:
    """Turns what files say into slugs of the site, collecting one problem per gap."""

    def __init__(self, fmt: str, options: Options, known: dict) -> None:
        self.fmt = fmt
        self.options = options
        self.known = known
        self.problems: dict[str, Problem] = {}  # keyed by option, so each is said once

    def gap(self, file: str, option: str, message: str) -> None:
        self.problems.setdefault(option, Problem(file, None, option, message))

    def _catalog(self, m: Measurement, option: str, given: str | None, raw: str | None) -> str:
        kind = {"--model": "models", "--gpu": "gpus", "--workload": "workloads"}[option]
        catalog = self.known[kind]
        names = ", ".join(sorted(catalog)[:12])
        if given is not None:
            if given not in catalog:
                self.gap(m.file, option, f'"{given}" is not in data/{kind}.yaml (known: {names})')
            return given
        if raw is None:
            what = option.lstrip("-")
            self.gap(m.file, option, f"the file does not say the {what}; give {option} ({names})")
            return ""
        slug = match(raw, catalog)
        if slug is None:
            self.gap(
                m.file,
                option,
                f'"{raw}" in the file matches nothing in data/{kind}.yaml; give {option} '
                f"(one of: {names})",
            )
            return ""
        return slug

    def _plain(self, m: Measurement, option: str, given: str | None, raw: str | None) -> str:
        value = given or raw
        if not value:
            what = option.lstrip("-")
            self.gap(m.file, option, f"the file does not say the {what}; give {option}")
            return ""
        return value.strip().lower()

    def key(self, m: Measurement, dated: bool, with_workload: bool = True) -> Key:
        o, ident = self.options, m.identity
        if not with_workload:
            workload = ""
        elif o.workload or not (ident.isl and ident.osl):
            workload = self._catalog(m, "--workload", o.workload, None)
        else:
            workload = self._workload(m, ident)
        date = o.date or ident.date
        if date is None:
            self.gap(m.file, "--date", "the file does not say the date; give --date YYYY-MM-DD")
        return Key(
            model=self._catalog(m, "--model", o.model, ident.model),
            gpu=self._catalog(m, "--gpu", o.gpu, ident.gpu),
            engine=self._plain(m, "--engine", o.engine, ident.engine),
            precision=self._plain(m, "--precision", o.precision, ident.precision),
            workload=workload,
            date=date if dated else None,
        )

    def _workload(self, m: Measurement, ident: Identity) -> str:
        for slug, w in self.known["workloads"].items():
            if w.isl == ident.isl and w.osl == ident.osl:
                return slug
        self.gap(
            m.file,
            "--workload",
            f"no workload of data/workloads.yaml has isl {ident.isl} and osl {ident.osl}; "
            "give --workload",
        )
        return ""

    def fail_if_gaps(self) -> None:
        if self.problems:
            raise SiteError(list(self.problems.values()))


def match(raw: str, catalog: dict) -> str | None:
    """The slug a tool's name for a model or GPU means: slug, hf_id, or name, loosely."""

    def squash(text: str) -> str:
        text = text.lower().split("/")[-1]
        text = re.sub(r"^(nvidia|amd|intel)[\s_-]+", "", text)
        return re.sub(r"[\s_-]+", "", text)

    wanted = raw.strip()
    for slug, entry in catalog.items():
        hf_id = getattr(entry, "hf_id", None)
        if wanted.lower() in (slug, (hf_id or "").lower()):
            return slug
    loose = squash(wanted)
    for slug, entry in catalog.items():
        if loose in (squash(slug), squash(getattr(entry, "name", "") or "")):
            return slug
        hf_id = getattr(entry, "hf_id", None)
        if hf_id and loose == squash(hf_id):
            return slug
    return None


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
    # the schema's order, so that records read the way site owners write them
    ordered = {k: tidy(raw[k]) for k in CONFIG_FIELDS if k in raw}
    ordered.update({k: tidy(v) for k, v in raw.items() if k not in ordered})
    return ordered


def tidy(value: Any) -> Any:
    """Six significant digits: a record a person reads, still exact to a millionth."""
    if isinstance(value, dict):
        return {k: tidy(v) for k, v in value.items()}
    if isinstance(value, float):
        short = float(f"{value:.6g}")
        return int(short) if short.is_integer() and abs(short) < 1e15 else short
    return value


def _sort_key(config: dict) -> tuple:
    return tuple(
        (config.get(k) is None, config.get(k) or 0)
        for k in ("concurrency", "gpus", "tp", "pp", "ep", "prefill_gpus", "decode_gpus")
    ) + (str(config.get("dp_attention")), str(config.get("spec_decoding")))


def _check_counts(resolver: Resolver, measurements: list[Measurement], options: Options) -> None:
    """GPUs and concurrency: from each result, else from the one option given for all."""
    lacking = [m for m in measurements if "concurrency" not in m.config]
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


def _configs(measurements: list[Measurement], options: Options) -> list[dict[str, Any]]:
    configs = [_config(m, options.gpus or 0, options.concurrency) for m in measurements]
    return sorted(configs, key=_sort_key)


# -- records -----------------------------------------------------------------------------------


SWEEP_WIDE = ("model", "gpu", "engine", "precision", "isl", "osl")


def _sameness(name: str, value: Any, options: Options, known: dict) -> Any:
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
        return match(value, known[f"{name}s"]) or value
    return value.strip().lower() if isinstance(value, str) else value


def one_sweep(
    measurements: list[Measurement], options: Options | None = None, known: dict | None = None
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
            kinds = {_sameness(name, value, options, known or {}) for value in said}
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


def _notes(fmt: str, readings: list[Reading], files: list[str], extra: list[str]) -> str:
    tools = sorted({r.tool for r in readings})
    names = ", ".join(dict.fromkeys(Path(f).name for f in files))
    said = list(dict.fromkeys(n for r in readings for n in r.notes)) + extra
    text = f"Imported with sitegen import {fmt} from {names} ({'; '.join(tools)})."
    if said:
        text += " " + "; ".join(said) + "."
    return text


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


def _file_name(key: Key, date: dt.date) -> tuple[str, ...]:
    """What a record's file is named after: model, GPU, engine, precision, workload, date."""
    return (key.model, key.gpu, key.engine, key.precision, key.workload, date.isoformat())


def _stem(parts: tuple[str, ...]) -> str:
    return FILE_SAFE.sub("-", "-".join(p for p in parts if p).lower()).strip("-") or "runs"


def _shared(names: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The parts of the names that every record has: an archive's name in a folder."""
    return tuple(
        part if all(n[i] == part for n in names) else "" for i, part in enumerate(names[0])
    )


def _names_a_file(out: Path) -> bool:
    return out.suffix in (*RUN_SUFFIXES, ARCHIVE) and not out.is_dir()


def record_suffix(out: Path, record_format: str | None) -> str:
    """The suffix of what is written: --format's, else --out's own (a folder: .yaml)."""
    named = out.suffix if _names_a_file(out) else None
    if record_format is None:
        return named or ".yaml"
    wanted = SUFFIXES[record_format]
    if named is not None and named != wanted and {named, wanted} != {".yml", ".yaml"}:
        message = (
            f"{record_format}, but --out names a {named} file: name a {wanted} file or a folder"
        )
        raise SiteError([Problem(str(out), None, "--format", message)])
    return named or wanted


def _targets(out: Path, names: list[tuple[str, ...]], suffix: str) -> list[Path]:
    """Where each record goes: at --out, or into the folder it names; an archive takes all."""
    if _names_a_file(out):
        if len(names) > 1 and suffix != ARCHIVE:
            raise SiteError(
                [
                    Problem(
                        str(out),
                        None,
                        "--out",
                        f"the input holds {len(names)} runs (engines, precisions or dates); "
                        "--out must name a folder or a .parquet archive",
                    )
                ]
            )
        return [out] * len(names)
    if out.exists() and not out.is_dir():
        message = "is a file, not a folder; name a folder, a .yaml or a .parquet"
        raise SiteError([Problem(str(out), None, "--out", message)])
    if suffix == ARCHIVE:  # one archive for them all, named after what they share
        return [out / (_stem(_shared(names)) + ARCHIVE)] * len(names)
    return [out / (_stem(name) + suffix) for name in names]


def _source(resolver: Resolver, options: Options, ms: list[Measurement]) -> str:
    value = options.source or next((m.identity.source for m in ms if m.identity.source), None)
    if not value:
        resolver.gap(ms[0].file, "--source", "the file does not say who measured; give --source")
    return value or ""


def plan_records(
    fmt: str,
    readings: list[Reading],
    options: Options,
    known: dict,
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
        from .matrix import plan_matrix

        return plan_matrix(fmt, readings, matrices, resolver, out, suffix)
    measurements = [m for r in readings for m in r.measurements]
    # One file may hold several engines and dates (InferenceX); a sweep spread over files
    # of other tools is one run, whatever day each file was written.
    groups: dict[Key, list[Measurement]] = defaultdict(list)
    if fmt == "inferencex":
        for m in measurements:
            groups[resolver.key(m, dated=True)].append(m)
    else:
        groups[resolver.key(one_sweep(measurements, options, known), dated=False)] = measurements
    source = _source(resolver, options, measurements)
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
        configs = _configs(ms, options)
        urls = sorted({m.identity.url for m in ms if m.identity.url})
        versions = sorted({m.identity.engine_version for m in ms if m.identity.engine_version})
        files = list(dict.fromkeys(m.file for m in ms))
        notes = _notes(fmt, readings, files, extra)
        record = _record(
            key,
            date,
            source,
            urls[0] if urls else None,
            ", ".join(versions) or None,
            notes,
            configs,
        )
        planned_keys.append(_file_name(key, date))
        records.append((record, tuple(files)))
    targets = _targets(out, planned_keys, suffix)
    return [
        Planned(path, record, files) for path, (record, files) in zip(targets, records, strict=True)
    ]
