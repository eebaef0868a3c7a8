"""Which URLs may become links: http(s) to elsewhere, nothing that runs or breaks an attribute."""

from __future__ import annotations

import pytest

from sitegen.records.urls import (
    base_url_problem,
    link_problem,
    markdown_image_problem,
    markdown_link_problem,
    scheme,
)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/",
        "http://example.org:8080/runs/1?x=1&y=2#top",
        "https://example.org/O'Brien",
        "https://[::1]:8000/",
        "https://exämple.org/ü",
    ],
)
def test_web_links_are_fine(url: str) -> None:
    assert link_problem(url) == ""


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("javascript:alert(1)", "starts with http:// or https://"),
        (" javascript:alert(1)", "space"),
        ("java\tscript:alert(1)", "control character (U+0009)"),
        ("https://example.org/\u2028", "U+2028"),
        ("https://example.org/\u200b", "U+200B"),
        ('https://example.org/"x', "a '\"'"),
        ("https://example.org/<x>", "a '<'"),
        ("https://example.org\\@evil", "a '\\\\'"),
        ("https://example.org:port/", "cannot be read as a URL"),
        ("https:///path", "naming a host"),
        ("mailto:x@example.org", "starts with http:// or https://"),
        ("ftp://example.org/", "starts with http:// or https://"),
        ("runs/one/", "starts with http:// or https://"),
    ],
)
def test_other_links_are_refused_with_a_reason(url: str, why: str) -> None:
    assert why in link_problem(url)


def test_base_url_is_stricter_than_a_link() -> None:
    assert base_url_problem("https://example.org/leaderboard/") == ""
    assert "quotes" in base_url_problem("https://example.org/O'Brien/")
    assert "query" in base_url_problem("https://example.org/?")
    assert "fragment" in base_url_problem("https://example.org/#x")
    assert "user name" in base_url_problem("https://me@example.org/")
    assert base_url_problem("ftp://example.org/").startswith("an absolute http(s) URL")


@pytest.mark.parametrize(
    ("url", "found"),
    [
        ("javascript:x", "javascript"),
        ("JAVASCRIPT:x", "javascript"),
        ("\x01 java\nscript:x", "javascript"),
        ("../g2/", None),
        ("#faq", None),
        ("java%09script:x", None),  # a relative path to a browser too
        ("a/b:c", None),
    ],
)
def test_scheme_is_read_as_a_browser_reads_it(url: str, found: str | None) -> None:
    assert scheme(url) == found


def test_markdown_links_and_images() -> None:
    for fine in ("../x/", "#a", "https://e.org/", "mailto:x@e.org", "x.html"):
        assert markdown_link_problem(fine) == ""
    for bad in ("javascript:x", "data:text/html,x", "vbscript:x", "file:///etc/passwd"):
        assert markdown_link_problem(bad)
    assert markdown_image_problem("assets/chart.png") == ""
    assert markdown_image_problem("data:image/png;base64,AAAA") == ""
    assert markdown_image_problem("https://tracker.example/p.gif")
    assert markdown_image_problem("data:image/svg+xml;base64,AAAA")
