"""A model's GPUs side by side, from the pair summaries: per workload every GPU's envelope and
ladder, the fastest and the cheapest GPU at each target; and two GPUs' ratios. No I/O.

Every figure is the pair pages' own: a GPU's value at a target is its ladder row, never
recomputed, so the model page, the comparisons and the pair pages cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from . import frontier
from .envelope import Envelope, leaders, stretches
from .tables import LadderRow, WorkloadSummary


def envelope_of(summary: WorkloadSummary, method: str) -> Envelope:
    """The upper envelope of a summary's current engine x precision curves."""
    curves = [frontier.Curve(c.engine, c.precision, c.frontier) for c in summary.curves]
    return Envelope.of(curves, method)


@dataclass(frozen=True)
class Rung:
    """One target of a model's workload across its GPUs."""

    target: float
    best: str | None  # the GPU with the most tokens/s per GPU; None if no GPU reaches it
    cheapest: dict[str, str | None]  # tier -> the GPU with the lowest $ per million tokens
    by_gpu: dict[str, LadderRow]  # every GPU measured on the workload, in `gpus` order


@dataclass(frozen=True)
class Field:
    """One model on one workload: every GPU measured on it."""

    model: str
    workload: str
    gpus: tuple[str, ...]  # best first at the headline target, unreachable last
    summaries: dict[str, WorkloadSummary]
    envelopes: dict[str, Envelope]
    rungs: tuple[Rung, ...]
    headline: Rung  # at the headline target (which need not be a rung of the ladder)
    leaders: tuple[str, ...]  # the GPUs that are the best somewhere, widest range first
    best_where: tuple[tuple[str, float, float], ...]  # (gpu, from, to) tokens/s per user


def rank(summaries: Mapping[str, WorkloadSummary]) -> tuple[str, ...]:
    """GPUs best first at the headline target; unreachable ones last, then by slug."""

    def key(gpu: str) -> tuple:
        value = summaries[gpu].headline.throughput_per_gpu
        return (value is None, -(value or 0.0), gpu)

    return tuple(sorted(summaries, key=key))


def _cheapest(rows: Mapping[str, LadderRow], tiers: Sequence[str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for tier in tiers:
        priced = [
            (row.cost_per_million_tokens[tier], gpu)
            for gpu, row in rows.items()
            if row.cost_per_million_tokens and row.cost_per_million_tokens.get(tier) is not None
        ]
        # the lowest cost; a tie goes to the GPU ranked first (rows are in rank order)
        out[tier] = min(priced, key=lambda p: p[0])[1] if priced else None
    return out


def _best(rows: Mapping[str, LadderRow]) -> str | None:
    reached = [
        (row.throughput_per_gpu, gpu)
        for gpu, row in rows.items()
        if row.throughput_per_gpu is not None
    ]
    return max(reached, key=lambda r: r[0])[1] if reached else None


def _row_at(summary: WorkloadSummary, target: float) -> LadderRow:
    return next(r for r in summary.ladder if r.target == target)


def field(
    model: str,
    workload: str,
    summaries: Mapping[str, WorkloadSummary],
    envelopes: Mapping[str, Envelope],
    tiers: Sequence[str],
) -> Field:
    """The standings of one model's workload from its GPUs' summaries and envelopes."""
    gpus = rank(summaries)
    targets = [r.target for r in summaries[gpus[0]].ladder]
    rungs = []
    for target in targets:
        rows = {g: _row_at(summaries[g], target) for g in gpus}
        rungs.append(Rung(target, _best(rows), _cheapest(rows, tiers), rows))
    heads = {g: summaries[g].headline for g in gpus}
    headline = Rung(heads[gpus[0]].target, _best(heads), _cheapest(heads, tiers), heads)
    ordered = [envelopes[g] for g in gpus]
    values: list[Callable[[float], float | None]] = [e.value_at for e in ordered]
    knots = [p.interactivity for e in ordered for p in e.points()]
    found = stretches(values, knots, [e.values_at for e in ordered])
    return Field(
        model=model,
        workload=workload,
        gpus=gpus,
        summaries=dict(summaries),
        envelopes=dict(envelopes),
        rungs=tuple(rungs),
        headline=headline,
        leaders=tuple(gpus[i] for i in leaders(found)),
        best_where=tuple((gpus[s.curve], s.start, s.end) for s in found),
    )


# -- two GPUs ---------------------------------------------------------------------------------


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b, None where either is missing (or b is 0)."""
    if a is None or b is None or b == 0:
        return None
    return a / b


@dataclass(frozen=True)
class Pairing:
    """Two GPUs at one target: each side's ladder row (None: not measured on the workload)."""

    target: float
    a: LadderRow | None
    b: LadderRow | None
    throughput_ratio: float | None  # a / b
    cost_ratio: dict[str, float | None]  # tier -> a / b

    @property
    def engines_differ(self) -> bool:
        return bool(self.a and self.b and self.a.engine and self.b.engine) and (
            self.a.engine != self.b.engine
        )

    @property
    def precisions_differ(self) -> bool:
        return bool(self.a and self.b and self.a.precision and self.b.precision) and (
            self.a.precision != self.b.precision
        )


def pairing(
    target: float, a: LadderRow | None, b: LadderRow | None, tiers: Sequence[str]
) -> Pairing:
    """Two GPUs' rows at one target, with a / b of throughput and of cost at every tier."""
    cost_a = (a and a.cost_per_million_tokens) or {}
    cost_b = (b and b.cost_per_million_tokens) or {}
    return Pairing(
        target,
        a,
        b,
        ratio(a and a.throughput_per_gpu, b and b.throughput_per_gpu),
        {t: ratio(cost_a.get(t), cost_b.get(t)) for t in tiers},
    )


def pairings(
    a: WorkloadSummary | None,
    b: WorkloadSummary | None,
    targets: Sequence[float],
    tiers: Sequence[str],
) -> tuple[Pairing, ...]:
    """Both GPUs at every target of one workload, with a / b of throughput and of cost."""
    return tuple(
        pairing(
            target,
            _row_at(a, target) if a else None,
            _row_at(b, target) if b else None,
            tiers,
        )
        for target in sorted(targets)
    )


__all__ = [
    "Field",
    "Pairing",
    "Rung",
    "envelope_of",
    "field",
    "pairing",
    "pairings",
    "rank",
    "ratio",
]
