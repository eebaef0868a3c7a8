"""What loading found in each plain sweep file, kept so that a rebuild reads only changed files.

For each run file that the columnar screen passed (and whose run fields checked), the cache
keeps its digest, run id, run fields, number of configs and warnings, and its configs'
columns. It lives in `.sitegen-cache/loaded/`:

- `index.json`, a signed cache file: the key the cache is valid for (code version, catalogs'
  and sitegen.yaml's digests, VERSION), each file's entry, and each segment's digest;
- `<digest>.arrow`, segments: Arrow IPC files of config columns, the rows of one file after
  another. Numbers are float64 columns (a column that is absent in every row is not stored);
  text and booleans are small integer codes into a list of values kept in the index. A segment
  is read only from bytes whose digest the index holds, so a truncated, edited or foreign one
  is found, and then the whole cache is ignored.

A build writes a segment with the rows of the files it parsed, and points the entries of the
unchanged ones at the segments they already are in; when too many rows are dead or there are
too many segments, all live rows are written into one.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.ipc

from ..cache.codeversion import code_version
from ..cache.digests import file_digest
from ..cache.files import finite, prune, read_regular, read_signed, write_signed
from . import parsecache
from .columnar import COLUMNS, FEW_ROWS, FLOAT_COLUMNS
from .problems import ERROR, WARNING, Problem

KIND = "loaded"
VERSION = 1
INDEX = "index.json"
SUFFIX = ".arrow"
MAX_SEGMENTS = 8
MAX_DEAD_SHARE = 0.25  # dead rows past this share of the live ones: all rewritten in one
_NAN_BITS = np.float64(np.nan).view(np.uint64)
_PLAIN = (str, bool, int, float)  # run fields JSON keeps as they are; others are tagged


@dataclass
class Clean:
    """A plain sweep file that passed the screen and its fields' checks: all a build needs."""

    rel: str
    rid: str
    digest: str
    fields: dict
    count: int  # configs, its rows in `source` from `start`
    problems: list[Problem]
    source: dict[str, np.ndarray] | None = None
    start: int = 0
    segment: str | None = None  # the cache segment its rows are in, when read from the cache


@dataclass(frozen=True)
class Listing:
    """The run files one build found (load.run_files' (path, rel, run id), in its order),
    what the walk said of them, and the digest of each file's bytes as that build read them:
    the next build of the preview takes it as it is when its watcher names only run files
    that are still there, regular and listed (load.listed_changes)."""

    files: list[tuple[str, str, str]]
    problems: list[Problem]
    digests: dict[str, str]


class LoadMemo:
    """The load cache kept in memory between the builds of one process (the preview): a
    build whose catalogs and code are those of the last one reads nothing of it from disk.
    Also the last build's Listing of the run files, and which of them it read again by the
    listing (None: it walked data/runs/, and any file may have changed)."""

    def __init__(self) -> None:
        self.cache: LoadCache | None = None
        self.listing: Listing | None = None
        self.reread: set[str] | None = None

    def cache_for(self, folder: Path | None, key: dict) -> LoadCache:
        """The kept cache when it is for `folder` and `key`, else the one on disk. The first
        build with a cache writes it to disk, for later builds; the next ones keep what they
        find in memory only (the disk's stays valid for the files it names: a build after the
        preview parses again the records edited meanwhile)."""
        kept = self.cache
        if kept is None or kept.folder != folder or kept.key != key:
            kept = self.cache = LoadCache(folder, key)
            kept.in_memory = True
        else:
            kept.on_disk = False
        return kept


def cache_key(catalog_digests: dict[str, str]) -> dict:
    """What the whole cache is valid for: this code, these catalogs and sitegen.yaml."""
    return {"code": code_version(), "catalogs": sorted(catalog_digests.items())}


def _problem_json(p: Problem) -> list | None:
    """A problem as the index keeps it; None for one it cannot keep."""
    if (p.line is not None and type(p.line) is not int) or p.severity not in (ERROR, WARNING):
        return None  # a row of an archive: never a plain sweep's
    return [p.file, p.line, p.field, p.message, p.severity]


def _fields_of(stored: dict) -> dict:
    """Run fields as stored back to their types (only tagged values are lists or mappings,
    as JSON gives them: a copy, the few tagged ones decoded, is twice as fast as a
    comprehension over all)."""
    fields = dict(stored)
    for k, v in stored.items():
        if type(v) is list or type(v) is dict:
            fields[k] = parsecache.decode(v)
    return fields


class LoadCache:
    """The cache as read at the start of a build; `folder` None: a cache of nothing.

    After `save` it holds what it wrote, so that the next build of the same process can use
    it as it is (LoadMemo)."""

    def __init__(self, folder: Path | None, key: dict) -> None:
        self.folder = folder
        self.key = key
        self.files: dict[str, list] = {}  # rel -> [digest, rid, fields, count, problems, seg, at]
        self.segments: dict[str, dict] = {}  # name -> its index entry
        self.columns: dict[str, dict[str, np.ndarray]] = {}  # name -> its columns
        self._cleans: dict[str, tuple[list, Clean]] = {}  # rel -> (its entry, its Clean)
        self.on_disk = folder is not None  # saves write the folder
        self.in_memory = False  # saves are kept in this object, for the next build to use
        self._memory_segments = 0
        if folder is not None:
            with contextlib.suppress(Exception):  # anything unexpected: an empty cache
                self._read()

    def _read(self) -> None:
        stored = read_signed(self.folder / INDEX, KIND, VERSION)
        if not isinstance(stored, dict) or stored.get("key") != _json_key(self.key):
            return
        segments, columns = stored["segments"], {}
        for name, seg in segments.items():
            raw = read_regular(self.folder / f"{name}{SUFFIX}")
            if raw is None or file_digest(raw) != seg["digest"] or name != seg["digest"]:
                return
            columns[name] = _columns_of(raw, seg)
        files = stored["files"]
        for digest, rid, _fields, count, _problems, seg, at in files.values():
            rows = segments[seg]["rows"]
            if not (isinstance(digest, str) and isinstance(rid, str) and 0 <= at <= rows - count):
                return
        self.files, self.segments, self.columns = files, segments, columns

    def digests(self) -> dict[str, str]:
        """rel -> the digest of the bytes its entry was made from."""
        return {rel: entry[0] for rel, entry in self.files.items()}

    def clean(self, rel: str) -> Clean:
        """The stored entry of `rel` (whose digest the caller matched); made once for as long
        as the entry stands (a loader only reads it)."""
        entry = self.files[rel]
        made = self._cleans.get(rel)
        if made is not None and made[0] is entry:
            return made[1]
        digest, rid, fields, count, problems, seg, at = entry
        found = [Problem(f, line, field, m, severity) for f, line, field, m, severity in problems]
        clean = Clean(rel, rid, digest, _fields_of(fields), count, found)
        clean.source, clean.start, clean.segment = self.columns[seg], at, seg
        self._cleans[rel] = (entry, clean)
        return clean

    def save(self, cleans: Sequence[Clean], table_columns: dict[str, np.ndarray]) -> None:
        """Keep `cleans` (in table order: their rows are the table's first ones, one file
        after another) for the next build; writes only what changed, and nothing when the
        cache lives in memory only."""
        if not self.on_disk and not self.in_memory:
            return
        if all(c.segment is not None for c in cleans) and len(cleans) == len(self.files):
            return  # every entry read from the cache, none dropped: nothing to write
        live = {c.segment for c in cleans if c.segment is not None}
        stored_rows = sum(self.segments[s]["rows"] for s in live)
        kept_rows = sum(c.count for c in cleans if c.segment is not None)
        new_rows = sum(c.count for c in cleans if c.segment is None)
        dead = stored_rows - kept_rows
        compact = len(live) + 1 > MAX_SEGMENTS or dead > MAX_DEAD_SHARE * (kept_rows + new_rows)
        fresh = list(cleans) if compact else [c for c in cleans if c.segment is None]
        starts = np.cumsum([0] + [c.count for c in cleans])[:-1]
        where = dict(zip((c.rel for c in cleans), starts.tolist(), strict=True))
        segments = {} if compact else {s: self.segments[s] for s in live}
        placed: dict[str, tuple[str, int]] = {}
        if fresh:
            if len(fresh) == len(cleans):  # the table's first rows, as they are: no copy
                total = sum(c.count for c in cleans)
                fresh_columns = {k: v[:total] for k, v in table_columns.items()}
            else:
                rows = np.concatenate(
                    [np.arange(where[c.rel], where[c.rel] + c.count) for c in fresh]
                ).astype(np.int64)
                fresh_columns = {k: v[rows] for k, v in table_columns.items()}
            try:
                written = self._store_segment(fresh_columns)
            except (ValueError, pa.ArrowException):
                written = None
            if written is None:  # not kept: only costs time
                return
            name, seg = written
            segments[name] = seg
            offsets = np.cumsum([0] + [c.count for c in fresh])[:-1].tolist()
            placed = {c.rel: (name, at) for c, at in zip(fresh, offsets, strict=True)}
        files = {}
        for c in cleans:
            if c.rel not in placed:  # where it was: its stored entry as it is
                files[c.rel] = self.files[c.rel]
            elif (entry := _entry(c, *placed[c.rel])) is not None:
                files[c.rel] = entry
        if self.on_disk:
            index = {"key": _json_key(self.key), "segments": segments, "files": files}
            write_signed(self.folder / INDEX, KIND, VERSION, index, nonfinite=False)
            prune(self.folder, SUFFIX, set(segments))
        # this object now holds what it kept: a process that builds again (the preview)
        # takes its next build's entries from here, without reading the index and segments
        columns = {s: self.columns[s] for s in segments if s in self.columns}
        if fresh:
            columns[name] = fresh_columns
        self.files, self.segments, self.columns = files, segments, columns
        kept = self._cleans.items()
        self._cleans = {rel: made for rel, made in kept if files.get(rel) is made[0]}

    def _store_segment(self, columns: dict[str, np.ndarray]) -> tuple[str, dict] | None:
        """A segment of these rows: written (see _write_segment), or named in memory."""
        if self.on_disk:
            return self._write_segment(columns)
        self._memory_segments += 1
        name = f"memory-{self._memory_segments}"  # never a digest: never a file's name
        return name, {"digest": name, "rows": len(columns["status"]), "stored": [], "values": {}}

    def _write_segment(self, columns: dict[str, np.ndarray]) -> tuple[str, dict] | None:
        """Store rows of config columns; (name, index entry), or None if it cannot be."""
        arrays, names, values = [], [], {}
        for name in COLUMNS:
            col = columns[name]
            if name in FLOAT_COLUMNS:
                if len(col) and (col.view(np.uint64) == _NAN_BITS).all():
                    continue  # absent everywhere: made again on reading
                arrays.append(_arrow_of(np.ascontiguousarray(col, dtype=np.float64)))
            else:
                codes, values[name] = _codes(col)
                arrays.append(_arrow_of(codes))
            names.append(name)
        raw = _ipc_file(pa.RecordBatch.from_arrays(arrays, names=names))
        digest = file_digest(raw)
        if not _write_bytes(self.folder / f"{digest}{SUFFIX}", raw):
            return None
        rows = len(columns["status"])
        return digest, {"digest": digest, "rows": rows, "stored": names, "values": values}


def _ipc_file(batch: pa.RecordBatch) -> pa.Buffer:
    """The Arrow IPC file of one batch, in a buffer of its size, measured by a first pass
    that writes nothing: a growing buffer copies itself as it grows (52 MB at 2,000 pairs:
    0.23-0.31 s, sized 0.02-0.12 s). Hashed and written as it is, never copied to bytes."""
    for_size = pa.MockOutputStream()
    with pa.ipc.new_file(for_size, batch.schema) as writer:
        writer.write_batch(batch)
    raw = pa.allocate_buffer(for_size.size())
    with pa.ipc.new_file(pa.FixedSizeBufferWriter(raw), batch.schema) as writer:
        writer.write_batch(batch)
    return raw


def _entry(c: Clean, segment: str, at: int) -> list | None:
    """The index entry of a file whose rows are in `segment` from `at`; None if it has
    something JSON cannot keep."""
    problems = [_problem_json(p) for p in c.problems]
    if None in problems:
        return None
    fields = {}  # the index holds no NaN or infinity: orjson would write them as null
    try:
        for k, v in c.fields.items():
            kind = type(v)
            if v is None or kind in _PLAIN:
                if kind is float and not math.isfinite(v):
                    return None
                fields[k] = v
            elif not finite(encoded := parsecache.encode(v, 10_000)):
                return None
            else:
                fields[k] = encoded
    except Exception:  # a value the tagged JSON does not know: not kept
        return None
    return [c.digest, c.rid, fields, c.count, problems, segment, at]


def _json_key(key: dict) -> Any:
    """The key as it reads back from JSON (tuples become lists)."""
    return {"version": VERSION, "code": key["code"], "catalogs": [list(p) for p in key["catalogs"]]}


# pyarrow's own conversions (pa.array, to_numpy) import pandas to look for its types: these
# take a column's buffer as it is, and a build with a few files to load never imports pandas
_ARROW_TYPES = {
    np.dtype(np.float64): pa.float64(),
    np.dtype(np.uint8): pa.uint8(),
    np.dtype(np.int32): pa.int32(),
}


def _arrow_of(column: np.ndarray) -> pa.Array:
    """A numpy column (float64, uint8, int32, contiguous) as an Arrow array of its buffer."""
    return pa.Array.from_buffers(
        _ARROW_TYPES[column.dtype], len(column), [None, pa.py_buffer(column)]
    )


def _numpy_of(column: pa.ChunkedArray) -> np.ndarray:
    """A column read from a segment (one chunk, no nulls, of a type _arrow_of writes) as a
    read-only numpy array over its buffer; ValueError for anything else."""
    dtype = next((d for d, t in _ARROW_TYPES.items() if t == column.type), None)
    if dtype is None:
        raise ValueError(f"a column of {column.type}")
    if len(column) == 0:
        return np.zeros(0, dtype=dtype)
    if column.num_chunks != 1 or column.null_count:
        raise ValueError("a column of another shape")
    chunk = column.chunk(0)
    offset = chunk.offset * dtype.itemsize
    return np.frombuffer(chunk.buffers()[1], dtype=dtype, count=len(chunk), offset=offset)


def factorize(column: np.ndarray) -> tuple[np.ndarray, list]:
    """Each value's code (its distinct values numbered as first found) and those values:
    pd.factorize, by a dict for a few rows (pandas' import costs more than their work)."""
    if len(column) >= FEW_ROWS:
        import pandas as pd  # for many rows: its hash tables

        found, uniques = pd.factorize(column)  # the column's own objects, by hash
        return found, uniques.tolist()
    codes: dict[Any, int] = {}
    found = np.array([codes.setdefault(v, len(codes)) for v in column.tolist()], dtype=np.intp)
    return found, list(codes)


def _codes(column: np.ndarray) -> tuple[np.ndarray, list]:
    """An object column (text, booleans, None) as codes into a list of its values, None first.

    Raises ValueError for a column holding anything else."""
    absent = np.equal(column, None)
    found, uniques = factorize(column[~absent])
    values = [None, *uniques]
    if not all(type(v) in (str, bool) for v in values[1:]):
        raise ValueError("a column of other values")
    codes = np.zeros(len(column), dtype=np.uint8 if len(values) <= 256 else np.int32)
    codes[~absent] = found + 1
    return codes, values


def _columns_of(raw: bytes, seg: dict) -> dict[str, np.ndarray]:
    """The config columns of a segment's bytes, each of the table's type."""
    table = pa.ipc.open_file(pa.py_buffer(raw)).read_all()
    rows = seg["rows"]
    if table.num_rows != rows or table.column_names != seg["stored"]:
        raise ValueError("a segment that is not its index's")
    out: dict[str, np.ndarray] = {}
    for name in COLUMNS:
        if name not in seg["stored"]:
            if name not in FLOAT_COLUMNS:
                raise ValueError(f"no column {name}")
            out[name] = np.full(rows, np.nan)
            continue
        col = _numpy_of(table.column(name))
        if name in FLOAT_COLUMNS:
            if col.dtype != np.float64:
                raise ValueError(f"column {name} is {col.dtype}")
            out[name] = col
            continue
        values = seg["values"][name]
        if not all(v is None or type(v) in (str, bool) for v in values):
            raise ValueError(f"column {name} holds {values!r}")
        if col.dtype.kind not in "iu" or (rows and (col.min() < 0 or col.max() >= len(values))):
            raise ValueError(f"column {name} has codes out of range")
        lookup = np.empty(len(values), dtype=object)
        lookup[:] = values
        out[name] = lookup[col]
    return out


def _write_bytes(path: Path, raw: bytes | pa.Buffer) -> bool:
    """Write a file whole or not at all; False when it could not be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
        os.replace(tmp, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
