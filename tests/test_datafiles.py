"""The downloads: CSV cells a spreadsheet would run are defused, numbers stay numbers, and a
run's data.json, written column by column, is the text its dicts always gave."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.calc.limits import run_mbu
from sitegen.records import Latency, SweepConfig, SweepRun, columnar, load_site
from sitegen.views.datafiles import (
    csv_text,
    leaderboard_csv_header,
    leaderboard_csv_line,
    run_data_json,
    run_json,
    to_json,
)


def test_a_data_file_is_compact_json_of_one_line_with_its_characters_as_they_are() -> None:
    value = {"model": "Qwén 3", "at": dt.date(2026, 10, 1), "xs": [1, 2.5e-05, None, True]}
    text = to_json(value)
    assert text == '{"model":"Qwén 3","at":"2026-10-01","xs":[1,2.5e-05,null,true]}\n'
    assert json.loads(text) == {**value, "at": "2026-10-01"}


def test_only_text_that_starts_a_formula_gets_a_quote() -> None:
    assert [csv_text(v) for v in ("=1+1", "+1", "-1", "@A1", "\tx", "\rx")] == [
        "'=1+1",
        "'+1",
        "'-1",
        "'@A1",
        "'\tx",
        "'\rx",
    ]
    assert [csv_text(v) for v in ("sglang", "fp8", "a=b", " =x", "")] == [
        "sglang",
        "fp8",
        "a=b",
        " =x",
        "",
    ]


def test_negative_numbers_are_written_as_numbers() -> None:
    site = SimpleNamespace(pricing=SimpleNamespace(tiers=[SimpleNamespace(slug="owning")]))
    row = {
        "model": "m1",
        "gpu": "g1",
        "workload": "chat",
        "tokens": "total",
        "interactivity": -5.0,
        "throughput_per_gpu": -1200.5,
        "cost_per_million_tokens": {"owning": -0.25},
        "engine": "-vllm",
        "precision": "fp8",
        "configs": 3,
        "last_date": "2026-10-01",
        "url": "models/m1/g1/",
        "cost_per_million_input_tokens": {"owning": -0.5},
        "cost_per_million_output_tokens": None,
        "energy": {"power": "-measured", "joules_per_token": -0.75},
        "sources": ["=Lab", "MLPerf Inference v5.1 (NVIDIA)"],
    }
    tiers = [t.slug for t in site.pricing.tiers]
    text = leaderboard_csv_header(tiers) + leaderboard_csv_line(tiers, row)
    (read,) = csv.DictReader(io.StringIO(text))
    assert read["interactivity"] == "-5.0"
    assert read["throughput_per_gpu"] == "-1200.5"
    assert read["cost_per_million_tokens_owning"] == "-0.25"
    assert read["engine"] == "'-vllm"
    assert read["cost_per_million_input_tokens_owning"] == "-0.5"
    assert read["power"] == "'-measured" and read["joules_per_token"] == "-0.75"
    assert read["sources"] == "'=Lab; MLPerf Inference v5.1 (NVIDIA)"  # a text cell


# -- runs/<id>/data.json: written column by column, the same text as its dicts ---------------


def _config_dict(c: SweepConfig, mbu: tuple = (None, None)) -> dict:
    """A config as data.json has always listed it: every field in SweepConfig's order (a
    latency as its figures), then interactivity, parallelism, MBU and why it has none."""
    out = {}
    for f in dataclasses.fields(c):
        value = getattr(c, f.name)
        if isinstance(value, Latency):
            value = {g.name: getattr(value, g.name) for g in dataclasses.fields(value)}
        out[f.name] = value
    out["interactivity"] = c.interactivity if c.tpot_ms else None
    out["parallelism"] = c.parallelism
    out["mbu"], out["mbu_missing"] = mbu
    return out


def _expected(run: SweepRun, mbu: list | None = None) -> str:
    """data.json as dicts of the configs made from the table, written by to_json."""
    mbu = mbu or [(None, None)] * len(run.configs)
    configs = [_config_dict(c, m) for c, m in zip(run.configs, mbu, strict=True)]
    return to_json({**run_json(run), "configs": configs})


def test_every_run_data_json_is_the_text_of_its_dicts(flagship):
    site, _ = load_site(flagship)
    sweeps = [r for r in site.runs if isinstance(r, SweepRun)]
    assert len(sweeps) > 100
    for run in sweeps:
        mbu = run_mbu(site, run, columnar.ConfigValues.of(run.configs).columns)
        assert run_data_json(run, None, mbu) == _expected(run, mbu), run.id


text = st.one_of(
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["a,b", "],[", '"', "\\", "%s", "%%", "\x7f", "\u2028", "ü🚀", "null", ""]),
)
number = st.one_of(
    st.none(),
    st.floats(min_value=1e-300, max_value=1e300),
    st.sampled_from([1e16, 1e-7, 0.1, 123456789.123, 2.0**60, 5e-324]),
)
count = st.one_of(st.none(), st.integers(1, 2**53))
latency = st.one_of(
    st.none(),
    st.builds(Latency, st.floats(1e-6, 1e12), number, number, number),
)
configs = st.builds(
    SweepConfig,
    gpus=st.integers(1, 4096),
    concurrency=st.integers(1, 10**6),
    throughput_per_gpu=number,
    ttft_ms=latency,
    tpot_ms=latency,
    output_throughput_per_gpu=number,
    e2el_ms=latency,
    status=st.sampled_from(["ok", "failed", "ö,k"]),
    tp=count,
    pp=count,
    ep=count,
    dp=count,
    dp_attention=st.one_of(st.none(), st.booleans()),
    spec_decoding=text,
    disagg=st.one_of(st.none(), st.booleans()),
    prefill_gpus=count,
    decode_gpus=count,
    power_w=number,
    image=text,
)


def _run_of(made: list[SweepConfig], notes: str | None = None) -> SweepRun:
    table = columnar.ConfigTable(columnar.columns_of(made))
    rows = columnar.ConfigRows(table, 0, len(made))  # a loaded site's configs: the table's
    return SweepRun(
        id="lab-a",
        path="data/runs/lab/a.yaml",
        kind="sweep",
        source="Lab",
        date=dt.date(2026, 1, 2),
        model="m",
        gpu="g",
        engine="vllm",
        precision="fp8",
        notes=notes,
        workload="chat",
        configs=rows,
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(configs, max_size=6), text)
def test_configs_of_any_values_are_written_as_their_dicts_would_be(made, notes):
    run = _run_of(made, notes)
    assert run_data_json(run) == _expected(run)
    assert json.loads(run_data_json(run))["configs"] == [_config_dict(c) for c in run.configs]


@settings(max_examples=150, deadline=None)
@given(configs, st.integers(1, 5), st.lists(configs, max_size=2))
def test_configs_alike_but_for_a_few_are_written_as_their_dicts_would_be(config, copies, others):
    """A field every config holds alike is written once into the configs' template: text with
    % in it, booleans, counts, null; the same where only some configs differ."""
    run = _run_of([config] * copies + others)
    assert run_data_json(run) == _expected(run)


def test_a_pairs_page_and_data_json_share_one_reading_of_its_points(flagship_files, monkeypatch):
    """pair_outputs reads each curve's points once, for the chart, its table and data.json
    alike: what each shows is what reading them afresh for it gives."""
    from sitegen.calc.tables import CurveSummary, summarise
    from sitegen.charts import frontier_chart_data
    from sitegen.charts.frontier_chart import point_figures
    from sitegen.charts.series import strongest
    from sitegen.records import Problems, load_site
    from sitegen.render.content import load_content
    from sitegen.views import Sources
    from sitegen.views.datafiles import pair_json, to_json
    from sitegen.views.pair import pair_outputs
    from sitegen.views.sidebyside import disagreements_json, pair_disagreements

    root = flagship_files[0]
    site, _ = load_site(root)
    content = load_content(root, site.models, site.gpus, Problems(), {r.id for r in site.runs})
    src = Sources(site, summarise(site), content)
    model, gpu = max(src.pair_keys, key=lambda k: sum(len(s.curves) for s in src.summaries(*k)))
    summaries = src.summaries(model, gpu)
    curves = sum(len(s.curves) for s in summaries)
    assert curves >= 3
    fresh_charts = [
        frontier_chart_data(site, s, strongest(src.envelope(s).leaders())) for s in summaries
    ]
    found = disagreements_json(pair_disagreements(src, summaries))
    fresh_json = to_json(pair_json(model, gpu, summaries, src.tier, disagreements=found))

    reads = []
    points = CurveSummary.points
    monkeypatch.setattr(
        CurveSummary, "points", property(lambda c: reads.append(c) or points.fget(c))
    )
    page, data = pair_outputs(src, model, gpu)
    assert len(reads) == curves  # once a curve, not once for the page and once for data.json
    assert data.data == fresh_json.encode()
    # the page shows its main workload's chart (the others' are on their own pages)
    charts = [w["chart_data"] for w in page.view.workloads[:1]]
    assert charts == fresh_charts[:1]
    parsed = json.loads(data.data)["workloads"]
    for s, chart in zip(summaries[:1], charts, strict=True):
        for listed, drawn in zip(parsed[s.workload]["curves"], chart["curves"], strict=True):
            assert [
                dict(
                    p,
                    parallelism=q["parallelism"],
                    date=q["date"],
                    figures=point_figures(p),
                    nodes=q["nodes"],
                )
                for p, q in zip(listed["points"], drawn["points"], strict=True)
            ] == drawn["points"]
