"""Table rows written in Python print exactly what the templates' loops printed."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from conftest import REPO
from sitegen.render.display import dollars, latency, rate, ratio, tokens
from sitegen.render.environment import environment
from sitegen.render.htmlrows import escaped, html


@dataclass(frozen=True)
class _Page:
    route: str
    filename: str = "index.html"


def _jinja(source: str, **values) -> str:
    env = environment(REPO)
    return env.from_string(source).render(**values)


@pytest.mark.parametrize(
    "value", ["plain", "a & b", "<b>", 'it\'s "quoted"', "", 128, 0, -3, 2.5, "TP4 × DP2"]
)
def test_text_prints_a_value_as_autoescape_does(value):
    assert escaped(value) == _jinja("{{ v }}", v=value)


@settings(max_examples=300)
@given(
    st.one_of(
        st.none(), st.floats(allow_nan=True, allow_infinity=False), st.integers(-(10**9), 10**9)
    )
)
def test_figures_as_display_writes_them_hold_nothing_to_escape(value):
    """Rows print display.py's figures as they are: none holds a character escape replaces."""
    for shown in (rate, tokens, latency, dollars, ratio):
        try:
            figure = shown(value)
        except (ValueError, OverflowError):  # outside what a figure can be (log of <= 0)
            continue
        assert escaped(figure) == figure


@pytest.mark.parametrize(
    "values",
    [("a & b", 3), (Markup("<b>x</b>"), "<i>"), ("", 2.5), ("it's", Markup("&amp;"))],
)
def test_html_formats_as_markup_does(values):
    template = "{} <strong>then</strong> {}."
    assert html(template, *values) == Markup(template).format(*values)
    assert isinstance(html(template, *values), Markup)
