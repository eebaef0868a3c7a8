"""A reader's own $ per GPU-hour on a model x GPU page (assets/price.js), in Chromium."""

from __future__ import annotations

import json

import pytest

from conftest import WORKLOADS, sweep
from sitegen.pipeline.build import build
from sitegen.render.display import dollars

SPLIT = dict(WORKLOADS, chat={"name": "Chat", "isl": 8000, "osl": 2000})
CELLS = "table.ladder tbody tr[data-throughput-per-gpu]"


@pytest.fixture
def price_site(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(runs={"a.yaml": sweep(), "b.yaml": sweep(gpu="g2")}, workloads=SPLIT), out)
    return out


def costs(page) -> list[list[str]]:
    """Each reached rung's blended, input and output cost as shown."""
    return page.eval_on_selector_all(
        CELLS,
        "rows => rows.map(r => ['cost', 'cost-input', 'cost-output']"
        ".map(k => r.querySelector('td.' + k).innerText))",
    )


def expected(out, gpu: str, price: float) -> list[list[str]]:
    """The costs at `price`, computed here from data.json's unrounded throughput."""
    data = json.loads((out / f"models/m1/{gpu}/data.json").read_text())
    rows = []
    for rung in data["workloads"]["chat"]["ladder"]:
        throughput = rung["throughput_per_gpu"]
        if throughput is not None:
            rows.append(
                [dollars(price / (throughput * share * 3600) * 1e6) for share in (1, 0.8, 0.2)]
            )
    return rows


def test_a_typed_price_recomputes_every_cost_and_clearing_it_restores_the_tier(price_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((price_site / "models/m1/g1/index.html").as_uri())
    field = page.locator("#own-price")
    assert field.is_visible()
    tier = costs(page)
    assert tier == expected(price_site, "g1", 2.0)  # the owning tier, $2 per GPU-hour
    assert "the Owning tier, $2.00 per GPU-hour" in page.inner_text(".cost-basis")

    field.fill("3.6")
    assert costs(page) == expected(price_site, "g1", 3.6) != tier
    assert "your price, $3.60 per GPU-hour" in page.inner_text(".cost-basis")
    field.fill("0.25")
    assert costs(page) == expected(price_site, "g1", 0.25)

    field.fill("")
    assert costs(page) == tier
    assert "the Owning tier, $2.00 per GPU-hour" in page.inner_text(".cost-basis")
    field.fill("-1")  # not a price: the tier stays
    assert costs(page) == tier
    assert errors == []
    context.close()


def test_a_gpu_without_a_price_gets_costs_at_the_readers_price(price_site, browser):
    context = browser.new_context()
    page = context.new_page()
    page.goto((price_site / "models/m1/g2/index.html").as_uri())
    assert {cell for row in costs(page) for cell in row} == {"no price"}
    page.fill("#own-price", "1.5")
    assert costs(page) == expected(price_site, "g2", 1.5)
    context.close()


def test_without_javascript_the_page_shows_the_tiers_and_no_field(price_site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((price_site / "models/m1/g1/index.html").as_uri())
    assert page.locator("#own-price").is_hidden()
    assert costs(page) == expected(price_site, "g1", 2.0)
    context.close()
