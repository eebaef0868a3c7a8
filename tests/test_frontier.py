"""The calculator on hand-worked cases and on properties that must hold for any input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.calc.frontier import (
    Curve,
    Point,
    best_at,
    build_curves,
    cost_per_million_tokens,
    ladder,
    monotone_tangents,
    pareto_frontier,
    value_at,
)

P = Point


def test_pareto_drops_dominated_points_and_keeps_one_of_duplicates():
    points = [P(10, 100), P(20, 60), P(15, 50), P(20, 60), P(40, 20), P(5, 90)]
    assert pareto_frontier(points) == (P(10, 100), P(20, 60), P(40, 20))


def test_pareto_point_beaten_on_one_axis_only_is_kept():
    assert pareto_frontier([P(10, 100), P(11, 99)]) == (P(10, 100), P(11, 99))


def test_pareto_tie_on_interactivity_keeps_the_higher_throughput():
    assert pareto_frontier([P(10, 100), P(10, 120), P(30, 10)]) == (P(10, 120), P(30, 10))


def test_d3_monotone_tangents_by_hand():
    # secants -4 and -2; inside: min(4, 2, |(-4*20 + -2*10)/30| / 2) = 5/3, sign -;
    # ends: (3s - m) / 2
    tangents = monotone_tangents([10, 20, 40], [100, 60, 20])
    assert tangents == pytest.approx([(-12 + 10 / 3) / 2, -10 / 3, (-6 + 10 / 3) / 2])


def test_interpolated_value_by_hand():
    # Hermite at the middle of [10, 20]: 0.5*100 + 0.125*10*m0 + 0.5*60 - 0.125*10*m1
    frontier = [P(10, 100), P(20, 60), P(40, 20)]
    m0, m1 = (-12 + 10 / 3) / 2, -10 / 3
    expected = 50 + 1.25 * m0 + 30 - 1.25 * m1
    assert expected == pytest.approx(78.75)
    assert value_at(frontier, 15) == pytest.approx(expected)
    assert value_at(frontier, 20) == pytest.approx(60)


def test_two_points_are_joined_by_a_straight_line():
    assert value_at([P(10, 1000), P(50, 400)], 20) == pytest.approx(850)


def test_target_below_the_range_is_the_peak_and_above_has_no_value():
    frontier = [P(10, 100), P(20, 60), P(40, 20)]
    assert value_at(frontier, 1) == 100
    assert value_at(frontier, 40) == pytest.approx(20)
    assert value_at(frontier, 40.01) is None
    assert value_at([], 5) is None


def test_measured_method_takes_the_best_point_at_or_above_the_target():
    frontier = [P(10, 100), P(20, 60), P(40, 20)]
    assert value_at(frontier, 15, "measured") == 60
    assert value_at(frontier, 20, "measured") == 60
    assert value_at(frontier, 21, "measured") == 20
    assert value_at(frontier, 41, "measured") is None


def test_crossing_curves_each_win_where_they_are_best():
    curves = build_curves(
        {
            ("a-engine", "fp8"): [P(10, 1000), P(50, 400)],
            ("b-engine", "fp4"): [P(10, 800), P(50, 600), P(100, 100)],
        }
    )
    rungs = ladder(curves, [10, 50, 100, 120])
    assert [(r.engine, r.throughput_per_gpu) for r in rungs] == [
        ("a-engine", 1000),
        ("b-engine", 600),
        ("b-engine", 100),
        (None, None),
    ]


def test_tie_goes_to_the_first_curve_in_order():
    curves = [Curve("a", "fp8", (P(10, 500),)), Curve("b", "fp8", (P(10, 500),))]
    assert best_at(curves, 10).engine == "a"


def test_cost_per_million_tokens_by_hand():
    # $1.50/h at 12,926 tok/s: 46,533,600 tokens an hour -> $0.0322348 per million
    assert cost_per_million_tokens(1.50, 12926) == pytest.approx(1.5 / 46_533_600 * 1e6)
    assert cost_per_million_tokens(1.50, 12926) == pytest.approx(0.0322348, rel=1e-5)


def test_seed_page_ladder():
    """Kimi K3.1 Pro on MI355X, seeds/000: the published frontier's configs."""
    configs = [
        (41.49, 16147),
        (33.3333, 16051),
        (20.0, 12926),
        (13.3333, 7058),
        (16.6667, 6000),
        (6.6666, 2562),
    ]
    curves = build_curves({("sglang", "fp4"): [P(1000 / t, y) for t, y in configs]})
    values = [r.throughput_per_gpu for r in ladder(curves, [30, 50, 75, 100, 150, 200])]
    assert [round(v) for v in values[:5]] == [16051, 12926, 7058, 4727, 2562]
    assert 2562 < values[3] < 7058
    assert values[5] is None


# -- properties --------------------------------------------------------------------------------

coords = st.tuples(st.floats(1, 500, allow_nan=False), st.floats(1, 1e5, allow_nan=False))
curve_points = st.lists(coords, min_size=1, max_size=12)
targets = st.lists(st.floats(1, 600, allow_nan=False), min_size=1, max_size=10, unique=True)
methods = st.sampled_from(["interpolate", "measured"])


def _curves(groups: list[list[tuple[float, float]]]) -> list[Curve]:
    return build_curves(
        {(f"e{i}", "fp8"): [P(x, y) for x, y in pts] for i, pts in enumerate(groups)}
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(curve_points, min_size=1, max_size=4), targets, methods)
def test_ladder_is_monotone_and_has_no_gap_below_a_filled_rung(groups, ts, method):
    rungs = ladder(_curves(groups), ts, method)
    filled = [r.throughput_per_gpu is not None for r in rungs]
    # once a rung is empty every faster one is empty too
    assert filled == sorted(filled, reverse=True)
    values = [r.throughput_per_gpu for r in rungs if r.throughput_per_gpu is not None]
    for slower, faster in zip(values, values[1:], strict=False):
        assert faster <= slower * (1 + 1e-9)


@settings(max_examples=300, deadline=None)
@given(curve_points)
def test_frontier_falls_strictly_and_dominates_every_point(pts):
    points = [P(x, y) for x, y in pts]
    frontier = pareto_frontier(points)
    for left, right in zip(frontier, frontier[1:], strict=False):
        assert left.interactivity < right.interactivity
        assert left.throughput_per_gpu > right.throughput_per_gpu
    for p in points:
        assert any(
            f.interactivity >= p.interactivity and f.throughput_per_gpu >= p.throughput_per_gpu
            for f in frontier
        )


@settings(max_examples=300, deadline=None)
@given(curve_points, st.floats(1, 600, allow_nan=False))
def test_interpolation_stays_between_its_neighbours(pts, target):
    frontier = pareto_frontier([P(x, y) for x, y in pts])
    value = value_at(frontier, target)
    if value is None:
        assert target > frontier[-1].interactivity
        return
    assert frontier[-1].throughput_per_gpu - 1e-6 <= value
    assert value <= frontier[0].throughput_per_gpu + 1e-6
    # never above what the measured method allows from the left neighbour
    assert value >= value_at(frontier, target, "measured") - 1e-6


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, 50), st.lists(st.floats(1, 1e6), min_size=1, max_size=20))
def test_cost_times_throughput_is_constant_per_tier(price, throughputs):
    products = [cost_per_million_tokens(price, t) * t for t in throughputs]
    for product in products:
        assert math.isclose(product, price / 3600 * 1e6, rel_tol=1e-9)
