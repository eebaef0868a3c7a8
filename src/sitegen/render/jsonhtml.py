"""JSON placed inside HTML: the one helper for <script> elements and attributes.

Inside `<script type="application/ld+json">` the HTML parser does not read JSON: a `</script>`
ends the element and `<!--<script>` makes it swallow the rest of the page. Escaping `<`, `>`
and `&` (as Django's json_script does), and `'` (so a single-quoted attribute holds it too),
as `\\u003c` `\\u003e` `\\u0026` `\\u0027` keeps the same JSON value with none of those
characters in the markup.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

from markupsafe import Markup

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", ord("'"): "\\u0027"}


def json_for_html(data: Any, indent: int | None = None, **_: Any) -> Markup:
    """`data` as JSON that is safe inside a <script> element or a single-quoted attribute.

    Also the `tojson` filter of every Jinja environment (its keyword arguments are ignored).
    """
    if indent is None:
        text = json.dumps(data, ensure_ascii=False, sort_keys=False, default=str)
    else:
        out: list[str] = []
        _indented(data, "\n", " " * indent, out)
        text = "".join(out)
    return written_for_html(text)


def written_for_html(text: str) -> Markup:
    """JSON text (as json_for_html writes it) made safe as json_for_html makes its own."""
    return Markup(text.translate(_ESCAPES))


def json_scalar(value: Any) -> str | None:
    """A JSON scalar as json.dumps writes it (ensure_ascii off), or None for anything else
    (json's own encoder costs a microsecond or two a call, on one value)."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    return None


def _indented(value: Any, newline: str, indent: str, out: list[str]) -> None:
    """`value` as json.dumps(value, ensure_ascii=False, indent=..., default=str) writes it,
    into `out`: the same text, without the pure-Python encoder's generators (an indent keeps
    json from its C encoder; a page's structured data is written on every page).
    `newline` is a newline and the indentation of the current level."""
    if type(value) is str:  # most values: no other test needed
        out.append(encode_basestring(value))
        return
    scalar = json_scalar(value)
    if scalar is not None:
        out.append(scalar)
        return
    inner = newline + indent
    if isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        out.append("[")
        for i, item in enumerate(value):
            out.append(inner if i == 0 else "," + inner)
            _indented(item, inner, indent, out)
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("{")
        for i, (key, item) in enumerate(value.items()):
            out.append(inner if i == 0 else "," + inner)
            out.append((encode_basestring(key) if type(key) is str else _key(key)) + ": ")
            _indented(item, inner, indent, out)
        out.append(newline + "}")
    else:  # json's `default`: the value's text, as a string
        _indented(str(value), newline, indent, out)


def _key(key: Any) -> str:
    """A dict key as json writes it: a string, or a scalar's JSON text made one."""
    if isinstance(key, str):
        return encode_basestring(key)
    scalar = json_scalar(key)
    if scalar is None:
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
    return encode_basestring(scalar)
