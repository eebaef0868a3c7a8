"""render_page pauses the cyclic collector while a template runs, and always resumes it."""

from __future__ import annotations

import gc

import jinja2
import pytest

from sitegen.render import render_page
from sitegen.views import Page


def _env(source: str) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.DictLoader({"t.html": source}))


def test_the_collector_is_paused_during_a_render_and_resumed_after():
    seen = []
    env = _env("{{ probe() }}")
    env.globals["probe"] = lambda: seen.append(gc.isenabled()) or "x"
    assert render_page(env, Page("", "t.html", "T"), {}) == "x"
    assert seen == [False]
    assert gc.isenabled()


def test_a_failing_template_resumes_the_collector():
    env = _env("{{ 1 // 0 }}")
    with pytest.raises(ZeroDivisionError):
        render_page(env, Page("", "t.html", "T"), {})
    assert gc.isenabled()


def test_a_collector_switched_off_stays_off():
    env = _env("ok")
    gc.disable()
    try:
        render_page(env, Page("", "t.html", "T"), {})
        assert not gc.isenabled()
    finally:
        gc.enable()
