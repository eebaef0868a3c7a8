"""llms.txt: the site in plain Markdown for language-model crawlers (llmstxt.org).

What the site measures, the headline table and where the JSON lives. Text from data is made
one line and its Markdown characters escaped, so a name cannot add a heading, a link or a row.
"""

from __future__ import annotations

from ..calc.briefs import Brief, BriefMemo
from ..cards.glyphs import printable
from ..records import OUTPUT, Site
from ..render import display
from .datafiles import leaderboard_order, leaderboard_row
from .feeds import FEED

LLMS = "llms.txt"
_MARKDOWN = set("\\`*_{}[]()<>#+-!|~")


def md(text: object) -> str:
    """`text` on one line, every Markdown character escaped."""
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in printable(str(text)))


def _row(site: Site, s: Brief) -> tuple[tuple, str]:
    """A brief's line of the headline table, and its place (datafiles.leaderboard_order)."""
    row = leaderboard_row(s, site.tokens(s.workload))
    config = site.config
    cost = (row["cost_per_million_tokens"] or {}).get(config.headline_tier)
    cells = [
        md(site.models[row["model"]].name),
        md(site.gpus[row["gpu"]].name),
        md(site.workloads[row["workload"]].name)
        + (" \\(output tokens\\)" if row["tokens"] == OUTPUT else ""),
        display.tokens(row["throughput_per_gpu"]),
        display.dollars(cost),
        md(display.engine_name(row["engine"])) if row["engine"] else "-",
        md(display.precision_name(row["precision"])) if row["precision"] else "-",
        f"<{config.base_url}{row['url']}>",
    ]
    return leaderboard_order(row), "| " + " | ".join(cells) + " |"


def table_rows(
    site: Site, pairs: dict[tuple[str, str], list[Brief]], memo: BriefMemo
) -> list[tuple[tuple, str]]:
    """Each brief's line of the headline table and its place, kept by `memo`."""
    return [
        memo.get("llms", s, lambda b: _row(site, b)) for briefs in pairs.values() for s in briefs
    ]


def llms_txt(
    site: Site, pairs: dict[tuple[str, str], list[Brief]], memo: BriefMemo | None = None
) -> str:
    """`memo` keeps each brief's line from one build to the next (the preview's)."""
    config = site.config
    base = config.base_url
    target = display.rate(config.headline_interactivity)
    tier = next((t.label for t in site.pricing.tiers if t.slug == config.headline_tier), "")
    lines = [
        f"# {md(config.title)}",
        "",
        "> "
        + md(
            config.description
            or "Benchmarks of LLM inference serving: tokens/s per GPU at every tokens/s per "
            "user target, and what a million tokens costs, computed from published run records."
        ),
        "",
        "## What it measures",
        "",
        "- Throughput: tokens/s per GPU (input + output) of a serving config (engine, "
        "precision, parallelism, load), measured by a benchmark run; a workload whose source "
        "counts generated tokens only (MLPerf Inference) is counted in output tokens/s per GPU, "
        "marked (output tokens), and never ranked against total-token figures.",
        "- Interactivity: output tokens/s per user (1000 / TPOT in ms). A higher target needs "
        "lower concurrency, so throughput per GPU falls as it rises.",
        f"- The headline point: the best throughput per GPU at {target} tokens/s per user, read "
        "off the Pareto frontier of the measured configs; cost per million tokens at "
        f"{md(tier)} pricing.",
        f"- Targets: {', '.join(display.rate(t) for t in config.targets)} tokens/s per user.",
        "",
        f"## Headline table ({target} tokens/s per user)",
        "",
        "| Model | GPU | Workload | Tokens/s per GPU | $ per 1M tokens | Engine | Precision "
        "| Page |",
        "| --- | --- | --- | ---: | ---: | --- | --- | --- |",
    ]
    rows = table_rows(site, pairs, memo or BriefMemo())
    lines.extend(line for _, line in sorted(rows, key=lambda row: row[0]))
    lines += [
        "",
        "## Data",
        "",
        f"- [leaderboard.json]({base}data/leaderboard.json): the table above, unrounded, one "
        "object per model x GPU x workload.",
        f"- [leaderboard.csv]({base}data/leaderboard.csv): the same as CSV.",
        f"- `{base}models/<model>/<gpu>/data.json`: a model x GPU page's numbers (ladder at "
        "every target, frontier curves, every measured config).",
        f"- `{base}models/<model>/data.json`: a model on every GPU; "
        f"`{base}compare/<gpu-a>-vs-<gpu-b>/<model>/data.json`: two GPUs side by side.",
        f"- `{base}runs/<run-id>/data.json`: a run record, normalised.",
        f"- [changes.json]({base}changes.json): what changed between run dates, regressions "
        "marked, newest first.",
        f"- [feed.xml]({base}{FEED}): an Atom feed of the run records, newest first.",
        "",
        "## Models",
        "",
    ]
    models = sorted({m for m, _ in pairs} | {r.model for r in site.runs})
    for model in models:
        lines.append(f"- [{md(site.models[model].name)}]({base}models/{model}/)")
    return "\n".join(lines) + "\n"
