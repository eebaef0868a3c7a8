"""Structured data for search engines, as JSON inside a page's <script> element."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from json.encoder import encode_basestring
from urllib.parse import urlsplit

from markupsafe import Markup

from ..render.jsonhtml import json_for_html, written_for_html
from . import faq


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
    return json_for_html(data)


def breadcrumbs(base_url: str, trail: list[tuple[str, str]]) -> Markup:
    """BreadcrumbList from the overview down to a page: `trail` is (name, route) below the
    overview, the page itself last. Every item has an absolute URL. Written from a template
    (every page but the overview has one): the text json_for_html(data) writes of the list
    (tests/test_jsonld.py)."""
    items = [("Leaderboard", ""), *trail]
    crumbs = ", ".join(
        [
            _CRUMB % (i, encode_basestring(name), encode_basestring(base_url + route))
            for i, (name, route) in enumerate(items, start=1)
        ]
    )
    return written_for_html(_CRUMBS % crumbs)


_CRUMBS = '{"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": [%s]}'
_CRUMB = '{"@type": "ListItem", "position": %d, "name": %s, "item": %s}'


_SPDX = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9.+-]*\Z")


def license_value(license: str) -> str | dict | None:
    """sitegen.yaml's `license`: a URL as it is, an SPDX identifier (CC-BY-4.0) as its SPDX
    page, anything else as a named work; None where none is given."""
    if not license:
        return None
    if urlsplit(license).scheme in ("http", "https"):
        return license
    if _SPDX.match(license):
        return f"https://spdx.org/licenses/{license}.html"
    return {"@type": "CreativeWork", "name": license}


@dataclass(frozen=True)
class Download:
    url: str  # absolute
    encoding: str  # its media type


def dataset_jsonld(
    *,
    name: str,
    description: str,
    url: str,
    license: str,
    creator: str,
    downloads: list[Download],
    dates: tuple[dt.date, dt.date] | None,
    keywords: list[str],
) -> Markup:
    """schema.org Dataset with the properties Google's Dataset rich results require (name,
    description of 50 to 5000 characters) and those it recommends that the site has."""
    if len(description) < 50:  # Google: at least 50 characters
        description += " Every figure is computed at build time from the published run records."
    data: dict = {
        "@context": "https://schema.org",
        "@type": "Dataset",
        "name": name,
        "description": description[:5000],
        "url": url,
        "creator": {"@type": "Organization", "name": creator},
        "isAccessibleForFree": True,
        "keywords": keywords,
        "distribution": [
            {"@type": "DataDownload", "encodingFormat": d.encoding, "contentUrl": d.url}
            for d in downloads
        ],
    }
    if (value := license_value(license)) is not None:
        data["license"] = value
    if dates is not None:
        first, last = dates
        data["temporalCoverage"] = f"{first.isoformat()}/{last.isoformat()}"
        data["dateModified"] = last.isoformat()
    return json_for_html(data)
