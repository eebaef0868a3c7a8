"""Cache files are written whole, in their own temporary file, never through a planted link."""

import os

from sitegen.cachefile import prune, write_atomic


def test_a_file_is_written_whole_and_its_folder_made(tmp_path):
    path = tmp_path / "a" / "b" / "entry.svg"
    write_atomic(path, "é" * 10_000)
    assert path.read_text(encoding="utf-8") == "é" * 10_000
    assert os.listdir(path.parent) == ["entry.svg"]  # no temporary file left


def test_a_file_is_replaced_whole(tmp_path):
    path = tmp_path / "entry.svg"
    write_atomic(path, "old")
    write_atomic(path, "new")
    assert path.read_text() == "new"
    assert os.listdir(tmp_path) == ["entry.svg"]


def test_a_link_planted_at_the_temporary_name_is_not_followed(tmp_path):
    target = tmp_path / "precious"
    target.write_text("keep me")
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / f".tmp-{os.getpid()}-entry.svg").symlink_to(target)
    write_atomic(folder / "entry.svg", "chart")
    assert target.read_text() == "keep me"
    assert (folder / "entry.svg").read_text() == "chart"


def test_a_temporary_file_left_by_a_crash_is_pruned(tmp_path):
    (tmp_path / ".tmp-99999-entry.svg").write_text("half")
    write_atomic(tmp_path / "kept.svg", "chart")
    assert prune(tmp_path, ".svg", {"kept"}) == 1
    assert os.listdir(tmp_path) == ["kept.svg"]
