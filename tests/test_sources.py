"""Sources side by side: one model x GPU measured by a lab on a total-token workload and by
two MLPerf submitters on an output-token workload. The pair page names and links every source
with its workload's definition, says where two sources disagree by more than 25 % on output
tokens/s per GPU (and only there); the overview and the model page name each row's sources,
the overview with a source filter where there are several."""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import GPUS, MODELS, PRICING, SITE_CONFIG, html_tables, html_text
from sitegen.pipeline.build import build
from sitegen.render.display import tokens

# the `measured` method: a ladder value is a measured point's, the highest throughput among
# the points at or above the target, which this test computes from the records alone
CONFIG = {**SITE_CONFIG, "frontier": {"method": "measured"}}
WORKLOADS = {
    "chat": {"name": "Chat", "description": "Short prompts.", "isl": 1000, "osl": 1000},
    "mlperf-chat": {
        "name": "MLPerf Chat",
        "description": "Open-loop Server scenario, TTFT at most 2 s and TPOT at most 80 ms",
    },
}
LAB = "Lab"
NVIDIA = "MLPerf Inference v5.1 (NVIDIA)"
DELL = "MLPerf Inference v5.1 (Dell)"
QUANTA = "MLPerf Inference v5.1 (Quanta)"


def closed(concurrency: int, total: float, output: float, tpot_ms: float) -> dict:
    return {
        "gpus": 8,
        "concurrency": concurrency,
        "throughput_per_gpu": total,
        "output_throughput_per_gpu": output,
        "ttft_ms": {"median": 400.0},
        "tpot_ms": {"median": tpot_ms},
    }


def open_loop(rate: float, output: float, tpot_ms: float) -> dict:
    return {
        "gpus": 8,
        "request_rate": rate,
        "output_throughput_per_gpu": output,
        "ttft_ms": {"median": 900.0},
        "tpot_ms": {"median": tpot_ms},
    }


def record(source: str, workload: str, configs: list[dict], **extra) -> dict:
    return {
        "kind": "sweep",
        "source": source,
        "date": "2026-10-01",
        "model": "m1",
        "gpu": "g1",
        "engine": "vllm",
        "precision": "fp8",
        "workload": workload,
        "configs": configs,
        **extra,
    }


# tokens/s per user = 1000 / TPOT: 10, 40 and 100
LAB_RUN = record(
    LAB,
    "chat",
    [
        closed(64, 1000.0, 500.0, 100.0),
        closed(16, 600.0, 300.0, 25.0),
        closed(4, 200.0, 100.0, 10.0),
    ],
)
NVIDIA_URL = "https://mlcommons.org/results/nvidia"


def nvidia_run(at_40: float) -> dict:
    return record(
        NVIDIA,
        "mlperf-chat",
        [open_loop(4.0, 520.0, 100.0), open_loop(2.0, at_40, 25.0), open_loop(0.5, 110.0, 10.0)],
        url=NVIDIA_URL,
        engine="trtllm",
    )


# Dell's FP4 reaches 60 tok/s per user only, with more than NVIDIA there
DELL_RUN = record(
    DELL, "mlperf-chat", [open_loop(1.0, 200.0, 1000.0 / 60)], engine="trtllm", precision="fp4"
)
# Quanta's one config joins NVIDIA's curve (the same engine and precision), below its frontier
QUANTA_RUN = record(QUANTA, "mlperf-chat", [open_loop(3.0, 300.0, 100.0)], engine="trtllm")
MLPERF = (nvidia_run(450.0), DELL_RUN, QUANTA_RUN)


def write_site(root: Path, runs: dict[str, dict], models: dict | None = None) -> Path:
    files = {
        "sitegen.yaml": CONFIG,
        "data/models.yaml": models or MODELS,
        "data/gpus.yaml": GPUS,
        "data/workloads.yaml": WORKLOADS,
        "data/pricing.yaml": PRICING,
        **{f"data/runs/{name}": run for name, run in runs.items()},
    }
    for name, value in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(yaml.safe_dump(value, sort_keys=False))
    return root


def built(root: Path) -> Path:
    out = root.parent / "public"
    build(root, out)
    return out


@pytest.fixture(scope="module")
def apart(tmp_path_factory) -> Path:
    """NVIDIA gives 450 output tokens/s per GPU at 40 tok/s per user where the lab gives 300."""
    runs = {
        "lab/chat.yaml": LAB_RUN,
        "mlperf/nvidia.yaml": MLPERF[0],
        "mlperf/dell.yaml": DELL_RUN,
        "mlperf/quanta.yaml": QUANTA_RUN,
    }
    return built(write_site(tmp_path_factory.mktemp("apart") / "site", runs))


@pytest.fixture(scope="module")
def close(tmp_path_factory) -> Path:
    """NVIDIA alone, within 25 % of the lab at every target both reach (360 against 300)."""
    runs = {"lab/chat.yaml": LAB_RUN, "mlperf/nvidia.yaml": nvidia_run(360.0)}
    return built(write_site(tmp_path_factory.mktemp("close") / "site", runs))


def interactivity(config: dict) -> float:
    return 1000.0 / config["tpot_ms"]["median"]


def measured_at(configs: list[dict], target: float, field: str) -> float | None:
    """A curve's value with the `measured` method: the highest figure at or above the target."""
    values = [c[field] for c in configs if interactivity(c) >= target]
    return max(values) if values else None


def best_at(runs, target: float, field: str) -> tuple[float, tuple[str, ...]] | None:
    """The best curve (engine x precision: its runs' configs together) at a target, and who
    measured it."""
    curves: dict[tuple, tuple[list, set]] = {}
    for r in runs:
        configs, sources = curves.setdefault((r["engine"], r["precision"]), ([], set()))
        configs += r["configs"]
        sources.add(r["source"])
    found = [
        (measured_at(configs, target, field), tuple(sorted(sources)))
        for configs, sources in curves.values()
    ]
    found = [f for f in found if f[0] is not None]
    return max(found) if found else None


def named(sources: tuple[str, ...]) -> str:
    """Sources as the pages name them, a family's submitters together: MLPerf Inference v5.1
    (NVIDIA, Quanta)."""
    if len(sources) == 1:
        return sources[0]
    return "MLPerf Inference v5.1 (" + ", ".join(s.split("(")[1][:-1] for s in sources) + ")"


def expected_notes(mlperf: list[dict]) -> dict[float, tuple]:
    """target -> (higher, lower, higher's source) where the two workloads' output figures
    differ by more than 25 %."""
    notes = {}
    for target in CONFIG["targets"]:
        a = best_at(mlperf, target, "output_throughput_per_gpu")
        b = best_at([LAB_RUN], target, "output_throughput_per_gpu")
        if a and b:
            high, low = max(a, b), min(a, b)
            if high[0] / low[0] - 1 > 0.25:
                notes[target] = (high[0], low[0], high[1])
    return notes


def pair(out: Path) -> tuple[str, dict]:
    folder = out / "models/m1/g1"
    return (folder / "index.html").read_text(), json.loads((folder / "data.json").read_text())


def plain(html: str) -> str:
    """Markup's text as a reader reads it: tags dropped, white space folded."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", html)).split())


def measured_line(html: str, workload: str) -> str:
    """A workload's "Measured by" paragraph, as markup."""
    start = html.index(f'<p class="measured-by" id="measured-{workload}">')
    return html[start : html.index("</p>", start)]


def section(html: str, id_: str) -> str:
    start = html.index(f'id="{id_}"')
    return html[start : html.index("</section>", start)]


# -- the pair page ------------------------------------------------------------------------------


def test_each_workload_names_its_sources_linked_to_their_runs_and_its_definition(apart):
    html, data = pair(apart)
    assert data["workloads"]["chat"]["sources"] == [LAB]
    assert data["workloads"]["mlperf-chat"]["sources"] == [DELL, NVIDIA, QUANTA]
    line = plain(measured_line(section(html, "ladder-chat"), "chat"))
    assert line == (
        "Measured by Lab: run of 2026-10-01. Workload: Chat (Short prompts). "
        "Its throughput counts input + output tokens."
    )
    block = measured_line(section(html, "ladder-mlperf-chat"), "mlperf-chat")
    assert plain(block) == (
        f"Measured by {DELL} (MLCommons): run of 2026-10-01; {NVIDIA} (MLCommons): run of "
        f"2026-10-01 (published); {QUANTA} (MLCommons): run of 2026-10-01. "
        f"Workload: MLPerf Chat ({WORKLOADS['mlperf-chat']['description']}). "
        "Its throughput counts output tokens only."
    )
    # every run linked to its report, NVIDIA's to its published result too
    assert block.count('href="../../../runs/mlperf-') == 3
    assert f'href="{NVIDIA_URL}"' in block


def test_a_workload_of_several_sources_names_the_source_of_each_rung(apart):
    html, _ = pair(apart)
    (mlperf,) = [
        t for t in html_tables(section(html, "ladder-mlperf-chat")) if t[0][0] == "Per-user target"
    ]
    column = mlperf[0].index("Measured by")
    # at each target the best of NVIDIA's FP8 and Dell's FP4 curves, as the records give them
    runs = MLPERF
    for row, target in zip(mlperf[1:], CONFIG["targets"], strict=True):
        best = best_at(runs, target, "output_throughput_per_gpu")
        assert row[column] == (named(best[1]) if best else "-")
    # NVIDIA's curve has Quanta's config too: its rows name both
    assert [row[column] for row in mlperf[1:]].count("MLPerf Inference v5.1 (NVIDIA, Quanta)") == 3
    (chat,) = [t for t in html_tables(section(html, "ladder-chat")) if t[0][0] == "Per-user target"]
    assert "Measured by" not in chat[0]  # one source: no column


def test_the_sources_section_gives_each_source_its_own_figure(apart):
    html, _ = pair(apart)
    sources = section(html, "sources")
    (table,) = html_tables(sources)
    head = CONFIG["headline"]["interactivity"]
    # each source as the page credits it: MLPerf's with its publisher, MLCommons
    rows = {row[0].removesuffix(" (MLCommons)"): row for row in table[1:]}
    # the workloads' order, then sources by name
    assert list(rows) == [LAB, DELL, NVIDIA, QUANTA]
    lab = measured_at(LAB_RUN["configs"], head, "throughput_per_gpu")
    # (html_tables joins a cell's lines without a space)
    assert rows[LAB][1] == "Chat" + "counts input + output tokens"
    # on input + output tokens, as its workload counts, and saying so
    assert rows[LAB][2] == tokens(lab) + "tokens/s per GPU"
    nvidia = measured_at(MLPERF[0]["configs"], head, "output_throughput_per_gpu")
    assert rows[NVIDIA][1] == "MLPerf Chat" + "counts output tokens only"
    assert rows[NVIDIA][2] == tokens(nvidia) + "output tokens/s per GPU"
    dell = measured_at(DELL_RUN["configs"], head, "output_throughput_per_gpu")
    assert rows[DELL][2] == tokens(dell) + "output tokens/s per GPU"
    assert rows[NVIDIA][5:] == ["3", "1 run, 2026-10-01"]
    # Quanta's own configs (one, on NVIDIA's curve) reach 10 tok/s per user only
    assert rows[QUANTA][2:] == ["not reached", "-", "-", "1", "1 run, 2026-10-01"]
    assert '<a href="#ladder-mlperf-chat">MLPerf Chat</a>' in sources


def test_a_note_where_the_sources_disagree_by_more_than_a_quarter(apart):
    html, data = pair(apart)
    expected = expected_notes(MLPERF)
    assert set(expected) == {20, 50}  # the records are chosen so: 450 / 300, 200 / 100
    found = data["disagreements"]
    assert [d["target"] for d in found] == sorted(expected)
    for d in found:
        high, low, source = expected[d["target"]]
        assert d["a"] == {
            "sources": list(source),
            "workload": "mlperf-chat",
            "output_throughput_per_gpu": high,
        }
        assert d["b"] == {"sources": [LAB], "workload": "chat", "output_throughput_per_gpu": low}
        assert d["ratio"] == high / low
    notes = section(html, "sources")
    notes = notes[notes.index('id="disagreements"') :]
    items = [html_text(li) for li in re.findall(r"<li>(.*?)</li>", notes, re.S)]
    assert items == [
        f"At {t} tok/s per user, {named(expected[t][2])} on MLPerf Chat gives "
        f"{tokens(expected[t][0])} "
        f"output tokens/s per GPU, {round((expected[t][0] / expected[t][1] - 1) * 100)} % more "
        f"than Lab on Chat ({tokens(expected[t][1])})."
        for t in sorted(expected)
    ]
    # each ladder involved points to the notes
    for workload in ("chat", "mlperf-chat"):
        ladder = section(html, f"ladder-{workload}")
        assert "At 20 and 50 tok/s per user, this workload" in html_text(ladder)
        assert 'href="#disagreements"' in ladder


def test_no_note_where_the_sources_agree_within_a_quarter(close):
    html, data = pair(close)
    assert expected_notes([nvidia_run(360.0)]) == {}
    assert data["disagreements"] == []
    assert 'id="sources"' in html  # two sources: the section stands
    assert 'id="disagreements"' not in html
    assert "where the sources disagree" not in html


def test_no_comparison_where_a_total_workload_gives_no_output_figures(tmp_path):
    totals = [
        {k: v for k, v in c.items() if k != "output_throughput_per_gpu"} for c in LAB_RUN["configs"]
    ]
    lab = {**LAB_RUN, "configs": totals}
    runs = {"lab/chat.yaml": lab, "mlperf/nvidia.yaml": nvidia_run(4500.0)}
    html, data = pair(built(write_site(tmp_path / "site", runs)))
    assert data["disagreements"] == []  # 4,500 output tokens/s per GPU: no total is compared
    assert 'id="sources"' in html and 'id="disagreements"' not in html


def test_a_workload_page_points_to_the_pair_pages_notes(apart):
    page = (apart / "models/m1/g1/mlperf-chat/index.html").read_text()
    assert 'class="measured-by"' in page
    assert 'href="../#disagreements"' in page


# -- the overview and the model page ------------------------------------------------------------


SHORT = "MLPerf Inference v5.1 (Dell +2)"
FULL = "MLPerf Inference v5.1 (Dell, NVIDIA, Quanta)"


def board_rows(html: str) -> dict[str, list[str]]:
    """Board heading (workload) -> its row's cells."""
    out = {}
    for part in re.split(r"<h2>", html)[1:]:
        workload = html_text(part[: part.index("</h2>")])
        tables = [t for t in html_tables(part) if t and t[0][0] == "Rank"]
        if tables:
            out[workload] = tables[0]
    return out


def test_the_overview_names_each_rows_sources_and_filters_by_source_family(apart):
    html = (apart / "index.html").read_text()
    found = board_rows(html)
    # under the GPU's name (html_tables joins a cell's lines without a space): two submitters
    # named, the full list in the title and for screen readers
    assert found["Chat"][0][1] == "GPU, measured by"
    assert found["Chat"][1][1] == "GPU One" + "Lab"
    assert found["MLPerf Chat"][1][1] == "GPU One" + SHORT + FULL
    assert f'<span title="{FULL}" aria-hidden="true">{SHORT}</span>' in html
    assert f'<span class="visually-hidden">{FULL}</span>' in html
    select = re.search(r'<select id="bc-source" name="source">(.*?)</select>', html, re.S)
    assert select is not None
    options = re.findall(r'<option value="([^"]*)">([^<]*)</option>', select.group(1))
    assert options == [("", "All sources"), ("Lab", "Lab"), *[("MLPerf Inference v5.1",) * 2]]
    rows = json.loads((apart / "data/leaderboard.json").read_text())
    assert {r["workload"]: r["sources"] for r in rows} == {
        "chat": [LAB],
        "mlperf-chat": [DELL, NVIDIA, QUANTA],
    }


def test_the_model_page_names_each_gpus_sources(apart):
    html = (apart / "models/m1/index.html").read_text()
    grids = [t for t in html_tables(html) if t[0][:2] == ["GPU, measured by", "10 tok/s"]]
    assert [t[1][0] for t in grids] == [
        "GPU One" + "Lab",
        "GPU One" + SHORT + FULL,
    ]


def test_one_source_has_no_filter_nor_column(tmp_path):
    out = built(write_site(tmp_path / "site", {"lab/chat.yaml": LAB_RUN}))
    html = (out / "index.html").read_text()
    assert 'name="source"' not in html
    assert "Every result here is measured by Lab." in html_text(html)
    assert all(t[0][1] == "GPU" for t in html_tables(html) if t[0][0] == "Rank")
    page, data = pair(out)
    assert 'id="sources"' not in page and data["disagreements"] == []
    assert plain(measured_line(page, "chat")).startswith("Measured by Lab: run of 2026-10-01.")


def test_the_source_filter_keeps_the_rows_of_one_family(apart, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((apart / "index.html").as_uri())
    chat, mlperf = "#board-chat-m1", "#board-mlperf-chat-m1"
    page.select_option("#bc-source", "MLPerf Inference v5.1")
    assert page.locator(f"{chat} .board-empty").is_visible()
    assert page.locator(f"{mlperf} .board-empty").is_hidden()
    assert page.evaluate("location.hash") == "#target=20&tier=owning&source=MLPerf+Inference+v5.1"
    assert "MLPerf Inference v5.1 only: 1 of 2 results shown." in page.inner_text(".board-status")
    page.goto((apart / "index.html").as_uri() + "#source=Lab")
    page.reload()
    assert page.locator("#bc-source").input_value() == "Lab"
    assert page.locator(f"{chat} .board-empty").is_hidden()
    assert page.locator(f"{mlperf} .board-empty").is_visible()
    assert errors == []
    context.close()
