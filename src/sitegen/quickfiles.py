"""SiteFiles that resolve each folder once: the link check of a big site's files, in stats.

`SiteFiles.check` stats a file four times and resolves its path (`os.path.realpath`: an lstat
per part of the path). A regular file that is not a link resolves to its folder's real path
and its name, so here each folder is resolved once and such a file costs one lstat. Links, and
anything else, take SiteFiles' own check: what is allowed is unchanged.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .layout import SiteLayout
from .records.problems import Problems
from .sitefiles import SiteFiles, _inside


class QuickSiteFiles(SiteFiles):
    """SiteFiles, with each folder's real path found once."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._config = self.root / SiteLayout.CONFIG
        self._real_folders: dict[str, str] = {}

    def allows(self, path: Path) -> bool:
        """True when reading `path` (following its links) stays inside an input folder."""
        if path.name in ("", ".", "..") or path == self._config or os.path.islink(path):
            return super().allows(path)
        return self._in_region(path)

    def check(self, path: Path, problems: Problems) -> bool:
        """SiteFiles.check, in one lstat for a regular file that is not a link."""
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            return super().check(path, problems)
        plain = stat.S_ISREG(mode) and path.name not in ("", ".", "..") and path != self._config
        if plain and self._in_region(path):
            return True
        return super().check(path, problems)

    def _in_region(self, path: Path) -> bool:
        """Whether `path`, not a link, lies in an input folder once its folder is resolved."""
        folder = os.fspath(path.parent)
        real_folder = self._real_folders.get(folder)
        if real_folder is None:
            real_folder = self._real_folders[folder] = os.path.realpath(folder)
        real = os.path.join(real_folder, path.name)
        return any(_inside(real, region) for region in self.regions)
