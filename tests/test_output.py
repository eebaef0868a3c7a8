"""Writing the tree: all or nothing, and nothing left behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.output import MARKER, MARKER_TEXT, unsafe_out, write_tree


def listing(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_replaces_the_tree_and_drops_files_no_longer_produced(tmp_path):
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"one", "old/page.html": b"gone soon"})
    write_tree(out, {"index.html": b"two", "new/page.html": b"fresh"})
    assert listing(out) == {"index.html": b"two", "new/page.html": b"fresh", MARKER: MARKER_TEXT}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]


def test_a_failure_mid_write_leaves_the_old_tree(tmp_path, monkeypatch):
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"good", "a/b.html": b"kept"})
    calls = {"n": 0}
    real = Path.write_bytes

    def flaky(self, data):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk full")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", flaky)
    with pytest.raises(OSError, match="disk full"):
        write_tree(out, {"index.html": b"new", "a/b.html": b"new", "c.html": b"new"})
    monkeypatch.undo()
    assert listing(out) == {"index.html": b"good", "a/b.html": b"kept", MARKER: MARKER_TEXT}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]


def test_creates_missing_parents(tmp_path):
    write_tree(tmp_path / "deep/er/out", {"x.txt": b"1"})
    assert (tmp_path / "deep/er/out/x.txt").read_bytes() == b"1"


def test_a_folder_sitegen_did_not_write_is_refused(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    documents = tmp_path / "documents"
    documents.mkdir()
    (documents / "taxes.pdf").write_bytes(b"keep me")
    assert "holds files that sitegen did not write" in unsafe_out(site, documents)
    (tmp_path / "empty").mkdir()
    assert unsafe_out(site, tmp_path / "empty") == ""
    assert unsafe_out(site, tmp_path / "not-yet") == ""
    write_tree(tmp_path / "built", {"index.html": b"x"})
    assert unsafe_out(site, tmp_path / "built") == ""  # its own earlier output
