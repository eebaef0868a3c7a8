"""Run reports: the flagship matrix run shows every figure of the seed page, in the same tables."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen.charts import Chart, ChartCache, draw_charts, run_chart_data
from sitegen.pipeline.build import render_site
from sitegen.records import load_site
from sitegen.render.environment import environment
from sitegen.views import run as runs

FIXTURES = Path(__file__).parent / "fixtures" / "runs"
SEED = (FIXTURES / "seed-004-matrix-page.txt").read_text(encoding="utf-8")
FLAGSHIP_ID = "localmaxxing-paiton-kimi-k3.1-pro-mi355x-2026-11-11"
SWEEP_ID = "inferencex-kimi-k3.1-pro-mi355x-sglang-fp4-2026-11-05"


class _Report(HTMLParser):
    """Tables keyed by the heading before them, the setup list, and each cell's style."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.styles: dict[str, list[str]] = {}
        self.setup: dict[str, str] = {}
        self.links: list[str] = []
        self._heading: list[str] | None = None
        self._last_heading = ""
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._dt: list[str] | None = None
        self._dd: list[str] | None = None
        self._term = ""

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag in ("h2", "h3"):
            self._heading = []
        elif tag == "table":
            self._table = self._last_heading
            self.tables[self._table] = []
            self.styles[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
            if tag == "td":
                self.styles[self._table].append(a.get("style", ""))
        elif tag == "dt":
            self._dt = []
        elif tag == "dd":
            self._dd = []
        elif tag == "a":
            self.links.append(a.get("href", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3") and self._heading is not None:
            self._last_heading = " ".join("".join(self._heading).split())
            self._heading = None
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "dt" and self._dt is not None:
            self._term = " ".join("".join(self._dt).split())
            self._dt = None
        elif tag == "dd" and self._dd is not None:
            self.setup[self._term] = " ".join("".join(self._dd).split())
            self._dd = None

    def handle_data(self, data: str) -> None:
        for part in (self._heading, self._cell, self._dt, self._dd):
            if part is not None:
                part.append(data)


def _seed_tables() -> dict[str, list[list[str]]]:
    """The seed's Markdown tables, keyed by the line that names each."""
    tables: dict[str, list[list[str]]] = {}
    title = ""
    lines = SEED.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|"):
            if not lines[i - 1].startswith("|"):
                # the title is the nearest line above that is not a note
                back = i - 1
                while not lines[back][0].isupper() or lines[back].endswith("."):
                    back -= 1
                title = lines[back]
                tables[title] = []
            if not set(line) <= set("|- "):
                tables[title].append([c.strip() for c in line.strip("|").split("|")])
    return tables


@pytest.fixture(scope="module")
def built(flagship_files) -> dict[str, bytes]:
    return flagship_files[1]


@pytest.fixture(scope="module")
def report(built) -> _Report:
    parser = _Report()
    parser.feed(built[f"runs/{FLAGSHIP_ID}/index.html"].decode())
    return parser


def test_seed_has_the_four_tables():
    assert list(_seed_tables()) == [
        "Prefill (one cold request)",
        "Decode throughput, all requests together (output tok/s)",
        "Decode speed seen by each request (tok/s, median)",
        "Time to first token (s, median)",
    ]


@pytest.mark.parametrize("title", list(_seed_tables()))
def test_every_seed_table_reads_back_cell_for_cell(report, title):
    seed = _seed_tables()[title]
    page = report.tables[title]
    header = page[0]
    # the page may add columns (per GPU); each of the seed's columns is there, in its order
    columns = [header.index(name) for name in seed[0]]
    assert columns == sorted(columns)
    assert [[row[i] for i in columns] for row in page] == seed


def test_canonical_prompt_runs(report):
    seed = re.search(r"Canonical prompt runs\n(.*?)\nMatrix run", SEED, re.S).group(1)
    expected = []
    for line in seed.splitlines():
        value, unit, label = re.match(r"([\d,.]+) (tok/s|ms)(.*)", line).groups()
        expected.append([label, f"{value} {unit}"])
    assert report.tables["Canonical prompt runs"][1:] == expected


def test_setup_has_every_figure_of_the_seed(report):
    seed = re.search(r"\nSetup\n(.*?)\nCanonical", SEED, re.S).group(1).splitlines()
    pairs = dict(zip(seed[0::2], seed[1::2], strict=True))
    for label, value in pairs.items():
        label, value = label.removeprefix("- "), value.removeprefix("- ")
        shown = report.setup[label]
        figures = re.findall(r"\d[\d,.]*\d|\d", value.split(":")[0])
        assert figures, label
        for figure in figures:
            assert figure in shown, (label, figure, shown)
    assert "2 of the node's 8 GPUs unused" in report.setup["GPUs"]
    assert "moonshotai/Kimi-K3.1-Pro, MXFP4" in report.setup["Model"]
    assert "prefix cache busted per request" in report.setup["Bench"]


def test_write_up_and_title(built):
    html = built[f"runs/{FLAGSHIP_ID}/index.html"].decode()
    assert "<h1>Kimi-K3.1-Pro on Paiton, measured with LocalMaxxing</h1>" in html
    assert "their submission API only accepts GPUs from a fixed" in html


def test_per_gpu_figures_beside_node_totals(report):
    per_gpu = report.tables["Decode throughput per GPU (output tok/s per GPU, node total / 6)"]
    assert per_gpu[1] == ["0", "19.2", "29.3", "54.0", "77.0", "124"]
    prefill = report.tables["Prefill (one cold request)"]
    assert prefill[0][-1] == "prefill tok/s per GPU" and prefill[1][-1] == "2,141"


def test_grid_cells_are_coloured_fast_to_slow(report):
    styles = report.styles["Time to first token (s, median)"]
    colours = [re.search(r"#[0-9a-f]{6}", s).group(0) for s in styles]
    assert len(colours) == 20
    # lowest TTFT (0.09 s, first cell) is the fast end, highest (20.82 s) the slow end
    assert colours[0] == runs.scale_colour(1.0)
    assert colours[14] == runs.scale_colour(0.0)
    aggregate = report.styles["Decode throughput, all requests together (output tok/s)"]
    assert runs.scale_colour(1.0) in aggregate[4]  # 741 tok/s, the highest


@pytest.mark.parametrize("place", [i / 20 for i in range(21)])
def test_every_colour_keeps_the_text_readable(place):
    assert runs.contrast_ratio("#1b1f24", runs.scale_colour(place)) >= 7.0


def test_goodness_uses_log_scale_for_wide_ranges():
    places = runs.goodness([0.1, 1.0, 10.0], higher_is_better=False)
    assert places == pytest.approx([1.0, 0.5, 0.0])
    assert runs.goodness([1, 2, 3], higher_is_better=True) == pytest.approx([0, 0.5, 1])
    assert runs.goodness([5, 5], higher_is_better=True) == [0.5, 0.5]


def test_matrix_data_json_is_the_run(built):
    data = json.loads(built[f"runs/{FLAGSHIP_ID}/data.json"])
    assert data["id"] == FLAGSHIP_ID and data["kind"] == "matrix" and data["gpus"] == 6
    assert data["date"] == "2026-11-11" and "path" not in data
    cell = data["decode"][4]
    assert cell == {
        "context": 0,
        "concurrency": 16,
        "aggregate_tok_s": 741,
        "per_request_tok_s": 46,
        "ttft_s": 0.96,
        "aggregate_tok_s_per_gpu": pytest.approx(741 / 6),
    }
    assert data["bench"]["tool"] == "lmx 0.1.60"


def test_sweep_report_lists_every_config(built):
    parser = _Report()
    parser.feed(built[f"runs/{SWEEP_ID}/index.html"].decode())
    table = parser.tables["Measured configurations"]
    assert table[0] == [
        "Parallelism",
        "GPUs",
        "Concurrency",
        "Tokens/s per GPU",
        "Tok/s per user",
        "TTFT (median)",
        "TPOT (median)",
        "MBU",
        "Status",
    ]
    assert len(table) == 7
    # the seed's agentx workload gives no input and output lengths: no MBU
    assert ["TP8 EP8", "8", "64", "12,926", "50", "820 ms", "20 ms", "-", "ok"] in table
    data = json.loads(built[f"runs/{SWEEP_ID}/data.json"])
    assert data["configs"][2]["interactivity"] == pytest.approx(50.0)
    assert data["configs"][2]["parallelism"] == "TP8 EP8"
    assert "line" not in data["configs"][2]


def test_every_run_has_a_report(built):
    from conftest import REPO

    ids = {
        p.relative_to(REPO / "data" / "runs").with_suffix("").as_posix().replace("/", "-")
        for p in (REPO / "data" / "runs").rglob("*.yaml")
    }
    reports = {p.split("/")[1] for p in built if p.startswith("runs/") and p.endswith(".html")}
    assert {FLAGSHIP_ID, SWEEP_ID} <= reports
    assert reports == ids
    assert {p.split("/")[1] for p in built if p.startswith("runs/") and p.endswith(".json")} == ids


def test_failed_config_is_listed(make_site):
    from conftest import config, sweep

    record = sweep(
        configs=[config(8, 64, 1000.0, 100.0), {"gpus": 8, "concurrency": 512, "status": "failed"}]
    )
    files, _ = render_site(make_site(runs={"lab/run.yaml": record}))
    parser = _Report()
    parser.feed(files["runs/lab-run/index.html"].decode())
    rows = parser.tables["Measured configurations"]
    assert rows[-1] == ["8 GPUs", "8", "512", "-", "-", "-", "-", "-", "failed"]


def test_the_configs_table_escapes_what_a_record_says(make_site):
    """A record's text shows in the configs table as text, never as markup; a failed config's
    row is marked."""
    from conftest import config, sweep

    odd = config(8, 64, 1000.0, 100.0, spec_decoding="<b>&\"q'</b>")
    record = sweep(configs=[odd, {"gpus": 8, "concurrency": 512, "status": "failed"}])
    files, _ = render_site(make_site(runs={"lab/run.yaml": record}))
    html = files["runs/lab-run/index.html"].decode()
    assert "<B>" not in html
    cell = '<th scope="row">&lt;B&gt;&amp;&#34;Q&#39;&lt;/B&gt;</th>'
    assert f"      <tr>{cell}" in html
    assert '      <tr class="failed"><th scope="row">8 GPUs</th>' in html
    parser = _Report()
    parser.feed(html)
    rows = parser.tables["Measured configurations"]
    assert rows[1][0] == "<B>&\"Q'</B>" and rows[1][1:] == [
        "8",
        "64",
        "1,000",
        "10",
        "500 ms",
        "100 ms",
        "-",
        "ok",
    ]


def test_matrix_without_optional_parts(make_site):
    record = {
        "kind": "matrix",
        "source": "Lab",
        "date": "2026-10-02",
        "model": "m1",
        "gpu": "g2",
        "gpus": 1,
        "engine": "llamacpp",
        "precision": "q4",
        "decode": [
            {
                "context": 0,
                "concurrency": 1,
                "aggregate_tok_s": 40,
                "per_request_tok_s": 41,
                "ttft_s": 0.2,
            },
            {
                "context": 0,
                "concurrency": 4,
                "aggregate_tok_s": 90,
                "per_request_tok_s": 25,
                "ttft_s": 0.5,
            },
        ],
    }
    files, _ = render_site(make_site(runs={"lab/run.yaml": _sweep(), "home/m.yaml": record}))
    parser = _Report()
    parser.feed(files["runs/home-m/index.html"].decode())
    assert parser.setup["GPUs"] == "1x Acme GPU Two"
    assert parser.setup["Engine"] == "llama.cpp"
    assert "Prefill (one cold request)" not in parser.tables
    site, _ = load_site(make_site(runs={"lab/run.yaml": _sweep(), "home/m.yaml": record}))
    summary = runs.matrix_summary(site.matrices[0])
    assert (summary.single_request_tok_s, summary.aggregate_tok_s) == (41, 90)
    assert summary.prefill_tok_s is None


def _sweep() -> dict:
    from conftest import sweep

    return sweep()


def test_sweep_report_charts_its_ok_configs(built):
    html = built[f"runs/{SWEEP_ID}/index.html"].decode()
    data = json.loads(built[f"runs/{SWEEP_ID}/data.json"])
    found = re.findall(r'data-interactivity="([^"]+)" data-throughput-per-gpu="([^"]+)"', html)
    points = sorted((float(x), float(y)) for x, y in found)
    expected = sorted(
        (c["interactivity"], c["throughput_per_gpu"])
        for c in data["configs"]
        if c["status"] == "ok"
    )
    assert points == expected and len(points) == 6
    assert 'class="chart frontier-chart"' in html


def test_a_reports_chart_is_in_the_figure_chart_figure_writes(flagship_files, built):
    """run.html writes the chart's figure itself (a run's chart has one series, so no legend
    under it): the same markup as the _charts.html macro the other pages call."""
    root, _ = flagship_files
    site, _ = load_site(root)
    run = next(r for r in site.runs if r.id == SWEEP_ID)
    chart = Chart("run", run_chart_data(site, run))
    draw_charts([chart], ChartCache(None))
    assert len(chart.legend) == 1
    macro = '{% from "_charts.html" import chart_figure %}{{ chart_figure(chart, "curves") }}'
    figure = environment(root).from_string(macro).render(chart=chart)
    assert figure.startswith("<figure") and chart.svg in figure
    assert f"</p>\n  {figure}\n</section>" in built[f"runs/{SWEEP_ID}/index.html"].decode()


def test_matrix_report_has_no_chart(built):
    assert "frontier-chart" not in built[f"runs/{FLAGSHIP_ID}/index.html"].decode()


def test_a_matrix_never_enters_the_ladder(built):
    data = json.loads(built["models/kimi-k3.1-pro/mi355x/data.json"])
    engines = {c["engine"] for w in data["workloads"].values() for c in w["curves"]}
    rungs = {r["engine"] for w in data["workloads"].values() for r in w["ladder"]}
    assert "paiton" not in engines | rungs
    html = built["models/kimi-k3.1-pro/mi355x/index.html"].decode()
    other = html[html.index('id="other-measurements"') : html.index('id="runs"')]
    assert f'href="../../../runs/{FLAGSHIP_ID}/"' in other
    assert "130 tok/s" in other and "741 tok/s" in other and "13,392 tok/s" in other
    runs_table = html[html.index('id="runs"') :]
    assert f'href="../../../runs/{FLAGSHIP_ID}/"' in runs_table
    assert f'href="../../../runs/{SWEEP_ID}/"' in runs_table
