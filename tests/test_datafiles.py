"""The downloads: CSV cells a spreadsheet would run are defused, numbers stay numbers."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace

from sitegen.datafiles import csv_text, leaderboard_csv


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
    }
    (read,) = csv.DictReader(io.StringIO(leaderboard_csv(site, [row])))
    assert read["interactivity"] == "-5.0"
    assert read["throughput_per_gpu"] == "-1200.5"
    assert read["cost_per_million_tokens_owning"] == "-0.25"
    assert read["engine"] == "'-vllm"
    assert read["cost_per_million_input_tokens_owning"] == "-0.5"
    assert read["power"] == "'-measured" and read["joules_per_token"] == "-0.75"
