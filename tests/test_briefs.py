"""Briefs: every pair's headline figures kept between builds, so that a rebuild summarises
only the models whose runs changed, with the output it would have had without them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import yaml

from conftest import config, sweep
from sitegen.calc import summaries as summaries_module
from sitegen.calc.briefs import FILE, BriefCache, brief_of, from_json, to_json
from sitegen.calc.summaries import Summaries
from sitegen.calc.tables import summarise
from sitegen.pipeline.build import build, render_site
from sitegen.records import load_site
from sitegen.serve.rebuild import Rebuilder
from sitegen.serve.state import SiteState

RUNS = {
    "lab/a.yaml": sweep(),
    "lab/b.yaml": sweep(gpu="g2", configs=[config(8, 64, 1100.0, 100.0), config(8, 4, 300.0, 9)]),
    "lab/c.yaml": sweep(model="m2", engine="sglang"),
    "lab/d.yaml": sweep(model="m2", gpu="g2", date="2026-10-02"),
    "lab/old.yaml": sweep(date="2026-01-05", precision="fp4"),
}
FLAGSHIP = Path(__file__).resolve().parents[1]


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_brief_reads_back_as_it_was_written_value_for_value_and_type_for_type():
    site, _ = load_site(FLAGSHIP)
    briefs = [brief_of(s) for pair in summarise(site).values() for s in pair]
    assert len(briefs) >= 20
    for brief in briefs:
        back = from_json(json.loads(json.dumps(to_json(brief))))
        assert back == brief
        assert repr(back) == repr(brief)  # 50 and 50.0 are ==; their reprs are not


def test_a_brief_says_what_its_summary_says(make_site):
    site, _ = load_site(make_site(runs=RUNS))
    for pair in summarise(site).values():
        for s in pair:
            b = brief_of(s)
            assert (b.model, b.gpu, b.workload, b.configs) == (
                s.model,
                s.gpu,
                s.workload,
                s.configs,
            )
            # the pages listing every pair quote no config read nor spread: a brief keeps neither
            headline = dataclasses.replace(s.headline, reads=None, spread=None)
            assert (b.first_date, b.last_date, b.headline) == (
                s.first_date,
                s.last_date,
                headline,
            )
            assert [c.throughput_per_gpu for c in b.curves] == [
                tuple(r.throughput_per_gpu for r in c.rungs) for c in s.curves
            ]


def test_lazy_summaries_are_those_of_the_whole_site(make_site):
    site, _ = load_site(make_site(runs=RUNS))
    whole = summarise(site)
    lazy = Summaries(site)
    assert lazy.get(("m2", "g1")) == whole[("m2", "g1")]
    assert set(lazy.briefs()) == set(whole)
    assert lazy.briefs() == {p: [brief_of(s) for s in ss] for p, ss in whole.items()}
    assert lazy.everything() == whole
    assert lazy.get(("m1", "nowhere")) == []


def summarised_pairs(monkeypatch) -> list[set[tuple[str, str]]]:
    """The pairs each call of summarise summarised afresh."""
    calls: list[set[tuple[str, str]]] = []
    real = summaries_module.summarise

    def spy(site):
        calls.append({(r.model, r.gpu) for r in site.runs})
        return real(site)

    monkeypatch.setattr(summaries_module, "summarise", spy)
    return calls


def models(calls: list[set[tuple[str, str]]]) -> set[str]:
    return {m for pairs in calls for m, _ in pairs}


def test_a_rebuild_summarises_only_the_model_whose_runs_changed(make_site, monkeypatch, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    assert (root / ".sitegen-cache" / FILE).is_file()
    calls = summarised_pairs(monkeypatch)
    build(root)
    assert calls == []  # nothing changed: nothing made, nothing summarised
    record = sweep(model="m2", configs=[config(8, 64, 2000.0, 120.0)])
    (root / "data/runs/lab/c.yaml").write_text(yaml.safe_dump(record))
    result = build(root)
    assert models(calls) == {"m2"}
    assert "index.html" in result.rewritten and "data/leaderboard.json" in result.rewritten
    build(root, tmp_path / "fresh", use_cache=False)
    assert tree(root / "public") == tree(tmp_path / "fresh")


def test_briefs_of_other_catalogs_or_a_broken_file_are_not_used(make_site, monkeypatch, tmp_path):
    root = make_site(runs=RUNS)
    build(root)
    path = root / ".sitegen-cache" / FILE
    good = path.read_bytes()
    pricing = root / "data/pricing.yaml"
    pricing.write_text(pricing.read_text().replace("2.0", "3.0"))  # every cost moves
    digests = dict(load_site(root)[0].shared_digests())
    assert BriefCache.for_site(root, digests).entries == {}  # written for the old pricing
    build(root)
    build(root, tmp_path / "fresh", use_cache=False)
    assert tree(root / "public") == tree(tmp_path / "fresh")
    for n, broken in enumerate((good[:-30], b"sitegen-briefs 1 nope\n{}", b"")):
        path.write_bytes(broken)
        assert BriefCache.for_site(root, digests).entries == {}
        calls = summarised_pairs(monkeypatch)
        (root / "data/runs/lab/a.yaml").write_text(yaml.safe_dump(sweep(notes=f"edit {n}")))
        build(root)
        assert models(calls) == {"m1", "m2"}  # every model summarised again
        build(root, tmp_path / "fresh", use_cache=False)
        assert tree(root / "public") == tree(tmp_path / "fresh")


def test_the_previews_rebuild_summarises_only_the_edited_pair(make_site, monkeypatch):
    """Briefs in memory, the memo's summaries for the rest of the edited pair's model: a
    rebuild summarises one pair, and shows what a build from nothing shows."""
    root = make_site(runs=RUNS)
    rebuilder = Rebuilder(root, SiteState())
    rebuilder.build_now()
    calls = summarised_pairs(monkeypatch)
    for throughput in (2000.0, 2100.0):
        record = sweep(model="m2", configs=[config(8, 64, throughput, 120.0)])
        (root / "data/runs/lab/c.yaml").write_text(yaml.safe_dump(record))
        files = rebuilder.build_now({"data/runs/lab/c.yaml"}).snapshot.files
        assert set().union(*calls) == {("m2", "g1")}
        assert files == render_site(root, use_cache=False)[0]
        calls.clear()
    (root / "data/gpus.yaml").write_text((root / "data/gpus.yaml").read_text() + "\n")
    rebuilder.build_now({"data/gpus.yaml"})  # other catalogs: every pair again
    assert set().union(*calls) == {("m1", "g1"), ("m1", "g2"), ("m2", "g1"), ("m2", "g2")}


def test_briefs_with_a_nan_are_kept_by_json_and_the_rest_by_orjson(tmp_path):
    """orjson writes NaN as null: a file whose briefs hold one is written by json, and stays
    so while that brief is kept; without it, orjson writes. Each reads back as it was."""
    import dataclasses
    import math

    site, _ = load_site(FLAGSHIP)
    good = [brief_of(s) for pair in summarise(site).values() for s in pair][:3]
    curve = dataclasses.replace(good[0].curves[0], measured_power_w=(float("nan"),))
    odd = dataclasses.replace(good[0], curves=(curve,))
    path = tmp_path / FILE

    def saved(briefs: dict) -> tuple[str, dict]:
        before = BriefCache(path, "k")
        before.save(briefs)
        writer = path.read_bytes().split(b" ")[2].decode()
        return writer, BriefCache(path, "k").entries

    writer, back = saved({"a": [good[0]], "odd": [odd]})
    assert writer == "json"
    assert math.isnan(back["odd"][0].curves[0].measured_power_w[0])
    assert saved({"a": [good[0]], "odd": [odd], "b": [good[1]]})[0] == "json"  # odd kept
    writer, back = saved({"a": [good[0]], "b": [good[1]]})
    assert writer == "orjson" and back == {"a": [good[0]], "b": [good[1]]}
    assert saved({"a": [good[0]], "c": [good[2]]})[0] == "orjson"
