"""Plans made from the last one: only the jobs that read a changed run file are keyed and
listed again.

Each job's key records what it read (Keys.reads: run files, pairs, models' feed facts); the
last plan keeps that index, in memory for the preview and in the job records beside the site
for `sitegen build`.

A plan is a function of the loaded site, its copy, its templates and the code. When a
rebuild's load read only some run files again (records.load.listed_changes) and all else a
plan reads stands as it did (the keys' shared part: code, catalogs, sitegen.yaml and the
navigation; the templates the keys were made with; the editors' copy; which runs there are,
in which order, of which pairs), the jobs are the last plan's, and a job whose
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
from .keys import KeysFound, facts_read, pair_read

Kept = Callable[[str], Job | None]


@dataclass(frozen=True)
class LastPlan:
    """A plan's jobs, by name, and what they stand on."""

    basis: str
    jobs: dict[str, Job]
    keys: KeysFound  # what its keys found (of the site's data only: no sources are kept)

    def to_json(self) -> dict:
        """The plan as the job records keep it: what each job read, by job name."""
        pairs, facts, used, reads = self.keys
        return {
            "basis": self.basis,
            "pairs": [[model, gpu, digest] for (model, gpu), digest in pairs.items()],
            "facts": facts,
            "used": sorted(used),
            "reads": {name: list(reads[job.key]) for name, job in self.jobs.items()},
        }

    @classmethod
    def from_json(cls, value: dict, keys_of: dict[str, str]) -> LastPlan:
        """The plan `to_json` wrote, for the jobs of `keys_of` (job name -> its key): those
        can be kept by the next plan, never made from here. Raises on a value of another
        shape (ValueError, KeyError, TypeError)."""
        reads = {}
        jobs = {}
        for name, items in value["reads"].items():
            key = keys_of.get(name)
            if key is not None:
                jobs[name] = Job(name, key, _kept_only)
                reads[key] = items  # strings: run files, Keys.pair_read, Keys.facts_read
        pairs = {(model, gpu): digest for model, gpu, digest in value["pairs"]}
        found = KeysFound(pairs, dict(value["facts"]), set(value["used"]), reads)
        if not isinstance(value["basis"], str):
            raise TypeError("basis")
        return cls(value["basis"], jobs, found)


def _kept_only(src: Sources) -> None:
    raise AssertionError("a job of the last build's records is kept, never made again")


def basis(src: Sources, keys: Keys, templates: set[str]) -> str:
    """The digest of what every job of a plan stands on, beside the runs' bytes."""
    content = src.content
    copies = [
        *content.faq,
        *content.models.values(),
        *content.gpus.values(),
        *content.pairs.values(),
        *content.runs.values(),
        *content.pages.values(),
    ]
    return keyhash.of(
        keys.shared,
        sorted((name, keys.template(name)) for name in templates),
        [keys.copy(c) for c in copies],
        [(run.id, run.path, run.model, run.gpu) for run in src.site.runs],
    )


def kept_jobs(
    last: LastPlan | None, src: Sources, keys: Keys, changed: set[str] | None
) -> tuple[Kept, str | None]:
    """`kept(name)`: the last plan's job of that name, where its key read none of the
    `changed` run files nor their pairs and the plan's basis stands, else None (always None
    where `changed` is None: not known which runs changed); and the basis, where it stood."""
    if last is None or changed is None or basis(src, keys, last.keys.used) != last.basis:
        return none_kept, None
    stale: set = set(changed)
    for run in src.site.runs:
        if run.path in changed:
            stale.update((pair_read(run.model, run.gpu), facts_read(run.model)))
    keys.carry(last.keys, stale)
    jobs, reads = last.jobs, last.keys.reads

    def kept(name: str) -> Job | None:
        job = jobs.get(name)
        if job is None:
            return None
        read = reads[job.key]
        if not stale.isdisjoint(read):
            return None
        keys.reads[job.key] = read
        return job

    return kept, last.basis


def last_plan(src: Sources, keys: Keys, jobs: list[Job], stood: str | None) -> LastPlan:
    """The plan for the next one to start from; `stood`: its basis, where kept_jobs found it."""
    found = stood if stood is not None else basis(src, keys, keys.used)
    return LastPlan(found, {job.name: job for job in jobs}, keys.found())


__all__ = ["LastPlan", "kept_jobs", "last_plan"]
