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
    result, out = _import(site, _rows(tmp_path, hardware="b-two-hundred"))
    assert result.exit_code == 1
    assert '"b-two-hundred" in the file matches no slug, alias or name of data/gpus.yaml' in (
        result.stderr
    )
    assert "closest: b200" in result.stderr
    assert not out.exists()


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
