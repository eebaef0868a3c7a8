"""Writing the output tree: everything into a temporary folder, then one swap into place."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

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


def _swap(staging: Path, out_dir: Path) -> None:
    if not out_dir.exists():
        staging.rename(out_dir)
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
