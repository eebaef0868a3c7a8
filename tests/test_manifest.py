"""The manifest reads back as it was written; a file of another shape reads as no manifest."""

from __future__ import annotations

from sitegen.cache.files import write_signed
from sitegen.cache.manifest import KIND, VERSION, Entry, Manifest


def test_a_manifest_reads_back_as_written(tmp_path):
    site, out = tmp_path / "site", tmp_path / "site" / "public"
    out.mkdir(parents=True)
    entries = {f"p{i}/index.html": Entry(f"{i:040x}", i * 7, 10**18 + i) for i in range(500)}
    Manifest(out, entries).write(site)
    back = Manifest.read(site, out)
    assert back.entries == entries
    assert list(back.entries) == list(entries)  # in the order written
    assert all(type(e) is Entry for e in back.entries.values())
    assert Manifest.read(site, tmp_path / "elsewhere").entries == {}  # another output folder


def test_columns_of_other_lengths_or_kinds_read_as_no_manifest(tmp_path):
    site, out = tmp_path / "site", tmp_path / "site" / "public"
    out.mkdir(parents=True)
    Manifest(out, {"a.html": Entry("0" * 40, 1, 2)}).write(site)
    good = {"out": str(out.resolve()), "names": ["a.html"], "digests": ["0" * 40]}
    for odd in (
        {**good, "sizes": [1, 2], "mtimes": [2]},
        {**good, "sizes": [1]},
        {**good, "sizes": "1", "mtimes": [2]},
    ):
        write_signed(Manifest.location(site), KIND, VERSION, odd, nonfinite=False)
        assert Manifest.read(site, out).entries == {}
