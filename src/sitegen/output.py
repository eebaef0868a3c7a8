"""Writing the output tree: everything into a temporary folder, then one swap into place.

The swap exchanges the staged folder and the old output in one step (Linux renameat2 with
RENAME_EXCHANGE, macOS renamex_np with RENAME_SWAP), so the output folder never goes missing,
not even for a moment; where neither exists (other systems, file systems without it) two
renames do it, the old folder put back if the second fails. Builds into one output folder
hold a lock file beside it (`.<name>.lock`, flock): a second build fails at once with a clear
message instead of racing the first. Staging folders left by a build that was killed are
removed by the next one, under that lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: builds into one folder are not kept apart
    fcntl = None  # type: ignore[assignment]

from .layout import SiteLayout
from .manifest import Entry, Manifest, digest

# Left in every output folder, so that a later build knows the folder is its own to replace.
MARKER = ".sitegen-output"
MARKER_TEXT = b"Written by `sitegen build`; every build replaces this folder whole.\n"


@dataclass(frozen=True)
class Kept:
    """An output not made again: the file the last build left, carried over as it is."""


KEPT = Kept()


@dataclass(frozen=True)
class Written:
    manifest: Manifest  # what the output folder holds now
    rewritten: tuple[str, ...]  # files written anew (the others kept, bytes and mtime)


def write_tree(
    out_dir: Path, files: dict[str, bytes | Kept], previous: Manifest | None = None
) -> Written:
    """Replace `out_dir` with exactly `files`; on any failure the old tree stays as it was.

    The new tree is staged beside the old one and swapped in at once. A file whose bytes the
    `previous` manifest shows unchanged on disk is hard-linked from the old tree instead of
    written: its mtime stays, so rsync, CDNs and browsers see that it did not change. So is a
    file given as KEPT, which the caller found intact (`previous.intact`) and did not make
    again. A file no longer produced is not in the new tree.
    """
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with _only_build(out_dir):
        _remove_leftovers(out_dir)
        return _write(out_dir, files, previous)


def _write(out_dir: Path, files: dict[str, bytes | Kept], previous: Manifest | None) -> Written:
    previous = previous if previous is not None else Manifest(out_dir)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    manifest = Manifest(out_dir)
    rewritten: list[str] = []
    try:
        made: set[Path] = set()
        for rel, data in sorted({**files, MARKER: MARKER_TEXT}.items()):
            target = staging / rel
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            if isinstance(data, Kept):
                _carry(previous, rel, target)
                manifest.entries[rel] = previous.entries[rel]
                continue
            new_digest = digest(data)
            old = previous.unchanged(rel, new_digest)
            if old is None or not _link(old, target):
                target.write_bytes(data)
                if rel != MARKER:
                    rewritten.append(rel)
            stat = target.stat()
            manifest.entries[rel] = Entry(new_digest, stat.st_size, stat.st_mtime_ns)
        os.chmod(staging, 0o755)
        _swap(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Written(manifest, tuple(rewritten))


def _carry(previous: Manifest, rel: str, target: Path) -> None:
    """Put the last build's `rel` at `target`: a hard link, or a copy with its mtime."""
    old = previous.intact(rel)
    if old is None:
        where = str(previous.out_dir / rel)
        raise FileNotFoundError(errno.ENOENT, "changed while the build ran; build again", where)
    if not _link(old, target):
        shutil.copy2(old, target)


def _link(old: Path, target: Path) -> bool:
    try:
        os.link(old, target)
    except OSError:  # a file system without hard links: the file is written instead
        return False
    return True


class Busy(OSError):
    """Another build holds the output folder's lock."""


@contextlib.contextmanager
def _only_build(out_dir: Path) -> Iterator[None]:
    """Hold the lock of `out_dir` (a file beside it) while writing; Busy if another build does.

    The lock file stays: removing it would let a third build lock a file no one else sees.
    """
    if fcntl is None:
        yield
        return
    lock = out_dir.parent / f".{out_dir.name}.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(
                errno.EBUSY,
                "another sitegen build is writing this output folder now; wait for it to end, "
                "or give each build its own --out",
                str(lock),
            ) from None
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _leftover(out_dir: Path) -> re.Pattern[str]:
    # the names tempfile.mkdtemp gives staging folders: 8 characters of [a-z0-9_]
    return re.compile(rf"\.{re.escape(out_dir.name)}\.(?:new|old)-[a-z0-9_]{{8}}\Z")


def _remove_leftovers(out_dir: Path) -> None:
    """Staging folders of builds that were killed before they could remove them."""
    pattern = _leftover(out_dir)
    with contextlib.suppress(OSError):
        for entry in os.scandir(out_dir.parent):
            if pattern.match(entry.name) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # Linux renameat2
_RENAME_SWAP = 2  # macOS renamex_np


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one step; False where the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    if hasattr(libc, "renameat2"):
        result = libc.renameat2(
            _AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), ctypes.c_uint(_RENAME_EXCHANGE)
        )
    elif hasattr(libc, "renamex_np"):
        result = libc.renamex_np(os.fsencode(a), os.fsencode(b), ctypes.c_uint(_RENAME_SWAP))
    else:
        return False
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # an old kernel or a file system without it: two renames instead
    raise OSError(code, os.strerror(code), str(b))


def _swap(staging: Path, out_dir: Path) -> None:
    if not os.path.lexists(out_dir):
        staging.rename(out_dir)
        return
    if _exchange(staging, out_dir):
        shutil.rmtree(staging, ignore_errors=True)  # it holds the old tree now
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
    old.rmdir()
    out_dir.rename(old)
    try:
        staging.rename(out_dir)
    except BaseException:
        old.rename(out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)


def unsafe_out(site_root: Path, out: Path) -> str:
    """Why writing to `out` would destroy something (a build replaces the whole folder), or ''."""
    site, target = site_root.resolve(), out.resolve()
    if target.exists() and not target.is_dir():
        return f"{out} is a file; --out names the folder to write the site into"
    blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        return f"{blocking} is a file, so the folder {out} cannot be made"
    if target == site or target in site.parents:
        return f"{out} is the site folder or holds it; a build replaces its output folder entirely"
    for name in SiteLayout.SOURCE_FOLDERS:
        source = site / name
        if target == source or source in target.parents:
            return f"{out} is inside the site's {name}/; choose a folder of its own (e.g. public)"
    if target.is_dir() and any((target / name).exists() for name in (SiteLayout.CONFIG, ".git")):
        return (
            f"{out} holds a site or a git repository; a build replaces its output folder entirely"
        )
    if target.is_dir() and not (target / MARKER).is_file() and any(target.iterdir()):
        return (
            f"{out} holds files that sitegen did not write, and a build replaces its output "
            "folder entirely: empty it or choose another folder"
        )
    return ""
