"""Records -> YAML a person can read (or JSON, or a Parquet archive), merged into what is
already there (`existing`), checked exactly as a build checks them, then written.

Configs are written flow-style, one per line. Nothing is written unless every record passes
`records.check_run` against the site's catalogs, read back as the build will read it, and
merges without a conflict.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..layout import SiteLayout
from ..records import Catalogs, Problem, Problems, check_run, parquet, run_id
from ..records.load import archive_runs
from ..records.yamlpos import ParseError, parse
from .common import SiteError
from .existing import merge_into_archive, merge_into_file, refuse_broken_archive
from .merge import Merged
from .planning import ARCHIVE, Planned

PLAIN = re.compile(r"\A[A-Za-z][A-Za-z0-9 ._/+()-]*\Z")
FLOW_LISTS = ("configs", "decode", "prefill", "canonical")
WIDTH = 100
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(text: str) -> Any:
    """YAML as the build reads it (safe; libyaml's parser where PyYAML has it: much faster)."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader


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
    if plain and _load(value) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value, flow=True)


def _folded(key: str, value: str) -> list[str]:
    """A long string as a folded block wrapped at WIDTH, a blank line between its paragraphs
    (merged notes); quoted on one line where a block would not read back the same."""
    lines: list[str] = []
    for paragraph in value.split("\n"):
        if lines:
            lines.append("")
        line = ""
        for word in paragraph.split(" "):
            if line and len(line) + 1 + len(word) > WIDTH - 2:
                lines.append(f"  {line}")
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(f"  {line}")
    block = [f"{key}: >-", *lines]
    if _load("\n".join(block)) != {key: value}:
        return [f"{key}: {scalar(value, flow=False)}"]
    return block


def render(record: dict[str, Any], header: str) -> str:
    """The record as YAML; asserts that reading it back gives the same record."""
    out = [f"# {line}" for line in header.splitlines()]
    for key, value in record.items():
        if key in FLOW_LISTS and isinstance(value, list):
            out.append(f"{key}:")
            out.extend(f"  - {flow(item)}" for item in value)
        elif isinstance(value, dict | list):
            out.append(f"{key}: {flow(value)}")
        elif isinstance(value, str) and (len(key) + len(value) > WIDTH - 4 or "\n" in value):
            out.extend(_folded(key, value))
        else:
            out.append(f"{key}: {scalar(value, flow=False)}")
    text = "\n".join(out) + "\n"
    if _load(text) != record:  # a bug here would write a different record
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


HEADER = "Written by `sitegen import`; edit freely. A re-import merges into it (docs/importing.md)."


def header(planned: Planned) -> str:
    """The comment atop a YAML record (its notes say which files it was imported from)."""
    return HEADER


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
    existed: bool = False  # a record (or archive) was there: the import merged into it
    unchanged: bool = False  # ... and added nothing: the file is left as it is


@dataclass(frozen=True)
class Checked:
    """What an import writes, its warnings, and how many imported configs were there already."""

    outputs: list[Output]
    warnings: list[Problem]
    merged: list[Merged]


def check_records(
    planned: list[Planned], known: Catalogs, site_root: Path, problems: Problems
) -> Checked:
    """Merge each record into the one already at its path, then run the build's checks on
    it; SiteError if any has an error or a conflict."""
    taken = _run_ids(site_root, {item.path.resolve() for item in planned})
    outputs, merges = [], []
    for item in planned:
        if item.path.suffix == ARCHIVE:
            continue
        rel, rid = _rel(item.path, site_root)
        item, merged = merge_into_file(item, rel, rid, known, problems)
        merges.append(merged)
        text = text_of(item)
        if rid in taken:  # the build refuses two files with one run id
            problems.add(Problem(rel, None, "", f"run id {rid!r} is also the id of {taken[rid]}"))
        taken.setdefault(rid, rel)
        try:
            doc = parse(text, json_file=item.path.suffix == ".json")  # as the build reads it
        except ParseError as exc:  # a record too large for the build to read (MAX_VALUES)
            problems.add(Problem(rel, exc.line, exc.field, exc.message))
            continue
        check_run(doc.data, doc, rel, rid, known, problems)
        outputs.append(_output(item.path, text.encode("utf-8")))
    for path in dict.fromkeys(item.path for item in planned if item.path.suffix == ARCHIVE):
        rel, file_id = _rel(path, site_root)
        items = [i for i in planned if i.path == path]
        content, archived = _archive(path, items, rel, file_id, problems)
        merges.extend(archived)
        if content is not None:
            archive_runs(content, rel, file_id, known, taken, problems)  # as the build reads it
            outputs.append(_output(path, content))
    if problems.has_errors:
        raise SiteError(problems.sorted())
    return Checked(outputs, problems.warnings, merges)


def _output(path: Path, content: bytes) -> Output:
    existed = path.is_file()
    return Output(path, content, existed, existed and path.read_bytes() == content)


# -- Parquet archives ---------------------------------------------------------------------------


def _archive(
    path: Path, items: list[Planned], rel: str, file_id: str, problems: Problems
) -> tuple[bytes | None, list[Merged]]:
    """The archive at `path` with the imported records merged in (None: problems said why)."""
    existing: list[parquet.ArchiveRecord] = []
    if path.is_file():
        found = Problems()
        existing = parquet.read_archive(path, rel, file_id, found)
        if found:
            refuse_broken_archive(found, rel)
    runs, merged, conflicts = merge_into_archive(items, existing, rel, file_id)
    problems.extend(conflicts)
    if conflicts.has_errors:
        return None, merged
    content = parquet.archive_bytes(runs, rel, problems)
    return content, merged


# -- writing ------------------------------------------------------------------------------------


# A staged file's name, as _stage's mkstemp makes it: `.NAME.` and 8 of mkstemp's characters,
# NAME a file an import writes (a run record or an archive).
_STAGED = re.compile(
    r"\A\.[^/]+(?:" + "|".join(re.escape(s) for s in SiteLayout.RUN_SUFFIXES) + r")\.[a-z0-9_]{8}\Z"
)
# A staged file older than this is left by an import that was killed (an import stages and
# moves its files within seconds); a younger one may be another import's, still running.
STALE_AFTER = 600  # seconds


def remove_leftovers(folders: set[Path]) -> None:
    """Delete the staged files that an interrupted import left in `folders` (a killed process
    cleans up nothing): regular files named as _stage names them, older than STALE_AFTER.
    Nothing else is touched, and a file that cannot be removed is left where it is."""
    now = time.time()
    for folder in sorted(folders):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if not _STAGED.match(entry.name):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_AFTER:
                    os.unlink(entry.path)
            except OSError:
                continue


def _stage(path: Path, content: bytes) -> Path:
    """Write `content` to a temporary file beside `path`, flushed to disk, to be moved onto it
    once all are staged; it gets the mode that a new file (or the one it replaces) has."""
    if path.is_dir():
        raise IsADirectoryError(0, "a folder is in its place")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o7777 if path.exists() else _new_file_mode())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _new_file_mode() -> int:
    """0o666 less the umask, as open() creates files (mkstemp makes them private)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_outputs(outputs: list[Output]) -> None:
    """Put every changed file in place; a file to which the import adds nothing is left alone.

    Every file is staged before any is put in place, so that a file that cannot be written
    (a folder in its place, no permission) leaves none of the others behind; each is then
    moved onto its name in one step, so that a reader sees the old file or the new, never
    half of one. What an import killed before here left in the same folders goes first.
    """
    remove_leftovers({out.path.parent for out in outputs})
    staged: list[tuple[Path, Path]] = []
    try:
        for out in outputs:
            if out.unchanged:
                continue
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
