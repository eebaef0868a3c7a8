"""Writing the output tree: files made into a staging folder, then put in place at once.

A build opens a `Staging` beside the output folder before it makes anything. Each output is
handed to `Staging.put` as it is made, in whichever process makes it: a file whose bytes the
last build's manifest shows unchanged on disk is not written at all; any other is written into
the staging folder. Nothing touches the output folder until `commit`, after every check passed:

- **in place**, when the output folder is the one the manifest describes (the usual rebuild):
  each new file is moved over its old self (one rename: a reader sees the old file or the new
  one, never half of it), files no longer produced are removed, and the files left as they
  were keep their bytes, inode and mtime, so rsync, CDNs and browsers see what changed;
- **by swap** otherwise (a first build, a build without the cache, an output folder changed
  behind the manifest's back): the staged tree is completed with hard links to the unchanged
  files and exchanged with the old output in one step (Linux renameat2 with RENAME_EXCHANGE,
  macOS renamex_np with RENAME_SWAP), so the output folder never goes missing, not even for a
  moment; where neither exists two renames do it, the old folder put back if the second fails.

A failure before the commit leaves the output folder exactly as it was. Builds into one output
folder hold a lock file beside it (`.<name>.lock`, flock) from staging to commit: a second
build fails at once with a clear message instead of racing the first. Staging folders left by a
build that was killed are removed by the next one, under that lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: builds into one folder are not kept apart
    fcntl = None  # type: ignore[assignment]

from ..cache.digests import file_digest as digest
from ..cache.manifest import Entry, Manifest
from ..layout import SiteLayout

# how a staged file is opened: made, or emptied if staged before (the staging folder is this
# build's own, and no link is followed into it)
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)

# Left in every output folder, so that a later build knows the folder is its own to replace.
MARKER = ".sitegen-output"
MARKER_TEXT = (
    b"Written by `sitegen build`: its output folder, which each build updates or replaces.\n"
)


@dataclass(frozen=True)
class Kept:
    """An output not made again: the file the last build left, carried over as it is."""


KEPT = Kept()


@dataclass(frozen=True)
class Stored:
    """An output made and handed to `Staging.put`: its entry, and whether it was staged."""

    entry: Entry
    staged: bool  # False: the output folder holds these bytes already


@dataclass(frozen=True)
class Written:
    manifest: Manifest  # what the output folder holds now
    rewritten: tuple[str, ...]  # files written anew (the others kept, bytes and mtime)


class OutputError(OSError):
    """Writing the output failed (the staging folder, a commit, the lock); `partly` when some
    of the new files are in the output folder already."""

    partly = False


class Staging:
    """One build's output on its way into `out_dir`; a context that holds the folder's lock.

    `put` may be called from forked worker processes: it writes only below the staging folder
    and returns what the parent needs to know. `commit` puts the outputs in place; leaving the
    context without it (an error) removes the staging folder and leaves `out_dir` untouched.
    The manifest of the last build (`previous`) may be given once the lock is held. Failures
    of the disk are raised as OutputError.
    """

    def __init__(self, out_dir: Path, previous: Manifest | None = None) -> None:
        self.out_dir = out_dir.resolve()
        self.previous = previous if previous is not None else Manifest(self.out_dir)
        self.root = Path()  # the staging folder, made on entry
        self._folders = {""}  # the folders of the staging folder made so far ("": itself)
        self._lock: contextlib.ExitStack | None = None

    def __enter__(self) -> Staging:
        with _as_output_error(), contextlib.ExitStack() as stack:
            self.out_dir.parent.mkdir(parents=True, exist_ok=True)
            stack.enter_context(_only_build(self.out_dir))
            _remove_leftovers(self.out_dir)
            prefix = f".{self.out_dir.name}.new-"
            self.root = Path(tempfile.mkdtemp(prefix=prefix, dir=self.out_dir.parent))
            stack.callback(shutil.rmtree, self.root, ignore_errors=True)
            self._lock = stack.pop_all()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._lock is not None:
            self._lock.close()  # the staging folder removed (empty after a commit), unlocked
            self._lock = None

    def put(self, rel: str, data: bytes) -> Stored:
        """Stage `data` as the output `rel`, unless the output folder holds these bytes."""
        new_digest = digest(data)
        if rel != MARKER and self.previous.unchanged(rel, new_digest) is not None:
            return Stored(self.previous.entries[rel], staged=False)
        if not _safe(rel):  # output/paths.py refuses it, and the build, before any commit
            return Stored(Entry(new_digest, len(data), 0), staged=False)
        with _as_output_error():
            info = self._write(rel, data)
        return Stored(Entry(new_digest, info.st_size, info.st_mtime_ns), staged=True)

    def source(self, rel: str, out: Stored | Kept) -> Path:
        """The file that holds output `rel` before the commit: the staged one, or the output
        folder's (kept, or holding these bytes already)."""
        if isinstance(out, Stored) and out.staged:
            return self.root / rel
        return self.out_dir / rel

    def scratch(self) -> tempfile.TemporaryDirectory[str]:
        """An empty folder beside the output folder (its file system: outputs can be linked
        into it), removed on leaving it or, after a build that was killed, by the next one."""
        return tempfile.TemporaryDirectory(
            prefix=f".{self.out_dir.name}.new-", dir=self.out_dir.parent
        )

    def commit(self, files: Mapping[str, Stored | Kept]) -> Written:
        """Make the output folder hold exactly `files` (and the marker).

        The marker is staged anew every time and moved in first: a commit in place that fails
        half way leaves a marker the manifest does not describe, so the next build replaces the
        folder whole instead of trusting what it holds.
        """
        files = {MARKER: self.put(MARKER, MARKER_TEXT), **files}
        manifest = Manifest(self.out_dir)
        # a kept file keeps its entry (found intact when the plan kept it; a swap checks again
        # as it links): all of them copied at once, then the made ones and the gone ones
        gone = sorted(self.previous.entries.keys() - files.keys())
        manifest.entries = dict(self.previous.entries)
        for rel in gone:
            del manifest.entries[rel]
        staged = []  # the marker first
        for rel, out in files.items():
            if isinstance(out, Stored):
                manifest.entries[rel] = out.entry
                if out.staged:
                    staged.append(rel)
        with _as_output_error() as failed:
            if self._in_place_ready() and self._targets_ready(staged, gone):
                failed.partly = True
                self._place(staged, gone)
            else:
                self._complete(files)
                os.chmod(self.root, 0o755)
                _swap(self.root, self.out_dir)
        return Written(manifest, tuple(sorted(rel for rel in staged if rel != MARKER)))

    def _write(self, rel: str, data: bytes) -> os.stat_result:
        """Stage `data` as the file `rel` (a path _safe takes) and return its stat: one open,
        write and fstat, its folder made the first time a file goes into it. A folder made
        once and removed since is made again."""
        folder, path = rel.rpartition("/")[0], os.path.join(self.root, rel)
        self._folder(folder)
        try:
            fd = os.open(path, _WRITE, 0o666)
        except FileNotFoundError:
            self._forget(folder)
            self._folder(folder)
            fd = os.open(path, _WRITE, 0o666)
        try:
            with open(fd, "wb", closefd=False) as file:
                file.write(data)  # all of it: a buffered file writes until done
            return os.fstat(fd)
        except OSError as exc:
            if exc.filename is None:  # named by its file, as an error of open is
                exc.filename = path
            raise
        finally:
            os.close(fd)

    def _folder(self, folder: str) -> None:
        """Make the staging folder's `folder` ("a/b", "" for itself), its parents first, once."""
        if folder in self._folders:
            return
        self._folder(folder.rpartition("/")[0])
        path = os.path.join(self.root, folder)
        try:
            os.mkdir(path)
        except FileExistsError:
            if not os.path.isdir(path):
                raise
        self._folders.add(folder)

    def _forget(self, folder: str) -> None:
        """`folder` and its parents no longer known to be made."""
        while folder:
            self._folders.discard(folder)
            folder = folder.rpartition("/")[0]

    def _in_place_ready(self) -> bool:
        """Whether the output folder is the one the manifest describes: then it is updated in
        place, else replaced whole."""
        try:
            real = stat.S_ISDIR(os.lstat(self.out_dir).st_mode)
        except OSError:
            return False
        return real and bool(self.previous.entries) and self.previous.intact(MARKER) is not None

    def _targets_ready(self, staged: list[str], gone: list[str]) -> bool:
        """Every folder a file is moved into is a real one (made where missing), and so is
        every folder a file is removed from: no link, so nothing outside the output folder is
        touched; and no folder stands where a file goes or goes away. False (the tree is then
        replaced whole) when one is not."""
        folders = _Folders(self.out_dir)
        try:
            for rel in staged:
                folders.enter(rel.rpartition("/")[0], make=True)
            if not all(folders.enter(rel.rpartition("/")[0], make=False) for rel in gone):
                return False
            return not any(_is_folder(self.out_dir / rel) for rel in (*staged, *gone))
        except OSError:
            return False

    def _place(self, staged: list[str], gone: list[str]) -> None:
        """Move the staged files over the old ones (in order: the marker first); remove what
        is no longer produced. Files no build wrote (added by hand) are left where they are."""
        for rel in staged:
            os.replace(self.root / rel, self.out_dir / rel)
        for rel in gone:
            with contextlib.suppress(FileNotFoundError, NotADirectoryError):
                os.unlink(self.out_dir / rel)
        _remove_empty_folders(self.out_dir, gone)

    def _complete(self, files: Mapping[str, Stored | Kept]) -> None:
        """Fill the staged tree with the files that were not staged: links to the old ones."""
        for rel, out in sorted(files.items()):
            if isinstance(out, Stored) and out.staged:
                continue
            self._folder(rel.rpartition("/")[0])
            _carry(self.previous, rel, self.root / rel)


class _Folders:
    """Folders of the output, each checked once to be a real folder (never a link)."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.real: set[str] = {""}

    def enter(self, rel_folder: str, make: bool) -> bool:
        """Whether `rel_folder` is a real folder (made where missing, with `make`; False
        where missing without); NotADirectoryError where a link or a file is on the way."""
        if rel_folder in self.real:
            return True
        parent = rel_folder.rpartition("/")[0]
        if not self.enter(parent, make):
            return False
        path = self.out_dir / rel_folder
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            if not make:
                return False
            path.mkdir()
            mode = stat.S_IFDIR
        if not stat.S_ISDIR(mode):
            raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(path))
        self.real.add(rel_folder)
        return True


class _Failure:
    partly = False


@contextlib.contextmanager
def _as_output_error() -> Iterator[_Failure]:
    """An OSError inside as an OutputError (the same errno, text and file name)."""
    failure = _Failure()
    try:
        yield failure
    except OutputError:
        raise
    except OSError as exc:
        error = OutputError(exc.errno, exc.strerror or str(exc), exc.filename)
        error.partly = failure.partly
        raise error from exc


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _safe(rel: str) -> bool:
    """A path output/paths.py takes (so that writing it stays inside the staging folder)."""
    from .paths import shape_problem

    return not shape_problem(rel)[0]


def _remove_empty_folders(out_dir: Path, removed: list[str]) -> None:
    """The folders that removing these files left empty, deepest first."""
    folders = {rel.rsplit("/", 1)[0] for rel in removed if "/" in rel}
    for folder in sorted(folders, key=lambda f: -f.count("/")):
        while folder:
            try:
                os.rmdir(out_dir / folder)  # fails on a folder that still holds something
            except OSError:
                break
            folder = folder.rpartition("/")[0]


def write_tree(
    out_dir: Path, files: dict[str, bytes | Kept], previous: Manifest | None = None
) -> Written:
    """Make `out_dir` hold exactly `files` (bytes, or KEPT for a file the last build left
    intact); on any failure the old tree stays as it was."""
    with Staging(out_dir, previous) as staging:
        stored = {
            rel: data if isinstance(data, Kept) else staging.put(rel, data)
            for rel, data in files.items()
        }
        return staging.commit(stored)


def _carry(previous: Manifest, rel: str, target: Path) -> None:
    """Put the last build's `rel` at `target`: a hard link, or a copy with its mtime."""
    old = previous.intact(rel)
    if old is None:
        where = str(previous.out_dir / rel)
        raise FileNotFoundError(errno.ENOENT, "changed while the build ran; build again", where)
    if not _link(old, target):
        shutil.copy2(old, target)


def _link(old: str | Path, target: Path) -> bool:
    try:
        os.link(old, target)
    except OSError:  # a file system without hard links: the file is written instead
        return False
    return True


class Busy(OutputError):
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
