"""YAML and JSON reading that remembers the line of every value, for messages."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import yaml

Path_ = tuple[str | int, ...]


# libyaml's parser when PyYAML was built with it: several times faster on large sites
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """SafeLoader whose mappings refuse duplicate keys (a silent overwrite hides data)."""


class DuplicateKeyError(yaml.MarkedYAMLError):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict:
    loader.flatten_mapping(node)
    seen: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise DuplicateKeyError(
                problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark
            )
        seen[key] = loader.construct_object(value_node, deep=deep)
    return seen


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


@dataclass
class Document:
    """A parsed file: its data and the 1-based line of each value, keyed by its path."""

    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Path_) -> int | None:
        """The line of `path`, or of its nearest ancestor that has one."""
        while True:
            if path in self.lines:
                return self.lines[path]
            if not path:
                return None
            path = path[:-1]


class ParseError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _walk(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            _walk(value_node, path + (key,), lines)
            # a field's line is its key's, where a reader looks for it
            lines[path + (key,)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, path + (i,), lines)


def _compose_and_construct(text: str) -> tuple[yaml.Node | None, Any]:
    """One pass of the parser gives both the node tree (for lines) and the data."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def parse(text: str, *, json_file: bool = False) -> Document:
    """Parse YAML (or JSON) text into a Document; raise ParseError with the line on failure."""
    if json_file:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ParseError(f"not valid JSON: {exc.msg}", exc.lineno) from None
    try:
        node, constructed = _compose_and_construct(text)
        if not json_file:
            data = constructed
    except yaml.MarkedYAMLError as exc:
        if json_file:  # JSON that YAML cannot read: keep the data, lose the lines
            return Document(data)
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise ParseError(f"not valid YAML: {exc.problem}", line) from None
    except yaml.YAMLError as exc:
        if json_file:
            return Document(data)
        raise ParseError(f"not valid YAML: {exc}", None) from None
    lines: dict[Path_, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return Document(data, lines)


def field_name(path: Path_) -> str:
    """configs[2].tpot_ms.median from ("configs", 2, "tpot_ms", "median")."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
