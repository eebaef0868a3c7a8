"""Cache files beside the site: plain JSON behind a header that names and signs the body.

The signature is an HMAC under a key of the user who builds (cache/trust.py), so a file whose
header does not match its body (truncated, edited, from another version, or written on another
machine and restored here) reads as None: a cache is rebuilt, never trusted. Nothing here can
run code on reading (no pickle). Without a key nothing is written. A file that cannot be
written only costs time: the next build does the work again.

A big site's records (jobs, manifest, digests, briefs: 2 to 15 MB each at 2,000 pairs) are
written and read by orjson: 0.19 s where json takes 0.41 s, some 8 % of the one-edit build of
bench/scale.py's 2,000-pair site, which reads and writes them all. orjson writes NaN and
the infinities as null, so it writes only what the caller knows holds neither
(`nonfinite=False`; finite floats read back as they were), and json writes what orjson cannot
(an integer past 64 bits, a string with a lone surrogate). The header names the writer, under
the signature, and a file is read by the same one: orjson reads its own files in up to half
json's time, but would read an integer past 64 bits (which only json writes) as a float.

A cache file is read only when it is a regular file of at most MAX_FILE bytes (read_regular):
a link (which a checkout can hold), a FIFO, a device or a bigger file there is not read, so it
can neither hang a build nor fill its memory; the build says so once and rebuilds that part.
"""

from __future__ import annotations

import contextlib
import errno
import hmac
import json
import math
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

import orjson

from ..layout import SiteLayout
from .trust import sign

# the writers of a body, as the header names them
ORJSON, JSON = "orjson", "json"

# The most bytes a cache file may hold: some 30 times the biggest one of bench/scale.py's
# 2,000-pair site (15 MB), and a bound on what reading any one of them can cost.
MAX_FILE = 512 << 20

_warned: set[str] = set()  # the odd cache files this process has told of


def _refuse(path: Path | str, what: str) -> None:
    """Say once, on stderr, that the cache file at `path` is not read (it is `what`)."""
    parts = Path(path).parts
    at = parts.index(SiteLayout.CACHE) if SiteLayout.CACHE in parts else 0
    shown = Path(*parts[at:]).as_posix()
    if shown not in _warned:
        _warned.add(shown)
        with contextlib.suppress(OSError, ValueError):
            print(f"{shown}: {what}: not read, the cache is rebuilt (warning)", file=sys.stderr)


def open_regular(path: Path | str, limit: int = MAX_FILE) -> tuple[IO[bytes], int] | None:
    """The cache file at `path` open for reading, and its size, when it is a regular file of
    at most `limit` bytes; else None (a link, a FIFO, a device, a folder or a bigger file is
    told of on stderr; a missing or unreadable one is not). Never follows a link, never waits
    on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP or os.path.islink(path):
            _refuse(path, "a link")
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        _refuse(path, f"over {limit:,} bytes" if stat.S_ISREG(st.st_mode) else kind)
        return None
    return open(fd, "rb"), st.st_size


def is_regular(path: Path | str) -> bool:
    """Whether `path` is a regular file (not followed if a link); a link, a FIFO or a device
    there is told of on stderr, as open_regular does."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    if not stat.S_ISREG(mode):
        _refuse(path, "a link" if stat.S_ISLNK(mode) else "not a regular file")
    return stat.S_ISREG(mode)


def read_regular(path: Path | str, limit: int = MAX_FILE) -> bytes | None:
    """The bytes of the cache file at `path` when it is a regular file of at most `limit`
    bytes (open_regular), else None: what a missing cache file reads as."""
    opened = open_regular(path, limit)
    if opened is None:
        return None
    file, _ = opened
    with file, contextlib.suppress(OSError):
        data = file.read(limit + 1)  # a file that grows meanwhile is read no further
        if len(data) <= limit:
            return data
        _refuse(path, f"over {limit:,} bytes")
    return None


def _header(kind: str, version: int, writer: str, body: bytes) -> bytes | None:
    mac = sign(f"{kind} {version} {writer}\n".encode() + body)
    return None if mac is None else f"sitegen-{kind} {version} {writer} {mac}".encode()


def read_signed(path: Path, kind: str, version: int) -> Any | None:
    """The JSON value stored by write_signed, or None when there is none to trust."""
    return read_signed_by(path, kind, version)[0]


def read_signed_by(path: Path, kind: str, version: int) -> tuple[Any | None, str | None]:
    """read_signed's value and its writer (ORJSON: the value holds no NaN nor infinity)."""
    raw = read_regular(path)
    if raw is None:
        return None, None
    try:
        header, _, body = raw.partition(b"\n")
        writer = ORJSON if header.split(b" ")[2:3] == [ORJSON.encode()] else JSON
        expected = _header(kind, version, writer, body)
        if expected is None or not hmac.compare_digest(header, expected):
            return None, None
        return (orjson.loads(body) if writer == ORJSON else json.loads(body)), writer
    except (OSError, ValueError):  # orjson's and json's decode errors are ValueErrors
        return None, None


def _dumps(value: Any, nonfinite: bool) -> tuple[str, bytes]:
    """The writer and json.dumps(value) as the cache files have it: by orjson where `value`
    holds no NaN or infinity and orjson can write every string (not one holding a lone
    surrogate, as a file name that is not UTF-8 does), else by json."""
    if not nonfinite:
        with contextlib.suppress(orjson.JSONEncodeError):
            return ORJSON, orjson.dumps(value)
    return JSON, json.dumps(value, separators=(",", ":")).encode()  # ASCII: \u escapes


def write_signed(path: Path, kind: str, version: int, value: Any, nonfinite: bool = True) -> None:
    """Store `value` atomically (a reader sees the old file or the new one, never half).
    `nonfinite` False: the caller knows `value` holds no NaN or infinity (orjson writes it)."""
    writer, body = _dumps(value, nonfinite)
    header = _header(kind, version, writer, body)
    if header is None:
        return  # no key to sign with: nothing is cached
    write_atomic(path, header + b"\n" + body)


def finite(value: Any) -> bool:
    """Whether a JSON-like value holds no NaN or infinity, however deep."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list | tuple):
        return True
    for v in value:
        kind = type(v)
        if kind is str or v is None or kind is int or kind is bool:
            continue  # the most of it, looked at no further
        if not finite(v):
            return False
    return True


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write a cache file whole or not at all; a cache that cannot be written only costs time.

    The bytes go to a temporary file of this process beside `path` (created exclusively, so
    never one another process or a link put there; named with `path`'s suffix, so `prune`
    removes one that a crash left), then take its name in one rename. No folder is made, and
    no random name drawn, unless the first try needs it.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    with contextlib.suppress(OSError):
        try:
            tmp = write_new(os.path.join(path.parent, f".tmp-{os.getpid()}-{path.name}"), data)
        except OSError:  # no folder yet, or a stale file of the same name: the slow way
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
            os.close(fd)
            os.unlink(tmp)
            tmp = write_new(tmp, data)
        try:
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_new(name: str | Path, data: bytes) -> str | Path:
    """`data` in a file of a new name, readable by this user only (O_EXCL: never through a
    link planted there); a file half written is removed."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with open(fd, "wb", closefd=False) as file:
            file.write(data)
    except OSError:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    os.close(fd)
    return name


def prune(folder: Path | None, suffix: str, used: set[str]) -> int:
    """Remove the entries (`<name><suffix>`) of `folder` whose name is not in `used`; how many
    were removed. One that cannot be removed stays: it only takes room."""
    if folder is None or not folder.is_dir():
        return 0
    removed = 0
    for path in folder.glob(f"*{suffix}"):
        if path.stem not in used:
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed
