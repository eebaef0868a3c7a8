"""The JSON and CSV downloads that docs/pages.md lists; numbers never rounded."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Callable, Sequence
from json.encoder import encode_basestring
from typing import Any

from ..calc.briefs import Brief
from ..calc.energy import Energy
from ..calc.envelope import Envelope
from ..calc.standings import Field, Pairing
from ..calc.tables import LadderRow, WorkloadSummary
from ..records import TOTAL, MatrixRun, Run, SweepConfig, SweepRun
from ..records.columnar import INTEGER_COLUMNS, ConfigValues, latency_column
from ..records.schema import BOOLEAN, CONFIG_SPEC, LATENCY, LATENCY_FIELDS, STRING


def pair_route(model: str, gpu: str) -> str:
    return f"models/{model}/{gpu}/"


def _compact(value: Any) -> str:
    """Compact JSON text, non-ASCII characters as they are, what JSON lacks (a date) as its str."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def to_json(data: Any) -> str:
    """Compact JSON, as a data file holds it."""
    return _compact(data) + "\n"


def encoded(value: Any) -> str:
    """Compact JSON of one value, to splice into a file (the overview's rows)."""
    return _compact(value)


# -- models/<model>/<gpu>/data.json and data/leaderboard.* -----------------------------------


ENERGY_FIELDS = tuple(f.name for f in dataclasses.fields(Energy))


def energy_json(energy: Energy | None) -> dict | None:
    if energy is None:
        return None
    return {name: getattr(energy, name) for name in ENERGY_FIELDS}


def rung_json(row: LadderRow) -> dict:
    return {
        "target": row.target,
        "throughput_per_gpu": row.throughput_per_gpu,
        "engine": row.engine,
        "precision": row.precision,
        "cost_per_million_tokens": row.cost_per_million_tokens,
        "cost_per_million_input_tokens": row.cost_per_million_input_tokens,
        "cost_per_million_output_tokens": row.cost_per_million_output_tokens,
        "energy": energy_json(row.energy),
        "reads": row.reads,
        "spread": row.spread,
    }


def _headline_json(summary: WorkloadSummary, tier: str) -> dict:
    head = summary.headline
    cost = (head.cost_per_million_tokens or {}).get(tier)
    return {
        "workload": summary.workload,
        "tokens": summary.tokens,
        "interactivity": head.target,
        "tier": tier,
        "throughput_per_gpu": head.throughput_per_gpu,
        "cost_per_million_tokens": cost,
        "engine": head.engine,
        "precision": head.precision,
    }


def limit_json(summary: WorkloadSummary) -> dict:
    """A pair workload's bandwidth limit (SITE.md), or null and why."""
    limit = summary.limit
    if limit is None:
        return {"limit": None, "limit_missing": summary.limit_missing}
    basis, shape = limit.basis, limit.basis.weights
    return {
        "limit": {
            "gpus": limit.gpus,
            "bandwidth_tb_s": basis.bandwidth_bytes_s / 1e12,
            "bytes_per_weight": basis.bytes_per_weight,
            "params": {
                "active_b": shape.active_b,
                "total_b": shape.total_b,
                "experts": shape.experts or None,
                "experts_per_token": shape.experts_per_token or None,
            },
            "kv_bytes_per_token": basis.kv_bytes_per_token,
            "ctx": basis.ctx_tokens,
            "max_interactivity": limit.max_interactivity,
            "curve": [{"interactivity": x, "throughput_per_gpu": y} for x, y in limit.curve],
        }
    }


def _workload_json(summary: WorkloadSummary, points: Sequence[list[dict]]) -> dict:
    return {
        "tokens": summary.tokens,
        "configs": summary.configs,
        "engines": list(summary.engines),
        "precisions": list(summary.precisions),
        "first_date": summary.first_date.isoformat(),
        "last_date": summary.last_date.isoformat(),
        "peak_throughput_per_gpu": summary.peak_throughput_per_gpu,
        "sources": list(summary.sources),
        "ladder": [rung_json(r) for r in summary.ladder],
        "curves": [
            {
                "engine": c.engine,
                "precision": c.precision,
                "frontier": [
                    {"interactivity": p.interactivity, "throughput_per_gpu": p.throughput_per_gpu}
                    for p in c.frontier
                ],
                "points": curve_points,
            }
            for c, curve_points in zip(summary.curves, points, strict=True)
        ],
        **limit_json(summary),
    }


def pair_json(
    model: str,
    gpu: str,
    summaries: list[WorkloadSummary],
    tier: str,
    points: Sequence[Sequence[list[dict]]] | None = None,
    disagreements: list[dict] | None = None,
) -> dict:
    """A pair's data.json. `points`: of each summary, each curve's points as its `points`
    reads them (curve_points), where the caller has them; `disagreements`: where its sources
    disagree (sidebyside.disagreements_json)."""
    if points is None:
        points = curve_points(summaries)
    return {
        "model": model,
        "gpu": gpu,
        "headline": _headline_json(summaries[0], tier) if summaries else None,
        "workloads": {
            s.workload: _workload_json(s, of_summary)
            for s, of_summary in zip(summaries, points, strict=True)
        },
        "disagreements": disagreements or [],
    }


def curve_points(summaries: list[WorkloadSummary]) -> list[list[list[dict]]]:
    """Each summary's curves' points, read from the config table (each read builds them anew:
    a pair's page and its data.json share one reading)."""
    return [[c.points for c in s.curves] for s in summaries]


# -- models/<model>/data.json and compare/<a>-vs-<b>/<model>/data.json ------------------------


def side_json(row: LadderRow | None) -> dict | None:
    """A GPU's ladder row at one target, as the model and comparison data list it."""
    if row is None:
        return None
    out = rung_json(row)
    del out["target"]
    return out


def _envelope_json(env: Envelope) -> list[dict]:
    return [
        {
            "interactivity": p.interactivity,
            "throughput_per_gpu": p.throughput_per_gpu,
            "engine": env.curves[p.curve].engine,
            "precision": env.curves[p.curve].precision,
        }
        for p in env.points()
    ]


def model_json(model: str, fields: list[Field], tokens: Callable[[str], str]) -> dict:
    """One model on every GPU, per workload: ranking, ladder across GPUs, envelopes.
    `tokens`: what a workload's figures count (Site.tokens)."""
    return {
        "model": model,
        "workloads": {
            f.workload: {
                "tokens": tokens(f.workload),
                "gpus": list(f.gpus),
                "ladder": [
                    {
                        "target": r.target,
                        "best": r.best,
                        "cheapest": r.cheapest,
                        "by_gpu": {g: side_json(row) for g, row in r.by_gpu.items()},
                    }
                    for r in f.rungs
                ],
                "envelopes": {g: _envelope_json(f.envelopes[g]) for g in f.gpus},
            }
            for f in fields
        },
    }


def compare_json(
    model: str,
    a: str,
    b: str,
    workloads: dict[str, tuple[Pairing, ...]],
    tokens: Callable[[str], str],
) -> dict:
    """Two GPUs for one model, per workload: both ladders and a / b at every target.
    `tokens`: what a workload's figures count (Site.tokens)."""
    side = side_json
    return {
        "model": model,
        "a": a,
        "b": b,
        "workloads": {
            workload: {
                "tokens": tokens(workload),
                "ladder": [
                    {
                        "target": p.target,
                        "a": side(p.a),
                        "b": side(p.b),
                        "throughput_ratio": p.throughput_ratio,
                        "cost_ratio": p.cost_ratio,
                    }
                    for p in rungs
                ],
            }
            for workload, rungs in workloads.items()
        },
    }


def _headline_side(row: LadderRow | None, tier: str) -> dict | None:
    """A GPU's headline row as a GPU pair's data lists it: its cost at the headline tier."""
    if row is None:
        return None
    return {
        "throughput_per_gpu": row.throughput_per_gpu,
        "engine": row.engine,
        "precision": row.precision,
        "cost_per_million_tokens": (row.cost_per_million_tokens or {}).get(tier),
    }


def gpu_pair_json(
    a: str,
    b: str,
    tier: str,
    interactivity: float,
    models: list[tuple[str, str | None, Pairing | None, str]],
    tokens: Callable[[str], str],
) -> dict:
    """Two GPUs across every model both serve: per model (model, the workload its verdict
    reads, the pairing there at the headline target, its comparison's route) both sides and
    a / b, at the headline tier."""
    return {
        "a": a,
        "b": b,
        "models": [
            {
                "model": model,
                "workload": workload,
                "tokens": tokens(workload) if workload else None,
                "interactivity": interactivity,
                "tier": tier,
                "a": _headline_side(p.a if p else None, tier),
                "b": _headline_side(p.b if p else None, tier),
                "throughput_ratio": p.throughput_ratio if p else None,
                "cost_ratio": p.cost_ratio.get(tier) if p else None,
                "url": route,
            }
            for model, workload, p, route in models
        ],
    }


def leaderboard_row(s: Brief, tokens: str) -> dict:
    """A brief's row of leaderboard.json; `tokens`: what its workload's figures count."""
    return {
        "model": s.model,
        "gpu": s.gpu,
        "workload": s.workload,
        "tokens": tokens,
        "interactivity": s.headline.target,
        "throughput_per_gpu": s.headline.throughput_per_gpu,
        "cost_per_million_tokens": s.headline.cost_per_million_tokens,
        "engine": s.headline.engine,
        "precision": s.headline.precision,
        "configs": s.configs,
        "last_date": s.last_date.isoformat(),
        "url": pair_route(s.model, s.gpu),
        "cost_per_million_input_tokens": s.headline.cost_per_million_input_tokens,
        "cost_per_million_output_tokens": s.headline.cost_per_million_output_tokens,
        "energy": energy_json(s.headline.energy),
        "sources": list(s.sources),
    }


def leaderboard_order(row: dict) -> tuple:
    """Rows counting total tokens, then those counting output tokens (never ranked against
    each other); in each, best first at the headline; unreached last; ties by model, GPU and
    workload."""
    return (
        row["tokens"] != TOTAL,
        row["throughput_per_gpu"] is None,
        -(row["throughput_per_gpu"] or 0),
        row["model"],
        row["gpu"],
        row["workload"],
    )


# A text cell starting with one of these is a formula to a spreadsheet (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A text cell, with a leading ' where a spreadsheet would read it as a formula.

    Only text goes through here: numbers are written as numbers, a minus sign and all.
    """
    return "'" + value if value.startswith(FORMULA_START) else value


def _number(value: float | None) -> str:
    return "" if value is None else repr(value)


LEADERBOARD_COSTS = ("cost_per_million_input_tokens", "cost_per_million_output_tokens")


def leaderboard_csv_header(tiers: list[str]) -> str:
    """The leaderboard CSV's first line; columns added later come after `url`."""
    return _csv_line(
        [
            "model",
            "gpu",
            "workload",
            "interactivity",
            "throughput_per_gpu",
            *[f"cost_per_million_tokens_{t}" for t in tiers],
            "engine",
            "precision",
            "configs",
            "last_date",
            "url",
            *[f"{cost}_{t}" for cost in LEADERBOARD_COSTS for t in tiers],
            *ENERGY_FIELDS,
            "tokens",
            "sources",
        ]
    )


def leaderboard_csv_line(tiers: list[str], r: dict) -> str:
    """A leaderboard.json row as a line of the CSV, at the headline point."""
    cost = r["cost_per_million_tokens"] or {}
    split = [r[name] or {} for name in LEADERBOARD_COSTS]
    used = r["energy"] or {}
    return _csv_line(
        [
            csv_text(r["model"]),
            csv_text(r["gpu"]),
            csv_text(r["workload"]),
            repr(r["interactivity"]),
            _number(r["throughput_per_gpu"]),
            *[_number(cost.get(t)) for t in tiers],
            csv_text(r["engine"] or ""),
            csv_text(r["precision"] or ""),
            r["configs"],
            csv_text(r["last_date"]),
            csv_text(r["url"]),
            *[_number(part.get(t)) for part in split for t in tiers],
            csv_text(used.get("power") or ""),  # the first field, the power's source, a word
            *[_number(used.get(name)) for name in ENERGY_FIELDS[1:]],
            r["tokens"],
            csv_text("; ".join(r["sources"])),
        ]
    )


def _csv_line(cells: list) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


# -- runs/<id>/data.json --------------------------------------------------------------------------


def _plain(value):
    """Dataclasses, tuples and dates as JSON values; None fields are kept (explicitly null)."""
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


# a config of runs/<id>/data.json: every field of a SweepConfig (null when absent), then the
# figures derived from them
_CONFIG_KEYS = (
    *(f.name for f in dataclasses.fields(SweepConfig)),
    "interactivity",
    "parallelism",
    "mbu",
    "mbu_missing",
)
_LATENCIES = frozenset(spec.name for spec in CONFIG_SPEC if spec.kind == LATENCY)
_STRINGS = frozenset(spec.name for spec in CONFIG_SPEC if spec.kind == STRING)
_TEXTS = _STRINGS | {"status", "parallelism", "mbu_missing"}
_BOOLEANS = frozenset(spec.name for spec in CONFIG_SPEC if spec.kind == BOOLEAN)
_WORDS = {None: "null", True: "true", False: "false"}
# columns whose equal values are written alike (not floats: 0.0 == -0.0)
_EXACT = _TEXTS | _BOOLEANS | INTEGER_COLUMNS
_KEYS = {name: _compact(name).replace("%", "%%") for name in (*_CONFIG_KEYS, *LATENCY_FIELDS)}
# the text of a latency with a hole for each figure
_LATENCY_TEXT = "{" + ",".join(f"{_KEYS[k]}:%s" for k in LATENCY_FIELDS) + "}"

# A part of a config's text (a %-template) and the columns filling its holes, one a hole: a
# column whose every config holds the same is written once, into the template.
Part = tuple[str, list[list]]


def _holed(name: str, column: list, nulls: int) -> list:
    """A column's values as the holes of a config's text take them: text, booleans and null as
    JSON; numbers as they are, since %s writes an int, and a float, as json does (the float's
    repr: every number of a sweep is finite, the checker takes 1e-6 to 1e12). `nulls`: how
    many are None."""
    if name in _TEXTS:
        return ["null" if v is None else encode_basestring(v) for v in column]
    if name in _BOOLEANS:
        return [_WORDS[v] for v in column]
    return ["null" if v is None else v for v in column] if nulls else column


def _field(name: str, column: list) -> Part:
    """A field of every config: null or its one value written once, else a hole."""
    nulls = column.count(None)
    if nulls == len(column):
        return "null", []
    first = column[0]
    if name in _EXACT and not nulls and column.count(first) == len(column):
        (text,) = _holed(name, [first], 0)
        return str(text).replace("%", "%%"), []
    return "%s", [_holed(name, column, nulls)]


def _latency(columns: dict[str, list], name: str) -> Part:
    """A latency of every config: its figures, or null without a median."""
    median = columns[name]
    nulls = median.count(None)
    if nulls == len(median):
        return "null", []
    parts = [_field(part, columns[latency_column(name, part)]) for part in LATENCY_FIELDS]
    if not nulls:  # an object in every config: its figures' holes in the config's text
        text = ",".join(
            f"{_KEYS[key]}:{part}" for key, (part, _) in zip(LATENCY_FIELDS, parts, strict=True)
        )
        return "{" + text + "}", [column for _, filling in parts for column in filling]
    figures = zip(
        *[_holed(part, columns[latency_column(name, part)], 1) for part in LATENCY_FIELDS],
        strict=True,
    )
    texts = [
        "null" if m is None else _LATENCY_TEXT % f for m, f in zip(median, figures, strict=True)
    ]
    return "%s", [texts]


def configs_text(values: ConfigValues, mbu: Sequence[tuple] | None = None) -> str:
    """A sweep's configs as runs/<id>/data.json lists them: the JSON text to_json writes of
    them as a list of dicts (without its newline), written column by column into one
    template of a config. `mbu`: each config's (MBU, why none), calc.limits.run_mbu.

    Column by column, not to_json of a dict per config: 97 ms of CPU instead of 218 to 221 ms
    for the 800 runs (25,600 configs) of the 100-pair bench site (best of 30 to 60, the
    collector off as in a build's workers), so some 2.4 s of the 2,000-pair site's cold build
    (16,000 runs, ~80 s of CPU): 3.0 to 3.1 %, at the 3 % a speed-up must save to stay:
    measure it again before changing it. tests/test_datafiles.py holds it to the text of the
    dicts."""
    columns = {**values.columns, "interactivity": values.interactivity}
    columns["parallelism"] = values.parallelism
    mbu = mbu or [(None, None)] * len(values)
    columns["mbu"] = [value for value, _ in mbu]
    columns["mbu_missing"] = [missing for _, missing in mbu]
    parts, holes = [], []
    for name in _CONFIG_KEYS:
        part, filling = (
            _latency(columns, name) if name in _LATENCIES else _field(name, columns[name])
        )
        parts.append(f"{_KEYS[name]}:{part}")
        holes += filling
    template = "{" + ",".join(parts) + "}"
    if not holes:  # every config the same
        return "[" + ",".join([template % ()] * len(values)) + "]"
    return "[" + ",".join([template % config for config in zip(*holes, strict=True)]) + "]"


def run_json(run: Run) -> dict:
    """The run as normalised data: the record's fields, with derived figures beside them (a
    sweep's configs are written by configs_text)."""
    # a path in the site's source tree means nothing to a reader; configs follow, derived
    skip = ("path", "configs")
    data = {
        f.name: _plain(getattr(run, f.name)) for f in dataclasses.fields(run) if f.name not in skip
    }
    if isinstance(run, MatrixRun):
        for cell in data["decode"]:
            cell["aggregate_tok_s_per_gpu"] = cell["aggregate_tok_s"] / run.gpus
        for row in data["prefill"]:
            row["tok_s_per_gpu"] = row["tok_s"] / run.gpus
    return data


def run_data_json(
    run: Run, values: ConfigValues | None = None, mbu: Sequence[tuple] | None = None
) -> str:
    """runs/<id>/data.json: run_json, and a sweep's configs as their last field. `values`: the
    sweep's configs as values, where the caller has them; `mbu`: configs_text's."""
    text = to_json(run_json(run))
    if not isinstance(run, SweepRun):
        return text
    configs = configs_text(ConfigValues.of(run.configs) if values is None else values, mbu)
    return f'{text[:-2]},"configs":{configs}}}\n'  # text ends with "}\n"
