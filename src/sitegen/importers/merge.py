"""An imported record merged into the one already there: nothing measured is dropped.

Items of a record's lists (configs, decode cells...) are told apart by their key fields
(`ITEM_KEYS`; for configs `schema.CONFIG_KEY`). An item already there is kept, one imported
again is not repeated, and the fields that only one side has are joined, so that importing
overlapping files in any order, or twice, gives the same record. A value that both sides have
and that differs is a `Conflict`, never overwritten. Pure values in and out: the writer reads
what is on disk and turns conflicts into problems that name files and lines.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..records.schema import (
    CANONICAL_FIELDS,
    CONFIG_FIELDS,
    CONFIG_KEY,
    DECODE_FIELDS,
    LATENCY_FIELDS,
    PREFILL_FIELDS,
)
from ..records.yamlpos import Path_

# What tells two items of a list apart; the other fields are what was measured.
ITEM_KEYS: dict[str, tuple[str, ...]] = {
    "configs": CONFIG_KEY,
    "decode": ("context", "concurrency"),
    "prefill": ("context",),
    "canonical": ("label",),
}
# The order in which a record's fields are written, as the importers write them.
RECORD_ORDER = (
    "kind",
    "source",
    "url",
    "date",
    "model",
    "gpu",
    "gpus",
    "engine",
    "engine_version",
    "precision",
    "workload",
    "title",
    "power_cap_w",
    "host",
    "notes",
    "illustrative",
    "bench",
    "canonical",
    "prefill",
    "decode",
    "configs",
)
ITEM_ORDER = {
    "configs": CONFIG_FIELDS,
    "decode": DECODE_FIELDS,
    "prefill": PREFILL_FIELDS,
    "canonical": CANONICAL_FIELDS,
}
LATENCIES = ("ttft_ms", "tpot_ms", "e2el_ms")
# Configs are sorted by concurrency first, as the importers sort them, then by every other
# key field, so that the order never depends on which file came first.
CONFIG_ORDER = ("concurrency", *(k for k in CONFIG_KEY if k != "concurrency"))
IMPORTED = "Imported with sitegen import "  # how the notes of each import begin
VERSIONS = ", "  # several engine versions of one run, as the importers join them


@dataclass(frozen=True)
class Side:
    """Where one value of a conflict is: the record already there, or this import's record
    (whose list items the caller traces back to the result files)."""

    existing: bool
    path: Path_  # in that record, e.g. ("configs", 3, "tpot_ms", "median")


@dataclass(frozen=True)
class Conflict:
    """One field that two measurements of one config (or two runs at one --out) disagree on."""

    first: Side
    second: Side
    first_value: Any
    second_value: Any
    item: str  # the config it is about, "gpus 8, tp 8, concurrency 64"; "" for a run field


@dataclass(frozen=True)
class Merged:
    """The merged record, its conflicts, and how many imported items were already there."""

    record: dict[str, Any]
    conflicts: tuple[Conflict, ...]
    items_before: int  # configs (or decode cells) of the record already there
    items_after: int


def merge_records(old: dict[str, Any] | None, new: dict[str, Any]) -> Merged:
    """`new` merged into `old` (None: nothing there; `new` alone, in canonical order)."""
    old = old or {}
    conflicts: list[Conflict] = []
    merged: dict[str, Any] = {}
    for name in _order(old, new, RECORD_ORDER):
        if name not in new:  # what the import does not touch stays as it is
            merged[name] = old[name]
            continue
        if name not in old:
            value = new[name]
            if name in ITEM_KEYS and isinstance(value, list):
                value = _items(name, [], value, False, conflicts)
            merged[name] = value
            continue
        a, b = old[name], new[name]
        if name in ITEM_KEYS and isinstance(a, list) and isinstance(b, list):
            merged[name] = _items(name, a, b, True, conflicts)
        elif name == "notes" and isinstance(a, str) and isinstance(b, str):
            merged[name] = merge_notes(a, b)
        elif name == "url" and isinstance(a, str) and isinstance(b, str):
            merged[name] = min(a, b)  # as one import of both files chooses: the first
        elif name == "engine_version" and isinstance(a, str) and isinstance(b, str):
            merged[name] = VERSIONS.join(sorted({*a.split(VERSIONS), *b.split(VERSIONS)}))
        else:
            sides = (Side(True, (name,)), Side(False, (name,)))
            merged[name] = _value(a, b, sides, "", conflicts)
    return Merged(merged, tuple(conflicts), _count(old), _count(merged))


def _count(record: dict[str, Any]) -> int:
    items = record.get("configs", record.get("decode"))
    return len(items) if isinstance(items, list) else 0


def merge_notes(old: str, new: str) -> str:
    """An editor's paragraphs first, as written; then each import's notes once, sorted."""
    paragraphs = [p.strip() for text in (old, new) for p in text.split("\n") if p.strip()]
    own = [p for p in paragraphs if not p.startswith(IMPORTED)]
    imported = sorted(p for p in paragraphs if p.startswith(IMPORTED))
    return "\n".join(dict.fromkeys(own + imported))


def describe_item(name: str, item: dict[str, Any]) -> str:
    """A list item by its key fields: "gpus 8, tp 8, ep 8, concurrency 64"."""
    return ", ".join(f"{k} {_text(item[k])}" for k in ITEM_KEYS[name] if item.get(k) is not None)


def _items(name: str, old: list, new: list, old_existing: bool, conflicts: list[Conflict]) -> list:
    """The items of both lists, one per key, sorted; `old` may be this import's own."""
    fields = ITEM_KEYS[name]
    merged: list[Any] = []
    first: dict[tuple, int] = {}  # key -> index into merged
    sides: list[Side] = []  # where each merged item first came from
    for existing, items in ((old_existing, old), (False, new)):
        for i, item in enumerate(items):
            side = Side(existing, (name, i))
            if not isinstance(item, dict):  # the checks will say what is wrong with it
                merged.append(item)
                sides.append(side)
                continue
            key = tuple(_hashable(item.get(k)) for k in fields)
            if key not in first:
                first[key] = len(merged)
                merged.append(item)
                sides.append(side)
                continue
            at = first[key]
            pair = (sides[at], side)
            merged[at] = _value(merged[at], item, pair, describe_item(name, item), conflicts)
    ordered = [_canonical(item, name) for item in merged]
    return sorted(ordered, key=lambda item: item_order(name, item))


def _value(a: Any, b: Any, sides: tuple[Side, Side], item: str, conflicts: list) -> Any:
    """Two values of one field joined: mappings field by field, else equal or a conflict."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = {}
        for key in _order(a, b, ()):
            if key in a and key in b:
                first, second = (Side(s.existing, (*s.path, key)) for s in sides)
                out[key] = _value(a[key], b[key], (first, second), item, conflicts)
            else:
                out[key] = a[key] if key in a else b[key]
        return out
    if not _same(a, b):
        conflicts.append(Conflict(sides[0], sides[1], a, b, item))
    return a


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):  # True == 1 in Python, not in a record
        return a is b
    if isinstance(a, dt.date) or isinstance(b, dt.date):  # a JSON record's date is text
        return _iso(a) == _iso(b)
    return a == b


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def _order(a: dict, b: dict, known: tuple[str, ...]) -> list:
    """The keys of both: the known order first, then `b`'s, then the rest of `a`'s."""
    keys = [k for k in known if k in a or k in b]
    return keys + [k for k in dict.fromkeys((*b, *a)) if k not in keys]


def _canonical(item: Any, name: str) -> Any:
    """A list item with its fields in the schema's order, latencies median first."""
    if not isinstance(item, dict):
        return item
    ordered = {k: item[k] for k in ITEM_ORDER[name] if k in item}
    ordered.update({k: item[k] for k in sorted(item, key=str) if k not in ordered})
    for key in LATENCIES:
        if isinstance(ordered.get(key), dict):
            latency = ordered[key]
            known = {s: latency[s] for s in LATENCY_FIELDS if s in latency}
            ordered[key] = known | {s: latency[s] for s in sorted(latency, key=str)}
    return ordered


def item_order(name: str, item: Any) -> tuple:
    """How the items of a list are sorted: configs by concurrency, then their other keys."""
    if not isinstance(item, dict):
        return ((2,),)
    fields = CONFIG_ORDER if name == "configs" else ITEM_KEYS[name]
    return tuple(_sortable(item.get(k)) for k in fields)


def _sortable(value: Any) -> tuple:
    """Numbers before text, and a missing value last, so that any two items compare."""
    if value is None:
        return (2, 0.0, "")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def _hashable(value: Any) -> Any:
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, dict | list):
        return repr(value)
    return value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
