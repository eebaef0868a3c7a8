"""Stat first, hash only what changed: the same digests as reading every file, fewer reads."""

from __future__ import annotations

import os
import time

import pytest

from conftest import sweep
from sitegen.cache import digests as filedigests
from sitegen.cache.digests import FileDigests, file_digest, stat_key
from sitegen.records import load_site
from sitegen.records.fingerprint import site_inputs


@pytest.fixture
def hashed(monkeypatch) -> list[int]:
    """The sizes of the files hashed by filedigests."""
    sizes: list[int] = []
    real = filedigests.file_digest
    monkeypatch.setattr(filedigests, "file_digest", lambda raw: sizes.append(len(raw)) or real(raw))
    return sizes


def test_an_unchanged_file_is_not_hashed_and_an_edit_of_the_same_size_is(
    tmp_path, monkeypatch, hashed
):
    monkeypatch.setattr(filedigests, "RACY_NS", 0)
    path, table_file = tmp_path / "a.yaml", tmp_path / "digests.json"
    path.write_bytes(b"value: 1\n")
    time.sleep(0.05)  # later than the file's timestamps, at their granularity
    table = FileDigests(table_file)
    assert table.digest("a.yaml", path) == file_digest(b"value: 1\n")
    table.save()
    assert FileDigests(table_file).digest("a.yaml", path) == file_digest(b"value: 1\n")
    assert len(hashed) == 1  # the second table took the recorded digest
    time.sleep(0.05)
    path.write_bytes(b"value: 2\n")  # the same size
    assert FileDigests(table_file).digest("a.yaml", path) == file_digest(b"value: 2\n")
    assert len(hashed) == 2


def test_a_racy_file_is_hashed_again(tmp_path, hashed):
    """A file whose timestamps are as new as its record may have changed within the tick."""
    path = tmp_path / "a.yaml"
    path.write_bytes(b"value: 1\n")
    st = os.stat(path)
    newest = max(st.st_mtime_ns, st.st_ctime_ns)
    table = FileDigests(None)
    wrong = "0" * 40  # what the file held when recorded, say, in the same tick
    table.entries["a.yaml"] = [*stat_key(st), newest + 1_000_000, wrong]
    assert table.digest("a.yaml", path) == file_digest(b"value: 1\n")
    table.entries["a.yaml"] = [*stat_key(st), newest + filedigests.RACY_NS + 1, wrong]
    assert table.digest("a.yaml", path) == wrong  # old enough: trusted, not read


def test_a_table_edited_by_hand_is_not_trusted(tmp_path, monkeypatch, hashed):
    monkeypatch.setattr(filedigests, "RACY_NS", 0)
    path, table_file = tmp_path / "a.yaml", tmp_path / "digests.json"
    path.write_bytes(b"value: 1\n")
    time.sleep(0.05)
    table = FileDigests(table_file)
    table.digest("a.yaml", path)
    table.save()
    table_file.write_text(table_file.read_text().replace(file_digest(b"value: 1\n"), "0" * 40))
    assert FileDigests(table_file).digest("a.yaml", path) == file_digest(b"value: 1\n")


def test_site_inputs_stats_unchanged_files_and_finds_changed_ones(make_site, monkeypatch, hashed):
    monkeypatch.setattr(filedigests, "RACY_NS", 0)
    root = make_site(runs={"lab/a.yaml": sweep(), "lab/b.yaml": sweep(gpu="g2")})
    time.sleep(0.05)
    read_all = site_inputs(root, "x", stat_first=False)
    assert site_inputs(root, "x") == read_all
    first = len(hashed)
    assert site_inputs(root, "x") == read_all
    assert len(hashed) == first  # nothing read again
    path = root / "data/runs/lab/b.yaml"
    time.sleep(0.05)
    path.write_text(path.read_text().replace("1000.0", "2000.0"), encoding="utf-8")
    edited = site_inputs(root, "x")
    assert len(hashed) == first + 1  # the edited file alone
    assert edited != read_all and edited == site_inputs(root, "x", stat_first=False)


@pytest.mark.parametrize("replace", ["link out", "pipe"])
def test_a_file_replaced_by_a_link_or_a_pipe_is_still_refused(
    make_site, monkeypatch, tmp_path, replace
):
    monkeypatch.setattr(filedigests, "RACY_NS", 0)
    root = make_site(runs={"lab/a.yaml": sweep(), "lab/b.yaml": sweep(gpu="g2")})
    time.sleep(0.05)
    assert site_inputs(root, "x") is not None
    site, _ = load_site(root, use_cache=True)
    assert site is not None
    path = root / "data/runs/lab/b.yaml"
    outside = tmp_path / "secret.yaml"
    outside.write_bytes(path.read_bytes())
    path.unlink()
    if replace == "link out":
        path.symlink_to(outside)
    else:
        os.mkfifo(path)
    assert site_inputs(root, "x") is None
    site, problems = load_site(root, use_cache=True)
    assert site is None
    assert [p.file for p in problems.errors] == ["data/runs/lab/b.yaml"]


def test_a_link_inside_the_site_is_read_through(make_site, monkeypatch):
    """A run file that becomes a link to another run file: its digest is its target's."""
    monkeypatch.setattr(filedigests, "RACY_NS", 0)
    root = make_site(runs={"lab/a.yaml": sweep(), "lab/b.yaml": sweep(gpu="g2")})
    time.sleep(0.05)
    site_inputs(root, "x")
    path = root / "data/runs/lab/b.yaml"
    path.unlink()
    path.symlink_to(root / "data/runs/lab/a.yaml")
    assert site_inputs(root, "x") == site_inputs(root, "x", stat_first=False)
