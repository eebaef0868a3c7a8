"""Atom feeds of new results: feed.xml with every run record, newest first, and one per model.

Written as text, line by line, the bytes ElementTree wrote (indented by one space a level):
every string from data has the characters XML 1.0 does not allow dropped (glyphs.printable),
then is escaped as ElementTree's serialiser escapes it. ElementTree itself took a model's
feed four times as long: an element object and an escape call per field, then a tree walk.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards.glyphs import printable
from ..records import MatrixRun, Run, Site
from ..records.urls import link_problem
from ..render import display
from .datafiles import pair_route
from .run import run_route

ATOM = "http://www.w3.org/2005/Atom"
FEED = "feed.xml"


def model_feed_path(model: str) -> str:
    return f"models/{model}/{FEED}"


def _text(value: str) -> str:
    """Character data as ElementTree writes it: printable, then &, < and > escaped."""
    text = printable(value)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _attr(value: str) -> str:
    """An attribute value as ElementTree writes it (printable() leaves no tab or line break
    for it to escape)."""
    text = _text(value)
    return text.replace('"', "&quot;") if '"' in text else text


def _el(indent: str, tag: str, text: str) -> str:
    """A line holding element `tag` with `text`; `<tag />` where the text is empty."""
    shown = _text(text)
    return f"{indent}<{tag}>{shown}</{tag}>" if shown else f"{indent}<{tag} />"


def _link(indent: str, rel: str, href: str, kind: str = "text/html") -> str:
    return f'{indent}<link rel="{rel}" type="{kind}" href="{_attr(href)}" />'


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
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="{ATOM}">',
        _el(" ", "id", base + path),
        _el(" ", "title", title),
        _el(" ", "updated", _stamp(runs[0]) if runs else "1970-01-01T00:00:00Z"),
        _link(" ", "self", base + path, "application/atom+xml"),
        _link(" ", "alternate", base + page),
        " <author>",
        _el("  ", "name", site.config.title or base),
        " </author>",
        _el(" ", "generator", "sitegen"),
    ]
    for run in runs:
        lines += _entry(site, run, base)
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def _entry(site: Site, run: Run, base: str) -> list[str]:
    """The lines of one run's entry."""
    report = base + run_route(run.id)
    stamp = _stamp(run)
    lines = [
        " <entry>",
        _el("  ", "id", report),
        _el("  ", "title", run_title(site, run)),
        _el("  ", "updated", stamp),
        _el("  ", "published", stamp),
        _link("  ", "alternate", report),
        _link("  ", "related", base + pair_route(run.model, run.gpu)),
        "  <author>",
        _el("   ", "name", run.source),
    ]
    if run.url and not link_problem(run.url):  # checked when read; kept so here too
        lines.append(_el("   ", "uri", run.url))
    lines += [
        "  </author>",
        f'  <category term="{_attr(run.model)}" />',
        f'  <category term="{_attr(run.gpu)}" />',
        f'  <summary type="text">{_text(_summary(site, run))}</summary>',
        " </entry>",
    ]
    return lines


def site_feed(site: Site) -> str:
    return atom_feed(site, site.runs, FEED, f"{site.config.title}: new results")


def model_feed(site: Site, model: str, runs: Iterable[Run]) -> str:
    """The feed of a model's runs (`runs`: the model's, in the site's order; each model's feed
    scanning every run of the site was 3.2 million comparisons at 2,000 pairs)."""
    name = site.models[model].name
    return atom_feed(site, runs, model_feed_path(model), f"{name}: new results", f"models/{model}/")
