"""Who publishes the results sitegen imports, so that the pages built from them can name the
publisher and link to its site (a record's `source` says only the name).

Here, not in importers/: every build's pages read it, and the importers package (eight
readers of other tools' files) is for `sitegen import` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Credit:
    """A record's source as the pages name it: linked where its site is known."""

    name: str  # the records' `source`
    publisher: str | None = None
    url: str | None = None


# the sources an importer writes (importers/inferencex.py names its records' source by it)
INFERENCEX = Credit("InferenceX", "SemiAnalysis", "https://inferencex.semianalysis.com/")

KNOWN = {credit.name: credit for credit in (INFERENCEX,)}
# families of sources (family_of) whose publisher is known, by the family's first words:
# `sitegen import mlperf` names its records "MLPerf Inference v5.1 (<submitter>)"
FAMILIES = (
    ("MLPerf Inference", "MLCommons", "https://mlcommons.org/benchmarks/inference-datacenter/"),
)


def credit_of(name: str) -> Credit:
    """A source's credit: its publisher and site where known (by name, or by its family)."""
    return KNOWN.get(name) or _of_family(name, family_of(name)[0])


def _of_family(name: str, family: str) -> Credit:
    for prefix, publisher, url in FAMILIES:
        if family.startswith(prefix):
            return Credit(name, publisher, url)
    return Credit(name)


def credits_for(sources: Iterable[str]) -> list[Credit]:
    """The credits of these sources, sorted by name; a source nobody knows is named only."""
    return [credit_of(name) for name in sorted(set(sources))]


def grouped_credits(sources: Iterable[str]) -> list[Credit]:
    """The credits of these sources with each family's members together, as a page's "measured
    by" names them: "MLPerf Inference v5.1 (Dell, NVIDIA)" for two submitters of one round."""
    out = []
    for family, members, alone in families(sources):
        if alone:
            out.append(credit_of(family))
        if members:
            out.append(_of_family(f"{family} ({', '.join(members)})", family))
    return out


def family_of(source: str) -> tuple[str, str | None]:
    """A source as its family and its member: "MLPerf Inference v5.1 (NVIDIA)" is the
    submitter NVIDIA of the family "MLPerf Inference v5.1"; "InferenceX" is a family alone."""
    head, bracket, tail = source.rpartition(" (")
    if bracket and head and tail.endswith(")") and len(tail) > 1 and "(" not in tail:
        return head, tail[:-1]
    return source, None


def families(sources: Iterable[str]) -> list[tuple[str, list[str], bool]]:
    """Sources grouped by family, by name: (family, its members sorted, whether the family is
    also a source of its own)."""
    found: dict[str, tuple[list[str], list[bool]]] = {}
    for source in sorted(set(sources)):
        family, member = family_of(source)
        members, alone = found.setdefault(family, ([], []))
        if member is None:
            alone.append(True)
        else:
            members.append(member)
    return [(family, members, bool(alone)) for family, (members, alone) in sorted(found.items())]
