"""Writing the tree: all or nothing, and nothing left behind but the lock file."""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import threading
from pathlib import Path

import pytest

from sitegen.cache.digests import file_digest as digest
from sitegen.output import staging as output
from sitegen.output.staging import MARKER, MARKER_TEXT, unsafe_out, write_tree


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
    assert sorted(p.name for p in tmp_path.iterdir()) == [".public.lock", "public"]


def test_a_failure_mid_write_leaves_the_old_tree(tmp_path, monkeypatch):
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"good", "a/b.html": b"kept"})
    calls = {"n": 0}

    def flaky(file, *args, **kwargs):  # the second file's bytes do not fit on the disk
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return open(file, *args, **kwargs)

    monkeypatch.setattr(output, "open", flaky, raising=False)
    with pytest.raises(output.OutputError, match="No space left") as failed:
        write_tree(out, {"index.html": b"new", "a/b.html": b"new", "c.html": b"new"})
    monkeypatch.undo()
    assert failed.value.errno == errno.ENOSPC
    assert failed.value.filename.endswith("/a/b.html")  # the file it was writing
    assert listing(out) == {"index.html": b"good", "a/b.html": b"kept", MARKER: MARKER_TEXT}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".public.lock", "public"]


def test_a_file_staged_is_the_bytes_given(tmp_path, monkeypatch):
    """Whole; its entry the file's size and mtime."""
    data = os.urandom(100_003)
    with output.Staging(tmp_path / "public") as staging:
        stored = {rel: staging.put(rel, data) for rel in ("x.bin", "a/b/y.bin", "a/z.bin")}
        again = staging.put("x.bin", b"shorter")  # staged again: emptied first
        for rel in ("a/b/y.bin", "a/z.bin"):
            info = (staging.root / rel).stat()
            assert (staging.root / rel).read_bytes() == data
            assert stored[rel].entry == (digest(data), len(data), info.st_mtime_ns)
        assert (staging.root / "x.bin").read_bytes() == b"shorter"
        assert again.entry.size == 7 and again.staged


def test_a_staging_folder_removed_after_a_file_went_in_is_made_again(tmp_path):
    with output.Staging(tmp_path / "public") as staging:
        staging.put("runs/a/index.html", b"a")
        shutil.rmtree(staging.root / "runs")
        staging.put("runs/a/data.json", b"b")
        staging.put("runs/b/index.html", b"c")
        assert listing(staging.root) == {"runs/a/data.json": b"b", "runs/b/index.html": b"c"}
        shutil.rmtree(staging.root)
        with pytest.raises(output.OutputError) as failed:  # not the staging folder itself
            staging.put("runs/c/index.html", b"d")
        assert failed.value.errno == errno.ENOENT


def test_a_file_where_a_folder_goes_is_an_output_error(tmp_path):
    with output.Staging(tmp_path / "public") as staging:
        staging.put("a", b"a file")
        with pytest.raises(output.OutputError):
            staging.put("a/b.html", b"under it")


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


# -- the swap, leftovers and the lock -------------------------------------------------------


def test_the_output_folder_never_goes_missing_during_the_swap(tmp_path, monkeypatch) -> None:
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"one"})
    seen: list[bool] = []
    real = Path.rename

    def watching(self, target):
        seen.append(out.is_dir())
        return real(self, target)

    monkeypatch.setattr(Path, "rename", watching)
    for n in range(3):
        write_tree(out, {"index.html": b"again %d" % n})
    assert all(seen)
    assert (out / "index.html").read_bytes() == b"again 2"


def test_where_the_system_cannot_exchange_two_renames_do_it(tmp_path, monkeypatch) -> None:
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"one"})
    monkeypatch.setattr(output, "_exchange", lambda a, b: False)
    write_tree(out, {"index.html": b"two"})
    assert listing(out) == {"index.html": b"two", MARKER: MARKER_TEXT}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".public.lock", "public"]


def test_staging_folders_of_killed_builds_are_removed(tmp_path) -> None:
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"one"})
    for name in (".public.new-abc_1234", ".public.old-zz9xk2ma"):
        (tmp_path / name / "deep").mkdir(parents=True)
        (tmp_path / name / "deep/page.html").write_bytes(b"half written")
    kept = [".public.new-notours", ".publicity.new-abc_1234", ".public.new-file1234"]
    for name in kept[:2]:
        (tmp_path / name).mkdir()
    (tmp_path / kept[2]).write_text("a file, not a staging folder")
    write_tree(out, {"index.html": b"two"})
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".public.lock", "public", *kept])


def test_a_second_build_into_the_same_folder_fails_at_once(tmp_path) -> None:
    out = tmp_path / "public"
    write_tree(out, {"index.html": b"first"})
    with (tmp_path / ".public.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a build that is writing holds it
        with pytest.raises(output.Busy) as info:
            write_tree(out, {"index.html": b"second"})
    assert "another sitegen build is writing this output folder now" in str(info.value)
    assert listing(out) == {"index.html": b"first", MARKER: MARKER_TEXT}
    write_tree(out, {"index.html": b"third"})  # once the first is done
    assert (out / "index.html").read_bytes() == b"third"


def test_builds_racing_into_one_folder_leave_one_whole_tree(tmp_path) -> None:
    out = tmp_path / "public"
    errors: list[BaseException] = []

    def build(n: int) -> None:
        files = {f"page{i}.html": b"build %d" % n for i in range(200)}
        try:
            write_tree(out, files)
        except output.Busy as exc:
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(errors) < 4
    bodies = {p.read_bytes() for p in out.glob("page*.html")}
    assert len(bodies) == 1 and len(list(out.glob("page*.html"))) == 200
    assert sorted(p.name for p in tmp_path.iterdir()) == [".public.lock", "public"]


def test_a_commit_in_place_that_fails_half_way_is_repaired_by_the_next_build(
    tmp_path, monkeypatch
) -> None:
    out = tmp_path / "public"
    first = write_tree(out, {"a/index.html": b"a1", "b/index.html": b"b1", "c.html": b"c1"})
    moved: list[str] = []
    real = os.replace

    def failing(src, dst):
        moved.append(str(dst))
        if len(moved) == 3:  # the marker and one page are in place already
            raise OSError(errno.EIO, "I/O error", str(dst))
        return real(src, dst)

    monkeypatch.setattr(output.os, "replace", failing)
    with pytest.raises(output.OutputError) as info:
        write_tree(
            out, {"a/index.html": b"a2", "b/index.html": b"b2", "c.html": b"c1"}, first.manifest
        )
    assert info.value.partly  # said so, not "nothing written"
    monkeypatch.undo()
    folder = out.stat().st_ino
    again = write_tree(
        out, {"a/index.html": b"a3", "b/index.html": b"b3", "c.html": b"c1"}, first.manifest
    )
    # the old manifest no longer describes the folder (its marker was moved in first): the
    # tree was replaced whole, so it holds exactly what was asked, and no stray of the failure
    assert listing(out) == {
        "a/index.html": b"a3",
        "b/index.html": b"b3",
        "c.html": b"c1",
        MARKER: MARKER_TEXT,
    }
    assert out.stat().st_ino != folder  # swapped in whole
    assert sorted(again.rewritten) == ["a/index.html", "b/index.html"]  # c.html linked over


def test_a_folder_where_a_file_goes_sends_the_tree_to_a_swap(tmp_path) -> None:
    out = tmp_path / "public"
    first = write_tree(out, {"a/index.html": b"a1", "old/index.html": b"gone soon"})
    (out / "old/index.html").unlink()
    (out / "old/index.html").mkdir()  # a folder stands where a file the build removes was
    write_tree(out, {"a/index.html": b"a2"}, first.manifest)
    assert listing(out) == {"a/index.html": b"a2", MARKER: MARKER_TEXT}
