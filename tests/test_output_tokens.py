"""Records that count output tokens only (MLPerf) and open-loop configs (request_rate): a
workload with such a record is laddered on output tokens/s per GPU, every file and page says
so, and no figure counting total tokens is ranked or compared against one counting output."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from conftest import SITE_CONFIG, WORKLOADS, config, html_text, sweep
from sitegen.cli import main

MEASURED = {**SITE_CONFIG, "frontier": {"method": "measured"}}
BENCH = {**WORKLOADS, "bench": {"name": "Bench dataset"}}


def open_loop(rate: float, output: float, tpot_ms: float, gpus: int = 8) -> dict:
    """An MLPerf-style config: a request rate, output tokens/s per GPU, no total."""
    return {
        "gpus": gpus,
        "request_rate": rate,
        "output_throughput_per_gpu": output,
        "ttft_ms": {"median": 400.0},
        "tpot_ms": {"median": tpot_ms},
    }


def bench_record(gpu: str = "g1", source: str = "MLPerf Inference v5.1 (Acme)") -> dict:
    # interactivity 1000 / tpot: 12.5 and 40 tok/s per user
    configs = [open_loop(3.5, 900.0, 80.0), open_loop(1.0, 300.0, 25.0)]
    return sweep(gpu=gpu, workload="bench", engine="tensorrt-llm", configs=configs, source=source)


def chat_record() -> dict:
    configs = [
        config(8, 64, 5000.0, 80.0, output_throughput_per_gpu=600.0),
        config(8, 8, 2000.0, 25.0, output_throughput_per_gpu=240.0),
    ]
    return sweep(workload="chat", configs=configs)


def build(root: Path, *extra: str):
    out = root / "public"
    result = CliRunner().invoke(main, ["build", "--site", str(root), "--out", str(out), *extra])
    return result, out


def site(make_site, runs: dict) -> Path:
    return make_site(runs, config=MEASURED, workloads=BENCH)


def test_an_output_only_workload_is_laddered_on_output_tokens(make_site) -> None:
    root = site(
        make_site,
        {
            "mlperf/g1.yaml": bench_record(),
            "mlperf/g2.yaml": bench_record("g2"),
            "lab/chat.yaml": chat_record(),
        },
    )
    result, out = build(root)
    assert result.exit_code == 0, result.output
    pair = json.loads((out / "models/m1/g1/data.json").read_text())
    bench, chat = pair["workloads"]["bench"], pair["workloads"]["chat"]
    assert (bench["tokens"], chat["tokens"]) == ("output", "total")
    # measured method: the rung at 10 and 20 tok/s/user reads the highest y among configs
    # at or above the target; the bench record's y is its output_throughput_per_gpu
    rungs = {r["target"]: r for r in bench["ladder"]}
    assert rungs[10]["throughput_per_gpu"] == 900.0
    assert rungs[20]["throughput_per_gpu"] == 300.0
    assert rungs[50]["throughput_per_gpu"] is None
    # $ per million output tokens: $2/GPU-hour over 300 output tokens/s per GPU
    assert rungs[20]["cost_per_million_tokens"]["owning"] == 2.0 / (300.0 * 3600) * 1e6
    assert rungs[20]["cost_per_million_output_tokens"] == rungs[20]["cost_per_million_tokens"]
    assert rungs[20]["cost_per_million_input_tokens"] is None
    # the points show the rate where a closed-loop source has a concurrency
    points = [p for c in bench["curves"] for p in c["points"]]
    assert sorted(p["request_rate"] for p in points) == [1.0, 3.5]
    assert {p["concurrency"] for p in points} == {None}
    assert {p["mbu_missing"] for p in points} <= {"concurrency", "active_params_b"}
    assert rungs[20]["reads"]["request_rate"] == 1.0
    # the total-token workload keeps its total figures
    chat_rungs = {r["target"]: r["throughput_per_gpu"] for r in chat["ladder"]}
    assert (chat_rungs[10], chat_rungs[20]) == (5000.0, 2000.0)
    # the page says what the figures count
    page = html_text((out / "models/m1/g1/index.html").read_text())
    assert "Output tokens/s per GPU" in page
    assert "counted in output tokens" in page
    assert "1 requests/s" in page or "1.00 requests/s" in page
    report = html_text((out / "runs/mlperf-g1/index.html").read_text())
    assert "Requests/s" in report and "Output tokens/s per GPU" in report


def test_no_file_ranks_or_compares_total_with_output_tokens(make_site) -> None:
    root = site(
        make_site,
        {
            "mlperf/g1.yaml": bench_record(),
            "mlperf/g2.yaml": bench_record("g2"),
            "lab/chat.yaml": chat_record(),
            "lab/chat-g2.yaml": {**chat_record(), "gpu": "g2"},
        },
    )
    result, out = build(root)
    assert result.exit_code == 0, result.output
    assert_tokens_never_mixed(out)
    board = json.loads((out / "data/leaderboard.json").read_text())
    assert [r["tokens"] for r in board] == ["total"] * 2 + ["output"] * 2


def pair_tokens(out: Path) -> dict[tuple[str, str, str], str]:
    """What each model x GPU x workload counts, as its pair data.json says."""
    found = {}
    for path in out.glob("models/*/*/data.json"):
        data = json.loads(path.read_text())
        for workload, w in data["workloads"].items():
            found[(data["model"], data["gpu"], workload)] = w["tokens"]
    return found


def assert_tokens_never_mixed(out: Path) -> None:
    """Every data file of a built site: each figure says what it counts, and every ranking or
    ratio puts figures of one count together (DATA.md, "Output-token records")."""
    counts = pair_tokens(out)
    assert counts
    board = json.loads((out / "data/leaderboard.json").read_text())
    kinds = [r["tokens"] for r in board]
    assert kinds == sorted(kinds, key=lambda k: k != "total"), "leaderboard mixes counts"
    for row in board:
        assert row["tokens"] == counts[(row["model"], row["gpu"], row["workload"])]
    for path in out.glob("models/*/data.json"):
        data = json.loads(path.read_text())
        for workload, w in data["workloads"].items():
            gpus = {g for rung in w["ladder"] for g in rung["by_gpu"]}
            assert {counts[(data["model"], g, workload)] for g in gpus} <= {w["tokens"]}
    for path in out.glob("compare/*/*/data.json"):
        data = json.loads(path.read_text())
        for workload, w in data["workloads"].items():
            for side in ("a", "b"):
                key = (data["model"], data[side], workload)
                assert counts.get(key, w["tokens"]) == w["tokens"], (path, key)
    for path in out.glob("compare/*/data.json"):
        data = json.loads(path.read_text())
        for row in data["models"]:
            if row["workload"] is not None:
                for side in ("a", "b"):
                    key = (row["model"], data[side], row["workload"])
                    assert counts.get(key, row["tokens"]) == row["tokens"], (path, key)
    for entry in json.loads((out / "changes.json").read_text()):
        assert entry["tokens"] == counts.get(
            (entry["model"], entry["gpu"], entry["workload"]), entry["tokens"]
        )


def test_a_record_counts_total_tokens_in_all_its_configs_or_in_none(make_site) -> None:
    record = chat_record()
    del record["configs"][1]["throughput_per_gpu"]
    root = site(make_site, {"lab/chat.yaml": record})
    result, out = build(root)
    assert result.exit_code == 1
    assert "lab/chat.yaml" in result.output
    assert "configs[1].throughput_per_gpu" in result.output
    assert "in all its configs or in none" in result.output
    assert not out.exists()


def test_a_total_only_config_in_an_output_workload_is_an_error(make_site) -> None:
    total_only = sweep(workload="bench", configs=[config(8, 16, 4000.0, 30.0)])
    root = site(make_site, {"mlperf/g1.yaml": bench_record(), "lab/bench.yaml": total_only})
    result, _ = build(root)
    assert result.exit_code == 1
    assert "data/runs/lab/bench.yaml" in result.output
    assert "configs[0].output_throughput_per_gpu" in result.output
    assert "counted in output tokens" in result.output


def test_a_config_needs_a_concurrency_or_a_request_rate(make_site) -> None:
    neither = open_loop(1.0, 300.0, 25.0)
    del neither["request_rate"]
    root = site(make_site, {"mlperf/g1.yaml": sweep(workload="bench", configs=[neither])})
    result, _ = build(root)
    assert result.exit_code == 1
    assert "configs[0].concurrency: expected an integer >= 1 (or request_rate)" in result.output


def test_a_record_that_turns_a_workload_to_output_tokens_remakes_every_page_of_it(make_site):
    """What a workload counts depends on every record of it: a record added to one pair turns
    the other pair's pages too, with the cache as without it."""
    g2 = {**chat_record(), "gpu": "g2"}
    root = site(make_site, {"lab/chat.yaml": chat_record(), "lab/chat-g2.yaml": g2})
    result, out = build(root)
    assert result.exit_code == 0, result.output
    assert json.loads((out / "models/m1/g2/data.json").read_text())["headline"]["tokens"] == (
        "total"
    )
    record = bench_record()
    record["workload"] = "chat"
    (root / "data/runs/mlperf").mkdir(parents=True)
    (root / "data/runs/mlperf/g1.yaml").write_text(json.dumps(record))
    result, out = build(root)
    assert result.exit_code == 0, result.output
    g2_pair = json.loads((out / "models/m1/g2/data.json").read_text())
    assert g2_pair["headline"]["tokens"] == "output"
    assert g2_pair["workloads"]["chat"]["ladder"][1]["throughput_per_gpu"] == 240.0
    fresh = root / "fresh"
    again = CliRunner().invoke(
        main, ["build", "--site", str(root), "--out", str(fresh), "--no-cache"]
    )
    assert again.exit_code == 0, again.output
    built = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert built == {p.relative_to(fresh): p.read_bytes() for p in fresh.rglob("*") if p.is_file()}
