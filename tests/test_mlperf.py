"""sitegen import mlperf: the real MLPerf Inference v5.1 results tree, every figure recomputed
from the raw LoadGen summaries by a parser of this test's own; a broken tree imports the rest."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.importers import FORMATS, detect_tree
from sitegen.records import load_site

TREE = Path(__file__).parent / "fixtures" / "importers" / "mlperf-inference-v5.1"
DATE = "2025-09-09"

CONFIG = {
    "title": "MLPerf import test",
    "base_url": "https://example.org/",
    "default_workload": "mlperf-deepseek-r1",
    "targets": [10, 20, 50],
    "headline": {"interactivity": 20, "tier": "owning"},
    "frontier": {"method": "interpolate"},
}
# Every accelerator of the tree by the name MLPerf gives it (GB200 and GB300 by their slug).
GPUS = {
    "b200": ["NVIDIA B200-SXM-180GB"],
    "h200": ["NVIDIA H200-SXM-141GB", "Virtualized NVIDIA H200-SXM-141GB"],
    "h200-nvl": ["NVIDIA H200-NVL-141GB"],
    "h100": ["NVIDIA H100-SXM-80GB"],
    "gb200": [],
    "gb300": [],
    "mi300x": ["AMD Instinct MI300X 192GB HBM3"],
    "mi325x": ["AMD Instinct MI325X 256GB HBM3e"],
    "rtx-pro-6000": ["NVIDIA RTX PRO 6000 Blackwell Server Edition"],
    "arc-pro-b60": ["[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo"],
}
MODELS = {
    "deepseek-r1": {"name": "DeepSeek R1"},
    "llama2-70b": {"name": "Llama 2 70B", "aliases": ["llama2-70b-99", "llama2-70b-99.9"]},
    "llama3.1-405b": {"name": "Llama 3.1 405B", "aliases": ["llama3_1-405b"]},
}
WORKLOADS = {
    "mlperf-deepseek-r1": {"name": "MLPerf DeepSeek R1"},
    "mlperf-llama2-70b": {
        "name": "MLPerf Llama 2 70B",
        "aliases": ["mlperf-llama2-70b-99", "mlperf-llama2-70b-99.9"],
    },
    "mlperf-llama3.1-405b": {"name": "MLPerf Llama 3.1 405B", "aliases": ["mlperf-llama3_1-405b"]},
}
MODEL_OF = {"deepseek-r1": "deepseek-r1", "llama2-70b-99": "llama2-70b"}
MODEL_OF |= {"llama3.1-405b": "llama3.1-405b", "llama3_1-405b": "llama3.1-405b"}


def write_site(root: Path) -> Path:
    gpus = {slug: {"name": slug.upper(), "aliases": names} for slug, names in GPUS.items()}
    files = {
        "sitegen.yaml": CONFIG,
        "data/models.yaml": MODELS,
        "data/gpus.yaml": gpus,
        "data/workloads.yaml": WORKLOADS,
        "data/pricing.yaml": {
            "source": "Test",
            "as_of": "2026-07",
            "tiers": {"owning": {"label": "Owning"}},
            "prices": {"b200": {"owning": 3.0}},
        },
    }
    for name, value in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")
    return root


def run_import(site: Path, tree: Path | str, *options: str, out: str = "mlperf") -> Result:
    args = ["import", "mlperf", str(tree), "--out", str(site / "data/runs" / out)]
    args += ["--site", str(site), *options]
    return CliRunner().invoke(main, args)


def records(site: Path, out: str = "mlperf") -> dict[str, dict]:
    folder = site / "data/runs" / out
    return {p.name: yaml.safe_load(p.read_text()) for p in sorted(folder.glob("*.yaml"))}


# -- the test's own reading of the raw files ----------------------------------------------------


def figure(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)}\s*:\s*([0-9.]+)\s*$", text, re.MULTILINE)
    assert found, name
    return float(found.group(1))


def expected_points(tree: Path) -> tuple[dict[str, dict], set[str]]:
    """Every VALID Server/Interactive result, by location: its figures recomputed from the raw
    summary and system JSON; and the locations of systems of two GPU kinds."""
    points, mixed = {}, set()
    for summary in sorted(tree.glob("closed/*/results/*/*/*/performance/run_1/*summary.txt")):
        folder = summary.parents[2]
        scenario, benchmark, system = folder.name, folder.parent.name, folder.parent.parent.name
        submitter_folder = folder.parents[3]
        if scenario not in ("Server", "Interactive"):
            continue
        text = summary.read_text()
        if "Result is : VALID" not in text:
            continue
        location = folder.relative_to(tree).as_posix()
        spec = json.loads((submitter_folder / "systems" / f"{system}.json").read_text())
        if spec["accelerator_model_name"].count("(x") > 1:
            mixed.add(location)
            continue
        gpus = int(spec["accelerators_per_node"]) * int(spec["number_of_nodes"])
        points[location] = {
            "gpus": gpus,
            "benchmark": benchmark,
            "submitter": submitter_folder.name,
            "requests_per_s": figure(text, "Completed samples per second"),
            "output_tok_s_per_gpu": figure(text, "Completed tokens per second") / gpus,
            "tok_s_per_user": 1e9 / figure(text, "50.00 percentile time to output token (ns)"),
            "ttft_ms": figure(text, "50.00 percentile first token latency (ns)") / 1e6,
        }
    return points, mixed


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * abs(b)


def imported_points(found: dict[str, dict]) -> dict[str, dict]:
    """location -> the record holding its config, as the record's notes name its results."""
    by_location: dict[str, dict] = {}
    for record in found.values():
        locations = re.findall(r"result (closed/\S+) \(", " ".join(record["notes"].split()))
        for location in locations:
            assert location not in by_location, location
            by_location[location] = record
        assert len(locations) == len(record["configs"])
    return by_location


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[Path, Result]:
    site = write_site(tmp_path_factory.mktemp("mlperf") / "site")
    return site, run_import(site, TREE, "--date", DATE)


def test_every_valid_point_is_imported_with_the_figures_of_its_summary(whole) -> None:
    site, result = whole
    assert result.exit_code == 0, result.output
    expected, mixed = expected_points(TREE)
    assert len(expected) == 108 and len(mixed) == 2  # what the v5.1 tree holds
    found = records(site)
    placed = imported_points(found)
    assert set(placed) == set(expected)
    for location, want in expected.items():
        record = placed[location]
        rates = [c for c in record["configs"] if close(c["request_rate"], want["requests_per_s"])]
        assert len(rates) == 1, location
        config = rates[0]
        assert config["gpus"] == want["gpus"]
        assert close(config["output_throughput_per_gpu"], want["output_tok_s_per_gpu"])
        assert close(1000 / config["tpot_ms"]["median"], want["tok_s_per_user"])
        assert close(config["ttft_ms"]["median"], want["ttft_ms"])
        # open loop, generated tokens only: no concurrency, no total-token throughput
        assert "concurrency" not in config and "throughput_per_gpu" not in config
        assert record["model"] == MODEL_OF[want["benchmark"]]
        assert record["workload"] == "mlperf-" + MODEL_OF[want["benchmark"]]
        assert record["source"] == f"MLPerf Inference v5.1 ({want['submitter']})"
        assert record["date"].isoformat() == DATE
    assert sum(len(r["configs"]) for r in found.values()) == len(expected)
    assert f"imported {len(expected)} configs into {len(found)} records" in result.stdout
    for location in mixed:  # each skipped system is named, with its two GPU kinds
        system = location.split("/")[3]
        assert re.search(
            rf"{re.escape(system)}\.json: accelerator_model_name: .*2 GPU kinds", result.stderr
        )
    loaded, problems = load_site(site)  # the records are what a build reads
    assert loaded is not None and len(loaded.runs) == len(found), problems.errors


def test_identity_from_the_system_and_the_summary(whole) -> None:
    site, _ = whole
    found = records(site)
    name = (
        "deepseek-r1-gb200-tensorrt-llm-fp4-mlperf-deepseek-r1-2025-09-09-"
        "nvidia-gb200-nvl72-gb200-186gb-aarch64x72-trt.yaml"
    )
    record = found[name]
    assert record["gpu"] == "gb200" and record["engine"] == "tensorrt-llm"
    assert record["engine_version"] == "TensorRT 10.11" and record["precision"] == "fp4"
    assert record["configs"][0]["gpus"] == 72  # 4 per node x 18 nodes
    assert record["url"] == (
        "https://github.com/mlcommons/inference_results_v5.1/tree/main/closed/NVIDIA/results/"
        "GB200-NVL72_GB200-186GB_aarch64x72_TRT"
    )
    notes = " ".join(record["notes"].split())
    offline = TREE / "closed/NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT/deepseek-r1"
    offline_text = (offline / "Offline/performance/run_1/mlperf_log_summary.txt").read_text()
    tokens = figure(offline_text, "Tokens per second")
    assert f"{tokens:.10g} output tokens/s for the system, {tokens / 72:.10g} per GPU" in notes
    assert "Server bounds of deepseek-r1 (99th percentile): TTFT 2000 ms, TPOT 80 ms" in notes
    assert "credit MLCommons and NVIDIA" in notes
    engines = {r["engine"] for r in found.values()}
    precisions = {r["precision"] for r in found.values()}
    assert engines == {"tensorrt-llm", "vllm", "mango-llmboost-ai-enterprise-platform"}
    assert precisions == {"fp4", "fp8", "uint4"}


def test_importing_twice_changes_nothing(whole) -> None:
    site, _ = whole
    folder = site / "data/runs/mlperf"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = run_import(site, TREE, "--date", DATE)
    assert again.exit_code == 0, again.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    lines = again.stdout.splitlines()
    assert all(line.startswith("unchanged ") for line in lines[:-1]) and len(lines) == 77
    assert lines[-1] == "imported 108 configs into 76 records (108 already there)"


# -- a broken tree ---------------------------------------------------------------------------


def _copy(tree: Path, submitter: str, system: str) -> None:
    source = TREE / "closed" / submitter
    target = tree / "closed" / submitter
    shutil.copytree(source / "results" / system, target / "results" / system)
    (target / "systems").mkdir(parents=True, exist_ok=True)
    shutil.copy(source / "systems" / f"{system}.json", target / "systems" / f"{system}.json")


def _edit_system(tree: Path, submitter: str, system: str, **changes: object) -> None:
    path = tree / "closed" / submitter / "systems" / f"{system}.json"
    spec = json.loads(path.read_text())
    for key, value in changes.items():
        if value is None:
            del spec[key]
        else:
            spec[key] = value
    path.write_text(json.dumps(spec))


def test_a_broken_tree_says_what_it_skips_and_imports_the_rest(tmp_path: Path) -> None:
    tree = tmp_path / "inference_results_v5.1"
    kept = [("NVIDIA", "B200-SXM-180GBx8_TRT"), ("Cisco", "HGX-H100_H100-SXM-80GBx16_TRT")]
    broken = [
        ("Dell", "XE9680L_B200_SXM_180GBx8_TRT"),  # one result INVALID, one without summary
        ("Lambda", "B200-SXM-180GBx8_TRT"),  # no accelerators_per_node
        ("Nebius", "H200-SXM-141GBx8_TRT"),  # an accelerator no GPU is
        ("MangoBoost", "32xMI300X_2xEPYC_9534_16xMI325X_2xEPYC_9655"),  # two GPU kinds
    ]
    for submitter, system in kept + broken:
        _copy(tree, submitter, system)
    shutil.copy(TREE / "summary_results.json", tree / "summary_results.json")
    dell = tree / "closed/Dell/results/XE9680L_B200_SXM_180GBx8_TRT"
    invalid = dell / "deepseek-r1/Server"
    summary = invalid / "performance/run_1/mlperf_log_summary.txt"
    summary.write_text(summary.read_text().replace("Result is : VALID", "Result is : INVALID"))
    unsummarised = dell / "llama2-70b-99/Interactive"
    (unsummarised / "performance/run_1/mlperf_log_summary.txt").unlink()
    _edit_system(tree, "Lambda", "B200-SXM-180GBx8_TRT", accelerators_per_node=None)
    _edit_system(tree, "Nebius", "H200-SXM-141GBx8_TRT", accelerator_model_name="NVIDIA H210-SXM")
    site = write_site(tmp_path / "site")

    result = run_import(site, tree, "--date", DATE)

    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    assert f"{invalid}: Result is INVALID (not VALID): skipped (warning)" in warnings
    assert (
        f"{unsummarised}: no performance/run_1/mlperf_log_summary.txt: skipped (warning)"
        in warnings
    )
    systems = tree / "closed/Lambda/systems/B200-SXM-180GBx8_TRT.json"
    assert any(
        line.startswith(f"{systems}: accelerators_per_node: missing; expected a whole number")
        and "the results of B200-SXM-180GBx8_TRT are skipped (llama2-70b-99/Offline" in line
        for line in warnings
    )
    nebius = tree / "closed/Nebius/systems/H200-SXM-141GBx8_TRT.json"
    assert any(
        line.startswith(f'{nebius}: accelerator_model_name: "NVIDIA H210-SXM" matches no slug')
        and re.search(r"\(closest: [^)]*\bh200\b", line)
        for line in warnings
    )
    mango = tree / "closed/MangoBoost/systems/32xMI300X_2xEPYC_9534_16xMI325X_2xEPYC_9655.json"
    assert any(line.startswith(f"{mango}: accelerator_model_name: ") for line in warnings)
    assert len(warnings) == 5

    # the rest: every VALID Server/Interactive point of the kept systems and Dell's others
    expected, _ = expected_points(TREE)
    systems_left = {*kept, broken[0]}
    skipped = {p.relative_to(tree).as_posix() for p in (invalid, unsummarised)}
    rest = {
        loc
        for loc in expected
        if (loc.split("/")[1], loc.split("/")[3]) in systems_left and loc not in skipped
    }
    assert len(rest) == 10  # NVIDIA 5, Cisco 2, Dell 5 less the two broken
    found = records(site)
    assert set(imported_points(found)) == rest
    assert {r["source"] for r in found.values()} == {
        f"MLPerf Inference v5.1 ({s})" for s in ("NVIDIA", "Cisco", "Dell")
    }


def test_a_summary_that_is_a_fifo_or_a_link_is_skipped_not_waited_on(tmp_path: Path) -> None:
    """A tree someone else published is read file by file: a FIFO would hang the import, a
    link to /dev/zero fill the memory; neither is read, and the rest is imported."""
    tree = tmp_path / "inference_results_v5.1"
    _copy(tree, "Dell", "XE9680L_B200_SXM_180GBx8_TRT")
    dell = tree / "closed/Dell/results/XE9680L_B200_SXM_180GBx8_TRT"
    fifo = dell / "deepseek-r1/Server/performance/run_1/mlperf_log_summary.txt"
    fifo.unlink()
    os.mkfifo(fifo)
    link = dell / "llama2-70b-99/Interactive/performance/run_1/mlperf_log_summary.txt"
    link.unlink()
    link.symlink_to("/dev/zero")
    shutil.copy(TREE / "summary_results.json", tree / "summary_results.json")
    site = write_site(tmp_path / "site")

    result = run_import(site, tree, "--date", DATE)

    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    for odd in (fifo, link):
        folder = odd.parents[2]
        assert any(
            line.startswith(f"{folder}: mlperf_log_summary.txt not read (")
            and line.endswith("): skipped (warning)")
            for line in warnings
        ), (odd, warnings)
    assert len(imported_points(records(site))) == 3  # Dell's other Server/Interactive results


# -- what is given ----------------------------------------------------------------------------


def test_the_date_is_required(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site")
    result = run_import(site, TREE)
    assert result.exit_code == 1
    assert "--date: an MLPerf results tree does not say its date; give --date" in result.stderr
    assert not (site / "data/runs").exists()


def test_one_submitter_or_the_division_folder(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site")
    one = run_import(site, TREE / "closed/Nebius", "--date", DATE, out="nebius")
    assert one.exit_code == 0, one.output
    found = records(site, "nebius")
    assert {r["source"] for r in found.values()} == {"MLPerf Inference v5.1 (Nebius)"}
    assert len(found) == 6 and all(  # 3 systems x 2 benchmarks
        r["url"].startswith("https://github.com/") for r in found.values()
    )
    division = run_import(site, TREE / "closed", "--date", DATE, out="closed")
    assert division.exit_code == 0, division.output
    assert len(records(site, "closed")) == 76


def test_options_win_over_the_tree(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site")
    result = run_import(
        site, TREE / "closed/Lambda", "--date", DATE, "--precision", "nvfp4", "--engine", "trt-llm"
    )
    assert result.exit_code == 0, result.output
    found = records(site)
    assert {(r["engine"], r["precision"]) for r in found.values()} == {("trt-llm", "nvfp4")}


def test_folders_and_files_go_to_the_formats_that_read_them(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site")
    out = str(site / "data/runs/x")
    summary = TREE / "summary_results.json"
    as_file = CliRunner().invoke(
        main, ["import", "mlperf", str(summary), "--out", out, "--site", str(site), "--date", DATE]
    )
    assert as_file.exit_code == 1
    assert f"{summary}: a file: mlperf reads a results tree" in as_file.stderr
    as_vllm = CliRunner().invoke(
        main, ["import", "vllm", str(TREE), "--out", out, "--site", str(site)]
    )
    assert as_vllm.exit_code == 1
    assert f"{TREE}: a folder: the vllm format reads result files; only mlperf" in as_vllm.stderr
    auto = CliRunner().invoke(
        main,
        [
            "import",
            "auto",
            str(TREE / "closed/Google"),
            "--out",
            out,
            "--site",
            str(site),
            "--date",
            DATE,
        ],
    )
    assert auto.exit_code == 0, auto.output
    assert "auto: read the files as mlperf" in auto.stderr
    not_a_tree = CliRunner().invoke(
        main, ["import", "mlperf", str(tmp_path), "--out", out, "--site", str(site), "--date", DATE]
    )
    assert not_a_tree.exit_code == 1
    assert "not an MLPerf Inference results tree" in not_a_tree.stderr


def test_the_tree_is_recognised() -> None:
    assert detect_tree(TREE) == "mlperf" and detect_tree(TREE / "closed/AMD") == "mlperf"
    assert detect_tree(TREE / "closed/AMD/systems") is None
    assert "mlperf" in FORMATS


def test_one_archive_keeps_each_system_apart(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site")
    first = run_import(site, TREE / "closed/Nebius", "--date", DATE, out="mlperf.parquet")
    assert first.exit_code == 0, first.output
    archive = site / "data/runs/mlperf.parquet"
    written = archive.read_bytes()
    again = run_import(site, TREE / "closed/Nebius", "--date", DATE, out="mlperf.parquet")
    assert again.exit_code == 0, again.output
    assert archive.read_bytes() == written and again.stdout.startswith("unchanged ")
    loaded, problems = load_site(site)
    assert loaded is not None, problems.errors
    # Nebius's B200, GB200 and H200 systems, each with two benchmarks: six runs
    assert len(loaded.runs) == 6
    assert sum(len(run.configs) for run in loaded.runs) == 10


def test_other_benchmarks_are_counted_once_and_their_systems_not_checked(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    _copy(tree, "Google", "H200-SXM-141GBx8_TRT")
    shutil.copy(TREE / "summary_results.json", tree / "summary_results.json")
    submitter = tree / "closed/Google"
    for system, benchmark in (("L4x8", "resnet50"), ("L4x8", "retinanet")):
        run = submitter / "results" / system / benchmark / "Offline/performance/run_1"
        run.mkdir(parents=True)
        (run / "mlperf_log_summary.txt").write_text(
            "Scenario : Offline\nSamples per second: 1000.5\nResult is : VALID\n"
        )
    (submitter / "systems/L4x8.json").write_text(
        json.dumps({"accelerator_model_name": "NVIDIA L4", "accelerators_per_node": 8})
    )
    site = write_site(tmp_path / "site")
    result = run_import(site, tree, "--date", DATE)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"{tree}: results without token figures (not LLM benchmarks) skipped: "
        "resnet50 (1), retinanet (1) (warning)"
    ]
    assert len(records(site)) == 1  # Google's H200: Interactive (its Offline in the notes)


def test_a_gpu_count_the_summary_does_not_share_is_said(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    _copy(tree, "Google", "H200-SXM-141GBx8_TRT")
    rows = json.loads((TREE / "summary_results.json").read_text())
    location = "closed/Google/results/H200-SXM-141GBx8_TRT/llama2-70b-99/Interactive"
    for row in rows:
        if row["Location"] == location:
            row["Nodes"] = 2
    (tree / "summary_results.json").write_text(json.dumps(rows))
    site = write_site(tmp_path / "site")
    result = run_import(site, tree, "--date", DATE)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"{tree / location}: summary_results.json says a# 8 x Nodes 2 = 16 GPUs, the system "
        "JSON 8 x 1 = 8; the system JSON's count is used (warning)"
    ]
    (record,) = records(site).values()
    assert [c["gpus"] for c in record["configs"]] == [8]
