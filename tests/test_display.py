"""Display filters: rounding for the eye only, units always shown, never 0.0."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.render.display import (
    _missing,
    context_tokens,
    dollars,
    engine_name,
    latency,
    rate,
    seconds,
    tokens,
)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (12926.0, "12,926"),
        (16051.0009, "16,051"),
        (2562.04, "2,562"),
        (99.94, "99.9"),
        (None, "-"),
        (math.nan, "-"),
    ],
)
def test_tokens(value, shown):
    assert tokens(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0.02598, "$0.026"),
        (0.032234, "$0.032"),
        (0.05903, "$0.059"),
        (0.16263, "$0.16"),
        (0.062320, "$0.062"),
        (1.5, "$1.50"),
        (2.9, "$2.90"),
        (0.1, "$0.10"),
        (12.345, "$12.35"),
        (0.00012, "$0.00012"),
        (None, "-"),
    ],
)
def test_dollars_as_the_seed_shows_them(value, shown):
    assert dollars(value) == shown


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (400, "400 ms"),
        (410, "410 ms"),
        (6.6666, "6.7 ms"),
        (20.0, "20 ms"),
        (0.41, "0.41 ms"),
        (999.4, "999 ms"),
        (999.6, "1 s"),
        (3100, "3.1 s"),
        (20820, "20.8 s"),
        (250_000, "250 s"),
    ],
)
def test_latency_keeps_its_unit(ms, shown):
    assert latency(ms) == shown


def test_seconds_are_converted_not_relabelled():
    assert seconds(0.41) == "410 ms" and seconds(9.53) == "9.53 s"


@given(st.floats(min_value=1e-4, max_value=1e7, allow_nan=False))
def test_latency_never_reads_zero(ms):
    shown = latency(ms)
    assert shown.endswith((" ms", " s"))
    assert float(shown.split()[0].replace(",", "")) > 0


@given(st.floats(min_value=1e-5, max_value=1e4, allow_nan=False))
def test_dollars_never_read_zero(value):
    assert float(dollars(value)[1:].replace(",", "")) > 0


def test_rate_and_context():
    assert rate(50) == "50" and rate(24.102) == "24.1" and rate(50.0) == "50"
    assert rate(149.9985) == "150" and rate(75.00019) == "75" and rate(1234.5) == "1,234"
    assert [context_tokens(c) for c in (0, 8192, 32768, 131072)] == ["0", "8K", "32K", "128K"]


def test_engine_names():
    assert engine_name("sglang") == "SGLang"
    assert engine_name("vllm") == "vLLM"
    assert engine_name("dynamo-vllm-mtp") == "Dynamo vLLM + MTP"
    assert engine_name("paiton") == "Paiton"


@given(
    st.one_of(
        st.none(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(),
        st.builds(np.float64, st.floats(allow_nan=True)),
        st.builds(np.float32, st.floats(width=32, allow_nan=True)),
    )
)
def test_missing_is_none_or_a_float_nan(value) -> None:
    """A number's check costs one comparison; what it says is what it always said."""
    assert bool(_missing(value)) is (
        value is None or (isinstance(value, float) and math.isnan(value))
    )
