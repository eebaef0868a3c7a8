"""The overview leaderboard and its downloads (leaderboard.json, leaderboard.csv).

Boards are per workload and, within it, per model: a model's GPUs are ranked against each
other, never one model against another. The page is complete at the headline point;
assets/overview.js switches it to any rung, tier, filter or sort from the numbers this module
embeds in the page.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from markupsafe import Markup

from ..calc import energy
from ..calc.briefs import Brief
from ..calc.tables import LadderRow, rung_targets
from ..records import TOTAL, Gpu, Model, Site, Workload
from ..records.credits import Credit, credits_for, family_of
from ..render import display
from .datafiles import (
    encoded,
    leaderboard_csv_header,
    leaderboard_csv_line,
    leaderboard_order,
    leaderboard_row,
    pair_route,
)
from .page import DataFile, Page, Quote, View
from .sources import Sources


@dataclass(frozen=True)
class BoardRow:
    """One GPU of a board, as the page shows it at the headline point."""

    index: int  # its place in the page's data block
    gpu: Gpu
    url: str
    rank: int | None  # None where no config reaches the headline target
    headline: LadderRow
    configs: int
    last_date: str
    sources: tuple[str, ...] = ()  # who measured its current runs, sorted


@dataclass(frozen=True)
class Board:
    """One model's GPUs on one workload, best first at the headline point."""

    model: Model
    rows: tuple[BoardRow, ...]
    # where no GPU reaches the headline target: the fastest target one of them reaches
    fastest_reached: float | None = None


@dataclass(frozen=True)
class WorkloadBoards:
    workload: Workload
    boards: tuple[Board, ...]
    tokens: str = TOTAL  # what its figures count (Site.tokens)


@dataclass(frozen=True)
class Choice:
    """An option of one of the overview's controls."""

    value: str
    label: str


@dataclass(frozen=True)
class OverviewView(View):
    sections: list[WorkloadBoards]  # per workload, the default first
    only_matrix: list[tuple[str, str]]  # pairs measured by matrices only
    models: list[Any]
    gpus: list[Any]
    quote: Quote
    description: str
    targets: list[Choice]  # every rung the page can switch to; the headline selected
    target_label: str  # the headline target as the page says it
    vendors: list[Choice]
    engines: list[Choice]
    precisions: list[Choice]
    data: Markup  # the numbers assets/overview.js reads, as JSON safe inside <script>
    # the source filter's families (shown where there are two or more); whether the rows
    # measured by more than one source (then each row names its own); who measured them all
    families: tuple[Choice, ...] = ()
    several_sources: bool = False
    credits: tuple[Credit, ...] = ()


class BriefText(NamedTuple):
    """What the overview's files write of one brief: made once while the brief lives (the
    preview keeps it from one build to the next, briefs.BriefMemo)."""

    order: tuple  # its leaderboard row's place (datafiles.leaderboard_order)
    json: str  # that row in leaderboard.json
    csv: str  # and in leaderboard.csv
    data: str  # its row of the page's data block, as json_script writes it


def _brief_text(site: Site, tiers: list[str], s: Brief) -> BriefText:
    row = leaderboard_row(s, site.tokens(s.workload))
    return BriefText(
        leaderboard_order(row),
        encoded(row),
        leaderboard_csv_line(tiers, row),
        _script_text(_data_row(site, s)),
    )


def brief_texts(src: Sources) -> dict[int, BriefText]:
    """Every brief's text, by the brief's id (the briefs live as long as the plan)."""
    site, memo = src.site, src.brief_memo
    tiers = site.pricing.slugs
    return {
        id(s): memo.get("overview", s, lambda b: _brief_text(site, tiers, b))
        for briefs in src.briefs.values()
        for s in briefs
    }


def overview_outputs(src: Sources) -> tuple[Page, list[DataFile]]:
    texts = brief_texts(src)
    ranked = sorted(texts.values(), key=lambda t: t.order)  # stable: ties in the briefs' order
    tiers = src.site.pricing.slugs
    files = [
        DataFile("data/leaderboard.json", "[" + ",".join(t.json for t in ranked) + "]\n"),
        DataFile(
            "data/leaderboard.csv",
            leaderboard_csv_header(tiers) + "".join(t.csv for t in ranked),
        ),
    ]
    return overview_page(src, texts), files


def _script_text(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def json_script(data: Any) -> Markup:
    """JSON for a <script type="application/json">: `<`, `>` and `&` escaped as Django's
    json_script does, so no text in the data can close the element or start markup."""
    return Markup(_script_text(data))


def _with_rows(head: dict, rows: list[str]) -> Markup:
    """json_script({**head, "rows": [...]}) of rows written by _script_text already."""
    text = _script_text(head)[:-1] + ("," if head else "")
    return Markup(text + '"rows":[' + ",".join(rows) + "]}")


def vendor_value(vendor: str | None) -> str:
    """NVIDIA -> nvidia: a vendor as the controls and the URL name it."""
    return re.sub(r"[^a-z0-9]+", "-", (vendor or "").lower()).strip("-")


def _ranked(briefs: list[Brief]) -> list[Brief]:
    """Best first by tokens/s per GPU at the headline; unreached last; ties by GPU."""
    return sorted(
        briefs,
        key=lambda s: (
            s.headline.throughput_per_gpu is None,
            -(s.headline.throughput_per_gpu or 0),
            s.gpu,
        ),
    )


def _data_row(site: Site, s: Brief) -> dict:
    """A board row as overview.js reads it: each curve's value and measured power at every
    rung; where a rung has no measured power the GPU's all-in power applies (tables._Rungs)."""
    gpu = site.gpus[s.gpu]
    all_in = energy.all_in(gpu.all_in_power_kw)
    return {
        "gpu": s.gpu,
        "name": gpu.name,
        "vendor": vendor_value(gpu.vendor),
        "prices": site.pricing.for_gpu(s.gpu),
        "all_in_power_w": all_in.per_gpu_w if all_in else None,
        "configs": s.configs,
        "last_date": s.last_date.isoformat(),
        "curves": [
            {
                "engine": c.engine,
                "precision": c.precision,
                "throughput_per_gpu": list(c.throughput_per_gpu),
                "measured_power_w": list(c.measured_power_w),
                "families": sorted({family_of(source)[0] for source in c.sources}),
            }
            for c in s.curves
        ],
    }


def _sections(src: Sources, texts: dict[int, BriefText]) -> tuple[list[WorkloadBoards], list[str]]:
    """The boards, the default workload first and models by name, and the data block's rows
    (as JSON)."""
    site = src.site
    default = site.config.default_workload
    by_workload: dict[str, dict[str, list[Brief]]] = {}
    for (model, _gpu), briefs in src.briefs.items():
        for s in briefs:
            by_workload.setdefault(s.workload, {}).setdefault(model, []).append(s)
    sections, data = [], []
    for workload in sorted(by_workload, key=lambda w: (w != default, w)):
        models = by_workload[workload]
        boards = []
        for model in sorted(models, key=lambda m: (site.models[m].name, m)):
            rows = []
            for rank, s in enumerate(_ranked(models[model]), start=1):
                reached = s.headline.throughput_per_gpu is not None
                rows.append(
                    BoardRow(
                        index=len(data),
                        gpu=site.gpus[s.gpu],
                        url=pair_route(model, s.gpu),
                        rank=rank if reached else None,
                        headline=s.headline,
                        configs=s.configs,
                        last_date=s.last_date.isoformat(),
                        sources=s.sources,
                    )
                )
                data.append(texts[id(s)].data)
            boards.append(Board(site.models[model], tuple(rows), _fastest(site, models[model])))
        boards_of = WorkloadBoards(site.workloads[workload], tuple(boards), site.tokens(workload))
        sections.append(boards_of)
    return sections, data


def _fastest(site: Site, briefs: list[Brief]) -> float | None:
    """Where none of `briefs` reaches the headline target, the fastest target one reaches
    (a board of MLPerf's Server scenario, which bounds latency far below most targets)."""
    if any(s.headline.throughput_per_gpu is not None for s in briefs):
        return None
    targets = rung_targets(site)
    reached = [
        t
        for i, t in enumerate(targets)
        if any(c.throughput_per_gpu[i] is not None for s in briefs for c in s.curves)
    ]
    return max(reached, default=None)


def _choices(values: set[str], label: Any) -> list[Choice]:
    return [Choice(v, label(v)) for v in sorted(values, key=lambda v: (label(v).lower(), v))]


def _leaders(sections: list[WorkloadBoards]) -> list[str]:
    """Each board's best GPU at the headline, for the page's description."""
    out = []
    for section in sections:
        for board in section.boards:
            best = board.rows[0]
            if best.rank is not None:
                out.append(
                    f"{board.model.name} on {best.gpu.name} at "
                    f"{display.tokens(best.headline.throughput_per_gpu)} "
                    f"{display.per_gpu(section.tokens)} "
                    f"({section.workload.name})"
                )
    return out


def overview_page(src: Sources, texts: dict[int, BriefText]) -> Page:
    site = src.site
    config = site.config
    sections, data = _sections(src, texts)
    models = sorted(src.models, key=lambda m: site.models[m].name)
    gpus = sorted(src.gpus, key=lambda g: site.gpus[g].name)
    targets = rung_targets(site)
    curves = [c for briefs in src.briefs.values() for s in briefs for c in s.curves]
    vendors = {vendor_value(v): v for _, g in src.briefs if (v := site.gpus[g].vendor)}
    leaders = _leaders(sections)
    description = config.description or (
        f"Tokens/s per GPU, $ per million tokens and joules per token at "
        f"{display.rate(config.headline_interactivity)} tokens/s per user: "
        f"{display.plural(len(models), 'model')} on {display.plural(len(gpus), 'GPU type')}, "
        "measured by benchmark runs; each model's GPUs ranked per workload."
        + (f" Best: {display.human_list(leaders)}." if leaders else "")
    )
    sources = {source for briefs in src.briefs.values() for s in briefs for source in s.sources}
    families = {family_of(source)[0] for source in sources}
    engines = _choices({c.engine for c in curves}, display.engine_name)
    precisions = _choices({c.precision for c in curves}, display.precision_name)
    block = {
        "targets": targets,
        "headline": {"target": config.headline_interactivity, "tier": src.tier},
        "tiers": {t.slug: t.label for t in site.pricing.tiers},
        "engines": {c.value: c.label for c in engines},
        "precisions": {c.value: c.label for c in precisions},
    }
    view = OverviewView(
        sections=sections,
        only_matrix=[k for k in src.pair_keys if k not in src.briefs],
        models=[site.models[m] for m in models],
        gpus=[site.gpus[g] for g in gpus],
        quote=src.quote,
        description=description,
        targets=[Choice(display.rate(t), f"{display.rate(t)} tok/s per user") for t in targets],
        target_label=f"{display.rate(config.headline_interactivity)} tok/s per user",
        vendors=[Choice(value, vendors[value]) for value in sorted(vendors)],
        engines=engines,
        precisions=precisions,
        data=_with_rows(block, data),
        families=tuple(_choices(families, str)),
        several_sources=len(sources) > 1,
        credits=tuple(credits_for(sources)),
    )
    return Page("", "index.html", config.title, view)
