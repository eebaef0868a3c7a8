"""Every rule of docs/data.md, with the message a site owner reads."""

from __future__ import annotations

import copy

import pytest

from conftest import SITE_CONFIG, config, sweep
from sitegen.records import load_site

BROKEN_RUN = """\
kind: sweep
source: Lab
date: 2026-10-01
model: m1
gpu: g1
engine: vllm
precision: fp8
workload: chat
configs:
  - {gpus: 8, concurrency: 64, throughput_per_gpu: 1000,
     ttft_ms: {median: 500}, tpot_ms: {median: 100}}
  - gpus: 8
    concurrency: 16
    throughput_per_gpu: 600
    ttft_ms: {median: 500}
    tpot_ms: {median: fast}
"""


def problems_of(make_site, **kwargs) -> list[str]:
    _, problems = load_site(make_site(**kwargs))
    return [str(p) for p in problems.sorted()]


def errors_of(make_site, **kwargs) -> list[str]:
    _, problems = load_site(make_site(**kwargs))
    return [str(p) for p in problems.sorted() if p.severity == "error"]


def test_a_good_site_has_no_problems(make_site):
    site, problems = load_site(make_site())
    assert not problems
    assert site is not None and len(site.sweeps) == 1
    assert site.sweeps[0].configs[0].interactivity == pytest.approx(10.0)


def test_message_names_file_line_field_and_value(make_site):
    assert errors_of(make_site, runs={"x.yaml": BROKEN_RUN}) == [
        'data/runs/x.yaml:16: configs[1].tpot_ms.median: expected a number > 0, got "fast"'
    ]


def test_all_problems_are_reported_together(make_site):
    runs = {
        "a.yaml": BROKEN_RUN,
        "b.yaml": sweep(model="nope"),
        "c.yaml": sweep(configs=[config(0, 4, 10.0, 5.0)]),
    }
    errors = errors_of(make_site, runs=runs)
    assert len(errors) == 3
    assert errors[0].startswith("data/runs/a.yaml:16: configs[1].tpot_ms.median")
    assert errors[1].startswith(
        "data/runs/b.yaml:4: model: expected a slug defined in "
        'data/models.yaml (known: m1, m2), got "nope"'
    )
    assert errors[2].startswith(
        "data/runs/c.yaml:10: configs[0].gpus: expected an integer >= 1, got 0"
    )


def bad(**changes):
    record = sweep()
    for key, value in changes.items():
        if value is None:
            del record[key]
        else:
            record[key] = value
    return record


def bad_config(**changes):
    c = config(8, 4, 200.0, 10.0)
    for key, value in changes.items():
        if value is None:
            del c[key]
        else:
            c[key] = value
    return sweep(configs=[c])


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (bad(source=None), "source: expected a string, got nothing (the field is missing)"),
        (bad(date="yesterday"), 'date: expected an ISO date (YYYY-MM-DD), got "yesterday"'),
        (bad(date=None), "date: expected an ISO date (YYYY-MM-DD), got nothing"),
        (bad(gpu="h900"), "gpu: expected a slug defined in data/gpus.yaml"),
        (bad(workload="batch"), "workload: expected a slug defined in data/workloads.yaml"),
        (bad(engine=None), "engine: expected a string, got nothing"),
        (bad(precision=None), "precision: expected a string, got nothing"),
        (bad(kind="grid"), 'kind: expected one of sweep, matrix, got "grid"'),
        (bad(illustrative="yes"), 'illustrative: expected true or false, got "yes"'),
        (bad(configs=[]), "configs: expected a list of at least one measured config, got a list"),
        (
            bad(configs=None),
            "configs: expected a list of at least one measured config, got nothing",
        ),
        (bad_config(gpus=1.5), "configs[0].gpus: expected an integer >= 1, got 1.5"),
        (
            bad_config(concurrency=None),
            "configs[0].concurrency: expected an integer >= 1 (or request_rate), got nothing",
        ),
        (
            bad_config(throughput_per_gpu=-3),
            "configs[0].throughput_per_gpu: expected a number > 0, got -3",
        ),
        (
            bad_config(throughput_per_gpu=True),
            "configs[0].throughput_per_gpu: expected a number > 0, got true",
        ),
        (
            bad_config(tpot_ms=20),
            "configs[0].tpot_ms: expected a mapping such as {median: 20.5}, got 20",
        ),
        (
            bad_config(ttft_ms=None),
            "configs[0].ttft_ms: expected a mapping with a median in ms, got nothing",
        ),
        (
            bad_config(ttft_ms={"p99": 9}),
            "configs[0].ttft_ms.median: expected a number > 0, got nothing",
        ),
        (
            bad_config(status="crashed"),
            'configs[0].status: expected one of ok, failed, got "crashed"',
        ),
        (bad_config(tp=0), "configs[0].tp: expected an integer >= 1, got 0"),
        (
            bad_config(interactivity=150),
            "configs[0].interactivity: expected 1000 / tpot_ms.median = 100 (within 1 %), got 150",
        ),
    ],
)
def test_run_record_rules(make_site, record, expected):
    errors = errors_of(make_site, runs={"r.yaml": record})
    assert len(errors) == 1, errors
    assert errors[0].startswith("data/runs/r.yaml:")
    assert expected in errors[0]


def test_interactivity_within_one_percent_is_accepted(make_site):
    assert not errors_of(make_site, runs={"r.yaml": bad_config(interactivity=100.9)})


def test_failed_configs_need_no_figures(make_site):
    record = sweep(
        configs=[config(8, 4, 200.0, 10.0), {"gpus": 8, "concurrency": 512, "status": "failed"}]
    )
    site, problems = load_site(make_site(runs={"r.yaml": record}))
    assert site is not None and not problems.errors
    assert [c.status for c in site.sweeps[0].configs] == ["ok", "failed"]


def test_bad_yaml_names_the_line(make_site):
    errors = errors_of(make_site, runs={"r.yaml": "kind: sweep\nsource: [unclosed\n"})
    assert len(errors) == 1 and errors[0].startswith("data/runs/r.yaml:3: not valid YAML")


def test_duplicate_key_is_an_error(make_site):
    text = BROKEN_RUN.replace("tpot_ms: {median: fast}", "tpot_ms: {median: 5}").replace(
        "source: Lab\n", "source: Lab\nsource: Other\n"
    )
    errors = errors_of(make_site, runs={"r.yaml": text})
    assert errors == ["data/runs/r.yaml:3: not valid YAML: duplicate key 'source'"]


def test_json_records_are_read_with_lines(make_site):
    text = (
        '{"kind": "sweep", "source": "Lab", "date": "2026-10-01", "model": "m1",\n'
        ' "gpu": "g1", "engine": "vllm", "precision": "fp8", "workload": "chat",\n'
        ' "configs": [{"gpus": 8, "concurrency": 4, "throughput_per_gpu": "x",\n'
        '   "ttft_ms": {"median": 5}, "tpot_ms": {"median": 5}}]}\n'
    )
    errors = errors_of(make_site, runs={"r.json": text})
    assert errors == [
        'data/runs/r.json:3: configs[0].throughput_per_gpu: expected a number > 0, got "x"'
    ]


def test_truncated_json_is_an_error_with_its_line(make_site):
    errors = errors_of(make_site, runs={"r.json": '{"kind": "sweep",\n "source": '})
    assert len(errors) == 1 and errors[0].startswith("data/runs/r.json:2: not valid JSON")


def test_slugs_must_be_lowercase(make_site):
    errors = errors_of(make_site, models={"Kimi_K3": {"name": "Kimi"}, "m1": {"name": "M"}})
    assert errors == [
        "data/models.yaml:1: Kimi_K3: expected a slug: lowercase a-z 0-9 . -, "
        'starting and ending with a letter or digit, got "Kimi_K3"'
    ]


def test_catalog_entries_need_a_name(make_site):
    errors = errors_of(make_site, gpus={"g1": {"vendor": "Acme"}, "g2": {"name": "G2"}})
    assert any(e.startswith("data/gpus.yaml:1: g1.name: expected a string") for e in errors)


def test_run_id_must_be_a_slug(make_site):
    errors = errors_of(make_site, runs={"Lab Runs/R1.yaml": sweep()})
    assert len(errors) == 1 and "run id 'Lab Runs-R1'" in errors[0]


def test_two_files_with_one_id(make_site):
    errors = errors_of(make_site, runs={"a/b.yaml": sweep(), "a-b.yaml": sweep(date="2026-09-01")})
    assert len(errors) == 1 and "is also the id of" in errors[0]


def test_pricing_rules(make_site):
    pricing = {
        "source": "S",
        "as_of": "2026-07",
        "tiers": {"owning": {"label": "Owning"}},
        "prices": {"g1": {"owning": 0, "spot": 1.0}, "g9": {"owning": 1.0}},
    }
    errors = errors_of(make_site, pricing=pricing)
    assert any("prices.g1.owning: expected a number > 0, got 0" in e for e in errors)
    assert any(
        'prices.g1.spot: expected a tier defined under tiers, got "spot"' in e for e in errors
    )
    assert any(
        'prices.g9: expected a GPU slug defined in data/gpus.yaml, got "g9"' in e for e in errors
    )


def test_site_config_rules(make_site):
    cfg = copy.deepcopy(SITE_CONFIG)
    cfg.update(
        base_url="example.org",
        targets=[30, "fast"],
        default_workload="nope",
        headline={"interactivity": 20, "tier": "spot"},
        frontier={"method": "spline"},
    )
    errors = errors_of(make_site, config=cfg)
    text = "\n".join(errors)
    assert 'sitegen.yaml:2: base_url: expected an absolute http(s) URL, got "example.org"' in text
    assert 'targets[1]: expected a number > 0, got "fast"' in text
    assert "default_workload: expected a slug defined in data/workloads.yaml" in text
    assert 'headline.tier: expected one of owning, retail, got "spot"' in text
    assert 'frontier.method: expected one of interpolate, measured, got "spline"' in text


def test_missing_site_file(make_site, tmp_path):
    root = make_site()
    (root / "data" / "gpus.yaml").unlink()
    _, problems = load_site(root)
    assert "data/gpus.yaml: file not found" in [str(p) for p in problems.errors]


# -- warnings ----------------------------------------------------------------------------------


def warnings_of(make_site, **kwargs) -> list[str]:
    site, problems = load_site(make_site(**kwargs))
    assert site is not None, problems.sorted()
    return [str(p) for p in problems.warnings]


def test_implausible_latencies_warn(make_site):
    record = sweep(
        configs=[config(8, 4, 200.0, 10.0, ttft_ms=0.4), config(8, 8, 300.0, 12.0, ttft_ms=700_000)]
    )
    warnings = warnings_of(make_site, runs={"r.yaml": record})
    assert len(warnings) == 2
    assert "configs[0].ttft_ms.median: implausible TTFT of 0.4 ms" in warnings[0]
    assert warnings[0].endswith("(warning)")
    assert "configs[1].ttft_ms.median: implausible TTFT of 700000 ms" in warnings[1]


def test_duplicate_configs_warn_within_and_across_files(make_site):
    c = config(8, 4, 200.0, 10.0)
    warnings = warnings_of(
        make_site, runs={"a.yaml": sweep(configs=[c, c]), "b.yaml": sweep(configs=[c])}
    )
    assert any("a.yaml" in w and "configs[1]: duplicate config" in w for w in warnings)
    assert any("b.yaml" in w and "also measured in data/runs/a.yaml" in w for w in warnings)


def test_gpu_with_runs_but_no_price_warns(make_site):
    warnings = warnings_of(make_site, runs={"r.yaml": sweep(gpu="g2")})
    assert warnings == [
        "data/pricing.yaml: prices.g2: GPU 'g2' has runs but no price; its cost "
        "cells will say that no price is known (warning)"
    ]


def test_unknown_fields_warn(make_site):
    record = sweep(configs=[config(8, 4, 200.0, 10.0, tpot_m=3)])
    warnings = warnings_of(make_site, runs={"r.yaml": record})
    assert len(warnings) == 1 and "configs[0].tpot_m: unknown field, ignored" in warnings[0]


def test_problems_keep_each_once_in_order_however_many():
    from sitegen.records import Problem, Problems

    problems = Problems()
    warnings = [
        Problem("a.yaml", i, "f", "unknown field, ignored", "warning") for i in range(100_000)
    ]
    for p in warnings + warnings[:500]:
        problems.add(p)
    problems.add(Problem("a.yaml", 3, "g", "bad", "error"))
    assert len(problems) == 100_001
    assert problems.items[:100_000] == warnings
    assert problems.has_errors and len(problems.errors) == 1
    assert len(problems.warnings) == 100_000


def test_clean_files_are_read_without_positions_and_a_problem_finds_its_line(
    make_site, monkeypatch
):
    """Lines cost a second, slower parse: only a file with a problem pays for it."""
    import json

    from sitegen.records import load_site, yamlpos

    parsed: list[str] = []
    real = yamlpos.positions
    monkeypatch.setattr(yamlpos, "positions", lambda text: parsed.append(text) or real(text))
    bad = sweep(date="2026-10-02")
    bad["configs"][1]["tpot_ms"] = {"median": -1}
    root = make_site(
        runs={
            "lab/a.yaml": sweep(),
            "lab/b.json": json.dumps(sweep(engine="sglang"), indent=1),
            "lab/c.json": json.dumps(bad, indent=1),
        }
    )
    site, problems = load_site(root)
    assert site is None
    assert len(parsed) == 1 and '"sglang"' not in parsed[0]
    [problem] = problems.errors
    text = (root / "data/runs/lab/c.json").read_text().splitlines()
    assert problem.file == "data/runs/lab/c.json"
    assert '"median": -1' in text[problem.line - 1]
