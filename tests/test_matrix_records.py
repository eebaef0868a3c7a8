"""Matrix run records: bad grids are reported as `file:line: field: message`, like sweeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.cli import main
from sitegen.records import MatrixRun, load_site

FIXTURES = Path(__file__).parent / "fixtures" / "runs"

# A 2 x 2 grid; line numbers below count from the first line of this text.
MATRIX = """\
kind: matrix
source: LocalMaxxing
date: 2026-11-11
model: m1
gpu: g1
gpus: 2
engine: paiton
precision: mxfp4
host: {gpus_in_node: 8}
prefill:
  - {context: 8192, prompt_tokens: 8198, ttft_s: 0.64, tok_s: 12844}
  - {context: 32768, prompt_tokens: 32028, ttft_s: 2.40, tok_s: 13357}
decode:
  - {context: 0, concurrency: 1, aggregate_tok_s: 115, per_request_tok_s: 130, ttft_s: 0.09}
  - {context: 0, concurrency: 2, aggregate_tok_s: 176, per_request_tok_s: 90, ttft_s: 0.11}
  - {context: 8192, concurrency: 1, aggregate_tok_s: 90, per_request_tok_s: 93, ttft_s: 0.63}
  - {context: 8192, concurrency: 2, aggregate_tok_s: 131, per_request_tok_s: 67, ttft_s: 0.65}
"""
CELL_LINES = (14, 15, 16, 17)


def _problems(make_site, text: str) -> list[str]:
    _, problems = load_site(make_site(runs={"lab/grid.yaml": text}))
    return [str(p) for p in problems.sorted()]


def _errors(make_site, text: str) -> list[str]:
    _, problems = load_site(make_site(runs={"lab/grid.yaml": text}))
    return [str(p) for p in problems.sorted() if p.severity == "error"]


def test_good_grid_loads(make_site):
    site, problems = load_site(make_site(runs={"lab/grid.yaml": MATRIX}))
    assert not problems.errors
    (run,) = site.matrices
    assert isinstance(run, MatrixRun)
    assert len(run.decode) == 4 and run.title == "Model One on paiton, measured with LocalMaxxing"


def test_flagship_record_loads_every_cell(make_site):
    text = (FIXTURES / "flagship-matrix.yaml").read_text()
    text = text.replace("model: kimi-k3.1-pro", "model: m1").replace("gpu: mi355x", "gpu: g1")
    site, problems = load_site(make_site(runs={"localmaxxing/run.yaml": text}))
    assert not problems.errors, problems.errors
    (run,) = site.matrices
    assert len(run.decode) == 20 and len(run.prefill) == 4 and len(run.canonical) == 3


def test_missing_cell_names_the_row_and_the_pair(make_site):
    text = MATRIX.replace(
        "  - {context: 8192, concurrency: 2, aggregate_tok_s: 131, per_request_tok_s: 67,"
        " ttft_s: 0.65}\n",
        "",
    )
    assert _errors(make_site, text) == [
        "data/runs/lab/grid.yaml:16: decode: missing cell: context 8192, concurrency 2 "
        "(a grid needs every pair of its 2 contexts and 2 concurrencies)"
    ]


def test_context_that_is_not_a_number(make_site):
    text = MATRIX.replace("{context: 8192, concurrency: 1", '{context: "8K", concurrency: 1')
    # one error, not an echo of it as a missing cell
    assert _errors(make_site, text) == [
        'data/runs/lab/grid.yaml:16: decode[2].context: expected an integer >= 0, got "8K"'
    ]


def test_concurrency_that_is_not_a_number(make_site):
    text = MATRIX.replace("{context: 0, concurrency: 2", "{context: 0, concurrency: many")
    assert _errors(make_site, text) == [
        'data/runs/lab/grid.yaml:15: decode[1].concurrency: expected an integer >= 1, got "many"'
    ]


def test_duplicate_cell(make_site):
    text = MATRIX.replace("{context: 8192, concurrency: 2", "{context: 8192, concurrency: 1")
    errors = _errors(make_site, text)
    assert (
        "data/runs/lab/grid.yaml:17: decode[3]: duplicate cell: context 8192, concurrency 1 "
        "is also decode[2]"
    ) in errors
    # the duplicate also leaves (8192, 2) empty, which is said as well
    assert any("missing cell: context 8192, concurrency 2" in e for e in errors)


def test_duplicate_prefill_context(make_site):
    text = MATRIX.replace("{context: 32768, prompt_tokens", "{context: 8192, prompt_tokens")
    assert _errors(make_site, text) == [
        "data/runs/lab/grid.yaml:12: prefill[1].context: duplicate row: context 8192 "
        "is also prefill[0]"
    ]


def test_bad_figure_in_a_cell(make_site):
    text = MATRIX.replace("aggregate_tok_s: 176", "aggregate_tok_s: fast")
    assert _errors(make_site, text) == [
        'data/runs/lab/grid.yaml:15: decode[1].aggregate_tok_s: expected a number > 0, got "fast"'
    ]


def test_decode_is_required(make_site):
    text = MATRIX.split("decode:")[0]
    assert _errors(make_site, text) == [
        "data/runs/lab/grid.yaml:1: decode: expected a non-empty list, "
        "got nothing (the field is missing)"
    ]


def test_more_gpus_than_the_node_has(make_site):
    text = MATRIX.replace("gpus: 2", "gpus: 9")
    assert _errors(make_site, text) == [
        "data/runs/lab/grid.yaml:6: gpus: expected at most host.gpus_in_node = 8 GPUs, got 9"
    ]


def test_unknown_cell_field_warns(make_site):
    text = MATRIX.replace("ttft_s: 0.09}", "ttft_s: 0.09, tpot_ms: 7}")
    assert _problems(make_site, text) == [
        "data/runs/lab/grid.yaml:14: decode[0].tpot_ms: unknown field, ignored (warning)"
    ]


def test_all_grid_problems_at_once_through_the_cli(make_site):
    from click.testing import CliRunner

    text = MATRIX.replace("aggregate_tok_s: 176", "aggregate_tok_s: fast").replace(
        "{context: 32768, prompt_tokens", "{context: 8192, prompt_tokens"
    )
    root = make_site(runs={"lab/grid.yaml": text})
    result = CliRunner().invoke(main, ["build", "--site", str(root)])
    assert result.exit_code == 1
    assert "grid.yaml:15: decode[1].aggregate_tok_s" in result.output
    assert "grid.yaml:12: prefill[1].context: duplicate row" in result.output


@pytest.mark.parametrize("line", CELL_LINES)
def test_every_cell_line_is_known(make_site, line):
    """Each cell's errors point at its own line, whichever cell it is."""
    lines = MATRIX.splitlines()
    lines[line - 1] = lines[line - 1].replace("per_request_tok_s: ", "per_request_tok_s: -")
    errors = _errors(make_site, "\n".join(lines) + "\n")
    assert len(errors) == 1 and errors[0].startswith(f"data/runs/lab/grid.yaml:{line}: decode[")
