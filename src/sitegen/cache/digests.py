"""Digests of input files, stat first: a file whose stat is as recorded is not read again.

As git's index does, each file's (size, mtime_ns, ctime_ns, inode) is kept with the digest of
its bytes (`.sitegen-cache/digests.json`, a signed cache file). A file whose stat is the one
recorded is taken at the recorded digest; any other is read and hashed. A file written in the
same timestamp tick as its entry was recorded could change again without its stat changing,
so an entry is trusted only when the file's mtime and ctime are at least RACY_NS older than
the moment it was recorded ("racy" entries, as git calls them): a racy file is hashed again
(and recorded anew, to be trusted once it is old).
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from .files import read_signed, write_signed
from .trust import cache_folder

KIND = "digests"
VERSION = 1
RACY_NS = 2_000_000_000  # a file changed this close to its recording is hashed again
FILE = "digests.json"


def file_digest(raw: bytes) -> str:
    """The digest of a file's bytes (an input, an output, a cache segment): what later builds
    compare to know it did not change."""
    # SHA-256, cut to 160 bits: 2.5 times blake2b's speed where the CPU has SHA instructions
    return hashlib.sha256(raw).hexdigest()[:40]


def stat_key(st: os.stat_result) -> list[int]:
    """What must stay the same for a file's bytes to be taken as unchanged."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


class FileDigests:
    """Site file name -> (stat, digest) as last recorded. `path` None: records nothing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        # name -> [size, mtime_ns, ctime_ns, inode, recorded_ns, digest]
        self.entries: dict[str, list] = {}
        self.seen: set[str] = set()
        self.changed = False
        stored = read_signed(path, KIND, VERSION) if path is not None else None
        if isinstance(stored, dict) and isinstance(stored.get("files"), dict):
            self.entries = {
                name: entry
                for name, entry in stored["files"].items()
                if isinstance(entry, list) and len(entry) == 6 and isinstance(entry[5], str)
            }

    @classmethod
    def for_site(cls, site_root: Path) -> FileDigests:
        """The site's table, or one that records nothing when the site has no cache folder."""
        folder = cache_folder(site_root)
        return cls(folder / FILE if folder is not None else None)

    def known(self, name: str, st: os.stat_result) -> str | None:
        """The recorded digest of `name` if `st` is its recorded stat and was not racy."""
        entry = self.entries.get(name)
        if entry is None or entry[:4] != stat_key(st):
            return None
        if max(st.st_mtime_ns, st.st_ctime_ns) + RACY_NS > entry[4]:
            return None
        self.seen.add(name)
        return entry[5]

    def record(self, name: str, st: os.stat_result, digest: str, stat_ns: int) -> None:
        """`digest` is of the bytes of `name` read after `st` was taken at `stat_ns`."""
        self.seen.add(name)
        entry = [*stat_key(st), stat_ns, digest]
        if self.entries.get(name) != entry:
            self.entries[name] = entry
            self.changed = True

    def keep(self, name: str) -> None:
        """`name` is looked at by another reader of this table, which records it: its entry is
        not dropped as gone by save()."""
        self.seen.add(name)

    def digest(self, name: str, path: Path | str) -> str:
        """The digest of the file at `path`: as recorded when its stat is, else read and hashed.

        Raises OSError when it cannot be read.
        """
        stat_ns = time.time_ns()  # before the stat: a later change is newer than the record
        st = os.stat(path)
        if (known := self.known(name, st)) is not None:
            return known
        digest = file_digest(Path(path).read_bytes())
        self.record(name, st, digest, stat_ns)
        return digest

    def save(self, scope: str = "") -> None:
        """Write the table if it changed; entries under `scope` (a name prefix) that were not
        seen this time are dropped (their files are gone)."""
        gone = [n for n in self.entries if n.startswith(scope) and n not in self.seen]
        for name in gone:
            del self.entries[name]
        if self.path is not None and (self.changed or gone):
            write_signed(self.path, KIND, VERSION, {"files": self.entries}, nonfinite=False)
            self.changed = False
