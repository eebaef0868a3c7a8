"""The upper envelope: at every tokens/s per user it is the best curve's value, as the ladder
reads it, and it names that curve."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sitegen.calc import frontier
from sitegen.calc.envelope import Envelope, leaders, readings, stretches

P = frontier.Point


def _curve(engine: str, points: list[tuple[float, float]]) -> frontier.Curve:
    return frontier.Curve(engine, "fp8", frontier.pareto_frontier(P(x, y) for x, y in points))


def _independent_max(curves, x: float, method: str) -> float | None:
    """The best value at x straight from frontier.value_at, curve by curve."""
    values = [frontier.value_at(c.frontier, x, method) for c in curves]
    values = [v for v in values if v is not None]
    return max(values) if values else None


def _random_curves(seed: int, count: int) -> list[frontier.Curve]:
    rng = random.Random(seed)
    curves = []
    for k in range(count):
        xs = sorted(rng.uniform(3, 300) for _ in range(rng.randint(1, 7)))
        top = rng.uniform(500, 20000)
        ys = sorted((top * rng.uniform(0.05, 1) for _ in xs), reverse=True)
        curves.append(_curve(f"e{k}", list(zip(xs, ys, strict=True))))
    return curves


def _samples(env: Envelope, n: int = 400) -> list[float]:
    lo, hi = env.start, env.end
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)] + [lo / 2, hi * 1.01]


@pytest.mark.parametrize("method", ["interpolate", "measured"])
@pytest.mark.parametrize("seed", range(12))
def test_envelope_is_the_max_over_curves_computed_independently(seed, method):
    curves = _random_curves(seed, 1 + seed % 6)
    env = Envelope.of(curves, method)
    for x in _samples(env):
        expected = _independent_max(curves, x, method)
        got = env.value_at(x)
        if expected is None:
            assert got is None, x
        else:
            assert got == pytest.approx(expected, rel=1e-9), x


@pytest.mark.parametrize("seed", range(12))
def test_envelope_points_are_on_their_curve_and_on_top(seed):
    method = "interpolate"
    curves = _random_curves(100 + seed, 2 + seed % 5)
    env = Envelope.of(curves, method)
    pts = env.points()
    assert pts[0].interactivity == min(c.frontier[0].interactivity for c in curves)
    assert pts[-1].interactivity == max(c.frontier[-1].interactivity for c in curves)
    xs = [p.interactivity for p in pts]
    assert xs == sorted(xs)
    at: dict[float, list[float]] = {}
    for p in pts:
        own = frontier.value_at(curves[p.curve].frontier, p.interactivity, method)
        assert p.throughput_per_gpu == own  # exactly the calculator's number
        at.setdefault(p.interactivity, []).append(p.throughput_per_gpu)
    # an x listed twice is where the winner changes: the higher of the two is the best there
    # (equal where curves cross; where a curve ends, the next one starts lower)
    for x, values in at.items():
        assert len(values) <= 2
        best = _independent_max(curves, x, method)
        assert max(values) == pytest.approx(best, rel=1e-9), x


@pytest.mark.parametrize("seed", range(12))
def test_envelope_names_the_ladders_curve_at_each_target(seed):
    curves = _random_curves(200 + seed, 3 + seed % 4)
    env = Envelope.of(curves, "interpolate")
    for target in (5, 10, 20, 30, 50, 75, 100, 150, 200, 250):
        rung = frontier.best_at(curves, target, "interpolate")
        assert env.value_at(target) == rung.throughput_per_gpu
        if rung.engine is None:
            continue
        # below the slowest point of every curve the first stretch's curve is read at its peak
        near = [s for s in env.stretches if s.start - 1e-6 <= target <= s.end + 1e-6]
        near = near or [env.stretches[0]]
        assert any(curves[s.curve].engine == rung.engine for s in near), target


def test_where_a_curve_ends_the_next_one_takes_over_at_its_last_point():
    fast = _curve("fast", [(10, 1000), (40, 400)])
    slow = _curve("slow", [(5, 500), (100, 50)])
    env = Envelope.of([fast, slow], "interpolate")
    # below its slowest point `fast` counts at its peak (1,000 over slow's 500 at 5 tok/s),
    # and it stays the best up to its fastest point, 40
    assert [(env.curves[s.curve].engine, s.start, s.end) for s in env.stretches] == [
        ("fast", 5, 40),
        ("slow", 40, 100),
    ]
    assert env.value_at(5) == 1000 and env.value_at(100) == 50 and env.value_at(101) is None
    # the drop at 40 is listed twice: the end of `fast` and the start of `slow`
    at_40 = [
        (env.curves[p.curve].engine, p.throughput_per_gpu)
        for p in env.points()
        if p.interactivity == 40
    ]
    assert at_40 == [("fast", 400.0), ("slow", frontier.value_at(slow.frontier, 40))]


def test_crossing_curves_switch_where_they_cross():
    a = _curve("a", [(10, 1000), (100, 100)])
    b = _curve("b", [(10, 800), (100, 300)])
    env = Envelope.of([a, b], "interpolate")
    first, second = env.stretches
    assert (env.curves[first.curve].engine, env.curves[second.curve].engine) == ("a", "b")
    assert first.end == second.start and 10 < first.end < 100
    va = frontier.value_at(a.frontier, first.end)
    vb = frontier.value_at(b.frontier, first.end)
    assert va == pytest.approx(vb, rel=1e-9)  # where they cross, to bisection precision


def test_leaders_rank_by_the_range_they_win_on_a_log_scale():
    a = _curve("a", [(1, 1000), (2, 900)])  # wins 1..2: a factor 2
    b = _curve("b", [(2.5, 800), (100, 10)])  # wins from about 2 to 100: a factor 50
    env = Envelope.of([a, b], "interpolate")
    assert leaders(env.stretches) == [1, 0]


@pytest.mark.parametrize("method", ["interpolate", "measured"])
def test_reader_gives_value_at_s_numbers_exactly(method):
    """frontier.reader reads many targets off one curve, its tangents computed once (the
    envelope's search reads thousands): the same floats as frontier.value_at."""
    rng = random.Random(7)
    for _ in range(50):
        xs = sorted({round(rng.uniform(2, 300), 3) for _ in range(rng.randint(1, 8))})
        ys = sorted((rng.uniform(100, 20000) for _ in xs), reverse=True)
        front = frontier.pareto_frontier(P(x, y) for x, y in zip(xs, ys, strict=True))
        read = frontier.reader(front, method)
        targets = [rng.uniform(0, 320) for _ in range(40)] + [p.interactivity for p in front]
        for t in targets:
            assert read(t) == frontier.value_at(front, t, method)
    assert frontier.reader((), method)(10) is None


@pytest.mark.parametrize("method", ["interpolate", "measured"])
@pytest.mark.parametrize("seed", range(12))
def test_value_at_reads_the_first_stretch_holding_x(seed, method):
    """At a boundary two stretches hold x: the value is the earlier one's, as a scan finds it."""
    env = Envelope.of(_random_curves(300 + seed, 2 + seed % 5), method)
    values = [frontier.reader(c.frontier, method) for c in env.curves]
    bounds = [x for s in env.stretches for x in (s.start, s.end)]
    for x in bounds + _samples(env, 100):
        if x > env.end:
            assert env.value_at(x) is None
            continue
        first = next((s for s in env.stretches if s.start <= x <= s.end), env.stretches[0])
        assert env.value_at(x) == values[first.curve](x), x


def _as_values(read, xs: list[float]) -> list[float | None]:
    """A ValuesAt's numbers as the one-at-a-time readers give them (None for NaN)."""
    return [None if v != v else v for v in read(np.array(xs)).tolist()]


@pytest.mark.parametrize("method", ["interpolate", "measured"])
def test_readings_give_the_readers_numbers_exactly(method):
    """The search reads every curve at hundreds of points at once: the very same floats."""
    rng = random.Random(11)
    for _ in range(50):
        xs = sorted({round(rng.uniform(2, 300), 3) for _ in range(rng.randint(1, 8))})
        ys = sorted((rng.uniform(100, 20000) for _ in xs), reverse=True)
        front = frontier.pareto_frontier(P(x, y) for x, y in zip(xs, ys, strict=True))
        read = frontier.reader(front, method)
        targets = [rng.uniform(0, 320) for _ in range(40)] + [p.interactivity for p in front]
        assert _as_values(readings(front, method), targets) == [read(t) for t in targets]
    assert _as_values(readings((), method), [1.0, 10.0]) == [None, None]


@pytest.mark.parametrize("method", ["interpolate", "measured"])
@pytest.mark.parametrize("seed", range(12))
def test_values_at_gives_value_at_s_numbers_exactly(seed, method):
    env = Envelope.of(_random_curves(400 + seed, 1 + seed % 6), method)
    xs = [x for s in env.stretches for x in (s.start, s.end)] + _samples(env, 200) + [0.5]
    assert _as_values(env.values_at, xs) == [env.value_at(x) for x in xs]


def _one_at_a_time(values, knots):
    return stretches(values, knots)  # every grid point read by `best`, curve by curve


@pytest.mark.parametrize("method", ["interpolate", "measured"])
@pytest.mark.parametrize("seed", range(24))
def test_the_search_finds_the_same_stretches_reading_all_points_at_once(seed, method):
    """Curves of a pair, and envelopes of a model's GPUs: the same stretches, to the bit."""
    curves = _random_curves(500 + seed, 1 + seed % 6)
    env = Envelope.of(curves, method)
    knots = [p.interactivity for c in curves for p in c.frontier]
    assert env.stretches == _one_at_a_time(
        [frontier.reader(c.frontier, method) for c in curves], knots
    )
    gpus = [Envelope.of(_random_curves(600 + seed * 7 + k, 1 + k % 4), method) for k in range(5)]
    knots = [p.interactivity for e in gpus for p in e.points()]
    values = [e.value_at for e in gpus]
    found = stretches(values, knots, [e.values_at for e in gpus])
    assert found == _one_at_a_time(values, knots)
