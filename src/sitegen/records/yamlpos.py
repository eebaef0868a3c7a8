"""YAML and JSON reading that remembers the line of every value, for messages.

`parse` reads a run record of one config a line (as importers and bench/scale.py write them)
with json.loads, and any other YAML with the full loader (yaml.load with _Loader): 0.18 ms a
record instead of the full loader's 2.1 ms (bench/yaml_parse.py), some 15 s of CPU of the
2,000-pair site's cold build (8,000 YAML records). tests/test_yamlpos.py holds the line reader
to the full loader's result, value for value and line for line.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml
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


# -- plain words ------------------------------------------------------------------------------


class _Unsure(Exception):
    """The line reader met something it leaves to the full loader."""


_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
# scalars whose value the loader's own constructor gives (a number, a date); merge keys, `=` and
# every other tag are left to the full loader
_CONSTRUCTED = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"}
_MISS = object()
# a loader used for its resolver and constructors alone (the type and value of a plain word)
_RESOLVING = _Loader("")


def _plain(text: str) -> Any:
    """The value of an untagged plain scalar, as yaml.load gives it: typed by _Loader's own
    resolver and constructors."""
    tag = _RESOLVING.resolve(ScalarNode, text, (True, False))
    if tag == _STR:
        return text
    if tag == _NULL:
        return None
    if tag == _BOOL:
        return _RESOLVING.bool_values[text.lower()]
    if tag in _CONSTRUCTED:
        return _RESOLVING.yaml_constructors[tag](_RESOLVING, ScalarNode(tag, text))
    raise _Unsure


# -- records of one config a line ------------------------------------------------------------
#
# What `sitegen import` and bench/scale.py write: a few header lines, then `configs:` and one flow
# mapping a line, `  - {gpus: 8, tp: 8, ttft_ms: {median: 28.4, p99: 71.0}, ...}`. The full
# loader spends most of such a file on those lines, a node per key and value. Lines that all
# match _CONFIG_LINES can be read one way only: plain keys that YAML reads as text; values that
# are one plain token (no space, `:`, `#`, quote or flow indicator), typed below; one-line
# double-quoted text of printable ASCII without escapes, the same text in YAML and JSON;
# mappings of those, one deep. With their keys quoted they are JSON, and json.loads (C) reads
# them. A token of digits that JSON takes is a number in JSON's syntax (no leading zero, `+`,
# `_` or `.5`), which YAML reads as the same int or float: int(text) by YAML 1.1's int pattern,
# float(text) by its float pattern or by _FLOAT_1_2. A token JSON refuses makes the line reader
# give up, but for words (mtp, yes, Null), which are typed by the loader's own resolver and
# written as JSON's text, true, false or null. The header is read alone: line by line where each
# line is blank, a comment or `key: value` of one such token or text (typed as above), else by
# the full loader with the `configs:` line after it. A `configs:` line at column 0 can be
# nothing but a key of the block mapping at column 0 (or an error), and the config lines after
# it are that key's value. Any other shape, and the full loader reads the whole text.

_CONFIGS = "\nconfigs:\n"
# a plain key that YAML reads as text: the keys of these letters it reads otherwise are bool or null
_KEY = r"(?!(?:yes|no|true|false|on|off|null):)[a-z_][a-z0-9_]{0,63}+"
# a number is left to json.loads to take or refuse (see above)
_NUMBER = r"[-0-9][0-9.eE+-]*+"
_TEXT = r'"[ !#-\[\]-~]*+"'  # printable ASCII but `"` and `\`: the same text in YAML and JSON
_WORD = r"[A-Za-z][A-Za-z0-9_./+-]*+"
_VALUE = rf"(?>{_NUMBER}|{_TEXT}|{_WORD})"
_INNER = rf"\{{{_KEY}: {_VALUE}(?:, {_KEY}: {_VALUE})*+\}}"
_ENTRY = rf"{_KEY}: (?:{_VALUE}|{_INNER})"
_CONFIG_LINES = re.compile(rf"(?:  - \{{{_ENTRY}(?:, {_ENTRY})*+\}}\n)++")
# a header line: its value one token (plain: no space, `:`, `#` or quote) or one-line text
_HEADER_ENTRY = re.compile(rf"({_KEY}): ({_TEXT}|[A-Za-z0-9][A-Za-z0-9_./+-]*+)")
_WORD_VALUE = re.compile(rf"(?<=: ){_WORD}(?=[,}}])")


def _one_config_a_line(text: str) -> Any:
    """yaml.load's data of a record of one config a line; _MISS for any other text."""
    at = text.find(_CONFIGS)
    if at < 0:
        return _MISS
    configs = _flow_configs(text[at + len(_CONFIGS) :])
    if configs is None:
        return _MISS
    try:
        head = _plain_header(text[: at + 1])
        if head is None:  # the header and an empty `configs:` key, by the full loader
            head = _parse_full(text[: at + len(_CONFIGS)])
    except Exception:
        return _MISS  # the full loader reads the whole text, and finds out what is wrong
    if type(head) is not dict:
        return _MISS  # a mapping of another type (!!omap, !!set): `configs:` is no key of it
    head["configs"] = configs
    return head


def _plain_header(text: str) -> dict | None:
    """The data of header lines that are all comments, blank or `key: value` with a value of
    one token or double-quoted text, as _CONFIG_LINES reads them (the token typed by the
    loader's resolver); None for any other lines, and for a key written twice or `configs`
    (which the `configs:` line after them would write twice)."""
    head: dict = {}
    for line in text.split("\n")[:-1]:
        if not line or line[0] == "#" and line.isascii() and line.isprintable():
            continue  # blank, or a comment
        entry = _HEADER_ENTRY.fullmatch(line)
        if entry is None:
            return None
        key, value = entry.groups()
        if key in head or key == "configs":
            return None  # the full loader names the key written twice, and its line
        if value[0] == '"':
            head[key] = value[1:-1]
        else:
            head[key] = _plain(value)
    return head


def _flow_configs(lines: str) -> list | None:
    """The configs of `  - {...}` lines that all match _CONFIG_LINES; None for other lines."""
    if _CONFIG_LINES.fullmatch(lines) is None:
        return None
    parts = lines.split('"')  # text holds neither quote nor backslash: every other part is one
    keys = sum(part.count(": ") for part in parts[::2])  # each `: ` outside text ends a key
    try:
        configs = json.loads(_json_text(parts, False), parse_constant=_not_json)
    except ValueError:  # a word JSON does not know (mtp), or NaN and Infinity, which YAML reads
        try:  # as text
            configs = json.loads(_json_text(parts, True), parse_constant=_not_json)
        except (ValueError, _Unsure):
            return None
    if _entries(configs) != keys:
        return None  # a key written twice: the full loader names it and its line
    return configs


def _json_text(parts: list[str], words: bool) -> str:
    """The JSON array of config lines split at their quotes; `words`: plain words quoted."""
    out = parts.copy()
    for i in range(0, len(out), 2):
        part = _WORD_VALUE.sub(_word_json, out[i]) if words else out[i]
        # outside text, each `{` and `, ` comes before a key and each `: ` after one
        part = part.replace("{", '{"').replace(", ", ', "').replace(": ", '": ')
        out[i] = part.replace("\n  - ", ",")
    body = '"'.join(out)
    return "[" + body[4:-1] + "]"  # without the first line's `  - ` and the last newline


def _word_json(match: re.Match) -> str:
    """A plain word as JSON, of the type the loader gives it (text, a boolean, null)."""
    value = _plain(match.group())
    if value is None:
        return "null"
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is not str:
        raise _Unsure
    return f'"{value}"'


def _not_json(constant: str) -> Any:
    """NaN, Infinity: JSON extensions that YAML reads as text."""
    raise ValueError(constant)


def _entries(configs: list) -> int:
    """How many keys the configs (and the mappings in them) hold."""
    count = 0
    for config in configs:
        count += len(config)
        for value in config.values():
            if type(value) is dict:
                count += len(value)
    return count


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
    def __init__(self, message: str, line: int | None, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.field = field  # the top-level field at fault, where one is


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


def _counted_json(text: str) -> Any:
    """json.loads's data of text in which no object holds a key twice; _MISS for any other text
    (or when it cannot tell). Each key is followed by a `:`, and JSON has no other `:` but in
    text: where the objects hold as many keys as the text has `:`, none was written twice. A
    Python call for each object, not for each key as _json_object makes."""
    held = 0

    def count(obj: dict) -> dict:
        nonlocal held
        held += len(obj)
        return obj

    try:
        data = json.loads(text, object_hook=count, parse_int=_json_int)
    except (ValueError, RecursionError):
        return _MISS  # _parse_json words what is wrong
    if held == text.count(":"):
        return data
    if "\\" not in text and held == sum(part.count(":") for part in text.split('"')[::2]):
        return data  # without escapes, every other part between quotes is text: the rest keys
    return _MISS


def _parse_json(text: str) -> Any:
    data = _counted_json(text)
    if data is not _MISS:
        return data
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
    _check_values(text, json_file)
    if json_file:
        return Document(_parse_json(text), text=text)
    data = _one_config_a_line(text)
    if data is _MISS:  # any other shape, or a record the line reader is unsure of
        data = _parse_full(text)
    return Document(data, text=text)


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
    _check_aliases(text, data)  # the line reader reads a header with an alias by this
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


# Values (scalars, lists, mappings; keys too) a file may hold: MAX_VALUES, or a third of its
# characters in a bigger file. A run record holds about one value in 8 characters (the largest
# flagship record 1,200 values; a record of 20,000 configs 500,000 in 3.9 MB), so memory stays a
# bounded multiple of the file's size, where reading values packed tighter would cost hundreds
# of bytes each (the loader's nodes, a line for each value for messages): 575 MB for a million
# integers in a 2 MB file. Counted on YAML's event stream, which holds one value at a time.
MAX_VALUES = 100_000
CHARACTERS_A_VALUE = 3
_VALUE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent)
# each value but the first follows one of these, or a line's start; a key without its value
# makes two values of one: twice their count bounds the values from above
_SEPARATORS = (",", ":", "[", "{", "-", "\n")


def _value_limit(text: str) -> int:
    return max(MAX_VALUES, len(text) // CHARACTERS_A_VALUE)


def _check_values(text: str, json_file: bool) -> None:
    """ParseError at the line (and top-level field) of the first value beyond the limit."""
    limit = _value_limit(text)
    if len(text) * 2 <= limit:
        return  # no value takes less than half a character (`{a,b}`: five values)
    if 2 * (sum(map(text.count, _SEPARATORS)) + 1) <= limit:
        return  # fewer values than that, whatever they are: no need to count them one by one
    try:
        _count_events(text, "JSON" if json_file else "YAML", limit)
    except yaml.YAMLError:
        if not json_file:
            return  # the loader says what is wrong, at a value before the limit
        try:  # JSON that YAML refuses: its values counted once json has read them
            data = json.loads(text)
        except (ValueError, RecursionError):
            return  # _parse_json says what is wrong
        if _count_data(data, limit) > limit:
            raise ParseError(_too_many(limit), None) from None


def _too_many(limit: int) -> str:
    return (
        f"holds more than {limit:,} values, the most a data file of its size may hold "
        f"({MAX_VALUES:,}, or one in {CHARACTERS_A_VALUE} characters)"
    )


# Lists and mappings open at once beyond which Python's parsers give up (its recursion limit)
MAX_DEPTH = 1000


def _count_events(text: str, kind: str, limit: int) -> None:
    count = 0
    field = ""  # the top-level key whose value the events are in
    stack: list[list[int]] = []  # of each open collection: [is a mapping, values in it]
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            continue
        if not isinstance(event, _VALUE_EVENTS):
            continue
        count += 1
        if stack:
            top = stack[-1]
            if len(stack) == 1 and top[0] and top[1] % 2 == 0:
                field = str(event.value) if isinstance(event, yaml.ScalarEvent) else ""
            top[1] += 1
        if count > limit:
            raise ParseError(_too_many(limit), event.start_mark.line + 1, field)
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append([isinstance(event, yaml.MappingStartEvent), 0])
            if len(stack) > MAX_DEPTH:  # as the loaders word it, before they build it all
                raise ParseError(f"not valid {kind}: nested too deeply", None)


def _count_data(data: Any, limit: int) -> int:
    count, todo = 0, [data]
    while todo and count <= limit:
        value = todo.pop()
        count += 1
        if isinstance(value, dict):
            count += len(value)
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    return count


def field_name(path: Path_) -> str:
    """configs[2].tpot_ms.median from ("configs", 2, "tpot_ms", "median")."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
