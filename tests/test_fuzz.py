"""Whole small sites made up by hypothesis: catalogs, runs good and broken, content with
placeholders, hostile names. For each, `check` and `build` must agree, neither may end in a
traceback, and no generated string may reach a page unescaped.

Bounded (40 sites, about 10 s): each example writes a site, checks it and builds it.
"""

from __future__ import annotations

import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from conftest import PRICING, SITE_CONFIG, config, sweep
from sitegen.output.staging import MARKER
from sitegen.pipeline.build import build, render_site
from sitegen.records import SiteError


def theme_script(attrs: dict[str, str | None]) -> bool:
    """A script element the theme writes: data blocks, or one of its own files or the search
    UI the build makes beside its index (linked from the base path on 404.html)."""
    if attrs.get("type") in ("application/ld+json", "application/json"):
        return True
    src = attrs.get("src") or ""
    shipped = r"((\.\./)*|/[a-z/]*/)(assets/[a-z]+|pagefind/pagefind-ui)\.js"
    return re.fullmatch(shipped, src) is not None


class Injected(HTMLParser):
    """What a generated string would add to a page if it reached it unescaped: a <zq> element,
    a script of its own, an on* attribute, a javascript: link, a comment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "zq" or (tag == "script" and not theme_script(dict(attrs))):
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            if name in ("href", "src") and (value or "").strip().lower().startswith("javascript"):
                self.found.append(f"{name}={value} on <{tag}>")

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data[:20]}")


def injected(html: str) -> list[str]:
    parser = Injected()
    parser.feed(html)
    parser.close()
    if "<zq" in html:  # escaped text never holds a raw "<"
        parser.found.append("<zq")
    return parser.found


HOSTILE = st.sampled_from(
    [
        "<zq>",
        "</script><script>zq</script>",
        "<!--<script>zq",
        '" onmouseover=zq "',
        "' onclick=zq '",
        "javascript:zq",
        "&lt;zq&gt;",
        "=zq()",
        "-1",
        "{{ zq }}",
        "\u2028zq",
    ]
)
WORDS = st.text(alphabet="abcdefghij KLM.-_0123", min_size=1, max_size=12)
SLUGS = st.from_regex(r"\A[a-z0-9][a-z0-9.-]{0,10}\Z")
ODD_SLUGS = st.sampled_from(["Upper", "m1\n", "index.html", "x" * 260, "_x"])
NAMES = st.one_of(WORDS, st.builds(lambda a, h, b: a + h + b, WORDS, HOSTILE, WORDS))

FINE_COPY = st.sampled_from(
    [
        "{{ headline.throughput_per_gpu | tokens }} tokens/s",
        "{{ model.name }} on {{ gpu.name }}",
        "{% for r in ladder %}{{ r.target }} {% endfor %}",
        "[a link](https://example.org/?a=<zq>&b='zq')",
        "`<zq>` and <zq> and <!--<script>zq",
        "Plain text.",
    ]
)
BAD_COPY = st.sampled_from(
    [
        "{{ nothing.here }}",
        "{{ range }}",
        "{{ headline.costs.update(owning=1) }}",
        "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}",
        '{{ "x" * 100000000 }}',
        "{% include 'base.html' %}",
        "{{ unclosed",
        "[a link](javascript:zq)",
    ]
)
FAULTS = (
    "model slug",
    "gpu slug",
    "url",
    "number",
    "copy",
    "page name",
    "unknown model",
)


def _copy(draw: st.DrawFn, bad: bool) -> str:
    text = draw(BAD_COPY if bad else FINE_COPY)
    return draw(WORDS) + "\n\n" + text + "\n"


@st.composite
def sites(draw: st.DrawFn) -> dict[str, Any]:
    """The files of one site, path -> YAML value or text: a sound site with hostile names
    (about two in three), or one with a fault (a bad slug, URL, number, placeholder...)."""
    fault = draw(st.sampled_from([*[None] * 2 * len(FAULTS), *FAULTS]))  # a third faulty
    models = {draw(SLUGS): {"name": draw(NAMES)} for _ in range(draw(st.integers(1, 2)))}
    if fault == "model slug":
        models[draw(ODD_SLUGS)] = {"name": draw(NAMES)}
    gpus = {
        draw(SLUGS): {"name": draw(NAMES), "vendor": draw(NAMES)}
        for _ in range(draw(st.integers(1, 3)))
    }
    if fault == "gpu slug":
        gpus[draw(ODD_SLUGS)] = {"name": draw(NAMES)}
    files: dict[str, Any] = {
        "sitegen.yaml": SITE_CONFIG,
        "data/models.yaml": models,
        "data/gpus.yaml": gpus,
        "data/workloads.yaml": {"chat": {"name": draw(NAMES)}, "long": {"name": "Long"}},
        "data/pricing.yaml": {**PRICING, "prices": {}},
    }
    runs = draw(st.integers(1, 3))
    broken = draw(st.integers(0, runs - 1))
    for n in range(runs):
        configs = [
            config(
                draw(st.integers(1, 8)),
                concurrency,
                draw(st.floats(1, 50_000)),
                draw(st.floats(1, 200)),
            )
            for concurrency in sorted(set(draw(st.lists(st.integers(1, 512), min_size=1))))[:4]
        ]
        record = sweep(
            model=draw(st.sampled_from(sorted(models))),
            gpu=draw(st.sampled_from(sorted(gpus))),
            engine=draw(NAMES).strip() or "vllm",
            precision=draw(st.sampled_from(["fp8", "fp4", "=zq", "<zq>"])),
            configs=configs,
            url="https://example.org/run?a=1&b=<2>".replace("<2>", "2"),
            notes=draw(NAMES),
        )
        if n == broken and fault == "url":
            record["url"] = draw(st.sampled_from(["javascript:zq", "https://e.org/<zq>"]))
        elif n == broken and fault == "number":
            record["configs"][0]["tpot_ms"] = {"median": "fast"}
        elif n == broken and fault == "unknown model":
            record["model"] = "not-a-model"
        files[f"data/runs/lab/run-{n}.yaml"] = record
    entries = draw(st.integers(0, 2))
    for n in range(entries):
        question = draw(NAMES).replace("{", "(")
        body = _copy(draw, bad=fault == "copy" and n == 0)
        files[f"content/faq/q{n}.md"] = f"---\nquestion: {question!r}\n---\n{body}"
    if fault == "page name" or draw(st.booleans()):
        names = ["404.html", "assets", "Bad Name"] if fault == "page name" else ["about"]
        name = draw(st.sampled_from(names))
        files[f"content/{name}.md"] = f"# {draw(NAMES)}\n\n{_copy(draw, bad=fault == 'copy')}"
    return files


def write(root: Path, files: dict[str, Any]) -> None:
    for name, value in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = value if isinstance(value, str) else yaml.safe_dump(value, sort_keys=False)
        path.write_text(text, encoding="utf-8")


def outcome(run) -> tuple[str, Any]:
    """("ok", result) or ("problems", their lines); anything else is a crash: raised."""
    try:
        return "ok", run()
    except SiteError as exc:
        return "problems", sorted(str(p) for p in exc.problems)


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    # no shrinking: each step builds a site twice, and a failing site is small to read anyway
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(sites())
def test_check_and_build_agree_and_nothing_reaches_a_page_unescaped(files) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        write(root, files)
        checked, check_result = outcome(lambda: render_site(root, use_cache=False))
        built, build_result = outcome(lambda: build(root, Path(tmp) / "out"))
        event(built)
        assert checked == built, (check_result, build_result)
        if built == "problems":
            assert check_result == build_result
            assert all("Traceback" not in line for line in build_result)
            assert not (Path(tmp) / "out").exists()
            return
        pages, _ = check_result
        out = Path(tmp) / "out"
        written = {
            p.relative_to(out).as_posix(): p.read_bytes()
            for p in out.rglob("*")
            if p.is_file() and p.name != MARKER
        }
        assert written == pages  # check renders exactly what build writes
        for name, data in written.items():
            if name.endswith((".html", ".xml", ".svg")):
                assert injected(data.decode()) == [], name
