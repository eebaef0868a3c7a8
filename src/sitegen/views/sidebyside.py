"""Sources side by side on a model x GPU's pages: who measured each workload (linked to their
runs), each source's own figure, and where two sources disagree by more than a quarter
(calc/sources.py); the JSON of the last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..calc.sources import DISAGREEMENT, Disagreement, Side, by_source, disagreements
from ..calc.tables import WorkloadSummary
from ..records import Run
from ..records.credits import credits_for
from .datafiles import pair_route
from .sources import Sources

RUNS_LISTED = 3  # a source with more runs of a workload links to the list of its runs


def pair_disagreements(src: Sources, summaries: Sequence[WorkloadSummary]) -> list[Disagreement]:
    return disagreements(summaries, src.site.config.frontier_method)


def measured_by(src: Sources, summary: WorkloadSummary) -> list[dict]:
    """Each source of a workload: its credit and its current runs of it, newest first, listed
    one by one where they are few (`listed`)."""
    current = set(summary.current_runs)
    runs = [r for r in src.runs_of.get((summary.model, summary.gpu), []) if r.id in current]
    out = []
    for credit in credits_for(summary.sources):
        own = sorted((r for r in runs if r.source == credit.name), key=_newest)
        out.append({"credit": credit, "runs": own, "listed": len(own) <= RUNS_LISTED})
    return out


def _newest(run: Run) -> tuple:
    return (-run.date.toordinal(), run.id)


def workload_sources(
    src: Sources, summary: WorkloadSummary, found: Sequence[Disagreement]
) -> dict[str, Any]:
    """What a workload's ladder section says of its sources: who measured it, and the targets
    where its figure and another source's disagree (the pair page's notes say how)."""
    targets = sorted({d.target for d in found if summary.workload in (d.a.workload, d.b.workload)})
    return {
        "measured_by": measured_by(src, summary),
        "disagrees_at": targets,
        "disagreements_route": pair_route(summary.model, summary.gpu),
        "threshold": DISAGREEMENT,
    }


def _side(src: Sources, side: Side) -> dict:
    return {
        "sources": side.sources,
        "workload": src.site.workloads[side.workload],
        "output_throughput_per_gpu": side.output_throughput_per_gpu,
    }


def pair_sources(
    src: Sources, summaries: Sequence[WorkloadSummary], found: Sequence[Disagreement]
) -> dict | None:
    """The pair page's Sources section, where its workloads have more than one source: one row
    per source and workload, and the notes where two sources disagree; None otherwise."""
    if len({s for summary in summaries for s in summary.sources}) < 2:
        return None
    site = src.site
    source_of = {r.id: r.source for s in summaries for r in src.runs_of[(s.model, s.gpu)]}
    dates = {r.id: r.date for s in summaries for r in src.runs_of[(s.model, s.gpu)]}
    credits = {c.name: c for c in credits_for(source_of.values())}
    target = site.config.headline_interactivity
    method = site.config.frontier_method
    rows = []
    for summary in summaries:
        for figure in by_source(summary, source_of, target, method):
            runs = [dates[run] for run in figure.runs]
            rows.append(
                {
                    "credit": credits[figure.source],
                    "figure": figure,
                    "workload": site.workloads[summary.workload],
                    "tokens": summary.tokens,
                    "first_date": min(runs) if runs else None,
                    "last_date": max(runs) if runs else None,
                }
            )
    notes = [
        {
            "target": d.target,
            "a": _side(src, d.a),
            "b": _side(src, d.b),
            "excess": d.ratio - 1,
        }
        for d in found
    ]
    return {"rows": rows, "notes": notes, "target": target, "threshold": DISAGREEMENT}


def disagreements_json(found: Sequence[Disagreement]) -> list[dict]:
    """The pair's data.json `disagreements` (docs/pages.md), numbers unrounded."""

    def side(s: Side) -> dict:
        return {
            "sources": list(s.sources),
            "workload": s.workload,
            "output_throughput_per_gpu": s.output_throughput_per_gpu,
        }

    return [{"target": d.target, "a": side(d.a), "b": side(d.b), "ratio": d.ratio} for d in found]
