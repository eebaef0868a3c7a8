"""Frozen value objects for a site's data, as the checks leave them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..layout import SiteLayout


@dataclass(frozen=True)
class Model:
    slug: str
    name: str
    hf_id: str | None = None
    vendor: str | None = None
    total_params_b: float | None = None
    active_params_b: float | None = None  # the parameters one token uses (all, if dense)
    experts: int | None = None  # mixture of experts: routed experts per MoE layer
    experts_per_token: int | None = None  # routed experts each token uses
    kv_bytes_per_token: float | None = None  # KV-cache bytes one token of context adds
    aliases: tuple[str, ...] = ()  # names other tools give it (importers map them to the slug)


@dataclass(frozen=True)
class Gpu:
    slug: str
    name: str
    vendor: str | None = None
    memory_gb: float | None = None
    hbm_tb_s: float | None = None
    tdp_w: float | None = None
    all_in_power_kw: float | None = None
    aliases: tuple[str, ...] = ()  # names other tools give it (importers map them to the slug)


@dataclass(frozen=True)
class Workload:
    slug: str
    name: str
    description: str | None = None
    isl: int | None = None
    osl: int | None = None
    aliases: tuple[str, ...] = ()  # names other tools give it (importers map them to the slug)


@dataclass(frozen=True)
class Tier:
    slug: str
    label: str


@dataclass(frozen=True)
class Pricing:
    source: str
    as_of: str
    tiers: tuple[Tier, ...]
    # gpu slug -> tier slug -> US$ per GPU-hour
    prices: dict[str, dict[str, float]] = field(default_factory=dict)

    def for_gpu(self, gpu: str) -> dict[str, float]:
        return self.prices.get(gpu, {})

    @property
    def slugs(self) -> list[str]:
        """The tiers' slugs, in the file's order."""
        return [t.slug for t in self.tiers]


@dataclass(frozen=True)
class Latency:
    """One latency in milliseconds: the median, and whichever spread figures were given."""

    median: float
    mean: float | None = None
    p90: float | None = None
    p99: float | None = None


@dataclass(frozen=True)
class SweepConfig:
    """One measured configuration of a sweep."""

    gpus: int
    concurrency: int | None  # None where the source is open loop (request_rate)
    # total tokens/s per GPU: None on failed configs, which need not carry figures, and in
    # a record that counts output tokens only
    throughput_per_gpu: float | None
    ttft_ms: Latency | None
    tpot_ms: Latency | None
    output_throughput_per_gpu: float | None = None
    request_rate: float | None = None  # requests/s of an open-loop source
    e2el_ms: Latency | None = None
    status: str = "ok"
    tp: int | None = None
    pp: int | None = None
    ep: int | None = None
    dp: int | None = None
    dp_attention: bool | None = None
    spec_decoding: str | None = None
    disagg: bool | None = None
    prefill_gpus: int | None = None
    decode_gpus: int | None = None
    power_w: float | None = None
    image: str | None = None

    @property
    def interactivity(self) -> float:
        """Decode tokens/s seen by one user: 1000 / median TPOT in ms."""
        return 1000.0 / self.tpot_ms.median if self.tpot_ms else float("nan")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def parallelism(self) -> str:
        """TP8 EP8 style label; disaggregated configs show their prefill/decode split."""
        parts = [
            f"{name.upper()}{value}"
            for name in ("tp", "pp", "ep", "dp")
            if (value := getattr(self, name)) and value > 1
        ]
        if self.dp_attention:
            parts.append("DP-attn")
        if self.disagg:
            parts.append(f"disagg {self.prefill_gpus or '?'}P/{self.decode_gpus or '?'}D")
        if self.spec_decoding and self.spec_decoding != "none":
            parts.append(self.spec_decoding.upper())
        if parts:
            return " ".join(parts)
        return "single GPU" if self.gpus == 1 else f"{self.gpus} GPUs"


@dataclass(frozen=True)
class Run:
    """What every run record has, whatever its kind."""

    id: str
    path: str  # relative to the site root, for messages and links
    kind: str
    source: str
    date: dt.date
    model: str
    gpu: str
    engine: str
    precision: str
    url: str | None = None
    engine_version: str | None = None
    notes: str | None = None
    illustrative: bool = False


@dataclass(frozen=True)
class SweepRun(Run):
    workload: str = ""
    configs: Sequence[SweepConfig] = ()  # a tuple, or columnar.ConfigRows of the site's table


@dataclass(frozen=True)
class PrefillRow:
    context: int
    prompt_tokens: int
    ttft_s: float
    tok_s: float


@dataclass(frozen=True)
class DecodeCell:
    context: int
    concurrency: int
    aggregate_tok_s: float
    per_request_tok_s: float
    ttft_s: float


@dataclass(frozen=True)
class CanonicalResult:
    label: str
    value: float
    unit: str


@dataclass(frozen=True)
class MatrixRun(Run):
    title: str = ""
    gpus: int = 1
    power_cap_w: float | None = None
    host: dict = field(default_factory=dict)
    bench: dict = field(default_factory=dict)
    canonical: tuple[CanonicalResult, ...] = ()
    prefill: tuple[PrefillRow, ...] = ()
    decode: tuple[DecodeCell, ...] = ()


@dataclass(frozen=True)
class SiteConfig:
    title: str
    base_url: str
    default_workload: str
    targets: tuple[float, ...]
    headline_interactivity: float
    headline_tier: str
    frontier_method: str = "interpolate"
    description: str = ""
    license: str = ""  # of the published numbers: a URL, an SPDX identifier or a name
    cards: tuple[str, ...] = ("pair", "model", "compare")  # page kinds with a link-preview card
    # the relative change of a curve's rung between run dates that makes a change entry
    change_threshold: float = 0.10
    spread_days: int = 30  # a ladder's spread reads the winning curve's runs this many days back
    search: bool = True  # a search index of the pages, and a search box in their header


@dataclass(frozen=True)
class Catalogs:
    """data/models.yaml, gpus.yaml, workloads.yaml, pricing.yaml and sitegen.yaml, checked."""

    models: dict[str, Model]
    gpus: dict[str, Gpu]
    workloads: dict[str, Workload]
    pricing: Pricing
    config: SiteConfig


OUTPUT, TOTAL = "output", "total"  # what a throughput counts: generated tokens, or all
OUTPUT_WORKLOADS = "(workloads counted in output tokens)"  # a shared part of every key


@dataclass(frozen=True)
class Site:
    """Everything a build reads, checked."""

    root: str
    config: SiteConfig
    models: dict[str, Model]
    gpus: dict[str, Gpu]
    workloads: dict[str, Workload]
    pricing: Pricing
    runs: tuple[Run, ...]
    table: Any = None  # columnar.ConfigTable: every sweep config, rows of each run together
    digests: dict[str, str] = field(default_factory=dict)  # data file -> digest of its bytes
    # the workloads counted in output tokens: those with a record that gives output tokens
    # only (DATA.md: every ladder, cost and comparison of such a workload counts output tokens)
    output_workloads: frozenset[str] = frozenset()

    def run_identity(self, run: Run) -> tuple[str, str, str | None]:
        """A run as what names it and its file's bytes: (id, path, digest), the part of every
        key and fingerprint that reads a run."""
        return (run.id, run.path, self.digests.get(run.path))

    def shared_digests(self) -> list[tuple[str, str]]:
        """(file, digest) of what every page reads beside run records: the catalogs and
        sitegen.yaml, sorted."""
        runs = SiteLayout.RUNS_PREFIX
        shared = sorted((rel, d) for rel, d in self.digests.items() if not rel.startswith(runs))
        if self.output_workloads:  # what every figure of these workloads counts
            shared.append((OUTPUT_WORKLOADS, ",".join(sorted(self.output_workloads))))
        return shared

    def tokens(self, workload: str) -> str:
        """What a workload's throughput counts: "output" tokens or "total" (input + output)."""
        return OUTPUT if workload in self.output_workloads else TOTAL

    @property
    def sweeps(self) -> list[SweepRun]:
        return [r for r in self.runs if isinstance(r, SweepRun)]

    @property
    def matrices(self) -> list[MatrixRun]:
        return [r for r in self.runs if isinstance(r, MatrixRun)]
