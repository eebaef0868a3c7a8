"""Records -> YAML a person can read, checked exactly as a build checks them, then written.

Configs are written flow-style, one per line. Nothing is written unless every record passes
`records.check_run` against the site's catalogs.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml

from ..layout import SiteLayout
from ..records import Problem, Problems, check_run, run_id
from ..records.yamlpos import parse
from .common import SiteError
from .planning import Planned

PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 ._/+()-]*$")
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
        if path.resolve() not in replaced:
            rel = path.relative_to(runs).as_posix()
            ids.setdefault(run_id(rel), f"data/runs/{rel}")
    return ids


def check_records(
    planned: list[Planned], known: dict, site_root: Path, problems: Problems
) -> list[Problem]:
    """Run the build's checks on each record; SiteError if any has an error."""
    taken = _run_ids(site_root, {item.path.resolve() for item in planned})
    for item in planned:
        text = text_of(item)
        rel, rid = _rel(item.path, site_root)
        if rid in taken:  # the build refuses two files with one run id
            problems.add(Problem(rel, None, "", f"run id {rid!r} is also the id of {taken[rid]}"))
        taken.setdefault(rid, rel)
        doc = parse(text, json_file=item.path.suffix == ".json")  # as the build reads it
        check_run(doc.data, doc, rel, rid, known, problems)
    if problems.has_errors:
        raise SiteError(problems.sorted())
    return problems.warnings


def _stage(path: Path, text: str) -> Path:
    """Write `text` to a temporary file beside `path`, to be moved onto it once all are staged."""
    if path.is_dir():
        raise IsADirectoryError(0, "a folder is in its place")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_records(planned: list[Planned]) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """(written, of which replaced an existing file)."""
    replaced = tuple(p.path for p in planned if p.path.exists())
    # Every record is staged before any is put in place, so that a file that cannot be
    # written (a folder in its place, no permission) leaves none of the others behind.
    staged: list[tuple[Path, Path]] = []
    try:
        for item in planned:
            try:
                staged.append((_stage(item.path, text_of(item)), item.path))
            except OSError as exc:
                why = exc.strerror or str(exc)
                message = f"cannot write the record there: {why}"
                raise SiteError([Problem(str(item.path), None, "--out", message)]) from None
        for tmp, path in staged:
            os.replace(tmp, path)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    return tuple(p.path for p in planned), replaced
