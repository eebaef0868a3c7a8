"""`sitegen import FORMAT FILE... --out data/runs/<name>.yaml`: benchmark results -> run records.

`sitegen import mlperf RESULTS_DIR --out data/runs/mlperf/ --date ...` reads a results tree.

`--out x.parquet` (or `--format parquet`) puts them into one Parquet archive instead.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from ..importers import AUTO, FORMATS, Options, import_results
from ..importers.planning import SUFFIXES
from ..records import SiteError
from ..records.problems import plural, shown
from ._shared import report, site_option


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"expected YYYY-MM-DD, got {value!r}") from None


@click.command("import")
@click.argument("fmt", metavar="FORMAT", type=click.Choice([*FORMATS, AUTO]))
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(path_type=Path),
    help="The record to write (data/runs/<name>.yaml), a Parquet archive (.parquet) for them "
    "all, or a folder for inputs of several runs.",
)
@click.option(
    "--format",
    "record_format",
    type=click.Choice(list(SUFFIXES)),
    help="What to write: yaml, json or parquet (one archive). Default: what --out names; "
    "for a folder, yaml.",
)
@site_option("The site whose models, GPUs and workloads the record is checked against.")
@click.option("--model", help="Model slug of data/models.yaml, where the file does not say.")
@click.option("--gpu", help="GPU slug of data/gpus.yaml, where the file does not say.")
@click.option("--gpus", type=click.IntRange(min=1), help="GPUs serving the run.")
@click.option("--engine", help="Serving engine, e.g. vllm, sglang.")
@click.option("--precision", help="Weights precision, e.g. fp8, fp4.")
@click.option("--workload", help="Workload slug of data/workloads.yaml.")
@click.option("--source", help="Who measured, e.g. your team's name.")
@click.option(
    "--date", callback=_date, help="Date of the run, YYYY-MM-DD (mlperf: the round's publication)."
)
@click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    help="Concurrent requests, for a file that does not say.",
)
def import_(
    fmt: str,
    files: tuple[Path, ...],
    out: Path,
    record_format: str | None,
    site_dir: Path,
    **given: object,
) -> None:
    """Turn benchmark result FILEs (for mlperf: a results folder) into run records
    (formats: see docs/importing.md)."""

    options = Options(**given)  # type: ignore[arg-type]

    def chosen(name: str) -> None:
        if fmt == AUTO:
            click.echo(f"auto: read the files as {name} ({FORMATS[name].TITLE})", err=True)

    try:
        result = import_results(fmt, files, out, site_dir, options, chosen, record_format)
    except SiteError as exc:
        raise SiteError(exc.problems, f"{exc.summary}; nothing written") from None
    report(list(result.warnings))
    for path in result.written:
        verb = "updated" if path in result.merged else "wrote"
        click.echo(f"{'unchanged' if path in result.unchanged else verb} {shown(str(path))}")
    summary = f"imported {result.configs} configs into {plural(result.records, 'record')}"
    if result.already:
        summary += f" ({result.already} already there)"
    click.echo(summary)
