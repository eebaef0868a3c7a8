"""Which URLs from data and content may become links: checked when they are read.

A link to elsewhere is an absolute http(s) URL: no `javascript:`, `data:` or `file:` link can
reach a page, and no URL can break out of the attribute it is written into. Each check returns
why a URL is refused ('' when it is fine), worded to follow "expected ..., got" or a field name.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import SplitResult, urlsplit

WEB_SCHEMES = ("http", "https")
# where editors' Markdown may link besides the web: a mail address
MARKDOWN_LINK_SCHEMES = (*WEB_SCHEMES, "mailto")
# characters that end or escape an attribute, or that browsers drop or fold inside a URL
_BREAKING = frozenset("\"'<>\\`")
_SCHEME = re.compile(r"\A([A-Za-z][A-Za-z0-9+.-]*):")
# what a browser strips before it reads a URL's scheme: C0 controls and spaces around it,
# tabs and newlines anywhere ("java\tscript:" is "javascript:")
_STRIPPED = re.compile(r"[\t\n\r]")


def _odd_character(url: str, allowed: frozenset[str] = frozenset()) -> str:
    for char in url:
        if char in _BREAKING and char not in allowed:
            return f"a {char!r}"
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            return f"a space or control character (U+{ord(char):04X})"
    return ""


def _split(url: str) -> SplitResult | None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    return parts


def link_problem(url: str) -> str:
    """Why `url` (a run's `url`, say) cannot be a link to elsewhere; '' when it can."""
    what = "an http(s) URL"
    if odd := _odd_character(url, allowed=frozenset("'")):
        return f"{what} without spaces, quotes or angle brackets (this one has {odd})"
    if (parts := _split(url)) is None:
        return f"{what} (this one cannot be read as a URL)"
    if parts.scheme.lower() not in WEB_SCHEMES:
        return f"{what}: a link to elsewhere starts with http:// or https://"
    if not parts.hostname:
        return f"{what} naming a host (https://host/...)"
    return ""


def base_url_problem(url: str) -> str:
    """Why `url` cannot be the site's base_url (canonical links, sitemap); '' when it can."""
    what = "an absolute http(s) URL"
    if odd := _odd_character(url):
        return f"{what} without spaces or quotes (this one has {odd})"
    if (parts := _split(url)) is None:
        return f"{what} (this one cannot be read as a URL)"
    if parts.scheme.lower() not in WEB_SCHEMES:
        return what
    if not parts.hostname:
        return f"{what} naming a host (https://host/...)"
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        return f"{what} without a query (?...) or fragment (#...)"
    if parts.username is not None or parts.password is not None:
        return f"{what} without a user name or password"
    return ""


def scheme(url: str) -> str | None:
    """The scheme a browser would read from `url` (lowercase), or None for a relative URL."""
    cleaned = _STRIPPED.sub("", url).lstrip("".join(chr(c) for c in range(0x21)))
    match = _SCHEME.match(cleaned)
    return match.group(1).lower() if match else None


def markdown_link_problem(url: str) -> str:
    """A link in editors' Markdown: within the site (relative, #fragment), http(s) or mailto."""
    found = scheme(url)
    if found is None or found in MARKDOWN_LINK_SCHEMES:
        return ""
    return (
        f"a link within the site, or to elsewhere by http(s) or mailto (not {found}:); "
        "nothing on a page may run a script"
    )


def markdown_image_problem(url: str) -> str:
    """An image in editors' Markdown must be the site's own: a page fetches nothing from
    elsewhere (it would need the network and tell another server who reads it)."""
    found = scheme(url)
    if found is None or (found == "data" and url.lower().startswith(_DATA_IMAGES)):
        return ""
    return "an image of the site itself (a relative path), not one fetched from elsewhere"


_DATA_IMAGES = tuple(f"data:image/{kind};" for kind in ("png", "gif", "jpeg", "webp"))
