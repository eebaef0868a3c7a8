"""How close a config is to the GPU's memory bandwidth: MBU and the bandwidth limit.

The definitions are DATA.md's ("How close to the limit"): a decode step reads the weights its
batch's tokens route to and every user's KV cache; MBU is the bytes read per second over the
GPUs' bandwidth. Estimates: uniform expert routing, every user decoding at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..records import Gpu, Model, Site, SweepRun, Workload
from ..records.columnar import ConfigValues

# bytes a weight takes, by the precision a run names
BYTES_PER_WEIGHT = {
    "fp4": 0.5,
    "nvfp4": 0.5,
    "mxfp4": 0.5,
    "int4": 0.5,
    "fp8": 1.0,
    "int8": 1.0,
    "bf16": 2.0,
    "fp16": 2.0,
}

# why a config has no MBU, in the order they are looked for
SPEC_DECODING = "spec_decoding"
CONCURRENCY = "concurrency"
ISL_OSL = "isl_osl"
PRECISION = "precision"

LIMIT_POINTS = 40  # points of the limit curve a chart draws


@dataclass(frozen=True)
class Weights:
    """What one decode step reads of a model's weights, in billions of parameters: the shared
    part (attention, dense layers, shared experts) and, for a mixture of experts, each routed
    expert summed over its layers."""

    shared_b: float  # s
    expert_b: float = 0.0  # e
    experts: int = 0  # E; 0 for a dense model
    experts_per_token: int = 0  # k
    active_b: float = 0.0  # the catalog's figures these come from
    total_b: float | None = None

    def params_b(self, tokens: float, shared_copies: float = 1.0, expert_copies: float = 1.0):
        """Parameters (billions) a step of `tokens` tokens reads: the shared weights once per
        copy, and each expert a token of a copy's share of the batch is routed to, in
        expectation for uniform routing."""
        read = shared_copies * self.shared_b
        if self.experts:
            untouched = (1.0 - self.experts_per_token / self.experts) ** (tokens / expert_copies)
            read += expert_copies * self.experts * (1.0 - untouched) * self.expert_b
        return read


@dataclass(frozen=True)
class Basis:
    """The catalog facts MBU and the limit read for one model x GPU x workload x precision."""

    weights: Weights
    bytes_per_weight: float
    ctx_tokens: float  # isl + osl / 2: the mean context while decoding
    kv_bytes_per_token: float
    bandwidth_bytes_s: float  # per GPU
    total_per_output: float  # total tokens per output token: (isl + osl) / osl

    def step_bytes(self, concurrency: float, shared_copies=1.0, expert_copies=1.0) -> float:
        """Bytes one decode step reads on all the GPUs of a config."""
        params = self.weights.params_b(concurrency, shared_copies, expert_copies)
        return (
            self.bytes_per_weight * 1e9 * params
            + concurrency * self.ctx_tokens * self.kv_bytes_per_token
        )


def weights(model: Model) -> Weights | str:
    """The model's weights as a decode step reads them, or the catalog field missing."""
    if model.active_params_b is None:
        return "active_params_b"
    if model.experts is None or model.experts_per_token is None:
        return Weights(
            model.active_params_b,
            active_b=model.active_params_b,
            total_b=model.total_params_b,
        )
    if model.total_params_b is None:
        return "total_params_b"
    experts, per_token = model.experts, model.experts_per_token
    expert_b = (model.total_params_b - model.active_params_b) / (experts - per_token)
    shared_b = model.active_params_b - per_token * expert_b
    return Weights(
        shared_b, expert_b, experts, per_token, model.active_params_b, model.total_params_b
    )


def basis(model: Model, gpu: Gpu, workload: Workload, precision: str) -> Basis | str:
    """What MBU reads of the catalogs for this model, GPU, workload and precision, or the
    name of the first field it lacks (SITE.md's `mbu_missing` names)."""
    shape = weights(model)
    if isinstance(shape, str):
        return shape
    if model.kv_bytes_per_token is None:
        return "kv_bytes_per_token"
    if gpu.hbm_tb_s is None:
        return "hbm_tb_s"
    if not workload.isl or not workload.osl:
        return ISL_OSL
    bytes_per_weight = BYTES_PER_WEIGHT.get(precision.lower())
    if bytes_per_weight is None:
        return PRECISION
    return Basis(
        weights=shape,
        bytes_per_weight=bytes_per_weight,
        ctx_tokens=workload.isl + workload.osl / 2,
        kv_bytes_per_token=model.kv_bytes_per_token,
        bandwidth_bytes_s=gpu.hbm_tb_s * 1e12,
        total_per_output=(workload.isl + workload.osl) / workload.osl,
    )


def speculative(engine: str, spec_decoding: str | None) -> bool:
    """Whether a config decodes more than one token a step (MTP, Eagle, a draft model)."""
    return bool(spec_decoding) or engine.endswith("-mtp")


@dataclass(frozen=True)
class Layout:
    """How a config spreads one decode step over its GPUs (the record's fields)."""

    gpus: int
    concurrency: int | None
    tpot_ms: float
    decode_gpus: int | None = None
    tp: int | None = None
    pp: int | None = None
    ep: int | None = None
    dp_attention: bool | None = None
    spec_decoding: str | None = None

    def copies(self) -> tuple[int, float, float]:
        """(N, Rs, Re): the GPUs decoding, the copies of the shared weights and of the
        experts (one instance spans all N where the record gives neither tp nor pp)."""
        n = self.decode_gpus or self.gpus
        split = (self.tp or 1) * (self.pp or 1) if self.tp or self.pp else n
        shared = n if self.dp_attention else n / split
        experts = n / self.ep if self.ep else n / split
        return n, max(1.0, shared), max(1.0, experts)


# the config fields MBU reads, in Layout's order
LAYOUT_FIELDS = (
    "gpus",
    "concurrency",
    "tpot_ms",
    "decode_gpus",
    "tp",
    "pp",
    "ep",
    "dp_attention",
    "spec_decoding",
)
FAILED = "status"  # a failed config measured nothing


def run_mbu(site: Site, run: SweepRun, columns: dict[str, list]) -> list[tuple]:
    """(MBU, None) or (None, why none) of each config of a sweep, given as columns of Python
    values (records.columnar.ConfigValues)."""
    facts = basis(
        site.models[run.model], site.gpus[run.gpu], site.workloads[run.workload], run.precision
    )
    return [
        mbu(facts, run.engine, layout) if status == "ok" else (None, FAILED)
        for status, layout in zip(columns["status"], layouts(columns), strict=True)
    ]


def layouts(columns: dict[str, list]) -> list[Layout]:
    """The Layout of each config given as columns of Python values (LAYOUT_FIELDS' at least)."""
    fields = [columns[name] for name in LAYOUT_FIELDS]
    return [Layout(*values) for values in zip(*fields, strict=True)]


def above_limit(site: Site) -> list[tuple[SweepRun, int, float]]:
    """(run, index, MBU) of every measured config whose MBU is above 1: worth a look (the
    record may lack its expert parallelism), never an error."""
    found = []
    for run in site.sweeps:
        columns = ConfigValues.of(run.configs).columns
        for i, (value, _) in enumerate(run_mbu(site, run, columns)):
            if value is not None and value > 1:
                found.append((run, i, value))
    return found


def mbu(basis: Basis | str, engine: str, layout: Layout) -> tuple[float | None, str | None]:
    """(MBU as a fraction, None) of a measured config, or (None, why there is none)."""
    if speculative(engine, layout.spec_decoding):
        return None, SPEC_DECODING
    if isinstance(basis, str):
        return None, basis
    if not layout.concurrency:
        return None, CONCURRENCY
    n, shared, experts = layout.copies()
    steps_per_s = 1000.0 / layout.tpot_ms
    step = basis.step_bytes(layout.concurrency, shared, experts)
    return step * steps_per_s / (n * basis.bandwidth_bytes_s), None


@dataclass(frozen=True)
class Limit:
    """The bandwidth limit of one model instance on `gpus` GPUs: the most throughput per GPU
    a user speed allows when a decode step may read no more than the GPUs' bandwidth."""

    gpus: int
    basis: Basis
    max_interactivity: float  # tokens/s per user with one user: no user is faster
    curve: tuple[tuple[float, float], ...]  # (tokens/s per user, total tokens/s per GPU)

    def throughput_at(self, interactivity: float) -> float | None:
        """The limit in total tokens/s per GPU at a speed per user; None above the fastest."""
        users = most_users(self.basis, self.gpus, interactivity)
        if users is None:
            return None
        return users * interactivity / self.gpus * self.basis.total_per_output


def max_interactivity(basis: Basis, gpus: int) -> float:
    """The speed of a lone user at the bandwidth limit: N x BW / (W(1) + ctx x kv)."""
    return gpus * basis.bandwidth_bytes_s / basis.step_bytes(1.0)


def most_users(basis: Basis, gpus: int, interactivity: float) -> float | None:
    """The largest concurrency C >= 1 (a real number) whose decode step, `interactivity`
    times a second, reads no more than the GPUs' bandwidth; None where even one user can't."""
    budget = gpus * basis.bandwidth_bytes_s / interactivity  # bytes a step may read

    def fits(c: float) -> bool:
        return basis.step_bytes(c) <= budget

    if not fits(1.0):
        return None
    low, high = 1.0, 2.0
    while fits(high):  # the KV cache grows linearly: this ends
        low, high = high, high * 2.0
    while high - low > 1e-9 * high:
        middle = (low + high) / 2.0
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def limit(basis: Basis, gpus: int, slowest: float) -> Limit:
    """The limit for `gpus` GPUs from `slowest` tokens/s per user (a chart's left edge) up to
    the fastest a user can be, at LIMIT_POINTS concurrencies spaced evenly on a log scale from
    the most users at the slowest speed down to one user.

    Each point is a concurrency C and the speed u at which C users' decode step just fits the
    bandwidth, u = N x BW / (W(C) + C x ctx x kv): the step's bytes grow with C, so C is the
    largest concurrency that fits at u, as DATA.md defines the limit, with one bisection per
    curve instead of one per point."""
    fastest = max_interactivity(basis, gpus)
    most = most_users(basis, gpus, min(slowest, fastest)) or 1.0
    budget = gpus * basis.bandwidth_bytes_s  # bytes a second the GPUs can read
    curve = []
    for i in range(LIMIT_POINTS):
        users = most ** (1.0 - i / (LIMIT_POINTS - 1))
        speed = budget / basis.step_bytes(users)
        curve.append((speed, users * speed / gpus * basis.total_per_output))
    return Limit(gpus, basis, fastest, tuple(curve))
