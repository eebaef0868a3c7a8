"""Jobs kept from the last build: a page whose inputs did not change is not made again, and
the output is the same as a build from nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from conftest import chart_entries, config, sweep
from sitegen.layout import theme_dir
from sitegen.pipeline.build import build
from sitegen.pipeline.jobcache import JobCache

RUNS = {
    "lab/a.yaml": sweep(),
    "lab/b.yaml": sweep(gpu="g2"),
    "lab/c.yaml": sweep(model="m2", engine="sglang"),
}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def fresh(root: Path, tmp_path: Path) -> dict[str, bytes]:
    """What a build from nothing gives for the site as it is now."""
    out = tmp_path / "fresh"
    shutil.rmtree(out, ignore_errors=True)
    build(root, out, use_cache=False)
    return tree(out)


def test_nothing_changed_makes_no_job(make_site):
    root = make_site(runs=RUNS)
    first = build(root)
    second = build(root)
    assert "overview" in first.made and len(first.made) > 5
    assert second.made == ()


def test_an_edited_run_makes_only_the_jobs_that_show_it(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    record = sweep(gpu="g2", configs=[config(8, 64, 1100.0, 100.0), config(8, 16, 650.0, 25.0)])
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(record))
    result = build(root)
    assert set(result.made) == {
        "overview",
        "changes",
        "pair m1 g2",
        "workloads m1 g2",
        "model-workloads m1",
        "model m1",
        "gpu g2",
        "compare m1 g1 g2",
        "gpu-pair g1 g2",
        "embed m1 g2",
        "run runs/lab-b/",
        # its cards (views/share.py), the feeds that list it (its count of configs changed)
        # and llms.txt's table
        "card m1 g2",
        "card m1",
        "card m1 g1 g2",
        "feed m1",
        "feed",
        "llms.txt",
    }
    assert tree(root / "public") == fresh(root, tmp_path)


def test_an_edited_figure_makes_the_feeds_again_for_their_regressions(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    feeds = {
        name: (root / "public" / name).read_bytes() for name in ("feed.xml", "models/m1/feed.xml")
    }
    record = yaml.safe_load((root / "data/runs/lab/b.yaml").read_text())
    record["configs"][0]["throughput_per_gpu"] += 50  # a figure: the feeds' regressions read it
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(record))
    made = set(build(root).made)
    assert {"pair m1 g2", "run runs/lab-b/", "llms.txt", "changes", "feed", "feed m1"} <= made
    assert "feed m2" not in made
    # one run date per curve: no regression, so the feeds say what they said
    assert {name: (root / "public" / name).read_bytes() for name in feeds} == feeds
    assert tree(root / "public") == fresh(root, tmp_path)


def test_editors_copy_makes_the_pages_that_quote_it(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    faq = root / "content/faq/01-q.md"
    faq.parent.mkdir(parents=True, exist_ok=True)
    faq.write_text("---\nquestion: Why {{ gpu.name }}?\n---\nBecause {{ model.name }}.\n")
    result = build(root)
    assert set(result.made) == {"pair m1 g1", "pair m1 g2", "pair m2 g1"}
    assert tree(root / "public") == fresh(root, tmp_path)
    page = root / "content/methodology.md"
    page.write_text("---\ntitle: How we measure\n---\nCarefully.\n")
    result = build(root)
    assert len(result.made) > 5  # a new page is in every page's navigation
    assert tree(root / "public") == fresh(root, tmp_path)


def test_a_template_edit_makes_the_pages_that_use_it(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    own = root / "templates"
    own.mkdir(exist_ok=True)
    text = (theme_dir() / "run.html").read_text()
    (own / "run.html").write_text(text.replace("</h1>", " (edited)</h1>", 1))
    result = build(root)
    assert set(result.made) == {"run runs/lab-a/", "run runs/lab-b/", "run runs/lab-c/"}
    assert tree(root / "public") == fresh(root, tmp_path)
    base = (theme_dir() / "base.html").read_text()
    (own / "base.html").write_text(base.replace("</footer>", "<p>edited</p></footer>", 1))
    result = build(root)
    assert "404" in result.made and "overview" in result.made  # every page extends base.html
    assert tree(root / "public") == fresh(root, tmp_path)


def test_a_catalog_edit_makes_every_job(make_site, tmp_path):
    root = make_site(runs=RUNS)
    first = build(root)
    gpus = root / "data/gpus.yaml"
    gpus.write_text(gpus.read_text().replace("GPU One", "GPU Uno"))
    result = build(root)
    assert set(result.made) == set(first.made)
    assert tree(root / "public") == fresh(root, tmp_path)


def test_an_output_changed_by_hand_makes_its_job_again(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    page = root / "public/models/m1/g2/index.html"
    page.write_text("defaced")
    result = build(root)
    assert result.made == ("pair m1 g2",)
    assert tree(root / "public") == fresh(root, tmp_path)


def test_a_broken_or_foreign_job_cache_makes_every_job(make_site, tmp_path):
    root = make_site(runs=RUNS)
    first = build(root)
    location = JobCache.location(root)
    location.write_text(location.read_text()[:-40])  # truncated
    assert set(build(root).made) == set(first.made)
    build(root, tmp_path / "elsewhere")  # the records now describe another folder
    assert set(build(root).made) == set(first.made)
    assert tree(root / "public") == fresh(root, tmp_path)


def test_a_removed_run_removes_its_job(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    (root / "data/runs/lab/c.yaml").unlink()
    result = build(root)
    assert "run runs/lab-c/" not in result.made
    assert not (root / "public/runs/lab-c").exists()
    assert tree(root / "public") == fresh(root, tmp_path)


def on_every_core(monkeypatch) -> list[str]:
    """Make even a small site's jobs in worker processes, two jobs a chunk; the phases seen."""
    from sitegen.pipeline import making
    from sitegen.pipeline.progress import Progress

    monkeypatch.setattr(making, "PARALLEL_FROM_JOBS", 1)
    monkeypatch.setattr(making, "CHUNK_JOBS", 2)
    monkeypatch.setattr("sitegen.pipeline.stages.workers_for", lambda jobs: 2)
    phases: list[str] = []

    class Recorder(Progress):
        def phase(self, name: str, total: int = 0) -> None:
            phases.append(name)

    monkeypatch.setattr("sitegen.pipeline.build.Progress", Recorder)
    return phases


def test_making_on_every_core_gives_the_same_output(make_site, tmp_path, monkeypatch):
    root = make_site(runs=RUNS)
    build(root, tmp_path / "here", use_cache=False)
    phases = on_every_core(monkeypatch)
    build(root, tmp_path / "forked", use_cache=False)
    assert "make" in phases and "render" not in phases  # the workers made the pages
    assert tree(tmp_path / "here") == tree(tmp_path / "forked")
    first = build(root)  # with the cache: charts drawn by workers are kept for the next build
    assert len(chart_entries(root / ".sitegen-cache/charts")) >= 3
    assert build(root).made == () and first.made


def test_problems_found_by_workers_are_reported_as_here(make_site, monkeypatch):
    import pytest

    from sitegen.records import SiteError

    root = make_site(runs=RUNS)
    faq = root / "content/faq/01-q.md"
    faq.parent.mkdir(parents=True, exist_ok=True)
    faq.write_text("---\nquestion: Why?\n---\n{{ nothing.here }}\n")
    with pytest.raises(SiteError) as here:
        build(root, use_cache=False)
    on_every_core(monkeypatch)
    with pytest.raises(SiteError) as forked:
        build(root, use_cache=False)
    assert [str(p) for p in forked.value.problems] == [str(p) for p in here.value.problems]
    assert any("01-q.md" in str(p) for p in here.value.problems)


def test_a_build_with_the_inputs_of_the_last_one_loads_nothing(make_site, monkeypatch):
    runs = dict(RUNS)
    runs["lab/d.yaml"] = sweep(model="m2", gpu="g2", configs=[dict(config(8, 4, 900.0, 20.0), x=1)])
    root = make_site(runs=runs)
    first = build(root)
    assert "configs[0].x" in [w.field for w in first.problems.warnings]
    from sitegen.pipeline import stages as build_module

    def no_load(*args, **kwargs):
        raise AssertionError("the site was loaded")

    monkeypatch.setattr(build_module, "load_site", no_load)
    again = build(root)
    assert (again.pages, again.files, again.rewritten) == (first.pages, first.files, ())
    assert [str(w) for w in again.problems.warnings] == [str(w) for w in first.problems.warnings]
    with pytest.raises(AssertionError, match="loaded"):  # other options: a build of its own
        build(root, strict=True)
    (root / "public/index.html").write_text("defaced")  # the output is not as it was left
    with pytest.raises(AssertionError, match="loaded"):
        build(root)


def test_any_input_file_changed_or_added_means_a_build(make_site, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    (root / "data/runs/lab/notes.txt").write_text("not a record, but in data/")
    assert build(root).made == ()  # loaded and planned: every job kept
    shutil.copy(root / "data/runs/lab/a.yaml", root / "data/runs/lab/e.yaml")
    result = build(root)
    assert "run runs/lab-e/" in result.made
    assert tree(root / "public") == fresh(root, tmp_path)


def test_keys_tell_nan_from_none_in_editors_copy():
    """An editor's front matter may hold any float: NaN, None and the infinities each make
    another key."""
    from sitegen.render.content import Copy
    from sitegen.views import Keys

    values = [float("nan"), None, float("inf"), float("-inf"), 1.5]
    assert len({Keys.copy(Copy("a.md", {"x": v}, "")) for v in values}) == len(values)
