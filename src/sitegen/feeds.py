"""Atom feeds of new results: feed.xml with every run record, newest first, and one per model.

Built with ElementTree, so every string from data is escaped by the serialiser; characters XML
1.0 does not allow are dropped first (glyphs.printable).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from . import display
from .datafiles import pair_route
from .glyphs import printable
from .records import MatrixRun, Run, Site
from .runs import run_route
from .urls import link_problem

ATOM = "http://www.w3.org/2005/Atom"
FEED = "feed.xml"


def model_feed_path(model: str) -> str:
    return f"models/{model}/{FEED}"


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, f"{{{ATOM}}}{tag}", {k: printable(v) for k, v in attrs.items()})
    if text is not None:
        el.text = printable(text)
    return el


def _stamp(run: Run) -> str:
    return f"{run.date.isoformat()}T00:00:00Z"


def run_title(site: Site, run: Run) -> str:
    if isinstance(run, MatrixRun) and run.title:
        return run.title
    model, gpu = site.models[run.model].name, site.gpus[run.gpu].name
    how = f"{display.engine_name(run.engine)} {display.precision_name(run.precision)}"
    workload = getattr(run, "workload", "")
    where = f", {site.workloads[workload].name}" if workload in site.workloads else ""
    return f"{model} on {gpu}: {how}{where}"


def _summary(site: Site, run: Run) -> str:
    model, gpu = site.models[run.model].name, site.gpus[run.gpu].name
    configs = getattr(run, "configs", None)
    what = (
        f"a context x concurrency matrix of {model} on {gpu}"
        if isinstance(run, MatrixRun)
        else f"{display.plural(len(configs or ()), 'config')} of {model} on {gpu}"
    )
    return f"{run.source} measured {what} on {run.date.isoformat()}."


def entry_facts(run: Run) -> tuple:
    """Everything of a run that its feed entry says (with the catalogs' names): a feed whose
    runs' facts did not change is the same feed, whatever their figures are."""
    title = run.title if isinstance(run, MatrixRun) else ""
    configs = getattr(run, "configs", None)
    sweep = (
        getattr(run, "engine", ""),
        getattr(run, "precision", ""),
        getattr(run, "workload", ""),
    )
    count = len(configs) if configs is not None else None
    return (
        run.id,
        run.date.isoformat(),
        run.source,
        run.url,
        run.model,
        run.gpu,
        title,
        *sweep,
        count,
    )


def newest_first(runs: Iterable[Run]) -> list[Run]:
    return sorted(runs, key=lambda r: (-r.date.toordinal(), r.id))


def atom_feed(site: Site, runs: Iterable[Run], path: str, title: str, page: str = "") -> str:
    """The Atom feed at `path` of `runs` (an entry each, newest first); `page` is the route of
    the page the feed follows (the overview by default)."""
    base = site.config.base_url
    runs = newest_first(runs)
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    _el(feed, "id", base + path)
    _el(feed, "title", title)
    _el(feed, "updated", _stamp(runs[0]) if runs else "1970-01-01T00:00:00Z")
    _el(feed, "link", rel="self", type="application/atom+xml", href=base + path)
    _el(feed, "link", rel="alternate", type="text/html", href=base + page)
    author = _el(feed, "author")
    _el(author, "name", site.config.title or base)
    _el(feed, "generator", "sitegen")
    for run in runs:
        entry = _el(feed, "entry")
        report = base + run_route(run.id)
        _el(entry, "id", report)
        _el(entry, "title", run_title(site, run))
        _el(entry, "updated", _stamp(run))
        _el(entry, "published", _stamp(run))
        _el(entry, "link", rel="alternate", type="text/html", href=report)
        _el(
            entry,
            "link",
            rel="related",
            type="text/html",
            href=base + pair_route(run.model, run.gpu),
        )
        who = _el(entry, "author")
        _el(who, "name", run.source)
        if run.url and not link_problem(run.url):  # checked when read; kept so here too
            _el(who, "uri", run.url)
        _el(entry, "category", term=run.model)
        _el(entry, "category", term=run.gpu)
        _el(entry, "summary", _summary(site, run), type="text")
    ET.indent(feed, space=" ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, "unicode") + "\n"


def site_feed(site: Site) -> str:
    return atom_feed(site, site.runs, FEED, f"{site.config.title}: new results")


def model_feed(site: Site, model: str) -> str:
    name = site.models[model].name
    runs = [r for r in site.runs if r.model == model]
    return atom_feed(site, runs, model_feed_path(model), f"{name}: new results", f"models/{model}/")
