"""The preview's plans, each from the last: only the jobs that read a changed run file are
keyed and listed again.

A plan is a function of the loaded site, its copy, its templates and the code. When a
rebuild's load read only some run files again (records.load.listed_changes) and all else a
plan reads stands as it did (the keys' shared part: code, catalogs, sitegen.yaml and the
navigation; the templates the keys were made with; the editors' copy; which runs there are,
in which order, of which pairs), the jobs are the last plan's, in its order, and a job whose
key read none of those files, nor their pairs, nor their models' feed facts (Keys.reads) is
the last plan's job itself. Every other job is listed and keyed as a whole plan would.
tests/test_replan.py checks the plan so made against one made whole, after edits of every
kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cache import keys as keyhash
from . import Job, Keys, Sources, none_kept
from .keys import KeysFound

Kept = Callable[[str], Job | None]


@dataclass(frozen=True)
class LastPlan:
    """A plan's jobs, by name, and what they stand on."""

    basis: tuple
    jobs: dict[str, Job]
    keys: KeysFound  # what its keys found (of the site's data only: no sources are kept)


def basis(src: Sources, keys: Keys, templates: set[str]) -> tuple:
    """What every job of a plan stands on, beside the runs' bytes."""
    content = src.content
    copies = [
        *content.faq,
        *content.models.values(),
        *content.gpus.values(),
        *content.pairs.values(),
        *content.runs.values(),
        *content.pages.values(),
    ]
    return (
        keys.shared,
        sorted((name, keys.template(name)) for name in templates),
        keyhash.of([keys.copy(c) for c in copies]),
        [(run.id, run.path, run.model, run.gpu) for run in src.site.runs],
    )


def kept_jobs(
    last: LastPlan | None, src: Sources, keys: Keys, changed: set[str] | None
) -> tuple[Kept, tuple | None]:
    """`kept(name)`: the last plan's job of that name, where its key read none of the
    `changed` run files nor their pairs and the plan's basis stands, else None (always None
    where `changed` is None: not known which runs changed); and the basis, where it stood."""
    if last is None or changed is None or basis(src, keys, last.keys.used) != last.basis:
        return none_kept, None
    stale: set = set(changed)
    for run in src.site.runs:
        if run.path in changed:
            stale.update(((run.model, run.gpu), ("facts", run.model)))
    keys.carry(last.keys, stale)
    jobs, reads = last.jobs, last.keys.reads

    def kept(name: str) -> Job | None:
        job = jobs.get(name)
        if job is None:
            return None
        read = reads[job.key]
        if not read.isdisjoint(stale):
            return None
        keys.reads[job.key] = read
        return job

    return kept, last.basis


def last_plan(src: Sources, keys: Keys, jobs: list[Job], stood: tuple | None) -> LastPlan:
    """The plan for the next one to start from; `stood`: its basis, where kept_jobs found it."""
    found = stood if stood is not None else basis(src, keys, keys.used)
    return LastPlan(found, {job.name: job for job in jobs}, keys.found())


__all__ = ["LastPlan", "kept_jobs", "last_plan"]
