"""The records already where an import writes: read as the build reads them, merged with the
import (`merge`), and their conflicts turned into problems that name both files and lines."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..records import Catalogs, Problem, Problems, SiteError, check_run, parquet
from ..records.load import read_document
from ..records.problems import Row, describe
from ..records.yamlpos import Document, field_name
from .merge import Conflict, Merged, Side, merge_records
from .planning import Planned

REFUSED = (
    "cannot merge the import into this record: it has errors of its own (listed); fix them, "
    "remove the file, or name another --out"
)


def merge_into_file(
    item: Planned, rel: str, rid: str, known: Catalogs, problems: Problems
) -> tuple[Planned, Merged]:
    """The planned record merged into the YAML or JSON record at its path, if there is one."""
    doc = None
    if item.path.is_file():
        found = Problems()
        doc = read_document(item.path, rel, found)
        if not found.has_errors:
            check_run(doc.data, doc, rel, rid, known, found)
        if found.has_errors:  # merging into it would carry its errors along, or guess
            problems.extend(found.errors)
            problems.add(Problem(rel, None, "--out", REFUSED))
            doc = None
    merged = merge_records(doc.data if doc else None, item.record)
    problems.extend(conflict_problems(merged.conflicts, item, rel, doc))
    return dataclasses.replace(item, record=merged.record), merged


def merge_into_archive(
    items: list[Planned], existing: list[parquet.ArchiveRecord], rel: str, file_id: str
) -> tuple[list[tuple[str | None, dict]], list[Merged], Problems]:
    """The runs of an archive with the imported records merged in (one run per id), sorted by
    id so that the order of imports does not matter; and the conflicts as problems."""
    problems = Problems()
    runs = {run.id: (run.run, run.data, run.doc) for run in existing}
    results = []
    for item in items:
        rid = f"{file_id}-{item.run or parquet.derived_id(item.record)}"
        name, old, doc = runs.get(rid, (item.run, None, None))
        merged = merge_records(old, item.record)
        problems.extend(conflict_problems(merged.conflicts, item, rel, doc))
        runs[rid] = (name, merged.record, doc)
        results.append(merged)
    ordered = [(name, data) for _, (name, data, _) in sorted(runs.items())]
    return ordered, results, problems


def conflict_problems(
    conflicts: tuple[Conflict, ...], item: Planned, rel: str, doc: Document | None
) -> list[Problem]:
    """One problem per conflict, at the first value's place, naming the second's."""
    out = []
    for c in conflicts:
        (file, line, field), second = (
            _place(c.first, item, rel, doc),
            _place(c.second, item, rel, doc),
        )
        about = f" (config {c.item})" if c.item else ""
        advice = (
            "a measurement is never overwritten: fix or remove one of them"
            if c.item
            else "the record there is of another run: name another --out"
        )
        message = (
            f"conflict{about}: {_shown(c.first_value)} here, {_shown(c.second_value)} in "
            f"{_where(second)}; {advice}"
        )
        out.append(Problem(file, line, field, message))
    return out


def _shown(value: object) -> str:
    """A value as the record writes it: 20 for 20.0 (an archive stores floats), every digit
    otherwise, so that two values that differ never look the same."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return describe(value)


def _place(side: Side, item: Planned, rel: str, doc: Document | None) -> tuple:
    """(file, line, field) of one side: the record already there, or a result file."""
    if side.existing and doc is not None:
        return rel, doc.line(side.path), doc.field_name(side.path)
    path = side.path
    if len(path) > 1 and isinstance(path[1], int) and path[1] < len(item.origins):
        file, line = item.origins[path[1]]
        return file, line, field_name(path[2:])  # the field of the config, as imported
    return ", ".join(Path(f).name for f in item.files), None, field_name(path)


def _where(place: tuple) -> str:
    file, line, _ = place
    if line is None:
        return file
    return f"{file}: row {line}" if isinstance(line, Row) else f"{file}:{line}"


def refuse_broken_archive(found: Problems, rel: str) -> None:
    """An archive with problems of its own is not rewritten: that would drop its unknown
    columns, or carry its errors along."""
    message = (
        "cannot add the imported runs to this archive: it has problems of its own "
        "(listed); fix them, or name another --out"
    )
    raise SiteError([*found.sorted(), Problem(rel, None, "--out", message)])
