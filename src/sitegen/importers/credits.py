"""Who publishes the results an importer reads, so that the pages built from them can name
the publisher and link to its site (a record's `source` says only the name)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import inferencex


@dataclass(frozen=True)
class Credit:
    """A record's source as the pages name it: linked where its site is known."""

    name: str  # the records' `source`
    publisher: str | None = None
    url: str | None = None


KNOWN = {
    credit.name: credit
    for credit in (Credit(inferencex.SOURCE, inferencex.PUBLISHER, inferencex.HOMEPAGE),)
}


def credits_for(sources: Iterable[str]) -> list[Credit]:
    """The credits of these sources, sorted by name; a source nobody knows is named only."""
    return [KNOWN.get(name, Credit(name)) for name in sorted(set(sources))]
