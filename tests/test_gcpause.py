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
