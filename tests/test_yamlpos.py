"""yamlpos.parse's line reader (records of one config a line, read with json.loads) gives
exactly what the full loader (yaml.load with _Loader) gives; and what parse reads and refuses.

The full loader is the reference: the same data with the same types, or the same ParseError
(message and line). The line reader may give up on anything (the full loader then reads the
text), but must never answer differently.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import REPO
from sitegen.records import yamlpos
from sitegen.records.yamlpos import ParseError

SHARED_EXAMPLES = REPO.parent / "shared" / "examples"


def same(a: Any, b: Any, seen: set | None = None) -> bool:
    """Equal data of the same types all the way down (nan is nan, -0.0 is not 0.0, key order).

    Aliases can make a list that holds itself (`&a [*a]`): a pair met again is taken as equal.
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, dict | list):
        seen = set() if seen is None else seen
        if (id(a), id(b)) in seen:
            return True
        seen.add((id(a), id(b)))
    if isinstance(a, dict):
        return len(a) == len(b) and all(
            same(ka, kb, seen) and same(va, vb, seen)
            for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True)
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, seen) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, dt.datetime):
        return a == b and a.utcoffset() == b.utcoffset()
    return a == b


def outcome(read, text: str) -> tuple:
    try:
        return ("data", read(text))
    except ParseError as exc:
        return ("error", exc.message, exc.line)
    except Exception as exc:  # an explicit tag on a value it does not fit: !!bool 0, !!int x
        return ("error", type(exc), str(exc))


def assert_same_as_full_loader(text: str) -> None:
    want = outcome(yamlpos._parse_full, text)
    got = outcome(lambda t: yamlpos.parse(t).data, text)
    if want[0] == "error":
        assert got == want, text
    else:
        assert got[0] == "data" and same(got[1], want[1]), text


# -- scalars: every kind the YAML 1.1 resolver knows, and near misses -----------------------------

TRICKY = [
    # numbers, YAML 1.1 style and not
    "0", "-0", "+0", "12", "-12", "+12", "007", "017", "08", "09.5", "0o17", "0x1F", "0X1F",
    "0x_1F", "-0x1f", "0b101", "0b", "1_000", "1__0", "_1", "0_", "1:30", "-1:30", "1:60",
    "190:20:30.15", "1:30.5", "0.", ".5", "-.5", "1.", "3.14", "-0.0", "1_000.5", "-1_000.5",
    "1e3", "1E3", "-1e-3", "1.5e+3", "1.0e+3", "6.8523015e+5", "685.230_15e+03", "1_e3", "1e",
    "1e400", "-1e400", ".inf", "-.inf", "+.inf", ".Inf", ".INF", "inf", ".nan", "-.nan",
    ".NaN", ".NAN", "nan", "1" * 5000, "-" + "9" * 1200, "12abc", "1.2.3", "1-2", "+", "-",
    # dates and times, real and impossible
    "2026-06-13", "2002-12-14", "2026-13-45", "2026-02-30", "2026-6-1", "2026-06-13T10:20:30Z",
    "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "2001-12-14 21:59:43.1234567 +5",
    "2026-06-13T25:00:00", "2026-06", "20260613",
    # null and booleans
    "null", "Null", "NULL", "nULL", "~", "", "yes", "Yes", "YES", "yEs", "no", "No", "on", "On",
    "ON", "off", "Off", "true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "y", "Y", "n",
    "N",
    # special tags and text
    "=", "<<", "<", "a b", "Model 3.1", "model-000", "fp8", "x" * 80, "é", "a/b", "1 2",
    # digits that are not ASCII
    "١٢", "٣.٥", "²", "１２", "1.٥",
]  # fmt: skip


def joined(*parts) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map("".join)


def maybe(part) -> st.SearchStrategy[str]:
    return st.one_of(st.just(""), part)


def chars(alphabet: str, low: int, high: int) -> st.SearchStrategy[str]:
    return st.text(alphabet, min_size=low, max_size=high)


DIGITS = "0123456789"
sign = st.sampled_from(["", "", "-", "+"])
fraction = maybe(joined(st.just("."), chars(DIGITS + "_", 0, 4)))
exponent = maybe(joined(st.sampled_from("eE"), sign, chars(DIGITS, 1, 3)))
numbers = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    joined(sign, chars(DIGITS + "_", 1, 6), fraction, exponent),
    joined(sign, chars(DIGITS, 1, 3), joined(st.just(":"), chars(DIGITS, 1, 2)), fraction),
    joined(sign, st.sampled_from(["0x", "0o", "0b", "0"]), chars(DIGITS + "abcdefABCDEF_", 0, 5)),
)
two = chars(DIGITS, 1, 2)
dates = joined(
    chars(DIGITS, 4, 4),
    st.just("-"),
    two,
    st.just("-"),
    two,
    maybe(
        joined(
            st.sampled_from(["T", "t", " ", "  "]),
            joined(two, st.just(":"), two, st.just(":"), two),
            maybe(joined(st.just("."), chars(DIGITS, 0, 8))),
            st.sampled_from(["", " ", "Z", "+5", "-05:00", " +01:30"]),
        )
    ),
)
words = joined(
    st.sampled_from("abnoftyABNOFTYmz"),
    chars("abcdefnorsuyzALNOSUE0123456789._/-", 0, 8),
    maybe(joined(st.just(" "), chars("abz019", 1, 4))),
)
plain_texts = st.one_of(st.sampled_from(TRICKY), numbers, dates, words)


@pytest.mark.parametrize(
    "text, line",
    [
        ("a: 1\nb: 2\na: 3\n", 3),  # a key written twice
        ("a: {x: 1, x: 2}\n", 1),
        ("1: a\n1.0: b\n", 2),  # equal keys of two types
        ("true: a\n1: b\n", 2),
        ("? [1, 2]\n: v\n", 1),  # a key that is a list
        ("a: =\n", 1),  # the YAML 1.1 value tag, which nothing constructs
        ("a: <<\n", 1),
        ("a: *nowhere\n", 1),
        ("a: !custom 1\n", 1),
        ("a: 1\n---\nb: 2\n", 2),
        ("a:\n\t- 1\n", 2),
        ("a: [1, 2\n", 2),
    ],
)
def test_errors_name_their_line(text, line):
    with pytest.raises(ParseError) as error:
        yamlpos.parse(text)
    assert error.value.message.startswith("not valid YAML: ") and error.value.line == line


@pytest.mark.parametrize(
    "text, data",
    [
        ("a: 1_000\nb: 0x1F\nc: 017\nd: 1:30\ne: 08\n", {"a": 1000, "b": 31, "c": 15, "d": 90}),
        ("a: 1e3\nb: 2026-13-45\nc: 2026-06-13\n", {"a": 1000.0, "b": "2026-13-45"}),
        ("a: yes\nb: Off\nc: ~\nd: y\ne: '1'\n", {"a": True, "b": False, "c": None, "d": "y"}),
        ("a: " + "9" * 5000 + "\n", {"a": math.inf}),
    ],
    ids=["ints", "floats and dates", "null and booleans", "huge"],
)
def test_yaml_1_1_meanings_are_kept(text, data):
    got = yamlpos.parse(text).data
    for key, value in data.items():
        assert same(got[key], value)


def test_merge_keys_and_anchors_are_read():
    text = "base: &b {x: 1, y: 2}\nrun:\n  <<: *b\n  y: 3\n"
    assert yamlpos.parse(text).data == {"base": {"x": 1, "y": 2}, "run": {"x": 1, "y": 3}}


def test_deep_nesting():
    deep = yamlpos.parse("[" * 300 + "]" * 300).data  # lists are built without recursion
    for _ in range(299):
        (deep,) = deep
    assert deep == []
    # mappings are not: too deep a file is refused, by PyYAML's own limit or by ours
    with pytest.raises(ParseError, match="^not valid YAML: "):
        yamlpos.parse("{a: " * 5000 + "1" + "}" * 5000)


# -- the files sitegen reads -------------------------------------------------------------------


def yaml_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


FILES = [
    *yaml_files(REPO / "data"),
    REPO / "sitegen.yaml",
    *yaml_files(REPO / "tests" / "fixtures"),
    *yaml_files(SHARED_EXAMPLES),
]


def file_id(path: Path) -> str:
    if path.is_relative_to(REPO):
        return str(path.relative_to(REPO))
    return str(path.relative_to(SHARED_EXAMPLES.parent.parent))


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_every_yaml_file_we_have(path):
    assert_same_as_full_loader(yamlpos.decode(path.read_bytes()))


def test_generated_sweep_records():
    spec = importlib.util.spec_from_file_location("scale_records", REPO / "bench" / "scale.py")
    scale = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = scale  # dataclasses look their module up by name
    try:
        spec.loader.exec_module(scale)
    finally:
        del sys.modules[spec.name]
    shape = scale.shape_of(2)
    runs = [run for gpu in range(2) for run in scale.pair_runs(shape, 0, gpu)]
    for path, record in runs:
        text = scale.record_text(path.replace(".json", ".yaml"), record)
        assert_same_as_full_loader(text)
        # read line by line, its header too, without the full loader
        assert yamlpos._plain_header(text[: text.index("\nconfigs:\n") + 1]) is not None
        assert same(yamlpos._one_config_a_line(text), yamlpos._parse_full(text))


# -- records of one config a line --------------------------------------------------------------
#
# yamlpos reads `configs:` lines of flow mappings with json.loads when every line is of a shape
# it is sure of. The lines here are mostly of that shape, with near misses of every kind: keys
# YAML reads as booleans, numbers YAML 1.1 reads otherwise, text JSON reads otherwise, spacing,
# comments, anchors, tags, a key written twice, a header after which `configs:` is not a key.


@st.composite
def mostly(draw, good, bad, odds: int = 40):
    """`good`, and one time in `odds` a near miss from `bad` (shrinking towards `good`)."""
    return draw(bad if draw(st.sampled_from([False] * (odds - 1) + [True])) else good)


good_keys = st.one_of(
    st.sampled_from(["gpus", "tp", "concurrency", "throughput_per_gpu", "ttft_ms", "median"]),
    joined(st.sampled_from("abnotyz_"), chars("abefnorsluz09_", 0, 8)),
)
bad_keys = st.sampled_from(
    ["yes", "no", "on", "off", "true", "false", "null", "Null", "TRUE", "On", "x" * 64, "x" * 65,
     "1a", "<<", "=", "~", '"gpus"', "'tp'", "gpus ", "a.b", "a-b", "A", "é", "k#", "? k", "&a k",
     "!!str k", "y", "n", "_"]
)  # fmt: skip
json_numbers = st.one_of(
    st.integers(-(10**35), 10**35).map(str),
    st.floats(allow_nan=False).map(repr),
    st.floats(allow_nan=False).map(lambda x: f"{x:.3e}"),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.30g}"),
)
good_values = st.one_of(
    json_numbers,
    json_numbers,
    st.sampled_from(["true", "false", "null", "mtp", "a/b", "v0.5.8.post1-cu130", "x+y"]),
    st.text(alphabet="ab :,{}#[]'&*!|>-", max_size=10).map(lambda t: f'"{t}"'),
)
bad_values = st.one_of(
    numbers,
    plain_texts,
    st.sampled_from(["1" * 31, "1" * 32, "9" * 1000, "9" * 5000, "1." + "5" * 31, "1e1000"]),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "yes", "Off", "~", "NULL", "y", "2026-01-01"]),
    st.sampled_from(["1e5", "1E+5", "1.5e-3", "-0", "-0.0", "0e0", "-5", "+5", "0.0e-0", ".5"]),
    st.sampled_from(['""', '"é"', "'q'", '"a\\"b"', '"\\t"', '"\\x41"', '"a\\\\b"', '"a\\nb"']),
    st.sampled_from(["{}", "[]", "[1, 2]", "&a 1", "*a", "!!str 1", "!!float 1", "1 # c", "a b"]),
    st.text(alphabet="ab1.:-#{}[],'\" e+_\t", max_size=8),
)
line_values = mostly(good_values, bad_values, 10)


@st.composite
def flow_mappings(draw, depth: int = 0) -> str:
    keys = draw(
        mostly(
            st.lists(good_keys, min_size=1, max_size=5, unique=True),
            st.lists(st.one_of(good_keys, bad_keys), min_size=1, max_size=5),
        )
    )
    entries = []
    for key in keys:
        if depth == 0 and draw(st.sampled_from([False] * 4 + [True])):
            value = draw(flow_mappings(depth + 1))
        else:
            value = draw(mostly(good_values, bad_values))
        colon = draw(mostly(st.just(": "), st.sampled_from([":", ":  ", " : ", ":\t"])))
        entries.append(f"{key}{colon}{value}")
    comma = draw(mostly(st.just(", "), st.sampled_from([",", ",  ", " , ", ",\n  "])))
    return "{" + comma.join(entries) + "}"


@st.composite
def config_lines(draw) -> str:
    lines = []
    for _ in range(draw(mostly(st.integers(1, 4), st.just(0), 20))):
        prefix = draw(mostly(st.just("  - "), st.sampled_from(["- ", "   - ", "  -  ", "\t- "])))
        end = draw(mostly(st.just("\n"), st.sampled_from([" \n", "  # c\n", "\r\n", ",\n"])))
        lines.append(prefix + draw(flow_mappings()) + end)
    return "".join(lines)


GOOD_HEADERS = [
    "kind: sweep\n", "date: 2026-02-20\n", 'source: "Scale benchmark"\n', "illustrative: true\n",
    "# Written by `sitegen import`\n", "notes: >-\n  folded text\n  over two lines\n",
    "notes: |+\n  kept\n\n", "notes: |\n  literal\n", "x:\n", "list:\n- a\n- b\n", "? k\n",
    "kind: sweep # a comment\n", "nested:\n  a: 1\n", "a: 1\n\n", "%YAML 1.1\n---\n", "---\n",
]  # fmt: skip
PLAIN_HEADERS = [
    "kind: 0x10\n",
    "kind: 010\n",
    "kind: 1_000\n",
    "kind: yes\n",
    "kind: Off\n",
    "kind: 1e3\n",
    "kind: 2026-13-45\n",
    "kind: 2026-06-13T10:20:30Z\n",
    "kind: a/b.c+d\n",
    "kind: 1.5\n",
    "kind: 12\n",
    'kind: ""\n',
    'kind: "a # b: {c}"\n',
    "\n",
    "# a comment: {x}\n",
    "gpu: gpu-00\n",
]
BAD_HEADERS = [
    "...\n", "  indented: 1\n", "{a: 1}\n", "configs: []\n", '"configs": 1\n', "x: &a 1\n",
    "y: *a\n", "--- kind: sweep\n", 'notes: "two\n  lines"\n', 'notes: "open\n', "notes: 'open\n",
    "x: [1,\n", "a: 1\n---\nb: 2\n", "\ufeffkind: sweep\n", "tab:\t1\n", "- item\n", "true: 1\n",
    "kind: sweep\r\n", "1: a\n", "k: !!str 1\n", "notes: |+\n  kept\n\n# c\n\n",
    "kind: sweep \n", "kind:  sweep\n", "kind: 'sweep'\n", 'kind: "a\\"b"\n', "kind: ~\n",
    "# a\ttab\n", "kind: é\n", "  \n", "kind: a b\n", "kind: -1\n", "kind: .5\n", "kind:\n",
    "kind: a#b\n", "kind: [1]\n", "kind: 1:30\n", "# é\n", "yes: 1\n", "kind: a, b\n",
]  # fmt: skip
TAILS = ["# end\n", "\n", "...\n", "---\nb: 1\n", "other: 1\n", "configs:\n", "  - x\n"]


@st.composite
def one_config_a_line(draw) -> str:
    good = st.sampled_from(GOOD_HEADERS + PLAIN_HEADERS)
    header = mostly(good, st.sampled_from(BAD_HEADERS), 20)
    headers = st.lists(header, min_size=1, max_size=4, unique=True)
    head = "".join(draw(mostly(headers, st.just(""), 20)))
    configs = draw(mostly(st.just("configs:\n"), st.sampled_from(["configs: \n", "configs:\r\n"])))
    body = draw(config_lines())
    if body and draw(mostly(st.just(False), st.just(True), 20)):
        body = body[:-1]  # no newline at the end
    return head + configs + body + draw(mostly(st.just(""), st.sampled_from(TAILS), 20))


def assert_one_config_a_line(text: str) -> None:
    """The text reads as the full loader reads it, and so does the line reader, if it answers."""
    assert_same_as_full_loader(text)
    data = yamlpos._one_config_a_line(text)
    if data is not yamlpos._MISS:
        want = outcome(yamlpos._parse_full, text)
        assert want[0] == "data" and same(data, want[1]), text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_config_a_line())
def test_config_lines_read_as_the_full_loader_reads_them(text):
    assert_one_config_a_line(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(line_values, min_size=1, max_size=4), st.booleans())
def test_values_of_config_lines_read_as_the_full_loader_reads_them(values, nested):
    items = ", ".join(f"k{i}: {v}" for i, v in enumerate(values))
    line = "{a: {" + items + "}}" if nested else "{" + items + "}"
    assert_one_config_a_line(f"kind: sweep\nconfigs:\n  - {line}\n  - {{b: 1}}\n")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(good_keys, bad_keys), line_values), min_size=1, max_size=4))
def test_header_lines_read_as_the_full_loader_reads_them(entries):
    head = "".join(f"{key}: {value}\n" for key, value in entries)
    assert_one_config_a_line(f"{head}configs:\n  - {{b: 1}}\n")


@pytest.mark.parametrize("text", TRICKY, ids=lambda text: text[:20])
def test_each_tricky_scalar_in_a_config_line(text):
    for line in (f"{{k: {text}}}", f"{{k: {{median: {text}}}}}", f"{{k: 1, m: {text}}}"):
        assert_one_config_a_line(f"kind: sweep\nconfigs:\n  - {line}\n")
    assert_one_config_a_line(f"kind: {text}\nconfigs:\n  - {{k: 1}}\n")


# a key as a config line has it: followed by its colon (_KEY's lookahead reads that colon, so
# "on" alone matches it, "on:" does not)
_KEYS_IN_LINES = st.from_regex(yamlpos._KEY + ":", fullmatch=True).map(lambda k: k[:-1])


@settings(max_examples=300, deadline=None)
@given(_KEYS_IN_LINES)
@example(key="onward")
def test_keys_of_config_lines_are_text(key):
    loader = yamlpos._RESOLVING
    assert loader.resolve(yamlpos.ScalarNode, key, (True, False)) == yamlpos._STR


@pytest.mark.parametrize("word", ["yes", "no", "true", "false", "on", "off", "null"])
def test_the_words_yaml_reads_as_booleans_or_null_are_no_keys_of_config_lines(word):
    import re

    assert re.fullmatch(yamlpos._KEY, word)  # alone, the lookahead has no colon to see
    assert not re.fullmatch(yamlpos._KEY + ":", word + ":")


@pytest.mark.parametrize(
    "line",
    [
        "{gpus: 8, tp: 8, ttft_ms: {median: 28.4, p99: 71.0}, e2el_ms: {median: 2444.5}}",
        '{dp_attention: false, spec_decoding: mtp, image: "lmsysorg/sglang:v0.5, {x}: y"}',
        "{a: 1.0e-05, b: 1e400, c: -0.0, d: 0, e: NaN, f: Infinity, g: yes, h: Null, i: y}",
    ],
)
def test_lines_of_the_shapes_written_are_read_by_the_line_reader(line):
    text = f"# a header\nkind: sweep\ndate: 2026-02-20\nnotes: >-\n  text\nconfigs:\n  - {line}\n"
    assert yamlpos._one_config_a_line(text) is not yamlpos._MISS
    assert_one_config_a_line(text)


@pytest.mark.parametrize(
    "text, line",
    [
        ("kind: sweep\nconfigs:\n  - {a: 1, a: 2}\n", 3),
        ("kind: sweep\nconfigs:\n  - {a: 1}\n  - {b: {c: 1, c: 2}}\n", 4),
        ("configs: 1\nconfigs:\n  - {a: 1}\n", 2),
        ("kind: sweep\n...\nconfigs:\n  - {a: 1}\n", 3),
    ],
)
def test_errors_in_config_lines_are_the_full_loaders(text, line):
    assert yamlpos._one_config_a_line(text) is yamlpos._MISS
    with pytest.raises(ParseError) as error:
        yamlpos.parse(text)
    assert error.value.line == line


# -- JSON ----------------------------------------------------------------------------------------


def exact_json(text: str) -> tuple:
    """What JSON files read as by json.loads with a hook for every key (and its ParseError)."""
    try:
        hook, number = yamlpos._json_object, yamlpos._json_int
        return ("data", json.loads(text, object_pairs_hook=hook, parse_int=number))
    except (ValueError, yamlpos._DuplicateJsonKey, RecursionError):
        return outcome(yamlpos._parse_json, text)


# keys and text as JSON writes them inside quotes: colons, escapes, an escaped colon
json_keys = st.sampled_from(["a", "b", "a:b", "b: ", '\\"', "a\\u003ab", "", "ü", "\\\\"])
json_leaves = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["true", "null", "NaN", "-Infinity", "9" * 1200, "9" * 5000, "1e999"]),
    st.sampled_from(['"x"', '"a:b"', '":"', '"\\\\"', '"\\":"', '"\\u003a"', '"é"', "[]", "{}"]),
)


def json_object(pairs: list[tuple[str, str]]) -> str:
    separators = [": ", ":", " : ", ":\n"]
    entries = [f'"{k}"{separators[i % 4]}{v}' for i, (k, v) in enumerate(pairs)]
    return "{" + ", ".join(entries) + "}"


json_texts = st.recursive(
    json_leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
        st.lists(st.tuples(json_keys, inner), max_size=4).map(json_object),
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(json_texts)
def test_json_reads_as_with_a_hook_for_every_key(text):
    want = exact_json(text)
    got = outcome(yamlpos._parse_json, text)
    assert got[0] == want[0], text
    if want[0] == "data":
        assert same(got[1], want[1]), text
    else:
        assert got == want, text
    quick = yamlpos._counted_json(text)
    assert quick is yamlpos._MISS or (want[0] == "data" and same(quick, want[1])), text


def test_json_with_a_key_twice_is_refused_where_text_holds_colons():
    text = '{"url": "https://a", "b": 1, "b": 2}'
    assert yamlpos._counted_json(text) is yamlpos._MISS
    with pytest.raises(ParseError, match="duplicate key 'b'"):
        yamlpos._parse_json(text)
    assert yamlpos._counted_json('{"url": "https://a", "b": 1}') == {"url": "https://a", "b": 1}
