"""How long a chart takes: drawn cold, read from the disk cache, and a whole build with each.

    python bench/chart.py [SITE]      (default: the repository's flagship site)

The site is copied, and each sweep given a twin 30 days older, so that history is drawn too.

Prints milliseconds per chart and the ratios; nothing is asserted (speed is not a test).
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sitegen.calc.standings import envelope_of
from sitegen.calc.tables import summarise
from sitegen.charts import ChartCache, draw_frontier, draw_history, frontier_chart_data
from sitegen.charts.history_chart import history_chart_data, history_rows
from sitegen.charts.series import strongest
from sitegen.layout import SiteLayout
from sitegen.pipeline.build import render_site
from sitegen.records import load_site

REPEAT = 200


def _ms(fn, repeat: int = REPEAT) -> float:
    """Median milliseconds of one call over `repeat` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def with_history(site_root: Path, tmp: Path) -> Path:
    """A copy of the site where each sweep also has a run a month older, so history is drawn."""
    copy = tmp / "site"
    copy.mkdir()
    shutil.copy(SiteLayout(site_root).config, SiteLayout(copy).config)
    for name in SiteLayout.SOURCE_FOLDERS:
        if (site_root / name).is_dir():
            shutil.copytree(site_root / name, copy / name)
    for path in sorted(SiteLayout(copy).runs.rglob("*.yaml")):
        text = path.read_text()
        if "kind: matrix" not in text and (date := re.search(r"^date: (\S+)", text, re.M)):
            older = dt.date.fromisoformat(date.group(1)) - dt.timedelta(days=30)
            path.with_name(path.stem + "-older.yaml").write_text(
                text.replace(date.group(0), f"date: {older}")
            )
    return copy


def main(site_root: Path) -> None:
    tmp = Path(tempfile.mkdtemp())
    site_root = with_history(site_root, tmp)
    site, problems = load_site(site_root)
    if site is None:
        sys.exit("\n".join(str(p) for p in problems.sorted()))
    summaries = [s for group in summarise(site).values() for s in group]
    method = site.config.frontier_method
    strong = {id(s): strongest(envelope_of(s, method).leaders()) for s in summaries}
    charts = [
        ("frontier", frontier_chart_data(site, s, strong[id(s)]), draw_frontier) for s in summaries
    ]
    for s in summaries:
        if rows := history_rows(s):
            data = history_chart_data(site, s, rows, strong[id(s)])
            charts.append(("history", data, draw_history))
    print(f"{site_root}: {len(charts)} charts on {len(summaries)} workload summaries")
    with tempfile.TemporaryDirectory() as scratch:
        for kind, data, draw in charts:
            svg = draw(data)
            cold = _ms(lambda d=data, f=draw: f(d))
            folder = Path(scratch) / kind
            ChartCache(folder).get_or_draw(kind, data, draw)  # fill the cache once

            def cached(d=data, f=draw, k=kind, where=folder) -> str:
                return ChartCache(where).get_or_draw(k, d, f)  # a new build: a new cache object

            warm = _ms(cached)
            print(
                f"  {kind:8} {len(svg) / 1024:6.1f} KiB  drawn {cold:7.3f} ms  "
                f"from cache {warm:7.3f} ms  ({cold / warm:4.1f}x)"
            )
    # the whole build, with an empty cache and with a full one
    render_site(site_root)  # imports and warm-up
    cache = SiteLayout(site_root).cache
    empty, full = [], []
    for _ in range(10):
        shutil.rmtree(cache, ignore_errors=True)
        empty.append(_ms(lambda: render_site(site_root), repeat=1))
        full.append(_ms(lambda: render_site(site_root), repeat=1))
    print(
        f"  build: empty chart cache {statistics.median(empty):.1f} ms, "
        f"full chart cache {statistics.median(full):.1f} ms"
    )
    shutil.rmtree(tmp)


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    main(root)
