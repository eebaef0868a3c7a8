"""sitemap.xml and robots.txt, as search engines expect them."""

from __future__ import annotations

from xml.sax.saxutils import escape

from .views import Page


def sitemap_xml(base_url: str, pages: list[Page]) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for page in sorted((p for p in pages if p.in_sitemap), key=lambda p: p.route):
        lines.append(
            f"  <url><loc>{escape(base_url + page.route)}</loc>"
            + (f"<lastmod>{page.lastmod}</lastmod>" if page.lastmod else "")
            + "</url>"
        )
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def robots_txt(base_url: str) -> str:
    return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n"
