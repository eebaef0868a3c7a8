"""What each job of the last build made, so that the next build can keep it without making it.

`.sitegen-cache/jobs.json` (a signed cache file, see cache/files.py) holds, per job of the plan,
its key (the digest of its inputs, views.keys), the output files it wrote, its pages' sitemap
rows and the chart cache entries its pages use, and names the output folder it describes.
Beside them: the plan's index of what each job read (views.replan.LastPlan.to_json) and the
digest of each data file the build loaded, from which the next build finds the jobs an
edited run file feeds.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..cache.files import read_signed, write_signed
from ..cache.trust import cache_folder
from ..layout import SiteLayout
from ..records.problems import Problem, Row

KIND = "jobs"
VERSION = 3
NAME = "jobs.json"


class JobRecord(NamedTuple):  # a tuple: tens of thousands are read back every build
    key: str
    outputs: tuple[str, ...]  # output paths, relative to the output folder
    sitemap: tuple[tuple[str, str | None], ...]  # (route, lastmod) of its pages in the sitemap
    charts: tuple[str, ...] = ()  # chart cache keys its pages show


@dataclass
class JobCache:
    out_dir: Path
    records: dict[str, JobRecord] = field(default_factory=dict)
    inputs: str | None = None  # fingerprint.site_inputs of the build that wrote the records
    problems: tuple[Problem, ...] = ()  # the warnings that build reported
    checked: str | None = None  # output.paths.list_digest of its output paths (they passed)
    plan: dict | None = None  # views.replan.LastPlan.to_json of its plan
    loaded: dict[str, str] = field(default_factory=dict)  # data file -> digest of what it loaded

    @staticmethod
    def location(site_root: Path) -> Path:
        return SiteLayout(site_root).cache / NAME

    @classmethod
    def read(cls, site_root: Path, out_dir: Path) -> JobCache:
        """The records of the last build into `out_dir`; none when there are none to trust."""
        out_dir = out_dir.resolve()
        if cache_folder(site_root) is None:
            return cls(out_dir)  # a cache folder that is not the site's own
        data = read_signed(cls.location(site_root), KIND, VERSION)
        try:
            if data.get("out") != str(out_dir):
                return cls(out_dir)
            # a signed file (cache/files.py) holds only what write() wrote: its shape is checked,
            # its strings are as written
            records = {
                name: JobRecord(key, tuple(outputs), tuple(map(tuple, rows)), tuple(charts))
                for name, (key, outputs, rows, charts) in data["jobs"].items()
            }
            inputs = data["inputs"] if isinstance(data["inputs"], str) else None
            checked = data.get("checked") if isinstance(data.get("checked"), str) else None
            problems = tuple(
                Problem(
                    str(file),
                    None if line is None else (Row if row else int)(line),
                    str(field_),
                    str(message),
                    str(severity),
                )
                for file, line, row, field_, message, severity in data["problems"]
            )
            plan = data["plan"] if isinstance(data["plan"], dict) else None
            loaded = {str(name): str(digest) for name, digest in data["loaded"].items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            return cls(out_dir)
        return cls(out_dir, records, inputs, problems, checked, plan, loaded)

    @classmethod
    def forget(cls, site_root: Path) -> None:
        """Drop the records before the output changes: they must never describe other files."""
        if SiteLayout(site_root).cache.is_symlink():
            return  # not the site's own: nothing is removed through it
        with contextlib.suppress(OSError):
            cls.location(site_root).unlink()

    def write(self, site_root: Path) -> None:
        if cache_folder(site_root) is None:
            return
        jobs = {name: tuple(r) for name, r in self.records.items()}  # arrays, as JSON has them
        problems = [
            [p.file, p.line, isinstance(p.line, Row), p.field, p.message, p.severity]
            for p in self.problems
        ]
        value = {
            "out": str(self.out_dir),
            "inputs": self.inputs,
            "checked": self.checked,
            "problems": problems,
            "jobs": jobs,
            "plan": self.plan,
            "loaded": self.loaded,
        }
        write_signed(self.location(site_root), KIND, VERSION, value, nonfinite=False)
