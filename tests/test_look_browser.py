"""The theme in Chromium: dark mode follows the system, the header's button overrides it and
is remembered, a phone of 320 px never scrolls sideways, print hides the navigation."""

from __future__ import annotations

from pathlib import Path

import pytest

PAIR = "models/m1/g1/index.html"
PAGES = [PAIR, "index.html", "models/m1/index.html", "compare/g1-vs-g2/m1/index.html"]


@pytest.fixture(scope="module")
def public(arena_public) -> Path:
    return arena_public


def background(tab) -> str:
    return tab.evaluate("getComputedStyle(document.body).backgroundColor")


LIGHT, DARK = "rgb(255, 255, 255)", "rgb(13, 17, 23)"


def test_dark_mode_follows_the_system(browser, public):
    for scheme, colour in (("light", LIGHT), ("dark", DARK)):
        context = browser.new_context(color_scheme=scheme)
        tab = context.new_page()
        tab.goto((public / PAIR).as_uri())
        assert background(tab) == colour
        button = tab.locator("#theme-toggle")
        assert button.is_visible()
        assert button.get_attribute("aria-pressed") == ("true" if scheme == "dark" else "false")
        context.close()


def test_the_toggle_overrides_the_system_and_is_remembered(browser, public):
    context = browser.new_context(color_scheme="light")
    tab = context.new_page()
    tab.goto((public / PAIR).as_uri())
    tab.locator("#theme-toggle").click()
    assert background(tab) == DARK
    assert tab.locator("#theme-toggle").get_attribute("aria-pressed") == "true"
    tab.goto((public / "index.html").as_uri())  # another page, the same choice
    assert background(tab) == DARK
    tab.locator("#theme-toggle").click()
    tab.reload()
    assert background(tab) == LIGHT
    context.close()


def test_a_320_px_phone_never_scrolls_sideways(browser, public):
    context = browser.new_context(viewport={"width": 320, "height": 700})
    tab = context.new_page()
    for page in PAGES:
        tab.goto((public / page).as_uri())
        overflow = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, page
    context.close()


def test_print_hides_the_navigation_and_prints_light(browser, public):
    context = browser.new_context(color_scheme="dark")
    tab = context.new_page()
    tab.goto((public / PAIR).as_uri())
    tab.emulate_media(media="print")
    for selector in (".site-header nav", ".crumbs", "#theme-toggle", ".site-footer"):
        assert not tab.locator(selector).is_visible(), selector
    assert background(tab) == LIGHT
    assert (
        tab.locator("table.numbers").first.evaluate("t => getComputedStyle(t).breakInside")
        == "avoid"
    )
    context.close()
