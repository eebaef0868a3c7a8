"""Structured data for search engines, as JSON inside a page's <script> element."""

from __future__ import annotations

from markupsafe import Markup

from .. import faq
from ..jsonhtml import json_for_html


def plain(html: Markup) -> str:
    """An answer's text without its markup, for structured data."""
    return " ".join(Markup(html).striptags().split())


def faq_jsonld(entries: list[faq.Entry]) -> Markup:
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": e.question,
                "acceptedAnswer": {"@type": "Answer", "text": e.answer_text},
            }
            for e in entries
        ],
    }
    return json_for_html(data, indent=1)
