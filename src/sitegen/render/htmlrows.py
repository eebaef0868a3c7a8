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

from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from .display import engine_name, joules, millions, power_source, precision_name

if TYPE_CHECKING:
    from ..calc.energy import Energy

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


def energy_cell(power: Energy | None, reached: bool) -> Markup:
    """The energy cell of a ladder's rung or an overview board's row (the theme's macro
    `energy_cell` in _ladder.html prints this): its figures, or why it has none."""
    if not reached:
        return Markup('<td class="num energy">-</td>')
    if power is None:
        return Markup('<td class="num energy"><span class="reason">no power known</span></td>')
    return Markup(
        f'<td class="num energy">{joules(power.joules_per_token)}<br>'
        f'<span class="engine">{millions(power.tokens_per_kwh)} tokens/kWh, '
        f"{power_source(power.power)}</span></td>"
    )


def html(template: str, *values: object) -> Markup:
    """Markup(template).format(*values), without markupsafe's formatter (a Python loop per
    field): each value escaped, markup (a drawn chart, a sentence made here) as it is; `{}`
    fields only."""
    shown = [v.__html__() if hasattr(v, "__html__") else escape(v) for v in values]
    return Markup(template.format(*shown))


__all__ = ["energy_cell", "engine_precision", "escaped", "html"]
