"""Parsed YAML records kept beside the site: the data read back is the data parsed."""

from __future__ import annotations

import math

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import config, sweep
from sitegen.pipeline.build import build
from sitegen.records import load_site
from sitegen.records.parsecache import MISSING, ParseCache, decode, encode
from sitegen.records.yamlpos import parse

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(),
    st.dates(),
    st.datetimes(),
    st.binary(max_size=8),
    st.just("\0list"),
)
keys = st.one_of(st.text(), st.integers(), st.booleans(), st.none(), st.dates())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(keys, inner, max_size=4),
        st.tuples(inner, inner),
        st.sets(st.integers(), max_size=3),
    ),
    max_leaves=20,
)


def same(a, b) -> bool:
    """Equal, and of the same type at every level (1 == 1.0 == True would hide a change)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(
            same(k, j) and same(a[k], b[j]) for k, j in zip(a, b, strict=True)
        )
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


@settings(max_examples=150, deadline=None)
@given(values)
def test_every_value_comes_back_type_for_type(value):
    assert same(decode(encode(value, budget=10**6)), value)


def test_yaml_oddities_come_back_as_parsed(tmp_path):
    text = (
        "a: 2026-05-05\nb: 2026-05-05 10:00:00+02:00\nc: !!binary aGVsbG8=\nd: !!set {x, y}\n"
        "e: [.nan, .inf, -0.0, 0x1f, 1_000, 1:30]\nf: {1: one, null: none, 2026-01-01: day}\n"
        "g: ['\\0list', 1]\nh: !!omap [{k: 1}, {j: 2}]\n"
    )
    data = parse(text).data
    cache = ParseCache(tmp_path)
    cache.put("abc", data, len(text))
    assert same(cache.get("abc"), data)


def test_a_damaged_entry_is_not_used(tmp_path):
    cache = ParseCache(tmp_path)
    cache.put("abc", {"x": 1}, 10)
    (entry,) = tmp_path.glob("*.json")
    entry.write_text(entry.read_text().replace("1", "2"))
    assert cache.get("abc") is MISSING
    entry.write_text("")
    assert cache.get("abc") is MISSING


def test_an_alias_bomb_is_not_expanded_into_the_cache(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 12)]
    text = "\n".join(lines) + "\n"
    data = yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: S506 - a SafeLoader
    cache = ParseCache(tmp_path)
    cache.put("bomb", data, len(text))
    assert cache.get("bomb") is MISSING
    assert not list(tmp_path.glob("*.json"))


def test_a_rebuild_reads_yaml_records_from_the_cache(make_site, monkeypatch, tmp_path):
    """Records the screen flags are kept parsed; plain sweeps are in the load cache instead."""
    twice = [config(8, 4, 900.0, 20.0), config(8, 4, 900.0, 20.0)]  # a warning: flagged
    runs = {"lab/a.yaml": sweep(configs=twice), "lab/b.yaml": sweep(gpu="g2")}
    root = make_site(runs=runs)
    first = build(root)
    assert len(list((root / ".sitegen-cache/parsed").glob("*.json"))) == 1
    assert len(list((root / ".sitegen-cache/loaded").glob("*.arrow"))) == 1
    calls = []
    import sitegen.records.readbatch as readbatch

    real = readbatch.parse
    monkeypatch.setattr(readbatch, "parse", lambda *a, **k: calls.append(a) or real(*a, **k))
    site, problems = load_site(root, use_cache=True)
    assert site is not None
    assert not [a for a in calls if "kind" in a[0] or "configs" in a[0]]  # no run parsed
    fresh, fresh_problems = load_site(root)
    assert site.runs == fresh.runs
    assert problems.sorted() == fresh_problems.sorted()
    assert any("duplicate config" in p.message for p in problems.warnings)
    (root / "data/runs/lab/a.yaml").unlink()
    build(root)
    assert not list((root / ".sitegen-cache/parsed").glob("*.json"))  # pruned
    assert first.files > 0


def test_sitegen_check_writes_no_cache(make_site):
    from click.testing import CliRunner

    from sitegen.cli import main

    root = make_site(runs={"lab/a.yaml": sweep()})
    result = CliRunner().invoke(main, ["check", "--site", str(root)])
    assert result.exit_code == 0, result.output
    assert not (root / ".sitegen-cache").exists()


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=5), values, max_size=5))
def test_a_stored_record_comes_back_type_for_type(tmp_path_factory, record):
    cache = ParseCache(tmp_path_factory.mktemp("parsed"))
    cache.put("k", record, 10**6)
    assert same(cache.get("k"), record)
