"""The preview's loads after the first walk data/runs/ only when its watcher names a run file
the last load's listing cannot stand for; a load given the listing is the load without it."""

from __future__ import annotations

import json

import pytest
import yaml

from conftest import sweep
from sitegen.records import load as load_module
from sitegen.records import load_site
from sitegen.records.loadcache import LoadMemo

RUNS = {
    "lab/a.yaml": sweep(),
    "lab/b.json": json.dumps(sweep(gpu="g2")),
    "lab/deep/c.yml": sweep(model="m2"),
    "lab/UPPER.YAML": sweep(gpu="g2"),  # the walk tells of it
}


def _same(a, b):
    (site_a, problems_a), (site_b, problems_b) = a, b
    assert sorted(map(repr, problems_a.items)) == sorted(map(repr, problems_b.items))
    assert site_a.runs == site_b.runs
    assert site_a.digests == site_b.digests


@pytest.fixture
def loaded(make_site):
    root = make_site(runs=RUNS)
    memo = LoadMemo()
    site, problems = load_site(root, True, memo)
    assert site is not None and memo.listing is not None
    return root, memo


def test_a_listed_file_edited_is_read_again_without_a_walk(loaded, monkeypatch):
    root, memo = loaded
    (root / "data/runs/lab/a.yaml").write_text(yaml.safe_dump(sweep(gpu="g2")))

    def no_walk(*args, **kwargs):
        raise AssertionError("walked")

    with monkeypatch.context() as m:
        m.setattr(load_module, "run_files", no_walk)
        fast = load_site(root, True, memo, changed={"data/runs/lab/a.yaml", "content/x.md"})
    assert any(r.gpu == "g2" and r.path.endswith("a.yaml") for r in fast[0].runs)
    _same(fast, load_site(root, True))
    assert any("UPPER.YAML" in p.file for p in fast[1].items)  # the walk's word, kept


@pytest.mark.parametrize(
    "changed",
    [
        {"data/runs/lab/new.yaml"},  # new: not listed
        {"data/runs/lab/a.yaml"},  # removed below
        {"data/runs/lab"},  # a folder
        {"data/runs/v1.2"},  # a folder moved in whole, whose files no event named
        {"data/runs/lab/gone.txt"},  # removed: a file, or a folder of files
        {"data/runs"},
        {"data"},
        {"(files edited during the first build)"},
    ],
)
def test_what_the_listing_cannot_stand_for_is_walked(loaded, changed):
    root, memo = loaded
    (root / "data/runs/lab/new.yaml").write_text(yaml.safe_dump(sweep(gpu="g2")))
    (root / "data/runs/v1.2").mkdir()
    (root / "data/runs/v1.2/d.yaml").write_text(yaml.safe_dump(sweep(gpu="g2", engine="sglang")))
    if "data/runs/lab/a.yaml" in changed:
        (root / "data/runs/lab/a.yaml").unlink()
    assert load_module.listed_changes(root, memo.listing, changed) is None
    _same(load_site(root, True, memo, changed=changed), load_site(root, True))


def test_paths_no_walk_lists_change_nothing(loaded):
    root, memo = loaded
    (root / "data/runs/lab/notes.txt").write_text("not a record")
    changed = {
        "data/runs/lab/.a.yaml.swp",
        "data/runs/.git/x.yaml",
        "data/runs/lab/notes.txt",  # there, of another kind
        "data/models.yaml",
        "content/faq.md",
        "templates/base.html",
        "sitegen.yaml",
    }
    assert load_module.listed_changes(root, memo.listing, changed) == set()


def test_a_load_that_fails_half_way_leaves_no_listing(loaded, monkeypatch):
    root, memo = loaded

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    with monkeypatch.context() as m:
        m.setattr(load_module, "load_runs", boom)
        with pytest.raises(RuntimeError):
            load_site(root, True, memo, changed={"data/runs/lab/a.yaml"})
    assert memo.listing is None
    path = root / "data/runs/lab/b.json"  # changed while nobody listened: a walk finds it
    path.write_text(json.dumps(sweep(gpu="g1", engine="sglang")))
    _same(load_site(root, True, memo, changed={"content/x.md"}), load_site(root, True))
