"""What changed between run dates: the changes page, changes.json, and a pair page's section.

The entries come from calc/changes.py; this module turns them into what pages show (changes in
percent, names from the catalogs) and into the JSON of docs/pages.md, unrounded.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ..calc.changes import REGRESSION, Change
from ..records import Gpu, Model, Workload
from .datafiles import pair_route, to_json
from .page import DataFile, Page, View
from .sources import Sources

CHANGES_ROUTE = "changes/"
CHANGES_JSON = "changes.json"
PAIR_LATEST = 5  # the entries a pair page lists
# the entries the changes page lists: a nightly fleet's thousands would make a page of
# megabytes (changes.json has them all)
PAGE_LATEST = 500


def change_anchor(change: Change) -> str:
    """The id of an entry on the changes page, the same from build to build (an engine or a
    precision is free text, so the id is a digest of what tells entries apart)."""
    key = [change.date.isoformat(), change.model, change.gpu, change.workload]
    key += [change.engine, change.precision]
    digest = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:16]
    return f"change-{change.date.isoformat()}-{digest}"


def change_json(change: Change, tokens: str) -> dict[str, Any]:
    """One entry of changes.json (docs/pages.md): numbers unrounded, changes as fractions;
    `tokens`: what its workload's figures count."""
    return {
        "date": change.date.isoformat(),
        "previous_date": change.previous_date.isoformat(),
        "model": change.model,
        "gpu": change.gpu,
        "workload": change.workload,
        "tokens": tokens,
        "engine": change.engine,
        "precision": change.precision,
        "kind": change.kind,
        "headline_change": change.headline_change,
        "rungs": [
            {"target": r.target, "before": r.before, "after": r.after, "change": r.change}
            for r in change.rungs
        ],
        "url": pair_route(change.model, change.gpu),
    }


@dataclass(frozen=True)
class RungRow:
    target: float
    before: float  # throughput per GPU, tokens/s
    after: float
    change_percent: float


@dataclass(frozen=True)
class ChangeRow:
    """One entry as a page shows it."""

    anchor: str
    date: str
    previous_date: str
    regression: bool
    model: Model
    gpu: Gpu
    workload: Workload
    engine: str
    precision: str
    url: str  # the pair page, from the site root
    headline_change_percent: float | None
    rungs: tuple[RungRow, ...]
    tokens: str  # what its figures count (Site.tokens)


def change_row(src: Sources, change: Change) -> ChangeRow:
    site = src.site
    return ChangeRow(
        anchor=change_anchor(change),
        date=change.date.isoformat(),
        previous_date=change.previous_date.isoformat(),
        regression=change.kind == REGRESSION,
        model=site.models[change.model],
        gpu=site.gpus[change.gpu],
        workload=site.workloads[change.workload],
        engine=change.engine,
        precision=change.precision,
        url=pair_route(change.model, change.gpu),
        headline_change_percent=_percent(change.headline_change),
        rungs=tuple(RungRow(r.target, r.before, r.after, r.change * 100) for r in change.rungs),
        tokens=site.tokens(change.workload),
    )


def _percent(fraction: float | None) -> float | None:
    return None if fraction is None else fraction * 100


def threshold_label(src: Sources) -> str:
    """sitegen.yaml's change_threshold in percent as pages say it: 10, 12.5."""
    return f"{src.site.config.change_threshold * 100:g}"


@dataclass(frozen=True)
class ChangesView(View):
    changes: list[ChangeRow]  # newest first, at most PAGE_LATEST
    count: int  # the site's entries, all of them in changes.json
    models: list[Model]  # the models and GPUs with entries: the filter's options
    gpus: list[Gpu]
    threshold: str  # change_threshold in percent, as the page says it: "10"
    headline: float  # the headline target, tokens/s per user
    regressions: int
    description: str


def changes_outputs(src: Sources) -> tuple[Page, DataFile]:
    """The changes page and changes.json, every entry of the site newest first."""
    site = src.site
    entries = src.all_changes
    rows = [change_row(src, c) for c in entries[:PAGE_LATEST]]
    threshold = threshold_label(src)
    view = ChangesView(
        changes=rows,
        count=len(entries),
        models=[site.models[m] for m in sorted({c.model for c in entries[:PAGE_LATEST]})],
        gpus=[site.gpus[g] for g in sorted({c.gpu for c in entries[:PAGE_LATEST]})],
        threshold=threshold,
        headline=site.config.headline_interactivity,
        regressions=sum(r.regression for r in rows),
        description=(
            "Where a serving engine and precision's throughput per GPU moved by at least "
            f"{threshold} % between run dates, at any per-user target: regressions and "
            "improvements, newest first."
        ),
    )
    page = Page(
        CHANGES_ROUTE,
        "changes.html",
        "What changed between runs",
        view,
        lastmod=entries[0].date.isoformat() if entries else None,
    )
    data = DataFile(
        CHANGES_JSON, to_json([change_json(c, src.site.tokens(c.workload)) for c in entries])
    )
    return page, data


def pair_section(src: Sources, model: str, gpu: str) -> dict[str, Any]:
    """What a pair page's "What changed" section shows: its latest entries, how many it has,
    and the threshold."""
    entries = src.changes_of(model, gpu)
    return {
        "latest": [change_row(src, c) for c in entries[:PAIR_LATEST]],
        "count": len(entries),
        "threshold": threshold_label(src),
        "route": CHANGES_ROUTE,
    }
