"""What a rebuild must know first (did an input change, which outputs are intact), found by a
forked child or here: the same answers."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sitegen import survey
from sitegen.build import build
from sitegen.filedigests import file_digest as digest
from sitegen.fingerprint import scan_inputs
from sitegen.manifest import Entry, Manifest
from sitegen.survey import Survey, not_intact


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
def forks_from_few(monkeypatch, only_new_threads):
    monkeypatch.setattr(survey, "FORK_MIN_FILES", 8)


def test_a_child_finds_what_a_check_here_finds(make_site, tmp_path, forks_from_few):
    root = make_site()
    manifest = written(tmp_path / "out", 40)
    changed = spoil(tmp_path / "out")
    with Survey(root, "x", manifest) as forked:
        assert forked._child is not None  # it did fork
        assert forked.changed() == changed
        assert forked.digest() == scan_inputs(root, "x").digest
        assert forked.scan() == scan_inputs(root, "x")
    here = Survey(root, "x", manifest, fork=False)
    assert here._child is None
    assert here.changed() == changed == set(not_intact(manifest))
    assert here.scan() == scan_inputs(root, "x")
    assert not here.all_intact()
    assert here.intact("d5/f5.html") and not here.intact("d0/f0.html")
    assert not here.intact("never/written.html")


def test_every_output_intact(make_site, tmp_path, forks_from_few):
    root = make_site()
    manifest = written(tmp_path / "out", 20)
    with Survey(root, "x", manifest) as found:
        assert found.all_intact()
        assert found.digest() == scan_inputs(root, "x").digest
    assert not Survey(root, "x", Manifest(tmp_path / "out")).all_intact()  # nothing was left


def test_a_file_that_must_not_be_read_is_told_by_the_child(make_site, tmp_path, forks_from_few):
    root = make_site()
    os.mkfifo(root / "data/runs/pipe.yaml")
    with Survey(root, "x", written(tmp_path / "out", 20)) as found:
        assert found.digest() is None and found.scan() is None


def test_a_child_that_fails_is_replaced_by_a_check_here(
    make_site, tmp_path, forks_from_few, monkeypatch
):
    root = make_site()
    manifest = written(tmp_path / "out", 20)
    changed = spoil(tmp_path / "out")

    def broken(m: Manifest) -> list[str]:
        raise RuntimeError("the child's check fails")

    monkeypatch.setattr(survey, "not_intact", broken)
    found = Survey(root, "x", manifest)  # the child inherits the broken check, exits 1
    assert found._child is not None
    monkeypatch.setattr(survey, "not_intact", not_intact)  # the check here is the real one
    assert found.digest() == scan_inputs(root, "x").digest  # sent before the check failed
    assert found.changed() == changed
    assert found.scan() == scan_inputs(root, "x")  # sent too, before the check


def test_a_child_never_asked_is_ended(make_site, tmp_path, forks_from_few):
    found = Survey(make_site(), "x", written(tmp_path / "out", 20))
    pid = found._child[0]
    found.close()
    with pytest.raises(ChildProcessError):  # reaped: no zombie left behind
        os.waitpid(pid, os.WNOHANG)
    found.close()  # twice is harmless


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


def test_templates_compiled_by_the_child_are_not_parsed_here(
    make_site, forks_from_few, monkeypatch
):
    import jinja2
    import yaml

    from conftest import config, sweep
    from sitegen import render

    root = make_site()
    build(root)
    parsed: list[str] = []
    real = jinja2.Environment._parse
    monkeypatch.setattr(
        jinja2.Environment,
        "_parse",
        lambda self, source, name, filename: (
            parsed.append(name) or real(self, source, name, filename)
        ),
    )
    record = sweep(configs=[config(8, 64, 1234.5, 100.0)])
    (root / "data/runs/lab/run.yaml").write_text(yaml.safe_dump(record))
    render._environment.cache_clear()  # no template compiled by the builds before
    result = build(root)
    assert result.made and parsed == []  # every template came compiled from the child
    (root / "data/runs/lab/run.yaml").write_text(yaml.safe_dump(sweep()))
    render._environment.cache_clear()
    monkeypatch.setattr(survey, "FORK_MIN_FILES", 10**9)  # no child: compiled here
    assert build(root).made and parsed != []


def test_a_template_the_child_compiled_from_other_source_is_compiled_here(
    make_site, tmp_path, forks_from_few, monkeypatch
):
    """As if the template was edited after the child read it: its code is not used."""
    import yaml

    from conftest import config, sweep
    from sitegen import render, templatecode

    root = make_site()
    build(root)
    real = templatecode.compile_all

    def stale(env):
        handed = real(env)
        for entry in handed.values():
            entry[2] = entry[2].replace("<html", "<stale")  # other code, the old digest
            entry[0] = "0" * 40  # of another source
        return handed

    monkeypatch.setattr(survey, "compile_all", stale)
    record = sweep(configs=[config(8, 64, 1234.5, 100.0)])
    (root / "data/runs/lab/run.yaml").write_text(yaml.safe_dump(record))
    render._environment.cache_clear()
    build(root)
    fresh = build(root, tmp_path / "fresh", use_cache=False)
    for page in fresh.out_dir.rglob("*.html"):
        rel = page.relative_to(fresh.out_dir)
        assert (root / "public" / rel).read_bytes() == page.read_bytes()
        assert b"<stale" not in page.read_bytes()
