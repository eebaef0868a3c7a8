"""The cycle collector is paused only inside a block, and comes back as it was."""

import gc

import pytest

from sitegen.gcpause import paused


@pytest.fixture(autouse=True)
def collector_restored():
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_paused_inside_and_enabled_after():
    gc.enable()
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_enabled_again_after_an_exception():
    gc.enable()
    with pytest.raises(RuntimeError), paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with paused():
        pass
    assert not gc.isenabled()


def test_a_build_leaves_the_collector_on(tmp_path):
    from sitegen.build import build
    from sitegen.newsite import create_site

    site = tmp_path / "site"
    create_site(site)
    gc.enable()
    build(site, site / "public")
    assert gc.isenabled()


def test_a_workers_chunk_is_made_paused_and_its_cycles_freed_after(monkeypatch):
    """making._make_chunk: the collector off while the jobs are made, a collection of what
    they left in cycles before it is back on."""
    import weakref

    from sitegen import making

    class Node:
        pass

    seen = {}

    class FakeMaker:
        charts = type("Charts", (), {"flush": lambda self: None})()
        env = type("Env", (), {"auto_reload": True})()  # a Jinja environment's

        def make(self, jobs):
            seen["enabled"] = gc.isenabled()
            node = Node()
            node.me = node  # a cycle only the collector frees
            seen["cycle"] = weakref.ref(node)
            return list(jobs)

    monkeypatch.setattr(making, "_MAKER", FakeMaker())
    monkeypatch.setattr(making, "_JOBS", list(range(10)))
    assert making._make_chunk((2, 5)) == [2, 3, 4]
    assert seen["enabled"] is False
    assert seen["cycle"]() is None  # freed by the chunk's collection
    assert gc.isenabled()
