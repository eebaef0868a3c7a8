"""YAML and JSON reading that remembers the line of every value, for messages."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import yaml
from yaml.events import (
    DocumentEndEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

Path_ = tuple[str | int, ...]


# libyaml's parser when PyYAML was built with it: several times faster on large sites
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """SafeLoader whose mappings refuse duplicate keys (a silent overwrite hides data)."""


class DuplicateKeyError(yaml.MarkedYAMLError):
    pass


MERGE_TAG = "tag:yaml.org,2002:merge"
# YAML 1.1 reads 1e3 and 1e400 as strings; a site owner means numbers (YAML 1.2 and JSON agree).
_FLOAT_1_2 = re.compile(r"\A[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+\Z")


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict:
    # a key written twice in the same mapping is an error; a key that overrides one
    # brought in by a merge (<<: *base) is what merge keys are for
    own = [k for k, _ in node.value if k.tag != MERGE_TAG]
    loader.flatten_mapping(node)
    seen: dict[Any, Any] = {}
    own_seen: set = set()
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:
            raise DuplicateKeyError(
                problem=f"a key must be a plain value, not {type(key).__name__}",
                problem_mark=key_node.start_mark,
            ) from None
        if any(key_node is k for k in own):
            if key in own_seen:
                raise DuplicateKeyError(
                    problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark
                )
            own_seen.add(key)
        seen[key] = loader.construct_object(value_node, deep=deep)
    return seen


def _construct_timestamp(loader: _Loader, node: yaml.ScalarNode) -> Any:
    """A date YAML recognises but the calendar lacks (2026-13-45) stays text for the checker."""
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError:
        return loader.construct_scalar(node)


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> Any:
    """An integer of thousands of digits, which Python will not convert, is read as infinity."""
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:
        return math.inf


def _json_int(text: str) -> int | float:
    return int(text) if len(text) < 1000 else math.inf


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT_1_2, list("-+0123456789"))


# -- the fast reader ------------------------------------------------------------------------
#
# yaml.load spends most of its time in Python: composing a node per value (with its marks and
# a call of the resolver's regular expressions), then constructing the data from the nodes
# through PyYAML's generic machinery. The fast reader takes the same libyaml events (so the same
# syntax is accepted, and a broken file fails at the same place) and builds the data from them
# directly. It knows only what run records use: mappings, sequences and untagged scalars. Plain
# scalars are typed by _Loader's own resolver and constructors (an unsigned decimal number by a
# test whose meaning is the same), so the data is exactly yaml.load's. Anything else - an
# anchor, an alias, a tag, a merge key, a key written twice, a key that is not a scalar, deep
# nesting, more than one document, any error at all - makes it give up, and the full loader
# reads the text again and decides (and words the error).


class _Unsure(Exception):
    """The fast reader met something it leaves to the full loader."""


_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
# scalars whose value the loader's own constructor gives (a number, a date); merge keys, `=` and
# every other tag are left to the full loader
_CONSTRUCTED = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"}
_DIGITS_MAX = 999  # int() refuses more than 4,300 digits; the loader makes those infinite
_MAX_DEPTH = 32  # deeper than any record; the full loader finds out what is too deep
# plain scalars that are not numbers (keys, slugs, true, null) repeat from file to file: the
# value the resolver and constructor gave each (a str, None or a bool), by its text
_words: dict[str, Any] = {}
_MISS = object()


def _decimal(text: str) -> int | float | None:
    """12, 0, 41.25, 007.5 as yaml.load reads them; None for any other text.

    Plain text of ASCII digits with no leading zero, or digits, a point and digits, is what
    YAML 1.1's int pattern (before timestamp) or float pattern (before int) takes, and their
    constructors give int(text) and float(text). A leading zero (017 is octal, 08 text), a sign,
    an exponent, `_` or `:` are left to the resolver. _collection has this inline.
    """
    if text.isdigit():
        if text.isascii() and (text[0] != "0" or text == "0") and len(text) <= _DIGITS_MAX:
            return int(text)
        return None
    whole, point, fraction = text.partition(".")
    if point and whole.isdigit() and fraction.isdigit() and text.isascii():
        return float(text)
    return None


def _plain(loader: _Loader, text: str) -> Any:
    """The value of an untagged plain scalar, as yaml.load gives it."""
    number = _decimal(text)
    if number is not None:
        return number
    tag = loader.resolve(ScalarNode, text, (True, False))
    if tag == _STR:
        value: Any = text
    elif tag == _NULL:
        value = None
    elif tag == _BOOL:
        value = loader.bool_values[text.lower()]
    elif tag in _CONSTRUCTED:
        return loader.yaml_constructors[tag](loader, ScalarNode(tag, text))
    else:
        raise _Unsure
    if len(text) <= 64 and len(_words) < 20_000:
        _words[text] = value
    return value


def _scalar(loader: _Loader, event: ScalarEvent) -> Any:
    if event.tag is not None or event.anchor is not None:
        raise _Unsure
    if not event.implicit[0]:
        return event.value  # quoted, or a block scalar: text
    value = _words.get(event.value, _MISS)
    return _plain(loader, event.value) if value is _MISS else value


def _collection(loader: _Loader, get: Callable[[], Any], event: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH or event.tag is not None or event.anchor is not None:
        raise _Unsure
    if type(event) is MappingStartEvent:
        # the loop that reads every field of every config: an untagged plain key or value is
        # read here as _scalar would, a call spared for each
        words, scalar, miss, longest = _words, ScalarEvent, _MISS, _DIGITS_MAX
        mapping: dict = {}
        while type(event := get()) is scalar:
            if event.implicit[0] and event.tag is None and event.anchor is None:
                key = words.get(event.value, miss)
                if key is miss:
                    key = _plain(loader, event.value)
            else:
                key = _scalar(loader, event)
            if key in mapping:
                raise _Unsure  # the full loader names the duplicate and its line
            event = get()
            if type(event) is not scalar:
                mapping[key] = _collection(loader, get, event, depth + 1)
            elif event.implicit[0] and event.tag is None and event.anchor is None:
                text = event.value
                if text.isdigit():  # _decimal(text), inline
                    if text.isascii() and (text[0] != "0" or text == "0") and len(text) <= longest:
                        mapping[key] = int(text)
                        continue
                else:
                    whole, point, fraction = text.partition(".")
                    if point and whole.isdigit() and fraction.isdigit() and text.isascii():
                        mapping[key] = float(text)
                        continue
                value = words.get(text, miss)
                mapping[key] = _plain(loader, text) if value is miss else value
            else:
                mapping[key] = _scalar(loader, event)
        if type(event) is not MappingEndEvent:
            raise _Unsure  # a key that is a mapping or a list, or an alias
        return mapping
    if type(event) is SequenceStartEvent:
        sequence: list = []
        while (kind := type(event := get())) is not SequenceEndEvent:
            if kind is ScalarEvent:
                sequence.append(_scalar(loader, event))
            else:
                sequence.append(_collection(loader, get, event, depth + 1))
        return sequence
    raise _Unsure  # an alias


def _fast_load(text: str) -> Any:
    """yaml.load(text, Loader=_Loader) for the texts it is sure of; _Unsure (or any error) else."""
    loader = _Loader(text)
    try:
        get = loader.get_event
        get()  # the stream's start
        if type(get()) is StreamEndEvent:
            return None  # no document: nothing but comments, or nothing at all
        event = get()
        if type(event) is ScalarEvent:
            data = _scalar(loader, event)
        else:
            data = _collection(loader, get, event, 0)
        if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
            raise _Unsure  # a second document
        return data
    finally:
        loader.dispose()


class Document:
    """A parsed file: its data and, on demand, the 1-based line of each value by its path.

    Files are read with the fast parsers (json, libyaml); the lines are found only when a
    problem asks for one, by parsing that file's text once more with positions. A clean file
    never pays for them.
    """

    def __init__(
        self,
        data: Any,
        lines: dict[Path_, int] | None = None,
        text: str | None = None,
    ) -> None:
        self.data = data
        self._lines = lines
        self._text = text

    @property
    def lines(self) -> dict[Path_, int]:
        if self._lines is None:
            self._lines = positions(self._text) if self._text else {}
            self._text = None
        return self._lines

    def line(self, path: Path_) -> int | None:
        """The line of `path`, or of its nearest ancestor that has one."""
        lines = self.lines
        while True:
            if path in lines:
                return lines[path]
            if not path:
                return None
            path = path[:-1]

    def field_name(self, path: Path_) -> str:
        """The field a problem at `path` names: configs[2].tpot_ms.median."""
        return field_name(path)

    def place_name(self, path: Path_) -> str:
        """How a message points at another place of the file: configs[2]."""
        return field_name(path)


class ParseError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _walk(node: yaml.Node, path: Path_, lines: dict[Path_, int], seen: set[int]) -> None:
    lines[path] = node.start_mark.line + 1
    if id(node) in seen:
        # an alias: its fields keep the line of the alias (a nested one would multiply
        # the walk without end: `a: &a [*a]`, or ten aliases of ten aliases of ...)
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            _walk(value_node, path + (key,), lines, seen)
            # a field's line is its key's, where a reader looks for it
            lines[path + (key,)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, path + (i,), lines, seen)


def positions(text: str) -> dict[Path_, int]:
    """The line of every value of a file that parsed, by path; {} where YAML cannot tell.

    JSON is read by YAML's composer here (JSON is YAML's flow style); the few JSON texts that
    YAML refuses keep no lines, and their problems name the file and field only.
    """
    loader = _Loader(text)
    lines: dict[Path_, int] = {}
    try:
        node = loader.get_single_node()
        if node is not None:
            _walk(node, (), lines, set())
    except (yaml.YAMLError, RecursionError):
        return {}  # JSON that YAML refuses, or nesting too deep to walk: no lines
    finally:
        loader.dispose()
    return lines


def decode(raw: bytes) -> str:
    """UTF-8 text (a byte-order mark is dropped); anything else names its line."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        byte = raw[exc.start : exc.start + 1].hex()
        raise ParseError(f"not UTF-8 text (byte 0x{byte}); save the file as UTF-8", line) from None


class _DuplicateJsonKey(Exception):
    pass


def _json_object(pairs: list[tuple[str, Any]]) -> dict:
    """json.loads keeps the last of two equal keys silently; a data file must not."""
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateJsonKey(key)
        out[key] = value
    return out


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not valid JSON: {exc.msg}", exc.lineno) from None
    except _DuplicateJsonKey as exc:
        key = exc.args[0]
        # the line where the key is named a second time (a guess: JSON keeps no lines)
        line, seen = None, 0
        for n, row in enumerate(text.splitlines(), 1):
            seen += row.count(json.dumps(key) + ":") + row.count(json.dumps(key) + " :")
            if seen >= 2:
                line = n
                break
        raise ParseError(f"not valid JSON: duplicate key {key!r}", line) from None
    except RecursionError:
        raise ParseError("not valid JSON: nested too deeply", None) from None


def parse(text: str, *, json_file: bool = False) -> Document:
    """Parse YAML (or JSON) text into a Document; raise ParseError with the line on failure."""
    if json_file:
        return Document(_parse_json(text), text=text)
    try:
        return Document(_fast_load(text), text=text)
    except Exception:
        pass  # whatever the fast reader is unsure of (or finds wrong), the full loader decides
    return Document(_parse_full(text), text=text)


def _parse_full(text: str) -> Any:
    """The data of YAML text by yaml.load and _Loader; ParseError with the line on failure."""
    try:
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        rows = text.splitlines()
        row = rows[line - 1] if line and line <= len(rows) else ""
        tab = "\t" in row[: len(row) - len(row.lstrip())]
        hint = " (a tab: YAML indents with spaces only)" if tab else ""
        raise ParseError(f"not valid YAML: {exc.problem}{hint}", line) from None
    except RecursionError:
        raise ParseError("not valid YAML: nested too deeply", None) from None
    except yaml.YAMLError as exc:
        raise ParseError(f"not valid YAML: {exc}", None) from None
    _check_aliases(text, data)  # the fast reader leaves every file with an alias to this one
    return data


MAX_EXPANDED = 100_000  # values a YAML file's aliases may expand to
_ALIAS = re.compile(r"(?:^|[\s\[{,:-])\*[^\s,\]}]", re.M)


def _expanded_size(data: Any) -> int:
    """How many values `data` holds with every alias expanded, counted without expanding them
    (an alias is the same object: each is counted once, by id); ParseError beyond the limit."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()

    def size(value: Any) -> int:
        if not isinstance(value, dict | list):
            return 1
        key = id(value)
        if key in sizes:
            return sizes[key]
        if key in open_:
            raise ParseError("not valid YAML: an alias refers to the value that holds it", None)
        open_.add(key)
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        total = 1 + sum(size(item) for item in items)
        open_.discard(key)
        if total > MAX_EXPANDED:
            raise ParseError(
                f"not valid YAML: its aliases (*name) expand to more than {MAX_EXPANDED:,} values",
                None,
            )
        sizes[key] = total
        return total

    return size(data)


def _check_aliases(text: str, data: Any) -> None:
    """Aliases may not multiply a file beyond MAX_EXPANDED values ("billion laughs"): a
    message or a page that prints such a value would never end."""
    if "&" not in text or (first := _ALIAS.search(text)) is None:
        return  # no alias without an anchor: the common case costs one scan of the text
    try:
        _expanded_size(data)
    except ParseError as exc:
        raise ParseError(exc.message, text[: first.end() - 2].count("\n") + 1) from None
    except RecursionError:
        raise ParseError("not valid YAML: nested too deeply", None) from None


def field_name(path: Path_) -> str:
    """configs[2].tpot_ms.median from ("configs", 2, "tpot_ms", "median")."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
