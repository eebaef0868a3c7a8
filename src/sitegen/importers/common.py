"""What every importer shares: reading result files, typed fields, units, dates, problems.

An importer turns one tool's result file into `Measurement`s: one measured configuration
each, with whatever identity the file states (model, engine, date...). `assemble` groups
them into run records; nothing here knows about a particular tool.
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..records import Problem, SiteError
from ..records.problems import WARNING, describe
from ..records.urls import link_problem
from ..records.yamlpos import ParseError, Path_, field_name, parse

MAX_RESULT_BYTES = 512 * 1024 * 1024  # a result file larger than this is not read


def read_result(path: Path, follow_links: bool = True) -> bytes:
    """A result file's bytes: a regular file of at most MAX_RESULT_BYTES, opened without
    waiting on a FIFO, and (`follow_links` False, for files found inside a tree someone else
    published) without following a link. OSError otherwise (FileNotFoundError if missing)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise OSError(errno.ELOOP, "a symbolic link, not followed") from None
        raise
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = file.read(MAX_RESULT_BYTES + 1)
    if len(data) > MAX_RESULT_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_RESULT_BYTES} bytes")
    return data


MS_PER = {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1000.0, "sec": 1000.0}


@dataclass(frozen=True)
class Options:
    """What the command line says about a run, for whatever the files do not say."""

    model: str | None = None
    gpu: str | None = None
    gpus: int | None = None
    engine: str | None = None
    precision: str | None = None
    workload: str | None = None
    source: str | None = None
    date: dt.date | None = None
    concurrency: int | None = None


@dataclass(frozen=True)
class Identity:
    """What a result file says about the run, raw; None where it says nothing."""

    model: str | None = None  # the tool's model id, e.g. deepseek-ai/DeepSeek-V4-Pro
    gpu: str | None = None  # the tool's hardware name, e.g. b200 or NVIDIA B200
    engine: str | None = None
    engine_version: str | None = None
    precision: str | None = None
    isl: int | None = None
    osl: int | None = None
    date: dt.date | None = None
    source: str | None = None
    url: str | None = None
    workload: str | None = None  # the tool's name for the workload, e.g. mlperf-deepseek-r1
    run: str | None = None  # what else tells runs of one file apart (an MLPerf system)


@dataclass(frozen=True)
class Measurement:
    """One measured configuration, as read from one file (or one line of it)."""

    file: str  # as the user named it, for messages
    identity: Identity
    config: dict[str, Any]  # config fields (records.schema); throughput still for the whole server
    total_throughput: float | None = None  # tokens/s of the whole server, when not per GPU
    output_throughput: float | None = None
    line: int | None = None  # where in the file, when it holds many (a row, a JSON line)
    notes: tuple[str, ...] = ()  # for the notes of its record (a tree's per-system facts)
    exact: bool = False  # figures as the file writes them in decimal: kept, not tidied


@dataclass(frozen=True)
class MatrixResult:
    """A context x concurrency grid (llm-inference-bench), ready for a matrix record."""

    file: str
    identity: Identity
    fields: dict[str, Any]  # bench, prefill, decode ...


@dataclass(frozen=True)
class Reading:
    """What an importer got out of its files: measurements or one matrix, plus notes."""

    tool: str
    measurements: tuple[Measurement, ...] = ()
    matrix: MatrixResult | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[Problem, ...] = field(default=())


# -- reading files -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One parsed result file: its objects (one, or one per JSONL line) and their lines."""

    name: str  # as given on the command line
    objects: tuple[Any, ...]
    first_lines: tuple[int, ...]  # 1-based line where each object starts
    lines: tuple[dict[Path_, int], ...]  # per object: path -> line, where known

    def line(self, index: int, path: Path_ = ()) -> int | None:
        known = self.lines[index]
        while path:
            if path in known:
                return known[path]
            path = path[:-1]
        return known.get((), self.first_lines[index])

    def problem(self, index: int, path: Path_, message: str) -> Problem:
        return Problem(self.name, self.line(index, path), field_name(path), message)


def read_source(path: Path, name: str | None = None) -> Source:
    """Read a JSON file, or JSON Lines (one result per line); a bad file is one problem."""
    name = name or str(path)
    try:
        text = read_result(path).decode("utf-8")
    except FileNotFoundError:
        raise SiteError([Problem(name, None, "", "file not found")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SiteError([Problem(name, None, "", f"cannot read: {exc}")]) from None
    if not text.strip():
        raise SiteError([Problem(name, None, "", "the file is empty")])
    try:
        whole = json.loads(text)  # Python's json reads bare Infinity / NaN, as tools write them
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            raise SiteError([_json_problem(name, exc, text)]) from None
        return _json_lines(name, text)
    except (RecursionError, ValueError) as exc:
        raise SiteError([Problem(name, None, "", _unreadable(exc))]) from None
    try:
        lines = parse(text, json_file=True).lines
    except (ParseError, RecursionError, ValueError):
        lines = {}
    return Source(name, (whole,), (1,), (lines,))


def _unreadable(exc: Exception) -> str:
    """What a JSON file that parses but that Python will not hold is told: too deep, too long."""
    if isinstance(exc, RecursionError):
        return "not read: nested too deep (objects and lists inside each other)"
    return "not read: a number too long (more than 4,300 digits)"


def _json_problem(name: str, exc: json.JSONDecodeError, text: str) -> Problem:
    # A result file is one object or list; one that does not end like one was cut short.
    cut = "" if text.rstrip().endswith(("}", "]")) else " (the file looks cut short)"
    return Problem(name, exc.lineno, "", f"not valid JSON: {exc.msg}{cut}")


def _json_lines(name: str, text: str) -> Source:
    objects, starts, lines = [], [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            objects.append(json.loads(line))
        except json.JSONDecodeError as exc:
            cut = "" if line.rstrip().endswith("}") else " (the line looks cut short)"
            raise SiteError(
                [Problem(name, number, "", f"not valid JSON Lines: {exc.msg}{cut}")]
            ) from None
        except (RecursionError, ValueError) as exc:
            raise SiteError([Problem(name, number, "", _unreadable(exc))]) from None
        starts.append(number)
        lines.append({(): number})
    return Source(name, tuple(objects), tuple(starts), tuple(lines))


# -- typed fields ------------------------------------------------------------------------------


MISSING = object()


def dig(obj: Any, *keys: str | int) -> Any:
    """obj[k1][k2]..., or MISSING when any step is absent."""
    for key in keys:
        in_dict = isinstance(obj, dict) and key in obj
        in_list = isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj)
        if in_dict or in_list:
            obj = obj[key]
        else:
            return MISSING
    return obj


def to_number(value: Any) -> float | None:
    """A number, also when a tool wrote it as a string ("1024", "inf"); None if it is not."""
    if isinstance(value, bool) or value is None or value is MISSING:
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().replace(",", "").replace("_", ""))
        except ValueError:
            return None
    return None


def finite(value: Any) -> float | None:
    number = to_number(value)
    return number if number is not None and math.isfinite(number) else None


def positive(value: Any) -> float | None:
    number = finite(value)
    return number if number is not None and number > 0 else None


def whole(value: Any) -> int | None:
    number = finite(value)
    return int(number) if number is not None and number.is_integer() and number >= 1 else None


def text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def link(source: Source, index: int, path: Path_, value: Any, warnings: list) -> str | None:
    """A URL a result file gives for its run: kept when it is an http(s) link, else left out of
    the record with a warning (a third party's file may carry a `javascript:` link)."""
    url = text(value)
    if url is None:
        return None
    if why := link_problem(url):
        message = f"left out of the record: expected {why}, got {describe(url)}"
        warnings.append(
            Problem(source.name, source.line(index, path), field_name(path), message, WARNING)
        )
        return None
    return url


def to_ms(value: Any, unit: str) -> float | None:
    number = finite(value)
    if number is None:
        return None
    return number * MS_PER[unit]


def latency(unit: str, median: Any, mean: Any = None, p90: Any = None, p99: Any = None) -> dict:
    """A latency mapping (docs/data.md) in ms from figures in `unit`; {} without a median."""
    middle = to_ms(median, unit)
    if middle is None or middle <= 0:
        return {}
    out = {"median": middle}
    for key, value in (("mean", mean), ("p90", p90), ("p99", p99)):
        ms = to_ms(value, unit)
        if ms is not None and ms > 0:
            out[key] = ms
    return out


# -- dates -------------------------------------------------------------------------------------

DATE_SHAPES = (
    "a date (YYYY-MM-DD, or a number YYYYMMDD) or epoch seconds (10 digits) "
    "or milliseconds (13 digits)"
)


class DateError(ValueError):
    """A number where a date goes that has no date's shape: refused, never guessed."""


def to_date(value: Any) -> dt.date | None:
    """Dates as tools write them: ISO strings, %Y%m%d-%H%M%S, YYYYMMDD, epoch s or ms.

    A number is read by its shape: 8 digits are YYYYMMDD, 10 digits epoch seconds, 13 digits
    epoch milliseconds; any other number raises DateError. None for text that is no date.
    """
    if value is None or value is MISSING or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return _number_date(value)
    if not isinstance(value, str):
        return None
    raw = value.strip()
    if re.fullmatch(r"\d{8}-\d{6}", raw):
        try:
            return dt.datetime.strptime(raw, "%Y%m%d-%H%M%S").date()
        except ValueError:
            raise DateError(f"not a date: {describe(value)}") from None
    if re.fullmatch(r"-?\d+(\.\d+)?", raw) and len(raw) <= 40:
        return _number_date(int(raw) if raw.isdigit() else float(raw), value)
    try:
        moment = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        pass
    else:
        # A moment with an offset is dated by its UTC day, as epochs are; a naive one as written.
        try:
            return (moment.astimezone(dt.UTC) if moment.tzinfo else moment).date()
        except OverflowError:  # 9999-12-31T23:00-05:00 is in no year Python has
            raise DateError(f"got {describe(value)}; its UTC day is out of range") from None
    try:
        return dt.date.fromisoformat(raw[:10])
    except ValueError:
        return None


def _number_date(number: float, shown: Any = None) -> dt.date:
    got = f"got {describe(number if shown is None else shown)}"
    if not (math.isfinite(number) and 0 < number < 1e14):
        raise DateError(f"{got}; expected {DATE_SHAPES}")
    digits = len(str(int(number)))
    if digits == 8 and float(number).is_integer():
        try:
            return dt.datetime.strptime(str(int(number)), "%Y%m%d").date()
        except ValueError:
            raise DateError(f"{got}: no such day (read as YYYYMMDD)") from None
    if digits in (10, 13):
        seconds = number / 1000.0 if digits == 13 else float(number)
        return dt.datetime.fromtimestamp(seconds, tz=dt.UTC).date()
    raise DateError(f"{got}; expected {DATE_SHAPES}")


def date_at(source: Source, index: int, path: Path_, value: Any) -> dt.date | None:
    """`to_date` of a value at `path` of the source, its refusal a problem naming the field."""
    try:
        return to_date(value)
    except DateError as exc:
        raise SiteError([source.problem(index, path, str(exc))]) from None


# -- small helpers for importers ---------------------------------------------------------------


def need(source: Source, index: int, path: Path_, value: Any, what: str) -> Any:
    """`value` unless it is None or missing; then an SiteError that names the field."""
    if value is None or value is MISSING:
        raw = dig(source.objects[index], *path)
        got = "missing" if raw is MISSING else f"got {describe(raw)}"
        raise SiteError([source.problem(index, path, f"{got}; expected {what}")])
    return value


def mapping(source: Source, index: int, what: str) -> dict:
    """The object at `index`, which must be a JSON object."""
    obj = source.objects[index]
    if not isinstance(obj, dict):
        raise SiteError([source.problem(index, (), f"expected {what} (a JSON object)")])
    return obj


def first_present(obj: Any, *paths: tuple) -> tuple[Path_, Any]:
    """The first of several spellings that the object has, with its path; else MISSING."""
    for path in paths:
        value = dig(obj, *path)
        if value is not MISSING and value is not None:
            return path, value
    return paths[0], MISSING


def engine_from_backend(backend: str | None) -> str | None:
    """The serving engine a benchmark client's backend names; None for generic OpenAI APIs."""
    if not backend:
        return None
    name = backend.lower()
    for prefix, engine in (
        ("vllm", "vllm"),
        ("sglang", "sglang"),
        ("lmdeploy", "lmdeploy"),
        ("tgi", "tgi"),
        ("trt", "tensorrt-llm"),
        ("tensorrt", "tensorrt-llm"),
        ("deepspeed", "deepspeed-mii"),
        ("scalellm", "scalellm"),
    ):
        if name.startswith(prefix):
            return engine
    return None
