"""What every view builder reads: the site, its summaries and content, and indexes over them."""

from __future__ import annotations

import functools
from typing import Any

from markupsafe import Markup

from ..content import Content, CopyError, render_copy
from ..records import Problems, Run, Site
from ..tables import WorkloadSummary
from .page import Quote


def compare_route(gpu_a: str, gpu_b: str, model: str) -> str:
    a, b = sorted((gpu_a, gpu_b))
    return f"compare/{a}-vs-{b}/{model}/"


class Sources:
    """The inputs of one plan. Editor copy that fails is collected in `problems`."""

    def __init__(
        self,
        site: Site,
        pairs: dict[tuple[str, str], list[WorkloadSummary]],
        content: Content,
    ) -> None:
        self.site = site
        self.pairs = pairs
        self.content = content
        self.problems = Problems()
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
        return self.pairs.get((model, gpu), [])

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

    @functools.cached_property
    def pair_keys(self) -> list[tuple[str, str]]:
        """Every model x GPU with a run of either kind."""
        keys = set(self.pairs) | {(r.model, r.gpu) for r in self.site.runs}
        return sorted(keys)

    @functools.cached_property
    def models(self) -> list[str]:
        return sorted({m for m, _ in self.pair_keys})

    @functools.cached_property
    def gpus(self) -> list[str]:
        return sorted({g for _, g in self.pair_keys})
