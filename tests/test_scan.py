"""One look over a site's files serves the nothing-to-do check and the loader: the loader given
the scan finds the files, digests, runs and problems it finds by a walk of its own."""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml

from conftest import config, sweep
from sitegen.build import build
from sitegen.fingerprint import scan_inputs, site_inputs
from sitegen.records import Problems, load_site
from sitegen.records.load import run_files

RUNS = {
    "lab/a.yaml": sweep(),
    "lab/b.json": json.dumps(sweep(gpu="g2")),
    "lab/deep/c.yml": sweep(model="m2"),
    "lab/.hidden.yaml": sweep(gpu="g2"),  # an editor's file: not a record
    "lab/.git/d.yaml": sweep(gpu="g2"),  # a hidden folder: not walked
    "lab/UPPER.YAML": sweep(gpu="g2"),  # told: the extension is lowercase
    "lab/notes.txt": "not a record",
}


def files_found(root: Path, scan=None) -> tuple[list, list]:
    problems = Problems()
    found = run_files(root, {}, problems, scan)
    return [(os.fspath(p), rel, rid) for p, rel, rid in found], sorted(map(repr, problems.items))


def test_the_scan_gives_the_loader_the_files_its_walk_finds(make_site):
    root = make_site(runs=RUNS)
    scan = scan_inputs(root, "x")
    assert scan is not None and scan.plain
    assert scan.digest == site_inputs(root, "x")
    walked = files_found(root)
    assert files_found(root, scan) == walked
    assert [rel for _, rel, _ in walked[0]] == [
        "data/runs/lab/a.yaml",
        "data/runs/lab/b.json",
        "data/runs/lab/deep/c.yml",
    ]
    assert ["data/runs/lab/UPPER.YAML" in p for p in walked[1]] == [True]


def test_a_load_with_the_scan_is_a_load_without(make_site):
    root = make_site(runs=RUNS)
    plain, plain_problems = load_site(root, use_cache=True)
    for _ in range(2):  # the first fills the caches, the second takes every file from them
        scanned, problems = load_site(root, True, None, scan_inputs(root, "x"))
        assert sorted(map(repr, problems.items)) == sorted(map(repr, plain_problems.items))
        assert scanned.runs == plain.runs
        assert scanned.digests == plain.digests
        assert scanned.table.columns.keys() == plain.table.columns.keys()


def test_an_edit_found_by_the_scan_reaches_the_loader(make_site):
    root = make_site(runs=RUNS)
    load_site(root, True, None, scan_inputs(root, "x"))
    record = sweep(configs=[config(8, 64, 1234.5, 100.0)])
    (root / "data/runs/lab/a.yaml").write_text(yaml.safe_dump(record))
    site, _ = load_site(root, True, None, scan_inputs(root, "x"))
    run = next(r for r in site.runs if r.path == "data/runs/lab/a.yaml")
    assert [c.throughput_per_gpu for c in run.configs] == [1234.5]


def test_a_link_makes_the_loader_walk_for_itself(make_site, tmp_path):
    root = make_site(runs=RUNS)
    (root / "data/runs/lab/again").symlink_to(root / "data/runs/lab/deep")
    scan = scan_inputs(root, "x")
    assert scan is not None and not scan.plain
    assert scan.under("data/runs/", lambda n: True, lambda n: False) is None
    assert files_found(root, scan) == files_found(root)


def test_a_build_with_the_scan_equals_one_without_the_cache(make_site, tmp_path):
    root = make_site(runs=RUNS)
    cached = build(root)
    fresh = build(root, tmp_path / "fresh", use_cache=False)
    assert cached.files == fresh.files
    for rel in (p.relative_to(fresh.out_dir) for p in fresh.out_dir.rglob("*") if p.is_file()):
        assert (cached.out_dir / rel).read_bytes() == (fresh.out_dir / rel).read_bytes()


def test_each_run_file_is_named_as_run_id_names_it(make_site):
    """run_files cuts a file's id from its path itself: the same as run_id's."""
    from sitegen.records.load import run_id

    runs = {
        **RUNS,
        "x.y/z.parquet.json": json.dumps(sweep(gpu="g3")),
        "a/b/c/d.yaml": sweep(gpu="g4"),
        "e.yml": sweep(gpu="g5"),
    }
    found, _ = files_found(make_site(runs=runs))
    assert len(found) == 6
    for _, rel, rid in found:
        assert rid == run_id(rel.removeprefix("data/runs/"))
