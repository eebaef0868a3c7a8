"""MLPerf Inference results trees, as MLCommons publishes them (`sitegen import mlperf DIR`).

A tree is read, not a file: each result folder's LoadGen summary
(`closed/<submitter>/results/<system>/<benchmark>/<scenario>/performance/run_1/
mlperf_log_summary.txt`), its system's JSON (`closed/<submitter>/systems/<system>.json`) and,
where the tree has it, `summary_results.json`. Server and Interactive results are points of
one curve per submitter system; Offline has no latency and goes into the notes. A result that
cannot be imported (INVALID, no summary, a system without its GPU count, a GPU no entry of
data/gpus.yaml is, two GPU kinds) is a warning naming its folder or system file; the rest is
imported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...records import Catalogs, Problem, SiteError
from ..common import Measurement, Options, Reading
from .reader import WHAT_IS_READ, TreeReader, bench_of
from .tree import find_tree

NAME = "mlperf"
TITLE = "MLPerf Inference results tree"


def detect(obj: Any) -> bool:
    """Never one parsed file: an MLPerf result is a folder tree (see `is_tree`)."""
    return False


def is_tree(path: Path) -> bool:
    """Whether `path` is a results tree: the folder holding closed/, closed/, or a submitter's."""
    return path.is_dir() and find_tree(path) is not None


NOT_A_TREE = (
    "not an MLPerf Inference results tree: expected the folder holding closed/, closed/ "
    "itself, or one submitter's folder (closed/<submitter>/ with results/ and systems/)"
)


def read_tree(path: Path, options: Options, known: Catalogs) -> Reading:
    """Every importable result of the tree at `path`; the others as warnings."""
    if options.date is None:
        message = (
            "an MLPerf results tree does not say its date; give --date YYYY-MM-DD "
            "(the round's publication date)"
        )
        raise SiteError([Problem(str(path), None, "--date", message)])
    tree = find_tree(path)
    if tree is None:
        raise SiteError([Problem(str(path), None, "", NOT_A_TREE)])
    reader = TreeReader(tree, options, known)
    points = reader.read()
    if not points:
        none = Problem(str(path), None, "", "no Server or Interactive result could be imported")
        raise SiteError([*reader.warnings, none])
    measurements = tuple(
        Measurement(
            file=str(p.result.summary),
            identity=p.identity,
            config=p.config,
            notes=p.shared + reader.offline.get(bench_of(p.result), ()) + p.own,
            exact=True,
        )
        for p in points
    )
    return Reading(
        tool="MLPerf Inference LoadGen summaries",
        measurements=measurements,
        notes=(WHAT_IS_READ,),
        warnings=tuple(reader.warnings),
    )
