"""Editors' Markdown: front matter, placeholders in a sandbox, raw HTML escaped."""

from __future__ import annotations

import json
import re

import pytest

from conftest import html_text
from sitegen.pipeline.build import build
from sitegen.records import SiteError

FAQ = "---\nquestion: How fast on {{ gpu.name }}?\norder: 5\n---\n"


def build_with(make_site, tmp_path, content):
    out = tmp_path / "out"
    build(make_site(content=content), out)
    return out


def test_faq_placeholders_quote_the_page_numbers(make_site, tmp_path):
    body = FAQ + "It sustains **{{ headline.throughput_per_gpu | tokens }}** tokens/s per GPU.\n"
    out = build_with(make_site, tmp_path, {"faq/speed.md": body})
    html = (out / "models/m1/g1/index.html").read_text()
    # headline at 20 tok/s per user on the default site: vllm's frontier through
    # (10, 1000), (40, 600), (100, 200) gives 856.79 -> "857"
    assert "<dt>How fast on GPU One?</dt>" in html
    assert "It sustains <strong>857</strong> tokens/s per GPU." in html
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    (ld,) = [b for b in map(json.loads, blocks) if b["@type"] == "FAQPage"]  # beside others
    names = [q["name"] for q in ld["mainEntity"]]
    assert names[0] == "How fast is Model One on GPU One?" and names[-1] == "How fast on GPU One?"
    assert ld["mainEntity"][-1]["acceptedAnswer"]["text"] == "It sustains 857 tokens/s per GPU."


def test_faq_limited_to_model_or_gpu(make_site, tmp_path):
    from conftest import sweep

    root = make_site(
        runs={"a.yaml": sweep(), "b.yaml": sweep(gpu="g2")},
        content={"faq/only.md": "---\nquestion: Only on g2?\ngpu: [g2]\n---\nYes.\n"},
    )
    build(root, tmp_path / "out")
    assert "Only on g2?" not in (tmp_path / "out/models/m1/g1/index.html").read_text()
    assert "Only on g2?" in (tmp_path / "out/models/m1/g2/index.html").read_text()


def test_raw_html_is_escaped(make_site, tmp_path):
    body = FAQ + "<script>alert(1)</script> and <b>bold</b>\n"
    html = (
        build_with(make_site, tmp_path, {"faq/x.md": body}) / "models/m1/g1/index.html"
    ).read_text()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_markdown_tables_render(make_site, tmp_path):
    page = "---\ntitle: About us\n---\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    out = build_with(make_site, tmp_path, {"about.md": page})
    html = (out / "about/index.html").read_text()
    assert "<h1>About us</h1>" in html and "<td>1</td>" in html
    assert 'href="about/"' in (out / "index.html").read_text()  # linked from the nav


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("Fine.\n\nSpeed: {{ headline.nope }}\n", 7, "placeholder: {{ headline.nope }}"),
        ("Speed: {{ nothing_here | tokens }}\n", 5, "'nothing_here' is undefined"),
        ("Line one.\n{{ headline.throughput_per_gpu | \n", 6, "placeholder:"),
        # the loop's own name is what is missing, not the {{ r }} of its body
        ("One.\n\n{% for r in rungs %}{{ r }}{% endfor %}\n", 7, "placeholder: 'rungs' is"),
    ],
)
def test_bad_placeholder_names_file_and_line(make_site, body, line, message):
    root = make_site(content={"faq/bad.md": FAQ + body})
    with pytest.raises(SiteError) as info:
        build(root)
    problems = [str(p) for p in info.value.problems]
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"content/faq/bad.md:{line}: ")
    assert message in problems[0]
    assert not (root / "public").exists()


def test_sandbox_refuses_code(make_site):
    body = "{{ ''.__class__.__mro__[1].__subclasses__() }}\n"
    root = make_site(content={"faq/evil.md": FAQ + body})
    with pytest.raises(SiteError) as info:
        build(root)
    assert "content/faq/evil.md:5: placeholder" in str(info.value.problems[0])


def test_faq_front_matter_checked(make_site):
    root = make_site(
        content={
            "faq/a.md": "---\norder: 1\n---\nNo question.\n",
            "faq/b.md": "---\nquestion: Q?\nmodel: m7\n---\nA.\n",
        }
    )
    with pytest.raises(SiteError) as info:
        build(root)
    problems = sorted(str(p) for p in info.value.problems)
    assert problems[0].startswith("content/faq/a.md:2: question: expected a question")
    assert problems[1] == (
        'content/faq/b.md:3: model: expected a slug defined in data/models.yaml, got "m7"'
    )


def test_intros_for_models_gpus_and_pairs(make_site, tmp_path):
    out = build_with(
        make_site,
        tmp_path,
        {
            "models/m1.md": "Model intro for {{ model.name }}.",
            "gpus/g1.md": "GPU intro for {{ gpu.name }}.",
            "pairs/m1/g1.md": "Pair intro: {{ configs }} configs.",
        },
    )
    assert "Model intro for Model One." in html_text((out / "models/m1/index.html").read_text())
    assert "GPU intro for GPU One." in html_text((out / "gpus/g1/index.html").read_text())
    assert "Pair intro: 3 configs." in html_text((out / "models/m1/g1/index.html").read_text())
