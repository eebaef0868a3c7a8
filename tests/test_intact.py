"""The last build's outputs found intact or not, by a forked child or here: the same answer."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sitegen import intact
from sitegen.build import build
from sitegen.intact import IntactOutputs, not_intact
from sitegen.manifest import Entry, Manifest, digest


def written(out: Path, count: int) -> Manifest:
    """`count` files in `out`, and the manifest that describes them."""
    manifest = Manifest(out)
    for i in range(count):
        path = out / f"d{i % 7}" / f"f{i}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = f"page {i}".encode()
        path.write_bytes(data)
        st = path.stat()
        manifest.entries[path.relative_to(out).as_posix()] = Entry(
            digest(data), st.st_size, st.st_mtime_ns
        )
    return manifest


def spoil(out: Path) -> set[str]:
    """Change the outputs in three ways a build must notice; the names changed."""
    (out / "d0/f0.html").unlink()  # gone
    (out / "d1/f1.html").write_bytes(b"edited by hand, longer than it was")  # other size
    other = out / "d2/f2.html"
    os.utime(other, ns=(time.time_ns(), other.stat().st_mtime_ns + 10**9))  # other mtime
    (out / "d3/f3.html").unlink()
    (out / "d3/f3.html").symlink_to(out / "d4/f4.html")  # a link is not the file left there
    return {"d0/f0.html", "d1/f1.html", "d2/f2.html", "d3/f3.html"}


@pytest.fixture
def forks_from_few(monkeypatch):
    monkeypatch.setattr(intact, "FORK_MIN_FILES", 8)


def test_a_child_finds_what_a_check_here_finds(tmp_path, forks_from_few):
    manifest = written(tmp_path / "out", 40)
    changed = spoil(tmp_path / "out")
    with IntactOutputs(manifest) as forked:
        assert forked._child is not None  # it did fork
        assert forked.changed() == changed
    here = IntactOutputs(manifest, fork=False)
    assert here._child is None
    assert here.changed() == changed == set(not_intact(manifest))
    assert not here.all_intact()
    assert here.intact("d5/f5.html") and not here.intact("d0/f0.html")
    assert not here.intact("never/written.html")


def test_every_output_intact(tmp_path, forks_from_few):
    manifest = written(tmp_path / "out", 20)
    with IntactOutputs(manifest) as outputs:
        assert outputs.all_intact()
    assert not IntactOutputs(Manifest(tmp_path / "out")).all_intact()  # nothing was left


def test_a_child_that_fails_is_replaced_by_a_check_here(tmp_path, forks_from_few, monkeypatch):
    manifest = written(tmp_path / "out", 20)
    changed = spoil(tmp_path / "out")

    def broken(m: Manifest) -> list[str]:
        raise RuntimeError("the child's check fails")

    monkeypatch.setattr(intact, "not_intact", broken)
    outputs = IntactOutputs(manifest)  # the child inherits the broken check, exits 1
    monkeypatch.undo()  # the check here is the real one
    monkeypatch.setattr(intact, "FORK_MIN_FILES", 8)
    assert outputs._child is not None
    assert outputs.changed() == changed


def test_a_child_never_asked_is_ended(tmp_path, forks_from_few):
    manifest = written(tmp_path / "out", 20)
    outputs = IntactOutputs(manifest)
    pid = outputs._child[0]
    outputs.close()
    with pytest.raises(ChildProcessError):  # reaped: no zombie left behind
        os.waitpid(pid, os.WNOHANG)
    outputs.close()  # twice is harmless


def test_a_build_notices_an_output_changed_by_hand(make_site, forks_from_few):
    root = make_site()
    first = build(root)
    page = next(p for p in (root / "public").rglob("*.html"))
    page.write_text("edited by hand")
    second = build(root)
    assert page.relative_to(root / "public").as_posix() in second.rewritten
    assert page.read_text() != "edited by hand"
    assert build(root).rewritten == ()
    assert first.files == second.files
