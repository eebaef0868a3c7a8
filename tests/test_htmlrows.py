"""Table rows written in Python print exactly what the templates' loops printed."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from conftest import REPO
from sitegen.calc.tables import summarise
from sitegen.records import Gpu, Problems, load_site
from sitegen.render.content import load_content
from sitegen.render.display import dollars, latency, rate, ratio, tokens
from sitegen.render.environment import environment
from sitegen.render.htmlrows import escaped, html
from sitegen.views import Keys, Sources, plan_jobs
from sitegen.views.overview import board_rows_html


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


# -- every table written in Python against the template loop it replaced, on real sites --------

LOOPS = REPO / "tests" / "fixtures" / "template_loops"  # the loops, as the templates had them


@pytest.fixture(scope="module", params=["arena", "flagship"])
def site_views(request):
    """A site's Sources and the views of its overview, pair, comparison and model pages."""
    root = request.getfixturevalue("arena" if request.param == "arena" else "flagship_files")[0]
    site, _ = load_site(root)
    content = load_content(root, site.models, site.gpus, Problems(), {r.id for r in site.runs})
    src = Sources(site, summarise(site), content)
    jobs = plan_jobs(src, Keys(src, environment(root), sorted(content.pages)))
    pages = [
        p
        for j in jobs
        if j.name.split()[0] in ("overview", "pair", "compare", "model")
        for p in j.make(src)[0]
    ]
    return src, pages


def _loop(name: str, page, **values) -> str:
    """What the template's loop printed: the rows, each line ending in a newline."""
    env = environment(REPO)
    return env.from_string((LOOPS / f"{name}.html").read_text()).render(page=page, **values)


def _printed(rows) -> str:
    return f"{rows}\n"  # the template prints the rows on a line of their own


@pytest.mark.parametrize(
    "values",
    [("a & b", 3), (Markup("<b>x</b>"), "<i>"), ("", 2.5), ("it's", Markup("&amp;"))],
)
def test_html_formats_as_markup_does(values):
    template = "{} <strong>then</strong> {}."
    assert html(template, *values) == Markup(template).format(*values)
    assert isinstance(html(template, *values), Markup)


def _overview(site_views):
    src, pages = site_views
    (page,) = [p for p in pages if p.template == "index.html"]
    return src, page


def test_the_overviews_board_rows_are_the_templates_loop(site_views):
    src, page = _overview(site_views)
    boards = [b for s in page.view.sections for b in s.boards]
    assert boards
    for board in boards:
        expected = _loop("board", page, board=board, tier=src.tier)
        assert _printed(board.rows_html) == expected, board.model.slug


def test_board_rows_without_price_power_or_reach_are_the_templates_loop(site_views):
    src, page = _overview(site_views)
    board = page.view.sections[0].boards[0]
    first = board.rows[0]
    head = first.headline
    gpu = Gpu("g-x", 'GPU <b> & "co"', "Vendor")
    rows = [
        dataclasses.replace(first, gpu=gpu, headline=dataclasses.replace(head, energy=None)),
        dataclasses.replace(
            first, index=7, headline=dataclasses.replace(head, cost_per_million_tokens=None)
        ),
        dataclasses.replace(
            first,
            index=8,
            rank=None,
            headline=dataclasses.replace(head, throughput_per_gpu=None, engine=None),
        ),
    ]
    made = dataclasses.replace(board, rows=tuple(rows), rows_html=board_rows_html(rows, src.tier))
    expected = _loop("board", page, board=made, tier=src.tier)
    assert _printed(made.rows_html) == expected
    for seen in ("no power known", "no price", "not reached", "&lt;b&gt; &amp; &#34;co&#34;"):
        assert seen in expected
