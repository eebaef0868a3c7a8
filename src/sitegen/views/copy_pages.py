"""Pages that are editors' copy only (content/*.md), and the 404 page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from .page import Page, View
from .sources import Sources


@dataclass(frozen=True)
class ContentView(View):
    body: Markup | None
    meta: dict[str, Any]  # the page's front matter


def content_page(src: Sources, name: str) -> Page:
    """content/<name>.md as the page <name>/."""
    copy = src.content.pages[name]
    body = src.copy(copy, {"site": src.site_values()})
    title = str(copy.meta.get("title") or name.replace("-", " ").capitalize())
    return Page(f"{name}/", "content.html", title, ContentView(body, copy.meta))


def not_found_page() -> Page:
    return Page("", "404.html", "Page not found", filename="404.html", in_sitemap=False)
