"""sitegen import: every format from hand-written fixtures, the real InferenceX file, bad files."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import stat
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.importers import FORMATS, detect, detect_tree
from sitegen.importers.common import read_source, to_date
from sitegen.importers.writer import render, scalar
from sitegen.pipeline.build import build
from sitegen.records import load_site

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
VLLM = FIXTURES / "vllm"
INFERENCEX_API = FIXTURES / "deepseek-v4-pro-8k1k-2026-09-04.json"

CONFIG = {
    "title": "Import test",
    "base_url": "https://example.org/",
    "default_workload": "chat",
    "targets": [10, 20, 40, 100, 150],
    "headline": {"interactivity": 20, "tier": "owning"},
    "frontier": {"method": "interpolate"},
}
MODELS = {
    "m1": {"name": "Model One", "hf_id": "acme/Model-One"},
    "deepseek-v4-pro": {"name": "DeepSeek V4 Pro", "hf_id": "deepseek-ai/DeepSeek-V4-Pro"},
}
GPUS = {"g1": {"name": "GPU One", "vendor": "Acme"}, "b200": {"name": "B200", "vendor": "NVIDIA"}}
WORKLOADS = {
    "chat": {"name": "Chat"},
    "1k1k": {"name": "1k / 1k", "isl": 1024, "osl": 1024},
    "8k1k": {"name": "8k / 1k", "isl": 8192, "osl": 1024},
}
PRICING = {
    "source": "Test",
    "as_of": "2026-07",
    "tiers": {"owning": {"label": "Owning"}},
    "prices": {"g1": {"owning": 2.0}, "b200": {"owning": 3.0}},
}
# What the vLLM and similar files do not say.
SWEEP_OPTIONS = ["--gpu", "g1", "--gpus", "2", "--precision", "fp8", "--source", "Lab"]


@pytest.fixture
def site(make_site) -> Path:
    return make_site(
        runs={},
        config=CONFIG,
        models=MODELS,
        gpus=GPUS,
        workloads=WORKLOADS,
        pricing=PRICING,
    )


def run(site: Path, *args: str | Path) -> Result:
    return CliRunner().invoke(main, ["import", *map(str, args), "--site", str(site)])


def imported(site: Path, fmt: str, files: list[Path], *options: str, out: str) -> dict:
    """Import and return the record written at data/runs/<out>; fail loudly otherwise."""
    target = site / "data" / "runs" / out
    result = run(site, fmt, *files, "--out", target, *options)
    assert result.exit_code == 0, result.output
    return yaml.safe_load(target.read_text())


def loads_cleanly(site: Path) -> None:
    loaded, problems = load_site(site)
    assert loaded is not None, [str(p) for p in problems.errors]


# -- one sweep from several files --------------------------------------------------------------


def test_vllm_files_of_one_sweep_make_one_record_sorted_by_concurrency(site: Path) -> None:
    files = [VLLM / "c16.jsonl", VLLM / "c4.json", VLLM / "c1.json"]
    record = imported(site, "vllm", files, *SWEEP_OPTIONS, "--workload", "chat", out="v.yaml")
    configs = record["configs"]
    assert [c["concurrency"] for c in configs] == [1, 4, 16, 64]
    # total tokens/s over 2 GPUs; c4.json has no total: (108000 + 12000 tokens) / 100 s
    assert [c["throughput_per_gpu"] for c in configs] == [200, 600, 1600, 1650]
    assert [c["tpot_ms"]["median"] for c in configs] == [10, 20, 40, 80]
    assert configs[1]["e2el_ms"] == {"median": 2250, "mean": 2300, "p99": 2700}
    assert all(c["gpus"] == 2 for c in configs)
    # model from model_id via hf_id; engine from the files whose backend names one
    assert (record["model"], record["engine"], record["workload"]) == ("m1", "vllm", "chat")
    # files of 2026-11-04 and 2026-11-05: dated by the first day, said in the notes
    assert record["date"] == dt.date(2026, 11, 4)
    for word in ("vLLM", "c1.json", "c4.json", "c16.jsonl", "all at once", "8 req/s"):
        assert word in record["notes"]
    assert "2026-11-05" in record["notes"]
    loads_cleanly(site)


def test_imported_sweep_builds_the_hand_computed_ladder(site: Path, tmp_path: Path) -> None:
    files = [VLLM / "c1.json", VLLM / "c4.json", VLLM / "c16.jsonl"]
    imported(site, "vllm", files, *SWEEP_OPTIONS, "--workload", "chat", out="lab/sweep.yaml")
    build(site, tmp_path / "out")
    data = json.loads((tmp_path / "out/models/m1/g1/data.json").read_text())
    ladder = {
        row["target"]: row["throughput_per_gpu"] for row in data["workloads"]["chat"]["ladder"]
    }

    # By hand, from the fixtures: x = 1000 / median TPOT, y = total tok/s / 2 GPUs.
    xs, ys = [12.5, 25.0, 50.0, 100.0], [1650.0, 1600.0, 600.0, 200.0]
    # secants -4, -40, -8; Steffen tangents inside: at x=25 -2*min(4, 40, |p|/2 = 8) = -8,
    # at x=50 -2*min(40, 8, 14.67) = -16; ends (3s - m)/2: (-12 + 8)/2 = -2, (-24 + 16)/2 = -4
    m = [-2.0, -8.0, -16.0, -4.0]

    def hermite(i: int, x: float) -> float:
        h = xs[i + 1] - xs[i]
        t = (x - xs[i]) / h
        return (
            (2 * t**3 - 3 * t**2 + 1) * ys[i]
            + (t**3 - 2 * t**2 + t) * h * m[i]
            + (-2 * t**3 + 3 * t**2) * ys[i + 1]
            + (t**3 - t**2) * h * m[i + 1]
        )

    assert hermite(0, 20) == pytest.approx(1629.6)  # t = 0.6: 580.8 - 2.4 + 1036.8 + 14.4
    assert hermite(1, 40) == pytest.approx(990.4)  # t = 0.6: 563.2 - 19.2 + 388.8 + 57.6
    assert ladder[10] == pytest.approx(1650.0)  # below the slowest point: the curve's peak
    assert ladder[20] == pytest.approx(1629.6)
    assert ladder[40] == pytest.approx(990.4)
    assert ladder[100] == pytest.approx(200.0)
    assert ladder[150] is None  # faster than any measured config


def test_sglang_jsonl_reads_bare_infinity_and_both_key_spellings(site: Path) -> None:
    record = imported(
        site,
        "sglang",
        [FIXTURES / "sglang/bench.jsonl"],
        *SWEEP_OPTIONS,
        "--model",
        "m1",
        "--workload",
        "chat",
        "--date",
        "2026-11-20",
        out="s.yaml",
    )
    configs = record["configs"]
    assert [c["concurrency"] for c in configs] == [2, 8]
    # line 2 (older, total_input_tokens): input + output throughput; line 1: total_throughput
    assert [c["throughput_per_gpu"] for c in configs] == [550, 2200]
    assert [c["e2el_ms"]["median"] for c in configs] == [1100, 2000]
    assert record["engine"] == "sglang"  # backends sglang and sglang-oai
    assert record["date"] == dt.date(2026, 11, 20)
    assert "all at once" in record["notes"]


def test_aiperf_export_with_total_throughput_and_start_time(site: Path) -> None:
    options = [*SWEEP_OPTIONS, "--engine", "vllm", "--workload", "chat"]
    record = imported(
        site, "aiperf", [FIXTURES / "aiperf/profile_export_aiperf.json"], *options, out="a.yaml"
    )
    (config,) = record["configs"]
    assert config["throughput_per_gpu"] == 2080  # total_token_throughput.avg 4160 / 2
    assert config["tpot_ms"] == {"median": 25, "mean": 25.4, "p90": 27.5, "p99": 30.1}
    assert config["concurrency"] == 16
    assert (record["model"], record["date"]) == ("m1", dt.date(2026, 10, 21))
    assert "AIPerf" in record["notes"]


def test_genai_perf_export_without_total_throughput_or_date(site: Path) -> None:
    options = [*SWEEP_OPTIONS, "--engine", "trt-llm", "--workload", "chat"]
    source = FIXTURES / "aiperf/profile_export_genai_perf.json"
    result = run(site, "aiperf", source, "--out", site / "data/runs/g.yaml", *options)
    assert result.exit_code == 1
    assert "--date: the file does not say the date" in result.stderr
    record = imported(site, "aiperf", [source], *options, "--date", "2026-10-01", out="g.yaml")
    (config,) = record["configs"]
    # no total: request throughput 1.5/s x (1000 + 200 tokens) = 1800 tok/s, over 2 GPUs
    assert config["throughput_per_gpu"] == 900
    assert config["concurrency"] == 4
    assert "GenAI-Perf" in record["notes"]
    assert "request throughput x (mean input + mean output tokens)" in record["notes"]


def test_llmperf_tpot_is_derived_without_the_ttft(site: Path) -> None:
    options = [*SWEEP_OPTIONS, "--engine", "vllm", "--workload", "chat"]
    source = FIXTURES / "llmperf/model-one_1000_200_summary.json"
    record = imported(site, "llmperf", [source], *options, out="l.yaml")
    (config,) = record["configs"]
    # (median e2e 5.223 s - median TTFT 0.25 s) / (200 - 1 tokens); counts were strings
    assert config["tpot_ms"]["median"] == pytest.approx((5.223 - 0.25) / 199 * 1000, rel=1e-5)
    # output 300 tok/s x (1000 + 200) / 200 = 1800 tok/s, over 2 GPUs
    assert config["throughput_per_gpu"] == 900
    assert config["ttft_ms"]["median"] == 250
    assert record["date"] == dt.date(2026, 11, 5)  # timestamp, epoch seconds
    assert "inter_token_latency_s includes the TTFT" in record["notes"]


def test_guidellm_keeps_concurrent_benchmarks_and_skips_rate_driven_ones(site: Path) -> None:
    options = [*SWEEP_OPTIONS, "--engine", "vllm", "--workload", "chat"]
    record = imported(
        site, "guidellm", [FIXTURES / "guidellm/benchmarks.json"], *options, out="x.yaml"
    )
    configs = record["configs"]
    assert [c["concurrency"] for c in configs] == [1, 8]  # synchronous, concurrent streams=8
    assert [c["tpot_ms"]["median"] for c in configs] == [9, 15]  # inter_token_latency_ms
    assert [c["e2el_ms"]["median"] for c in configs] == [2000, 3300]  # request_latency in s
    assert [c["throughput_per_gpu"] for c in configs] == [275, 2200]
    assert "benchmarks[1] (throughput)" in record["notes"]
    assert "GuideLLM 0.4.0" in record["notes"]


def test_llm_inference_bench_becomes_a_matrix_record(site: Path) -> None:
    source = FIXTURES / "llm-inference-bench/benchmark_results.json"
    options = ["--gpu", "g1", "--gpus", "1", "--precision", "fp8", "--source", "Lab"]
    record = imported(site, "llm-inference-bench", [source], *options, out="m.yaml")
    assert record["kind"] == "matrix"
    assert (record["engine"], record["engine_version"]) == ("sglang", "0.5.6")
    assert record["date"] == dt.date(2026, 11, 11)
    assert record["decode"][3] == {
        "context": 8192,
        "concurrency": 4,
        "aggregate_tok_s": 300,
        "per_request_tok_s": 76,
        "ttft_s": 0.97,
    }
    assert [row["context"] for row in record["prefill"]] == [8192, 32768]
    assert record["bench"]["harness"] == "llm-inference-bench 0.7.7"
    loads_cleanly(site)


def test_lmx_reads_wrapped_and_bare_runs(site: Path) -> None:
    files = [FIXTURES / "lmx/run-c1.json", FIXTURES / "lmx/run-c4.json"]
    record = imported(
        site, "lmx", files, "--source", "LocalMaxxing", "--workload", "chat", out="x.yaml"
    )
    assert (record["model"], record["gpu"], record["precision"]) == ("m1", "g1", "q4_k_m")
    assert (record["engine"], record["engine_version"]) == ("llama.cpp", "b6000")
    c1, c4 = record["configs"]
    assert (c1["gpus"], c1["throughput_per_gpu"], c1["tpot_ms"]) == (1, 500, {"median": 10})
    # c4 has no tokSTotal: 4 users x (2048 + 512) tokens / (0.9 s + 512 / (320 / 4) s)
    assert c4["throughput_per_gpu"] == pytest.approx(4 * 2560 / (0.9 + 512 / 80), rel=1e-5)
    assert c4["tpot_ms"] == {"median": 12.5}
    assert "tokSOut" in record["notes"]


def test_gpus_given_wins_over_the_count_in_the_file(site: Path) -> None:
    # docs/importing.md: "An option given wins over the file"; lmx says gpuCount 1.
    files = [FIXTURES / "lmx/run-c1.json"]
    options = ["--source", "LocalMaxxing", "--workload", "chat", "--gpus", "2"]
    record = imported(site, "lmx", files, *options, out="x.yaml")
    (c1,) = record["configs"]
    assert (c1["gpus"], c1["throughput_per_gpu"], c1["output_throughput_per_gpu"]) == (2, 250, 50)


# -- InferenceX ---------------------------------------------------------------------------------


def test_inferencex_api_file_imports_one_record_per_engine_and_date(site: Path) -> None:
    out = site / "data/runs/inferencex"
    result = run(site, "inferencex", INFERENCEX_API, "--out", out)
    assert result.exit_code == 0, result.output
    records = {p.name: yaml.safe_load(p.read_text()) for p in sorted(out.iterdir())}
    assert set(records) == {
        "deepseek-v4-pro-b200-vllm-fp4-8k1k-2026-09-03.yaml",
        "deepseek-v4-pro-b200-dynamo-sglang-fp4-8k1k-2026-09-01.yaml",
        "deepseek-v4-pro-b200-dynamo-vllm-fp4-8k1k-2026-08-26.yaml",
        "deepseek-v4-pro-b200-dynamo-vllm-mtp-fp4-8k1k-2026-08-26.yaml",
    }
    configs = [c for r in records.values() for c in r["configs"]]
    assert len(configs) == 37
    rows = json.loads(INFERENCEX_API.read_text())["rows"]
    # The GPU count of every row, as the measured power says it.
    by_power = Counter(
        (
            row["conc"],
            round(row["metrics"]["avg_total_gpu_power_w"] / row["metrics"]["avg_power_w"]),
        )
        for row in rows
    )
    assert Counter((c["concurrency"], c["gpus"]) for c in configs) == by_power
    single = [c for c in configs if not c.get("disagg")]
    assert single and all(c["gpus"] == 8 for c in single)  # not the 64 of num_*_gpu
    for c in configs:
        if c.get("disagg"):
            assert c["gpus"] == c["prefill_gpus"] + c["decode_gpus"]
        assert c["power_w"] > 0 and c["image"]
    mtp = records["deepseek-v4-pro-b200-dynamo-vllm-mtp-fp4-8k1k-2026-08-26.yaml"]
    assert mtp["configs"][0]["spec_decoding"] == "mtp"
    vllm = records["deepseek-v4-pro-b200-vllm-fp4-8k1k-2026-09-03.yaml"]
    assert vllm["url"].startswith("https://github.com/SemiAnalysisAI/InferenceX/actions/runs/")
    assert vllm["source"] == "InferenceX"
    assert "InferenceX API" in vllm["notes"] and INFERENCEX_API.name in vllm["notes"]
    # latencies converted from seconds: row 0 has median_tpot 0.0498665... s
    first = rows[0]
    same = [
        c
        for c in vllm["configs"]
        if c["concurrency"] == first["conc"] and c["ep"] == 8 and c["dp_attention"]
    ]
    assert same[0]["tpot_ms"]["median"] == pytest.approx(
        first["metrics"]["median_tpot"] * 1000, rel=1e-5
    )
    loads_cleanly(site)


def test_inferencex_disaggregated_output_throughput_is_per_gpu_of_the_config(site: Path) -> None:
    # InferenceX divides a disaggregated row's output throughput by its decode GPUs only
    # (its total by all GPUs): row 28 has 48 prefill + 16 decode GPUs and
    # output_tput_per_gpu 4325.5..., which is 4325.5 x 16 / 64 per GPU of the config.
    out = site / "data/runs/inferencex"
    result = run(site, "inferencex", INFERENCEX_API, "--out", out)
    assert result.exit_code == 0, result.output
    rows = json.loads(INFERENCEX_API.read_text())["rows"]
    record = yaml.safe_load(
        (out / "deepseek-v4-pro-b200-dynamo-sglang-fp4-8k1k-2026-09-01.yaml").read_text()
    )
    (big,) = [c for c in record["configs"] if c["concurrency"] == 8192]
    assert (big["prefill_gpus"], big["decode_gpus"]) == (48, 16)
    decode_only = rows[28]["metrics"]["output_tput_per_gpu"]
    assert big["output_throughput_per_gpu"] == pytest.approx(decode_only * 16 / 64, rel=1e-5)
    # 8k in, 1k out: every config, split or not, puts about 1/9 of its tokens out
    for path in out.iterdir():
        for c in yaml.safe_load(path.read_text())["configs"]:
            share = c["output_throughput_per_gpu"] / c["throughput_per_gpu"]
            assert share == pytest.approx(1024 / (8192 + 1024), rel=0.02), c


def test_inferencex_flat_rows_name_the_workload_by_isl_and_osl(site: Path) -> None:
    out = site / "data/runs/ix"
    result = run(site, "inferencex", FIXTURES / "inferencex/agg_model-one_g1.json", "--out", out)
    assert result.exit_code == 0, result.output
    (path,) = out.iterdir()
    record = yaml.safe_load(path.read_text())
    assert path.name == "m1-g1-sglang-fp8-1k1k-2026-10-30.yaml"
    assert [(c["gpus"], c["tp"], c["concurrency"]) for c in record["configs"]] == [
        (4, 4, 16),
        (4, 4, 64),
    ]


def test_inferencex_with_several_runs_needs_a_folder(site: Path) -> None:
    target = site / "data/runs/one.yaml"
    result = run(site, "inferencex", INFERENCEX_API, "--out", target)
    assert result.exit_code == 1
    assert "--out must name a folder" in result.stderr
    assert not target.exists()


def test_the_flagship_site_has_the_imported_deepseek_page(flagship_files) -> None:
    _, files = flagship_files
    data = json.loads(files["models/deepseek-v4-pro/b200/data.json"])
    summary = data["workloads"]["8k1k"]
    assert summary["configs"] == 37
    assert summary["engines"] == ["dynamo-sglang", "dynamo-vllm", "dynamo-vllm-mtp", "vllm"]


# -- auto --------------------------------------------------------------------------------------

DETECTED = {
    VLLM / "c1.json": "vllm",
    VLLM / "c16.jsonl": "vllm",
    FIXTURES / "sglang/bench.jsonl": "sglang",
    FIXTURES / "aiperf/profile_export_aiperf.json": "aiperf",
    FIXTURES / "aiperf/profile_export_genai_perf.json": "aiperf",
    FIXTURES / "llmperf/model-one_1000_200_summary.json": "llmperf",
    FIXTURES / "guidellm/benchmarks.json": "guidellm",
    FIXTURES / "llm-inference-bench/benchmark_results.json": "llm-inference-bench",
    FIXTURES / "lmx/run-c1.json": "lmx",
    FIXTURES / "lmx/run-c4.json": "lmx",
    FIXTURES / "inferencex/agg_model-one_g1.json": "inferencex",
    INFERENCEX_API: "inferencex",
    FIXTURES / "mlperf-inference-v5.1": "mlperf",  # a results tree: a folder
}


@pytest.mark.parametrize("path", list(DETECTED), ids=lambda p: p.name)
def test_auto_recognises_every_format(path: Path) -> None:
    if path.is_dir():
        assert detect_tree(path) == DETECTED[path]
    else:
        assert detect(read_source(path).objects[0]) == DETECTED[path]


def test_every_format_has_a_fixture() -> None:
    assert set(DETECTED.values()) == set(FORMATS)


def test_auto_says_which_format_it_chose(site: Path) -> None:
    target = site / "data/runs/auto.yaml"
    result = run(
        site,
        "auto",
        VLLM / "c1.json",
        VLLM / "c4.json",
        "--out",
        target,
        *SWEEP_OPTIONS,
        "--workload",
        "chat",
    )
    assert result.exit_code == 0, result.output
    assert "auto: read the files as vllm" in result.stderr
    assert target.exists()


def test_auto_says_which_format_it_chose_also_when_the_import_fails(site: Path) -> None:
    # Without --gpus the import fails; the user still learns how auto read the file, since
    # the messages name that tool's fields.
    target = site / "data/runs/auto.yaml"
    result = run(site, "auto", VLLM / "c1.json", "--out", target, "--gpu", "g1")
    assert result.exit_code == 1
    assert "auto: read the files as vllm" in result.stderr
    assert "--gpus" in result.stderr and not target.exists()


# -- bad input: one line each, exit 1, nothing written ------------------------------------------


def _fails(site: Path, *args: str | Path) -> list[str]:
    return _fails_at(site, site / "data/runs/bad.yaml", *args)


def _fails_at(site: Path, target: Path, *args: str | Path) -> list[str]:
    result = run(site, *args, "--out", target)
    assert result.exit_code == 1, result.output
    assert not target.exists()
    assert not list((site / "data").rglob("*.yaml.*"))  # no temporary file left either
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("import failed:") and "nothing written" in lines[-1]
    return lines[:-1]


def test_truncated_json_is_one_line(site: Path) -> None:
    (line,) = _fails(site, "vllm", FIXTURES / "bad/truncated.json", *SWEEP_OPTIONS)
    assert "truncated.json:" in line and "not valid JSON" in line and "cut short" in line


def test_truncated_json_lines_name_the_line(site: Path, tmp_path: Path) -> None:
    text = (VLLM / "c16.jsonl").read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(text[0] + "\n" + text[1][:80] + "\n")
    (line,) = _fails(site, "vllm", broken, *SWEEP_OPTIONS)
    assert line.startswith(f"{broken}:2: not valid JSON Lines")


def test_the_wrong_format_named_says_what_the_file_looks_like(site: Path) -> None:
    (line,) = _fails(site, "vllm", FIXTURES / "aiperf/profile_export_aiperf.json", *SWEEP_OPTIONS)
    assert "not a vLLM" in line and "it looks like aiperf" in line


def test_a_file_of_no_known_tool(site: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    (line,) = _fails(site, "auto", other)
    assert "not a result file of any known tool" in line


def test_a_missing_field_names_the_field_and_its_line(site: Path) -> None:
    (line,) = _fails(site, "vllm", FIXTURES / "bad/no-tpot.json", *SWEEP_OPTIONS)
    assert "no-tpot.json:1: median_tpot_ms: missing; expected the median TPOT in ms" in line


def test_each_missing_option_is_one_line(site: Path) -> None:
    lines = _fails(site, "vllm", VLLM / "c1.json")
    options = sorted(line.split(": ")[1] for line in lines)
    assert options == ["--gpu", "--gpus", "--precision", "--source", "--workload"]
    assert all(line.startswith(f"{VLLM / 'c1.json'}: --") for line in lines)


def test_an_unknown_slug_is_refused(site: Path) -> None:
    (line,) = _fails(site, "vllm", VLLM / "c1.json", *SWEEP_OPTIONS, "--workload", "nope")
    assert '--workload: "nope" is not in data/workloads.yaml' in line


def test_files_of_different_models_are_not_one_sweep(site: Path, tmp_path: Path) -> None:
    other = json.loads((VLLM / "c4.json").read_text())
    other["model_id"] = "deepseek-ai/DeepSeek-V4-Pro"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other))
    (line,) = _fails(site, "vllm", VLLM / "c1.json", path, *SWEEP_OPTIONS, "--workload", "chat")
    assert "not one sweep: their model differs" in line


def test_files_naming_one_model_two_ways_are_one_sweep(site: Path, tmp_path: Path) -> None:
    # A model served from a local path: both names find m1 (its hf_id and its name), and
    # where --model is given the files' names do not matter at all.
    other = json.loads((VLLM / "c4.json").read_text())
    other["model_id"] = "/mnt/models/Model-One"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other))
    files = [VLLM / "c1.json", path]
    record = imported(site, "vllm", files, *SWEEP_OPTIONS, "--workload", "chat", out="a.yaml")
    assert record["model"] == "m1" and len(record["configs"]) == 2
    other["model_id"] = "/mnt/models/checkpoint-17"
    path.write_text(json.dumps(other))
    options = [*SWEEP_OPTIONS, "--workload", "chat", "--model", "m1"]
    record = imported(site, "vllm", files, *options, out="b.yaml")
    assert record["model"] == "m1" and len(record["configs"]) == 2


def test_a_record_the_build_would_refuse_is_not_written(site: Path) -> None:
    # The run id comes from the file name, and an underscore is not allowed in it.
    target = site / "data/runs/lab/my_run.yaml"
    result = run(
        site, "vllm", VLLM / "c1.json", "--out", target, *SWEEP_OPTIONS, "--workload", "chat"
    )
    assert result.exit_code == 1
    assert "data/runs/lab/my_run.yaml:" in result.stderr and "run id" in result.stderr
    assert not target.exists()


def test_no_record_is_written_when_one_of_several_cannot_be(site: Path) -> None:
    # The last of the four records' paths is taken by a folder: one line, none written.
    out = site / "data/runs/ix"
    blocker = out / "deepseek-v4-pro-b200-dynamo-sglang-fp4-8k1k-2026-09-01.yaml"
    blocker.mkdir(parents=True)
    result = run(site, "inferencex", INFERENCEX_API, "--out", out)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert f"{blocker}: --out: " in result.stderr and "nothing written" in result.stderr
    assert [p.name for p in out.iterdir()] == [blocker.name]  # no record, no temporary file


def test_an_out_folder_that_is_a_file_is_one_line(site: Path) -> None:
    taken = site / "data/runs/ix"
    taken.parent.mkdir(parents=True, exist_ok=True)
    taken.write_text("not a folder\n")
    result = run(site, "inferencex", INFERENCEX_API, "--out", taken)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"{taken}: --out: " in result.stderr and "nothing written" in result.stderr
    assert taken.read_text() == "not a folder\n"


def test_out_named_json_gets_a_json_record_the_build_reads(site: Path, tmp_path: Path) -> None:
    # docs/data.md allows data/runs/*.json; a .json path must not receive YAML.
    target = site / "data/runs/lab/v.json"
    result = run(
        site, "vllm", VLLM / "c1.json", "--out", target, *SWEEP_OPTIONS, "--workload", "chat"
    )
    assert result.exit_code == 0, result.output
    record = json.loads(target.read_text())
    assert (record["date"], record["configs"][0]["concurrency"]) == ("2026-11-04", 1)
    loads_cleanly(site)
    build(site, tmp_path / "out")


def test_a_record_whose_run_id_another_file_has_is_not_written(site: Path) -> None:
    # data/runs/lab/v.yaml and data/runs/lab-v.json would both be run "lab-v": the build
    # refuses that, so the import does too.
    args = [VLLM / "c1.json", *SWEEP_OPTIONS, "--workload", "chat"]
    first = site / "data/runs/lab/v.yaml"
    assert run(site, "vllm", *args[:1], "--out", first, *args[1:]).exit_code == 0
    second = site / "data/runs/lab-v.json"
    (line,) = _fails_at(site, second, "vllm", *args)
    assert line.startswith("data/runs/lab-v.json: ") and "lab/v.yaml" in line
    loads_cleanly(site)


def test_a_second_import_of_the_same_file_leaves_the_record_as_it_is(site: Path) -> None:
    target = site / "data/runs/v.yaml"
    args = ["vllm", VLLM / "c1.json", "--out", target, *SWEEP_OPTIONS, "--workload", "chat"]
    assert run(site, *args).exit_code == 0
    before = target.read_bytes(), target.stat().st_mtime_ns
    second = run(site, *args)
    assert second.exit_code == 0, second.output
    assert second.stdout.splitlines() == [
        f"unchanged {target}",
        "imported 1 configs into 1 record (1 already there)",
    ]
    assert (target.read_bytes(), target.stat().st_mtime_ns) == before  # not even rewritten
    assert "warning" not in second.stderr


def test_an_import_into_a_record_adds_its_configs_and_keeps_the_others(site: Path) -> None:
    target = site / "data/runs/v.yaml"
    options = [*SWEEP_OPTIONS, "--workload", "chat", "--engine", "vllm", "--date", "2026-11-04"]
    assert run(site, "vllm", VLLM / "c4.json", "--out", target, *options).exit_code == 0
    both = run(site, "vllm", VLLM / "c1.json", VLLM / "c4.json", "--out", target, *options)
    assert both.exit_code == 0, both.output
    assert both.stdout.splitlines() == [
        f"updated {target}",
        "imported 2 configs into 1 record (1 already there)",
    ]
    record = yaml.safe_load(target.read_text())
    assert [c["concurrency"] for c in record["configs"]] == [1, 4]
    # each import's notes once, in the order of their text (not of the imports)
    notes = record["notes"].split("\n")
    assert [n.split(" (")[0] for n in notes] == [
        "Imported with sitegen import vllm from c1.json, c4.json",
        "Imported with sitegen import vllm from c4.json",
    ]


# -- merging into what is there ----------------------------------------------------------------

MERGE_OPTIONS = [*SWEEP_OPTIONS, "--workload", "chat", "--engine", "vllm"]


def _changed(tmp_path: Path, source: Path, name: str, **fields: float) -> Path:
    """A copy of a result file with some figures measured differently."""
    data = json.loads(source.read_text())
    data.update(fields)
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=2))
    return path


def test_a_config_measured_differently_fails_naming_both_values_and_writes_nothing(
    site: Path, tmp_path: Path
) -> None:
    target = site / "data/runs/v.yaml"
    first = run(site, "vllm", VLLM / "c1.json", VLLM / "c4.json", "--out", target, *MERGE_OPTIONS)
    assert first.exit_code == 0, first.output
    before = target.read_bytes()
    rerun = _changed(tmp_path, VLLM / "c4.json", "c4-rerun.json", median_tpot_ms=25.0)
    rerun = _changed(tmp_path, rerun, "c4-rerun.json", median_ttft_ms=300.0)
    result = run(site, "vllm", rerun, VLLM / "c16.jsonl", "--out", target, *MERGE_OPTIONS)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    lines = target.read_text().splitlines()
    line = 1 + next(i for i, text in enumerate(lines) if "{gpus: 2, concurrency: 4," in text)
    assert lines[line - 2].startswith("  - {gpus: 2, concurrency: 1,")  # so it is configs[1]
    assert result.stderr.splitlines() == [
        f"data/runs/v.yaml:{line}: configs[1].tpot_ms.median: conflict (config gpus 2, "
        f"concurrency 4): 20 here, 25 in {rerun}:1; a measurement is never overwritten: fix "
        "or remove one of them",
        f"data/runs/v.yaml:{line}: configs[1].ttft_ms.median: conflict (config gpus 2, "
        f"concurrency 4): 250 here, 300 in {rerun}:1; a measurement is never overwritten: fix "
        "or remove one of them",
        "import failed: 2 errors, 0 warnings; nothing written",
    ]
    assert target.read_bytes() == before  # c16 is not added either: nothing is written
    assert [p.name for p in target.parent.iterdir()] == ["v.yaml"]


def test_one_config_measured_differently_in_two_files_of_one_import(
    site: Path, tmp_path: Path
) -> None:
    rerun = _changed(tmp_path, VLLM / "c4.json", "c4-rerun.json", output_throughput=130.0)
    lines = _fails(site, "vllm", VLLM / "c4.json", rerun, *MERGE_OPTIONS)
    assert lines == [
        f"{VLLM / 'c4.json'}:1: output_throughput_per_gpu: conflict (config gpus 2, "
        f"concurrency 4): 60 here, 65 in {rerun}:1; a measurement is never overwritten: fix or "
        "remove one of them"
    ]


def test_the_same_config_in_two_files_of_one_import_is_one_config(site: Path) -> None:
    files = [VLLM / "c4.json", VLLM / "c4.json", VLLM / "c1.json"]
    target = site / "data/runs/v.yaml"
    result = run(site, "vllm", *files, "--out", target, *MERGE_OPTIONS)
    assert result.exit_code == 0 and "warning" not in result.stderr, result.output
    assert result.stdout.splitlines()[-1] == "imported 3 configs into 1 record (1 already there)"
    record = yaml.safe_load(target.read_text())
    assert [c["concurrency"] for c in record["configs"]] == [1, 4]


def test_another_run_at_the_same_out_is_a_conflict_not_a_replacement(site: Path) -> None:
    target = site / "data/runs/v.yaml"
    args = ["vllm", VLLM / "c1.json", "--out", target, *MERGE_OPTIONS]
    assert run(site, *args).exit_code == 0
    before = target.read_bytes()
    result = run(site, *args, "--date", "2026-12-01")
    assert result.exit_code == 1
    assert target.read_text().splitlines()[3] == "date: 2026-11-04"
    assert result.stderr.splitlines()[0] == (
        "data/runs/v.yaml:4: date: conflict: 2026-11-04 here, 2026-12-01 in c1.json; "
        "the record there is of another run: name another --out"
    )
    assert target.read_bytes() == before


def test_a_record_with_errors_of_its_own_is_not_merged_into(site: Path) -> None:
    target = site / "data/runs/v.yaml"
    assert run(site, "vllm", VLLM / "c1.json", "--out", target, *MERGE_OPTIONS).exit_code == 0
    broken = target.read_text().replace("source: Lab", "source: Lab\ngpu_count: 2")
    broken = broken.replace("workload: chat", "workload: no-such-workload")
    target.write_text(broken)
    result = run(site, "vllm", VLLM / "c4.json", "--out", target, *MERGE_OPTIONS)
    assert result.exit_code == 1
    assert "data/runs/v.yaml:10: workload: " in result.stderr
    assert "data/runs/v.yaml: --out: cannot merge the import into this record: it has " in (
        result.stderr
    )
    assert target.read_text() == broken


def test_records_get_the_mode_of_a_new_file_not_a_private_one(site: Path) -> None:
    target = site / "data/runs/lab/v.yaml"
    assert run(site, "vllm", VLLM / "c1.json", "--out", target, *MERGE_OPTIONS).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    target.chmod(0o640)
    assert run(site, "vllm", VLLM / "c4.json", "--out", target, *MERGE_OPTIONS).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # an updated file keeps its own


def test_merged_notes_are_written_as_paragraphs_that_read_back(site: Path) -> None:
    target = site / "data/runs/v.yaml"
    for name in ("c1.json", "c4.json"):
        result = run(site, "vllm", VLLM / name, "--out", target, *MERGE_OPTIONS)
        assert result.exit_code == 0, result.output
    text = target.read_text()
    assert "notes: >-\n  Imported with sitegen import vllm from c1.json" in text
    assert "\n\n  Imported with sitegen import vllm from c4.json" in text
    assert yaml.safe_load(text)["notes"].count("\n") == 1
    loads_cleanly(site)


# -- the YAML written ---------------------------------------------------------------------------


def test_configs_are_written_one_per_line(site: Path) -> None:
    files = [VLLM / "c1.json", VLLM / "c4.json"]
    imported(site, "vllm", files, *SWEEP_OPTIONS, "--workload", "chat", out="v.yaml")
    text = (site / "data/runs/v.yaml").read_text()
    lines = text.splitlines()
    assert lines[0].startswith("# Written by `sitegen import`; edit freely. A re-import merges")
    notes = yaml.safe_load(text)["notes"]
    assert notes.startswith("Imported with sitegen import vllm from c1.json, c4.json (")
    start = lines.index("configs:")
    assert all(line.startswith("  - {gpus: 2, concurrency: ") for line in lines[start + 1 :])
    assert len(lines) - start - 1 == 2


@pytest.mark.parametrize(
    "value",
    ["8k1k", "yes", "null", "1.5", "a: b", "x, y", "#tag", "  padded", "it's", 'say "hi"', "é"],
)
def test_strings_that_yaml_would_misread_are_quoted(value: str) -> None:
    assert yaml.safe_load(f"k: {scalar(value, flow=False)}") == {"k": value}
    assert yaml.safe_load(f"k: {{v: {scalar(value, flow=True)}}}") == {"k": {"v": value}}


def test_small_and_large_floats_read_back_as_floats() -> None:
    record = {"a": 1e-05, "b": 2.5e16, "c": [{"d": 0.000123}]}
    assert yaml.safe_load(render(record, "x")) == record


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        ("20261104-221530", dt.date(2026, 11, 4)),
        ("2026-10-21T14:02:11.512345", dt.date(2026, 10, 21)),
        ("2026-11-12T08:00:00Z", dt.date(2026, 11, 12)),
        # with an offset: the UTC day, as epochs are read (docs/importing.md)
        ("2026-11-12T23:30:00-05:00", dt.date(2026, 11, 13)),
        ("2026-09-03 22:38:12+00", dt.date(2026, 9, 3)),
        ("2026-09-03", dt.date(2026, 9, 3)),
        (1793889600, dt.date(2026, 11, 5)),
        (1793889600000, dt.date(2026, 11, 5)),
        (1793800000.5, dt.date(2026, 11, 4)),
        ("soon", None),
        (None, None),
    ],
)
def test_dates_as_tools_write_them(raw: object, day: dt.date | None) -> None:
    assert to_date(raw) == day


def test_the_fixture_of_the_real_api_file_is_untouched() -> None:
    data = json.loads(INFERENCEX_API.read_text())
    assert len(data["rows"]) == 37 and data["metadata"]["selected_rows"] == 37


def test_import_into_a_site_without_sitegen_yaml(tmp_path: Path) -> None:
    shutil.copy(VLLM / "c1.json", tmp_path / "c1.json")
    result = CliRunner().invoke(
        main,
        [
            "import",
            "vllm",
            str(tmp_path / "c1.json"),
            "--out",
            str(tmp_path / "x.yaml"),
            "--site",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 1
    assert "sitegen.yaml: not found" in result.stderr
    assert not (tmp_path / "x.yaml").exists()


def test_inferencex_warns_where_measured_power_disagrees(site: Path, tmp_path: Path) -> None:
    data = json.loads(INFERENCEX_API.read_text())
    metrics = data["rows"][0]["metrics"]  # a single-node TP8 row: 8 GPUs
    metrics["avg_total_gpu_power_w"] = metrics["avg_power_w"] * 64
    path = tmp_path / "power.json"
    path.write_text(json.dumps(data, indent=1))
    result = run(site, "inferencex", path, "--out", site / "data/runs/ix")
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stderr.splitlines() if "(warning)" in line]
    assert line.startswith(f"{path}:") and "rows[0]: 8 GPUs derived" in line
    assert "measured power says 64.0" in line
