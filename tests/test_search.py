"""Site search: `sitegen build` puts Pagefind's index of the sitemap's pages in pagefind/, every
page has a search box that finds it at any depth under the site's path, `search: false` turns
both off, the index is the same bytes for the same pages and made again when one changes (the
preview's too, in Chromium as well), and a reader types a model's name and follows the
result to its page."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

from conftest import SITE_CONFIG, config, static_server, sweep
from sitegen.pipeline.build import build, render_site
from sitegen.records import SiteError
from sitegen.serve.rebuild import Rebuilder
from sitegen.serve.state import SiteState

BASE = SITE_CONFIG["base_url"]  # https://example.org/board/: served under /board/
HOSTILE = "Zephyrine <i>Nine</i>"  # a name is text: never markup in the results
RUNS = {
    "lab/m1-g1.yaml": sweep(),
    "lab/m2-g2.yaml": sweep(model="m2", gpu="g2"),
}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def sitemap_routes(sitemap: bytes) -> list[str]:
    """The pages sitemap.xml lists, as paths under the site's base_url."""
    locs = re.findall(r"<loc>([^<]*)</loc>", sitemap.decode())
    return sorted(loc.removeprefix(BASE) for loc in locs)


def fragments(files: dict[str, bytes]) -> list[dict]:
    """Pagefind's record of each page it indexed: its fragment files, gzip with a marker."""
    out = []
    for name, data in files.items():
        if name.startswith("pagefind/fragment/"):
            raw = gzip.decompress(data)
            assert raw.startswith(b"pagefind_dcd")
            out.append(json.loads(raw.removeprefix(b"pagefind_dcd")))
    return out


def search_box(html: str) -> dict[str, str] | None:
    """The header's search box's attributes, or None."""
    found = re.search(r'<div class="site-search"([^>]*)>', html)
    if found is None:
        return None
    return dict(re.findall(r'([a-z-]+)="([^"]*)"', found.group(1)))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """A small site built by `sitegen build` into public/. Read only."""
    root = tmp_path_factory.mktemp("search") / "site"
    write_site(root, SITE_CONFIG)
    build(root)
    return root, tree(root / "public")


def write_site(root: Path, site_config: dict) -> Path:
    files = {
        "sitegen.yaml": site_config,
        "data/models.yaml": {"m1": {"name": "Model One"}, "m2": {"name": HOSTILE}},
        "data/gpus.yaml": {"g1": {"name": "GPU One"}, "g2": {"name": "GPU Two"}},
        "data/workloads.yaml": {"chat": {"name": "Chat"}},
        "data/pricing.yaml": {
            "source": "Test TCO",
            "as_of": "2026-07",
            "tiers": {"owning": {"label": "Owning"}},
            "prices": {"g1": {"owning": 2.0}},
        },
        **{f"data/runs/{name}": record for name, record in RUNS.items()},
    }
    for name, value in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")
    return root


# the pages a reader searches for: the overview, the changes page, pair, model, GPU and GPU pair
# pages and content pages (not run reports, per-model comparisons, workload pages nor embeds)
FOUND = re.compile(r"(|changes/|models/[^/]+/([^/]+/)?|gpus/[^/]+/|compare/[^/]+-vs-[^/]+/)")


def test_the_index_holds_the_pages_readers_look_for_and_no_other(built):
    _, files = built
    entry = json.loads(files["pagefind/pagefind-entry.json"])
    pages = [p for p in sitemap_routes(files["sitemap.xml"]) if FOUND.fullmatch(p)]
    assert "models/m1/g1/" in pages and "gpus/g1/" in pages and "compare/g1-vs-g2/" not in pages
    assert [p for p in sitemap_routes(files["sitemap.xml"]) if p.startswith("runs/")]
    assert sum(language["page_count"] for language in entry["languages"].values()) == len(pages)
    for name in ("pagefind.js", "pagefind-ui.js", "pagefind-ui.css", "pagefind-worker.js"):
        assert files[f"pagefind/{name}"]
    urls = sorted(f["url"] for f in fragments(files))
    assert urls == sorted("/" + p for p in pages)  # from the site's root; search.js adds its path
    assert "/404.html" not in urls


def test_a_result_has_the_page_title_and_its_heading_without_figures(built):
    _, files = built
    html = files["models/m2/index.html"].decode()
    title = unescape(re.search(r"<title>(.*?)</title>", html).group(1))
    page_title = title.removesuffix(f" · {SITE_CONFIG['title']}")
    (record,) = [f for f in fragments(files) if f["url"] == "/models/m2/"]
    assert record["meta"]["title"] == page_title and HOSTILE in page_title
    assert HOSTILE in record["content"]
    for other in fragments(files):  # the header's, footer's and figures' words are nowhere
        assert "tokens/s" not in other["content"]
        assert "Built with sitegen" not in other["content"]
        assert "Skip to the content" not in other["content"]


def test_every_page_has_a_hidden_box_that_finds_the_bundle_under_the_site_path(built):
    _, files = built
    pages = [name for name in files if name.endswith(".html")]
    assert "404.html" in pages and len(pages) > 5
    for name in pages:
        html = files[name].decode()
        box = search_box(html)
        if name.startswith("embed/"):  # a frame in another site's page: no header, no box
            assert box is None
            continue
        assert box is not None and "hidden" in html[html.index('class="site-search"') :][:200]
        # where a host serves the page: a folder's index.html at the folder's address; the 404
        # page at any address (its links start at the site's path)
        where = BASE + (name.removesuffix("index.html") if name != "404.html" else "a/b/c")
        assert urlsplit(urljoin(where, box["data-bundle"])).path == "/board/pagefind/", name
        assert urlsplit(urljoin(where, box["data-root"])).path == "/board/", name
        scripts = re.findall(r'<script src="([^"]*)"', html)
        assert any(urljoin(where, s) == BASE + "pagefind/pagefind-ui.js" for s in scripts)
        assert any(urljoin(where, s) == BASE + "assets/search.js" for s in scripts)
        # what is indexed: a page's heading, names only, so that new figures keep the index
        if name in ("index.html", "models/m1/index.html", "models/m1/g1/index.html"):
            assert "data-pagefind-body" in re.search(r"<h1[^>]*>", html).group(0)
    assert "assets/search.js" in files


def test_search_false_makes_no_index_and_no_box(tmp_path):
    root = write_site(tmp_path / "site", {**SITE_CONFIG, "search": False})
    build(root)
    files = tree(root / "public")
    assert not any(name.startswith("pagefind/") for name in files)
    for name, data in files.items():
        if name.endswith(".html"):
            assert b"site-search" not in data and b"pagefind" not in data, name


def test_search_must_be_true_or_false(tmp_path):
    root = write_site(tmp_path / "site", {**SITE_CONFIG, "search": "no"})
    with pytest.raises(SiteError) as failed:
        build(root)
    assert any(p.field == "search" and p.file == "sitegen.yaml" for p in failed.value.problems)


def test_no_page_of_the_editors_takes_the_index_folder(tmp_path):
    root = write_site(tmp_path / "site", SITE_CONFIG)
    (root / "content").mkdir()
    (root / "content/pagefind.md").write_text("# Our own search\n", encoding="utf-8")
    with pytest.raises(SiteError) as failed:
        build(root)
    assert any("'pagefind' is reserved" in p.message for p in failed.value.problems)


def test_the_same_pages_give_the_same_index_bytes(built, tmp_path):
    root, files = built
    build(root, tmp_path / "again", use_cache=False)
    again = tree(tmp_path / "again")
    index = {name: data for name, data in files.items() if name.startswith("pagefind/")}
    assert index and {name: again[name] for name in index} == index
    assert again == files


def not_called(*args: object) -> None:
    raise AssertionError("the index was made again")


def rename(root: Path, name: str) -> None:
    """Give model m2 another name in data/models.yaml."""
    path = root / "data/models.yaml"
    models = yaml.safe_load(path.read_text())
    models["m2"]["name"] = name
    path.write_text(yaml.safe_dump(models))


def test_the_index_is_kept_until_a_name_changes_then_made_anew(tmp_path, monkeypatch):
    root = write_site(tmp_path / "site", SITE_CONFIG)
    build(root)
    before = tree(root / "public")
    assert build(root).rewritten == ()  # nothing changed: nothing written, the index kept
    # a build with work that makes no page again keeps the index as it is, not made again
    entry = root / "public/pagefind/pagefind-entry.json"
    stamp = (entry.stat().st_ino, entry.stat().st_mtime_ns)
    (root / "public/robots.txt").unlink()
    with monkeypatch.context() as patched:
        patched.setattr("sitegen.pipeline.search.search_files", not_called)
        assert build(root).rewritten == ("robots.txt",)
    assert (entry.stat().st_ino, entry.stat().st_mtime_ns) == stamp
    # new figures change pages, not what is indexed of them (their headings): the index stays
    edited = sweep(model="m2", gpu="g2", configs=[config(8, 64, 4321.0, 100.0)])
    (root / "data/runs/lab/m2-g2.yaml").write_text(yaml.safe_dump(edited))
    with monkeypatch.context() as patched:
        patched.setattr("sitegen.pipeline.search.search_files", not_called)
        result = build(root)
    assert "models/m2/g2/index.html" in result.rewritten
    assert not any(name.startswith("pagefind/") for name in result.rewritten)
    build(root, tmp_path / "fresh", use_cache=False)  # as a build from nothing makes it
    assert tree(root / "public") == tree(tmp_path / "fresh")
    # a new name changes what is indexed: the index is made anew
    rename(root, "Model Renamed")
    result = build(root)
    after = tree(root / "public")
    changed = {name for name in after if before.get(name) != after[name]}
    assert any(name.startswith("pagefind/fragment/") for name in changed)
    build(root, tmp_path / "fresh2", use_cache=False)
    assert after == tree(tmp_path / "fresh2")
    assert any("Model Renamed" in f["content"] for f in fragments(after))


def test_the_preview_serves_the_index_and_makes_it_again_after_an_edit(tmp_path):
    root = write_site(tmp_path / "site", SITE_CONFIG)
    rebuilder = Rebuilder(root, SiteState())
    first = rebuilder.build_now().snapshot.files
    assert "pagefind/pagefind-entry.json" in first
    assert first == render_site(root, use_cache=False)[0]
    rename(root, "Model Renamed")
    again = rebuilder.build_now({"data/models.yaml"}).snapshot.files
    assert again == render_site(root, use_cache=False)[0]
    assert any("Model Renamed" in f["content"] for f in fragments(again))


def test_without_pagefind_the_build_says_how_to_go_on(tmp_path, monkeypatch):
    root = write_site(tmp_path / "site", SITE_CONFIG)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "no-such-pagefind"))
    with pytest.raises(SiteError) as failed:
        build(root)
    (problem,) = failed.value.problems
    assert problem.field == "search" and "search: false" in problem.message
    assert not (root / "public").exists()


# In Chromium, served under the site's path ------------------------------------------------


@pytest.fixture(scope="module")
def served(built, tmp_path_factory) -> Iterator[str]:
    """The built site over HTTP at /board/, as a host serves a site under a path."""
    root, _ = built
    top = tmp_path_factory.mktemp("host")
    (top / "board").symlink_to(root / "public", target_is_directory=True)
    with static_server(top) as address:
        yield f"{address}board/"


def test_a_reader_finds_a_model_and_follows_the_result(browser, served):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(served + "gpus/g1/")
    field = page.get_by_role("search").get_by_role("textbox")
    field.fill("Zephyrine")
    page.locator(".pagefind-ui__result-link").first.wait_for()
    # the model's page among the results (its pairs' and runs' pages name it too)
    result = page.locator('.pagefind-ui__result-link[href="/board/models/m2/"]')
    assert HOSTILE in result.inner_text()  # its name as text, not as markup
    assert page.locator(".pagefind-ui__results i").count() == 0
    field.press("Escape")  # empties the field, which closes the results
    assert field.input_value() == ""
    page.locator(".pagefind-ui__result-link").first.wait_for(state="detached")
    field.fill("Zephyrine")
    result.wait_for()
    result.click()
    page.wait_for_load_state()
    assert page.url == served + "models/m2/"
    assert all(url.startswith(served) for url in asked)  # nothing from the network
    context.close()


def test_without_javascript_no_box_shows(browser, served):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(served)
    assert page.locator("#site-search").count() == 1
    assert not page.locator("#site-search").is_visible()
    assert page.get_by_role("textbox").count() == 0
    context.close()


def test_the_preview_searches_and_finds_what_an_edit_brought(browser, tmp_path):
    from sitegen.serve import Preview

    root = write_site(tmp_path / "site", SITE_CONFIG)
    with Preview(root, port=0) as preview:
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(preview.url)
        assert preview.url.endswith("/board/")
        field = page.get_by_role("search").get_by_role("textbox")
        field.fill("Zephyrine")
        page.locator('.pagefind-ui__result-link[href="/board/models/m2/"]').wait_for()
        page.evaluate("window.beforeTheEdit = true")
        models = root / "data/models.yaml"
        models.write_text(models.read_text().replace("Model One", "Quokkaformer One"))
        # the preview rebuilds, and its live reload loads the page again
        page.wait_for_function("() => !window.beforeTheEdit")
        page.wait_for_load_state()
        field.fill("Quokkaformer")
        page.locator('.pagefind-ui__result-link[href="/board/models/m1/"]').wait_for()
        page.close()
