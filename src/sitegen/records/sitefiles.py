"""Reading only the site's own files: sitegen.yaml, data/, content/ and templates/.

A pull request can add a link (`content/faq/x.md -> /etc/passwd`, or `-> ../.git/config`,
where CI keeps its token); following it would publish the machine's files. A link is read only
when its target lies inside one of the site's input folders; any other link is an error naming
the link, and its target is never opened, so none of its bytes reach a page or a message. Only
regular files are read: a named pipe would block a build for ever.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

from ..layout import SiteLayout
from .problems import Problem, Problems

LEAVES = (
    "a link to outside the site's data/, content/ and templates/ folders: sitegen reads no "
    "file outside them, and did not read this one"
)
NOT_REGULAR = "not a regular file (a pipe, socket or device), not read"
BROKEN = "cannot read: a link to a file that does not exist"
LOOP = "cannot read: a link that never reaches a file (a loop of links)"


def suffix_of(name: str) -> str:
    """A file name's suffix as pathlib gives it (".yaml"; "" for ".hidden" or "name."),
    without making a path."""
    i = name.rfind(".")
    return name[i:] if 0 < i < len(name) - 1 else ""


def run_suffixed(name: str) -> bool:
    """Whether a file name has a run file's suffix, in any case (the walk of data/runs/ tells
    of one not in lowercase)."""
    return suffix_of(name).lower() in SiteLayout.RUN_SUFFIXES


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class SiteFiles:
    """Which files of one site may be read, and a walk over them."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.met_links = False  # whether a walk met a link (to a file or a folder)
        self._real_folders: dict[str, str] = {}
        self.real_root = os.path.realpath(self.root)
        layout = SiteLayout(self.root)
        # each input folder as it resolves, if it stays inside the site (the site folder
        # itself is no input folder: a link `data -> .` would open .git/ and public/)
        self.regions = [
            real
            for name in SiteLayout.SOURCE_FOLDERS
            if _inside(real := os.path.realpath(layout.root / name), self.real_root)
            and real != self.real_root
        ]
        config = os.path.realpath(layout.config)
        self.config_ok = config == os.path.join(self.real_root, SiteLayout.CONFIG) or any(
            _inside(config, region) for region in self.regions
        )

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def allows(self, path: Path) -> bool:
        """True when reading `path` (following its links) stays inside an input folder."""
        if path == self.root / SiteLayout.CONFIG:
            return self.config_ok
        if path.name in ("", ".", "..") or os.path.islink(path):
            real = os.path.realpath(path)
        else:  # not a link: it resolves to its folder's real path and its name
            real = os.path.join(self._real_folder(os.fspath(path.parent)), path.name)
        return any(_inside(real, region) for region in self.regions)

    def _real_folder(self, folder: str) -> str:
        """os.path.realpath of a folder, found once per folder (an lstat per part of it)."""
        real = self._real_folders.get(folder)
        if real is None:
            real = self._real_folders[folder] = os.path.realpath(folder)
        return real

    def check(self, path: Path, problems: Problems) -> bool:
        """A file about to be read: inside the site and a regular file (or missing: the
        reader says so). A problem naming the file otherwise."""
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            return True
        if not self.allows(path):
            problems.add(Problem(self.rel(path), None, "", LEAVES))
            return False
        if stat.S_ISLNK(mode):
            try:
                mode = os.stat(path).st_mode
            except OSError as exc:
                problem = LOOP if exc.errno == errno.ELOOP else BROKEN
                problems.add(Problem(self.rel(path), None, "", problem))
                return False
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            problems.add(Problem(self.rel(path), None, "", NOT_REGULAR))
            return False
        return True

    def walk(
        self,
        folder: Path,
        problems: Problems,
        wanted: Callable[[str], bool] = lambda name: True,
        skipped: Callable[[str], bool] = lambda name: False,
    ) -> list[Path]:
        """Every regular file under `folder` whose name `wanted` wants, sorted; folders whose
        name is `skipped` are not entered.

        Links are followed while they stay inside the site's input folders; a link leaving
        them, a broken link or a file that is not regular is a problem (for folders always,
        for files when wanted). Paths are as the site names them, links not resolved.
        """
        return [self.root / name for name in self.walk_names(folder, problems, wanted, skipped)]

    def walk_names(
        self,
        folder: Path,
        problems: Problems,
        wanted: Callable[[str], bool] = lambda name: True,
        skipped: Callable[[str], bool] = lambda name: False,
    ) -> list[str]:
        """walk()'s files as their names in the site ("data/runs/a.yaml"), in its order: no
        Path made for a plain file (a big site has tens of thousands)."""
        found: list[str] = []
        if not folder.is_dir() or not self.check(folder, problems):
            return found
        self.met_links |= folder.is_symlink()
        seen: set[str] = set()
        pending = [(os.fspath(folder), self.rel(folder) + "/")]
        while pending:
            here, prefix = pending.pop()
            real = os.path.realpath(here)
            if real in seen:  # a folder reached twice (a link to a parent): walked once
                continue
            seen.add(real)
            # a regular file (not a link) in a folder that resolves inside an input folder is
            # inside it too: the folder's check stands for the file's, with no stat of its own
            folder_ok = any(_inside(real, region) for region in self.regions)
            try:
                entries = sorted(os.scandir(here), key=lambda e: e.name)
            except OSError as exc:
                problems.add(Problem(prefix[:-1], None, "", f"cannot read: {exc.strerror}"))
                continue
            for entry in entries:
                name = entry.name
                self.met_links |= entry.is_symlink()
                try:
                    is_dir = entry.is_dir()  # a folder, or a link to one
                except OSError:  # a loop of links: a folder or a file, none can tell
                    self.check(Path(entry.path), problems)
                    continue
                if is_dir:
                    if not skipped(name) and self.check(Path(entry.path), problems):
                        pending.append((entry.path, prefix + name + "/"))
                    continue
                if not wanted(name):
                    continue
                if folder_ok and entry.is_file(follow_symlinks=False):
                    found.append(prefix + name)  # the directory entry's type: no stat needed
                elif entry.is_symlink() and not os.path.lexists(os.path.realpath(entry.path)):
                    problems.add(Problem(prefix + name, None, "", BROKEN))
                elif self.check(Path(entry.path), problems):
                    found.append(prefix + name)
        # in the order of their paths (by part: "a/x" before "a-b/x", as Path sorts them)
        return sorted(found, key=lambda name: name.split("/"))
