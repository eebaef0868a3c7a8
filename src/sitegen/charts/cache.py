"""A chart cache on disk, keyed by the hash of the chart's data and of the drawing code.

An unchanged chart is never drawn twice, across builds too. Each entry starts with a header
naming its key and an HMAC of key and body under this user's key (cachetrust), so an entry
that is truncated, edited or written elsewhere (a restored cache) is drawn again rather than
inlined into a page; a cache folder that is missing, unreadable, read-only or a link only
costs the drawing time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from ..cachefile import prune
from ..cachetrust import cache_folder, sign, verify

HEADER = "<!-- sitegen-chart {key} {mac} -->\n"


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


def data_text(data: object) -> str:
    """A chart's data as its key reads it: JSON with sorted keys, text unescaped."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def chart_key(kind: str, data: object, text: str | None = None) -> str:
    """The hash of json.dumps([kind, code_digest(), data], sort_keys=True, ensure_ascii=False);
    `text` is data_text(data), where the caller has it already."""
    text = data_text(data) if text is None else text
    head = json.dumps([kind, code_digest()], ensure_ascii=False)[:-1]  # without its "]"
    return hashlib.sha256(f"{head}, {text}]".encode()).hexdigest()


class ChartCache:
    """get_or_draw(kind, data, draw): the cached SVG for `data`, or `draw(data)` stored."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()
        self._made = False  # the folder, once an entry is written

    @classmethod
    def for_site(cls, site_root: Path | str) -> ChartCache:
        return cls(cache_folder(Path(site_root), "charts"))

    def _read(self, key: str) -> str | None:
        if self.folder is None:
            return None
        try:
            raw = (self.folder / f"{key}.svg").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        header, _, body = raw.partition("\n")
        mac = header.removeprefix(f"<!-- sitegen-chart {key} ").removesuffix(" -->")
        if header + "\n" != HEADER.format(key=key, mac=mac) or not verify(f"{key}\n{body}", mac):
            return None  # truncated, edited, restored from elsewhere or another key: draw again
        return body

    def _write(self, key: str, body: str) -> None:
        """Store an entry. Written in place, not through a temporary file and a rename (a file
        fewer to make per chart, thousands on a cold build): a reader that meets it half
        written finds its signature wrong and draws the chart; a link there is not followed."""
        mac = sign(f"{key}\n{body}")
        if self.folder is None or mac is None:
            return
        with contextlib.suppress(OSError):
            if not self._made:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._made = True
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(self.folder / f"{key}.svg", flags, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(HEADER.format(key=key, mac=mac) + body)

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
        return prune(self.folder, ".svg", self.used)
