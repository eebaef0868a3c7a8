"""The preview's plan made from the last one (views.replan) is the plan made whole: the same
jobs, in the same order, with the same keys, after an edit of any kind; and its pages are the
pages of a build made from nothing."""

from __future__ import annotations

import gc
import json

import pytest
import yaml

from conftest import MODELS, config, sweep
from sitegen.calc.briefs import BriefMemo
from sitegen.calc.summaries import Summaries
from sitegen.pipeline import stages as outputs
from sitegen.pipeline.search import InMemory
from sitegen.pipeline.stages import Memo, Reuse, render_outputs, render_site
from sitegen.records import Problems, Site, SiteError, load_site
from sitegen.records.parquet import archive_bytes
from sitegen.render.content import load_content
from sitegen.render.environment import environment
from sitegen.serve.rebuild import Rebuilder
from sitegen.serve.state import SiteState
from sitegen.views import Keys, Sources, plan_jobs

RUNS = {
    "lab/a.yaml": sweep(),
    "lab/a-old.yaml": sweep(date="2026-08-01"),
    "lab/b.json": json.dumps(sweep(gpu="g2")),
    "lab/c.yaml": sweep(model="m2"),
    "lab/d.json": json.dumps(sweep(model="m2", gpu="g2", engine="sglang")),
}


def whole_plan(root):
    """(name, key, reads_summaries) of every job, planned from nothing."""
    site, problems = load_site(root, True)
    assert site is not None
    content = load_content(root, site.models, site.gpus, Problems(), {r.id for r in site.runs})
    src = Sources(site, Summaries(site), content)
    jobs = plan_jobs(src, Keys(src, environment(root), sorted(content.pages)))
    return [(j.name, j.key, j.reads_summaries) for j in jobs]


def planned(memo):
    return [(j.name, j.key, j.reads_summaries) for j in memo.plan.jobs.values()]


def render(root, memo, changed=None):
    rendered = render_outputs(root, memo=memo, changed=changed)
    assert memo.plan is not None
    return rendered


@pytest.fixture
def site(make_site):
    root = make_site(runs=RUNS, content={"models/m1.md": "About model one.\n"})
    memo = Memo()
    render(root, memo)
    assert planned(memo) == whole_plan(root)
    return root, memo


def rewrite(root, rel, record):
    path = root / "data/runs" / rel
    if rel.endswith(".json"):
        path.write_text(json.dumps(record), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(record, sort_keys=False), encoding="utf-8")
    return f"data/runs/{rel}"


def kept_jobs(before, memo):
    return {name for name, job in memo.plan.jobs.items() if before.get(name) is job}


def test_a_figure_edited_keys_again_only_the_jobs_that_read_its_file(site):
    root, memo = site
    before = dict(memo.plan.jobs)
    configs = [config(8, 64, 1111.0, 100.0), config(8, 16, 600.0, 25.0)]
    changed = rewrite(root, "lab/b.json", sweep(gpu="g2", configs=configs))
    render(root, memo, {changed})
    assert planned(memo) == whole_plan(root)
    kept = kept_jobs(before, memo)
    # the other pairs' pages, cards and runs stand; what shows m1 on g2 was keyed again
    assert {"pair m1 g1", "pair m2 g1", "run runs/lab-a/", "card m2 g2", "feed m2"} <= kept
    again = set(before) - kept
    assert {"overview", "pair m1 g2", "model m1", "gpu g2", "compare m1 g1 g2"} <= again
    assert {"card m1 g2", "run runs/lab-b/", "feed m1", "feed", "llms.txt"} <= again
    assert before["pair m1 g2"].key != memo.plan.jobs["pair m1 g2"].key


@pytest.mark.parametrize(
    "edit",
    [
        "source",  # what a feed says of the run
        "date",  # the runs' order
        "gpu",  # which pairs there are
        "model",
        "content",  # editors' copy
        "template",
        "config",
        "catalog",
    ],
)
def test_every_other_edit_plans_as_a_whole_plan_does(site, edit):
    root, memo = site
    before = dict(memo.plan.jobs)
    changed = {"data/runs/lab/c.yaml"}
    if edit == "source":
        rewrite(root, "lab/c.yaml", sweep(model="m2", source="Another lab"))
    elif edit == "date":
        rewrite(root, "lab/c.yaml", sweep(model="m2", date="2026-10-02"))
    elif edit in ("gpu", "model"):
        rewrite(root, "lab/c.yaml", sweep(model="m1" if edit == "model" else "m2", gpu="g2"))
    elif edit == "content":
        (root / "content/models/m1.md").write_text("About model one, again.\n")
        changed.add("content/models/m1.md")
    elif edit == "template":
        (root / "templates").mkdir()
        (root / "templates/pair.html").write_text(
            '{% extends "base.html" %}{% block main %}A pair.{% endblock %}'
        )
        changed.add("templates/pair.html")
    elif edit == "config":
        text = (root / "sitegen.yaml").read_text()
        (root / "sitegen.yaml").write_text(text.replace("Test Leaderboard", "Another Board"))
        changed.add("sitegen.yaml")
    else:
        models = {**MODELS, "m2": {"name": "Model Two, renamed"}}
        (root / "data/models.yaml").write_text(yaml.safe_dump(models))
        changed.add("data/models.yaml")
    render(root, memo, changed)
    assert planned(memo) == whole_plan(root)
    if edit == "source":  # what shows m2 on g1 and the feeds of its runs: the rest stands
        assert {"pair m1 g1", "feed m1"} <= kept_jobs(before, memo)
        assert not {"feed", "feed m2", "run runs/lab-c/"} & kept_jobs(before, memo)
    else:
        assert kept_jobs(before, memo) == set()


def test_a_build_that_fails_after_loading_leaves_no_plan_to_start_from(site):
    """Its load read the edited run file (the next load's listing starts from it): a plan kept
    from before it would keep the jobs that show that file as they were."""
    root, memo = site
    configs = [config(8, 64, 1234.0, 100.0), config(8, 16, 600.0, 25.0)]
    changed = rewrite(root, "lab/a.yaml", sweep(configs=configs))
    (root / "templates").mkdir()
    (root / "templates/pair.html").symlink_to("/etc/hostname")  # leaves the site: refused
    with pytest.raises(SiteError, match="1 error"):
        render_outputs(root, memo=memo, changed={changed, "templates/pair.html"})
    assert memo.plan is None
    (root / "templates/pair.html").unlink()
    render(root, memo, {"templates/pair.html"})
    assert planned(memo) == whole_plan(root)


def test_the_previews_pages_after_edits_are_a_fresh_builds(site):
    root, memo = site
    rebuilder = Rebuilder(root, SiteState())
    rebuilder.build_now()
    for throughput in (900.0, 1300.0):
        configs = [config(8, 64, throughput, 100.0), config(8, 16, 600.0, 25.0)]
        changed = rewrite(root, "lab/a.yaml", sweep(configs=configs))
        files = rebuilder.build_now({changed}).snapshot.files
        fresh, _ = render_site(root, use_cache=False)
        assert {rel: files[rel] for rel in fresh} == fresh
        assert f"{throughput:,.0f}".encode() in files["models/m1/g1/index.html"]


def test_the_reuse_of_a_replanned_build_keeps_what_did_not_change(site):
    root, memo = site
    first = render(root, Memo())
    reuse = Reuse(first.jobs, first.files.__contains__)
    render(root, memo)  # the plan of the state `first` was made in
    changed = rewrite(root, "lab/d.json", sweep(model="m2", gpu="g2", engine="sglang", source="B"))
    # the pages kept are `first`'s (for the search index)
    pages = InMemory(first.files)
    again = render_outputs(root, memo=memo, changed={changed}, reuse=reuse, outputs=pages)
    assert "pair m1 g1" not in again.made and "run runs/lab-d/" in again.made


def test_what_is_made_of_a_brief_is_kept_while_the_brief_is_its_pairs():
    memo = BriefMemo()
    made = []

    def make(brief):
        made.append(brief)
        return len(made)

    one, two = object(), object()
    memo.start("catalogs")
    assert (memo.get("k", one, make), memo.get("k", two, make)) == (1, 2)
    memo.start("catalogs")
    assert memo.get("k", one, make) == 1  # kept: not made again
    memo.start("catalogs")  # `two` was not asked for by the last build: let go
    assert memo.get("k", one, make) == 1 and memo.get("k", two, make) == 3
    memo.start("other catalogs")
    assert memo.get("k", one, make) == 4 and made == [one, two, two, one]


def test_the_previews_overview_keeps_the_rows_of_the_pairs_not_edited(site):
    root, memo = site
    texts = dict(memo.brief_texts._now)
    changed = rewrite(root, "lab/c.yaml", sweep(model="m2", configs=[config(8, 64, 777.0, 50.0)]))
    render(root, memo, {changed})
    now = memo.brief_texts._now
    kept = [key for key in now if key in texts and now[key][1] is texts[key][1]]
    pairs = {(brief.model, brief.gpu) for brief, _ in (now[key] for key in kept)}
    assert ("m1", "g1") in pairs and ("m2", "g1") not in pairs


def test_a_first_build_on_every_core_leaves_the_overviews_rows_to_the_next(make_site, monkeypatch):
    monkeypatch.setattr(outputs, "workers_for", lambda jobs: 2)
    root = make_site(runs=RUNS)
    memo = Memo()
    render_outputs(root, memo=memo, parallel=True)  # the overview made by a worker
    kinds = {kind for kind, _ in memo.brief_texts._now}
    assert kinds == {"overview", "llms"}
    briefs = {id(b) for b, _ in memo.brief_texts._now.values()}
    assert len(briefs) == len(RUNS) - 1  # a brief per pair and workload: a-old is a's history


def test_the_kept_plan_keeps_no_loaded_site_alive(site):
    """The preview would hold two sites where it holds one: the last plan's jobs and keys
    keep names and digests, never the sources they were made from."""
    root, memo = site
    changed = rewrite(root, "lab/a.yaml", sweep(configs=[config(8, 64, 999.0, 100.0)]))
    render(root, memo, {changed})
    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, (Site, Sources))]
    assert [o for o in alive if (o.site if isinstance(o, Sources) else o).root == str(root)] == []


def test_an_archive_edited_keys_again_the_jobs_of_its_runs(make_site):
    """A Parquet archive holds many runs under one path: its runs' jobs read that file."""
    root = make_site(runs=RUNS)

    def write(throughput: float) -> str:
        configs = [config(8, 64, throughput, 100.0), config(8, 16, 600.0, 25.0)]
        records = [(None, sweep(gpu="g2", date="2026-09-01", configs=configs))]
        (root / "data/runs/lab/e.parquet").write_bytes(archive_bytes(records, "e", Problems()))
        return "data/runs/lab/e.parquet"

    write(1500.0)
    memo = Memo()
    render(root, memo)
    before = dict(memo.plan.jobs)
    render(root, memo, {write(1700.0)})
    assert planned(memo) == whole_plan(root)
    kept = kept_jobs(before, memo)
    assert "pair m1 g1" in kept and "pair m1 g2" not in kept
