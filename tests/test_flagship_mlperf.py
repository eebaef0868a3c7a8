"""The flagship's second source: MLPerf Inference v5.1 beside InferenceX (issue 27's "done
when"): its records are the shared tree imported, DeepSeek R1 on B200 shows both sources with
their own counts, the overview has MLPerf boards, and no data file ranks or compares a
total-token figure with an output-token one."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from conftest import REPO, copy_flagship, html_tables, html_text
from sitegen.cli import main
from test_output_tokens import assert_tokens_never_mixed

TREE = REPO / "tests/fixtures/importers/mlperf-inference-v5.1"
PAIR = "models/deepseek-r1/b200/"


def test_the_flagship_mlperf_records_are_the_shared_tree_imported(tmp_path: Path) -> None:
    root = copy_flagship(tmp_path / "site")
    records = sorted((root / "data/runs/mlperf").glob("*.yaml"))
    before = {p.name: p.read_bytes() for p in records}
    result = CliRunner().invoke(
        main,
        ["import", "mlperf", str(TREE), "--site", str(root), "--out", "data/runs/mlperf/"]
        + ["--date", "2025-09-09"],
    )
    assert result.exit_code == 0, result.output
    after = {p.name: p.read_bytes() for p in (root / "data/runs/mlperf").glob("*.yaml")}
    assert after == before and len(before) > 50


def test_deepseek_r1_on_b200_shows_inferencex_and_mlperf_each_with_its_count(flagship_files):
    _, files = flagship_files
    data = json.loads(files[PAIR + "data.json"])
    counts = {w: v["tokens"] for w, v in data["workloads"].items()}
    assert counts["mlperf-deepseek-r1"] == "output"
    assert {counts[w] for w in ("1k1k", "1k8k", "8k1k")} == {"total"}
    sources = data["workloads"]["mlperf-deepseek-r1"]["sources"]
    assert sources and all(s.startswith("MLPerf Inference v5.1 (") for s in sources)
    assert data["workloads"]["1k1k"]["sources"] == ["InferenceX"]
    page = files[PAIR + "index.html"].decode()
    text = html_text(page)
    assert "MLPerf Inference v5.1" in text and "InferenceX" in text
    assert "mlcommons.org" in page  # credited to MLCommons, linked
    # each ladder's figure column says what it counts
    heads = [t[0] for t in html_tables(page) if t and "Per-user target" in t[0]]
    figure_heads = {row[1] for row in heads}
    assert figure_heads == {"Tokens/s per GPU", "Output tokens/s per GPU"}
    # a disagreement is compared on output tokens, each side named with its workload
    for note in data["disagreements"]:
        sides = {note["a"]["workload"], note["b"]["workload"]}
        assert "mlperf-deepseek-r1" in sides and note["ratio"] > 1.25


def test_the_overview_has_mlperf_boards_on_output_tokens(flagship_files):
    _, files = flagship_files
    page = files["index.html"].decode()
    for workload in ("mlperf-deepseek-r1", "mlperf-llama2-70b", "mlperf-llama3.1-405b"):
        board = page.split(f'id="workload-{workload}"', 1)[1].split("</section>", 1)[0]
        assert "Output tok/s per GPU" in board and "$ / 1M output tok" in board
        assert "MLPerf Inference v5.1" in html_text(board)
    rows = json.loads(files["data/leaderboard.json"])
    mlperf = [r for r in rows if r["workload"].startswith("mlperf-")]
    assert mlperf and {r["tokens"] for r in mlperf} == {"output"}


def test_no_flagship_data_file_puts_total_against_output_tokens(flagship_files, tmp_path):
    _, files = flagship_files
    for name, body in files.items():
        if name.endswith(".json"):
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
    assert_tokens_never_mixed(tmp_path)
