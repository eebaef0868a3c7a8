"""What planning any record shares, sweep (`assemble`) or matrix (`matrix`): slugs resolved
against the site, the record's file name and place, its source and its provenance notes."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..layout import SiteLayout
from ..records import Catalogs, Problem
from .common import Identity, Measurement, Options, Reading, SiteError

FILE_SAFE = re.compile(r"[^a-z0-9.-]+")


Origin = tuple[str, int | None]  # a result file as the user named it, and a line of it


@dataclass(frozen=True)
class Planned:
    """A record about to be written, and where."""

    path: Path
    record: dict[str, Any]
    files: tuple[str, ...]  # the result files it came from
    origins: tuple[Origin, ...] = ()  # where each of its configs came from, in their order
    run: str | None = None  # its name in an archive, where model ... date do not tell it apart


@dataclass(frozen=True)
class Key:
    """What makes one record: everything but the configs."""

    model: str
    gpu: str
    engine: str
    precision: str
    workload: str
    date: dt.date | None  # None while the date is still to be settled (one sweep, many files)
    run: str = ""  # what else tells apart runs of one input (an MLPerf submitter's system)


class Resolver:
    """Turns what files say into slugs of the site, collecting one problem per gap."""

    def __init__(self, fmt: str, options: Options, known: Catalogs) -> None:
        self.fmt = fmt
        self.options = options
        self.known = known
        self.problems: dict[str, Problem] = {}  # keyed by option, so each is said once

    def gap(self, file: str, option: str, message: str) -> None:
        self.problems.setdefault(option, Problem(file, None, option, message))

    def _catalog(self, m: Measurement, option: str, given: str | None, raw: str | None) -> str:
        kind = {"--model": "models", "--gpu": "gpus", "--workload": "workloads"}[option]
        catalog = getattr(self.known, kind)
        names = ", ".join(sorted(catalog)[:12])
        if given is not None:
            if given not in catalog:
                self.gap(m.file, option, f'"{given}" is not in data/{kind}.yaml (known: {names})')
            return given
        if raw is None:
            what = option.lstrip("-")
            self.gap(m.file, option, f"the file does not say the {what}; give {option} ({names})")
            return ""
        slug = match(raw, catalog)
        if slug is None:
            self.gap(m.file, option, unmatched(raw, catalog, kind, option, " in the file"))
            return ""
        return slug

    def _plain(self, m: Measurement, option: str, given: str | None, raw: str | None) -> str:
        value = given or raw
        if not value:
            what = option.lstrip("-")
            self.gap(m.file, option, f"the file does not say the {what}; give {option}")
            return ""
        return value.strip().lower()

    def key(self, m: Measurement, dated: bool, with_workload: bool = True) -> Key:
        o, ident = self.options, m.identity
        if not with_workload:
            workload = ""
        elif o.workload or not ((ident.isl and ident.osl) or ident.workload):
            workload = self._catalog(m, "--workload", o.workload, None)
        elif ident.workload:
            workload = self._catalog(m, "--workload", None, ident.workload)
        else:
            workload = self._workload(m, ident)
        date = o.date or ident.date
        if date is None:
            self.gap(m.file, "--date", "the file does not say the date; give --date YYYY-MM-DD")
        return Key(
            model=self._catalog(m, "--model", o.model, ident.model),
            gpu=self._catalog(m, "--gpu", o.gpu, ident.gpu),
            engine=self._plain(m, "--engine", o.engine, ident.engine),
            precision=self._plain(m, "--precision", o.precision, ident.precision),
            workload=workload,
            date=date if dated else None,
            run=ident.run or "",
        )

    def _workload(self, m: Measurement, ident: Identity) -> str:
        for slug, w in self.known.workloads.items():
            if w.isl == ident.isl and w.osl == ident.osl:
                return slug
        self.gap(
            m.file,
            "--workload",
            f"no workload of data/workloads.yaml has isl {ident.isl} and osl {ident.osl}; "
            "give --workload",
        )
        return ""

    def fail_if_gaps(self) -> None:
        if self.problems:
            raise SiteError(list(self.problems.values()))


def _squash(text: str) -> str:
    text = text.lower().split("/")[-1]
    text = re.sub(r"^(nvidia|amd|intel)[\s_-]+", "", text)
    return re.sub(r"[\s_-]+", "", text)


def match(raw: str, catalog: dict) -> str | None:
    """The slug a tool's name for a model, GPU or workload means: the slug itself, then an
    alias of an entry (both case aside), then its Hugging Face id, then its slug, name or id
    loosely (vendor prefixes, spaces, dashes and underscores aside)."""
    squash = _squash
    wanted = raw.strip().lower()
    if wanted in catalog:
        return wanted
    for slug, entry in catalog.items():
        if wanted in (a.lower() for a in getattr(entry, "aliases", ())):
            return slug
    wanted = raw.strip()
    for slug, entry in catalog.items():
        hf_id = getattr(entry, "hf_id", None)
        if wanted.lower() in (slug, (hf_id or "").lower()):
            return slug
    loose = squash(wanted)
    for slug, entry in catalog.items():
        if loose in (squash(slug), squash(getattr(entry, "name", "") or "")):
            return slug
        hf_id = getattr(entry, "hf_id", None)
        if hf_id and loose == squash(hf_id):
            return slug
    return None


def closest(raw: str, catalog: dict, most: int = 3) -> list[str]:
    """The slugs whose slug, alias or name read most like `raw` (difflib), best first."""
    names: dict[str, str] = {}
    for slug, entry in catalog.items():
        for name in (slug, getattr(entry, "name", ""), *getattr(entry, "aliases", ())):
            if name:
                names.setdefault(_squash(name), slug)
    found = difflib.get_close_matches(_squash(raw), list(names), n=most * 3, cutoff=0.4)
    return list(dict.fromkeys(names[n] for n in found))[:most]


def unmatched(raw: str, catalog: dict, kind: str, option: str, where: str = "") -> str:
    """The message for a name that matches no entry: the closest slugs, or where none reads
    alike, the first known ones."""
    near = closest(raw, catalog)
    hint = f"closest: {', '.join(near)}" if near else f"known: {', '.join(sorted(catalog)[:12])}"
    return (
        f'"{raw}"{where} matches no slug, alias or name of data/{kind}.yaml ({hint}); '
        f"add it to an entry's aliases, or give {option}"
    )


def tidy(value: Any) -> Any:
    """Six significant digits: a record a person reads, still exact to a millionth."""
    if isinstance(value, dict):
        return {k: tidy(v) for k, v in value.items()}
    if isinstance(value, float):
        short = float(f"{value:.6g}")
        return int(short) if short.is_integer() and abs(short) < 1e15 else short
    return value


def import_notes(fmt: str, readings: list[Reading], files: list[str], extra: list[str]) -> str:
    """The record's notes: which command read which files, and what the tools said."""
    tools = sorted({r.tool for r in readings})
    names = ", ".join(dict.fromkeys(Path(f).name for f in files))
    said = list(dict.fromkeys(n for r in readings for n in r.notes)) + extra
    text = f"Imported with sitegen import {fmt} from {names} ({'; '.join(tools)})."
    if said:
        text += " " + "; ".join(said) + "."
    return text


ARCHIVE = SiteLayout.ARCHIVE_SUFFIX
SUFFIXES = {"yaml": ".yaml", "json": ".json", "parquet": ARCHIVE}  # --format -> what is written


def file_name(key: Key, date: dt.date) -> tuple[str, ...]:
    """What a record's file is named after: model, GPU, engine, precision, workload, date,
    and the run where one input holds several of those (an MLPerf submitter's system)."""
    return (key.model, key.gpu, key.engine, key.precision, key.workload, date.isoformat(), key.run)


def run_name(key: Key, date: dt.date) -> str | None:
    """A run's own name inside an archive (its `run` column), for runs that the model, GPU,
    engine, precision, workload and date do not tell apart (MLPerf systems); else None."""
    return _stem(file_name(key, date)) if key.run else None


def _stem(parts: tuple[str, ...]) -> str:
    return FILE_SAFE.sub("-", "-".join(p for p in parts if p).lower()).strip("-") or "runs"


def _shared(names: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The parts of the names that every record has: an archive's name in a folder."""
    return tuple(
        part if all(n[i] == part for n in names) else "" for i, part in enumerate(names[0])
    )


def _names_a_file(out: Path) -> bool:
    return out.suffix in SiteLayout.RUN_SUFFIXES and not out.is_dir()


def record_suffix(out: Path, record_format: str | None) -> str:
    """The suffix of what is written: --format's, else --out's own (a folder: .yaml)."""
    named = out.suffix if _names_a_file(out) else None
    if record_format is None:
        return named or ".yaml"
    wanted = SUFFIXES[record_format]
    if named is not None and named != wanted and {named, wanted} != {".yml", ".yaml"}:
        message = (
            f"{record_format}, but --out names a {named} file: name a {wanted} file or a folder"
        )
        raise SiteError([Problem(str(out), None, "--format", message)])
    return named or wanted


def record_paths(out: Path, names: list[tuple[str, ...]], suffix: str) -> list[Path]:
    """Where each record goes: at --out, or into the folder it names; an archive takes all."""
    if _names_a_file(out):
        if len(names) > 1 and suffix != ARCHIVE:
            raise SiteError(
                [
                    Problem(
                        str(out),
                        None,
                        "--out",
                        f"the input holds {len(names)} runs (engines, precisions or dates); "
                        "--out must name a folder or a .parquet archive",
                    )
                ]
            )
        return [out] * len(names)
    if out.exists() and not out.is_dir():
        message = "is a file, not a folder; name a folder, a .yaml or a .parquet"
        raise SiteError([Problem(str(out), None, "--out", message)])
    if suffix == ARCHIVE:  # one archive for them all, named after what they share
        return [out / (_stem(_shared(names)) + ARCHIVE)] * len(names)
    return [out / (_stem(name) + suffix) for name in names]


def measured_by(resolver: Resolver, options: Options, ms: list[Measurement]) -> str:
    """The record's source (who measured): --source, else the first file that says it."""
    value = options.source or next((m.identity.source for m in ms if m.identity.source), None)
    if not value:
        resolver.gap(ms[0].file, "--source", "the file does not say who measured; give --source")
    return value or ""
