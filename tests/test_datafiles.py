"""The downloads: CSV cells a spreadsheet would run are defused, numbers stay numbers."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.content import Content
from sitegen.datafiles import (
    compare_json,
    csv_text,
    encoded,
    leaderboard_csv,
    to_json,
    to_json_spliced,
)
from sitegen.records import load_site
from sitegen.standings import pairings
from sitegen.tables import summarise
from sitegen.views import Sources
from sitegen.views.compare import compared


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


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.dates(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=16,
)


def _encode_some(value, draw_bits):
    """`value` with some of its parts replaced by their Encoded text."""
    if draw_bits():
        return encoded(value)
    if isinstance(value, dict):
        return {k: _encode_some(v, draw_bits) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode_some(v, draw_bits) for v in value]
    return value


@settings(max_examples=300)
@given(json_values, st.randoms())
def test_spliced_json_is_the_json_of_what_it_encodes(value, rng) -> None:
    """A part written once and spliced into many files: the file is the same to the byte."""
    spliced = _encode_some(value, lambda: rng.random() < 0.3)
    assert to_json_spliced(spliced) == to_json(value)


def test_comparison_data_with_each_pairs_rows_written_once(arena) -> None:
    root = arena[0]
    site, _ = load_site(root)
    src = Sources(site, summarise(site), Content())
    tiers = [t.slug for t in site.pricing.tiers]
    for model, a, b in compared(src):
        sa = {s.workload: s for s in src.summaries(model, a)}
        sb = {s.workload: s for s in src.summaries(model, b)}
        rungs = {
            w: pairings(sa.get(w), sb.get(w), site.config.targets, tiers)
            for w in sorted({*sa, *sb})
        }
        plain = to_json(compare_json(model, a, b, rungs))
        assert to_json_spliced(compare_json(model, a, b, rungs, src.side_json)) == plain
        assert src.side_json(rungs["chat"][0].a) is src.side_json(rungs["chat"][0].a)  # once
