"""The overview: a board per workload and model, the downloads behind it, and the script that
switches it to any rung, tier, filter and sort (in Chromium)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import (
    GPUS,
    MODELS,
    PRICING,
    SITE_CONFIG,
    WORKLOADS,
    config,
    html_tables,
    html_text,
    sweep,
)
from sitegen.pipeline.build import build
from sitegen.render.display import dollars, joules, millions, tokens

# Model One on three GPUs: GPU One leads at the headline (20 tok/s per user), GPU Two at 50;
# GPU Three reaches only 10. Model Two, far faster, runs on GPU One only: on a board of its own.
BOARD_GPUS = {
    **GPUS,
    "g2": {"name": "GPU Two", "vendor": "Beta"},
    "g3": {"name": "GPU Three", "vendor": "Acme"},
}
BOARD_PRICING = {**PRICING, "prices": {**PRICING["prices"], "g2": {"owning": 1.0, "retail": 6.0}}}
BOARD_RUNS = {
    "m1-g1.yaml": sweep(),  # vLLM FP8: 1,000 / 600 / 200 tokens/s per GPU at 10 / 40 / 100
    "m1-g2-sglang.yaml": sweep(
        gpu="g2",
        engine="sglang",
        precision="fp4",
        configs=[
            config(8, 64, 800.0, 100.0),
            config(8, 16, 700.0, 25.0),
            config(8, 4, 500.0, 10.0),
        ],
    ),
    "m1-g2-vllm.yaml": sweep(
        gpu="g2", configs=[config(8, 64, 300.0, 100.0), config(8, 16, 250.0, 25.0)]
    ),
    "m1-g3.yaml": sweep(gpu="g3", configs=[config(8, 64, 900.0, 100.0)]),
    "m2-g1.yaml": sweep(  # with measured power: the script reads it as the build does
        model="m2",
        configs=[
            config(8, 64, 5000.0, 100.0, power_w=700.0),
            config(8, 16, 4000.0, 25.0, power_w=650.0),
        ],
    ),
    "m1-g1-long.yaml": sweep(workload="long", configs=[config(8, 8, 300.0, 25.0)]),
}


@pytest.fixture(scope="module")
def board_site(tmp_path_factory) -> Path:
    """The board site, built once: its output folder."""
    root = tmp_path_factory.mktemp("boards") / "site"
    files = {
        "sitegen.yaml": SITE_CONFIG,
        "data/models.yaml": MODELS,
        "data/gpus.yaml": BOARD_GPUS,
        "data/workloads.yaml": WORKLOADS,
        "data/pricing.yaml": BOARD_PRICING,
        **{f"data/runs/lab/{name}": run for name, run in BOARD_RUNS.items()},
    }
    for name, value in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(yaml.safe_dump(value, sort_keys=False))
    out = root.parent / "public"
    build(root, out)
    return out


def pair_data(out: Path, model: str, gpu: str) -> dict:
    return json.loads((out / f"models/{model}/{gpu}/data.json").read_text())


def boards(html: str) -> dict[tuple[str, str], list[list[str]]]:
    """(workload heading, board heading) -> the board's body rows as cell texts."""
    out = {}
    sections = re.split(r"<h2>", html)[1:]
    for section in sections:
        workload = html_text(section[: section.index("</h2>")])
        for part in re.split(r"<h3>", section)[1:]:
            board = html_text(part[: part.index("</h3>")])
            (table,) = [t for t in html_tables(part) if t and t[0][0] == "Rank"][:1]
            out[workload, board] = table[1:]
    return out


# -- the static page ---------------------------------------------------------------------------


def test_a_board_per_workload_and_model_each_ranking_its_own_gpus(board_site):
    html = (board_site / "index.html").read_text()
    found = boards(html)
    assert list(found) == [
        ("Chat", "Model One on every GPU"),
        ("Chat", "Model Two on every GPU"),
        ("Long context", "Model One on every GPU"),
    ]
    columns = [t for t in html_tables(html) if t and t[0][0] == "Rank"][0][0]
    assert "Model" not in columns  # a board is one model's: models are never ranked together
    one = found["Chat", "Model One on every GPU"]
    assert [row[:3] for row in one] == [
        [
            "1",
            "GPU One",
            tokens(pair_data(board_site, "m1", "g1")["headline"]["throughput_per_gpu"]),
        ],
        [
            "2",
            "GPU Two",
            tokens(pair_data(board_site, "m1", "g2")["headline"]["throughput_per_gpu"]),
        ],
        ["-", "GPU Three", "not reached"],  # its only config runs at 10 tok/s per user
    ]
    # Model Two's 4,000+ tokens/s on GPU One rank first on its own board, not above Model One
    assert [row[:2] for row in found["Chat", "Model Two on every GPU"]] == [["1", "GPU One"]]
    assert [row[:2] for row in found["Long context", "Model One on every GPU"]] == [
        ["1", "GPU One"]
    ]


def test_board_cells_are_the_pairs_headline_figures(board_site):
    one = boards((board_site / "index.html").read_text())["Chat", "Model One on every GPU"]
    head = pair_data(board_site, "m1", "g1")["workloads"]["chat"]["ladder"][1]  # 20 tok/s
    assert head["target"] == 20
    energy = head["energy"]
    assert one[0][3:7] == [
        dollars(head["cost_per_million_tokens"]["owning"]),
        joules(energy["joules_per_token"])
        + millions(energy["tokens_per_kwh"])
        + " tokens/kWh, all-in",
        "vLLM",
        "FP8",
    ]
    assert one[1][3] == dollars(
        1.0 / (pair_data(board_site, "m1", "g2")["headline"]["throughput_per_gpu"] * 3600) * 1e6
    )
    assert one[1][4] == "no power known" and one[2][3:5] == ["-", "-"]


def test_tables_are_accessible_and_the_script_is_local(board_site):
    html = (board_site / "index.html").read_text()
    tables = re.findall(r'<table class="numbers leaderboard">.*?</table>', html, re.S)
    assert len(tables) == 3
    for table in tables:
        assert "<caption" in table
        heads = re.findall(r"<th ([^>]*)>", table.split("</thead>")[0])
        assert len(heads) == 9 and all('scope="col"' in h and "data-sort=" in h for h in heads)
        assert [h for h in heads if "aria-sort" in h] == [
            'scope="col" class="num" data-sort="throughput" aria-sort="descending"'
        ]
        assert table.count('<th scope="row">') == table.count("<tr data-row=")
    assert '<script src="assets/overview.js" defer></script>' in html
    form = re.search(r'<form class="board-controls" id="board-controls">.*?</form>', html, re.S)
    assert form, "the controls, shown where scripts run (test_the_board_without_javascript)"
    for name in ("target", "tier", "vendor", "engine", "precision"):
        assert f'<label for="bc-{name}">' in form.group(0)
        assert f'<select id="bc-{name}" name="{name}">' in form.group(0)
    assert (board_site / "assets/overview.js").is_file()


def test_the_data_block_holds_every_curve_at_every_rung(board_site):
    html = (board_site / "index.html").read_text()
    data = json.loads(re.search(r'id="overview-data">(.*?)</script>', html, re.S).group(1))
    assert data["targets"] == [10, 20, 50, 100] and data["headline"] == {
        "target": 20,
        "tier": "owning",
    }
    boards_rows = re.findall(r'id="board-(chat|long)-(m\d)">(.*?)</table>', html, re.S)
    seen = []
    for workload, model, board in boards_rows:
        for i in map(int, re.findall(r'<tr data-row="(\d+)">', board)):
            seen.append(i)
            row = data["rows"][i]
            ladder = pair_data(board_site, model, row["gpu"])["workloads"][workload]["ladder"]
            for rung in ladder:
                at = data["targets"].index(rung["target"])
                values = [c["throughput_per_gpu"][at] for c in row["curves"]]
                best = max((v for v in values if v is not None), default=None)
                assert best == rung["throughput_per_gpu"], (model, row["gpu"], rung["target"])
    assert sorted(seen) == list(range(len(data["rows"]))) and len(seen) == 5
    g2 = next(r for r in data["rows"] if r["gpu"] == "g2")
    assert [c["engine"] for c in g2["curves"]] == ["sglang", "vllm"]
    assert g2["prices"] == {"owning": 1.0, "retail": 6.0} and g2["vendor"] == "beta"
    assert g2["all_in_power_w"] is None and data["rows"][0]["all_in_power_w"] == 2000.0
    assert data["engines"] == {"sglang": "SGLang", "vllm": "vLLM"}


def test_text_from_data_cannot_break_out_of_the_data_block(make_site, tmp_path):
    name = '</script><script>alert("x")</script> & <b>'
    gpus = {"g1": {"name": name, "vendor": "A<c>me & co", "all_in_power_kw": 1.0}}
    out = tmp_path / "out"
    build(make_site(gpus=gpus), out)
    html = (out / "index.html").read_text()
    assert "<script>alert" not in html and "<b>" not in html
    block = re.search(r'id="overview-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in block and ">" not in block and "&" not in block
    assert "\\u003c/script\\u003e" in block and "\\u0026" in block
    assert json.loads(block)["rows"][0]["name"] == name
    assert "&lt;/script&gt;&lt;script&gt;" in html  # the name in the table, escaped


# -- the downloads --------------------------------------------------------------------------------

LEADERBOARD_KEYS = [
    "model",
    "gpu",
    "workload",
    "tokens",
    "interactivity",
    "throughput_per_gpu",
    "cost_per_million_tokens",
    "engine",
    "precision",
    "configs",
    "last_date",
    "url",
    "cost_per_million_input_tokens",
    "cost_per_million_output_tokens",
    "energy",
    "sources",
]


def test_leaderboard_json_is_every_row_best_first_with_the_pairs_numbers(board_site):
    rows = json.loads((board_site / "data/leaderboard.json").read_text())
    assert all(list(r) == LEADERBOARD_KEYS for r in rows)
    assert [(r["model"], r["gpu"], r["workload"]) for r in rows] == [
        ("m2", "g1", "chat"),
        ("m1", "g1", "chat"),
        ("m1", "g2", "chat"),
        ("m1", "g1", "long"),
        ("m1", "g3", "chat"),  # unreached last
    ]
    assert rows[-1]["throughput_per_gpu"] is None and rows[-1]["cost_per_million_tokens"] is None
    for r in rows:
        data = pair_data(board_site, r["model"], r["gpu"])
        ladder = data["workloads"][r["workload"]]["ladder"]
        (head,) = [rung for rung in ladder if rung["target"] == r["interactivity"]]
        assert r["throughput_per_gpu"] == head["throughput_per_gpu"]
        assert r["cost_per_million_tokens"] == head["cost_per_million_tokens"]
        assert r["energy"] == head["energy"]
        for split in ("cost_per_million_input_tokens", "cost_per_million_output_tokens"):
            assert r[split] == head[split]
        assert r["url"] == f"models/{r['model']}/{r['gpu']}/" and (board_site / r["url"]).is_dir()
    assert rows[0]["energy"]["power"] == "measured" and rows[1]["energy"]["power"] == "all_in"
    assert rows[2]["energy"] is None


def test_leaderboard_csv_has_the_json_rows_and_its_energy_at_the_end(board_site):
    rows = json.loads((board_site / "data/leaderboard.json").read_text())
    table = list(csv.DictReader(io.StringIO((board_site / "data/leaderboard.csv").read_text())))
    header = list(table[0])
    assert header[:13] == [
        "model",
        "gpu",
        "workload",
        "interactivity",
        "throughput_per_gpu",
        "cost_per_million_tokens_owning",
        "cost_per_million_tokens_retail",
        "engine",
        "precision",
        "configs",
        "last_date",
        "url",
        "cost_per_million_input_tokens_owning",
    ]
    assert header[13:] == [
        "cost_per_million_input_tokens_retail",
        "cost_per_million_output_tokens_owning",
        "cost_per_million_output_tokens_retail",
        "power",
        "power_per_gpu_w",
        "joules_per_token",
        "tokens_per_kwh",
        "tokens_per_s_per_mw",
        "tokens",
        "sources",
    ]
    assert len(table) == len(rows)
    for line, row in zip(table, rows, strict=True):
        assert (line["model"], line["gpu"], line["workload"]) == (
            row["model"],
            row["gpu"],
            row["workload"],
        )
        throughput = row["throughput_per_gpu"]
        assert line["throughput_per_gpu"] == ("" if throughput is None else repr(throughput))
        if throughput is not None:
            assert float(line["throughput_per_gpu"]) == throughput  # unrounded
        energy = row["energy"] or {}
        assert line["power"] == energy.get("power", "")
        assert line["joules_per_token"] == ("" if not energy else repr(energy["joules_per_token"]))
    assert table[2]["cost_per_million_tokens_owning"] and table[2]["power"] == ""  # no power


# -- in Chromium -------------------------------------------------------------------------------


def gpu_order(page, board: str) -> list[str]:
    """The GPUs of a board as the reader sees them, top to bottom (hidden rows left out)."""
    return page.eval_on_selector_all(
        f"#{board} tbody tr:not([hidden]) th", "cells => cells.map(c => c.innerText)"
    )


def test_changing_rung_and_tier_reranks_and_is_kept_in_the_address(board_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((board_site / "index.html").as_uri())
    board = "board-chat-m1"
    assert page.locator("#board-controls").is_visible()
    assert gpu_order(page, board) == ["GPU One", "GPU Two", "GPU Three"]

    # at 50 tok/s per user GPU Two's SGLang curve leads, GPU One follows; GPU Three is out of reach
    page.select_option("#bc-target", "50")
    assert gpu_order(page, board) == ["GPU Two", "GPU One", "GPU Three"]
    assert page.evaluate("location.hash") == "#target=50&tier=owning"
    ladder = {
        g: pair_data(board_site, "m1", g)["workloads"]["chat"]["ladder"][2] for g in ("g1", "g2")
    }
    assert ladder["g1"]["target"] == 50
    cells = page.eval_on_selector_all(
        f"#{board} tbody tr td:nth-child(3)", "cells => cells.map(c => c.innerText)"
    )
    assert cells == [
        tokens(ladder["g2"]["throughput_per_gpu"]),
        tokens(ladder["g1"]["throughput_per_gpu"]),
        "not reached",
    ]
    assert "Ranked at 50 tok/s per user" in page.inner_text(".board-status")

    # sorted by cost, cheapest first: GPU Two at owning prices, GPU One at retail
    cost = page.locator(f"#{board} th[data-sort=cost]")
    cost.locator("button").click()
    assert cost.get_attribute("aria-sort") == "ascending"
    assert page.locator(f"#{board} th[data-sort=throughput]").get_attribute("aria-sort") is None
    assert gpu_order(page, board) == ["GPU Two", "GPU One", "GPU Three"]
    page.select_option("#bc-tier", "retail")
    assert gpu_order(page, board) == ["GPU One", "GPU Two", "GPU Three"]
    assert page.evaluate("location.hash") == "#target=50&tier=retail&sort=cost&order=asc"
    retail = pair_data(board_site, "m1", "g1")["workloads"]["chat"]["ladder"][2][
        "cost_per_million_tokens"
    ]["retail"]
    assert page.inner_text(f"#{board} tbody tr:first-child td:nth-child(4)") == dollars(retail)
    assert "Retail" in page.inner_text(f"#{board} caption")

    # a shared address opens the same view; a vendor filter leaves GPU Two (Beta) out
    page.goto((board_site / "index.html").as_uri() + "#target=10&tier=retail&vendor=acme")
    page.reload()
    assert page.locator("#bc-target").input_value() == "10"
    assert gpu_order(page, board) == ["GPU One", "GPU Three"]  # 1,000 and 900 at 10 tok/s
    assert page.inner_text(f"#{board} tbody tr:nth-child(2) td:first-child") == "2"
    # an engine filter reads each GPU at its best curve of that engine
    page.select_option("#bc-vendor", "")
    page.select_option("#bc-engine", "vllm")
    values = page.eval_on_selector_all(
        f"#{board} tbody tr:not([hidden]) td:nth-child(3)", "cells => cells.map(c => c.innerText)"
    )
    assert gpu_order(page, board) == ["GPU One", "GPU Three", "GPU Two"]
    assert values == ["1,000", "900", "300"]  # GPU Two's vLLM, not its faster SGLang
    assert page.locator("#board-long-m1 .board-empty").is_hidden()
    page.select_option("#bc-engine", "sglang")
    assert page.locator("#board-long-m1 .board-empty").is_visible()  # no SGLang run there
    assert errors == []
    context.close()


def test_the_script_draws_the_page_the_build_wrote(board_site, browser):
    """At the headline point, with no filter, the script's board equals the static one."""
    texts = []
    for javascript in (False, True):
        context = browser.new_context(java_script_enabled=javascript)
        page = context.new_page()
        page.goto((board_site / "index.html").as_uri())
        texts.append(
            page.eval_on_selector_all(
                "table.leaderboard tbody", "bodies => bodies.map(b => b.innerText)"
            )
        )
        assert page.locator("#board-controls").is_visible() == javascript
        context.close()
    assert texts[0] == texts[1]
    assert "tokens/kWh, measured" in texts[1][1] and "tokens/kWh, all-in" in texts[1][0]
