"""Sweep configs as columns: one screen over every config of a site, objects only on demand.

Loading a large site config by config through `Checker` costs a Python call per field; here
every config of every file is read into one column per field and checked with numpy at once.
The screen is conservative: any config that the exact checker (`schema._config`) might say
anything about, an error or a warning, flags its file, and a flagged file is checked again by
that checker, which words every message and finds its line. A clean file never builds a
`SweepConfig`: its configs live in the `ConfigTable`, and `ConfigRows` makes objects from it
only for the page that shows them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any

import numpy as np

from .checker import MAX_NUMBER, MIN_NUMBER
from .model import Latency, SweepConfig
from .schema import (
    ALWAYS,
    BOOLEAN,
    CONFIG_FIELDS,
    CONFIG_KEY,
    CONFIG_SPEC,
    INTEGER,
    INTERACTIVITY_TOLERANCE,
    LATENCY,
    LATENCY_FIELDS,
    NUMBER,
    STRING,
    TPOT_PLAUSIBLE_MS,
    TTFT_PLAUSIBLE_MS,
    WHEN_OK,
)

NUMERIC = (int, float)
NONE = type(None)
ALLOWED_KEYS = frozenset(CONFIG_FIELDS)
ALLOWED_LATENCY_KEYS = frozenset(LATENCY_FIELDS)


def latency_column(name: str, part: str) -> str:
    """ttft_ms -> ttft_ms (the median), ttft_ms_p90, ...: a latency as flat columns."""
    return name if part == "median" else f"{name}_{part}"


# every column of the table, in SweepConfig's order; latencies flattened
COLUMNS = tuple(
    latency_column(spec.name, part) if spec.kind == LATENCY else spec.name
    for spec in CONFIG_SPEC
    for part in (LATENCY_FIELDS if spec.kind == LATENCY else ("",))
) + ("status",)
# numbers and integers are float64 columns (NaN: absent); booleans and text are object columns
FLOAT_COLUMNS = frozenset(
    c for c in COLUMNS if c not in ("status", "dp_attention", "disagg", "spec_decoding", "image")
)
INTEGER_COLUMNS = frozenset(spec.name for spec in CONFIG_SPEC if spec.kind == INTEGER)


# -- the screen ------------------------------------------------------------------------------


def _floats(values: list | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A float column and the rows whose value is neither absent nor a plain number; `values`
    None: a field no config has."""
    if values is None:
        return np.full(n, np.nan), np.zeros(n, dtype=bool)
    types = set(map(type, values))
    if types <= {int, float, NONE}:
        try:
            # fromiter is the quicker where no value is absent (None, which it does not take)
            column = (
                np.array(values, dtype=float) if NONE in types else np.fromiter(values, float, n)
            )
            return column, np.zeros(n, dtype=bool)
        except OverflowError:  # an integer too large for a float: found row by row below
            pass
    bad = np.zeros(n, dtype=bool)
    out = np.full(n, np.nan)
    for i, v in enumerate(values):
        if v is None:
            continue
        if type(v) in NUMERIC:
            try:
                out[i] = float(v)
                continue
            except OverflowError:
                pass
        bad[i] = True
    return out, bad


def _objects(
    values: list | None, allowed: tuple[type, ...], n: int
) -> tuple[np.ndarray, np.ndarray]:
    """An object column and the rows whose value is not absent nor of the allowed type (those
    rows hold None: their files are flagged, and a list would not hash when configs are
    compared); `values` None: a field no config has."""
    if values is None:
        return np.empty(n, dtype=object), np.zeros(n, dtype=bool)  # None in every row
    column = np.fromiter(values, dtype=object, count=n)
    bad = _wrong_types(values, set(map(type, values)), allowed)
    if bad.any():
        column[bad] = None
    return column, bad


def _wrong_types(values: list, types: set[type], allowed: tuple[type, ...]) -> np.ndarray:
    """The rows whose value is neither absent nor of an allowed type (`types`: of them all)."""
    if types <= {*allowed, NONE}:
        return np.zeros(len(values), dtype=bool)
    return np.fromiter(
        (v is not None and type(v) not in allowed for v in values), bool, len(values)
    )


def _number_out_of_range(a: np.ndarray, integer: bool) -> np.ndarray:
    present = ~np.isnan(a)
    with np.errstate(invalid="ignore"):
        if integer:
            wrong = (a < 1) | (a > MAX_NUMBER) | (a != np.floor(a))
        else:
            wrong = ~np.isfinite(a) | (a <= 0) | (a > MAX_NUMBER) | (a < MIN_NUMBER)
    return present & wrong


@dataclass
class Screened:
    """Every config of the screened files as columns, and which files need the exact checker."""

    columns: dict[str, np.ndarray]
    owner: np.ndarray  # the index (in the list screened) of each row's file
    flagged: set[int]


def _field(configs: list[dict], keys: set[str], name: str) -> list | None:
    """The value of `name` in each config (None where it lacks it); None when none has it."""
    return list(map(dict.get, configs, repeat(name))) if name in keys else None


def screen(files: Sequence[Sequence[Any]]) -> Screened:
    """Read and check the configs of every file at once (each item: one file's configs list)."""
    counts = np.fromiter((len(f) for f in files), dtype=np.int64, count=len(files))
    owner = np.repeat(np.arange(len(files)), counts)
    configs: list = list(chain.from_iterable(files))
    n = len(configs)
    bad = np.zeros(n, dtype=bool)
    columns: dict[str, np.ndarray] = {}
    if not set(map(type, configs)) <= {dict}:
        bad |= np.fromiter((type(c) is not dict for c in configs), bool, n)
        configs = [c if type(c) is dict else {} for c in configs]
    keys = set().union(*configs)
    if not keys <= ALLOWED_KEYS:
        bad |= np.fromiter((not c.keys() <= ALLOWED_KEYS for c in configs), bool, n)
    if "status" in keys:
        status, wrong = _objects(_field(configs, keys, "status"), (str,), n)
        bad |= wrong | np.fromiter((s is not None and s != "ok" for s in status), bool, n)
    columns["status"] = np.full(n, "ok", dtype=object)  # a failed config takes the exact path
    for spec in CONFIG_SPEC:
        # every screened config is ok; a config without a field another may stand in for
        # (`either`) is flagged too, and the exact checker decides
        required = spec.required in (ALWAYS, WHEN_OK)
        given = _field(configs, keys, spec.name)
        if spec.kind in (INTEGER, NUMBER):
            values, wrong = _floats(given, n)
            bad |= wrong | _number_out_of_range(values, spec.kind == INTEGER)
            if required:
                bad |= np.isnan(values)
            columns[spec.name] = values
        elif spec.kind == LATENCY:
            bad |= _screen_latency(given, n, spec.name, required, columns)
        else:
            allowed = (bool,) if spec.kind == BOOLEAN else (str,)
            values, wrong = _objects(given, allowed, n)
            if spec.kind == STRING and given is not None:
                # text the checker would strip, or refuse as empty
                wrong |= np.fromiter(
                    (type(v) is str and (not v or v != v.strip()) for v in given), bool, n
                )
            bad |= wrong
            columns[spec.name] = values
    if "interactivity" in keys:
        stated, wrong = _floats(_field(configs, keys, "interactivity"), n)
        with np.errstate(invalid="ignore", divide="ignore"):
            derived = 1000.0 / columns["tpot_ms"]
            # False wherever either side is NaN (absent): then nothing is stated, or no TPOT
            off = np.abs(stated - derived) > INTERACTIVITY_TOLERANCE * derived
        bad |= wrong | _number_out_of_range(stated, False) | off
    bad |= _implausible(columns)
    bad |= _duplicates(owner, columns)
    return Screened(columns, owner, set(np.unique(owner[bad]).tolist()))


_NO_LATENCY: dict = {}  # what a config without a latency (or with one that is not a mapping)
# is read as: never changed


def _screen_latency(
    values: list | None, n: int, name: str, required: bool, columns: dict
) -> np.ndarray:
    """A latency's columns (one a part) into `columns`; the rows it flags."""
    if values is None:  # no config has it
        for part in LATENCY_FIELDS:
            columns[latency_column(name, part)] = np.full(n, np.nan)
        return np.full(n, required)
    types = set(map(type, values))
    bad = _wrong_types(values, types, (dict,))
    present = values if types == {dict} else [v if type(v) is dict else _NO_LATENCY for v in values]
    keys = set().union(*present)
    if not keys <= ALLOWED_LATENCY_KEYS:
        bad |= np.fromiter((not v.keys() <= ALLOWED_LATENCY_KEYS for v in present), bool, n)
    for part in LATENCY_FIELDS:
        parts, wrong = _floats(_field(present, keys, part), n)
        bad |= wrong | _number_out_of_range(parts, False)
        columns[latency_column(name, part)] = parts
    median = columns[name]
    if NONE in types:
        given = np.fromiter((v is not None for v in values), bool, n)
    else:
        given = np.ones(n, dtype=bool)
    bad |= given & np.isnan(median)  # a mapping without a median
    if required:
        bad |= ~given
    return bad


def _implausible(columns: dict[str, np.ndarray]) -> np.ndarray:
    """What the exact checker warns about: latencies out of range, output above total."""
    ttft, tpot = columns["ttft_ms"], columns["tpot_ms"]
    total, output = columns["throughput_per_gpu"], columns["output_throughput_per_gpu"]
    with np.errstate(invalid="ignore"):
        return (
            (ttft < TTFT_PLAUSIBLE_MS[0])
            | (ttft > TTFT_PLAUSIBLE_MS[1])
            | (tpot < TPOT_PLAUSIBLE_MS[0])
            | (tpot > TPOT_PLAUSIBLE_MS[1])
            | (output > total)
        )


FEW_ROWS = 4096  # rows below which a dict here beats importing pandas (0.3 s) for the work


def _duplicates(owner: np.ndarray, columns: dict[str, np.ndarray]) -> np.ndarray:
    """Two configs of one file with the same GPUs, parallelism and concurrency."""
    if len(owner) == 0:
        return np.zeros(0, dtype=bool)
    if len(owner) < FEW_ROWS:
        return duplicated_rows([owner, *(columns[k] for k in CONFIG_KEY)])
    import pandas as pd  # for many rows: its hash tables

    frame = pd.DataFrame({"file": owner, **{k: columns[k] for k in CONFIG_KEY}})
    return frame.duplicated(keep=False).to_numpy()


_MISSING = object()  # None and NaN, one value as pandas takes them when it finds duplicates


def duplicated_rows(columns: Sequence[np.ndarray]) -> np.ndarray:
    """Whether each row (a value from each column) is equal to another row: pandas'
    DataFrame.duplicated(keep=False) (None and NaN alike; 0.0 and -0.0 alike), by sorting
    the rows and comparing each with the next: an object column is compared by the codes of
    its values (a dict), a number column as it is."""
    n = len(columns[0]) if columns else 0
    if n < 2:
        return np.zeros(n, dtype=bool)
    keys = [_object_codes(col) if col.dtype == object else col for col in columns]
    order = np.lexsort(keys)  # equal rows next to each other (NaNs together, last)
    same = np.ones(n - 1, dtype=bool)  # each sorted row equal to the next
    for key in keys:
        ordered = key[order]
        equal = ordered[1:] == ordered[:-1]
        if ordered.dtype.kind == "f":
            equal |= np.isnan(ordered[1:]) & np.isnan(ordered[:-1])
        same &= equal
    duplicated = np.zeros(n, dtype=bool)
    duplicated[order[1:][same]] = True
    duplicated[order[:-1][same]] = True
    return duplicated


def _object_codes(column: np.ndarray) -> np.ndarray:
    """Each value's code, equal values (None and NaN alike) one code."""
    codes: dict = {}
    return np.array(
        [
            codes.setdefault(_MISSING if v is None or v != v else v, len(codes))
            for v in column.tolist()
        ],
        dtype=np.intp,
    )


# -- the table -------------------------------------------------------------------------------


def columns_of(configs: Sequence[SweepConfig]) -> dict[str, np.ndarray]:
    """The columns of configs that the exact checker built (a flagged file that passed)."""
    out: dict[str, np.ndarray] = {}
    for spec in CONFIG_SPEC:
        if spec.kind == LATENCY:
            lat = [getattr(c, spec.name) for c in configs]
            for part in LATENCY_FIELDS:
                out[latency_column(spec.name, part)] = np.array(
                    [getattr(v, part) if v is not None else None for v in lat], dtype=float
                )
        elif spec.kind in (INTEGER, NUMBER):
            out[spec.name] = np.array([getattr(c, spec.name) for c in configs], dtype=float)
        else:
            values = np.empty(len(configs), dtype=object)
            values[:] = [getattr(c, spec.name) for c in configs]
            out[spec.name] = values
    status = np.empty(len(configs), dtype=object)
    status[:] = [c.status for c in configs]
    out["status"] = status
    return out


class ConfigTable:
    """Every sweep config of a site, one column per field, the runs' rows one after another."""

    def __init__(self, columns: dict[str, np.ndarray]) -> None:
        self.columns = columns
        self.rows = len(columns["status"])

    @classmethod
    def concat(cls, parts: Sequence[dict[str, np.ndarray]]) -> ConfigTable:
        if not parts:
            return cls(columns_of(()))
        return cls({name: np.concatenate([p[name] for p in parts]) for name in COLUMNS})

    def config(self, i: int) -> SweepConfig:
        return self.slice(i, i + 1)[0]

    def slice(self, start: int, stop: int) -> list[SweepConfig]:
        """The configs of rows start..stop, made afresh (a page's, for as long as it needs them)."""
        return self.at(slice(start, stop))

    def values(
        self, rows: slice | Sequence[int], names: Sequence[str] = COLUMNS
    ) -> dict[str, list]:
        """Python values of the given rows, one list per column of `names`: absent as None,
        integers as int (a SweepConfig's fields, latencies flattened)."""
        if not isinstance(rows, slice):
            rows = np.asarray(rows, dtype=np.int64)
        columns = self.columns
        return {name: _plain(columns[name][rows], name in INTEGER_COLUMNS) for name in names}

    def at(self, rows: slice | Sequence[int]) -> list[SweepConfig]:
        """The configs of the given rows, in that order."""
        cells = self.values(rows)
        fields: list[list] = []
        for spec in CONFIG_SPEC:
            if spec.kind == LATENCY:
                parts = [cells[latency_column(spec.name, p)] for p in LATENCY_FIELDS]
                fields.append(
                    [
                        None if m is None else Latency(m, *rest)
                        for m, *rest in zip(*parts, strict=True)
                    ]
                )
            else:
                fields.append(cells[spec.name])
        names = [spec.name for spec in CONFIG_SPEC]
        return [
            SweepConfig(status=status, **dict(zip(names, values, strict=True)))
            for status, *values in zip(cells["status"], *fields, strict=True)
        ]


def _plain(column: np.ndarray, integer: bool = False) -> list:
    """Python values of a column: NaN (absent) as None; `integer`: its numbers as int."""
    values = column.tolist()
    if integer:
        return [None if v != v else int(v) for v in values]
    if column.dtype.kind == "f":
        return [None if v != v else v for v in values]
    return values


def run_rows(runs: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The table rows of runs (each with ConfigRows), run after run: (rows, configs per run,
    each row's index within its run)."""
    lengths = np.fromiter((len(r.configs) for r in runs), dtype=np.int64, count=len(runs))
    if not len(runs):
        empty = np.zeros(0, dtype=np.int64)
        return empty, lengths, empty
    rows = np.concatenate([np.arange(r.configs.start, r.configs.stop) for r in runs])
    index = rows - np.repeat([r.configs.start for r in runs], lengths)
    return rows, lengths, index


class ConfigRows(Sequence[SweepConfig]):
    """A run's configs, made from the table when a page asks for them, never kept."""

    __slots__ = ("table", "start", "stop")

    def __init__(self, table: ConfigTable, start: int, stop: int) -> None:
        self.table, self.start, self.stop = table, start, stop

    def __len__(self) -> int:
        return self.stop - self.start

    def __iter__(self) -> Iterator[SweepConfig]:
        return iter(self.table.slice(self.start, self.stop))

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return self.table.slice(self.start, self.stop)[index]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.table.config(self.start + index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ConfigRows({len(self)} configs)"


# -- a run's configs as values -----------------------------------------------------------------

# what SweepConfig.parallelism reads of a config: what tells a run's configs apart but the load
PARALLELISM_FIELDS = tuple(
    name for name in CONFIG_KEY if name not in ("concurrency", "request_rate")
)


def parallelism_labels(table: ConfigTable, rows: Sequence[int]) -> list[str]:
    """SweepConfig.parallelism of the table's rows, from the columns it reads alone (making
    whole configs, latencies and all, costs several times more)."""
    return _labels(table.values(rows, PARALLELISM_FIELDS))


def _labels(values: dict[str, list]) -> list[str]:
    columns = [values[name] for name in PARALLELISM_FIELDS]
    return [_parallelism(config) for config in zip(*columns, strict=True)]


@functools.lru_cache(maxsize=4096)  # a site has a few dozen layouts, over thousands of configs
def _parallelism(values: tuple) -> str:
    """The label of a config holding `values` (of PARALLELISM_FIELDS) and no figures."""
    fields = dict(zip(PARALLELISM_FIELDS, values, strict=True))
    no_figures = {"concurrency": 0, "throughput_per_gpu": None, "ttft_ms": None, "tpot_ms": None}
    return SweepConfig(**no_figures, **fields).parallelism


@dataclass(frozen=True)
class ConfigValues:
    """A sweep's configs in its order as Python values, one list per column of the table
    (ConfigTable.values), with what SweepConfig derives of each: what a run report, its chart
    and its data.json read, made once and without an object per config."""

    columns: dict[str, list]
    parallelism: list[str]
    interactivity: list[float | None]  # 1000 / median TPOT; None without a TPOT

    @classmethod
    def of(cls, configs: Sequence[SweepConfig]) -> ConfigValues:
        """The values of a run's configs: rows of the site's table, or configs as objects."""
        if isinstance(configs, ConfigRows):
            columns = configs.table.values(slice(configs.start, configs.stop))
        else:
            columns = ConfigTable(columns_of(configs)).values(slice(None))
        tpot = columns["tpot_ms"]  # the median
        interactivity = [None if t is None else 1000.0 / t for t in tpot]
        return cls(columns, _labels(columns), interactivity)

    def __len__(self) -> int:
        return len(self.parallelism)
