"""yamlpos.parse's fast reader gives exactly what the full loader (yaml.load with _Loader) gives.

The full loader is the reference: the same data with the same types, or the same ParseError
(message and line). The fast reader may give up on anything (the full loader then reads the
text), but must never answer differently.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
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


def fast(text: str) -> tuple:
    """("data", value) when the fast reader answers, ("unsure",) when it leaves the text."""
    try:
        return ("data", yamlpos._fast_load(text))
    except Exception:
        return ("unsure",)


def assert_same_as_full_loader(text: str) -> tuple:
    want = outcome(yamlpos._parse_full, text)
    got = outcome(lambda t: yamlpos.parse(t).data, text)
    quick = fast(text)
    if want[0] == "error":
        assert got == want, text
        assert quick == ("unsure",), text
    else:
        assert got[0] == "data" and same(got[1], want[1]), text
        assert quick == ("unsure",) or same(quick[1], want[1]), text
    return quick


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
any_texts = st.one_of(plain_texts, st.text(max_size=12))


# A document is a tree of ("scalar", style, text), ("alias", name),
# ("map", flow, [(key, node)]) and ("seq", flow, [node]); scalars and collections may carry
# ("deco", decoration, node): an anchor or a tag.
@st.composite
def scalars(draw) -> tuple:
    style = draw(st.sampled_from(["plain"] * 6 + ["single", "double", "literal", "folded"]))
    if style == "plain":
        return ("scalar", "plain", draw(plain_texts))
    if style in ("literal", "folded"):
        lines = draw(st.lists(any_texts.filter(lambda t: "\n" not in t), min_size=1, max_size=3))
        return ("scalar", style, lines)
    return ("scalar", style, draw(any_texts))


@st.composite
def keys(draw) -> tuple:
    roll = draw(st.integers(0, 19))  # shrinks towards plain, distinct keys
    if roll == 19:
        return ("scalar", "plain", "<<")  # a merge key
    if roll >= 16:
        return ("scalar", "double", draw(st.sampled_from(["a", "b", "1"])))
    if roll >= 12:
        return ("scalar", "plain", draw(plain_texts))
    # a few keys that are equal as values: 1, 1.0 and true; ~ and null
    common = ["a", "b", "median", "1", "1.0", "true", "~", "null", ".nan", "2026-01-01"]
    return ("scalar", "plain", draw(st.sampled_from(common)))


decorations = st.sampled_from(
    ["&a1", "&a2", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!binary",
     "!custom", "!", "!!map", "!!seq", "!!set"]
)  # fmt: skip


@st.composite
def decorated(draw, nodes) -> tuple:
    """Now and then an anchor or a tag on the node."""
    node = draw(nodes)
    if draw(st.integers(0, 9)) == 9:
        return ("deco", draw(decorations), node)
    return node


@st.composite
def leaves(draw) -> tuple:
    if draw(st.integers(0, 19)) == 19:
        return ("alias", draw(st.sampled_from(["a1", "a2"])))
    return draw(decorated(scalars()))


def collections(children):
    distinct = st.lists(st.tuples(keys(), children), max_size=5, unique_by=lambda kv: kv[0])
    return st.one_of(
        st.tuples(st.just("map"), st.booleans(), distinct),
        st.tuples(st.just("seq"), st.booleans(), st.lists(children, max_size=5)),
    )


nodes = st.recursive(leaves(), lambda children: decorated(collections(children)), max_leaves=20)


def quoted(style: str, text: str) -> str:
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    return json.dumps(text)


def flow(node: tuple) -> str:
    kind = node[0]
    if kind == "deco":
        return f"{node[1]} {flow(node[2])}"
    if kind == "alias":
        return f"*{node[1]}"
    if kind == "scalar":
        style, text = node[1], node[2]
        if style in ("literal", "folded"):
            return json.dumps("\n".join(text))
        return text if style == "plain" else quoted(style, text)
    if kind == "map":
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in node[2]) + "}"
    return "[" + ", ".join(flow(item) for item in node[2]) + "]"


def block_value(node: tuple, indent: int, rng: random.Random) -> str:
    """What follows `key:` or `- `: inline text or a newline and a block, with its newline."""
    deco = ""
    while node[0] == "deco":
        deco += " " + node[1]
        node = node[2]
    pad = " " * (indent + 2)
    if node[0] in ("map", "seq") and node[2] and not node[1]:
        return deco + "\n" + block(node, indent + 2, rng)
    if node[0] == "scalar" and node[1] in ("literal", "folded"):
        head = ("|" if node[1] == "literal" else ">") + rng.choice(["", "-", "+"])
        return f"{deco} {head}\n" + "".join(f"{pad}{line}\n" for line in node[2])
    if node[0] == "scalar" and node[1] == "plain" and " " in node[2] and rng.random() < 0.3:
        first, rest = node[2].split(" ", 1)  # a plain scalar over two lines
        return f"{deco} {first}\n{pad}{rest}\n"
    comment = rng.choice(["", "", "", "  # a comment", " #: not a key"])
    return f"{deco} {flow(node)}{comment}\n"


def block(node: tuple, indent: int, rng: random.Random) -> str:
    pad = " " * indent
    out = ""
    if node[0] == "map":
        for key, value in node[2]:
            if rng.random() < 0.1:
                out += f"{pad}# a comment line\n"
            out += f"{pad}{flow(key)}:{block_value(value, indent, rng)}"
    else:
        for item in node[2]:
            out += f"{pad}-{block_value(item, indent, rng)}"
    return out


@st.composite
def documents(draw) -> str:
    root = draw(nodes)
    rng = random.Random(draw(st.integers(0, 2**16)))
    if root[0] in ("map", "seq") and root[2] and not root[1]:
        body = block(root, 0, rng)
    else:
        body = flow(root) + "\n"
    head = draw(st.sampled_from(["", "", "", "---\n", "# a comment\n", "%YAML 1.1\n---\n"]))
    tail = draw(st.sampled_from(["", "", "", "...\n", "# the end\n", "---\nsecond: 1\n"]))
    return head + body + tail


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_documents_read_as_the_full_loader_reads_them(text):
    assert_same_as_full_loader(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(plain_texts, max_size=6), st.booleans())
def test_plain_scalars_in_a_record_read_as_the_full_loader_reads_them(values, twice):
    text = "".join(f"k{i}: {value}\n" for i, value in enumerate(values))
    text += "list:\n" + "".join(f"  - {value}\n" for value in values)
    text += "flow: {" + ", ".join(f"f{i}: {v}" for i, v in enumerate(values)) + "}\n"
    text += "k0: again\n" if twice else ""
    assert_same_as_full_loader(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab1.:-# \n\t'\"{}[],&*!|>?~<=%@`\\", max_size=40))
def test_any_text_reads_as_the_full_loader_reads_it(text):
    assert_same_as_full_loader(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(plain_texts, st.text(alphabet="0123456789.-+_:eE \u0663\u00b2", max_size=8)))
def test_decimal_shortcut_is_the_loaders_reading(text):
    number = yamlpos._decimal(text)
    if number is not None:
        want = outcome(yamlpos._parse_full, f"k: {text}\n")
        assert want[0] == "data" and same(want[1]["k"], number), text


@pytest.mark.parametrize("text", TRICKY, ids=lambda text: text[:20])
def test_each_tricky_scalar(text):
    for doc in (f"k: {text}\n", f"- {text}\n", f"{{k: {text}}}\n", f"{text}: v\n"):
        assert_same_as_full_loader(doc)


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
def test_errors_are_the_full_loaders(text, line):
    assert fast(text) == ("unsure",)
    with pytest.raises(ParseError) as error:
        yamlpos.parse(text)
    assert (error.value.message, error.value.line) == outcome(yamlpos._parse_full, text)[1:]
    assert error.value.line == line


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
    got = assert_same_as_full_loader(text)
    assert got[0] == "data"  # the fast reader answers these itself
    for key, value in data.items():
        assert same(got[1][key], value)


def test_merge_keys_and_anchors_are_left_to_the_full_loader():
    text = "base: &b {x: 1, y: 2}\nrun:\n  <<: *b\n  y: 3\n"
    assert fast(text) == ("unsure",)
    assert yamlpos.parse(text).data == {"base": {"x": 1, "y": 2}, "run": {"x": 1, "y": 3}}


def test_deep_nesting_is_left_to_the_full_loader():
    assert fast("[" * 40 + "]" * 40) == ("unsure",)
    assert_same_as_full_loader("[" * 300 + "]" * 300)  # lists are built without recursion
    with pytest.raises(ParseError, match="nested too deeply"):
        yamlpos.parse("{a: " * 5000 + "1" + "}" * 5000)  # mappings are not


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
    text = yamlpos.decode(path.read_bytes())
    quick = assert_same_as_full_loader(text)
    assert quick[0] == "data", "plain records are read by the fast reader"


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
        quick = assert_same_as_full_loader(text)
        assert quick[0] == "data"
