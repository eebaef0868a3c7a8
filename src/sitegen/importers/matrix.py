"""A context x concurrency grid (llm-inference-bench) -> one `kind: matrix` record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..records import Problem, SiteError
from .common import MatrixResult, Measurement, Reading
from .planning import (
    ARCHIVE,
    Planned,
    Resolver,
    file_name,
    import_notes,
    measured_by,
    record_paths,
    tidy,
)

if TYPE_CHECKING:
    from pathlib import Path


def plan_matrix(
    fmt: str,
    readings: list[Reading],
    matrices: list[MatrixResult],
    resolver: Resolver,
    out: Path,
    suffix: str,
) -> list[Planned]:
    if suffix == ARCHIVE:
        message = (
            "a matrix run (a context x concurrency grid) cannot go into a Parquet archive, "
            "which holds sweeps; write it as .yaml or .json"
        )
        raise SiteError([Problem(str(out), None, "--out", message)])
    if len(matrices) > 1:
        raise SiteError(
            [Problem(matrices[1].file, None, "", "a matrix imports from one file at a time")]
        )
    grid = matrices[0]
    # The resolver works on measurements; a stand-in carries the grid's identity.
    stand_in = Measurement(file=grid.file, identity=grid.identity, config={})
    options = resolver.options
    key = resolver.key(stand_in, dated=True, with_workload=False)
    if options.gpus is None:
        resolver.gap(grid.file, "--gpus", "the file does not say the GPUs; give --gpus")
    source = measured_by(resolver, options, [stand_in])
    resolver.fail_if_gaps()
    record: dict[str, Any] = {
        "kind": "matrix",
        "source": source,
        "date": key.date,
        "model": key.model,
        "gpu": key.gpu,
        "gpus": options.gpus,
        "engine": key.engine,
    }
    if grid.identity.engine_version:
        record["engine_version"] = grid.identity.engine_version
    record["precision"] = key.precision
    record["notes"] = import_notes(fmt, readings, [grid.file], [])
    record["bench"] = tidy(grid.fields["bench"])
    if grid.fields["prefill"]:
        record["prefill"] = [tidy(row) for row in grid.fields["prefill"]]
    record["decode"] = [tidy(cell) for cell in grid.fields["decode"]]
    target = record_paths(out, [file_name(key, key.date)], suffix)[0]
    return [Planned(target, record, (grid.file,))]
