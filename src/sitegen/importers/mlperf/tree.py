"""Where things are in an MLPerf Inference results tree, as MLCommons publishes it:
`<root>/closed/<submitter>/results/<system>/<benchmark>/<scenario>/performance/run_1/`,
`<root>/closed/<submitter>/systems/<system>.json`, `<root>/summary_results.json`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common import read_result

SUMMARY_FILE = "mlperf_log_summary.txt"
PERFORMANCE_RUN = ("performance", "run_1")
SUMMARY_RESULTS = "summary_results.json"
DIVISION = "closed"  # the tree root's division read: open results may change the model
SCENARIOS = ("Server", "Interactive", "Offline", "SingleStream", "MultiStream")


@dataclass(frozen=True)
class Result:
    """One result folder: closed/<submitter>/results/<system>/<benchmark>/<scenario>."""

    division: str
    submitter: str
    system: str
    benchmark: str
    scenario: str
    folder: Path  # as the user can find it (RESULTS_DIR / ...)

    @property
    def location(self) -> str:
        """Its place in the tree, as summary_results.json's `Location` writes it."""
        parts = (self.division, self.submitter, "results", self.system)
        return "/".join((*parts, self.benchmark, self.scenario))

    @property
    def summary(self) -> Path:
        return self.folder.joinpath(*PERFORMANCE_RUN, SUMMARY_FILE)

    @property
    def submitter_folder(self) -> Path:
        return self.folder.parents[3]

    @property
    def system_file(self) -> Path:
        return self.submitter_folder / "systems" / f"{self.system}.json"

    @property
    def measurements_folder(self) -> Path:
        parts = ("measurements", self.system, self.benchmark, self.scenario)
        return self.submitter_folder.joinpath(*parts)


@dataclass(frozen=True)
class Tree:
    """A results tree as given: its root (the folder holding closed/) and its submitters."""

    root: Path
    submitters: tuple[Path, ...]


def _folders(path: Path) -> list[Path]:
    """The sub-folders of `path`, sorted, hidden ones and symbolic links aside."""
    try:
        entries = sorted(path.iterdir())
    except OSError:
        return []
    return [p for p in entries if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")]


def _is_submitter(path: Path) -> bool:
    return (path / "results").is_dir()


def find_tree(path: Path) -> Tree | None:
    """The tree `path` is: its root (holding closed/), a division (closed/) or one
    submitter's folder; None if it is none of these."""
    if (path / DIVISION).is_dir():
        return Tree(path, tuple(p for p in _folders(path / DIVISION) if _is_submitter(p)))
    if _is_submitter(path):
        return Tree(path.parent.parent, (path,))
    submitters = tuple(p for p in _folders(path) if _is_submitter(p))
    if submitters:
        return Tree(path.parent, submitters)
    return None


def results(tree: Tree) -> Iterator[Result]:
    """Every result folder of the tree, in path order."""
    for submitter in tree.submitters:
        for system in _folders(submitter / "results"):
            for benchmark in _folders(system):
                for scenario in _folders(benchmark):
                    if scenario.name in SCENARIOS:
                        yield Result(
                            division=submitter.parent.name,
                            submitter=submitter.name,
                            system=system.name,
                            benchmark=benchmark.name,
                            scenario=scenario.name,
                            folder=scenario,
                        )


def summary_rows(tree: Tree) -> tuple[dict[str, dict], str | None]:
    """summary_results.json's rows by `Location` (none without the file), and why the file
    could not be read, if it is there but unreadable."""
    path = tree.root / SUMMARY_RESULTS
    if not path.is_file():
        return {}, None
    try:
        rows = json.loads(read_result(path, follow_links=False).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return {}, f"not read: {exc}"
    if not isinstance(rows, list):
        return {}, "not read: expected a list of rows"
    return {
        str(row["Location"]).strip("/"): row
        for row in rows
        if isinstance(row, dict) and isinstance(row.get("Location"), str)
    }, None


def read_json_object(path: Path) -> tuple[dict[str, Any] | None, str]:
    """A JSON object from `path`, or None and why not."""
    try:
        obj = json.loads(read_result(path, follow_links=False).decode("utf-8"))
    except FileNotFoundError:
        return None, "missing"
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, f"not read: {exc}"
    if not isinstance(obj, dict):
        return None, "not read: expected a JSON object"
    return obj, ""


def measured_precision(result: Result) -> str | None:
    """`weight_data_types` of the result's measurements/ JSON, where the tree has one."""
    for path in sorted(result.measurements_folder.glob("*.json")):
        obj, _ = read_json_object(path)
        value = obj.get("weight_data_types") if obj else None
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None
