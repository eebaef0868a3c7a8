"""What the last build wrote, so that the next one rewrites only the files whose bytes changed.

Kept in the site's cache folder (`.sitegen-cache/output.json`) as plain JSON: for each output
file, the digest of its bytes and the size and modification time it had when written. A file
whose new bytes have the same digest, and which is still on disk as it was left, is not
written: it stays where it is (or, when the output is swapped whole, is carried over by a hard
link), same bytes, same mtime. The manifest is a
signed cache file (cache/files.py: an HMAC under this user's key) naming the output folder it
describes; a truncated, edited, foreign, unreadable or restored-from-elsewhere manifest is
ignored (every file is then written), never trusted.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import NamedTuple

from ..layout import SiteLayout
from .files import read_signed, write_signed
from .trust import cache_folder

KIND = "output"
VERSION = 2  # 2: columns (names, digests, sizes, mtimes), not a mapping of triples
NAME = "output.json"


class Entry(NamedTuple):  # a tuple: a manifest holds one per output file
    digest: str
    size: int
    mtime_ns: int


COLUMNS = ("names", "digests", "sizes", "mtimes")  # the manifest file's: a file a row


def _left_as(info: os.stat_result, entry: Entry) -> bool:
    """Whether a file's lstat is that of the regular file the last build left."""
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_size == entry.size
        and info.st_mtime_ns == entry.mtime_ns
    )


class Manifest:
    """Output path -> Entry of one output folder."""

    def __init__(self, out_dir: Path, entries: dict[str, Entry] | None = None) -> None:
        self.out_dir = out_dir.resolve()
        self._out = str(self.out_dir)
        self.entries = entries or {}

    def unchanged(self, rel: str, new_digest: str) -> str | None:
        """The file on disk that already holds these bytes, or None."""
        entry = self.entries.get(rel)
        if entry is None or entry.digest != new_digest:
            return None
        return self.intact(rel)

    def intact(self, rel: str) -> str | None:
        """The file on disk as the last build left it, or None (missing, or changed since)."""
        entry = self.entries.get(rel)
        if entry is None:
            return None
        path = f"{self._out}/{rel}"
        try:
            info = os.lstat(path)  # one call, and a link is not the file the build left
        except OSError:
            return None
        if not _left_as(info, entry):
            return None  # changed since, by hand or by another program: write it again
        return path  # its path (text: a build asks this of every output it keeps)

    def not_intact(self) -> list[str]:
        """The files that intact() finds missing or changed, all of them in one loop."""
        out, lstat, found = f"{self._out}/", os.lstat, []
        for rel, entry in self.entries.items():
            try:
                info = lstat(out + rel)
            except OSError:
                found.append(rel)
                continue
            if not _left_as(info, entry):
                found.append(rel)
        return found

    # -- on disk -----------------------------------------------------------------------------

    @staticmethod
    def location(site_root: Path) -> Path:
        return SiteLayout(site_root).cache / NAME

    @classmethod
    def read(cls, site_root: Path, out_dir: Path) -> Manifest:
        """The manifest of `out_dir`, or an empty one when there is none to trust."""
        empty = cls(out_dir)
        if cache_folder(site_root) is None:
            return empty  # a cache folder that is not the site's own, or nothing to sign with
        data = read_signed(cls.location(site_root), KIND, VERSION)
        try:
            if data.get("out") != str(out_dir.resolve()):
                return empty  # the manifest of another output folder
            # a signed file (cache/files.py) holds only what write() wrote: four columns of one
            # length, a file a row (67,800 rows made in half the time a mapping of lists takes)
            columns = [data[name] for name in COLUMNS]
            if not all(type(c) is list and len(c) == len(columns[0]) for c in columns):
                return empty
            names, *values = columns
            rows = map(Entry._make, zip(*values, strict=True))
            entries = dict(zip(names, rows, strict=True))
        except (ValueError, KeyError, TypeError, AttributeError):
            return empty
        return cls(out_dir, entries)

    def write(self, site_root: Path) -> None:
        """Record what `out_dir` holds now; a cache that cannot be written only costs time."""
        if cache_folder(site_root) is None:
            return
        entries = self.entries
        value = {
            "out": str(self.out_dir),
            "names": list(entries),
            **{name: [e[i] for e in entries.values()] for i, name in enumerate(COLUMNS[1:])},
        }
        write_signed(self.location(site_root), KIND, VERSION, value, nonfinite=False)
