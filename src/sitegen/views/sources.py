"""What every view builder reads: the site, its summaries and content, and indexes over them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from markupsafe import Markup

from ..calc import standings
from ..calc.briefs import Brief, BriefMemo
from ..calc.changes import Change, changes
from ..calc.envelope import Envelope
from ..calc.summaries import Summaries
from ..calc.tables import WorkloadSummary
from ..records import Problems, Run, Site, SweepRun
from ..render.content import Content, CopyError, render_copy
from .page import Quote

T = TypeVar("T")


def gpu_pair_route(gpu_a: str, gpu_b: str) -> str:
    """Where two GPUs are compared across every model both serve (slugs in order)."""
    a, b = sorted((gpu_a, gpu_b))
    return f"compare/{a}-vs-{b}/"


def compare_route(gpu_a: str, gpu_b: str, model: str) -> str:
    return f"{gpu_pair_route(gpu_a, gpu_b)}{model}/"


def embed_route(model: str, gpu: str) -> str:
    """Where a model x GPU's chart and ladder are for an <iframe>."""
    return f"embed/{model}/{gpu}/"


def _sweep(run: Run) -> bool:
    return isinstance(run, SweepRun)


class Sources:
    """The inputs of one plan. Editor copy that fails is collected in `problems`; `brief_memo`
    keeps what is made of each brief past the plan (the preview's)."""

    def __init__(
        self,
        site: Site,
        pairs: Summaries | dict[tuple[str, str], list[WorkloadSummary]],
        content: Content,
        brief_memo: BriefMemo | None = None,
    ) -> None:
        self.site = site
        self.brief_memo = brief_memo or BriefMemo()
        # made when first read; a dict given is every pair's summaries, made already
        self.pairs = pairs if isinstance(pairs, Summaries) else Summaries(site, made=pairs)
        self.content = content
        self.problems = Problems()
        self._envelopes: dict[tuple[str, str, str], Envelope] = {}
        self._per_row: dict[tuple, tuple[Envelope, Any]] = {}
        self._fields: dict[str, list[standings.Field]] = {}
        self.tier = site.config.headline_tier
        tiers = {t.slug: t.label for t in site.pricing.tiers}
        self.quote = Quote(
            tier=self.tier,
            tier_label=tiers.get(self.tier, self.tier),
            tiers=site.pricing.tiers,
            pricing=site.pricing,
            interactivity=site.config.headline_interactivity,
        )

    def copy(self, copy, context: dict) -> Markup | None:
        """An editor's Markdown with its placeholders filled; None (and a problem) if it fails."""
        if copy is None:
            return None
        try:
            return render_copy(copy, context)
        except CopyError as exc:
            self.problems.add(exc.problem)
            return None

    def site_values(self) -> dict[str, Any]:
        return {"title": self.site.config.title}

    def summaries(self, model: str, gpu: str) -> list[WorkloadSummary]:
        return self.pairs.get((model, gpu))

    @property
    def briefs(self) -> dict[tuple[str, str], list[Brief]]:
        """Every pair's briefs (the pairs that have summaries): what the pages that list every
        pair read, without summarising pairs whose runs did not change (briefs.py)."""
        return self.pairs.briefs()

    def envelope(self, summary: WorkloadSummary) -> Envelope:
        """The upper envelope of a summary's curves, found once per build."""
        key = (summary.model, summary.gpu, summary.workload)
        if key not in self._envelopes:
            self._envelopes[key] = standings.envelope_of(summary, self.site.config.frontier_method)
        return self._envelopes[key]

    def per_row(self, make: Callable[..., T], row: Envelope, *args: Any) -> T:
        """make(row, *args), made once per plan: a pair's envelopes are on each of its
        comparisons (the envelopes live as long as the plan, kept here)."""
        key = (make, id(row), args)
        kept = self._per_row.get(key)
        if kept is None or kept[0] is not row:
            kept = self._per_row[key] = (row, make(row, *args))
        return kept[1]

    def fields(self, model: str) -> list[standings.Field]:
        """The model's GPUs side by side, one field per workload, the default workload first."""
        if model not in self._fields:
            self._fields[model] = self._make_fields(model)
        return self._fields[model]

    def _make_fields(self, model: str) -> list[standings.Field]:
        by_workload: dict[str, dict[str, WorkloadSummary]] = {}
        for gpu in self.gpus_of(model):
            for s in self.summaries(model, gpu):
                by_workload.setdefault(s.workload, {})[gpu] = s
        default = self.site.config.default_workload
        tiers = self.site.pricing.slugs
        return [
            standings.field(
                model,
                workload,
                summaries,
                {gpu: self.envelope(s) for gpu, s in summaries.items()},
                tiers,
            )
            for workload, summaries in sorted(
                by_workload.items(), key=lambda kv: (kv[0] != default, kv[0])
            )
        ]

    @functools.cached_property
    def all_changes(self) -> list[Change]:
        """Every change between run dates of the site, newest first (calc/changes.py)."""
        return changes(self.site)

    def changes_of(self, model: str, gpu: str) -> list[Change]:
        """The changes of one model x GPU, newest first: from its own runs alone."""
        return changes(self.site, [r for r in self.runs_of.get((model, gpu), []) if _sweep(r)])

    def gpus_of(self, model: str) -> list[str]:
        return self.gpus_by_model.get(model, [])

    @functools.cached_property
    def gpus_by_model(self) -> dict[str, list[str]]:
        """model -> the GPUs it has runs on, sorted (pair keys are sorted already)."""
        out: dict[str, list[str]] = {}
        for model, gpu in self.pair_keys:
            out.setdefault(model, []).append(gpu)
        return out

    @functools.cached_property
    def runs_of(self) -> dict[tuple[str, str], list[Run]]:
        """(model, gpu) -> its runs, in the site's order."""
        out: dict[tuple[str, str], list[Run]] = {}
        for run in self.site.runs:
            out.setdefault((run.model, run.gpu), []).append(run)
        return out

    def runs_of_model(self, model: str) -> list[Run]:
        """The model's runs, in the site's order."""
        return self.runs_by_model.get(model, [])

    @functools.cached_property
    def runs_by_model(self) -> dict[str, list[Run]]:
        out: dict[str, list[Run]] = {}
        for run in self.site.runs:
            out.setdefault(run.model, []).append(run)
        return out

    def run(self, run_id: str) -> Run:
        return self.runs_by_id[run_id]

    @functools.cached_property
    def runs_by_id(self) -> dict[str, Run]:
        return {run.id: run for run in self.site.runs}

    @functools.cached_property
    def pair_keys(self) -> list[tuple[str, str]]:
        """Every model x GPU with a run of either kind (a pair's summaries are its sweeps')."""
        return sorted({(r.model, r.gpu) for r in self.site.runs})

    @functools.cached_property
    def models(self) -> list[str]:
        return sorted({m for m, _ in self.pair_keys})

    @functools.cached_property
    def gpus(self) -> list[str]:
        return sorted({g for _, g in self.pair_keys})

    @functools.cached_property
    def gpu_pairs(self) -> dict[tuple[str, str], list[str]]:
        """(GPU a, GPU b), a < b -> the models with runs on both, sorted: every two GPUs that
        have a comparison page, in order."""
        out: dict[tuple[str, str], list[str]] = {}
        for model in self.models:
            gpus = self.gpus_of(model)
            for i, a in enumerate(gpus):
                for b in gpus[i + 1 :]:
                    out.setdefault((a, b), []).append(model)
        return dict(sorted(out.items()))
