"""How close to the limit and how sure: MBU, the bandwidth limit, the config each rung reads
and the spread of repeated runs, recomputed here from the flagship's raw records and catalogs
by DATA.md's definitions, without sitegen's code."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import REPO, config, html_text, sweep
from sitegen.cli import main
from test_flagship_data import _curve_value

BYTES_PER_WEIGHT = {"fp4": 0.5, "mxfp4": 0.5, "fp8": 1.0, "bf16": 2.0}


def _catalog(name: str) -> dict:
    return yaml.load((REPO / "data" / name).read_text(), Loader=yaml.CSafeLoader)


@pytest.fixture(scope="module")
def raw() -> dict:
    """The flagship's catalogs and every sweep record, as YAML gives them."""
    runs = {}
    for path in sorted((REPO / "data/runs").rglob("*.yaml")):
        record = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
        if record.get("kind", "sweep") == "sweep":
            rel = path.relative_to(REPO / "data/runs").with_suffix("")
            runs[str(rel).replace("/", "-")] = record
    return {
        "models": _catalog("models.yaml"),
        "gpus": _catalog("gpus.yaml"),
        "workloads": _catalog("workloads.yaml"),
        "site": yaml.safe_load((REPO / "sitegen.yaml").read_text()),
        "runs": runs,
    }


def _shape(model: dict) -> tuple[float, float, int, int]:
    """(s, e, E, k) of DATA.md: shared and per-expert billions, experts, experts per token."""
    experts, per_token = model["experts"], model["experts_per_token"]
    expert = (model["total_params_b"] - model["active_params_b"]) / (experts - per_token)
    return model["active_params_b"] - per_token * expert, expert, experts, per_token


def expected_mbu(raw: dict, run: dict, c: dict) -> float | None:
    """DATA.md's MBU of one config, or None where it has none."""
    model, gpu = raw["models"][run["model"]], raw["gpus"][run["gpu"]]
    workload = raw["workloads"][run["workload"]]
    if c.get("spec_decoding") or run["engine"].endswith("-mtp"):
        return None
    if "kv_bytes_per_token" not in model or not workload.get("isl"):
        return None
    s, e, experts, k = _shape(model)
    n = c.get("decode_gpus") or c["gpus"]
    tp, pp = c.get("tp"), c.get("pp")
    per_instance = (tp or 1) * (pp or 1) if (tp or pp) else None
    shared = n if c.get("dp_attention") else (n / per_instance if per_instance else 1)
    expert_copies = n / c["ep"] if c.get("ep") else (n / per_instance if per_instance else 1)
    shared, expert_copies = max(1, shared), max(1, expert_copies)
    users = c["concurrency"]
    ctx = workload["isl"] + workload["osl"] / 2
    routed = expert_copies * experts * (1 - (1 - k / experts) ** (users / expert_copies)) * e
    read = BYTES_PER_WEIGHT[run["precision"]] * 1e9 * (shared * s + routed)
    read += users * ctx * model["kv_bytes_per_token"]
    steps_per_s = 1000 / c["tpot_ms"]["median"]
    return read * steps_per_s / (n * gpu["hbm_tb_s"] * 1e12)


def _json(files: dict, name: str) -> dict:
    return json.loads(files[name])


def test_every_measured_configs_mbu_is_the_bytes_a_step_reads_over_the_bandwidth(
    flagship_files, raw
) -> None:
    _, files = flagship_files
    checked = above = 0
    for run_id, run in raw["runs"].items():
        built = _json(files, f"runs/{run_id}/data.json")["configs"]
        for c, b in zip(run["configs"], built, strict=True):
            if c.get("status", "ok") != "ok":
                assert b["mbu"] is None and b["mbu_missing"] == "status"
                continue
            want = expected_mbu(raw, run, c)
            if want is None:
                assert b["mbu"] is None and b["mbu_missing"], (run_id, b)
            else:
                assert b["mbu"] == pytest.approx(want, rel=1e-12), run_id
                checked += 1
                above += want > 1
    assert checked > 1000
    # the figure: about 5 % of today's configs read more than the bandwidth allows
    assert 0.03 < above / checked < 0.08


def test_mtp_configs_and_models_without_kv_bytes_have_no_mbu_and_say_why(flagship_files):
    _, files = flagship_files
    pair = _json(files, "models/deepseek-r1/b200/data.json")["workloads"]["1k1k"]
    mtp = [p for c in pair["curves"] if c["engine"].endswith("-mtp") for p in c["points"]]
    assert mtp and all(p["mbu"] is None and p["mbu_missing"] == "spec_decoding" for p in mtp)
    v4 = _json(files, "models/deepseek-v4-pro/b200/data.json")
    points = [p for w in v4["workloads"].values() for c in w["curves"] for p in c["points"]]
    assert points and {p["mbu_missing"] for p in points} <= {"kv_bytes_per_token", "spec_decoding"}
    page = html_text(files["models/deepseek-v4-pro/b200/index.html"].decode())
    assert "no kv_bytes_per_token in models.yaml" in page


def _current(raw: dict, model: str, gpu: str, workload: str, engine: str, precision: str):
    """The curve's runs by date, newest last."""
    by_date = defaultdict(list)
    for run_id, run in raw["runs"].items():
        key = (run["model"], run["gpu"], run["workload"], run["engine"], run["precision"])
        if key == (model, gpu, workload, engine, precision):
            by_date[str(run["date"])].append((run_id, run))
    return dict(sorted(by_date.items()))


def _points(runs: list, tokens: str = "total") -> list[tuple[float, float, str, dict]]:
    """The ok configs of `runs` as points, their throughput counting `tokens` as the
    workload's data.json says (an MLPerf workload counts output tokens)."""
    figure = "output_throughput_per_gpu" if tokens == "output" else "throughput_per_gpu"
    return [
        (1000 / c["tpot_ms"]["median"], c[figure], run_id, c)
        for run_id, run in runs
        for c in run["configs"]
        if c.get("status", "ok") == "ok"
    ]


def _pairs(files: dict) -> list[tuple[str, dict]]:
    return [
        (name, json.loads(data))
        for name, data in files.items()
        if name.startswith("models/") and name.count("/") == 3 and name.endswith("data.json")
    ]


def test_each_rung_reads_the_frontier_point_at_or_above_its_target(flagship_files, raw):
    _, files = flagship_files
    checked = 0
    for _, pair in _pairs(files):
        for workload, w in pair["workloads"].items():
            for row in w["ladder"]:
                if row["throughput_per_gpu"] is None:
                    assert row["reads"] is None and row["spread"] is None
                    continue
                dates = _current(
                    raw, pair["model"], pair["gpu"], workload, row["engine"], row["precision"]
                )
                points = _points(list(dates.values())[-1], w["tokens"])
                frontier = [
                    p
                    for p in points
                    if not any(q[0] >= p[0] and q[1] >= p[1] and q[:2] != p[:2] for q in points)
                ]
                at_or_above = (p for p in frontier if p[0] >= row["target"])
                x, y, _, c = min(at_or_above, key=lambda p: p[0])
                read = row["reads"]
                assert (read["interactivity"], read["throughput_per_gpu"]) == (x, y)
                assert (read["concurrency"], read["gpus"]) == (c.get("concurrency"), c["gpus"])
                assert read.get("request_rate") == c.get("request_rate")  # an open loop's
                run = raw["runs"][read["run"]]
                want = expected_mbu(raw, run, c)
                assert read["mbu"] == (None if want is None else pytest.approx(want, rel=1e-12))
                checked += 1
    assert checked > 100


def test_spread_is_the_rungs_value_on_each_run_within_spread_days(flagship_files, raw):
    _, files = flagship_files
    days = raw["site"].get("spread_days", 30)
    shown = 0
    for _, pair in _pairs(files):
        for workload, w in pair["workloads"].items():
            for row in w["ladder"]:
                if row["throughput_per_gpu"] is None:
                    continue
                dates = _current(
                    raw, pair["model"], pair["gpu"], workload, row["engine"], row["precision"]
                )
                latest = dt.date.fromisoformat(list(dates)[-1])
                values = [
                    _curve_value([p[:2] for p in _points([run], w["tokens"])], row["target"])
                    for date, runs in dates.items()
                    if (latest - dt.date.fromisoformat(date)).days <= days
                    for run in runs
                ]
                values = [v for v in values if v is not None]
                if len(values) < 2:
                    assert row["spread"] is None
                    continue
                spread = row["spread"]
                assert spread["n"] == len(values) and spread["days"] == days
                assert spread["min"] == pytest.approx(min(values), rel=1e-9)
                assert spread["max"] == pytest.approx(max(values), rel=1e-9)
                shown += 1
    assert shown >= 5  # the nightly MI355X runs repeat


def _most_users(budget_bytes: float, step_bytes) -> float:
    """The largest C >= 1 with step_bytes(C) <= budget: bisection on [1, 2^60]."""
    low, high = 1.0, 2.0**60
    for _ in range(400):
        middle = (low + high) / 2
        low, high = (middle, high) if step_bytes(middle) <= budget_bytes else (low, middle)
    return low


def test_the_b200_limit_curve_is_the_bandwidth_bound_for_the_headlines_gpus(flagship_files, raw):
    _, files = flagship_files
    pair = _json(files, "models/deepseek-r1/b200/data.json")
    w = pair["workloads"]["1k1k"]
    limit = w["limit"]
    head = next(r for r in w["ladder"] if r["target"] == raw["site"]["headline"]["interactivity"])
    run = raw["runs"][head["reads"]["run"]]
    c = next(
        c
        for c in run["configs"]
        if c["concurrency"] == head["reads"]["concurrency"]
        and 1000 / c["tpot_ms"]["median"] == head["reads"]["interactivity"]
    )
    n = c.get("decode_gpus") or c["gpus"]
    assert limit["gpus"] == n
    model, gpu = raw["models"]["deepseek-r1"], raw["gpus"]["b200"]
    lengths = raw["workloads"]["1k1k"]
    s, e, experts, k = _shape(model)
    bpw = BYTES_PER_WEIGHT[head["precision"]]
    ctx = lengths["isl"] + lengths["osl"] / 2
    kv = model["kv_bytes_per_token"]
    bandwidth = gpu["hbm_tb_s"] * 1e12

    def step(users: float) -> float:
        weights = s + experts * (1 - (1 - k / experts) ** users) * e
        return weights * 1e9 * bpw + users * ctx * kv

    assert limit["max_interactivity"] == pytest.approx(n * bandwidth / step(1), rel=1e-12)
    assert (limit["ctx"], limit["kv_bytes_per_token"], limit["bytes_per_weight"]) == (ctx, kv, bpw)
    shape = {"active_b": 37, "total_b": 671, "experts": 256, "experts_per_token": 8}
    assert limit["params"] == shape
    curve = limit["curve"]
    assert len(curve) >= 20
    assert curve[-1]["interactivity"] == pytest.approx(limit["max_interactivity"], rel=1e-12)
    total_per_output = (lengths["isl"] + lengths["osl"]) / lengths["osl"]
    for point in curve[:-1]:
        u = point["interactivity"]
        users = _most_users(n * bandwidth / u, step)
        expected = users * u / n * total_per_output
        assert point["throughput_per_gpu"] == pytest.approx(expected, rel=1e-6)
    ys = [p["throughput_per_gpu"] for p in curve]
    assert ys == sorted(ys, reverse=True)


# -- small sites ----------------------------------------------------------------------------

MOE = {
    "name": "M1",
    "total_params_b": 100,
    "active_params_b": 10,
    "experts": 64,
    "experts_per_token": 4,
    "kv_bytes_per_token": 1000,
}
GPUS = {"g1": {"name": "G1", "hbm_tb_s": 1.0}}
WORKLOADS = {"chat": {"name": "Chat", "isl": 1000, "osl": 1000}}


def _site(make_site, models: dict, runs: dict | None = None) -> Path:
    return make_site(runs=runs, models=models, gpus=GPUS, workloads=WORKLOADS)


def test_a_config_above_the_limit_is_a_note_that_strict_does_not_fail(make_site):
    # 8 GPUs reading 10 GB of weights 1000 times a second: far above 8 TB/s
    fast = sweep(configs=[config(8, 1, 100.0, 1.0, tp=8)])
    root = _site(make_site, {"m1": MOE}, {"lab/fast.yaml": fast})
    result = CliRunner().invoke(main, ["check", "--strict", "--site", str(root)])
    assert result.exit_code == 0, result.output
    assert "data/runs/lab/fast.yaml:" in result.stderr
    assert "configs[0]" in result.stderr and "above 100 %" in result.stderr
    assert "(1 note)" in result.stdout
    result = CliRunner().invoke(main, ["build", "--site", str(root)])
    assert result.exit_code == 0 and "above 100 %" not in result.stderr  # check's, not build's


def test_a_model_without_its_shape_names_the_missing_field_on_points_and_page(make_site):
    root = _site(make_site, {"m1": {"name": "M1", "active_params_b": 10}})
    result = CliRunner().invoke(main, ["build", "--site", str(root)])
    assert result.exit_code == 0, result.output
    pair = json.loads((root / "public/models/m1/g1/data.json").read_text())
    w = pair["workloads"]["chat"]
    assert {p["mbu_missing"] for c in w["curves"] for p in c["points"]} == {"kv_bytes_per_token"}
    assert w["limit"] is None and w["limit_missing"] == "kv_bytes_per_token"
    page = html_text((root / "public/models/m1/g1/index.html").read_text())
    assert "No bandwidth line is drawn: no kv_bytes_per_token in models.yaml" in page


@pytest.mark.parametrize(
    ("shape", "field"),
    [
        ({"experts": 64}, "experts_per_token"),
        ({"experts_per_token": 4}, "experts"),
        ({"experts": 4, "experts_per_token": 4}, "experts_per_token"),
        ({"total_params_b": 5, "active_params_b": 10}, "active_params_b"),
    ],
)
def test_a_shape_that_describes_no_model_is_an_error_naming_its_field(make_site, shape, field):
    root = _site(make_site, {"m1": {"name": "M1", **shape}})
    result = CliRunner().invoke(main, ["build", "--site", str(root)])
    assert result.exit_code == 1
    assert "data/models.yaml:" in result.stderr and f"m1.{field}" in result.stderr
    assert not (root / "public").exists()


def _charts(html: str) -> list[str]:
    return [part.split("</svg>")[0] for part in html.split("<svg")[1:] if "frontier-chart" in part]


def test_pair_charts_draw_the_limit_where_it_falls_and_say_where_it_is_off_the_scale(
    flagship_files, raw
):
    _, files = flagship_files
    h200 = _charts(files["models/deepseek-r1/h200/index.html"].decode())
    assert h200 and all('class="limit"' in chart for chart in h200)
    assert "bandwidth limit, 8 GPUs</text>" in h200[0]
    assert 'clip-path="url(#' in h200[0]
    mi355x = files["models/deepseek-r1/mi355x/index.html"].decode()
    pair = _json(files, "models/deepseek-r1/mi355x/data.json")["workloads"]["1k1k"]
    # above the whole plot: an arrow at the target with the limit there, worked out here
    n, u = pair["limit"]["gpus"], raw["site"]["headline"]["interactivity"]
    model, lengths = raw["models"]["deepseek-r1"], raw["workloads"]["1k1k"]
    s, e, experts, k = _shape(model)
    bpw = pair["limit"]["bytes_per_weight"]
    ctx = lengths["isl"] + lengths["osl"] / 2

    def step(users: float) -> float:
        weights = s + experts * (1 - (1 - k / experts) ** users) * e
        return weights * 1e9 * bpw + users * ctx * model["kv_bytes_per_token"]

    budget = n * raw["gpus"]["mi355x"]["hbm_tb_s"] * 1e12 / u
    at = _most_users(budget, step) * u / n * (lengths["isl"] + lengths["osl"]) / lengths["osl"]
    label = f"bandwidth limit, {n} GPUs: {at:,.0f} (off the scale)"
    assert label in _charts(mi355x)[0]
    assert f"At 50 tokens/s per user the limit is {at:,.0f} tokens/s per GPU" in html_text(mi355x)


def test_pair_charts_draw_an_error_bar_at_each_rung_with_a_spread(flagship_files):
    _, files = flagship_files
    for gpu in ("mi355x", "b200"):
        pair = _json(files, f"models/deepseek-r1/{gpu}/data.json")
        # the main workload's chart is on the pair page, the others' on their own pages
        pages = [""] + [f"{w}/" for w in list(pair["workloads"])[1:]]
        charts = [
            chart
            for page in pages
            for chart in _charts(files[f"models/deepseek-r1/{gpu}/{page}index.html"].decode())
        ]
        for (name, w), chart in zip(pair["workloads"].items(), charts, strict=True):
            spreads = [r for r in w["ladder"] if r["spread"]]
            assert chart.count(" runs</title></path>") == len(spreads), (gpu, name)
            for r in spreads:
                assert f"over {r['spread']['n']} runs</title>" in chart
