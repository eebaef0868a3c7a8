"""A chart cache on disk, keyed by the hash of the chart's data and of the drawing code.

An unchanged chart is never drawn twice, across builds too. Each entry starts with a header
naming its key and an HMAC of key and body under this user's key (cache/trust.py), so an entry
that is truncated, edited or written elsewhere (a restored cache) is drawn again rather than
inlined into a page; a cache folder that is missing, unreadable, read-only or a link only
costs the drawing time.

Entries are kept in packs: charts drawn one after another (64 of them, or the last of a
worker's chunk of jobs) are written together as one `<name>.pack`, with a `<name>.index`
naming each entry's key, offset and length, written after it. A file per chart was a file
more to make for each page of a cold build, as many as the pages themselves. The index is not
trusted: an entry is read only where its own header names the key and its signature checks.
Pruning removes the packs none of whose entries a build used, and writes the live entries of
a mostly dead pack into a new one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path

from ..cache.files import is_regular, open_regular, prune, read_regular, write_new
from ..cache.trust import cache_folder, sign, verify
from .svg import data_digest

HEADER = "<!-- sitegen-chart {key} {mac} -->\n"


def drawing_sources() -> list[Path]:
    """Every module a chart's bytes depend on: the charts themselves, the display filters that
    write their labels, and the calculator that draws their curves."""
    package = Path(__file__).parent.parent
    return sorted(Path(__file__).parent.glob("*.py")) + [
        package / "render" / "display.py",
        package / "calc" / "frontier.py",
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
    """The hash of `kind`, code_digest() and `data` (svg.data_digest): any change to the data
    or to the drawing code changes the key."""
    return data_digest(data, f"{kind}\0{code_digest()}\0")


PACK, INDEX = ".pack", ".index"
PACK_ENTRIES = 64  # a pack is written once this many charts are drawn (and by flush)
Place = tuple[str, int, int]  # a pack's name, an entry's offset and length in it (bytes)


def _entry(key: str, body: str) -> str | None:
    """An entry as a pack holds it: its signed header, then its body; None without a key."""
    mac = sign(f"{key}\n{body}")
    return None if mac is None else HEADER.format(key=key, mac=mac) + body


def _body(key: str, raw: str) -> str | None:
    """The body of an entry read back, if its header names `key` and its signature checks."""
    header, _, body = raw.partition("\n")
    mac = header.removeprefix(f"<!-- sitegen-chart {key} ").removesuffix(" -->")
    if header + "\n" != HEADER.format(key=key, mac=mac) or not verify(f"{key}\n{body}", mac):
        return None  # truncated, edited, restored from elsewhere or another key: draw again
    return body


class ChartCache:
    """get_or_draw(kind, data, draw): the cached SVG for `data`, or `draw(data)`, stored with
    the charts drawn after it: PACK_ENTRIES of them to a pack, the rest by `flush`."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()
        self._places: dict[str, Place] | None = None  # read from the indexes when first asked
        self._new: dict[str, str] = {}  # key -> entry, drawn (or kept by pruning), not stored
        self._indexed: dict[str, list[Place]] = {}  # index -> its rows: a pack never changes

    @classmethod
    def for_site(cls, site_root: Path | str) -> ChartCache:
        return cls(cache_folder(Path(site_root), "charts"))

    def _indexes(self) -> dict[str, list[Place]]:
        """Every pack's entries, as its index names them (an index that cannot be read names
        none: its pack is pruned)."""
        if self.folder is None or not self.folder.is_dir():
            return {}
        out: dict[str, list[Place]] = {}
        for index in sorted(self.folder.glob(f"*{INDEX}")):
            if index.stem in self._indexed:  # written whole once, under a name of its own
                out[index.stem] = self._indexed[index.stem]
                continue
            try:
                raw = read_regular(index)
                if raw is None or not is_regular(self.folder / f"{index.stem}{PACK}"):
                    raise ValueError(index)  # either not a regular file: an index of nothing
                rows = json.loads(raw.decode("utf-8"))
                out[index.stem] = [(str(k), int(o), int(n)) for k, o, n in rows]
            except (OSError, UnicodeDecodeError, ValueError, TypeError):
                out[index.stem] = []
            else:
                self._indexed[index.stem] = out[index.stem]
        return out

    def places(self) -> dict[str, Place]:
        """Where each stored entry is, read from the indexes once (a process about to fork
        its workers reads them for all of them)."""
        if self._places is None:
            self._places = {}
            for pack, rows in self._indexes().items():
                for k, offset, length in rows:
                    self._places.setdefault(k, (pack, offset, length))
        return self._places

    def _place(self, key: str) -> Place | None:
        return self.places().get(key)

    def _raw(self, place: Place) -> str | None:
        pack, offset, length = place
        assert self.folder is not None
        opened = open_regular(self.folder / f"{pack}{PACK}")
        if opened is None:
            return None
        packed, size = opened
        try:
            with packed:
                if not 0 <= offset <= offset + length <= size:
                    return None  # an index that names bytes the pack does not hold
                packed.seek(offset)
                return packed.read(length).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def _read(self, key: str) -> str | None:
        if key in self._new:
            return self._new[key].partition("\n")[2]
        place = self._place(key) if self.folder is not None else None
        raw = self._raw(place) if place is not None else None
        return None if raw is None else _body(key, raw)

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
        if self.folder is not None and (entry := _entry(key, body)) is not None:
            self._new[key] = entry
            if len(self._new) >= PACK_ENTRIES:
                self.flush()
        return body

    def flush(self) -> None:
        """Store the entries drawn since the last flush, as one pack and its index (the pack
        first: an index never names what is not there yet). Failing to write only costs the
        drawing time of a later build."""
        if self.folder is None or not self._new:
            return
        rows, parts, offset = [], [], 0
        for key, entry in self._new.items():
            data = entry.encode("utf-8")
            rows.append([key, offset, len(data)])
            parts.append(data)
            offset += len(data)
        name = f"{os.getpid()}-{secrets.token_hex(8)}"
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            write_new(self.folder / f"{name}{PACK}", b"".join(parts))
            write_new(self.folder / f"{name}{INDEX}", json.dumps(rows).encode("utf-8"))
            if self._places is not None:
                self._places.update((k, (name, o, n)) for k, o, n in rows)
        self._new = {}

    def keep(self, keys: Iterable[str]) -> None:
        """Entries in use by pages this build kept from the last one: prune leaves them."""
        self.used.update(keys)

    def prune(self) -> int:
        """Remove the entries this build did not use (of every pack: its workers wrote theirs
        too); returns how many were removed. A pack none of whose entries is used goes; one
        mostly unused has its live entries written into a new pack."""
        if self.folder is None:
            return 0
        removed = prune(self.folder, ".svg", set())  # entries of the one-file-each layout
        for pack, rows in self._indexes().items():
            live = [row for row in rows if row[0] in self.used]
            if live and 2 * len(live) >= len(rows):
                continue
            for key, *place in live:
                raw = self._raw((pack, *place))
                if raw is not None and _body(key, raw) is not None:
                    self._new.setdefault(key, raw)
            removed += len(rows) - len(live)
            for suffix in (INDEX, PACK):  # the index first: it never names a missing pack
                with contextlib.suppress(OSError):
                    (self.folder / f"{pack}{suffix}").unlink()
        self._places = None
        self.flush()
        return removed
