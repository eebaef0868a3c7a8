"""Where things are in a site folder: sitegen.yaml, data/, data/runs/, content/, templates/,
the cache and the default output folder. Nothing else names these places."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar


@dataclass(frozen=True)
class SiteLayout:
    """The places of one site folder; `SiteLayout(Path())` gives them relative to the site."""

    root: Path

    CONFIG: ClassVar[str] = "sitegen.yaml"
    # the input folders beside CONFIG: what a build reads, serve watches and --out must avoid
    SOURCE_FOLDERS: ClassVar[tuple[str, ...]] = ("data", "content", "templates")
    RECORD_SUFFIXES: ClassVar[tuple[str, ...]] = (".yaml", ".yml", ".json")  # one run record
    ARCHIVE_SUFFIX: ClassVar[str] = ".parquet"  # an archive of many sweeps, one row per config
    RUN_SUFFIXES: ClassVar[tuple[str, ...]] = (*RECORD_SUFFIXES, ARCHIVE_SUFFIX)
    RUNS_PREFIX: ClassVar[str] = "data/runs/"  # of run files' paths relative to the site
    CACHE: ClassVar[str] = ".sitegen-cache"
    DEFAULT_OUT: ClassVar[str] = "public"

    @property
    def config(self) -> Path:
        return self.root / self.CONFIG

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def runs(self) -> Path:
        return self.data / "runs"

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def cache(self) -> Path:
        return self.root / self.CACHE

    @property
    def public(self) -> Path:
        """Where `sitegen build` writes when --out is not given."""
        return self.root / self.DEFAULT_OUT

    def missing(self) -> str:
        """Why the root is not a site folder, as the message of a problem with CONFIG; ''
        when it is one. Every command says it in these words."""
        if self.config.is_file():
            return ""
        return f"not found in {self.root}: is this a site folder? (give --site DIR)"


def theme_dir() -> Path:
    """The built-in theme: inside the installed package, or the repository's templates/."""
    packaged = Path(__file__).parent / "theme"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "templates"
