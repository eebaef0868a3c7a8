"""Writing the output tree: everything into a temporary folder, then one swap into place."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .layout import SiteLayout

# Left in every output folder, so that a later build knows the folder is its own to replace.
MARKER = ".sitegen-output"
MARKER_TEXT = b"Written by `sitegen build`; every build replaces this folder whole.\n"


def write_tree(out_dir: Path, files: dict[str, bytes]) -> None:
    """Replace `out_dir` with exactly `files`; on any failure the old tree stays as it was."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    try:
        for rel, data in sorted({**files, MARKER: MARKER_TEXT}.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        os.chmod(staging, 0o755)
        _swap(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


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
