"""Records -> YAML a person can read (or JSON, or a Parquet archive), checked exactly as a
build checks them, then written.

Configs are written flow-style, one per line. Nothing is written unless every record passes
`records.check_run` against the site's catalogs, read back as the build will read it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..layout import SiteLayout
from ..records import Problem, Problems, check_run, parquet, run_id
from ..records.load import archive_runs
from ..records.yamlpos import parse
from .common import SiteError
from .planning import ARCHIVE, Planned

PLAIN = re.compile(r"\A[A-Za-z][A-Za-z0-9 ._/+()-]*\Z")
FLOW_LISTS = ("configs", "decode", "prefill", "canonical")
WIDTH = 100


def scalar(value: Any, flow: bool) -> str:
    """One YAML scalar; strings quoted whenever YAML could read them as something else."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text and "." not in text:  # YAML 1.1 reads 1e-05 as a string
            mantissa, exponent = text.split("e")
            text = f"{mantissa}.0e{exponent}"
        return text
    value = str(value)
    plain = PLAIN.match(value) and not value.endswith(" ") and ": " not in value
    if plain and flow and any(c in value for c in ",[]{}#"):
        plain = False
    if plain and yaml.safe_load(value) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value, flow=True)


def _folded(key: str, value: str) -> list[str]:
    """A long string as a folded block, wrapped at WIDTH."""
    words, lines, line = value.split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > WIDTH - 2:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return [f"{key}: >-"] + [f"  {text}" for text in lines]


def render(record: dict[str, Any], header: str) -> str:
    """The record as YAML; asserts that reading it back gives the same record."""
    out = [f"# {line}" for line in header.splitlines()]
    for key, value in record.items():
        if key in FLOW_LISTS and isinstance(value, list):
            out.append(f"{key}:")
            out.extend(f"  - {flow(item)}" for item in value)
        elif isinstance(value, dict | list):
            out.append(f"{key}: {flow(value)}")
        elif isinstance(value, str) and len(key) + len(value) > WIDTH - 4 and "  " not in value:
            out.extend(_folded(key, value))
        else:
            out.append(f"{key}: {scalar(value, flow=False)}")
    text = "\n".join(out) + "\n"
    if yaml.safe_load(text) != record:  # a bug here would write a different record
        raise AssertionError("the YAML written does not read back as the record")
    return text


def render_json(record: dict[str, Any]) -> str:
    """The record as JSON, for an --out that names a .json file (JSON has no comments)."""
    return json.dumps(record, indent=2, ensure_ascii=False, default=_iso) + "\n"


def _iso(value: Any) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def text_of(item: Planned) -> str:
    """What is written at the record's path: JSON for a .json file, else readable YAML."""
    if item.path.suffix == ".json":
        return render_json(item.record)
    return render(item.record, header(item))


def _rel(path: Path, site_root: Path) -> tuple[str, str]:
    """(path for messages, run id) of a record file, as a build would name them."""
    try:
        rel = path.resolve().relative_to(site_root.resolve())
    except ValueError:
        return str(path), run_id(path.name)
    runs = SiteLayout(Path()).runs
    rid = (
        run_id(rel.relative_to(runs).as_posix()) if rel.is_relative_to(runs) else run_id(path.name)
    )
    return rel.as_posix(), rid


def header(planned: Planned) -> str:
    files = ", ".join(Path(f).name for f in planned.files)
    return f"Written by `sitegen import` from {files}; edit freely, or re-import to replace."


def _run_ids(site_root: Path, replaced: set[Path]) -> dict[str, str]:
    """Run id -> file of the site's run records, but for those this import replaces."""
    runs = SiteLayout(site_root).runs
    ids: dict[str, str] = {}
    if not runs.is_dir():
        return ids
    for path in sorted(runs.rglob("*")):
        hidden = any(part.startswith(".") for part in path.relative_to(runs).parts)
        if path.suffix not in SiteLayout.RUN_SUFFIXES or hidden or not path.is_file():
            continue
        if path.resolve() in replaced:
            continue
        rel = path.relative_to(runs).as_posix()
        if path.suffix == ARCHIVE:  # its problems are the build's to report
            for record in parquet.read_archive(path, f"data/runs/{rel}", run_id(rel), Problems()):
                ids.setdefault(record.id, f"data/runs/{rel}")
        else:
            ids.setdefault(run_id(rel), f"data/runs/{rel}")
    return ids


@dataclass(frozen=True)
class Output:
    """A file an import writes, exactly as it was checked."""

    path: Path
    content: bytes


def check_records(
    planned: list[Planned], known: dict, site_root: Path, problems: Problems
) -> tuple[list[Output], list[Problem]]:
    """Run the build's checks on each record; SiteError if any has an error.

    Returns the files to write and the warnings.
    """
    taken = _run_ids(site_root, {item.path.resolve() for item in planned})
    outputs = []
    for item in planned:
        if item.path.suffix == ARCHIVE:
            continue
        text = text_of(item)
        rel, rid = _rel(item.path, site_root)
        if rid in taken:  # the build refuses two files with one run id
            problems.add(Problem(rel, None, "", f"run id {rid!r} is also the id of {taken[rid]}"))
        taken.setdefault(rid, rel)
        doc = parse(text, json_file=item.path.suffix == ".json")  # as the build reads it
        check_run(doc.data, doc, rel, rid, known, problems)
        outputs.append(Output(item.path, text.encode("utf-8")))
    for path in dict.fromkeys(item.path for item in planned if item.path.suffix == ARCHIVE):
        rel, file_id = _rel(path, site_root)
        content = _archive(path, [i for i in planned if i.path == path], rel, file_id)
        archive_runs(content, rel, file_id, known, taken, problems)  # as the build reads it
        outputs.append(Output(path, content))
    if problems.has_errors:
        raise SiteError(problems.sorted())
    return outputs, problems.warnings


# -- Parquet archives ---------------------------------------------------------------------------


def _archive(path: Path, items: list[Planned], rel: str, file_id: str) -> bytes:
    """The archive at `path` with the imported records added; SiteError if it cannot be."""
    runs = _runs_kept(path, items, rel, file_id) + [(None, item.record) for item in items]
    problems = Problems()
    content = parquet.archive_bytes(runs, rel, problems)
    if content is None:
        raise SiteError(problems.sorted())
    return content


def _runs_kept(
    path: Path, items: list[Planned], rel: str, file_id: str
) -> list[tuple[str | None, dict]]:
    """The runs already in the archive at `path`, but for those an imported record replaces
    (the same run id, as re-importing a YAML record replaces its file)."""
    if not path.is_file():
        return []
    found = Problems()
    existing = parquet.read_archive(path, rel, file_id, found)
    if found:  # rewriting it would drop its unknown columns, or carry its errors along
        message = (
            "cannot add the imported runs to this archive: it has problems of its own "
            "(listed); fix them, or name another --out"
        )
        raise SiteError([*found.sorted(), Problem(rel, None, "--out", message)])
    new = {f"{file_id}-{parquet.derived_id(item.record)}" for item in items}
    return [(run.run, run.data) for run in existing if run.id not in new]


# -- writing ------------------------------------------------------------------------------------


def _stage(path: Path, content: bytes) -> Path:
    """Write `content` to a temporary file beside `path`, to be moved onto it once all are
    staged."""
    if path.is_dir():
        raise IsADirectoryError(0, "a folder is in its place")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_outputs(outputs: list[Output]) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """(written, of which replaced an existing file)."""
    replaced = tuple(out.path for out in outputs if out.path.exists())
    # Every file is staged before any is put in place, so that a file that cannot be
    # written (a folder in its place, no permission) leaves none of the others behind.
    staged: list[tuple[Path, Path]] = []
    try:
        for out in outputs:
            try:
                staged.append((_stage(out.path, out.content), out.path))
            except OSError as exc:
                why = exc.strerror or str(exc)
                message = f"cannot write the record there: {why}"
                raise SiteError([Problem(str(out.path), None, "--out", message)]) from None
        for tmp, path in staged:
            os.replace(tmp, path)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    return tuple(out.path for out in outputs), replaced
