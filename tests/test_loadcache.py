"""The load cache and the pool: whatever a build finds in the cache, or however many processes
read the files, load_site gives exactly the Site and problems of a load without either."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import config, sweep
from sitegen.cache import digests as filedigests
from sitegen.records import load_site, readbatch
from sitegen.records.loadcache import INDEX, LoadCache, LoadMemo

MATRIX = """\
kind: matrix
title: A grid
source: Lab
date: 2026-09-01
model: m1
gpu: g1
engine: llama.cpp
precision: q4
gpus: 1
prefill:
  - {context: 512, prompt_tokens: 512, ttft_s: 0.5, tok_s: 1000}
decode:
  - {context: 512, concurrency: 1, aggregate_tok_s: 50, per_request_tok_s: 50, ttft_s: 0.5}
"""


def _runs() -> dict[str, object]:
    twice = [config(8, 4, 900.0, 20.0), config(8, 4, 900.0, 20.0)]
    return {
        "lab/a.yaml": sweep(),
        "lab/b.json": json.dumps(sweep(gpu="g2", engine="sglang", notes="JSON")),
        "lab/c.yaml": sweep(configs=twice, engine="trt"),  # flagged: the exact checker's
        "lab/d.yaml": sweep(extra_field=1, precision="fp4"),  # an unknown key: a warning
        "lab/e.yaml": sweep(configs=[config(8, 16, 650.0, 25.0, tp=8, dp_attention=True)]),
        "other/m.yaml": MATRIX,
        "other/x.yaml": sweep(model="m2", configs=[config(4, 2, 100.0, 30.0, image="v1")]),
    }


def same_columns(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal values of equal types, NaN equal to NaN, in arrays of the same dtype."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return [(type(v), v) for v in a.tolist()] == [(type(v), v) for v in b.tolist()]


def assert_same_load(root: Path) -> None:
    """load_site with the cache gives what load_site without it gives."""
    cached, cached_problems = load_site(root, use_cache=True)
    fresh, fresh_problems = load_site(root, use_cache=False)
    assert cached_problems.sorted() == fresh_problems.sorted()
    assert (cached is None) == (fresh is None)
    if fresh is None:
        return
    assert cached.runs == fresh.runs  # every field, and every config made from the table
    rows = [(r.configs.start, r.configs.stop) for r in fresh.sweeps]
    assert [(r.configs.start, r.configs.stop) for r in cached.sweeps] == rows
    assert cached.digests == fresh.digests
    assert cached.table.columns.keys() == fresh.table.columns.keys()
    for name, column in fresh.table.columns.items():
        assert same_columns(cached.table.columns[name], column), name


def index_of(root: Path) -> LoadCache:
    from sitegen.records.load import cache_key, catalogs
    from sitegen.records.problems import Problems

    digests: dict[str, str] = {}
    catalogs(root, Problems(), digests)
    return LoadCache(root / ".sitegen-cache/loaded", cache_key(digests))


@pytest.fixture
def not_racy(monkeypatch):
    """Files written by a test are trusted at once (they are seconds old in real use)."""
    monkeypatch.setattr(filedigests, "RACY_NS", 0)


def test_edits_additions_and_removals_load_as_without_the_cache(make_site, not_racy):
    root = make_site(runs=_runs())
    assert_same_load(root)  # cold: the cache is written
    assert len(index_of(root).files) == 5  # the clean plain sweeps: not c (flagged) nor m
    assert_same_load(root)  # all from the cache
    runs = root / "data/runs"
    (runs / "lab/a.yaml").write_text(
        (runs / "lab/a.yaml").read_text().replace("1000.0", "1100.0"), encoding="utf-8"
    )
    (runs / "lab/d.yaml").unlink()
    (runs / "lab/aa.yaml").write_text(
        json.dumps(sweep(gpu="g2", date="2026-10-02")), encoding="utf-8"
    )
    # a duplicate of a config of a.yaml in another file (same run identity): a warning
    (runs / "other/z.yaml").write_text(json.dumps(sweep()), encoding="utf-8")
    assert_same_load(root)
    files = index_of(root).files
    assert "data/runs/lab/d.yaml" not in files and "data/runs/lab/aa.yaml" in files
    _, problems = load_site(root, use_cache=True)
    assert any("also measured in data/runs/lab/a.yaml" in p.message for p in problems.warnings)
    assert_same_load(root)


def test_an_unchanged_file_is_neither_read_nor_parsed(make_site, monkeypatch, not_racy):
    root = make_site(runs=_runs())
    load_site(root, use_cache=True)
    read: list[str] = []
    real = readbatch.read_bytes
    monkeypatch.setattr(
        readbatch, "read_bytes", lambda p, *a, **k: read.append(p.name) or real(p, *a, **k)
    )
    load_site(root, use_cache=True)
    assert sorted(read) == ["c.yaml", "m.yaml"]  # the records the cache does not hold
    read.clear()
    path = root / "data/runs/lab/e.yaml"
    path.write_text(path.read_text().replace("650.0", "651.0"), encoding="utf-8")
    load_site(root, use_cache=True)
    assert sorted(read) == ["c.yaml", "e.yaml", "m.yaml"]
    assert_same_load(root)


def test_a_touched_file_with_the_same_bytes_is_not_parsed(make_site, monkeypatch, not_racy):
    root = make_site(runs=_runs())
    load_site(root, use_cache=True)
    path = root / "data/runs/lab/a.yaml"
    path.write_bytes(path.read_bytes())  # a new mtime, the same bytes
    parsed: list[str] = []
    real = readbatch.parse
    monkeypatch.setattr(readbatch, "parse", lambda t, **k: parsed.append(t) or real(t, **k))
    load_site(root, use_cache=True)
    assert not [t for t in parsed if "engine: vllm" in t and "precision: fp8" in t]


def test_a_catalog_edit_or_new_code_ignores_the_whole_cache(make_site, monkeypatch, not_racy):
    root = make_site(runs=_runs())
    load_site(root, use_cache=True)
    assert index_of(root).files
    gpus = root / "data/gpus.yaml"
    gpus.write_text(gpus.read_text() + "\n", encoding="utf-8")
    assert not index_of(root).files  # written for other catalogs
    assert_same_load(root)
    assert index_of(root).files
    import sitegen.records.loadcache as loadcache

    monkeypatch.setattr(loadcache, "code_version", lambda: "another version")
    assert not index_of(root).files


def _damage_segment(folder: Path) -> None:
    (segment,) = folder.glob("*.arrow")
    raw = segment.read_bytes()
    segment.write_bytes(raw[: len(raw) // 2])


def _edit_segment(folder: Path) -> None:
    (segment,) = folder.glob("*.arrow")
    raw = bytearray(segment.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    segment.write_bytes(bytes(raw))


def _damage_index(folder: Path) -> None:
    index = folder / INDEX
    index.write_text(index.read_text().replace("vllm", "sglang"), encoding="utf-8")


def _foreign_index(folder: Path) -> None:
    """An index signed under another user's key (or another machine's)."""
    index = folder / INDEX
    header, _, body = index.read_text().partition("\n")
    index.write_text(header[:-8] + "00000000\n" + body, encoding="utf-8")


def _truncated_index(folder: Path) -> None:
    index = folder / INDEX
    index.write_bytes(index.read_bytes()[:100])


@pytest.mark.parametrize(
    "damage", [_damage_segment, _edit_segment, _damage_index, _foreign_index, _truncated_index]
)
def test_a_damaged_or_foreign_cache_is_ignored_and_rebuilt(make_site, not_racy, damage):
    root = make_site(runs=_runs())
    load_site(root, use_cache=True)
    folder = root / ".sitegen-cache/loaded"
    damage(folder)
    assert not index_of(root).files
    assert_same_load(root)
    assert len(index_of(root).files) == 5  # written again, and trusted


def test_a_valid_segment_that_is_not_the_indexed_one_is_not_used(make_site, not_racy):
    """A well-formed Arrow file put in the place of the one the index names (another build's,
    another site's): its digest is not the indexed one."""
    root = make_site(runs=_runs())
    load_site(root, use_cache=True)
    folder = root / ".sitegen-cache/loaded"
    index = (folder / INDEX).read_bytes()
    (first,) = folder.glob("*.arrow")
    for path in (root / "data/runs").rglob("*.yaml"):  # every row changes: one new segment
        path.write_text(path.read_text().replace("200.0", "201.0"), encoding="utf-8")
    assert_same_load(root)
    (second,) = folder.glob("*.arrow")
    assert second != first
    os.replace(second, first)
    (folder / INDEX).write_bytes(index)
    assert not index_of(root).files
    assert_same_load(root)


def assert_same_as_fresh(loaded: tuple, root: Path) -> None:
    """A load (site, problems) equal to a load without any cache."""
    (site, problems), (fresh, fresh_problems) = loaded, load_site(root, use_cache=False)
    assert problems.sorted() == fresh_problems.sorted()
    assert site.runs == fresh.runs and site.digests == fresh.digests
    for name, column in fresh.table.columns.items():
        assert same_columns(site.table.columns[name], column), name


def test_a_memo_loads_as_the_disk_does_without_reading_the_cache(make_site, monkeypatch, not_racy):
    """The preview's rebuilds: the load cache kept in memory, written once, then only kept."""
    root = make_site(runs=_runs())
    memo = LoadMemo()
    assert_same_as_fresh(load_site(root, use_cache=True, memo=memo), root)  # cold: read, kept
    assert index_of(root).files == memo.cache.files  # the first build writes what it keeps
    on_disk = {p.name: p.read_bytes() for p in (root / ".sitegen-cache/loaded").iterdir()}
    reads: list[Path] = []
    real = LoadCache._read
    monkeypatch.setattr(LoadCache, "_read", lambda self: reads.append(self.folder) or real(self))
    read: list[str] = []
    real_bytes = readbatch.read_bytes
    monkeypatch.setattr(
        readbatch, "read_bytes", lambda p, *a, **k: read.append(p.name) or real_bytes(p, *a, **k)
    )
    runs = root / "data/runs"
    for k in range(10):  # past MAX_SEGMENTS: compacted, in memory
        configs = [config(8, 16, 600.0 + k, 25.0)]
        (runs / "lab/e.yaml").write_text(json.dumps(sweep(configs=configs)))
        if k == 3:
            (runs / "lab/d.yaml").unlink()
            (runs / "lab/f.yaml").write_text(json.dumps(sweep(gpu="g2", date="2026-10-02")))
        read.clear()
        loaded = load_site(root, use_cache=True, memo=memo)
        assert reads == []  # not read from the disk again
        new = {"f.yaml"} if k == 3 else set()
        assert set(read) == {"c.yaml", "m.yaml", "e.yaml"} | new  # the others from memory
        assert_same_as_fresh(loaded, root)
    assert {p.name: p.read_bytes() for p in (root / ".sitegen-cache/loaded").iterdir()} == on_disk
    assert_same_load(root)  # a build after the preview: the disk's, for the files it names
    (root / "data/gpus.yaml").write_text((root / "data/gpus.yaml").read_text() + "\n")
    reads.clear()
    assert_same_as_fresh(load_site(root, use_cache=True, memo=memo), root)
    assert len(reads) == 1  # other catalogs: the cache on disk, for them


def test_many_edits_keep_few_segments(make_site, not_racy):
    root = make_site(runs=_runs())
    load_site(root, use_cache=True)
    path = root / "data/runs/lab/e.yaml"
    for k in range(12):
        path.write_text(json.dumps(sweep(configs=[config(8, 16, 600.0 + k, 25.0)])), "utf-8")
        assert_same_load(root)
        assert len(list((root / ".sitegen-cache/loaded").glob("*.arrow"))) <= 8


def test_the_pool_loads_what_one_process_loads(make_site, monkeypatch):
    runs = _runs()
    runs |= {
        f"many/r{i}.yaml": sweep(configs=[config(8, 2**i, 10.0 * i + 1, 20.0)]) for i in range(9)
    }
    runs["many/broken.yaml"] = "configs: [unclosed\n"
    runs["many/bad.yaml"] = sweep(configs=[config(8, 1, -5.0, 20.0)])  # an error, flagged
    runs["many/nofields.yaml"] = sweep(model="nope")  # the screen passes it, its fields do not
    root = make_site(runs=runs)
    one, one_problems = load_site(root)
    import sitegen.records.load as load

    pooled: list[int] = []
    real = readbatch.read_in_pool
    monkeypatch.setattr(load, "POOL_FILES", 1)
    monkeypatch.setattr(load, "POOL_BATCH_FILES", 3)
    monkeypatch.setattr(readbatch, "cores", lambda: 2)
    # whatever threads the suite left
    monkeypatch.setattr("sitegen.records.load.can_fork", lambda: True)
    monkeypatch.setattr(
        readbatch, "read_in_pool", lambda b, *a: pooled.append(len(b)) or real(b, *a)
    )
    two, two_problems = load_site(root)
    assert pooled == [7]  # 19 files, 3 a batch
    assert one is None and two is None  # the errors
    assert two_problems.sorted() == one_problems.sorted()
    assert len(one_problems.errors) >= 3
    for name in ("broken", "bad", "nofields"):
        root.joinpath(f"data/runs/many/{name}.yaml").unlink()
    monkeypatch.setattr(load, "POOL_FILES", 10**9)
    one, one_problems = load_site(root)
    monkeypatch.setattr(load, "POOL_FILES", 1)
    two, two_problems = load_site(root)
    assert pooled == [7, 6]
    assert one is not None and two is not None
    assert two_problems.sorted() == one_problems.sorted()
    assert two.runs == one.runs and two.digests == one.digests
    for name, column in one.table.columns.items():
        assert same_columns(two.table.columns[name], column), name


def test_the_pool_takes_unchanged_bytes_from_the_cache(make_site, monkeypatch, not_racy):
    """Files whose stat changed but whose bytes did not: the workers find them in the cache."""
    import sitegen.records.load as load

    runs = _runs() | {
        f"many/r{i}.yaml": sweep(model="m2", date=f"2026-01-{i + 1:02}") for i in range(9)
    }
    root = make_site(runs=runs)
    load_site(root, use_cache=True)
    for path in (root / "data/runs").rglob("*.*"):
        path.write_bytes(path.read_bytes())  # a new mtime and ctime
    monkeypatch.setattr(load, "POOL_FILES", 1)
    monkeypatch.setattr(load, "POOL_BATCH_FILES", 4)
    monkeypatch.setattr(readbatch, "cores", lambda: 2)
    monkeypatch.setattr("sitegen.records.load.can_fork", lambda: True)
    segments = set((root / ".sitegen-cache/loaded").glob("*.arrow"))
    assert_same_load(root)
    assert set((root / ".sitegen-cache/loaded").glob("*.arrow")) == segments  # nothing new


def test_no_cache_and_check_write_no_load_cache(make_site):
    from sitegen.pipeline.build import build

    root = make_site(runs=_runs())
    load_site(root, use_cache=False)
    assert not (root / ".sitegen-cache").exists()
    build(root, use_cache=False)
    assert not (root / ".sitegen-cache").exists()


def test_a_site_named_by_a_relative_path_loads_the_same(make_site, monkeypatch, not_racy):
    from sitegen.records.fingerprint import site_inputs

    root = make_site(runs=_runs())
    expected = site_inputs(root, "x", stat_first=False)
    monkeypatch.chdir(root)
    assert site_inputs(Path("."), "x") == expected
    assert site_inputs(Path("."), "x") == expected  # from the recorded stats
    assert_same_load(Path("."))
    site, _ = load_site(".", use_cache=True)
    assert sorted(site.digests)[0] == "data/gpus.yaml"
    assert {r.path for r in site.runs} == {f"data/runs/{name}" for name in _runs()}
    monkeypatch.chdir(root / "data")
    assert site_inputs(Path(".."), "x") == expected
    assert_same_load(Path(".."))


def test_without_fork_one_process_reads(make_site, monkeypatch):
    import sitegen.records.load as load

    root = make_site(runs=_runs())
    monkeypatch.setattr(load, "POOL_FILES", 1)
    monkeypatch.setattr(readbatch, "cores", lambda: 2)
    monkeypatch.setattr("sitegen.records.load.can_fork", lambda: False)
    monkeypatch.setattr(readbatch, "read_in_pool", lambda *a: pytest.fail("a pool"))
    site, _ = load_site(root)
    assert site is not None and len(site.runs) == 7


def _same_configs_over_every_config(runs, table):
    """The check as it was: one frame over every config of the site (the reference)."""
    import pandas as pd

    from sitegen.records import columnar, schema
    from sitegen.records.model import SweepRun

    sweeps = [r for r in runs if isinstance(r, SweepRun) and len(r.configs)]
    # another source or another published run (url) is another measurement
    identity = ("model", "gpu", "workload", "engine", "precision", "date", "source", "url")
    order, lengths, index = columnar.run_rows(sweeps)
    frame = pd.DataFrame({k: table.columns[k][order] for k in schema.CONFIG_KEY})
    for name in identity:
        frame[name] = np.repeat(np.array([str(getattr(r, name)) for r in sweeps]), lengths)
    frame["run"] = np.repeat(np.arange(len(sweeps)), lengths)
    frame["i"] = index
    twice = frame[frame.duplicated(subset=[*identity, *schema.CONFIG_KEY], keep=False)]
    groups: dict = {}
    for row in twice.itertuples(index=False):
        key = tuple(getattr(row, k) for k in identity) + tuple(
            None if v != v else v for v in (getattr(row, k) for k in schema.CONFIG_KEY)
        )
        groups.setdefault(key, []).append((sweeps[row.run], row.i))
    return {k: v for k, v in groups.items() if len({r.path for r, _ in v}) > 1}


def test_duplicates_across_files_are_those_a_frame_over_every_config_finds(make_site):
    import random

    import sitegen.records.load as load

    rng = random.Random(8)
    runs = {}
    for i in range(40):
        configs = [
            config(
                rng.choice([4, 8]), rng.choice([1, 2, 4]), 100.0 + k, 20.0, tp=rng.choice([4, 8])
            )
            for k in range(3)
        ]
        runs[f"lab/r{i:02}.yaml"] = sweep(
            model=rng.choice(["m1", "m2"]),
            engine=rng.choice(["vllm", "sglang"]),
            date=rng.choice(["2026-10-01", "2026-10-02"]),
            configs=configs,
        )
    root = make_site(runs=runs)
    site, problems = load_site(root)
    assert site is not None
    in_file_order = sorted(site.runs, key=lambda r: r.path)
    reference = _same_configs_over_every_config(in_file_order, site.table)
    grouped = load._same_configs(in_file_order, site.table)
    across = {k: v for k, v in grouped.items() if len({r.path for r, _ in v}) > 1}
    assert list(across.items()) == list(reference.items())  # the same places, in order
    assert len(reference) > 3  # the site has duplicates across files to find
    warned = [p for p in problems.warnings if "also measured in" in p.message]
    expected = sum(1 for v in reference.values() for r, _ in v[1:] if r.path != v[0][0].path)
    assert len(warned) == expected


@pytest.mark.parametrize("odd", [float("nan"), float("inf"), ["\x00tuple", [1.0, float("-inf")]]])
def test_an_entry_holding_nan_or_an_infinity_is_not_kept(odd):
    """The index is written by orjson, which would write NaN and infinities as null."""
    from sitegen.records.loadcache import Clean, _entry

    def entry(value):
        return _entry(Clean("data/runs/a.yaml", "a", "d" * 40, {"x": value}, 1, []), "s", 0)

    assert entry(odd) is None
    assert entry(1.5) == ["d" * 40, "a", {"x": 1.5}, 1, [], "s", 0]


@given(st.lists(st.sampled_from(["a", "b", "", "x y", True, False]), max_size=40))
def test_factorize_is_pandas_factorize(values):
    import pandas as pd

    from sitegen.records.loadcache import factorize

    column = np.array(values, dtype=object)
    codes, uniques = factorize(column)
    expected_codes, expected_uniques = pd.factorize(column)
    assert codes.tolist() == expected_codes.tolist()
    assert uniques == expected_uniques.tolist()
    assert [type(u) for u in uniques] == [type(u) for u in expected_uniques.tolist()]


_LEAVES = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.floats()


@given(
    st.recursive(
        _LEAVES,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.tuples(inner, inner)
            | st.dictionaries(st.text(max_size=3), inner, max_size=4)
        ),
        max_leaves=12,
    )
)
def test_finite_is_what_json_without_nan_accepts(value):
    """The index's check for NaN and infinities, however deep, against json's own."""
    from sitegen.cache.files import finite

    try:
        json.dumps(value, allow_nan=False)
        expected = True
    except ValueError:
        expected = False
    assert finite(value) is expected


def test_a_segment_is_the_ipc_file_a_growing_buffer_would_hold():
    import pyarrow as pa

    from sitegen.records.loadcache import _ipc_file

    batch = pa.RecordBatch.from_arrays(
        [pa.array(np.arange(1000, dtype=np.float64)), pa.array(np.arange(1000) % 7, pa.uint8())],
        names=["x", "codes"],
    )
    grown = pa.BufferOutputStream()
    with pa.ipc.new_file(grown, batch.schema) as writer:
        writer.write_batch(batch)
    sized = _ipc_file(batch)
    assert sized.to_pybytes() == grown.getvalue().to_pybytes()
    assert pa.ipc.open_file(sized).read_all().to_batches()[0].equals(batch)
