"""A site's own templates/ restyle the theme's tables, file by file (docs/theming.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import GPUS, SITE_CONFIG, sweep
from sitegen.layout import theme_dir
from sitegen.pipeline.build import render_site
from sitegen.render.display import joules, rate, tokens

PAIR = "models/m1/g1/index.html"

# A ladder of the site's own: the macros pair.html and index.html import from _ladder.html
OWN_LADDER = """\
{% macro energy_cell(energy, reached) %}<td class="my-energy">{{ energy.joules_per_token | joules if energy else '·' }}</td>{% endmacro %}
{% macro ladder(summary, workload, caption) %}
<table class="my-ladder">
  <caption>{{ caption }}</caption>
  {% for row in summary.ladder %}
  <tr class="my-rung"><th>{{ row.target | rate }} → {{ row.throughput_per_gpu | tokens }}</th>{{ energy_cell(row.energy, row.throughput_per_gpu is not none) }}</tr>
  {% endfor %}
</table>
{% endmacro %}
"""  # noqa: E501

OWN_SENTENCE = """\
{% macro sentence(phrases) %}{% for p in phrases %}{% if p.strong %}<em class="my-stress">{{ p.text }}</em>{% else %}{{ p.text }}{% endif %}{% endfor %}{% endmacro %}"""  # noqa: E501


def _own_templates(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "templates" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _pages(root: Path) -> dict[str, str]:
    files, _ = render_site(root)
    return {
        name: body.decode() for name, body in files.items() if name.endswith((".html", ".json"))
    }


def test_a_sites_own_ladder_template_writes_the_ladders_rows(make_site):
    pages = _pages(_own_templates(make_site(), {"_ladder.html": OWN_LADDER}))
    pair = pages[PAIR]
    rungs = re.findall(r'<tr class="my-rung"><th>([^<]*)</th><td class="my-energy">([^<]*)<', pair)
    ladder = json.loads(pages[PAIR.replace("index.html", "data.json")])["workloads"]["chat"]
    assert rungs == [
        (
            f"{rate(r['target'])} → {tokens(r['throughput_per_gpu'])}",
            joules(r["energy"]["joules_per_token"]) if r["energy"] else "·",
        )
        for r in ladder["ladder"]
    ]
    assert len(rungs) == len(SITE_CONFIG["targets"])
    assert 'class="numbers ladder"' not in pair
    # the rest of the page is the theme's: its other templates are not the site's
    assert '<details class="chart-points">' in pair and "Quick answer" in pair
    # the overview's boards print the energy cell of the site's _ladder.html
    assert '<td class="my-energy">' in pages["index.html"]
    assert 'class="num energy"' not in pages["index.html"]


def test_a_sites_own_macros_mark_the_verdicts_stressed_words(make_site):
    # the theme's _macros.html, copied with a sentence macro of the site's own
    theme = (theme_dir() / "_macros.html").read_text(encoding="utf-8")
    own, replaced = re.subn(r"{% macro sentence\(.*?{% endmacro %}", OWN_SENTENCE, theme)
    assert replaced == 1
    runs = {"g1.yaml": sweep(gpu="g1"), "g2.yaml": sweep(gpu="g2")}
    pages = _pages(_own_templates(make_site(runs=runs), {"_macros.html": own}))
    verdict = re.search(r'<p class="answer">(.*?)</p>', pages["compare/g1-vs-g2/m1/index.html"])
    assert '<em class="my-stress">' in verdict.group(1)
    assert "<strong>" not in verdict.group(1)
    answer = re.search(r'<p class="answer">(.*?)</p>', pages["models/m1/index.html"])
    assert '<em class="my-stress">GPU One serves the most' in answer.group(1)


def test_names_with_markup_characters_are_text_in_every_table(make_site):
    name = 'GPU <b> & "co"'
    gpus = {**GPUS, "g2": {"name": name, "vendor": "Acme"}}
    runs = {"g1.yaml": sweep(gpu="g1"), "g2.yaml": sweep(gpu="g2", engine="<i>")}
    pages = _pages(make_site(runs=runs, gpus=gpus))
    shown = "GPU &lt;b&gt; &amp; &#34;co&#34;"
    for page, html in pages.items():
        if page.endswith(".html"):
            assert "<b>" not in html and "<i>" not in html, page
    board = pages["index.html"]
    assert f'<th scope="row"><a href="models/m1/g2/">{shown}</a></th>' in board
    model = pages["models/m1/index.html"]
    assert f'<th scope="row"><a href="g2/">{shown}</a></th>' in model
    verdict = re.search(r'<p class="answer">(.*?)</p>', pages["compare/g1-vs-g2/m1/index.html"])
    assert shown in verdict.group(1)
    # the engine as it is given, in the table of the chart's points
    assert '<tr><th scope="row">&lt;i&gt; FP8</th>' in pages["models/m1/g2/index.html"]
