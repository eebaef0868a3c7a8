"""Parquet archives: data/runs/**/*.parquet read as sweep records, and `sitegen import` into one."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from click.testing import CliRunner, Result

from conftest import GPUS, MODELS, WORKLOADS, config, sweep
from sitegen.cli import main
from sitegen.pipeline.build import render_site
from sitegen.records import Problems, load_site, schema
from sitegen.records.parquet import COLUMNS, LATENCIES, STATISTICS, archive_bytes, read_archive

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "importers"
VLLM = [FIXTURES / "vllm" / "c1.json", FIXTURES / "vllm" / "c4.json"]
VLLM_OPTIONS = ["--model", "m1", "--gpu", "g1", "--gpus", "2", "--precision", "fp8"]
VLLM_OPTIONS += ["--engine", "vllm", "--workload", "chat", "--source", "Lab"]
INFERENCEX_API = FIXTURES / "deepseek-v4-pro-8k1k-2026-09-04.json"


def rich_sweep(**extra) -> dict:
    """A sweep that uses every config field, so that a round trip has something to lose."""
    configs = [
        config(
            8,
            64,
            1000.0,
            100.0,
            ttft_ms=900.0,
            tp=8,
            ep=8,
            dp_attention=True,
            power_w=700.5,
            output_throughput_per_gpu=120.0,
            image="vllm/vllm-openai:v0.6.1",
        ),
        config(8, 16, 600.0, 25.0, interactivity=40.0, spec_decoding="mtp"),
        config(
            16,
            4,
            200.0,
            10.0,
            disagg=True,
            prefill_gpus=8,
            decode_gpus=8,
            pp=2,
            dp=2,
        ),
        {"gpus": 8, "concurrency": 512, "status": "failed"},
    ]
    configs[0]["ttft_ms"].update(mean=950.0, p90=1200.0, p99=2100.5)
    configs[0]["tpot_ms"].update(p99=130.0)
    configs[0]["e2el_ms"] = {"median": 41000.0, "mean": 42000.0, "p90": 50000.0, "p99": 61000.0}
    fields = dict(url="https://example.org/run/7", engine_version="0.6.1", notes="Two words.")
    return sweep(configs=configs, **{**fields, **extra})


def archive(*records: dict, runs: list[str | None] | None = None) -> bytes:
    """Records as an archive, through the writer `sitegen import` uses."""
    names = runs or [None] * len(records)
    problems = Problems()
    content = archive_bytes(list(zip(names, records, strict=True)), "x.parquet", problems)
    assert content is not None, [str(p) for p in problems.items]
    return content


def write_frame(root: Path, rel: str, frame: pd.DataFrame) -> Path:
    path = root / "data" / "runs" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(path, index=False)
    return path


def flat_rows(n: int = 3, **columns) -> pd.DataFrame:
    """n rows of one run, as someone writes an archive with pandas; columns override."""
    base = {
        "source": "Lab",
        "date": "2026-10-01",
        "model": "m1",
        "gpu": "g1",
        "engine": "vllm",
        "precision": "fp8",
        "workload": "chat",
        "gpus": 8,
        "concurrency": [4 * 4**i for i in range(n)],
        "throughput_per_gpu": [200.0 * (i + 1) for i in range(n)],
        "ttft_ms_median": 500.0,
        "tpot_ms_median": [10.0 * (i + 1) for i in range(n)],
    }
    base.update(columns)
    return pd.DataFrame({k: v if isinstance(v, list) else [v] * n for k, v in base.items()})


def problem_lines(root: Path) -> list[str]:
    _, problems = load_site(root)
    return [str(p) for p in problems.sorted()]


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


# -- the columns ---------------------------------------------------------------------------------


def test_every_field_of_a_sweep_record_has_a_column_and_the_docs_list_them() -> None:
    fields = set(schema.SWEEP_FIELDS) - {"kind", "configs"}
    fields |= set(schema.CONFIG_FIELDS) - set(LATENCIES)
    fields |= {f"{name}_{s}" for name in LATENCIES for s in STATISTICS}
    assert set(COLUMNS) == fields | {"run"}
    docs = (REPO / "docs" / "data.md").read_text()
    section = docs.split("## Parquet archives", 1)[1].split("\n## ", 1)[0]
    table = section.split("| --- |", 1)[1].split("\n\n", 1)[0]
    assert set(COLUMNS) - set(re.findall(r"`([a-z0-9_]+)`", table)) == set()


# -- reading: the same records as YAML -----------------------------------------------------------


def test_an_archive_builds_byte_for_byte_the_site_its_yaml_records_build(make_site) -> None:
    older = rich_sweep(date="2026-09-01")
    sglang = rich_sweep(engine="sglang", precision="fp4", illustrative=True)
    records = {
        "m1-g1-vllm-fp8-chat-2026-10-01": rich_sweep(),
        "m1-g1-vllm-fp8-chat-2026-09-01": older,
        "m1-g1-sglang-fp4-chat-2026-10-01": sglang,
        "m2-g2-vllm-fp8-chat-2026-10-01": sweep(model="m2", gpu="g2"),
    }
    yaml_site = make_site(runs={f"lab/{name}.yaml": r for name, r in records.items()})
    yaml_files, _ = render_site(yaml_site, use_cache=False)

    # The same records read back from their YAML text, into one archive: data/runs/lab.parquet
    # gives its runs the ids of the files under data/runs/lab/.
    read_back = [
        yaml.safe_load((yaml_site / f"data/runs/lab/{name}.yaml").read_text()) for name in records
    ]
    for name in records:
        (yaml_site / f"data/runs/lab/{name}.yaml").unlink()
    (yaml_site / "data/runs/lab.parquet").write_bytes(archive(*read_back))
    archive_files, _ = render_site(yaml_site, use_cache=False)

    assert sorted(archive_files) == sorted(yaml_files)
    assert "runs/lab-m1-g1-sglang-fp4-chat-2026-10-01/index.html" in archive_files
    different = [name for name in yaml_files if yaml_files[name] != archive_files[name]]
    assert different == []
    pair = json.loads(archive_files["models/m1/g1/data.json"])
    assert {p["run"] for c in pair["workloads"]["chat"]["curves"] for p in c["points"]} == {
        "lab-m1-g1-vllm-fp8-chat-2026-10-01",
        "lab-m1-g1-sglang-fp4-chat-2026-10-01",
    }


def test_an_archive_written_with_pandas_reads_as_the_yaml_record(make_site) -> None:
    # NaN (pandas' missing value) is stored as null: the field is absent, as in YAML
    frame = flat_rows(
        power_w=[700.0, float("nan"), 650.0],
        tp=[8, None, 8],  # an integer column with a gap: float64 in pandas
        ttft_ms_p99=[900.0, float("nan"), float("nan")],
    )
    record = sweep(
        configs=[
            config(8, 4, 200.0, 10.0, power_w=700.0, tp=8),
            config(8, 16, 400.0, 20.0),
            config(8, 64, 600.0, 30.0, power_w=650.0, tp=8),
        ]
    )
    record["configs"][0]["ttft_ms"]["p99"] = 900.0
    root = make_site(runs={"lab/a.yaml": record})
    write_frame(root, "lab/b.parquet", frame)
    site, problems = load_site(root)
    assert site is not None, [str(p) for p in problems.items]
    by_path = {run.path: run for run in site.runs}
    from_yaml, from_parquet = by_path["data/runs/lab/a.yaml"], by_path["data/runs/lab/b.parquet"]
    assert from_parquet.id == "lab-b-m1-g1-vllm-fp8-chat-2026-10-01"
    assert from_parquet.date == dt.date(2026, 10, 1)
    assert list(from_parquet.configs) == list(from_yaml.configs)
    assert from_parquet.configs[1].power_w is None and from_parquet.configs[1].tp is None


def test_several_runs_in_one_archive_become_runs_with_distinct_ids(make_site) -> None:
    root = make_site(runs={})
    frame = pd.concat(
        [
            flat_rows(2),
            flat_rows(2, engine="sglang"),
            flat_rows(2, date="2026-09-01"),
            flat_rows(2, run="tuned", notes="with a tuned kernel"),
            flat_rows(1, run="tuned", notes="with a tuned kernel", concurrency=256),
        ],
        ignore_index=True,
    )
    write_frame(root, "lab/archive.parquet", frame)
    site, problems = load_site(root)
    assert site is not None, [str(p) for p in problems.items]
    configs = {run.id: len(run.configs) for run in site.runs}
    assert configs == {
        "lab-archive-m1-g1-vllm-fp8-chat-2026-10-01": 2,
        "lab-archive-m1-g1-sglang-fp8-chat-2026-10-01": 2,
        "lab-archive-m1-g1-vllm-fp8-chat-2026-09-01": 2,
        "lab-archive-tuned": 3,  # rows 7 to 9: a run named by the run column
    }
    files, _ = render_site(root, use_cache=False)
    assert all(f"runs/{rid}/index.html" in files for rid in configs)


def test_rows_of_one_day_are_one_run_whatever_their_times(make_site) -> None:
    root = make_site(runs={})
    times = ["2026-10-01T08:00:00+00:00", "2026-10-01T09:30:00+00:00", "2026-10-01T23:59:00-00:00"]
    write_frame(root, "a.parquet", flat_rows(date=pd.to_datetime(times, utc=True).tolist()))
    site, problems = load_site(root)
    assert site is not None, [str(p) for p in problems.items]
    assert [(run.id, run.date, len(run.configs)) for run in site.runs] == [
        ("a-m1-g1-vllm-fp8-chat-2026-10-01", dt.date(2026, 10, 1), 3)
    ]


# -- bad archives --------------------------------------------------------------------------------


def test_a_bad_cell_names_the_file_the_row_and_the_column(make_site) -> None:
    root = make_site(runs={})
    frame = flat_rows(4, throughput_per_gpu=[200.0, -3.0, 400.0, 500.0])
    frame.loc[3, "tpot_ms_median"] = 0.0
    frame["ttft_ms_p99"] = [None, None, "fast", None]  # a text column of latencies
    write_frame(root, "lab/archive.parquet", frame)
    assert problem_lines(root) == [
        "data/runs/lab/archive.parquet: ttft_ms_p99: expected a column of numbers, "
        "got a column of large_string"
    ]
    frame = frame.drop(columns="ttft_ms_p99")
    write_frame(root, "lab/archive.parquet", frame)
    assert problem_lines(root) == [
        "data/runs/lab/archive.parquet: row 2: throughput_per_gpu: expected a number > 0, got -3.0",
        "data/runs/lab/archive.parquet: row 4: tpot_ms_median: expected a number > 0, got 0.0",
    ]
    result = cli("build", "--site", root)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "data/runs/lab/archive.parquet: row 2: throughput_per_gpu: " in result.stderr


def test_a_bad_run_field_names_the_first_row_of_its_run(make_site) -> None:
    root = make_site(runs={})
    frame = pd.concat([flat_rows(2), flat_rows(2, model="m9")], ignore_index=True)
    write_frame(root, "a.parquet", frame)
    (line,) = problem_lines(root)
    assert line.startswith("data/runs/a.parquet: row 3: model: expected a slug defined in ")
    assert line.endswith('got "m9"')


def test_rows_of_a_named_run_that_disagree_are_an_error_at_the_row(make_site) -> None:
    root = make_site(runs={})
    frame = flat_rows(3, run="r1", model=["m1", "m1", "m2"])
    write_frame(root, "a.parquet", frame)
    assert problem_lines(root) == [
        'data/runs/a.parquet: row 3: model: expected "m1" as in row 1 (the rows of run "r1" '
        'share its fields), got "m2"'
    ]


def test_a_run_name_that_is_not_a_slug_is_an_error(make_site) -> None:
    root = make_site(runs={})
    write_frame(root, "a.parquet", flat_rows(2, run=["ok-1", "Not OK"]))
    assert problem_lines(root) == [
        "data/runs/a.parquet: row 2: run: expected a slug (lowercase a-z 0-9 . -) naming the "
        'run inside this archive, got "Not OK"'
    ]


def test_two_runs_of_one_derived_id_are_an_error_and_a_run_column_parts_them(make_site) -> None:
    # Same model, GPU, engine, precision, workload and date; two labs measured them.
    root = make_site(runs={})
    frame = pd.concat([flat_rows(2), flat_rows(2, source="Other lab")], ignore_index=True)
    write_frame(root, "a.parquet", frame)
    (line,) = problem_lines(root)
    assert line.startswith(
        "data/runs/a.parquet: row 3: run: run id 'a-m1-g1-vllm-fp8-chat-2026-10-01' is also "
        "the id of the run in row 1"
    )
    frame["run"] = ["ours"] * 2 + ["theirs"] * 2
    write_frame(root, "a.parquet", frame)
    site, problems = load_site(root)
    assert site is not None, [str(p) for p in problems.items]
    assert sorted(run.id for run in site.runs) == ["a-ours", "a-theirs"]


def test_a_run_id_of_an_archive_that_a_yaml_file_has_is_an_error(make_site) -> None:
    root = make_site(runs={"lab/m1-g1-vllm-fp8-chat-2026-10-01.yaml": sweep()})
    write_frame(root, "lab.parquet", flat_rows(2))
    assert problem_lines(root) == [
        "data/runs/lab.parquet: row 1: run: run id 'lab-m1-g1-vllm-fp8-chat-2026-10-01' is "
        "also the id of data/runs/lab/m1-g1-vllm-fp8-chat-2026-10-01.yaml"
    ]


@pytest.mark.parametrize(
    "content",
    [
        b"kind: sweep\nsource: Lab\n",  # YAML saved with the wrong suffix
        b"",
        b"PAR1" + b"\0" * 64,  # the magic number and nothing else
        "half",  # a real archive cut short
    ],
)
def test_a_file_that_is_not_parquet_is_one_clean_problem(make_site, content) -> None:
    root = make_site(runs={"lab/good.yaml": sweep()})
    path = write_frame(root, "lab/bad.parquet", flat_rows())
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2] if content == "half" else content)
    (line,) = problem_lines(root)
    assert line.startswith("data/runs/lab/bad.parquet: not a Parquet file, or a damaged one: ")
    result = cli("check", "--site", root)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_an_unknown_column_warns_and_strict_fails(make_site) -> None:
    root = make_site(runs={})
    write_frame(root, "a.parquet", flat_rows(colour="blue", ttft_ms=500.0, ttft_ms_median=500.0))
    assert problem_lines(root) == [
        "data/runs/a.parquet: colour: unknown column, ignored (warning)",
        "data/runs/a.parquet: ttft_ms: unknown column, ignored (latencies take a column each: "
        "ttft_ms_median, ttft_ms_mean, ttft_ms_p90, ttft_ms_p99) (warning)",
    ]
    site, _ = load_site(root)
    assert site is not None and len(site.runs) == 1
    assert cli("check", "--site", root).exit_code == 0
    assert cli("check", "--site", root, "--strict").exit_code == 1


def test_a_column_missing_or_of_a_wrong_type_is_one_problem_not_one_per_row(make_site) -> None:
    root = make_site(runs={})
    frame = flat_rows(50, gpus="eight").drop(columns=["concurrency"])
    write_frame(root, "a.parquet", frame)
    assert problem_lines(root) == [
        "data/runs/a.parquet: concurrency: required column missing",
        "data/runs/a.parquet: gpus: expected a column of integers, got a column of large_string",
    ]


def test_an_archive_without_rows_is_an_error(make_site) -> None:
    root = make_site(runs={})
    write_frame(root, "a.parquet", flat_rows().iloc[0:0])
    assert problem_lines(root) == [
        "data/runs/a.parquet: no rows: an archive holds one row per config"
    ]


def test_a_value_that_is_not_a_number_in_a_number_column_is_named(make_site) -> None:
    # Arrow itself keeps NaN apart from null: a NaN cell is an error, as in YAML.
    root = make_site(runs={})
    table = pa.Table.from_pandas(flat_rows(2), preserve_index=False)
    index = table.schema.get_field_index("throughput_per_gpu")
    nan = pa.array([float("nan"), 300.0], pa.float64(), from_pandas=False)
    table = table.set_column(index, "throughput_per_gpu", nan)
    (root / "data/runs").mkdir()
    pq.write_table(table, root / "data/runs/a.parquet")
    assert problem_lines(root) == [
        "data/runs/a.parquet: row 1: throughput_per_gpu: expected a number > 0, "
        "got NaN (not a number)"
    ]


def test_read_archive_returns_the_plain_records_a_yaml_file_gives() -> None:
    record = rich_sweep()
    problems = Problems()
    (read,) = read_archive(archive(record), "x.parquet", "x", problems)
    assert not problems
    expected = {k: v for k, v in record.items() if k != "kind"}
    expected["date"] = dt.date(2026, 10, 1)
    assert read.data == expected
    assert read.id == "x-m1-g1-vllm-fp8-chat-2026-10-01" and read.run is None


# -- sitegen import into an archive -------------------------------------------------------------


@pytest.fixture
def import_site(make_site) -> Path:
    models = {**MODELS, "deepseek-v4-pro": {"name": "DeepSeek V4 Pro"}}
    gpus = {**GPUS, "b200": {"name": "B200", "vendor": "NVIDIA"}}
    workloads = {**WORKLOADS, "8k1k": {"name": "8k / 1k", "isl": 8192, "osl": 1024}}
    return make_site(runs={}, models=models, gpus=gpus, workloads=workloads)


def import_(site: Path, *args: str | Path) -> Result:
    return cli("import", *args, "--site", site)


def test_import_to_parquet_builds_the_numbers_import_to_yaml_builds(make_site, tmp_path) -> None:
    as_yaml = make_site(runs={})
    target = as_yaml / "data/runs/lab/m1-g1-vllm-fp8-chat-2026-11-04.yaml"
    assert import_(as_yaml, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS).exit_code == 0
    yaml_files, _ = render_site(as_yaml, use_cache=False)

    for path in (as_yaml / "data/runs").rglob("*.yaml"):
        path.unlink()
    target = as_yaml / "data/runs/lab.parquet"
    result = import_(as_yaml, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"wrote {target}",
        "imported 2 configs into 1 record",
    ]
    assert pq.read_table(target).num_rows == 2
    parquet_files, _ = render_site(as_yaml, use_cache=False)
    pair = "models/m1/g1/data.json"
    assert json.loads(parquet_files[pair]) == json.loads(yaml_files[pair])
    assert (
        parquet_files["runs/lab-m1-g1-vllm-fp8-chat-2026-11-04/data.json"]
        == (yaml_files["runs/lab-m1-g1-vllm-fp8-chat-2026-11-04/data.json"])
    )


def test_several_records_of_an_import_go_into_one_archive(import_site: Path) -> None:
    target = import_site / "data/runs/ix.parquet"
    result = import_(import_site, "inferencex", INFERENCEX_API, "--out", target)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "imported 37 configs into 4 records"
    site, problems = load_site(import_site)
    assert site is not None, [str(p) for p in problems.errors]
    assert {run.path for run in site.runs} == {"data/runs/ix.parquet"}
    assert sorted(run.id for run in site.runs) == [
        "ix-deepseek-v4-pro-b200-dynamo-sglang-fp4-8k1k-2026-09-01",
        "ix-deepseek-v4-pro-b200-dynamo-vllm-fp4-8k1k-2026-08-26",
        "ix-deepseek-v4-pro-b200-dynamo-vllm-mtp-fp4-8k1k-2026-08-26",
        "ix-deepseek-v4-pro-b200-vllm-fp4-8k1k-2026-09-03",
    ]


def test_format_parquet_with_a_folder_writes_one_archive_named_after_what_runs_share(
    import_site: Path,
) -> None:
    out = import_site / "data/runs/ix"
    result = import_(import_site, "inferencex", INFERENCEX_API, "--out", out, "--format", "parquet")
    assert result.exit_code == 0, result.output
    assert [p.name for p in out.iterdir()] == ["deepseek-v4-pro-b200-fp4-8k1k.parquet"]
    assert pq.read_table(out / "deepseek-v4-pro-b200-fp4-8k1k.parquet").num_rows == 37


def test_import_into_an_archive_keeps_its_runs_and_merges_into_one_of_the_same_id(
    make_site,
) -> None:
    root = make_site(runs={})
    target = root / "data/runs/lab.parquet"
    first = import_(root, "vllm", VLLM[0], "--out", target, *VLLM_OPTIONS)
    assert first.exit_code == 0, first.output
    later = import_(root, "vllm", VLLM[1], "--out", target, *VLLM_OPTIONS, "--date", "2026-12-01")
    assert later.exit_code == 0 and f"updated {target}" in later.stdout
    again = import_(root, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS, "--date", "2026-12-01")
    assert again.exit_code == 0, again.output
    site, _ = load_site(root)
    assert site is not None
    assert {run.id: [c.concurrency for c in run.configs] for run in site.runs} == {
        "lab-m1-g1-vllm-fp8-chat-2026-11-04": [1],  # kept
        "lab-m1-g1-vllm-fp8-chat-2026-12-01": [1, 4],  # merged: c4 alone, then c1 and c4
    }


def test_a_config_measured_differently_is_a_conflict_in_an_archive_too(
    make_site, tmp_path: Path
) -> None:
    root = make_site(runs={})
    target = root / "data/runs/lab.parquet"
    assert import_(root, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS).exit_code == 0
    before = target.read_bytes()
    rerun = json.loads(VLLM[1].read_text()) | {"median_tpot_ms": 21.0}
    path = tmp_path / "c4-rerun.json"
    path.write_text(json.dumps(rerun))
    result = import_(root, "vllm", path, "--out", target, *VLLM_OPTIONS, "--date", "2026-11-04")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "data/runs/lab.parquet: row 2: tpot_ms_median: conflict (config gpus 2, concurrency 4): "
        f"20 here, 21 in {path}:1; a measurement is never overwritten: fix or remove one of them"
    )
    assert target.read_bytes() == before
    again = import_(root, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS)
    assert again.stdout.splitlines() == [
        f"unchanged {target}",
        "imported 2 configs into 1 record (2 already there)",
    ]
    assert target.read_bytes() == before


def test_an_archive_with_problems_of_its_own_is_not_added_to(make_site) -> None:
    root = make_site(runs={})
    path = write_frame(root, "lab.parquet", flat_rows(colour="blue"))
    before = path.read_bytes()
    result = import_(root, "vllm", *VLLM, "--out", path, *VLLM_OPTIONS)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "data/runs/lab.parquet: colour: unknown column, ignored (warning)" in result.stderr
    assert "data/runs/lab.parquet: --out: cannot add the imported runs" in result.stderr
    assert path.read_bytes() == before


def test_an_archive_is_checked_as_the_build_reads_it_before_it_is_written(make_site) -> None:
    # The build already has this run id from a YAML file: nothing is written.
    root = make_site(runs={"lab/m1-g1-vllm-fp8-chat-2026-11-04.yaml": sweep()})
    target = root / "data/runs/lab.parquet"
    result = import_(root, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS)
    assert result.exit_code == 1
    assert (
        "data/runs/lab.parquet: row 1: run: run id 'lab-m1-g1-vllm-fp8-chat-2026-11-04' is also "
        "the id of data/runs/lab/m1-g1-vllm-fp8-chat-2026-11-04.yaml"
    ) in result.stderr
    assert "nothing written" in result.stderr and not target.exists()
    assert [p.name for p in target.parent.iterdir()] == ["lab"]  # no temporary file left


@pytest.mark.parametrize(
    ("out", "extra", "message"),
    [
        ("v.yaml", ["--format", "parquet"], "--format: parquet, but --out names a .yaml file"),
        ("v.parquet", ["--format", "json"], "--format: json, but --out names a .parquet file"),
    ],
)
def test_a_format_that_contradicts_out_is_one_line(make_site, out, extra, message) -> None:
    root = make_site(runs={})
    target = root / "data/runs" / out
    result = import_(root, "vllm", *VLLM, "--out", target, *VLLM_OPTIONS, *extra)
    assert result.exit_code == 1 and f"{target}: {message}" in result.stderr
    assert not target.exists()


def test_a_matrix_run_does_not_go_into_an_archive(make_site) -> None:
    root = make_site(runs={})
    target = root / "data/runs/m.parquet"
    files = FIXTURES / "llm-inference-bench" / "benchmark_results.json"
    options = ["--gpu", "g1", "--gpus", "8", "--precision", "fp8", "--source", "Lab"]
    result = import_(root, "llm-inference-bench", files, "--out", target, *options)
    assert result.exit_code == 1
    assert "a matrix run (a context x concurrency grid) cannot go into a Parquet" in result.stderr
    assert not target.exists()


def test_a_config_also_in_an_archive_is_pointed_at_by_its_row(make_site) -> None:
    """Duplicate configs across files name an archive's place as a row, not configs[i]."""
    record = sweep()
    root = make_site(runs={"a/first.yaml": record})
    (root / "data/runs/b").mkdir(parents=True)
    (root / "data/runs/b/archive.parquet").write_bytes(archive(record))
    warnings = [line for line in problem_lines(root) if "duplicate config" in line]
    assert warnings and all(
        re.match(
            r"data/runs/b/archive\.parquet: row \d+: duplicate config: also measured in "
            r"data/runs/a/first\.yaml configs\[\d\] on the same date \(warning\)",
            w,
        )
        for w in warnings
    ), warnings
    (root / "data/runs/a/first.yaml").unlink()
    (root / "data/runs/c.parquet").write_bytes(archive(record))  # c-... sorts after b/
    warnings = [line for line in problem_lines(root) if "duplicate config" in line]
    assert warnings and all(
        re.search(
            r"^data/runs/c\.parquet: row \d+: .*also measured in "
            r"data/runs/b/archive\.parquet row \d+ on",
            w,
        )
        for w in warnings
    ), warnings
