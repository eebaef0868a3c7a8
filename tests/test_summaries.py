"""SummaryMemo: between builds of one process, only the pairs whose inputs changed are
summarised again, and the result is always the one summarise gives from nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import config, sweep
from sitegen.calc import summaries
from sitegen.calc.summaries import SummaryMemo
from sitegen.calc.tables import summarise
from sitegen.records import load_site

RUNS = {
    "lab/a.yaml": sweep(),
    "lab/a-old.yaml": sweep(date="2026-09-01"),
    "lab/b.yaml": sweep(gpu="g2", engine="sglang"),
    "lab/c.yaml": sweep(model="m2"),
    "lab/d.yaml": sweep(model="m2", gpu="g2"),
}


@pytest.fixture
def counted(monkeypatch) -> list[set]:
    """The pairs each call of summarise was asked to summarise."""
    calls: list[set] = []

    def counting(site):
        calls.append({(r.model, r.gpu) for r in site.runs})
        return summarise(site)

    monkeypatch.setattr(summaries, "summarise", counting)
    return calls


def fresh_and_memo(root: Path, memo: SummaryMemo) -> tuple[dict, dict]:
    site, problems = load_site(root)
    assert site is not None, problems.sorted()
    return summarise(site), memo.summarise(site)


def assert_same(expected: dict, got: dict) -> None:
    assert list(got) == list(expected)  # the same pairs in the same order
    assert got == expected


def test_only_the_edited_pair_is_summarised_again(make_site, counted) -> None:
    root = make_site(runs=RUNS)
    memo = SummaryMemo()
    assert_same(*fresh_and_memo(root, memo))
    assert counted[-1] == {("m1", "g1"), ("m1", "g2"), ("m2", "g1"), ("m2", "g2")}
    edited = sweep(gpu="g2", engine="sglang", configs=[config(8, 64, 1500.0, 100.0)])
    (root / "data/runs/lab/b.yaml").write_text(yaml.safe_dump(edited))
    assert_same(*fresh_and_memo(root, memo))
    assert counted[-1] == {("m1", "g2")}
    assert_same(*fresh_and_memo(root, memo))  # nothing changed: nothing summarised
    assert counted[-1] == set()


def test_rows_of_kept_pairs_follow_their_runs_when_a_file_before_them_goes(
    make_site, counted
) -> None:
    root = make_site(runs=RUNS)
    memo = SummaryMemo()
    before, _ = fresh_and_memo(root, memo)
    (root / "data/runs/lab/a-old.yaml").unlink()  # its rows came first in the table
    expected, got = fresh_and_memo(root, memo)
    assert_same(expected, got)
    assert counted[-1] == {("m1", "g1")}
    kept = got[("m2", "g2")][0].curves[0]
    assert kept.point_rows != before[("m2", "g2")][0].curves[0].point_rows  # they did move


def test_a_catalog_edit_summarises_every_pair_again(make_site, counted) -> None:
    root = make_site(runs=RUNS)
    memo = SummaryMemo()
    fresh_and_memo(root, memo)
    pricing = root / "data/pricing.yaml"
    pricing.write_text(pricing.read_text().replace("2.0", "2.5"))
    assert_same(*fresh_and_memo(root, memo))
    assert len(counted[-1]) == 4


def test_a_pair_whose_configs_all_failed_has_no_summary(make_site) -> None:
    failed = sweep(
        model="m2", gpu="g2", configs=[{**config(8, 64, 1000.0, 100.0), "status": "failed"}]
    )
    root = make_site(runs={**RUNS, "lab/d.yaml": failed})
    memo = SummaryMemo()
    expected, got = fresh_and_memo(root, memo)
    assert ("m2", "g2") not in got
    assert_same(expected, got)
    assert_same(*fresh_and_memo(root, memo))
