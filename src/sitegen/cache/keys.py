"""Digests of JSON-like values: what keys, pair digests and caches compare build to build.

Each is the digest of the value's JSON text, keys sorted, floats as json writes them (NaN as
NaN, not null), any other type by its str().
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

_TEXT = json.JSONEncoder(default=str, sort_keys=True, ensure_ascii=False).encode


def of(*parts: Any) -> str:
    """The digest of `parts`, any JSON-like values."""
    return hashlib.blake2b(
        _TEXT(parts).encode("utf-8", "surrogatepass"), digest_size=20
    ).hexdigest()
