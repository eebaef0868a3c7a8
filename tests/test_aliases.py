"""Catalog aliases (DATA.md): the names other tools give a model, GPU or workload. Importers map
a name to a slug by the slug, then by an alias, case aside; an alias names one entry only; a
name that maps to nothing lists the closest slugs; a command-line option wins."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from conftest import copy_flagship
from sitegen.cli import main

FIXTURE = (
    Path(__file__).parent / "fixtures" / "importers" / "deepseek-r1-benchmarks-2026-06-11.json"
)


def _rows(tmp_path: Path, hardware: str = "b300", model: str | None = None) -> Path:
    """Three of InferenceX's rows of one GPU at 1k/1k, their model renamed where asked."""
    rows = [
        r
        for r in json.loads(FIXTURE.read_text())
        if r["hardware"] == "b300" and (r["isl"], r["osl"]) == (1024, 1024)
    ][:3]
    for r in rows:
        r["hardware"] = hardware
        if model is not None:
            r["model"] = model
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(rows))
    return path


def _import(site: Path, rows: Path, *extra: str):
    out = site / "data/runs/aliased"
    args = ["import", "inferencex", str(rows), "--out", str(out), "--site", str(site), *extra]
    return CliRunner().invoke(main, args), out


def test_an_alias_maps_a_tools_name_to_the_slug(tmp_path):
    site = copy_flagship(tmp_path / "site")
    result, out = _import(site, _rows(tmp_path))  # InferenceX says "dsr1": no --model needed
    assert result.exit_code == 0, result.output
    records = [yaml.safe_load(p.read_text()) for p in sorted(out.glob("*.yaml"))]
    assert records and {r["model"] for r in records} == {"deepseek-r1"}


def test_aliases_match_case_aside_and_an_option_wins_over_the_file(tmp_path):
    site = copy_flagship(tmp_path / "site")
    models = yaml.safe_load((site / "data/models.yaml").read_text())
    models["kimi-k3.1-pro"]["aliases"] = ["Kimi-K3.1"]
    (site / "data/models.yaml").write_text(yaml.safe_dump(models))
    result, out = _import(site, _rows(tmp_path, model="KIMI-k3.1"))
    assert result.exit_code == 0, result.output
    assert {yaml.safe_load(p.read_text())["model"] for p in out.glob("*.yaml")} == {"kimi-k3.1-pro"}
    result, out = _import(site, _rows(tmp_path, model="KIMI-k3.1"), "--model", "deepseek-r1")
    assert result.exit_code == 0, result.output
    assert "deepseek-r1" in {yaml.safe_load(p.read_text())["model"] for p in out.glob("*.yaml")}


def test_a_name_that_maps_to_nothing_lists_the_closest_slugs(tmp_path):
    site = copy_flagship(tmp_path / "site")
    # a typo that reads like b200 (a name like nothing at all lists the known slugs instead)
    result, out = _import(site, _rows(tmp_path, hardware="b20o"))
    assert result.exit_code == 1
    assert '"b20o" in the file matches no slug, alias or name of data/gpus.yaml' in result.stderr
    assert "closest: b200, " in result.stderr  # the nearest first
    assert not out.exists()
    # a name that reads like no entry is not given "closest" ones: the known slugs instead
    result, out = _import(site, _rows(tmp_path, hardware="zzzzqqq"))
    assert result.exit_code == 1
    assert "closest:" not in result.stderr
    assert "(known: arc-pro-b60-dual, b200, b300, " in result.stderr


def test_an_alias_claimed_by_two_entries_is_an_error_naming_both(tmp_path):
    site = copy_flagship(tmp_path / "site")
    gpus = yaml.safe_load((site / "data/gpus.yaml").read_text())
    gpus["b200"]["aliases"] = ["NVIDIA B200-SXM-180GB"]
    gpus["b300"]["aliases"] = ["nvidia b200-sxm-180gb"]
    gpus["h100"]["aliases"] = ["B300"]  # another entry's slug, case aside
    (site / "data/gpus.yaml").write_text(yaml.safe_dump(gpus))
    result = CliRunner().invoke(main, ["build", "--site", str(site)])
    assert result.exit_code == 1
    assert "data/gpus.yaml:" in result.stderr
    assert "b300.aliases[0]" in result.stderr and "also names b200" in result.stderr
    assert "h100.aliases[0]" in result.stderr and "also names b300" in result.stderr
    assert not (site / "public").exists()


def test_aliases_must_be_a_list_of_names(tmp_path):
    site = copy_flagship(tmp_path / "site")
    workloads = yaml.safe_load((site / "data/workloads.yaml").read_text())
    workloads["1k1k"]["aliases"] = "1k/1k"
    (site / "data/workloads.yaml").write_text(yaml.safe_dump(workloads))
    result = CliRunner().invoke(main, ["check", "--site", str(site)])
    assert result.exit_code == 1
    assert "1k1k.aliases" in result.stderr and "a list of names" in result.stderr


# MLPerf Inference v5.1's names for its accelerators (accelerator_model_name of the systems'
# JSON, Accelerator of summary_results.json) and benchmarks, as the shared results tree has
# them, and the flagship's entry each names
MLPERF_GPUS = {
    "AMD Instinct MI300X 192GB HBM3": "mi300x",
    "AMD Instinct MI325X 256GB HBM3e": "mi325x",
    "NVIDIA B200-SXM-180GB": "b200",
    "NVIDIA GB200": "gb200",
    "NVIDIA GB300": "gb300",
    "NVIDIA H100-SXM-80GB": "h100",
    "NVIDIA H200-SXM-141GB": "h200",
    "Virtualized NVIDIA H200-SXM-141GB": "h200",
    "NVIDIA H200-NVL-141GB": "h200-nvl",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition": "rtx-pro-6000-server",
    "[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo": "arc-pro-b60-dual",
}
MLPERF_MODELS = {
    "deepseek-r1": "deepseek-r1",
    "llama2-70b-99": "llama-2-70b",
    "llama2-70b-99.9": "llama-2-70b",
    "llama3.1-405b": "llama-3.1-405b",
    "llama3_1-405b": "llama-3.1-405b",
}


def _named_rows(tmp_path: Path, names: list[tuple[str, str]]) -> Path:
    """One of InferenceX's rows for each (hardware, model) given."""
    row = _rows(tmp_path).read_text()
    rows = [dict(json.loads(row)[0], hardware=gpu, model=model) for gpu, model in names]
    path = tmp_path / "named.json"
    path.write_text(json.dumps(rows))
    return path


def test_the_flagship_names_every_mlperf_accelerator_and_benchmark(tmp_path):
    site = copy_flagship(tmp_path / "site")
    names = [(gpu, "dsr1") for gpu in MLPERF_GPUS] + [("b300", m) for m in MLPERF_MODELS]
    result, out = _import(site, _named_rows(tmp_path, names))
    assert result.exit_code == 0, result.output
    records = [yaml.safe_load(p.read_text()) for p in out.glob("*.yaml")]
    assert {r["gpu"] for r in records} == set(MLPERF_GPUS.values()) | {"b300"}
    assert {r["model"] for r in records} == set(MLPERF_MODELS.values())


def test_a_system_of_two_gpu_kinds_names_no_entry(tmp_path):
    site = copy_flagship(tmp_path / "site")
    mixed = "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)"
    result, out = _import(site, _named_rows(tmp_path, [(mixed, "dsr1")]))
    assert result.exit_code == 1
    assert f'"{mixed}" in the file matches no slug, alias or name' in result.stderr
    assert not out.exists()
