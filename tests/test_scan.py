"""One look over a site's files serves the nothing-to-do check and the loader: the loader given
the scan finds the files, digests, runs and problems it finds by a walk of its own."""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml

from conftest import config, sweep
from sitegen.pipeline.build import build
from sitegen.records import Problems, load_site
from sitegen.records.fingerprint import scan_inputs, site_inputs
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


def test_an_open_scan_leaves_the_run_files_to_the_loader_and_completes_as_a_whole_one(make_site):
    root = make_site(runs=RUNS)
    whole = scan_inputs(root, "x", stat_first=False)
    scan = scan_inputs(root, "x", stat_first=False, open_runs=True)
    assert scan.open and scan.digest is None and not whole.open
    left = {name for name, digest in scan.files.items() if digest is None}
    assert "data/runs/lab/a.yaml" in left and "data/runs/lab/.git/d.yaml" in left
    assert "data/runs/lab/notes.txt" not in left and "data/models.yaml" not in left
    site, _ = load_site(root, True, None, scan)
    # the loader read the records, not the file in the hidden folder: that one is read now
    assert "data/runs/lab/a.yaml" in site.digests
    assert "data/runs/lab/.git/d.yaml" not in site.digests
    done = scan.completed(site.digests, root)
    assert done == whole and done.digest == whole.digest
    assert scan.completed({}, root) == whole  # every left file read at the end
    assert whole.completed({}, root) is whole


def test_an_open_scan_completes_with_the_digests_of_the_bytes_loaded(make_site):
    root = make_site(runs=RUNS)
    scan = scan_inputs(root, "x", open_runs=True)
    site, _ = load_site(root, True, None, scan)
    (root / "data/runs/lab/a.yaml").write_text(yaml.safe_dump(sweep(date="2026-10-02")))
    done = scan.completed(site.digests, root)
    assert done.files["data/runs/lab/a.yaml"] == site.digests["data/runs/lab/a.yaml"]
    assert done.digest != site_inputs(root, "x")  # the next build sees the edit


def test_a_run_file_edited_after_a_first_build_read_it_is_built_again(make_site, monkeypatch):
    """The first build's records hold the digest of the bytes it loaded, not of those on disk
    when it ends: an edit made meanwhile is no 'nothing to do' for the next one."""
    from sitegen.pipeline import stages as outputs

    root = make_site(runs=RUNS)
    read = outputs.load_content
    record = root / "data/runs/lab/a.yaml"

    def edited_then_read(*args, **kwargs):  # right after the load
        record.write_text(yaml.safe_dump(sweep(configs=[config(8, 64, 1234.5, 100.0)])))
        return read(*args, **kwargs)

    monkeypatch.setattr(outputs, "load_content", edited_then_read)
    first = build(root)
    monkeypatch.setattr(outputs, "load_content", read)
    again = build(root)
    assert first.made and again.made  # made again: the inputs changed since the first load
    data = json.loads((root / "public/runs/lab-a/data.json").read_text())
    assert [c["throughput_per_gpu"] for c in data["configs"]] == [1234.5]
    assert build(root).made == ()  # and then nothing to do


def test_a_first_build_with_files_the_loader_passes_by_leaves_nothing_to_do(make_site):
    root = make_site(runs=RUNS)  # a hidden file, a hidden folder, a note beside the records
    assert build(root).made
    assert build(root).made == ()


def test_a_scan_that_meets_a_link_is_whole_even_when_asked_open(make_site):
    root = make_site(runs=RUNS)
    (root / "data/runs/lab/again").symlink_to(root / "data/runs/lab/deep")
    scan = scan_inputs(root, "x", open_runs=True)
    assert not scan.plain and not scan.open
    assert scan == scan_inputs(root, "x")
