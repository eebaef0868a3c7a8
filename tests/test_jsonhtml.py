"""JSON inside HTML: the same value, with no character that the HTML parser reads."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.render.environment import environment
from sitegen.render.jsonhtml import json_for_html

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60)
@given(values)
def test_same_value_and_no_markup_characters(value) -> None:
    text = str(json_for_html(value))
    assert not set("<>&'") & set(text)
    assert json.loads(text) == value


def test_the_tojson_filter_of_templates_is_the_same_helper(tmp_path) -> None:
    env = environment(tmp_path)
    template = env.from_string("<script>{{ x | tojson }}</script><i data-x='{{ x | tojson }}'>")
    out = template.render(x={"a": "</script><!--'&"})
    assert out == (
        '<script>{"a": "\\u003c/script\\u003e\\u003c!--\\u0027\\u0026"}</script>'
        '<i data-x=\'{"a": "\\u003c/script\\u003e\\u003c!--\\u0027\\u0026"}\'>'
    )
