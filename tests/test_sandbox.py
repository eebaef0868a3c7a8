"""The placeholders' sandbox: immutable, and bounded in steps, time, values and output."""

from __future__ import annotations

import time

import jinja2
import pytest

from sitegen.render.display import FILTERS
from sitegen.render.reproducible import NotReproducible
from sitegen.render.sandbox import MAX_SECONDS, LimitExceeded, Sandbox

CONTEXT = {
    "headline": {"costs": {"owning": 1.0}, "throughput_per_gpu": 12926.0},
    "ladder": [
        {"target": 10, "throughput_per_gpu": 900.0},
        {"target": 20, "throughput_per_gpu": 1000.0},
    ],
    "name": "Kimi",
}


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    return Sandbox(dict(FILTERS))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{{ (headline.throughput_per_gpu * 3600 / 1000000) | round(1) }}", "46.5"),
        ("{{ headline.throughput_per_gpu | tokens }}", "12,926"),
        (
            "{% for r in ladder %}{{ r.target }}:{{ r.throughput_per_gpu | tokens }} {% endfor %}",
            "10:900 20:1,000 ",
        ),
        ("{{ ladder | map(attribute='target') | join(', ') }}", "10, 20"),
        ("{{ name | upper }} {{ name.lower() }} {{ name | replace('i', 'I') }}", "KIMI kimi KImI"),
        ("{{ '%.1f' | format(2.25) }} {{ '%d%%' % 5 }}", "2.2 5%"),
        ("{{ ladder | length }} {{ ladder | first | dictsort | first | first }}", "2 target"),
        ("{% for i in range(3) %}{{ loop.index }}{% endfor %}", "123"),
        ("{{ headline.costs.items() | list }}", "[('owning', 1.0)]"),
        (
            "{{ ladder | tojson }}",
            '[{"target": 10, "throughput_per_gpu": 900.0}, '
            '{"target": 20, "throughput_per_gpu": 1000.0}]',
        ),
    ],
)
def test_what_copy_does_still_works(sandbox: Sandbox, text: str, expected: str) -> None:
    assert sandbox.render(text, CONTEXT) == expected


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            '{{ headline.costs.update(owning=0) or "" }}',
            jinja2.exceptions.SecurityError,
            "'update'",
        ),
        ("{% set _ = ladder.append(1) %}", jinja2.exceptions.SecurityError, "'append'"),
        ("{{ ladder.__class__ }}", jinja2.exceptions.SecurityError, "__class__"),
        (
            "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}",
            LimitExceeded,
            "100,000 steps",
        ),
        ('{{ "x" * 200000000 }}', LimitExceeded, "200,000,000"),
        ("{{ [1] * 200000000 }}", LimitExceeded, "200,000,000"),
        ("{{ 7 ** 100000 }}", LimitExceeded, "bits"),
        ("{{ range(10**9) }}", LimitExceeded, "range"),
        ('{{ "ab" | replace("", "x" * 99999) }}', LimitExceeded, "would make"),
        ('{{ range(10000) | map("string") | join("x" * 99999) }}', LimitExceeded, "would make"),
        ('{{ "%*d" % (10**9, 1) }}', LimitExceeded, "width"),
        ('{{ "x".center(10**9) }}', jinja2.exceptions.SecurityError, "'center'"),
        ('{{ "{:>999999999}".format(1) }}', jinja2.exceptions.SecurityError, "'format'"),
        ('{{ "x"["ljust"](10**9) }}', jinja2.exceptions.SecurityError, "'ljust'"),
        ("{{ 'x' | center(10**9) }}", jinja2.TemplateAssertionError, "center"),
        ("{{ [1] | batch(10**9, 0) | list }}", jinja2.TemplateAssertionError, "batch"),
        ("{{ lipsum(10**6) }}", jinja2.UndefinedError, "lipsum"),
        ("{{ range }}", NotReproducible, "prints an object"),
        ('{{ "" ~ range }}', NotReproducible, "memory address"),
        ("{{ ladder | map('upper') }}", NotReproducible, "prints an object"),
        ('{% include "x.html" %}', jinja2.TemplateSyntaxError, "{% include %}"),
    ],
)
def test_what_copy_cannot_do(sandbox: Sandbox, text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=None) as info:
        sandbox.render(text, CONTEXT)
    assert message in str(info.value)
    assert CONTEXT["headline"]["costs"] == {"owning": 1.0} and len(CONTEXT["ladder"]) == 2


def test_output_and_values_made_are_bounded(sandbox: Sandbox) -> None:
    with pytest.raises(LimitExceeded, match="wrote more than 1,000,000"):
        sandbox.render('{% for i in range(10000) %}{{ "y" * 90000 }}{% endfor %}', {})
    with pytest.raises(LimitExceeded, match="made a value of 131,072"):
        sandbox.render(
            '{% set ns = namespace(s="x") %}{% for i in range(64) %}'
            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
            {},
        )


def test_time_is_bounded_and_a_text_over_a_limit_is_not_run_again(sandbox: Sandbox) -> None:
    text = (
        "line one\n{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}"
        "{% endmacro %}\n{{ f(60) }}"
    )
    started = time.monotonic()
    with pytest.raises(LimitExceeded, match="stopped after") as first:
        sandbox.render(text, {})
    assert time.monotonic() - started < MAX_SECONDS + 1
    assert first.value.line == 2  # where the macro that runs away is
    started = time.monotonic()
    with pytest.raises(LimitExceeded) as again:
        sandbox.render(text, {})
    assert time.monotonic() - started < 0.1
    assert (str(again.value), again.value.line) == (str(first.value), 2)


def test_limits_hold_in_any_thread(sandbox: Sandbox) -> None:
    import threading

    caught: list[BaseException] = []

    def run() -> None:
        try:
            sandbox.render(
                "{% for a in range(10000) %}{% for b in range(99) %}{% endfor %}{% endfor %}", {}
            )
        except LimitExceeded as exc:
            caught.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    assert len(caught) == 1


def test_the_clock_stops_a_render_that_stays_under_the_step_limit(sandbox, monkeypatch) -> None:
    from sitegen.render import sandbox as module

    monkeypatch.setattr(module, "MAX_SECONDS", 0.001)
    slow = "{% for i in range(5000) %}{{ (i ~ '') | length }}{% endfor %}"
    with pytest.raises(LimitExceeded, match="stopped after 0.001 s"):
        sandbox.render(slow, {})
