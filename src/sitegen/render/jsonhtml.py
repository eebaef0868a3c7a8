"""JSON placed inside HTML: the one helper for <script> elements and attributes.

Inside `<script type="application/ld+json">` the HTML parser does not read JSON: a `</script>`
ends the element and `<!--<script>` makes it swallow the rest of the page. Escaping `<`, `>`
and `&` (as Django's json_script does), and `'` (so a single-quoted attribute holds it too),
as `\\u003c` `\\u003e` `\\u0026` `\\u0027` keeps the same JSON value with none of those
characters in the markup.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", ord("'"): "\\u0027"}


def json_for_html(data: Any, **_: Any) -> Markup:
    """`data` as JSON that is safe inside a <script> element or a single-quoted attribute.

    Also the `tojson` filter of every Jinja environment (its keyword arguments are ignored).
    """
    return written_for_html(json.dumps(data, ensure_ascii=False, sort_keys=False, default=str))


def written_for_html(text: str) -> Markup:
    """JSON text (as json_for_html writes it) made safe as json_for_html makes its own."""
    return Markup(text.translate(_ESCAPES))
