"""Structured data for search engines, as JSON inside a page's <script> element."""

from __future__ import annotations

import json

from markupsafe import Markup

from .. import faq


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
    text = json.dumps(data, ensure_ascii=False, indent=1)
    # "</" cannot close the script element when escaped
    return Markup(text.replace("</", "<\\/"))
