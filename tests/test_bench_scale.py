"""bench/scale.py's generator: the shape of the sites it writes (its timings are never tested)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import REPO
from sitegen.cli import main


@pytest.fixture(scope="module")
def scale():
    spec = importlib.util.spec_from_file_location("scale", REPO / "bench" / "scale.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["scale"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["scale"]


def records(root: Path) -> dict[str, dict]:
    read = {".yaml": yaml.safe_load, ".json": json.loads}
    return {
        path.relative_to(root).as_posix(): read[path.suffix](path.read_text(encoding="utf-8"))
        for path in sorted((root / "data" / "runs").rglob("*.*"))
    }


def test_a_two_pair_site_has_the_shape_of_the_big_ones(scale, tmp_path):
    shape = scale.shape_of(2)
    scale.generate(tmp_path, shape)
    runs = records(tmp_path)
    assert len(runs) == 2 * 8 == shape.runs
    assert sum(p.endswith(".yaml") for p in runs) == sum(p.endswith(".json") for p in runs) == 8
    assert all(r["illustrative"] is True for r in runs.values())
    assert all(len(r["configs"]) == 32 for r in runs.values())
    assert {(r["model"], r["gpu"]) for r in runs.values()} == {
        ("model-000", "gpu-00"),
        ("model-000", "gpu-01"),
    }
    # every pair: four engine x precision curves, each on two dates (a current run and history)
    for gpu in ("gpu-00", "gpu-01"):
        curves = {}
        for r in runs.values():
            if r["gpu"] == gpu:
                curves.setdefault((r["engine"], r["precision"]), set()).add(str(r["date"]))
        assert len(curves) == 4 and all(len(dates) == 2 for dates in curves.values())

    result = CliRunner().invoke(main, ["check", "--strict", "--site", str(tmp_path)])
    assert result.exit_code == 0, result.output


def test_the_sites_are_the_issues_sizes(scale):
    assert (scale.SIZES[2000].pairs, scale.SIZES[2000].configs) == (2000, 512_000)
    assert (scale.SIZES[4000].pairs, scale.SIZES[4000].configs) == (4000, 1_000_000)
    per_run = [scale.SIZES[4000].configs_of_run(i) for i in range(8)]
    assert sum(per_run) == 250 and set(per_run) == {31, 32}


def test_generation_is_deterministic_and_the_edit_changes_one_number(scale, tmp_path):
    shape = scale.shape_of(2)
    first, second = tmp_path / "a", tmp_path / "b"
    scale.generate(first, shape)
    scale.generate(second, shape)
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)

    before = records(first)
    edit = scale.edit_one_number(first, shape)
    after = records(first)
    changed = [p for p in before if before[p] != after[p]]
    assert changed == [edit.path]
    differences = [
        (old, new)
        for old, new in zip(before[edit.path]["configs"], after[edit.path]["configs"], strict=True)
        if old != new
    ]
    assert len(differences) == 1
    old, new = differences[0]
    assert {k for k in old if old[k] != new[k]} == {"throughput_per_gpu"}


def test_the_previews_edits_each_change_the_same_number_again(scale, tmp_path):
    shape = scale.shape_of(2)
    scale.generate(tmp_path, shape)
    seen = []
    for factor in (1.5, 1.6, 1.7):
        edit = scale.edit_one_number(tmp_path, shape, factor=factor)
        seen.append((edit.path, (tmp_path / edit.path).read_bytes()))
    assert len({path for path, _ in seen}) == 1  # one record
    assert len({data for _, data in seen}) == 3  # changed by each edit


def test_a_folder_of_the_last_run_is_set_aside_and_deleted_only_at_the_end(scale, tmp_path):
    old = tmp_path / "2-pairs"
    old.mkdir()
    (old / "sitegen.yaml").write_text(f"title: {scale.SITE_TITLE}\n", encoding="utf-8")
    (old / "public").mkdir()
    (old / "public" / "index.html").write_text("old", encoding="utf-8")
    trash = scale.Trash()
    scale.TRASH, kept = trash, scale.TRASH
    try:
        with scale.site_folder(tmp_path, 2) as root:
            assert root == old and list(root.iterdir()) == []  # a new, empty folder
            (aside,) = trash.paths
            assert (aside / "public" / "index.html").read_text(encoding="utf-8") == "old"
        assert aside.exists()  # not deleted while builds may still run
        trash.empty()
        assert not aside.exists() and trash.paths == []
    finally:
        scale.TRASH = kept
