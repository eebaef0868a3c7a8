"""Energy per token: the arithmetic by hand, and every ladder's figures recomputed from the
configs' measured power, from the catalog's all-in power, or absent with the reason."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from conftest import GPUS, MODELS, PRICING, SITE_CONFIG, WORKLOADS, config, html_text, sweep
from sitegen.calc.energy import ALL_IN, MEASURED, all_in, energy, measured, power_at
from sitegen.calc.frontier import Point, pareto_frontier, value_at
from sitegen.pipeline.build import build

P = Point


def test_energy_by_hand():
    e = energy(10_000.0, all_in(2.0))  # 2 kW per GPU serving 10,000 tokens/s
    assert e.power == ALL_IN and e.power_per_gpu_w == 2000.0
    assert e.joules_per_token == pytest.approx(0.2)
    assert e.tokens_per_kwh == pytest.approx(18_000_000)  # 3.6 MJ / 0.2 J
    assert e.tokens_per_s_per_mw == pytest.approx(5_000_000)  # 500 GPUs per MW
    m = energy(1000.0, measured(900.0))
    assert (m.power, m.power_per_gpu_w, m.joules_per_token) == (MEASURED, 900.0, 0.9)
    assert all_in(None) is None and all_in(0) is None


FRONT = (P(10, 1000), P(20, 600), P(40, 200))
WATTS = (900.0, 700.0, 500.0)


@pytest.mark.parametrize(
    ("target", "method", "expected"),
    [
        (5, "interpolate", 900.0),  # below the slowest point: the peak's power
        (10, "interpolate", 900.0),
        (15, "interpolate", 800.0),  # halfway between the neighbours
        (20, "interpolate", 700.0),
        (35, "interpolate", 550.0),
        (41, "interpolate", None),  # out of reach
        (15, "measured", 700.0),  # the config whose throughput the rung takes
        (40, "measured", 500.0),
    ],
)
def test_power_is_read_like_the_throughput(target, method, expected):
    assert power_at(FRONT, WATTS, target, method) == pytest.approx(expected)


def test_a_neighbour_without_power_leaves_the_rung_unmeasured():
    watts = (900.0, None, 500.0)
    assert power_at(FRONT, watts, 15) is None and power_at(FRONT, watts, 30) is None
    assert power_at(FRONT, watts, 10) == 900.0 and power_at(FRONT, watts, 40) == 500.0
    assert power_at((), (), 10) is None


@given(
    st.lists(
        st.tuples(st.floats(1, 500), st.floats(1, 50_000), st.floats(100, 2000)),
        min_size=1,
        max_size=12,
    ),
    st.floats(0.5, 600),
)
def test_measured_power_belongs_to_the_point_whose_throughput_is_taken(rows, target):
    watts_of = {(x, y): w for x, y, w in rows}
    front = pareto_frontier(P(x, y) for x, y, _ in rows)
    watts = [watts_of[(p.interactivity, p.throughput_per_gpu)] for p in front]
    value = value_at(front, target, "measured")
    power = power_at(front, watts, target, "measured")
    if value is None:
        assert power is None
    else:
        (point,) = [p for p in front if p.throughput_per_gpu == value]
        assert power == watts_of[(point.interactivity, point.throughput_per_gpu)]


# -- whole builds: every rung recomputed from the record ---------------------------------------

# x = 1000 / tpot: 10, 40 and 100 tokens/s per user
MEASURED_CONFIGS = [
    config(8, 64, 1000.0, 100.0, power_w=900.0),
    config(8, 16, 600.0, 25.0, power_w=700.0),
    config(8, 4, 200.0, 10.0, power_w=400.0),
]
# power each target reads, linear between the measured neighbours (targets 10, 20, 50, 100)
EXPECTED_W = {10: 900.0, 20: 900.0 - 200.0 / 3, 50: 700.0 - 300.0 / 6, 100: 400.0}


def _ladder(out, model="m1", gpu="g1", workload="chat") -> list[dict]:
    data = json.loads((out / f"models/{model}/{gpu}/data.json").read_text())
    return data["workloads"][workload]["ladder"]


@pytest.fixture(scope="module")
def energy_site(tmp_path_factory):
    """g1: measured power; g1 on `long`: none measured, all-in 2 kW; g2: no power at all."""
    root = tmp_path_factory.mktemp("energy") / "site"
    runs = {
        "measured.yaml": sweep(configs=MEASURED_CONFIGS),
        "all-in.yaml": sweep(workload="long"),
        "none.yaml": sweep(gpu="g2"),
        # one neighbour measured, the other not: the rung between them is all-in
        "mixed.yaml": sweep(
            model="m2",
            configs=[
                config(8, 64, 1000.0, 100.0, power_w=900.0),
                config(8, 16, 600.0, 25.0),
            ],
        ),
    }
    files = {
        "sitegen.yaml": SITE_CONFIG,
        "data/models.yaml": MODELS,
        "data/gpus.yaml": GPUS,
        "data/workloads.yaml": WORKLOADS,
        "data/pricing.yaml": PRICING,
        **{f"data/runs/lab/{k}": v for k, v in runs.items()},
    }
    for name, value in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(value, sort_keys=False))
    out = root.parent / "public"
    build(root, out)
    return out


def test_measured_power_gives_each_rung_its_energy(energy_site):
    ladder = _ladder(energy_site)
    assert [r["target"] for r in ladder] == [10, 20, 50, 100]
    for rung in ladder:
        watts, throughput = EXPECTED_W[rung["target"]], rung["throughput_per_gpu"]
        assert rung["energy"] == {
            "power": "measured",
            "power_per_gpu_w": pytest.approx(watts),
            "joules_per_token": pytest.approx(watts / throughput),
            "tokens_per_kwh": pytest.approx(3.6e6 * throughput / watts),
            "tokens_per_s_per_mw": pytest.approx(throughput * 1e6 / watts),
        }
    # not the catalog's 2 kW, which this GPU also has
    assert all(r["energy"]["power_per_gpu_w"] < 1000 for r in ladder)


def test_catalog_power_where_the_configs_carry_none(energy_site):
    kw = GPUS["g1"]["all_in_power_kw"]
    for rung in _ladder(energy_site, workload="long"):
        if rung["throughput_per_gpu"] is None:
            assert rung["energy"] is None
            continue
        assert rung["energy"]["power"] == "all_in"
        assert rung["energy"]["power_per_gpu_w"] == kw * 1000
        assert rung["energy"]["joules_per_token"] == pytest.approx(
            kw * 1000 / rung["throughput_per_gpu"]
        )


def test_a_rung_between_a_measured_and_an_unmeasured_config_is_all_in(energy_site):
    by_target = {r["target"]: r for r in _ladder(energy_site, model="m2")}
    assert by_target[10]["energy"]["power"] == "measured"  # the measured point itself
    assert by_target[20]["energy"]["power"] == "all_in"  # its right neighbour has no power
    assert by_target[50]["energy"] is None and by_target[50]["throughput_per_gpu"] is None


def test_no_power_known_is_null_and_the_page_says_why(energy_site):
    ladder = _ladder(energy_site, gpu="g2")
    assert all(r["energy"] is None for r in ladder)
    text = html_text((energy_site / "models/m1/g2/index.html").read_text())
    assert "no power known" in text
    assert "the catalog gives no all-in power for GPU Two" in text


def test_the_pages_say_which_power_each_figure_comes_from(energy_site):
    measured_page = html_text((energy_site / "models/m1/g1/index.html").read_text())
    # 900 W / 1,000 tok/s at 10 tok/s per user: 0.900 J, 4.00M tokens/kWh
    assert "0.900 J 4.00M tokens/kWh, measured" in measured_page
    assert "all-in" in measured_page  # the long workload's ladder, on the same page
    overview = html_text((energy_site / "index.html").read_text())
    assert "tokens/kWh, measured" in overview and "no power known" in overview
