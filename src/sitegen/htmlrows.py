"""Rows of the big tables, written in Python: a template prints each value through three
calls (its attribute, the check that it prints the same in every build, the escape), about a
microsecond each, and a pair page's table of chart points has over a thousand of them.

So the rows of the big tables are written by their views: a pair page's chart points, history
and runs, a comparison's targets, a model page's GPU x target grid, winners and envelope
points, the overview's boards. A table written here is written only here (its template prints
the rows whole, on a line of its own); `escaped` puts a value in it as the templates'
autoescape does, character for character. tests/test_htmlrows.py checks each against the
template loop it replaced.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from .display import engine_name, precision_name

_SPECIAL = ("&", "<", ">", '"', "'")  # what markupsafe.escape replaces


def needs_escape(text: str) -> bool:
    """Whether the templates' autoescape would change `text` (so a table of text for which
    this is false can be written as it is)."""
    return any(c in text for c in _SPECIAL)


def escaped(value: object) -> str:
    """`value` as `{{ value }}` prints it in an autoescaped template (str, int or float)."""
    shown = value if isinstance(value, str) else str(value)
    for c in _SPECIAL:
        if c in shown:
            return str(escape(shown))
    return shown


def engine_precision(engine: str | None, precision: str | None) -> str:
    """`{{ engine | engine_name }} {{ precision | precision_name }}`, as a template prints it."""
    return f"{escaped(engine_name(engine))} {escaped(precision_name(precision))}"


def html(template: str, *values: object) -> Markup:
    """Markup(template).format(*values), without markupsafe's formatter (a Python loop per
    field): each value escaped, markup (a drawn chart, a sentence made here) as it is; `{}`
    fields only."""
    shown = [v.__html__() if hasattr(v, "__html__") else escape(v) for v in values]
    return Markup(template.format(*shown))


__all__ = ["engine_precision", "escaped", "html"]
