"""The generated questions of a model x GPU page, answered with that page's numbers."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from ..calc.tables import WorkloadSummary
from ..records import Gpu, Model, Pricing, Workload
from ..render.display import (
    counted_all,
    dollars,
    engine_name,
    human_list,
    per_gpu,
    precision_name,
    rate,
    tokens,
)


@dataclass(frozen=True)
class Entry:
    question: str
    answer: Markup  # HTML
    answer_text: str  # the same answer as plain text, for JSON-LD


def _entry(question: str, answer: str) -> Entry:
    return Entry(question, Markup("<p>") + escape(answer) + Markup("</p>"), answer)


def generated(
    model: Model,
    gpu: Gpu,
    workload: Workload,
    summary: WorkloadSummary,
    pricing: Pricing,
    tier: str,
    source_names: list[str],
) -> list[Entry]:
    """How fast, how much, which engines, how measured."""
    head = summary.headline
    target = rate(head.target)
    tiers = {t.slug: t.label for t in pricing.tiers}
    entries = []
    if head.throughput_per_gpu is not None:
        speed = (
            f"At an interactivity target of {target} tokens/s per user on the "
            f"{workload.name} workload, {gpu.name} sustains "
            f"{tokens(head.throughput_per_gpu)} {per_gpu(summary.tokens)} serving {model.name} "
            "with "
            f"{engine_name(head.engine)} in {precision_name(head.precision)}."
        )
    else:
        speed = (
            f"No measured configuration of {model.name} on {gpu.name} reaches {target} "
            f"tokens/s per user on the {workload.name} workload."
        )
    speed += (
        f" Peak measured throughput across all configs is "
        f"{tokens(summary.peak_throughput_per_gpu)} {per_gpu(summary.tokens)}."
    )
    entries.append(_entry(f"How fast is {model.name} on {gpu.name}?", speed))

    cost = head.cost_per_million_tokens
    if cost is None:
        why = (
            "no configuration reaches that speed"
            if head.throughput_per_gpu is None
            else f"no price is known for {gpu.name}"
        )
        money = f"The cost at {target} tokens/s per user cannot be given: {why}."
    else:
        parts = [
            f"{dollars(value)} at {tiers[slug]}" for slug, value in cost.items() if slug != tier
        ]
        money = (
            f"{dollars(cost.get(tier))} per million {counted_all(summary.tokens)} at the "
            f"{tiers.get(tier, tier)} pricing tier, at {target} tokens/s per user"
            + (f" ({human_list(parts)} pricing)" if parts else "")
            + ". Slower interactivity targets lower the cost further."
        )
    entries.append(_entry(f"How much does it cost to serve {model.name} on {gpu.name}?", money))

    combos = [f"{engine_name(c.engine)} in {precision_name(c.precision)}" for c in summary.curves]
    engines = (
        f"The current runs behind this page used {human_list(combos)}. Each engine x "
        "precision is ranked on its own frontier; the ladder names the best at each "
        "target."
    )
    entries.append(_entry(f"Which serving engines run {model.name} on {gpu.name}?", engines))

    how = (
        f"Each number comes from {human_list(source_names)} runs on {gpu.name}, sweeping "
        f"concurrency on the {workload.name} workload to trace throughput per GPU against "
        f"tokens/s per user; the newest run is from {summary.last_date.isoformat()}. "
        "Values between measured configs are read off a monotone curve through the "
        "frontier; no value is given beyond the fastest measured config."
    )
    entries.append(_entry(f"How are these {model.name} numbers measured?", how))
    return entries
