"""The rules of docs/data.md: each function turns one parsed file into value objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .checker import MISSING, Checker
from .model import (
    CanonicalResult,
    Catalogs,
    DecodeCell,
    Gpu,
    Latency,
    MatrixRun,
    Model,
    PrefillRow,
    Pricing,
    SiteConfig,
    SweepConfig,
    SweepRun,
    Tier,
    Workload,
)
from .names import fold
from .problems import describe
from .urls import base_url_problem
from .yamlpos import Path_

DEFAULT_TARGETS = (30, 50, 75, 100, 150, 200)
FRONTIER_METHODS = ("interpolate", "measured")
# Beyond these a figure is more likely a unit mistake than a measurement.
TTFT_PLAUSIBLE_MS = (1.0, 600_000.0)
TPOT_PLAUSIBLE_MS = (0.2, 10_000.0)
INTERACTIVITY_TOLERANCE = 0.01


def _natural(value: float) -> float | int:
    """30.0 -> 30, so that whole-number targets read as the site owner wrote them."""
    return int(value) if float(value).is_integer() else value


def _catalog(c: Checker, data: Any, build) -> dict:
    """models.yaml, gpus.yaml, workloads.yaml: a mapping of slug -> entry."""
    entries: dict = {}
    top = c.mapping(data, (), "a mapping of slug -> entry")
    for slug, body in (top or {}).items():
        path: Path_ = (slug,)
        if not c.slug_key(slug, path):
            continue
        fields = c.mapping(body, path)
        if fields is not None:
            entry = build(c, slug, fields, path)
            if entry is not None:
                entries[slug] = entry
    _lookalikes(c, entries)
    _claimed(c, entries)
    return entries


def _aliases(c: Checker, m: dict, path: Path_) -> tuple[str, ...]:
    """A catalog entry's `aliases`: the names other tools give it, a list of strings."""
    raw = m.get("aliases")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        c.expected(path + ("aliases",), "a list of names other tools give it", raw)
        return ()
    found = []
    items = dict(enumerate(raw))
    for i in items:
        name = c.name(items, path + ("aliases",), i)
        if name is not None and name.strip():
            found.append(name.strip())
        elif name is not None:
            c.expected(path + ("aliases", i), "a name", name)
    return tuple(found)


def _claimed(c: Checker, entries: dict) -> None:
    """An alias names one entry: one that is another entry's slug or alias (case aside) is an
    error, as an importer could not tell which is meant."""
    owner = {slug.lower(): slug for slug in entries}
    for slug, entry in entries.items():
        for i, alias in enumerate(entry.aliases):
            other = owner.setdefault(alias.lower(), slug)
            if other != slug:
                c.error(
                    (slug, "aliases", i),
                    f'"{alias}" also names {other} (line {c.doc.line((other,))}): an alias '
                    "may name one entry only",
                )


def _lookalikes(c: Checker, entries: dict) -> None:
    """Warn about an entry whose name reads as an earlier one's: two rows would look alike."""
    seen: dict[str, str] = {}
    for slug, entry in entries.items():
        other = seen.setdefault(fold(entry.name), slug)
        if other != slug:
            c.warn(
                (slug, "name"),
                f"{describe(entry.name)} looks like the name of {other} "
                f"(line {c.doc.line((other, 'name'))}): pages would show two entries alike",
            )


def _model(c: Checker, slug: str, m: dict, path: Path_) -> Model | None:
    c.unknown_keys(m, path, ("name", "hf_id", "vendor", "aliases") + MODEL_SHAPE)
    name = c.name(m, path, "name")
    entry = Model(
        slug=slug,
        name=name or slug,
        hf_id=c.string(m, path, "hf_id", required=False),
        vendor=c.string(m, path, "vendor", required=False),
        total_params_b=c.number(m, path, "total_params_b", required=False),
        active_params_b=c.number(m, path, "active_params_b", required=False),
        experts=c.integer(m, path, "experts", required=False),
        experts_per_token=c.integer(m, path, "experts_per_token", required=False),
        kv_bytes_per_token=c.number(m, path, "kv_bytes_per_token", required=False),
        aliases=_aliases(c, m, path),
    )
    _model_shape(c, entry, path)
    return entry if name else None


# what calc/limits.py reads of a model: its weights, their experts, its KV cache
MODEL_SHAPE = (
    "total_params_b",
    "active_params_b",
    "experts",
    "experts_per_token",
    "kv_bytes_per_token",
)


def _model_shape(c: Checker, m: Model, path: Path_) -> None:
    """The shape's fields must describe one model: an expert count comes with the experts a
    token uses (fewer), and a token uses no more parameters than the model has."""
    if (m.experts is None) != (m.experts_per_token is None):
        given, other = (
            ("experts", "experts_per_token")
            if m.experts is not None
            else ("experts_per_token", "experts")
        )
        c.error(path + (other,), f"required where {given} is given (a mixture of experts)")
    elif m.experts is not None and m.experts_per_token >= m.experts:
        c.error(
            path + ("experts_per_token",),
            f"expected fewer than experts ({m.experts}), got {m.experts_per_token}",
        )
    if m.total_params_b and m.active_params_b and m.active_params_b > m.total_params_b:
        c.error(
            path + ("active_params_b",),
            f"expected at most total_params_b ({m.total_params_b:g}), got {m.active_params_b:g}",
        )


def _gpu(c: Checker, slug: str, m: dict, path: Path_) -> Gpu | None:
    c.unknown_keys(
        m,
        path,
        ("name", "vendor", "memory_gb", "hbm_tb_s", "tdp_w", "all_in_power_kw", "aliases"),
    )
    name = c.name(m, path, "name")
    entry = Gpu(
        slug=slug,
        name=name or slug,
        vendor=c.string(m, path, "vendor", required=False),
        memory_gb=c.number(m, path, "memory_gb", required=False),
        hbm_tb_s=c.number(m, path, "hbm_tb_s", required=False),
        tdp_w=c.number(m, path, "tdp_w", required=False),
        all_in_power_kw=c.number(m, path, "all_in_power_kw", required=False),
        aliases=_aliases(c, m, path),
    )
    return entry if name else None


def _workload(c: Checker, slug: str, m: dict, path: Path_) -> Workload | None:
    c.unknown_keys(m, path, ("name", "description", "isl", "osl", "aliases"))
    name = c.name(m, path, "name")
    entry = Workload(
        slug=slug,
        name=name or slug,
        description=c.string(m, path, "description", required=False),
        isl=c.integer(m, path, "isl", required=False),
        osl=c.integer(m, path, "osl", required=False),
        aliases=_aliases(c, m, path),
    )
    return entry if name else None


def models(c: Checker, data: Any) -> dict[str, Model]:
    return _catalog(c, data, _model)


def gpus(c: Checker, data: Any) -> dict[str, Gpu]:
    return _catalog(c, data, _gpu)


def workloads(c: Checker, data: Any) -> dict[str, Workload]:
    return _catalog(c, data, _workload)


def pricing(c: Checker, data: Any, known_gpus: dict[str, Gpu]) -> Pricing:
    top = c.mapping(data, (), "a mapping with source, as_of, tiers and prices") or {}
    c.unknown_keys(top, (), ("source", "as_of", "tiers", "prices"))
    tiers: list[Tier] = []
    for slug, body in (c.mapping(top.get("tiers"), ("tiers",)) or {}).items():
        path: Path_ = ("tiers", slug)
        if c.slug_key(slug, path) and (fields := c.mapping(body, path)) is not None:
            label = c.name(fields, path, "label")
            tiers.append(Tier(slug, label or slug))
    if isinstance(top.get("tiers"), dict) and not top["tiers"]:
        c.error(("tiers",), "expected at least one tier, such as owning: {label: Owning}")
    tier_slugs = {t.slug for t in tiers}
    prices: dict[str, dict[str, float]] = {}
    for gpu, body in (c.mapping(top.get("prices"), ("prices",)) or {}).items():
        path = ("prices", gpu)
        if gpu not in known_gpus:
            c.expected(path, "a GPU slug defined in data/gpus.yaml", gpu)
            continue
        if body is None:  # `h200-nvl: null`: the source has no price for it, said on purpose
            prices[gpu] = {}
            continue
        per_tier: dict[str, float] = {}
        for tier, _ in (c.mapping(body, path) or {}).items():
            if tier not in tier_slugs:
                c.expected(path + (tier,), "a tier defined under tiers", tier)
            elif (price := c.number(body, path, tier)) is not None:
                per_tier[tier] = price
        if isinstance(body, dict):
            for tier in tiers:
                if tier.slug not in body:
                    c.warn(
                        path + (tier.slug,),
                        f"no {tier.slug} price for GPU {gpu!r}; its {tier.slug} cost cells will "
                        "say that no price is known",
                    )
        prices[gpu] = per_tier
    return Pricing(
        source=c.string(top, (), "source") or "",
        as_of=c.dated_text(top, (), "as_of") or "",
        tiers=tuple(tiers),
        prices=prices,
    )


def site_config(c: Checker, data: Any, known_workloads: dict, pricing: Pricing) -> SiteConfig:
    top = c.mapping(data, (), "a mapping of site settings") or {}
    c.unknown_keys(
        top,
        (),
        ("title", "description", "base_url", "default_workload", "targets", "headline", "frontier")
        + ("license", "cards", "change_threshold", "spread_days", "search"),
    )
    base_url = c.string(top, (), "base_url")
    if base_url and (why := base_url_problem(base_url)):
        c.expected(("base_url",), why, base_url)
        base_url = None
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    default_workload = next(iter(known_workloads), "")
    if "default_workload" in top:
        default_workload = (
            c.ref(top, (), "default_workload", known_workloads, "data/workloads.yaml")
            or default_workload
        )
    targets = DEFAULT_TARGETS
    if "targets" in top:
        raw = top["targets"]
        if not isinstance(raw, list) or not raw:
            c.expected(("targets",), "a non-empty list of tokens/s per user", raw)
        else:
            picked = [c.as_number(v, ("targets", i)) for i, v in enumerate(raw)]
            good = [t for t in picked if t is not None]
            if len(set(good)) != len(good):
                c.error(("targets",), "each target may appear only once")
            targets = tuple(_natural(t) for t in sorted(set(good))) or DEFAULT_TARGETS
    headline = c.mapping(top.get("headline", {}), ("headline",)) or {}
    tiers = pricing.slugs
    interactivity = c.number(headline, ("headline",), "interactivity", required=False)
    tier = (
        c.choice(headline, ("headline",), "tier", tiers, default=tiers[0])
        if tiers  # none: data/pricing.yaml is reported already
        else ""
    )
    frontier = c.mapping(top.get("frontier", {}), ("frontier",)) or {}
    method = c.choice(frontier, ("frontier",), "method", FRONTIER_METHODS, default="interpolate")
    return SiteConfig(
        cards=_cards(c, top),
        title=c.name(top, (), "title") or "",
        description=c.string(top, (), "description", required=False) or "",
        base_url=base_url or "https://example.org/",
        default_workload=default_workload,
        targets=targets,
        headline_interactivity=_natural(interactivity or 50),
        headline_tier=tier or "",
        frontier_method=method or "interpolate",
        license=c.string(top, (), "license", required=False) or "",
        change_threshold=c.number(top, (), "change_threshold", required=False) or 0.10,
        spread_days=c.integer(top, (), "spread_days", required=False) or 30,
        search=bool(c.boolean(top, (), "search", default=True)),
    )


CARD_PAGES = ("pair", "model", "compare")  # the page kinds that can have a link-preview card


def _cards(c: Checker, top: dict) -> tuple[str, ...]:
    """The page kinds that get a link-preview card: all of them unless the site says."""
    if "cards" not in top:
        return CARD_PAGES
    raw = top["cards"]
    what = "a list of page kinds that get a link-preview card: " + ", ".join(CARD_PAGES)
    if not isinstance(raw, list):
        c.expected(("cards",), what + " (or [] for none)", raw)
        return CARD_PAGES
    for i, value in enumerate(raw):
        if value not in CARD_PAGES:
            c.expected(("cards", i), "one of " + ", ".join(CARD_PAGES), value)
    return tuple(k for k in CARD_PAGES if k in raw)


# -- run records ---------------------------------------------------------------------------

RUN_FIELDS = (
    "kind",
    "source",
    "url",
    "date",
    "model",
    "gpu",
    "engine",
    "engine_version",
    "precision",
    "notes",
    "illustrative",
)
SWEEP_FIELDS = RUN_FIELDS + ("workload", "configs")
MATRIX_FIELDS = RUN_FIELDS + (
    "title",
    "gpus",
    "power_cap_w",
    "host",
    "bench",
    "canonical",
    "prefill",
    "decode",
)
INTEGER, NUMBER, BOOLEAN, STRING, LATENCY = "integer", "number", "boolean", "string", "latency"
ALWAYS, WHEN_OK, OPTIONAL = "always", "when ok", "optional"


@dataclass(frozen=True)
class ConfigField:
    """One measured field of a sweep config: the only place a config field is declared.

    The slow checker (`_config`), the columnar screen (`columnar.py`), the config table and the
    importers all read this list; `SweepConfig` has one attribute per entry (a test holds them
    together).
    """

    name: str
    kind: str
    required: str = OPTIONAL  # ALWAYS, WHEN_OK (status ok) or OPTIONAL
    # a field that may stand in for this one: this one is required only where that one is
    # absent (the columnar screen flags every config without this one for the exact checker)
    either: str | None = None


CONFIG_SPEC = (
    ConfigField("gpus", INTEGER, ALWAYS),
    ConfigField("tp", INTEGER),
    ConfigField("pp", INTEGER),
    ConfigField("ep", INTEGER),
    ConfigField("dp", INTEGER),
    ConfigField("dp_attention", BOOLEAN),
    ConfigField("spec_decoding", STRING),
    ConfigField("disagg", BOOLEAN),
    ConfigField("prefill_gpus", INTEGER),
    ConfigField("decode_gpus", INTEGER),
    ConfigField("power_w", NUMBER),
    ConfigField("image", STRING),
    ConfigField("concurrency", INTEGER, ALWAYS, either="request_rate"),
    ConfigField("request_rate", NUMBER),  # requests/s of an open-loop source (MLPerf)
    ConfigField("throughput_per_gpu", NUMBER, WHEN_OK, either="output_throughput_per_gpu"),
    ConfigField("output_throughput_per_gpu", NUMBER),
    ConfigField("ttft_ms", LATENCY, WHEN_OK),
    ConfigField("tpot_ms", LATENCY, WHEN_OK),
    ConfigField("e2el_ms", LATENCY),
)
LATENCY_FIELDS = ("median", "mean", "p90", "p99")
# beside the measured fields: an interactivity stated by a tool (checked against the TPOT) and
# the status (a failed config need not carry figures)
CONFIG_FIELDS = tuple(f.name for f in CONFIG_SPEC) + ("interactivity", "status")
STATUSES = ("ok", "failed")
# the fields that tell two configs of a run apart (the rest are what was measured)
CONFIG_KEY = (
    "gpus",
    "tp",
    "pp",
    "ep",
    "dp",
    "dp_attention",
    "spec_decoding",
    "disagg",
    "prefill_gpus",
    "decode_gpus",
    "concurrency",
    "request_rate",
)


def _run_fields(c: Checker, r: dict, catalogs: Catalogs) -> dict:
    return dict(
        source=c.name(r, (), "source"),
        url=c.url(r, (), "url"),
        date=c.date(r, (), "date"),
        model=c.ref(r, (), "model", catalogs.models, "data/models.yaml"),
        gpu=c.ref(r, (), "gpu", catalogs.gpus, "data/gpus.yaml"),
        engine=c.name(r, (), "engine"),
        engine_version=c.string(r, (), "engine_version", required=False),
        precision=c.name(r, (), "precision"),
        notes=c.string(r, (), "notes", required=False),
        illustrative=c.boolean(r, (), "illustrative", default=False),
    )


def _latency(c: Checker, obj: dict, path: Path_, key: str, required: bool) -> Latency | None:
    raw = obj.get(key)
    if raw is None:
        if required:
            c.expected(path + (key,), "a mapping with a median in ms", MISSING)
        return None
    if isinstance(raw, bool) or not isinstance(raw, dict):
        c.expected(path + (key,), "a mapping such as {median: 20.5}", raw)
        return None
    here = path + (key,)
    c.unknown_keys(raw, here, LATENCY_FIELDS)
    median = c.number(raw, here, "median")
    spread = {k: c.number(raw, here, k, required=False) for k in ("mean", "p90", "p99")}
    return Latency(median, **spread) if median is not None else None


def _field(c: Checker, m: dict, path: Path_, spec: ConfigField, ok: bool) -> Any:
    required = spec.required == ALWAYS or (spec.required == WHEN_OK and ok)
    if required and spec.either is not None and m.get(spec.name) is None:
        if m.get(spec.either) is None:
            what = "an integer >= 1" if spec.kind == INTEGER else "a number > 0"
            c.error(path + (spec.name,), f"expected {what} (or {spec.either}), got nothing")
        return None
    if spec.kind == INTEGER:
        return c.integer(m, path, spec.name, required=required)
    if spec.kind == NUMBER:
        return c.number(m, path, spec.name, required=required)
    if spec.kind == LATENCY:
        return _latency(c, m, path, spec.name, required=required)
    if spec.kind == BOOLEAN:
        return c.boolean(m, path, spec.name)
    return c.string(m, path, spec.name, required=required)


def _config(c: Checker, m: dict, path: Path_) -> SweepConfig | None:
    c.unknown_keys(m, path, CONFIG_FIELDS)
    status = c.choice(m, path, "status", STATUSES, default="ok")
    errors_before = c.errors
    values = {spec.name: _field(c, m, path, spec, status == "ok") for spec in CONFIG_SPEC}
    tpot = values["tpot_ms"]
    if tpot is not None and "interactivity" in m:
        stated = c.number(m, path, "interactivity")
        derived = 1000.0 / tpot.median
        if stated is not None and abs(stated - derived) > INTERACTIVITY_TOLERANCE * derived:
            c.error(
                path + ("interactivity",),
                f"expected 1000 / tpot_ms.median = {derived:.4g} (within 1 %), got {stated:g}",
            )
    _plausible(
        c,
        path,
        values["ttft_ms"],
        tpot,
        values["throughput_per_gpu"],
        values["output_throughput_per_gpu"],
    )
    if c.errors > errors_before or values["gpus"] is None:
        return None
    return SweepConfig(status=status or "ok", **values)


def _plausible(
    c: Checker,
    path: Path_,
    ttft: Latency | None,
    tpot: Latency | None,
    throughput: float | None,
    output: float | None,
) -> None:
    if ttft is not None and not TTFT_PLAUSIBLE_MS[0] <= ttft.median <= TTFT_PLAUSIBLE_MS[1]:
        c.warn(
            path + ("ttft_ms", "median"),
            f"implausible TTFT of {ttft.median:g} ms (expected 1 ms to 10 minutes; "
            "seconds written as ms?)",
        )
    if tpot is not None and not TPOT_PLAUSIBLE_MS[0] <= tpot.median <= TPOT_PLAUSIBLE_MS[1]:
        c.warn(
            path + ("tpot_ms", "median"),
            f"implausible TPOT of {tpot.median:g} ms (expected 0.2 ms to 10 s)",
        )
    if throughput is not None and output is not None and output > throughput:
        c.warn(
            path + ("output_throughput_per_gpu",),
            "output throughput above total throughput (total must count input + output)",
        )


def _config_key(config: SweepConfig) -> tuple:
    return tuple(getattr(config, name) for name in CONFIG_KEY)


def sweep_fields(c: Checker, r: dict, catalogs: Catalogs) -> dict:
    """A sweep record's own fields (all but its configs), checked."""
    c.unknown_keys(r, (), SWEEP_FIELDS)
    fields = _run_fields(c, r, catalogs)
    fields["workload"] = c.ref(r, (), "workload", catalogs.workloads, "data/workloads.yaml")
    return fields


def sweep(c: Checker, r: dict, run_id: str, rel: str, catalogs: Catalogs) -> SweepRun | None:
    fields = sweep_fields(c, r, catalogs)
    raw = r.get("configs")
    configs: list[tuple[int, SweepConfig]] = []
    if not isinstance(raw, list) or not raw:
        got = raw if raw is not None else MISSING
        c.expected(("configs",), "a list of at least one measured config", got)
    else:
        seen: dict[tuple, int] = {}
        for i, item in enumerate(raw):
            if (m := c.mapping(item, ("configs", i))) is None:
                continue
            config = _config(c, m, ("configs", i))
            if config is None:
                continue
            key = _config_key(config)
            if key in seen:
                c.warn(
                    ("configs", i),
                    "duplicate config: same GPUs, parallelism and concurrency as "
                    + c.doc.place_name(("configs", seen[key])),
                )
            seen.setdefault(key, i)
            configs.append((i, config))
        _one_count(c, configs)
    if c.failed:
        return None
    made = tuple(config for _, config in configs)
    return SweepRun(id=run_id, path=rel, kind="sweep", configs=made, **fields)


def _one_count(c: Checker, configs: list[tuple[int, SweepConfig]]) -> None:
    """A record counts total tokens (throughput_per_gpu) in every ok config or in none: a
    source that counts generated tokens only gives output_throughput_per_gpu alone."""
    ok = [(i, config) for i, config in configs if config.ok]
    total = [i for i, config in ok if config.throughput_per_gpu is not None]
    if total and len(total) < len(ok):
        first = c.doc.place_name(("configs", total[0]))
        for i, config in ok:
            if config.throughput_per_gpu is None:
                c.error(
                    ("configs", i, "throughput_per_gpu"),
                    f"expected a number > 0, as {first} gives one (a record counts total "
                    "tokens in all its configs or in none)",
                )


def _rows(c: Checker, r: dict, key: str, required: bool, build) -> list:
    raw = r.get(key)
    if raw is None:
        if required:
            c.expected((key,), "a non-empty list", MISSING)
        return []
    if not isinstance(raw, list) or (required and not raw):
        c.expected((key,), "a non-empty list" if required else "a list", raw)
        return []
    rows = []
    for i, item in enumerate(raw):
        if (m := c.mapping(item, (key, i))) is not None:
            row = build(c, m, (key, i))
            if row is not None:
                rows.append(row)
    return rows


CANONICAL_FIELDS = ("label", "value", "unit")
PREFILL_FIELDS = ("context", "prompt_tokens", "ttft_s", "tok_s")
DECODE_FIELDS = ("context", "concurrency", "aggregate_tok_s", "per_request_tok_s", "ttft_s")


def _canonical(c: Checker, m: dict, path: Path_) -> CanonicalResult | None:
    c.unknown_keys(m, path, CANONICAL_FIELDS)
    label, value, unit = (
        c.string(m, path, "label"),
        c.number(m, path, "value"),
        c.string(m, path, "unit"),
    )
    return CanonicalResult(label, value, unit) if None not in (label, value, unit) else None


def _prefill(c: Checker, m: dict, path: Path_) -> PrefillRow | None:
    c.unknown_keys(m, path, PREFILL_FIELDS)
    values = (
        c.integer(m, path, "context", minimum=0),
        c.integer(m, path, "prompt_tokens"),
        c.number(m, path, "ttft_s"),
        c.number(m, path, "tok_s"),
    )
    return PrefillRow(*values) if None not in values else None


def _decode(c: Checker, m: dict, path: Path_) -> DecodeCell | None:
    c.unknown_keys(m, path, DECODE_FIELDS)
    values = (
        c.integer(m, path, "context", minimum=0),
        c.integer(m, path, "concurrency"),
        c.number(m, path, "aggregate_tok_s"),
        c.number(m, path, "per_request_tok_s"),
        c.number(m, path, "ttft_s"),
    )
    return DecodeCell(*values) if None not in values else None


def matrix(c: Checker, r: dict, run_id: str, rel: str, catalogs: Catalogs) -> MatrixRun | None:
    c.unknown_keys(r, (), MATRIX_FIELDS)
    fields = _run_fields(c, r, catalogs)
    gpus = c.integer(r, (), "gpus")
    power_cap_w = c.number(r, (), "power_cap_w", required=False)
    host = _free_fields(c, r, "host")
    bench = _free_fields(c, r, "bench")
    in_node = c.integer(host, ("host",), "gpus_in_node", required=False)
    c.number(host, ("host",), "rated_power_w", required=False)
    c.number(bench, ("bench",), "decode_seconds", required=False)
    c.integer(bench, ("bench",), "max_output_tokens", required=False)
    if gpus is not None and in_node is not None and gpus > in_node:
        c.error(("gpus",), f"expected at most host.gpus_in_node = {in_node} GPUs, got {gpus}")
    canonical = _rows(c, r, "canonical", False, _canonical)
    prefill = _rows(c, r, "prefill", False, _prefill)
    decode = _rows(c, r, "decode", True, _decode)
    _check_prefill(c, r)
    _check_grid(c, r, decode)
    title = c.name(r, (), "title", required=False)
    if c.failed:
        return None
    model = catalogs.models[fields["model"]]
    title = title or f"{model.name} on {fields['engine']}, measured with {fields['source']}"
    return MatrixRun(
        id=run_id,
        path=rel,
        kind="matrix",
        title=title,
        gpus=gpus,
        power_cap_w=power_cap_w,
        host=host,
        bench=bench,
        canonical=tuple(canonical),
        prefill=tuple(prefill),
        decode=tuple(decode),
        **fields,
    )


def _free_fields(c: Checker, r: dict, key: str) -> dict:
    """host and bench: any names, each with a plain value the report can print."""
    fields = c.mapping(r.get(key, {}), (key,)) or {}
    good = {}
    for name, value in fields.items():
        if not isinstance(name, str):
            c.expected((key, name), "a field name (text)", name)
        elif value is not None and not isinstance(value, str | int | float | bool):
            c.expected((key, name), "a plain value (text or a number)", value)
        else:
            good[name] = value
    return good


def _hashable(value: object) -> bool:
    """A context or concurrency that can be compared with others (a list cannot)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _check_prefill(c: Checker, r: dict) -> None:
    """One cold request per context: a second row for the same context is an error."""
    seen: dict[object, int] = {}
    raw = r.get("prefill")
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(item, dict) or "context" not in item:
            continue
        if not _hashable(item["context"]):
            continue
        context = item["context"]
        if context in seen:
            c.error(
                ("prefill", i, "context"),
                f"duplicate row: context {context} is also prefill[{seen[context]}]",
            )
        seen.setdefault(context, i)


def _check_grid(c: Checker, r: dict, cells: list[DecodeCell]) -> None:
    """A grid has one cell per (context, concurrency), and no holes."""
    seen: dict[tuple, int] = {}
    raw = r.get("decode")
    items = raw if isinstance(raw, list) else []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        key = (item.get("context"), item.get("concurrency"))
        if not _hashable(key):
            continue  # a list where a number goes: reported by the cell's own check
        if key in seen:
            c.error(
                ("decode", i),
                f"duplicate cell: context {key[0]}, concurrency {key[1]} "
                f"is also decode[{seen[key]}]",
            )
        seen.setdefault(key, i)
    if len(cells) != len(items):
        return  # a cell with a bad field is reported already; holes would only echo it
    contexts = sorted({cell.context for cell in cells})
    concurrencies = sorted({cell.concurrency for cell in cells})
    have = {(cell.context, cell.concurrency) for cell in cells}
    # the line of the row that lacks the cell points the reader at the right place
    row_of = {cell.context: i for i, cell in reversed(list(enumerate(cells)))}
    for context in contexts:
        for concurrency in concurrencies:
            if (context, concurrency) not in have:
                line = c.doc.line(("decode", row_of[context]))
                message = (
                    f"missing cell: context {context}, concurrency {concurrency} "
                    f"(a grid needs every pair of its {len(contexts)} contexts and "
                    f"{len(concurrencies)} concurrencies)"
                )
                c.error_at(line, "decode", message)
