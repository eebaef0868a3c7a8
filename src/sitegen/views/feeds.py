"""Atom feeds of new results: feed.xml with every run record and every regression between run
dates, newest first, and one per model.

Written as text, line by line, the bytes ElementTree wrote (indented by one space a level):
every string from data has the characters XML 1.0 does not allow dropped (glyphs.printable),
then is escaped as ElementTree's serialiser escapes it. ElementTree itself took a model's
feed four times as long: an element object and an escape call per field, then a tree walk.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..calc.changes import REGRESSION, Change
from ..cards.glyphs import printable
from ..records import MatrixRun, Run, Site
from ..records.urls import link_problem
from ..render import display
from .changes import CHANGES_ROUTE, change_anchor
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


def _stamp(entry: Run | Change) -> str:
    return f"{entry.date.isoformat()}T00:00:00Z"


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


def _entries(runs: Iterable[Run], changes: Iterable[Change]) -> list[Run | Change]:
    """Runs and the regressions among `changes`, newest first; on one date, runs first."""
    dated: list[tuple[tuple, Run | Change]] = [((-r.date.toordinal(), 0, r.id), r) for r in runs]
    dated += [
        ((-c.date.toordinal(), 1, change_anchor(c)), c) for c in changes if c.kind == REGRESSION
    ]
    return [entry for _, entry in sorted(dated, key=lambda pair: pair[0])]


def atom_feed(
    site: Site,
    runs: Iterable[Run],
    path: str,
    title: str,
    page: str = "",
    changes: Iterable[Change] = (),
) -> str:
    """The Atom feed at `path` of `runs` and of the regressions among `changes` (an entry
    each, newest first); `page` is the route of the page the feed follows (the overview by
    default)."""
    base = site.config.base_url
    entries = _entries(runs, changes)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="{ATOM}">',
        _el(" ", "id", base + path),
        _el(" ", "title", title),
        _el(" ", "updated", _stamp(entries[0]) if entries else "1970-01-01T00:00:00Z"),
        _link(" ", "self", base + path, "application/atom+xml"),
        _link(" ", "alternate", base + page),
        " <author>",
        _el("  ", "name", site.config.title or base),
        " </author>",
        _el(" ", "generator", "sitegen"),
    ]
    for entry in entries:
        lines += (
            _regression(site, entry, base)
            if isinstance(entry, Change)
            else _entry(site, entry, base)
        )
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def _head(link: str, title: str, stamp: str, related: str) -> list[str]:
    """An entry's first lines: its id and link, its title and dates, the page it is about."""
    return [
        " <entry>",
        _el("  ", "id", link),
        _el("  ", "title", title),
        _el("  ", "updated", stamp),
        _el("  ", "published", stamp),
        _link("  ", "alternate", link),
        _link("  ", "related", related),
    ]


def _entry(site: Site, run: Run, base: str) -> list[str]:
    """The lines of one run's entry."""
    report = base + run_route(run.id)
    stamp = _stamp(run)
    lines = _head(report, run_title(site, run), stamp, base + pair_route(run.model, run.gpu))
    lines += ["  <author>", _el("   ", "name", run.source)]
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


def _regression(site: Site, change: Change, base: str) -> list[str]:
    """The lines of one regression's entry: it links its line of the changes page."""
    link = base + CHANGES_ROUTE + "#" + change_anchor(change)
    stamp = _stamp(change)
    related = base + pair_route(change.model, change.gpu)
    return [
        *_head(link, regression_title(site, change), stamp, related),
        f'  <category term="{_attr(change.model)}" />',
        f'  <category term="{_attr(change.gpu)}" />',
        f'  <category term="{REGRESSION}" />',
        f'  <summary type="text">{_text(regression_summary(site, change))}</summary>',
        " </entry>",
    ]


def regression_title(site: Site, change: Change) -> str:
    model, gpu = site.models[change.model].name, site.gpus[change.gpu].name
    how = f"{display.engine_name(change.engine)} {display.precision_name(change.precision)}"
    title = f"Regression: {model} on {gpu}, {how}, {site.workloads[change.workload].name}"
    if change.headline_change is None:
        return title
    at = display.rate(site.config.headline_interactivity)
    return f"{title}: {display.percent(change.headline_change * 100)} at {at} tok/s per user"


def regression_summary(site: Site, change: Change) -> str:
    """What moved: every target both dates reach, before and after, in tokens/s per GPU."""
    rungs = "; ".join(
        f"at {display.rate(r.target)} tok/s per user {display.tokens(r.before)} -> "
        f"{display.tokens(r.after)} ({display.percent(r.change * 100)})"
        for r in change.rungs
    )
    return (
        f"{display.sentence(display.per_gpu(site.tokens(change.workload)))} of the run of "
        f"{change.date.isoformat()} against the run of "
        f"{change.previous_date.isoformat()}: {rungs}."
    )


def site_feed(site: Site, changes: Iterable[Change] = ()) -> str:
    return atom_feed(site, site.runs, FEED, f"{site.config.title}: new results", changes=changes)


def model_feed(site: Site, model: str, runs: Iterable[Run], changes: Iterable[Change] = ()) -> str:
    """The feed of a model's runs and regressions (`runs`: the model's, in the site's order;
    each model's feed scanning every run of the site was 3.2 million comparisons at 2,000
    pairs)."""
    name = site.models[model].name
    route = f"models/{model}/"
    return atom_feed(site, runs, model_feed_path(model), f"{name}: new results", route, changes)
