"""Rows of the big tables, written in Python: a template prints each value through three
calls (its attribute, the check that it prints the same in every build, the escape), about a
microsecond each, and a pair page's table of chart points has over a thousand of them.

So the rows of the big tables are written by their views: a pair page's chart points, history
and runs, a comparison's targets, a model page's GPU x target grid, winners and envelope
points. A table written here is written only here (its template prints the rows whole, on a
line of its own); `text` puts a value in it as the templates' autoescape does, character for
character. tests/test_htmlrows.py checks each against the template loop it replaced.
"""

from __future__ import annotations

from markupsafe import escape

_SPECIAL = ("&", "<", ">", '"', "'")  # what markupsafe.escape replaces


def text(value: object) -> str:
    """`value` as `{{ value }}` prints it in an autoescaped template (str, int or float)."""
    shown = value if isinstance(value, str) else str(value)
    for c in _SPECIAL:
        if c in shown:
            return str(escape(shown))
    return shown


__all__ = ["text"]
