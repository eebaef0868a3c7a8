"""sitemap.xml and robots.txt, as search engines expect them."""

from __future__ import annotations

import functools
from xml.sax.saxutils import escape


def sitemap_xml(base_url: str, rows: list[tuple[str, str | None]]) -> str:
    """`rows`: (route, lastmod or None) of every page the sitemap lists."""
    return _sitemap_xml(base_url, tuple(rows))


@functools.lru_cache(maxsize=1)  # the preview's next build lists the same pages, mostly
def _sitemap_xml(base_url: str, rows: tuple[tuple[str, str | None], ...]) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for route, lastmod in sorted(rows, key=lambda row: row[0]):
        lines.append(
            f"  <url><loc>{escape(base_url + route)}</loc>"
            + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
            + "</url>"
        )
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def robots_txt(base_url: str) -> str:
    return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n"
