"""Cache files are written whole, in their own temporary file, never through a planted link."""

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.cache.files import prune, read_signed, write_atomic, write_signed


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


JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)  # past orjson's 64 bits too
    | st.text()  # lone surrogates included: a file name that is not UTF-8 holds them
)


def _json_values(leaves):
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=12,
    )


@settings(max_examples=200, deadline=None)
@given(value=_json_values(JSON_LEAVES | st.floats(allow_nan=False, allow_infinity=False)))
def test_a_value_reads_back_as_it_was_written(tmp_path_factory, value):
    """By orjson (no NaN, no infinity promised) or by json: the same value, finite floats
    included, to the last bit."""
    for nonfinite in (False, True):
        path = tmp_path_factory.mktemp("signed") / "x.json"
        write_signed(path, "test", 1, value, nonfinite=nonfinite)
        back = read_signed(path, "test", 1)
        assert back == value
        assert json.dumps(back) == json.dumps(value)  # -0.0 is == 0.0: compared as text too


@settings(max_examples=200, deadline=None)
@given(value=_json_values(JSON_LEAVES | st.floats()))
def test_floats_nan_and_infinities_included_read_back_as_json_wrote_them(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("signed") / "x.json"
    write_signed(path, "test", 1, value)
    back = read_signed(path, "test", 1)
    assert json.dumps(back) == json.dumps(value)  # NaN is not == NaN: compared as text


def test_the_writer_is_named_under_the_signature(tmp_path):
    """orjson reads its own files; a header that names another writer than the one that
    wrote the body (json's file of an integer past 64 bits, which orjson would read as a
    float) is not trusted: the writer's name is signed with the body."""
    path = tmp_path / "x.json"
    write_signed(path, "test", 1, {"n": 2**70}, nonfinite=False)  # orjson refuses: json writes
    header, _, body = path.read_bytes().partition(b"\n")
    assert header.split(b" ")[2] == b"json"
    assert read_signed(path, "test", 1) == {"n": 2**70}
    path.write_bytes(header.replace(b" json ", b" orjson ") + b"\n" + body)
    assert read_signed(path, "test", 1) is None
    write_signed(path, "test", 1, {"n": 2**60}, nonfinite=False)
    assert path.read_bytes().split(b" ")[2] == b"orjson"
    assert read_signed(path, "test", 1) == {"n": 2**60}
