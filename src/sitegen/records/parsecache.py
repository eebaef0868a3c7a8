"""Parsed YAML records kept beside the site, so that a rebuild reads no YAML it read before.

Parsing YAML costs about ten times what reading the same data as JSON does. A record file's
data is stored under the digest of its bytes (`.sitegen-cache/parsed/<digest>.json`, a signed
cache file) in a JSON form that keeps every type YAML gives: dates, times, bytes, sets, tuples
and keys that are not text are tagged, so the data read back is equal, type for type, to what
the parser gave. The record then goes through the same checks as if it had been parsed: the
cache saves parsing only. A value the encoding does not know, or a document far larger once
expanded than its text (an alias bomb), is simply not stored. Plain sweeps the screen passes
are not stored here: the load cache (records.loadcache) keeps what loading found in them.
"""

from __future__ import annotations

import base64
import datetime as dt
from pathlib import Path
from typing import Any

from ..cache.files import prune, read_signed, write_signed

KIND = "parsed"
VERSION = 2
TAG = "\0"  # a list whose first item is a text starting with NUL is a tagged value
MISSING = object()


class TooLarge(Exception):
    pass


class _Unknown(Exception):
    pass


def encode(value: Any, budget: int) -> Any:
    """`value` as plain JSON; raises TooLarge past `budget` nodes, _Unknown for a foreign type."""
    if type(value) is dt.date:  # a run's date, in every record: tagged without the walk
        return [TAG + "date", value.isoformat()]
    count = 0

    def enc(v: Any) -> Any:
        nonlocal count
        count += 1
        if count > budget:
            raise TooLarge
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, dict):
            if all(type(k) is str for k in v):
                return {k: enc(x) for k, x in v.items()}
            return [TAG + "map", [[enc(k), enc(x)] for k, x in v.items()]]
        if isinstance(v, list):
            if v and isinstance(v[0], str) and v[0].startswith(TAG):
                return [TAG + "list", [enc(x) for x in v]]
            return [enc(x) for x in v]
        if isinstance(v, tuple):
            return [TAG + "tuple", [enc(x) for x in v]]
        if type(v) is set:
            return [TAG + "set", [enc(x) for x in v]]
        if isinstance(v, dt.datetime):  # before date: a datetime is a date
            return [TAG + "datetime", v.isoformat()]
        if isinstance(v, dt.date):
            return [TAG + "date", v.isoformat()]
        if isinstance(v, bytes):
            return [TAG + "bytes", base64.b64encode(v).decode()]
        raise _Unknown(type(v).__name__)

    return enc(value)


def decode(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: decode(x) for k, x in value.items()}
    if not isinstance(value, list):
        return value
    if value and isinstance(value[0], str) and value[0].startswith(TAG):
        tag, body = value
        if tag == TAG + "map":
            return {_key(decode(k)): decode(x) for k, x in body}
        if tag == TAG + "list":
            return [decode(x) for x in body]
        if tag == TAG + "tuple":
            return tuple(decode(x) for x in body)
        if tag == TAG + "set":
            return {decode(x) for x in body}
        if tag == TAG + "datetime":
            return dt.datetime.fromisoformat(body)
        if tag == TAG + "date":
            return dt.date.fromisoformat(body)
        if tag == TAG + "bytes":
            return base64.b64decode(body)
        raise ValueError(f"unknown tag {tag!r}")
    return [decode(x) for x in value]


def _has_tag(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_tag(x) for x in value.values())
    if isinstance(value, list):
        if value and isinstance(value[0], str) and value[0].startswith(TAG):
            return True
        return any(_has_tag(x) for x in value)
    return False


def _key(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else k  # a key read back as a list was a tuple


class ParseCache:
    """digest of a file's bytes -> the data parsing it gave. `folder` None: a cache of nothing."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.used: set[str] = set()

    def get(self, digest: str) -> Any:
        """The stored data, or MISSING."""
        if self.folder is None:
            return MISSING
        stored = read_signed(self.folder / f"{digest}.json", KIND, VERSION)
        if not isinstance(stored, dict) or stored.get("digest") != digest:
            return MISSING
        try:
            data = stored["data"]
            if stored["tagged"] is True:
                data = decode(data)
            else:  # only the top-level values holding a tagged value are walked
                for key in stored["tagged"]:
                    data[key] = decode(data[key])
        except (KeyError, ValueError, TypeError):
            return MISSING
        self.used.add(digest)
        return data

    def put(self, digest: str, data: Any, text_size: int) -> None:
        if self.folder is None:
            return
        try:
            plain = encode(data, budget=10_000 + 4 * text_size)
        except (TooLarge, _Unknown, RecursionError):
            return
        tagged: list[str] | bool = True
        if isinstance(data, dict) and isinstance(plain, dict):
            tagged = [k for k in plain if _has_tag(plain[k])]
        entry = {"digest": digest, "data": plain, "tagged": tagged}
        write_signed(self.folder / f"{digest}.json", KIND, VERSION, entry)
        self.used.add(digest)

    def prune(self) -> None:
        """Forget the files no record of this build has."""
        prune(self.folder, ".json", self.used)
