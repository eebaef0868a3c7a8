"""A chart cache on disk, keyed by the hash of the chart's data and of the drawing code.

An unchanged chart is never drawn twice, across builds too. Each entry starts with a header
naming its key and the hash of its body, so a truncated or edited entry is noticed and drawn
again; a cache folder that is missing, unreadable or read-only only costs the drawing time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from ..layout import SiteLayout

HEADER = "<!-- sitegen-chart {key} {digest} -->\n"


def drawing_sources() -> list[Path]:
    """Every module a chart's bytes depend on: the charts themselves, the display filters that
    write their labels, and the calculator that draws their curves."""
    package = Path(__file__).parent.parent
    return sorted(Path(__file__).parent.glob("*.py")) + [
        package / "display.py",
        package / "frontier.py",
    ]


@functools.cache
def code_digest() -> str:
    """The drawing code's own hash: a change to how charts look invalidates every entry."""
    h = hashlib.sha256()
    for path in drawing_sources():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def chart_key(kind: str, data: object) -> str:
    payload = json.dumps([kind, code_digest(), data], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


class ChartCache:
    """get_or_draw(kind, data, draw): the cached SVG for `data`, or `draw(data)` stored."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()

    @classmethod
    def for_site(cls, site_root: Path | str) -> ChartCache:
        return cls(SiteLayout(Path(site_root)).cache / "charts")

    def _read(self, key: str) -> str | None:
        if self.folder is None:
            return None
        try:
            raw = (self.folder / f"{key}.svg").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        header, _, body = raw.partition("\n")
        if header + "\n" != HEADER.format(key=key, digest=_digest(body)):
            return None  # truncated, edited or from another key: draw again
        return body

    def _write(self, key: str, body: str) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".svg")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(HEADER.format(key=key, digest=_digest(body)) + body)
            os.replace(tmp, self.folder / f"{key}.svg")
        except OSError:
            pass  # a cache that cannot be written only costs time

    def get_or_draw(
        self, kind: str, data: object, draw: Callable[[object], str], key: str | None = None
    ) -> str:
        """`key` is chart_key(kind, data), where the caller has it already."""
        key = key or chart_key(kind, data)
        self.used.add(key)
        body = self._read(key)
        if body is not None:
            self.hits += 1
            return body
        self.misses += 1
        body = draw(data)
        self._write(key, body)
        return body

    def keep(self, keys: Iterable[str]) -> None:
        """Entries in use by pages this build kept from the last one: prune leaves them."""
        self.used.update(keys)

    def prune(self) -> int:
        """Remove entries this build did not use; returns how many were removed."""
        if self.folder is None or not self.folder.is_dir():
            return 0
        removed = 0
        for path in self.folder.glob("*.svg"):
            if path.stem not in self.used:
                try:
                    path.unlink()
                    removed += 1
                except OSError:
                    pass
        return removed
