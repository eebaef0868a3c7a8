"""A run's report: the view of one run record (a matrix's grids or a sweep's configs) that
templates/run.html lays out, and its data.json."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from markupsafe import Markup

from ..calc.limits import FAILED, run_mbu
from ..charts import Chart, run_chart_data
from ..charts.run_chart import Figures, config_figures
from ..records import MatrixRun, Run, Site, SweepRun
from ..records.columnar import ConfigValues
from ..records.credits import Credit, credits_for
from ..render import display
from ..render.display import (
    DASH,
    context_tokens,
    engine_name,
    precision_name,
    significant,
    tokens,
)
from .datafiles import pair_route, run_data_json
from .page import DataFile, Page, View
from .sources import Sources

# A diverging scale, slow -> neutral -> fast; every stop is light enough that the page's text
# colour keeps a contrast above 7:1 on it (WCAG AAA), checked in tests.
SLOW_RGB = (244, 180, 140)
NEUTRAL_RGB = (247, 247, 247)
FAST_RGB = (140, 196, 232)
TEXT_RGB = (27, 31, 36)  # --fg in assets/style.css
LEGEND_STEPS = 5
# A grid whose values span more than this ratio is coloured on a log scale (TTFT: 0.09 s..21 s).
LOG_SCALE_RATIO = 10.0
HASH_VERSION = re.compile(r"\A[0-9a-f]{7,40}\Z")


def run_route(run_id: str) -> str:
    return f"runs/{run_id}/"


# -- colour ------------------------------------------------------------------------------------


def _mix(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, ...]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def _hex(rgb: tuple[int, ...]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def scale_colour(goodness: float) -> str:
    """0 = the grid's slowest cell, 1 = its fastest; 0.5 is neutral."""
    t = min(max(goodness, 0.0), 1.0)
    if t < 0.5:
        return _hex(_mix(SLOW_RGB, NEUTRAL_RGB, t * 2))
    return _hex(_mix(NEUTRAL_RGB, FAST_RGB, (t - 0.5) * 2))


def _luminance(rgb: tuple[int, ...]) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""
    fg, bg = (tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (foreground, background))
    hi, lo = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def goodness(values: Sequence[float], higher_is_better: bool) -> list[float]:
    """Each value's place between the grid's worst (0) and best (1) cell."""
    lo, hi = min(values), max(values)
    if hi == lo:
        return [0.5 for _ in values]
    log = lo > 0 and hi / lo > LOG_SCALE_RATIO
    f = math.log if log else (lambda v: v)
    span = f(hi) - f(lo)
    places = [(f(v) - f(lo)) / span for v in values]
    return places if higher_is_better else [1 - p for p in places]


# -- matrix runs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    text: str
    colour: str


@dataclass(frozen=True)
class Grid:
    """One context x concurrency table."""

    slug: str
    title: str
    note: str
    concurrencies: tuple[int, ...]
    rows: tuple[tuple[str, tuple[Cell, ...]], ...]  # (context label, cells)
    slow_label: str
    fast_label: str
    legend: tuple[str, ...]  # colours from slow to fast


@dataclass(frozen=True)
class SetupItem:
    label: str
    text: str


@dataclass(frozen=True)
class MatrixReport:
    run: MatrixRun
    facts: str
    setup: tuple[SetupItem, ...]
    canonical: tuple[tuple[str, str], ...]  # (label, value with unit)
    prefill: tuple[tuple[str, ...], ...]  # context, prompt tokens, TTFT, tok/s, tok/s per GPU
    grids: tuple[Grid, ...]


def whole(value: float) -> str:
    """115, 12,844: a count or a speed as the seed page prints it, no decimals."""
    return f"{round(value):,}"


def seconds_2(value: float) -> str:
    """0.64, 11.00: seconds with two decimals, as the matrix tables print them."""
    return f"{value:,.2f}"


def _quantity(value: float, unit: str) -> str:
    number = f"{int(value):,}" if float(value).is_integer() else f"{value:,g}"
    return f"{number} {unit}"


def _date_words(run: Run) -> str:
    return f"{run.date.day} {run.date:%B %Y}"


def _rated_w(run: MatrixRun, site: Site) -> float | None:
    rated = run.host.get("rated_power_w")
    if isinstance(rated, int | float) and not isinstance(rated, bool):
        return float(rated)
    return site.gpus[run.gpu].tdp_w


def _gpu_text(run: MatrixRun, site: Site) -> str:
    gpu = site.gpus[run.gpu]
    text = f"{run.gpus}x {gpu.vendor + ' ' if gpu.vendor else ''}{gpu.name}"
    if gpu.memory_gb:
        text += f", {gpu.memory_gb:,g} GB each"
    if run.power_cap_w:
        text += f", {run.power_cap_w:,g} W cap per GPU"
        if rated := _rated_w(run, site):
            text += f" (rated {rated:,g} W)"
    in_node = run.host.get("gpus_in_node")
    if isinstance(in_node, int) and in_node > run.gpus:
        text += f"; {in_node - run.gpus} of the node's {in_node} GPUs unused"
    return text


def _bench_text(bench: dict) -> str:
    parts = []
    tool = " ".join(str(bench[k]) for k in ("tool",) if k in bench)
    if "harness" in bench:
        tool += f" ({bench['harness']})" if tool else str(bench["harness"])
    if tool:
        parts.append(tool)
    if "prompt" in bench:
        parts.append(f"canonical prompt {bench['prompt']}")
    if "decode_seconds" in bench:
        parts.append(f"{bench['decode_seconds']:,g} s per decode cell")
    if "max_output_tokens" in bench:
        parts.append(f"max {bench['max_output_tokens']:,} output tokens")
    if "prefix_cache" in bench:
        parts.append(f"prefix cache {bench['prefix_cache']}")
    known = {"tool", "harness", "prompt", "decode_seconds", "max_output_tokens", "prefix_cache"}
    parts += [f"{k.replace('_', ' ')}: {v}" for k, v in bench.items() if k not in known]
    return ", ".join(parts)


def _setup(run: MatrixRun, site: Site) -> tuple[SetupItem, ...]:
    model = site.models[run.model]
    items = [SetupItem("GPUs", _gpu_text(run, site))]
    host = run.host
    cpu_ram = ", ".join(str(host[k]) for k in ("cpu", "ram") if k in host)
    if cpu_ram:
        items.append(SetupItem("CPUs, RAM", cpu_ram))
    known = {"cpu", "ram", "gpus_in_node", "rated_power_w"}
    items += [
        SetupItem(k.replace("_", " ").capitalize(), str(v))
        for k, v in host.items()
        if k not in known
    ]
    items.append(
        SetupItem(
            "Model", f"{model.hf_id or model.name}, {precision_name(run.precision)} checkpoint"
        )
    )
    engine = engine_name(run.engine)
    if run.engine_version:
        word = "build" if HASH_VERSION.match(run.engine_version) else "version"
        engine += f" ({word} {run.engine_version})"
    items.append(SetupItem("Engine", engine))
    if bench := _bench_text(run.bench):
        items.append(SetupItem("Bench", bench))
    if run.notes:
        items.append(SetupItem("Notes", run.notes))
    return tuple(items)


def _grid(
    run: MatrixRun,
    slug: str,
    title: str,
    note: str,
    value,
    text,
    higher_is_better: bool,
    unit: str = "",
) -> Grid:
    contexts = sorted({c.context for c in run.decode})
    concurrencies = tuple(sorted({c.concurrency for c in run.decode}))
    by_key = {(c.context, c.concurrency): c for c in run.decode}
    values = [value(c) for c in run.decode]
    places = dict(
        zip(
            [(c.context, c.concurrency) for c in run.decode],
            goodness(values, higher_is_better),
            strict=True,
        )
    )
    rows = tuple(
        (
            context_tokens(context),
            tuple(
                Cell(text(value(by_key[(context, n)])), scale_colour(places[(context, n)]))
                for n in concurrencies
            ),
        )
        for context in contexts
    )
    legend = tuple(scale_colour(i / (LEGEND_STEPS - 1)) for i in range(LEGEND_STEPS))
    worst, best = (min(values), max(values)) if higher_is_better else (max(values), min(values))
    return Grid(
        slug, title, note, concurrencies, rows, text(worst) + unit, text(best) + unit, legend
    )


def _grids(run: MatrixRun) -> tuple[Grid, ...]:
    seconds = run.bench.get("decode_seconds")
    sustained = f"{seconds:g} s of sustained decode per cell. " if seconds else ""
    return (
        _grid(
            run,
            "aggregate",
            "Decode throughput, all requests together (output tok/s)",
            sustained + "Output tokens of every request in flight, for the whole node.",
            lambda c: c.aggregate_tok_s,
            whole,
            True,
            " tok/s",
        ),
        _grid(
            run,
            "aggregate-per-gpu",
            f"Decode throughput per GPU (output tok/s per GPU, node total / {run.gpus})",
            f"The table above divided by the {run.gpus} GPUs serving the run.",
            lambda c: c.aggregate_tok_s / run.gpus,
            tokens,
            True,
            " tok/s per GPU",
        ),
        _grid(
            run,
            "per-request",
            "Decode speed seen by each request (tok/s, median)",
            "1 / inter-token latency.",
            lambda c: c.per_request_tok_s,
            whole,
            True,
            " tok/s",
        ),
        _grid(
            run,
            "ttft",
            "Time to first token (s, median)",
            "Includes waiting for other requests' prefill.",
            lambda c: c.ttft_s,
            seconds_2,
            False,
            " s",
        ),
    )


def matrix_report(run: MatrixRun, site: Site) -> MatrixReport:
    gpu = site.gpus[run.gpu]
    facts = f"Measured by {run.source} on {_date_words(run)}: {run.gpus}x {gpu.name}"
    if run.power_cap_w:
        facts += f", every GPU capped at {run.power_cap_w:,g} W"
        if rated := _rated_w(run, site):
            facts += f" (rated {rated:,g} W)"
    facts += f", {engine_name(run.engine)} {precision_name(run.precision)}."
    prefill = tuple(
        (
            context_tokens(row.context),
            f"{row.prompt_tokens:,}",
            seconds_2(row.ttft_s),
            whole(row.tok_s),
            tokens(row.tok_s / run.gpus),
        )
        for row in sorted(run.prefill, key=lambda r: r.context)
    )
    return MatrixReport(
        run=run,
        facts=facts,
        setup=_setup(run, site),
        canonical=tuple((c.label, _quantity(c.value, c.unit)) for c in run.canonical),
        prefill=prefill,
        grids=_grids(run),
    )


@dataclass(frozen=True)
class MatrixSummary:
    """The three figures a model x GPU page quotes for a matrix run."""

    run: MatrixRun
    single_request_tok_s: float | None  # per-request decode at concurrency 1, shortest context
    single_request_context: int | None
    aggregate_tok_s: float  # all requests together at the highest concurrency, shortest context
    aggregate_per_gpu_tok_s: float
    aggregate_concurrency: int
    aggregate_context: int
    prefill_tok_s: float | None  # the fastest cold prefill
    prefill_context: int | None


def matrix_summary(run: MatrixRun) -> MatrixSummary:
    shortest = min(c.context for c in run.decode)
    row = [c for c in run.decode if c.context == shortest]
    single = min(row, key=lambda c: c.concurrency)
    top = max(row, key=lambda c: c.concurrency)
    prefill = max(run.prefill, key=lambda p: p.tok_s, default=None)
    return MatrixSummary(
        run=run,
        single_request_tok_s=single.per_request_tok_s if single.concurrency == 1 else None,
        single_request_context=shortest if single.concurrency == 1 else None,
        aggregate_tok_s=top.aggregate_tok_s,
        aggregate_per_gpu_tok_s=top.aggregate_tok_s / run.gpus,
        aggregate_concurrency=top.concurrency,
        aggregate_context=shortest,
        prefill_tok_s=prefill.tok_s if prefill else None,
        prefill_context=prefill.context if prefill else None,
    )


# -- sweeps ------------------------------------------------------------------------------------


class ConfigRow(NamedTuple):  # a tuple: a report makes one per config
    parallelism: str
    gpus: int
    load: str  # its concurrency, or an open-loop source's requests/s
    throughput_per_gpu: str
    interactivity: str
    ttft: str
    tpot: str
    status: str
    mbu: float | None  # memory-bandwidth utilisation, a fraction
    mbu_missing: str | None  # why there is none (calc.limits)


@dataclass(frozen=True)
class SweepReport:
    run: SweepRun
    facts: str
    rows: tuple[ConfigRow, ...]
    figures: tuple[Figures, ...]  # each config's, in the run's order (config_figures)
    mbu: tuple[tuple[float | None, str | None], ...]  # each config's, in the run's order
    tokens: str  # what its throughputs count (its workload's, Site.tokens)
    open_loop: bool  # its configs give request rates, not concurrencies

    @property
    def mbu_missing(self) -> str | None:
        """Why no measured config has an MBU, where one reason holds for all of them."""
        reasons = {missing for _, missing in self.mbu if missing != FAILED}
        return reasons.pop() if len(reasons) == 1 and None not in reasons else None


def sweep_report(run: SweepRun, site: Site, values: ConfigValues | None = None) -> SweepReport:
    """`values`: the run's configs as values, where the caller has them."""
    v = ConfigValues.of(run.configs) if values is None else values
    columns, labels = v.columns, v.parallelism
    gpu = site.gpus[run.gpu]
    engine = engine_name(run.engine) + (f" {run.engine_version}" if run.engine_version else "")
    facts = (
        f"Measured by {run.source} on {_date_words(run)}: {site.models[run.model].name} on "
        f"{gpu.name}, {engine} {precision_name(run.precision)}, "
        f"{site.workloads[run.workload].name} workload, {len(v)} "
        f"config{'' if len(v) == 1 else 's'}."
    )
    status, gpus = columns["status"], columns["gpus"]
    concurrency, rates = columns["concurrency"], columns["request_rate"]
    ordered = sorted(
        range(len(v)),
        key=lambda i: (status[i] != "ok", gpus[i], labels[i], concurrency[i] or 0, rates[i] or 0),
    )
    counted = site.tokens(run.workload)
    figures = config_figures(v, counted)
    mbu = run_mbu(site, run, columns)
    loads = [
        str(c) if c is not None else DASH if r is None else f"{significant(r)}/s"
        for c, r in zip(concurrency, rates, strict=True)
    ]
    rows = tuple(
        ConfigRow(labels[i], gpus[i], loads[i], *figures[i], status[i], *mbu[i]) for i in ordered
    )
    open_loop = any(c is None for c in concurrency)
    return SweepReport(run, facts, rows, figures, tuple(mbu), counted, open_loop)


@dataclass(frozen=True)
class RunView(View):
    report: Any  # SweepReport or MatrixReport
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
    data_json = run_data_json(report.run, configs, report.mbu if configs is not None else None)
    return page, DataFile(run_route(run.id) + "data.json", data_json)
