"""Making jobs on every core: the results in plan order, as if made here; a job said to read no
summaries reads none."""

from __future__ import annotations

import multiprocessing
from types import SimpleNamespace

import pytest

from conftest import sweep
from sitegen.calc.summaries import Summaries
from sitegen.charts import ChartCache
from sitegen.pipeline import making
from sitegen.pipeline.making import Made, Maker
from sitegen.pipeline.progress import Progress
from sitegen.records import load_site
from sitegen.render.content import Content
from sitegen.render.environment import environment
from sitegen.views import Job, Keys, Sources, plan_jobs

FORK = "fork" in multiprocessing.get_all_start_methods()


def _jobs(free: range, total: int) -> list[Job]:
    return [
        Job(f"job {i}", "", lambda _: ([], []), reads_summaries=i not in free) for i in range(total)
    ]


class _Charts:
    def flush(self) -> None:
        pass


class _Maker:
    """Makes a job's name its one file; counts its warming (the summaries, the templates)."""

    charts = _Charts()

    def __init__(self) -> None:
        self.warmed = 0
        self.env = SimpleNamespace(auto_reload=True)  # a Jinja environment's

    def warm(self) -> None:
        self.warmed += 1

    def make(self, jobs, progress=None) -> Made:
        """Each job's file: whether Jinja would look for an edited template as it renders."""
        return Made(files={job.name: self.env.auto_reload for job in jobs})


@pytest.mark.skipif(not FORK, reason="workers are forked")
@pytest.mark.parametrize("free", [range(0), range(3, 40), range(100)])
def test_every_core_makes_the_jobs_in_plan_order(free, monkeypatch):
    monkeypatch.setattr(making, "CHUNK_JOBS", 4)
    jobs = _jobs(free, 100)
    maker = _Maker()
    made = making.make_all(maker, jobs, Progress(), workers=2)  # type: ignore[arg-type]
    assert list(made.files) == [job.name for job in jobs]  # every job once, in plan order


def test_the_jobs_said_to_read_no_summaries_read_none(make_site):
    """A run's report, made without its site's summaries: were it to read them, workers forked
    before they are made would make them again, each for itself."""
    root = make_site(runs={"lab/a.yaml": sweep(), "lab/b.yaml": sweep(gpu="g2")})
    site, _ = load_site(root)
    summaries = Summaries(site)

    def unread(*args):
        raise AssertionError("a job that reads no summaries read them")

    summaries.get = summaries.briefs = summaries.everything = unread  # type: ignore[method-assign]
    src = Sources(site, summaries, Content())
    env = environment(root)
    free = [job for job in plan_jobs(src, Keys(src, env, [])) if not job.reads_summaries]
    assert [job.name.split()[0] for job in free] == ["run", "run"]
    made = Maker(src, env, {"site": site.config, "nav_pages": []}, root, ChartCache(None)).make(
        free
    )
    assert any(rel.endswith("index.html") for rel in made.files) and not made.failed
