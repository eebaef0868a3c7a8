"""sitegen import never writes a silently wrong record, and no input file is a traceback.

Dates are read by their shape or refused; a total built from parts names them and a missing
part is an error; a bad figure is an error, never replaced; a benchmark left out is a warning.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from sitegen.cli import main
from test_importers import CONFIG

MODELS = {"m1": {"name": "Model One", "hf_id": "acme/Model-One"}}
GPUS = {"g1": {"name": "GPU One", "vendor": "Acme"}}
WORKLOADS = {
    "chat": {"name": "Chat"},
    "1k1k": {"name": "1k / 1k", "isl": 1024, "osl": 1024},
}
PRICING = {
    "source": "Test",
    "as_of": "2026-07",
    "tiers": {"owning": {"label": "Owning"}},
    "prices": {"g1": {"owning": 2.0}},
}
SWEEP_OPTIONS = ["--gpu", "g1", "--gpus", "2", "--precision", "fp8", "--source", "Lab"]

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
VLLM_C4 = FIXTURES / "vllm/c4.json"
GUIDELLM = FIXTURES / "guidellm/benchmarks.json"


@pytest.fixture
def site(make_site) -> Path:
    return make_site(
        runs={}, config=CONFIG, models=MODELS, gpus=GPUS, workloads=WORKLOADS, pricing=PRICING
    )


def run(site: Path, fmt: str, path: Path, *options: str, out: str = "out") -> Result:
    out = site / "data/runs" / out
    args = ["import", fmt, str(path), "--out", str(out), "--site", str(site), *options]
    return CliRunner().invoke(main, args)


def written(site: Path) -> list[dict]:
    out = site / "data/runs/out"
    return [yaml.safe_load(p.read_text()) for p in sorted(out.rglob("*.yaml"))]


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if not line.startswith("import failed")]


def assert_clean_error(result: Result, site: Path, path: Path, field: str = "") -> None:
    """Exit 1, no traceback, every message `file[:line]: field: message`, nothing written."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = error_lines(result)
    assert lines and all(line.startswith(f"{path}:") for line in lines), result.stderr
    if field:
        assert any(f": {field}: " in line for line in lines), result.stderr
    assert written(site) == []


# What each format needs besides its file, and where its date goes (None: it has none).
SET = Callable[[Any, Any], None]


def _vllm(obj: Any, value: Any) -> None:
    obj["date"] = value


def _aiperf(obj: Any, value: Any) -> None:
    obj["start_time"] = value


def _llmperf(obj: Any, value: Any) -> None:
    obj["timestamp"] = value


def _guidellm(obj: Any, value: Any) -> None:
    for bench in obj["benchmarks"]:
        bench["start_time"] = value


def _lib(obj: Any, value: Any) -> None:
    obj["metadata"]["timestamp"] = value


def _lmx(obj: Any, value: Any) -> None:
    run = obj.get("payload", obj)
    run["createdAt"] = value


def _inferencex(obj: Any, value: Any) -> None:
    for row in obj:
        row["date"] = value


SWEEP = [*SWEEP_OPTIONS, "--workload", "chat"]
FORMATS: dict[str, tuple[Path, list[str], SET | None]] = {
    "vllm": (FIXTURES / "vllm/c1.json", SWEEP, _vllm),
    "sglang": (
        FIXTURES / "sglang/bench.jsonl",
        [*SWEEP, "--model", "m1", "--date", "2026-11-01"],
        None,
    ),
    "aiperf": (
        FIXTURES / "aiperf/profile_export_aiperf.json",
        [*SWEEP, "--engine", "vllm"],
        _aiperf,
    ),
    "llmperf": (
        FIXTURES / "llmperf/model-one_1000_200_summary.json",
        [*SWEEP, "--engine", "vllm"],
        _llmperf,
    ),
    "guidellm": (GUIDELLM, [*SWEEP, "--engine", "vllm"], _guidellm),
    "llm-inference-bench": (
        FIXTURES / "llm-inference-bench/benchmark_results.json",
        ["--gpu", "g1", "--gpus", "1", "--precision", "fp8", "--source", "Lab"],
        _lib,
    ),
    "lmx": (FIXTURES / "lmx/run-c1.json", ["--source", "Lab", "--workload", "chat"], _lmx),
    "inferencex": (FIXTURES / "inferencex/agg_model-one_g1.json", [], _inferencex),
}
DATED = [name for name, (_, _, setter) in FORMATS.items() if setter is not None]


def changed(tmp_path: Path, fmt: str, edit: Callable[[Any], None]) -> Path:
    """The format's fixture, edited; JSON Lines files keep their first line only."""
    source = FORMATS[fmt][0]
    text = source.read_text()
    obj = json.loads(text.splitlines()[0] if source.suffix == ".jsonl" else text)
    edit(obj)
    path = tmp_path / source.name
    path.write_text(json.dumps(obj, indent=2))
    return path


def test_the_fixtures_import_as_they_are(site: Path) -> None:
    for fmt, (path, options, _) in FORMATS.items():
        result = run(site, fmt, path, *options, out=fmt)
        assert result.exit_code == 0, (fmt, result.output)


# -- dates by their shape ----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", DATED)
def test_an_integer_date_is_read_as_yyyymmdd(site: Path, tmp_path: Path, fmt: str) -> None:
    setter = FORMATS[fmt][2]
    path = changed(tmp_path, fmt, lambda obj: setter(obj, 20261002))
    result = run(site, fmt, path, *FORMATS[fmt][1])
    assert result.exit_code == 0, result.output
    assert {r["date"] for r in written(site)} == {dt.date(2026, 10, 2)}


@pytest.mark.parametrize("fmt", DATED)
@pytest.mark.parametrize(
    "value",
    [1e20, 123456, 20261399, -1793889600, 1793889600123456, "20261399-221530"]
    + ["9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00"],
)
def test_a_number_of_no_date_shape_is_an_error_naming_the_field(
    site: Path, tmp_path: Path, fmt: str, value: float
) -> None:
    setter = FORMATS[fmt][2]
    path = changed(tmp_path, fmt, lambda obj: setter(obj, value))
    result = run(site, fmt, path, *FORMATS[fmt][1])
    assert_clean_error(result, site, path)
    assert all("date" in line for line in error_lines(result)), result.stderr


def test_epochs_stay_dates_by_their_shape(site: Path, tmp_path: Path) -> None:
    for value in (1793889600, 1793889600000, "1793889600"):
        path = changed(tmp_path, "llmperf", lambda obj, v=value: _llmperf(obj, v))
        result = run(site, "llmperf", path, *FORMATS["llmperf"][1])
        assert result.exit_code == 0, result.output
        assert [r["date"] for r in written(site)] == [dt.date(2026, 11, 5)]


# -- files no reader survives ------------------------------------------------------------------


def _deep(tmp_path: Path, fmt: str) -> Path:
    path = changed(tmp_path, fmt, lambda obj: None)
    text = path.read_text()
    depth = 100_000
    cut = text.rindex("}") if text.rstrip().endswith("}") else text.rindex("]")
    path.write_text(text[:cut] + ', "deep": ' + "[" * depth + "]" * depth + text[cut:])
    if text.rstrip().endswith("]"):  # a list of rows: the deep value goes in as a row
        path.write_text(text[:cut] + ", " + "[" * depth + "]" * depth + text[cut:])
    return path


def _huge(tmp_path: Path, fmt: str) -> Path:
    path = changed(tmp_path, fmt, lambda obj: None)
    text = path.read_text()
    cut = text.index("{") + 1
    path.write_text(text[:cut] + '"huge": ' + "7" * 5000 + ", " + text[cut:])
    return path


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("make", [_deep, _huge], ids=["nested-100000-deep", "5000-digits"])
def test_an_unreadable_file_is_a_clean_error(
    site: Path, tmp_path: Path, fmt: str, make: Callable[[Path, str], Path]
) -> None:
    path = make(tmp_path, fmt)
    assert_clean_error(run(site, fmt, path, *FORMATS[fmt][1]), site, path)


# -- totals from their parts -------------------------------------------------------------------

VLLM_OPTIONS = [*SWEEP, "--engine", "vllm"]


def _vllm_file(tmp_path: Path, **fields: Any) -> Path:
    obj = json.loads(VLLM_C4.read_text())
    for key, value in fields.items():
        if value is ...:
            obj.pop(key, None)
        else:
            obj[key] = value
    path = tmp_path / "c4-edited.json"
    path.write_text(json.dumps(obj, indent=2))
    return path


def test_a_total_built_from_parts_names_them(site: Path, tmp_path: Path) -> None:
    result = run(site, "vllm", VLLM_C4, *VLLM_OPTIONS)
    assert result.exit_code == 0, result.output
    (record,) = written(site)
    assert record["configs"][0]["throughput_per_gpu"] == 600  # (108000 + 12000) / 100 s / 2
    assert "total_input_tokens + total_output_tokens" in record["notes"]
    assert "duration" in record["notes"]


@pytest.mark.parametrize("field", ["total_input_tokens", "total_output_tokens"])
@pytest.mark.parametrize("value", [..., None, "n/a"], ids=["missing", "null", "n/a"])
def test_a_missing_part_of_the_total_is_an_error(
    site: Path, tmp_path: Path, field: str, value: Any
) -> None:
    path = _vllm_file(tmp_path, **{field: value})
    result = run(site, "vllm", path, *VLLM_OPTIONS)
    assert_clean_error(result, site, path, field)


@pytest.mark.parametrize(
    "value", [float("nan"), -1, 0, True, "abc"], ids=["nan", "-1", "0", "true", "abc"]
)
def test_a_bad_total_is_an_error_not_replaced(site: Path, tmp_path: Path, value: Any) -> None:
    path = _vllm_file(tmp_path, total_token_throughput=value)
    result = run(site, "vllm", path, *VLLM_OPTIONS)
    assert_clean_error(result, site, path, "total_token_throughput")


# -- benchmarks left out -----------------------------------------------------------------------


@pytest.mark.parametrize("streams", [0, -4, 2.5, "many", None])
def test_a_concurrent_benchmark_left_out_is_a_warning_naming_it(
    site: Path, tmp_path: Path, streams: Any
) -> None:
    def edit(obj: Any) -> None:
        obj["benchmarks"][2]["config"]["strategy"]["streams"] = streams

    path = changed(tmp_path, "guidellm", edit)
    result = run(site, "guidellm", path, *FORMATS["guidellm"][1])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "(warning)" in line]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].startswith(f"{path}:")
    assert "benchmarks[2].config.strategy.streams" in warnings[0]
    assert [c["concurrency"] for c in written(site)[0]["configs"]] == [1]


def _aiperf_total(obj: Any, value: Any) -> None:
    obj["total_token_throughput"]["avg"] = value


def _lmx_total(obj: Any, value: Any) -> None:
    obj.get("payload", obj)["tokSTotal"] = value


@pytest.mark.parametrize(
    ("fmt", "setter", "field"),
    [
        ("aiperf", _aiperf_total, "total_token_throughput.avg"),
        ("lmx", _lmx_total, "tokSTotal"),
    ],
)
@pytest.mark.parametrize("value", [float("nan"), -1, True, "abc"], ids=["nan", "-1", "true", "abc"])
def test_a_bad_total_is_an_error_in_every_format_that_has_one(
    site: Path, tmp_path: Path, fmt: str, setter: SET, field: str, value: Any
) -> None:
    path = changed(tmp_path, fmt, lambda obj: setter(obj, value))
    result = run(site, fmt, path, *FORMATS[fmt][1])
    assert_clean_error(result, site, path)
    assert any(f": {field}: " in line or f".{field}: " in line for line in error_lines(result))
