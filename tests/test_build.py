"""Whole builds, read back page by page as a reader would see them."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import config, html_tables, html_text, sweep
from sitegen.cli import main
from sitegen.pipeline.build import build
from sitegen.records import SiteError

PAIR = "models/kimi-k3.1-pro/mi355x/"


def table_with(html: str, first_header: str) -> list[list[str]]:
    for table in html_tables(html):
        if table and table[0] and table[0][0] == first_header:
            return table
    raise AssertionError(f"no table headed {first_header!r}")


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# -- the seed page: Kimi K3.1 Pro on MI355X ------------------------------------------------------


@pytest.fixture(scope="module")
def flagship_out(tmp_path_factory) -> Path:
    from conftest import REPO

    out = tmp_path_factory.mktemp("public")
    build(REPO, out)
    return out


def test_seed_ladder(flagship_out):
    html = (flagship_out / PAIR / "index.html").read_text()
    ladder = table_with(html, "Per-user target")
    rows = {row[0]: row[1:] for row in ladder[1:]}
    # energy from MI355X's all-in 2.09 kW: 2090 W / 16,051 tok/s = 0.130 J, 27.6M tokens/kWh
    energy_30, energy_50 = "0.130 J27.6M tokens/kWh, all-in", "0.162 J22.3M tokens/kWh, all-in"
    assert rows["30 tok/s"][:5] == ["16,051", "$0.026", energy_30, "SGLang", "FP4"]
    assert rows["50 tok/s"][:5] == ["12,926", "$0.032", energy_50, "SGLang", "FP4"]
    assert rows["75 tok/s"][:2] + rows["75 tok/s"][3:5] == ["7,058", "$0.059", "SGLang", "FP4"]
    assert rows["150 tok/s"][:2] + rows["150 tok/s"][3:5] == ["2,562", "$0.16", "SGLang", "FP4"]
    # each rung names the measured config it reads; the agentx workload has no lengths: no MBU
    assert rows["50 tok/s"][5].startswith("concurrency 64 on 8 GPUs50 tok/s per user, no MBU")
    # the seed leaves 100 tok/s empty although 150 is filled; ours is filled in between
    filled_100 = int(rows["100 tok/s"][0].replace(",", ""))
    assert 2562 < filled_100 < 7058
    assert rows["200 tok/s"][:3] == ["-", "-", "-"]
    assert "No configuration reaches 200 tok/s per user" in rows["200 tok/s"][3]


def test_seed_quick_answer_cost_and_stats(flagship_out):
    html = (flagship_out / PAIR / "index.html").read_text()
    text = html_text(html)
    assert (
        "Kimi K3.1 Pro sustains 12,926 tokens/s per GPU on MI355X at 50 tokens/s per user, "
        "which works out to $0.032 per million tokens at the Owning at Large Hyperscaler "
        "Volume pricing tier, served by SGLang in FP4."
    ) in text
    # latencies at the headline come from one named config
    assert (
        "the measured config is concurrency 64 on 8 GPUs (TP8 EP8), SGLang FP4, run of "
        "2026-11-05: 50 tok/s per user, 12,926 tokens/s per GPU, median TTFT 820 ms, "
        "median TPOT 20 ms"
    ) in text
    assert "Fastest measured TTFT across all configs: 400 ms" in text
    assert "fastest TPOT across all configs: 6.7 ms" in text
    assert "0.4 ms" not in text and "0.0 ms" not in text
    cost = table_with(html, "Pricing tier")
    assert cost[1:] == [
        ["Owning at Large Hyperscaler Volume", "$1.50", "$0.032"],
        ["Retail", "$2.90", "$0.062"],
    ]
    for label, value in [
        ("Benchmarked configs", "6"),
        ("Serving engines", "SGLang"),
        ("Precisions", "FP4"),
        ("Run dates", "2026-11-05 → 2026-11-05"),
    ]:
        assert re.search(rf"{label}\s*{re.escape(value)}", text), label
    assert "Peak measured throughput across all configs is 16,147 tokens/s per GPU" in text


def test_seed_data_json_follows_the_contract(flagship_out):
    data = json.loads((flagship_out / PAIR / "data.json").read_text())
    assert list(data) == ["model", "gpu", "headline", "workloads", "disagreements"]
    assert data["disagreements"] == []  # one source
    assert data["headline"] == {
        "workload": "agentx",
        "tokens": "total",
        "interactivity": 50,
        "tier": "owning",
        "throughput_per_gpu": 12926.0,
        "cost_per_million_tokens": pytest.approx(1.5 / (12926 * 3600) * 1e6),
        "engine": "sglang",
        "precision": "fp4",
    }
    workload = data["workloads"]["agentx"]
    assert list(workload) == [
        "tokens",
        "configs",
        "engines",
        "precisions",
        "first_date",
        "last_date",
        "peak_throughput_per_gpu",
        "sources",
        "ladder",
        "curves",
        "limit",
        "limit_missing",
    ]
    assert workload["sources"] == ["InferenceX"]
    # agentx gives no input and output lengths: no limit, and why (SITE.md)
    assert (workload["limit"], workload["limit_missing"]) == (None, "isl_osl")
    assert workload["configs"] == 6 and workload["peak_throughput_per_gpu"] == 16147.0
    first = next(r for r in workload["ladder"] if r["target"] == 30)  # the seed's first rung
    assert list(first) == [
        "target",
        "throughput_per_gpu",
        "engine",
        "precision",
        "cost_per_million_tokens",
        "cost_per_million_input_tokens",
        "cost_per_million_output_tokens",
        "energy",
        "reads",
        "spread",
    ]
    assert first["throughput_per_gpu"] == pytest.approx(16051.0, abs=0.01)
    assert first["throughput_per_gpu"] != round(first["throughput_per_gpu"])  # unrounded
    assert first["cost_per_million_tokens"]["retail"] == pytest.approx(
        2.9 / (first["throughput_per_gpu"] * 3600) * 1e6
    )
    assert workload["ladder"][-1] == {
        "target": 200,
        "throughput_per_gpu": None,
        "engine": None,
        "precision": None,
        "cost_per_million_tokens": None,
        # agentx gives no input and output lengths; an unreached rung has no energy
        "cost_per_million_input_tokens": None,
        "cost_per_million_output_tokens": None,
        "energy": None,
        "reads": None,
        "spread": None,
    }
    curve = workload["curves"][0]
    assert list(curve) == ["engine", "precision", "frontier", "points"]
    assert len(curve["points"]) == 6 and len(curve["frontier"]) == 5
    assert list(curve["points"][0]) == [
        "interactivity",
        "throughput_per_gpu",
        "concurrency",
        "gpus",
        "tp",
        "ttft_ms",
        "tpot_ms",
        "run",
        "mbu",
        "mbu_missing",
    ]


def test_leaderboard_json_and_csv(flagship_out):
    rows = json.loads((flagship_out / "data/leaderboard.json").read_text())
    kimi = next(r for r in rows if r["model"] == "kimi-k3.1-pro")
    assert list(kimi) == [
        "model",
        "gpu",
        "workload",
        "tokens",
        "interactivity",
        "throughput_per_gpu",
        "cost_per_million_tokens",
        "engine",
        "precision",
        "configs",
        "last_date",
        "url",
        "cost_per_million_input_tokens",
        "cost_per_million_output_tokens",
        "energy",
        "sources",
    ]
    assert kimi["sources"] == ["InferenceX"]
    assert kimi["throughput_per_gpu"] == 12926.0 and kimi["url"] == PAIR
    # best first among the rows of one count: total tokens, then output tokens (MLPerf)
    assert [r["tokens"] for r in rows] == sorted((r["tokens"] for r in rows), reverse=True)
    for count in ("total", "output"):
        values = [r["throughput_per_gpu"] for r in rows if r["tokens"] == count]
        reached = [v for v in values if v is not None]
        assert reached == sorted(reached, reverse=True)
    csv = (flagship_out / "data/leaderboard.csv").read_text().splitlines()
    assert csv[0].startswith(
        "model,gpu,workload,interactivity,throughput_per_gpu,"
        "cost_per_million_tokens_owning,cost_per_million_tokens_retail"
    )
    assert any(line.startswith("kimi-k3.1-pro,mi355x,agentx,50,12926.0,") for line in csv)


# -- a small site ------------------------------------------------------------------------------


def test_small_site_pages_read_back(make_site, tmp_path):
    runs = {
        "lab/old.yaml": sweep(date="2026-09-01", configs=[config(8, 64, 5000.0, 50.0)]),
        "lab/new.yaml": sweep(
            configs=[
                config(8, 64, 1000.0, 100.0),
                config(8, 16, 600.0, 25.0),
                config(8, 4, 200.0, 10.0),
                {"gpus": 8, "concurrency": 512, "status": "failed"},
            ]
        ),
        "lab/sglang.yaml": sweep(
            engine="sglang", precision="fp4", configs=[config(4, 32, 950.0, 40.0)]
        ),
        "lab/long.yaml": sweep(workload="long", configs=[config(8, 8, 300.0, 20.0)]),
        "lab/g2.yaml": sweep(gpu="g2", configs=[config(8, 8, 300.0, 20.0)]),
    }
    out = tmp_path / "out"
    result = build(make_site(runs=runs), out)
    assert result.problems.warnings  # g2 has no price
    html = (out / "models/m1/g1/index.html").read_text()
    ladder = table_with(html, "Per-user target")
    rows = {row[0]: row[1:] for row in ladder[1:]}
    # the 2026-09-01 run of vllm/fp8 is history: its 5,000 tok/s must not count
    # (it was run within spread_days of the current one: under the figure, the range of both)
    assert rows["10 tok/s"][0] == "1,000" + "1,000–5,000 (2 runs)" and rows["10 tok/s"][3] == "vLLM"
    # at 20 tok/s per user vllm's curve gives 856.8 (tangents -14.4 and -11.1 at 10 and 40
    # tok/s); sglang's single point at 25 tok/s sustains 950 and wins
    assert rows["20 tok/s"][0] == "950" and rows["20 tok/s"][3] == "SGLang"
    assert rows["50 tok/s"][3] == "vLLM"
    assert rows["100 tok/s"][0] == "200"
    # cost at the headline tier, $2/h at 200 tok/s: 2 / 720,000 * 1e6 = $2.78
    assert rows["100 tok/s"][1] == "$2.78"
    text = html_text(html)
    assert "Failed configs, listed and never ranked: concurrency 512" in text
    # two workloads: the default (chat) first, then its own ladder for the other
    assert text.index("Throughput at every interactivity target: Chat") < text.index(
        "Throughput at every interactivity target: Long context"
    )
    data = json.loads((out / "models/m1/g1/data.json").read_text())
    assert list(data["workloads"]) == ["chat", "long"]
    assert data["workloads"]["chat"]["configs"] == 4  # ok configs of current runs only
    g2 = html_text((out / "models/m1/g2/index.html").read_text())
    assert "No price is known for GPU Two" in g2
    g2_data = json.loads((out / "models/m1/g2/data.json").read_text())
    assert g2_data["headline"]["cost_per_million_tokens"] is None
    assert all(r["cost_per_million_tokens"] is None for r in g2_data["workloads"]["chat"]["ladder"])
    assert g2_data["workloads"]["chat"]["ladder"][0]["energy"] is None  # no power known
    assert "No power known" in g2
    compare = html_text((out / "compare/g1-vs-g2/m1/index.html").read_text())
    assert "GPU One" in compare and "GPU Two" in compare


def test_every_link_resolves_and_is_relative(make_site, tmp_path):
    out = tmp_path / "out"
    build(
        make_site(
            runs={"a.yaml": sweep(), "b.yaml": sweep(gpu="g2", model="m2")},
            content={"methodology.md": "# How\n\nText."},
        ),
        out,
    )
    pages = sorted(out.rglob("*.html"))
    assert len(pages) >= 8
    for page in pages:
        if page.name == "404.html":
            continue
        for href in re.findall(r'(?:href|src)="([^"]+)"', page.read_text()):
            if href.startswith(("http://", "https://", "#")):
                continue
            assert not href.startswith("/"), (page, href)
            target = (page.parent / href).resolve()
            if href.endswith("/"):
                target = target / "index.html"
            assert target.is_file(), f"{page.relative_to(out)} links to missing {href}"
    not_found = (out / "404.html").read_text()
    assert 'href="/board/assets/style.css"' in not_found  # from the base_url's path


def test_two_builds_are_byte_identical(make_site, tmp_path):
    root = make_site()
    build(root, tmp_path / "a")
    build(root, tmp_path / "b")
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")


def test_sitemap_and_robots(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(), out)
    sitemap = (out / "sitemap.xml").read_text()
    assert "<loc>https://example.org/board/</loc>" in sitemap
    assert "<loc>https://example.org/board/models/m1/g1/</loc><lastmod>2026-10-01" in sitemap
    assert "404" not in sitemap
    assert "Sitemap: https://example.org/board/sitemap.xml" in (out / "robots.txt").read_text()


def test_bad_record_fails_and_leaves_public_untouched(make_site):
    root = make_site()
    runner = CliRunner()
    first = runner.invoke(main, ["build", "--site", str(root)])
    assert first.exit_code == 0, first.output
    before = tree_digest(root / "public")
    (root / "data/runs/bad.yaml").write_text(
        "kind: sweep\nsource: Lab\ndate: 2026-10-02\nmodel: m9\ngpu: g1\nengine: vllm\n"
        "precision: fp8\nworkload: chat\nconfigs:\n  - {gpus: 8, concurrency: 4}\n"
    )
    second = runner.invoke(main, ["build", "--site", str(root)])
    assert second.exit_code == 1
    lines = second.output.strip().splitlines()
    assert "data/runs/bad.yaml:4: model: expected a slug defined in data/models.yaml" in lines[0]
    assert any(
        "bad.yaml:10: configs[0].throughput_per_gpu: expected a number > 0 "
        "(or output_throughput_per_gpu), got nothing" in line
        for line in lines
    )
    assert lines[-1].startswith("build failed: 4 errors")
    assert tree_digest(root / "public") == before


def test_strict_fails_on_warnings(make_site):
    root = make_site(runs={"a.yaml": sweep(gpu="g2")})
    runner = CliRunner()
    assert runner.invoke(main, ["build", "--site", str(root)]).exit_code == 0
    strict = runner.invoke(main, ["build", "--site", str(root), "--strict"])
    assert strict.exit_code == 1
    assert "has runs but no price" in strict.output


def test_out_option_and_missing_site(make_site, tmp_path):
    root = make_site()
    runner = CliRunner()
    result = runner.invoke(main, ["build", "--site", str(root), "--out", str(tmp_path / "x")])
    assert result.exit_code == 0 and (tmp_path / "x/index.html").is_file()
    assert not (root / "public").exists()
    missing = runner.invoke(main, ["build", "--site", str(tmp_path / "nowhere")])
    assert missing.exit_code == 1 and "sitegen.yaml: not found" in missing.output


def test_unreachable_headline(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(runs={"a.yaml": sweep(configs=[config(8, 64, 1000.0, 100.0)])}), out)
    text = html_text((out / "models/m1/g1/index.html").read_text())
    assert "No measured configuration of Model One on GPU One reaches 20 tokens/s per user" in text
    rows = json.loads((out / "data/leaderboard.json").read_text())
    assert rows[0]["throughput_per_gpu"] is None


def test_site_errors_carry_every_problem(make_site):
    root = make_site(runs={"a.yaml": sweep(model="x"), "b.yaml": sweep(gpu="y")})
    with pytest.raises(SiteError) as info:
        build(root)
    assert len(info.value.problems) == 2


def test_a_template_added_between_builds_of_one_process_is_used(make_site, tmp_path):
    root = make_site()
    build(root, tmp_path / "a")
    (root / "templates").mkdir()
    (root / "templates/404.html").write_text(
        '{% extends "base.html" %}{% block main %}<p>Our own 404</p>{% endblock %}'
    )
    build(root, tmp_path / "b")
    assert "Our own 404" in (tmp_path / "b/404.html").read_text()
    (root / "templates/404.html").write_text(
        '{% extends "base.html" %}{% block main %}<p>Edited 404</p>{% endblock %}'
    )
    build(root, tmp_path / "c")
    assert "Edited 404" in (tmp_path / "c/404.html").read_text()
    assert "Our own 404" not in (tmp_path / "a/404.html").read_text()


def test_a_pair_with_only_a_matrix_run_says_there_is_no_ladder(make_site, tmp_path):
    matrix = {
        "kind": "matrix",
        "source": "Lab",
        "date": "2026-10-01",
        "model": "m1",
        "gpu": "g1",
        "gpus": 2,
        "engine": "vllm",
        "precision": "fp8",
        "decode": [
            {
                "context": 0,
                "concurrency": 1,
                "aggregate_tok_s": 50,
                "per_request_tok_s": 50,
                "ttft_s": 0.1,
            }
        ],
    }
    out = tmp_path / "out"
    build(make_site(runs={"m.yaml": matrix}), out)
    text = html_text((out / "models/m1/g1/index.html").read_text())
    assert "no concurrency sweep of this pair has been published yet" in text
    assert "ladder above" not in text and "Quick answer" not in text
    assert "Also measured, as context x concurrency matrices only" in html_text(
        (out / "index.html").read_text()
    )
