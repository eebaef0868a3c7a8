"""Incremental builds: only files whose bytes changed are written; the output is the same
with the cache, without it, and with a cache that is broken."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import config, sweep
from sitegen.cache.manifest import Manifest
from sitegen.layout import theme_dir
from sitegen.output import paths as output_paths
from sitegen.output.staging import MARKER
from sitegen.pipeline.build import build
from sitegen.records import SiteError


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def stamps(root: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime) of every file: a file written anew gets a new inode."""
    out = {}
    for p in root.rglob("*"):
        if p.is_file():
            stat = p.stat()
            out[p.relative_to(root).as_posix()] = (stat.st_ino, stat.st_mtime_ns)
    return out


RUNS = {
    "lab/a.yaml": sweep(),
    "lab/b.yaml": sweep(gpu="g2"),
    "lab/c.yaml": sweep(model="m2", engine="sglang"),
}


def test_a_rebuild_with_nothing_changed_writes_nothing(make_site):
    root = make_site(runs=RUNS)
    first = build(root)
    before = stamps(root / "public")
    second = build(root)
    assert len(first.rewritten) == first.files
    assert second.rewritten == ()
    assert stamps(root / "public") == before


def test_an_edited_run_rewrites_only_the_files_that_show_it(make_site):
    root = make_site(runs=RUNS)
    build(root)
    before = tree(root / "public")
    stamp = stamps(root / "public")
    record = sweep(gpu="g2", configs=[config(8, 64, 1100.0, 100.0), config(8, 16, 650.0, 25.0)])
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(record))
    result = build(root)
    after = tree(root / "public")
    changed = {rel for rel in after if before.get(rel) != after[rel]}
    assert set(result.rewritten) == changed
    assert "runs/lab-b/index.html" in changed and "models/m1/g2/data.json" in changed
    assert "runs/lab-a/index.html" not in changed and "models/m2/g1/index.html" not in changed
    now = stamps(root / "public")
    # every file left as it was, but the output's marker, which each commit moves in first
    assert all(now[rel] == stamp[rel] for rel in after if rel not in changed | {MARKER})


def test_an_edited_run_makes_only_the_jobs_that_read_it(make_site, tmp_path):
    """The last build's index of what each job read names the jobs an edit feeds; the others
    are kept without being made, and the output is a whole build's, byte for byte."""
    root = make_site(runs=RUNS)
    build(root)
    record = sweep(gpu="g2", configs=[config(8, 64, 1100.0, 100.0), config(8, 16, 650.0, 25.0)])
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(record))
    made = set(build(root).made)
    assert {"run runs/lab-b/", "pair m1 g2", "model m1", "gpu g2", "overview"} <= made
    assert not made & {"run runs/lab-a/", "run runs/lab-c/", "pair m1 g1", "pair m2 g1", "model m2"}
    whole = build(root, tmp_path / "whole", use_cache=False)
    assert tree(root / "public") == tree(whole.out_dir)
    # and again: the index written by the build that used it serves the next edit
    record["configs"][0]["throughput_per_gpu"] = 1200.0
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(record))
    again = set(build(root).made)
    assert "pair m1 g2" in again and "pair m2 g1" not in again
    assert tree(root / "public") == tree(build(root, tmp_path / "w2", use_cache=False).out_dir)


def test_a_removed_run_removes_its_pages(make_site):
    root = make_site(runs=RUNS)
    build(root)
    assert (root / "public/runs/lab-c/index.html").is_file()
    (root / "data/runs/lab/c.yaml").unlink()
    build(root)
    assert not (root / "public/runs/lab-c").exists()
    assert not (root / "public/models/m2").exists()


def test_a_template_edit_rewrites_the_pages_that_use_it(make_site):
    root = make_site(runs=RUNS)
    build(root)
    stamp = stamps(root / "public")
    (root / "templates").mkdir()
    theme = (theme_dir() / "run.html").read_text()
    (root / "templates/run.html").write_text(
        theme.replace("{% block main %}", "{% block main %}<!-- x -->", 1)
    )
    result = build(root)
    assert {r for r in result.rewritten if r.endswith(".html")} == {
        f"runs/lab-{x}/index.html" for x in "abc"
    }
    assert stamps(root / "public")["models/m1/g1/index.html"] == stamp["models/m1/g1/index.html"]


def test_output_is_the_same_with_the_cache_without_it_and_with_a_broken_one(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    build(root)  # from the cache
    cached = tree(root / "public")
    build(root, tmp_path / "fresh", use_cache=False)
    assert tree(tmp_path / "fresh") == cached
    manifest = Manifest.location(root)
    for broken in (manifest.read_bytes()[:-40], b"\xff\xfe garbage", b""):
        manifest.write_bytes(broken)
        assert Manifest.read(root, root / "public").entries == {}
        result = build(root)
        assert len(result.rewritten) == result.files  # nothing trusted: all written again
        assert tree(root / "public") == cached


def test_a_file_changed_by_hand_in_the_output_is_written_again(make_site):
    root = make_site(runs=RUNS)
    build(root)
    page = root / "public/runs/lab-a/index.html"
    good = page.read_bytes()
    os.unlink(page)
    page.write_bytes(b"defaced")
    result = build(root)
    assert result.rewritten == ("runs/lab-a/index.html",)
    assert page.read_bytes() == good


def test_the_manifest_of_another_output_folder_is_not_used(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    shutil.copytree(root / "public", tmp_path / "elsewhere")
    result = build(root, tmp_path / "elsewhere")
    assert len(result.rewritten) == result.files


def test_a_hundred_thousand_warnings_are_all_reported(make_site):
    """Problems are kept in O(1) each: a site with 100,000 warnings reports every one."""
    import json

    from sitegen.records import load_site

    extra = {f"note{k}": "x" for k in range(5)}  # five unknown fields on each of 20,000
    configs = [dict(config(8, n + 1, 100.0 + n, 20.0), **extra) for n in range(20_000)]
    root = make_site(runs={"lab/big.json": json.dumps(sweep(configs=configs))})
    site, problems = load_site(root)
    assert site is not None
    warnings = problems.warnings
    assert len(warnings) == 100_000
    expected = {f"configs[{n}].note{k}" for n in range(20_000) for k in range(5)}
    assert {w.field for w in warnings} == expected
    assert warnings[-1].line is not None  # a file with a problem is read again for its lines


# -- committed in place or swapped whole ---------------------------------------------------------


def test_a_rebuild_moves_new_files_into_the_same_folder(make_site):
    root = make_site(runs=RUNS)
    build(root)
    folder = (root / "public").stat().st_ino
    edited = sweep(gpu="g2", configs=[config(8, 64, 1500.0, 100.0)])
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(edited))
    result = build(root)
    assert result.rewritten and (root / "public").stat().st_ino == folder  # not swapped
    assert tree(root / "public") == tree(build_elsewhere(root))
    assert [p.name for p in root.parent.iterdir() if p.name.startswith(".public.new-")] == []


def test_a_link_planted_in_the_output_is_never_followed(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    outside = tmp_path / "outside"
    shutil.copytree(root / "public/runs", outside)
    before = tree(outside)
    shutil.rmtree(root / "public/runs")
    (root / "public/runs").symlink_to(outside)  # someone with access to public/ did this
    edited = sweep(configs=[config(8, 64, 1500.0, 100.0)])
    (root / "data/runs/lab/a.yaml").write_text(yaml.safe_dump(edited))
    (root / "data/runs/lab/c.yaml").unlink()  # its report is removed: not through the link
    build(root)
    assert tree(outside) == before
    assert not (root / "public/runs").is_symlink()  # the tree was replaced whole
    assert tree(root / "public") == tree(build_elsewhere(root))


def build_elsewhere(root: Path) -> Path:
    """The same site built from nothing, without the cache, into a folder of its own."""
    out = root.parent / "from-nothing"
    shutil.rmtree(out, ignore_errors=True)
    build(root, out, use_cache=False)
    return out


def test_output_paths_are_checked_again_only_when_they_change(make_site, monkeypatch):
    root = make_site(runs=RUNS)
    build(root)
    calls = []
    real = output_paths.path_problems
    monkeypatch.setattr(output_paths, "path_problems", lambda *a: calls.append(1) or real(*a))
    record = sweep(gpu="g2", configs=[config(8, 64, 1100.0, 100.0), config(8, 16, 650.0, 25.0)])
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(record))
    build(root)  # other figures, the same output paths: they passed last time
    assert calls == []
    (root / "data/runs/lab/c.yaml").write_text(yaml.safe_dump(sweep(gpu="g2")))
    build(root)  # a new run report: the paths are checked again
    assert calls == [1]


def test_a_path_that_collides_after_a_good_build_is_still_refused(make_site):
    gpus = {slug: {"name": slug.upper()} for slug in ("a", "b-vs-c", "a-vs-b")}
    runs = {f"lab/{slug}.yaml": sweep(gpu=slug) for slug in gpus}
    root = make_site(
        runs=runs,
        gpus=gpus,
        pricing={
            "source": "T",
            "as_of": "2026-07",
            "tiers": {"owning": {"label": "O"}},
            "prices": {},
        },
    )
    build(root)
    (root / "data/gpus.yaml").write_text(
        yaml.safe_dump({**gpus, "c": {"name": "C"}}, sort_keys=False)
    )
    (root / "data/runs/lab/c.yaml").write_text(yaml.safe_dump(sweep(gpu="c")))
    with pytest.raises(SiteError) as refused:
        build(root)
    assert any("is the path of both" in p.message for p in refused.value.problems)


def test_without_the_job_records_unchanged_files_are_still_not_written(make_site):
    """The output manifest alone says which files are as their bytes would be: a build whose
    job records are gone makes every page again, but writes none that did not change."""
    root = make_site(runs=RUNS)
    build(root)
    before = stamps(root / "public")
    (root / ".sitegen-cache" / "jobs.json").unlink()
    result = build(root)
    assert len(result.made) > 0 and result.rewritten == ()
    assert stamps(root / "public") == {**before, MARKER: stamps(root / "public")[MARKER]}
