"""The report of one run (a matrix's grids or a sweep's configs) and its data.json."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..charts import Chart, run_chart_data
from ..records import MatrixRun, Run
from ..records.columnar import ConfigValues
from ..records.credits import Credit, credits_for
from ..render import display
from .datafiles import pair_route, run_data_json
from .page import DataFile, Page, View
from .run_report import matrix_report, run_route, sweep_report
from .sources import Sources


@dataclass(frozen=True)
class RunView(View):
    report: Any  # runs.SweepReport or runs.MatrixReport
    chart: Chart | None
    model: Any
    gpu: Any
    pair_route: str
    credits: list[Credit]  # its source, linked where the importers know its site
    writeup: Markup | None
    description: str


def run_outputs(src: Sources, run: Run) -> tuple[Page, DataFile]:
    """The run's page and its data.json, from one reading of its configs (as values)."""
    site = src.site
    model, gpu = site.models[run.model], site.gpus[run.gpu]
    chart = None
    configs = None  # a sweep's configs, read from the table once for the three readers
    if isinstance(run, MatrixRun):
        report: Any = matrix_report(run, site)
        title = run.title
    else:
        configs = ConfigValues.of(run.configs)
        report = sweep_report(run, site, configs)
        engine = f"{display.engine_name(run.engine)} {display.precision_name(run.precision)}"
        title = f"{model.name} on {gpu.name}, {engine}, measured by {run.source}"
        if (data := run_chart_data(site, run, configs, report.figures)) is not None:
            chart = Chart("run", data)
    values = {"model": model, "gpu": gpu, "run": run, "site": src.site_values()}
    view = RunView(
        report=report,
        chart=chart,
        model=model,
        gpu=gpu,
        pair_route=pair_route(run.model, run.gpu),
        credits=credits_for([run.source]),
        writeup=src.copy(src.content.runs.get(run.id), values),
        description=f"{title}, {run.date.isoformat()}: {report.facts}",
    )
    page = Page(
        run_route(run.id),
        "run.html",
        title,
        view,
        lastmod=run.date.isoformat(),
        charts=(chart,) if chart is not None else (),
    )
    data_json = run_data_json(report.run, configs)
    return page, DataFile(run_route(run.id) + "data.json", data_json)
