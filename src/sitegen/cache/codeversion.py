"""The version of sitegen's code that makes a page: the digest of its source."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path


@functools.cache
def code_version() -> str:
    """The digest of sitegen's own source: a new version of the code re-makes every page."""
    package = Path(__file__).resolve().parents[1]
    h = hashlib.blake2b(digest_size=20)
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()
