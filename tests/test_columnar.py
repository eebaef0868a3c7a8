"""The columnar screen against the exact checker: whatever it lets through, the checker passes
unchanged, and the table gives back the very configs the checker builds."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.records import columnar, model, schema
from sitegen.records.checker import Checker
from sitegen.records.problems import Problems
from sitegen.records.yamlpos import Document

numbers = st.one_of(
    st.floats(min_value=1e-7, max_value=2e12),
    st.integers(min_value=-3, max_value=300),
    st.sampled_from([0, -1.5, float("nan"), float("inf"), True, "8", None, 10**400, 8.0]),
)
latency = st.one_of(
    st.fixed_dictionaries(
        {"median": numbers},
        optional={"p90": numbers, "mean": numbers, "p99": numbers, "p95": numbers},
    ),
    st.sampled_from([None, 5, "fast", [1]]),
)
positive = st.one_of(st.floats(min_value=1e-6, max_value=1e12), st.integers(1, 10**12))
count = st.one_of(st.integers(1, 512), st.sampled_from([8.0, 16.0]))
valid = st.fixed_dictionaries(
    {
        "gpus": count,
        "concurrency": count,
        "throughput_per_gpu": positive,
        "ttft_ms": st.fixed_dictionaries(
            {"median": st.floats(1.0, 600_000.0)}, optional={"p90": positive, "mean": positive}
        ),
        "tpot_ms": st.fixed_dictionaries(
            {"median": st.floats(0.2, 10_000.0)}, optional={"p99": positive}
        ),
    },
    optional={
        "tp": count,
        "ep": count,
        "power_w": positive,
        "e2el_ms": st.fixed_dictionaries({"median": positive}),
        "dp_attention": st.sampled_from([True, False, None]),
        "spec_decoding": st.sampled_from(["mtp", "eagle", None]),
        "image": st.just("lmsysorg/sglang:v0.5"),
        "status": st.sampled_from(["ok", None]),
    },
)
wild = st.fixed_dictionaries(
    {"gpus": numbers, "concurrency": numbers},
    optional={
        "throughput_per_gpu": numbers,
        "output_throughput_per_gpu": numbers,
        "ttft_ms": latency,
        "tpot_ms": latency,
        "e2el_ms": latency,
        "tp": numbers,
        "ep": numbers,
        "dp_attention": st.sampled_from([True, False, None, "yes", 1, [True]]),
        "spec_decoding": st.sampled_from(["mtp", " mtp", "", 3, None, ["mtp"], {"a": 1}]),
        "interactivity": numbers,
        "status": st.sampled_from(["ok", "failed", None, "bad"]),
        "colour": st.just("blue"),
    },
)


def exact(configs: list) -> tuple[list, Problems]:
    problems = Problems()
    c = Checker("f.yaml", Document({"configs": configs}), problems)
    built = [schema._config(c, m, ("configs", i)) for i, m in enumerate(configs)]
    return built, problems


config = st.one_of(valid, valid, valid, wild)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(config, min_size=1, max_size=4), min_size=1, max_size=4))
def test_what_the_screen_passes_the_checker_passes_and_the_table_keeps(files):
    screened = columnar.screen(files)
    offset = 0
    for k, configs in enumerate(files):
        rows = slice(offset, offset + len(configs))
        offset += len(configs)
        if k in screened.flagged:
            continue
        built, problems = exact(configs)
        assert not problems, problems.items
        table = columnar.ConfigTable({n: col[rows] for n, col in screened.columns.items()})
        assert list(columnar.ConfigRows(table, 0, len(configs))) == built


@settings(max_examples=60, deadline=None)
@given(st.lists(config, min_size=1, max_size=5))
def test_a_config_the_checker_builds_comes_back_from_its_columns(configs):
    built, _ = exact(configs)
    good = [c for c in built if c is not None]
    table = columnar.ConfigTable(columnar.columns_of(good))
    assert list(columnar.ConfigRows(table, 0, len(good))) == good


def _fields(configs: list) -> dict[str, list]:
    """The configs' fields, latencies flattened as the table's columns, each with its type."""
    out: dict[str, list] = {}
    for spec in schema.CONFIG_SPEC:
        values = [getattr(c, spec.name) for c in configs]
        if spec.kind == schema.LATENCY:
            for part in schema.LATENCY_FIELDS:
                name = columnar.latency_column(spec.name, part)
                out[name] = [None if v is None else getattr(v, part) for v in values]
        else:
            out[spec.name] = values
    out["status"] = [c.status for c in configs]
    return {name: [(type(v), v) for v in values] for name, values in out.items()}


@settings(max_examples=100, deadline=None)
@given(st.lists(config, min_size=1, max_size=6))
def test_a_runs_values_are_its_configs_fields_and_what_they_derive(configs):
    """ConfigValues (what a run report reads) holds what the configs made from the table hold,
    read from the site's table or from configs as objects alike."""
    good = [c for c in exact(configs)[0] if c is not None]
    table = columnar.ConfigTable(columnar.columns_of(good))
    rows = columnar.ConfigRows(table, 0, len(good))
    made = list(rows)  # the objects a page made before: their types are the table's
    for values in (columnar.ConfigValues.of(rows), columnar.ConfigValues.of(tuple(made))):
        got = {name: [(type(v), v) for v in column] for name, column in values.columns.items()}
        assert got == _fields(made)
        assert values.parallelism == [c.parallelism for c in made]
        assert values.interactivity == [c.interactivity if c.tpot_ms else None for c in made]
        assert len(values) == len(made)


def test_each_config_field_is_declared_once_and_sweep_config_has_it():
    names = [spec.name for spec in schema.CONFIG_SPEC]
    attributes = [f.name for f in dataclasses.fields(model.SweepConfig)]
    assert sorted(names + ["status"]) == sorted(attributes)
    assert tuple(names) + ("interactivity", "status") == schema.CONFIG_FIELDS


def test_a_clean_file_is_not_flagged_and_a_bad_one_is():
    good = {"gpus": 8, "concurrency": 4, "throughput_per_gpu": 900.0}
    good |= {"ttft_ms": {"median": 300}, "tpot_ms": {"median": 20.5, "p90": 30}}
    screened = columnar.screen([[good], [dict(good, tp=True)], [good, dict(good)]])
    # a boolean where a number goes; the same config twice in one file
    assert screened.flagged == {1, 2}


def test_a_list_where_text_goes_flags_its_file_only():
    """A list or mapping in a field that tells configs apart is flagged, not compared (it would
    not hash), and the other files of the batch are screened as ever."""
    good = {"gpus": 8, "concurrency": 4, "throughput_per_gpu": 900.0}
    good |= {"ttft_ms": {"median": 300}, "tpot_ms": {"median": 20.5}}
    odd = [dict(good, spec_decoding=["mtp"]), dict(good, concurrency=8, dp_attention={"a": 1})]
    screened = columnar.screen([odd, [good], [dict(good, spec_decoding=[1, 2])]])
    assert screened.flagged == {0, 2}


def test_text_the_checker_would_strip_is_flagged_whatever_else_the_batch_holds():
    good = {"gpus": 8, "concurrency": 4, "throughput_per_gpu": 900.0}
    good |= {"ttft_ms": {"median": 300}, "tpot_ms": {"median": 20.5}}
    files = [[dict(good, spec_decoding=3)], [dict(good, spec_decoding=" mtp")], [good]]
    assert columnar.screen(files).flagged == {0, 1}
    assert columnar.screen(files[1:]).flagged == {0}


def test_screening_in_batches_loads_the_same_site(make_site, monkeypatch) -> None:
    """Plain sweeps are screened a batch at a time; any batch size gives the same runs."""
    import sitegen.records.load as load
    from conftest import config, sweep
    from sitegen.records import load_site

    bad = sweep(gpu="g2", configs=[config(8, 4, 900.0, 20.0), config(8, 4, 900.0, 20.0)])
    runs = {
        f"lab/r{i}.yaml": sweep(configs=[config(8, 2**i, 100.0 * i + 1, 20.0)]) for i in range(7)
    }
    runs["lab/z.yaml"] = bad  # flagged by the screen: the exact checker words its problem
    root = make_site(runs=runs)
    whole, whole_problems = load_site(root)
    monkeypatch.setattr(load, "SCREEN_FILES", 2)
    batched, batched_problems = load_site(root)
    assert whole is not None and batched is not None
    assert [str(p) for p in batched_problems.sorted()] == [str(p) for p in whole_problems.sorted()]
    assert [(r.id, tuple(r.configs)) for r in batched.runs] == [
        (r.id, tuple(r.configs)) for r in whole.runs
    ]
    assert len(batched.runs) == 8


def test_a_list_where_text_goes_is_a_problem_of_its_file(make_site) -> None:
    from conftest import config, sweep
    from sitegen.records import load_site

    odd = sweep(configs=[config(8, 4, 900.0, 20.0, spec_decoding=["mtp"])])
    root = make_site(runs={"lab/odd.yaml": odd, "lab/good.yaml": sweep(gpu="g2")})
    site, problems = load_site(root)
    assert site is None
    assert [str(p) for p in problems.sorted() if "odd.yaml" in str(p)] == [
        "data/runs/lab/odd.yaml:17: configs[0].spec_decoding: expected a string, got a list"
    ]


_CELLS = st.sampled_from([None, float("nan"), 0.0, -0.0, 1.0, 2.0, "x", "y", True, False])


@given(st.lists(st.tuples(st.integers(0, 2), _CELLS, _CELLS), max_size=30))
def test_duplicated_rows_is_pandas_duplicated(rows):
    """The dict that finds duplicate configs in a few rows against pandas, which finds them
    in many: None and NaN alike, 0.0 and -0.0 alike."""
    import numpy as np
    import pandas as pd

    from sitegen.records.columnar import duplicated_rows

    owner = np.array([r[0] for r in rows], dtype=np.int64)
    a = np.array([r[1] for r in rows], dtype=object)
    b = np.array([r[2] for r in rows], dtype=object)
    expected = pd.DataFrame({"file": owner, "a": a, "b": b}).duplicated(keep=False).to_numpy()
    assert duplicated_rows([owner, a, b]).tolist() == expected.tolist()
    floats = np.array([r[1] if isinstance(r[1], float) else 1.5 for r in rows], dtype=np.float64)
    expected = pd.DataFrame({"file": owner, "f": floats}).duplicated(keep=False).to_numpy()
    assert duplicated_rows([owner, floats]).tolist() == expected.tolist()
