"""Energy per token from a GPU's power: measured with the config, or the catalog's all-in figure.

Pure numbers, no I/O. Definitions as docs/pages.md gives them: joules per token = power per
GPU (W) / tokens/s per GPU; tokens per kWh = 3.6e6 / joules per token; tokens/s per MW =
tokens/s per GPU x 1e6 / power per GPU (W).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .frontier import Point

MEASURED = "measured"  # the configs' own average power per GPU (InferenceX's avg_power_w)
ALL_IN = "all_in"  # gpus.yaml's all_in_power_kw: the GPU with its share of server and cooling
JOULES_PER_KWH = 3.6e6


@dataclass(frozen=True)
class Power:
    source: str  # MEASURED or ALL_IN
    per_gpu_w: float
    per_gpu_mw: float  # the same power in MW, converted once from the figure as it was given


@dataclass(frozen=True)
class Energy:
    """What a rung's throughput costs in energy; field names and order as data.json has them."""

    power: str
    power_per_gpu_w: float
    joules_per_token: float
    tokens_per_kwh: float
    tokens_per_s_per_mw: float


def all_in(power_kw: float | None) -> Power | None:
    return Power(ALL_IN, power_kw * 1000.0, power_kw / 1000.0) if power_kw else None


def measured(power_w: float) -> Power:
    return Power(MEASURED, power_w, power_w / 1e6)


def energy(throughput_per_gpu: float, power: Power) -> Energy:
    joules = power.per_gpu_w / throughput_per_gpu
    return Energy(
        power=power.source,
        power_per_gpu_w=power.per_gpu_w,
        joules_per_token=joules,
        tokens_per_kwh=JOULES_PER_KWH / joules,
        tokens_per_s_per_mw=throughput_per_gpu / power.per_gpu_mw,
    )


def power_at(
    frontier: Sequence[Point],
    power_w: Sequence[float | None],
    target: float,
    method: str = "interpolate",
) -> float | None:
    """Measured power per GPU behind a curve's value at `target`, read as frontier.value_at
    reads the throughput; None where the target is out of reach or a point it reads has none.

    `power_w[i]` belongs to `frontier[i]`. Below the slowest point: that (peak) point's power;
    `measured`: the power of the point whose throughput is taken; `interpolate`: linear in
    tokens/s per user between the two measured neighbours.
    """
    if not frontier or target > frontier[-1].interactivity:
        return None
    xs = [p.interactivity for p in frontier]
    if target <= xs[0]:
        return power_w[0]
    # frontier throughput falls from left to right: the best point at or above the target
    # is the first one there
    right = next(i for i, x in enumerate(xs) if x >= target)
    if method == "measured" or xs[right] == target:
        return power_w[right]
    left = right - 1
    low, high = power_w[left], power_w[right]
    if low is None or high is None:
        return None
    share = (target - xs[left]) / (xs[right] - xs[left])
    return low + (high - low) * share
