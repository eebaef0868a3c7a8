"""What a build keeps between runs is trusted only when this user's key signed it."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from sitegen.cache import trust as cachetrust
from sitegen.cache.manifest import Manifest
from sitegen.pipeline.build import build


@pytest.fixture
def own_key(tmp_path: Path, monkeypatch):
    """A fresh user cache folder (and so a fresh key) for one test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cachetrust._key.cache_clear()
    yield tmp_path / "xdg"
    cachetrust._key.cache_clear()


def test_the_key_is_made_once_readable_by_its_user_only(own_key: Path) -> None:
    mac = cachetrust.sign("body")
    key = own_key / "sitegen/key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    cachetrust._key.cache_clear()
    assert cachetrust.sign("body") == mac and cachetrust.verify("body", mac)
    assert not cachetrust.verify("body!", mac) and not cachetrust.verify("body", "0" * 64)


def test_another_users_key_signs_nothing_we_trust(own_key: Path, tmp_path, monkeypatch) -> None:
    mac = cachetrust.sign("body")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    cachetrust._key.cache_clear()
    assert not cachetrust.verify("body", mac)


def test_without_a_key_nothing_is_cached_and_the_build_is_the_same(
    own_key: Path, make_site, tmp_path
) -> None:
    own_key.write_text("a file where the folder should be")
    site = make_site()
    build(site, tmp_path / "a")
    assert cachetrust.sign("x") is None and cachetrust.cache_folder(site) is None
    assert not (site / ".sitegen-cache").exists()
    build(site, tmp_path / "b")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*"))
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*"))


def test_a_manifest_from_another_machine_is_ignored(own_key: Path, make_site, tmp_path) -> None:
    site = make_site()
    out = tmp_path / "out"
    build(site, out)
    assert Manifest.read(site, out).entries
    cachetrust._key.cache_clear()
    (own_key / "sitegen/key").write_bytes(b"x" * 32)  # as if the cache came from elsewhere
    assert Manifest.read(site, out).entries == {}
