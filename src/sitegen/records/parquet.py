"""Parquet archives, data/runs/**/*.parquet: many sweep runs in one table, one row per config.

`read_archive` gives each run of a file as the plain record a YAML file gives, with an
`ArchiveDocument` whose positions are rows and whose fields are columns, so that
`load.check_run` checks it exactly as it checks YAML. `archive_bytes` writes records as such
a table (for `sitegen import`).
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from . import schema
from .checker import SLUG, Checker
from .problems import WARNING, Problem, Problems, Row, describe
from .yamlpos import Document, Path_

SUFFIX = ".parquet"
RUN = "run"  # the optional column naming each run inside its archive
LATENCIES = ("ttft_ms", "tpot_ms", "e2el_ms")
STATISTICS = ("median", "mean", "p90", "p99")

TEXT, DATE, INTEGER, NUMBER, BOOLEAN = "text", "date", "integer", "number", "boolean"
KINDS = {
    "source": TEXT,
    "url": TEXT,
    "date": DATE,
    "model": TEXT,
    "gpu": TEXT,
    "engine": TEXT,
    "engine_version": TEXT,
    "precision": TEXT,
    "notes": TEXT,
    "illustrative": BOOLEAN,
    "workload": TEXT,
    "gpus": INTEGER,
    "tp": INTEGER,
    "pp": INTEGER,
    "ep": INTEGER,
    "dp": INTEGER,
    "dp_attention": BOOLEAN,
    "spec_decoding": TEXT,
    "disagg": BOOLEAN,
    "prefill_gpus": INTEGER,
    "decode_gpus": INTEGER,
    "power_w": NUMBER,
    "image": TEXT,
    "concurrency": INTEGER,
    "request_rate": NUMBER,
    "throughput_per_gpu": NUMBER,
    "output_throughput_per_gpu": NUMBER,
    "interactivity": NUMBER,
    "status": TEXT,
}
WHAT = {
    TEXT: "text (string)",
    DATE: "dates (date32, a timestamp or ISO text)",
    INTEGER: "integers",
    NUMBER: "numbers",
    BOOLEAN: "true/false (bool)",
}
ARROW_TYPES = {
    TEXT: pa.string(),
    DATE: pa.date32(),
    INTEGER: pa.int64(),
    NUMBER: pa.float64(),
    BOOLEAN: pa.bool_(),
}
RECORD_FIELDS = tuple(f for f in schema.SWEEP_FIELDS if f not in ("kind", "configs"))
ID_FIELDS = ("model", "gpu", "engine", "precision", "workload", "date")
REQUIRED = (
    "source",
    "date",
    "model",
    "gpu",
    "engine",
    "precision",
    "workload",
    "gpus",
    "concurrency",
    "throughput_per_gpu",
    "ttft_ms_median",
    "tpot_ms_median",
)
HINTS = {
    **{
        name: "latencies take a column each: " + ", ".join(f"{name}_{s}" for s in STATISTICS)
        for name in LATENCIES
    },
    "kind": "an archive holds sweeps only",
    "configs": "an archive has one row per config",
    "__index_level_0__": "a pandas index: write with to_parquet(..., index=False)",
}


def _columns() -> dict[str, str]:
    """Every column and its kind: run, the record's fields, the config's, in schema order."""
    columns = {RUN: TEXT}
    for name in RECORD_FIELDS + schema.CONFIG_FIELDS:
        if name in LATENCIES:
            columns.update({f"{name}_{s}": NUMBER for s in STATISTICS})
        else:
            columns[name] = KINDS[name]  # a KeyError: a new field of the schema needs a kind
    return columns


COLUMNS = _columns()


def column_of(path: Path_) -> str:
    """The column of a record path: ("configs", 2, "ttft_ms", "p90") -> ttft_ms_p90."""
    if not path:
        return ""
    if path[0] != "configs" or len(path) < 3:
        return str(path[0]) if len(path) == 1 else ""
    name = str(path[2])
    if name in LATENCIES:
        return f"{name}_{path[3] if len(path) > 3 else 'median'}"
    return name


class ArchiveDocument(Document):
    """One run of an archive: its positions are rows (`Row`), its fields are columns."""

    def field_name(self, path: Path_) -> str:
        return column_of(path)

    def place_name(self, path: Path_) -> str:
        return f"row {self.line(path)}"


class ArchiveRecord(NamedTuple):
    """One run read from an archive, ready for `check_run`."""

    id: str
    run: str | None  # its name in the run column, where the archive gives one
    data: dict[str, Any]
    doc: ArchiveDocument


# -- reading -----------------------------------------------------------------------------------


def read_archive(
    source: Path | bytes, rel: str, file_id: str, problems: Problems
) -> list[ArchiveRecord]:
    """The runs of one archive (a file, or its bytes); what is wrong goes into problems."""
    rows = _table_rows(source, rel, problems)
    if rows is None:
        return []
    if not rows:
        problems.add(Problem(rel, None, "", "no rows: an archive holds one row per config"))
        return []
    return _records(_group(rows, rel, problems), rel, file_id, problems)


def _table_rows(source: Path | bytes, rel: str, problems: Problems) -> list[dict] | None:
    """The known columns of every row, or None (with a problem) when they cannot be read."""
    try:
        handle = source.open("rb") if isinstance(source, Path) else io.BytesIO(source)
    except OSError as exc:
        problems.add(Problem(rel, None, "", f"cannot read: {exc.strerror or exc}"))
        return None
    # A damaged file can fail anywhere inside pyarrow, with errors of many kinds; each is
    # one problem of that file, never a traceback.
    with handle:
        try:
            archive = pq.ParquetFile(handle)
            arrow_schema = archive.schema_arrow
        except Exception as exc:
            problems.add(
                Problem(rel, None, "", f"not a Parquet file, or a damaged one: {_say(exc)}")
            )
            return None
        columns = _check_columns(arrow_schema, rel, problems)
        if columns is None:
            return None
        try:
            return archive.read(columns=columns, use_pandas_metadata=False).to_pylist()
        except Exception as exc:
            problems.add(Problem(rel, None, "", f"cannot read its rows: {_say(exc)}"))
            return None


def _say(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _fits(kind: str, arrow_type: pa.DataType) -> bool:
    """Whether a column of this Arrow type can hold the field's values."""
    t = pa.types
    if t.is_dictionary(arrow_type):  # pandas' categoricals
        arrow_type = arrow_type.value_type
    if t.is_null(arrow_type):  # a column of nulls only
        return True
    is_view = getattr(t, "is_string_view", lambda _: False)
    text = t.is_string(arrow_type) or t.is_large_string(arrow_type) or is_view(arrow_type)
    numeric = t.is_integer(arrow_type) or t.is_floating(arrow_type)
    return {
        TEXT: text,
        DATE: text or t.is_date(arrow_type) or t.is_timestamp(arrow_type),
        INTEGER: numeric,  # pandas writes an integer column with nulls as floats
        NUMBER: numeric or t.is_decimal(arrow_type),
        BOOLEAN: t.is_boolean(arrow_type),
    }[kind]


def _check_columns(arrow_schema: pa.Schema, rel: str, problems: Problems) -> list[str] | None:
    """The known columns to read; None when a column is missing, doubled or of a wrong type."""
    names = arrow_schema.names
    errors = Problems()
    for name in sorted({n for n in names if names.count(n) > 1}):
        errors.add(Problem(rel, None, name, "the column appears more than once"))
    for field in arrow_schema:
        kind = COLUMNS.get(field.name)
        if kind is None:
            hint = f" ({HINTS[field.name]})" if field.name in HINTS else ""
            problems.add(Problem(rel, None, field.name, f"unknown column, ignored{hint}", WARNING))
        elif not _fits(kind, field.type):
            what = f"expected a column of {WHAT[kind]}, got a column of {field.type}"
            errors.add(Problem(rel, None, field.name, what))
    for name in REQUIRED:
        if name not in names:
            errors.add(Problem(rel, None, name, "required column missing"))
    problems.extend(errors)
    return None if errors else [n for n in dict.fromkeys(names) if n in COLUMNS]


@dataclass
class _Group:
    """The rows of one run."""

    run: str | None
    fields: dict[str, Any]  # the record's fields, as its first row has them
    rows: list[Row]
    configs: list[dict[str, Any]]


def _group(rows: list[dict], rel: str, problems: Problems) -> list[_Group]:
    """Rows -> runs: by the run column where given, else by the record's fields."""
    groups: dict[tuple, _Group] = {}
    for n, raw in enumerate(rows, 1):
        row = Row(n)
        cells = {k: _plain(v) for k, v in raw.items() if v is not None}
        run = cells.pop(RUN, None)
        if run is not None and not SLUG.match(run):
            what = "a slug (lowercase a-z 0-9 . -) naming the run inside this archive"
            problems.add(Problem(rel, row, RUN, f"expected {what}, got {describe(run)}"))
            continue
        fields = {k: cells[k] for k in RECORD_FIELDS if k in cells}
        if "date" in fields:
            fields["date"] = _day(fields["date"])  # rows of one day, whatever their times
        key = (RUN, run) if run is not None else tuple(fields.get(k) for k in RECORD_FIELDS)
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Group(run, fields, [], [])
        elif run is not None:  # rows grouped by their fields agree on them already
            _agree(group, fields, row, rel, problems)
        group.rows.append(row)
        group.configs.append(_config(cells))
    return list(groups.values())


def _plain(value: Any) -> Any:
    """A cell as YAML would give it: a decimal is a number."""
    return float(value) if isinstance(value, Decimal) else value


@functools.lru_cache(maxsize=4096)  # an archive has few dates and many rows
def _day(value: Any) -> Any:
    """The day a date cell means, read as a YAML date is; the cell itself if it means none."""
    day = Checker("", Document(None), Problems()).date({"date": value}, (), "date")
    return value if day is None else day


def _agree(group: _Group, fields: dict, row: Row, rel: str, problems: Problems) -> None:
    """The rows of one named run must say the same about the run."""
    for name in RECORD_FIELDS:
        first, here = group.fields.get(name), fields.get(name)
        if first != here:
            message = (
                f"expected {describe(first)} as in row {group.rows[0]} (the rows of run "
                f'"{group.run}" share its fields), got {describe(here)}'
            )
            problems.add(Problem(rel, row, name, message))


def _config(cells: dict[str, Any]) -> dict[str, Any]:
    """A row's config fields, latencies nested again: {"median": 20.0, "p99": 31.0}."""
    config: dict[str, Any] = {}
    for name in schema.CONFIG_FIELDS:
        if name in LATENCIES:
            latency = {s: cells[f"{name}_{s}"] for s in STATISTICS if f"{name}_{s}" in cells}
            if latency:
                config[name] = latency
        elif name in cells:
            config[name] = cells[name]
    return config


def derived_id(fields: dict[str, Any]) -> str:
    """model-gpu-engine-precision-workload-date, as `sitegen import` names a record's file."""
    parts = []
    for name in ID_FIELDS:
        value = fields.get(name)
        text = value.isoformat() if isinstance(value, dt.date) else str(value or "")
        parts.append(re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-."))
    return "-".join(p for p in parts if p) or "run"


def _records(
    groups: list[_Group], rel: str, file_id: str, problems: Problems
) -> list[ArchiveRecord]:
    records: list[ArchiveRecord] = []
    first_row: dict[str, Row] = {}
    for group in groups:
        rid = f"{file_id}-{group.run or derived_id(group.fields)}"
        start = group.rows[0]
        if rid in first_row:
            message = (
                f"run id {rid!r} is also the id of the run in row {first_row[rid]}: runs that "
                "differ only in source, url, engine_version, notes or illustrative need a "
                "run column naming each"
            )
            problems.add(Problem(rel, start, RUN, message))
            continue
        first_row[rid] = start
        data = {**group.fields, "configs": group.configs}
        lines: dict[Path_, int] = {(): start}
        lines.update({("configs", i): row for i, row in enumerate(group.rows)})
        records.append(ArchiveRecord(rid, group.run, data, ArchiveDocument(data, lines)))
    return records


# -- writing -----------------------------------------------------------------------------------


def archive_rows(runs: Iterable[tuple[str | None, dict[str, Any]]]) -> list[dict[str, Any]]:
    """(run name or None, sweep record) -> one flat row per config, latencies flattened."""
    rows = []
    for run, record in runs:
        fields = {k: v for k, v in record.items() if k not in ("kind", "configs")}
        for config in record.get("configs") or []:
            row = {RUN: run, **fields}
            for name, value in config.items():
                if name in LATENCIES and isinstance(value, dict):
                    row.update({f"{name}_{s}": v for s, v in value.items()})
                else:
                    row[name] = value
            rows.append(row)
    return rows


def archive_bytes(
    runs: Iterable[tuple[str | None, dict[str, Any]]], rel: str, problems: Problems
) -> bytes | None:
    """The runs as one Parquet table; None when a value has no column or cannot be one."""
    rows = archive_rows(runs)
    failed = Problems()
    for name in sorted({k for row in rows for k in row} - set(COLUMNS)):
        failed.add(Problem(rel, None, name, "not a field of a sweep config: no column for it"))
    arrays = {}
    for name, kind in COLUMNS.items():
        values = [
            _cell(kind, row.get(name), Row(n), name, rel, failed) for n, row in enumerate(rows, 1)
        ]
        if name in REQUIRED or any(v is not None for v in values):
            arrays[name] = pa.array(values, type=ARROW_TYPES[kind])
    problems.extend(failed)
    if failed:
        return None
    sink = io.BytesIO()
    pq.write_table(pa.table(arrays), sink)
    return sink.getvalue()


def _cell(kind: str, value: Any, row: Row, name: str, rel: str, failed: Problems) -> Any:
    """A value as its column stores it; a problem (and None) when it cannot be stored."""
    if value is None:
        return None
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind == TEXT and (isinstance(value, str) or number):
        return str(value)
    if kind == DATE and isinstance(day := _day(value), dt.date):
        return day
    if kind == INTEGER and number and float(value).is_integer() and abs(value) < 2**63:
        return int(value)
    if kind == NUMBER and number:
        return float(value)
    if kind == BOOLEAN and isinstance(value, bool):
        return value
    message = f"cannot be written as {WHAT[kind]}: got {describe(value)}"
    failed.add(Problem(rel, row, name, message))
    return None
