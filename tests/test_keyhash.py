"""Digests of JSON-like values: equal values, equal digests; different values, different ones."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from sitegen.cache import keys as keyhash

TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=8)
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@given(PLAIN, PLAIN)
def test_plain_values_have_one_digest_each(a, b):
    assert keyhash.of(a) == keyhash.of(a)
    if a != b:
        assert keyhash.of(a) != keyhash.of(b)


@given(st.dictionaries(TEXT, PLAIN, max_size=5))
def test_a_mapping_is_the_same_whatever_its_order(d):
    assert keyhash.of(d) == keyhash.of(dict(reversed(list(d.items()))))


def test_lone_surrogates_and_big_integers_have_digests_of_their_own():
    assert keyhash.of("\ud800") != keyhash.of("\ud801")
    assert keyhash.of(2**70) != keyhash.of(2**70 + 1)


def test_nan_none_and_the_infinities_are_told_apart():
    values = [float("nan"), None, math.inf, -math.inf, 1.5]
    assert len({keyhash.of(v) for v in values}) == len(values)
