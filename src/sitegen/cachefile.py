"""Cache files beside the site: plain JSON behind a header that names and signs the body.

A file whose header does not match its body (truncated, edited, from another version) reads
as None, so a cache is rebuilt, never trusted. Nothing here can run code on reading (no pickle).
A file that cannot be written only costs time: the next build does the work again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _header(kind: str, version: int, body: str) -> str:
    return f"sitegen-{kind} {version} {hashlib.sha256(body.encode()).hexdigest()}"


def read_signed(path: Path, kind: str, version: int) -> Any | None:
    """The JSON value stored by write_signed, or None when there is none to trust."""
    try:
        raw = path.read_text(encoding="utf-8")
        header, _, body = raw.partition("\n")
        if header != _header(kind, version, body):
            return None
        return json.loads(body)
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def write_signed(path: Path, kind: str, version: int, value: Any) -> None:
    """Store `value` atomically (a reader sees the old file or the new one, never half)."""
    body = json.dumps(value, separators=(",", ":"))
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(_header(kind, version, body) + "\n" + body)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
