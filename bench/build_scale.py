"""How build time and memory grow with the site: phases of a build at 1x, 4x and 16x the pairs.

Run: python bench/build_scale.py [--quick]. The sites are bench/scale.py's (eight runs of 32
configs per model x GPU) at 2 x 2, 4 x 4 and 8 x 8 pairs. Prints seconds per phase and the ratio
to the smallest site, so that a phase that grows faster than the number of pages stands out, and
the peak memory the Python heap held during a whole in-memory build (tracemalloc, in a separate
untimed pass).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from scale import Shape, generate  # bench/scale.py: the sites of issue 8, at any size

from sitegen.calc.tables import summarise
from sitegen.charts import ChartCache, draw_charts
from sitegen.records import load_site
from sitegen.render.content import load_content
from sitegen.render.environment import environment, render_page
from sitegen.views import plan_site


def phases(root: Path) -> dict[str, float]:
    times: dict[str, float] = {}
    start = time.perf_counter()
    site, problems = load_site(root)
    assert site is not None, problems.sorted()[:3]
    times["load"] = time.perf_counter() - start
    start = time.perf_counter()
    pairs = summarise(site)
    times["summarise"] = time.perf_counter() - start
    start = time.perf_counter()
    content = load_content(root, site.models, site.gpus, problems)
    plan, _ = plan_site(site, pairs, content, environment(root))
    times["plan"] = time.perf_counter() - start
    start = time.perf_counter()
    draw_charts(plan.charts(), ChartCache(None))
    times["charts"] = time.perf_counter() - start
    start = time.perf_counter()
    env = environment(root)
    for page in plan.pages:
        render_page(env, page, {"site": site.config, "nav_pages": []})
    times["render"] = time.perf_counter() - start
    times["pages"] = len(plan.pages)
    return times


def peak_memory_mib(root: Path) -> float:
    """Peak traced Python memory of one whole in-memory build (render_site)."""
    from sitegen.pipeline.build import render_site

    tracemalloc.start()
    try:
        render_site(root)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> None:
    scales = [(2, 2), (4, 4), (8, 8)] if "--quick" not in sys.argv else [(1, 2), (2, 2)]
    results = []
    for models, gpus in scales:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            generate(root, Shape(models, gpus))
            runs = [phases(root) for _ in range(3)]
            result = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            result["peak_mib"] = peak_memory_mib(root)
            results.append(result)
    base = results[0]
    print(
        f"{'pairs':>6} {'pages':>6} "
        + " ".join(f"{k:>16}" for k in ("load", "summarise", "plan", "render", "peak heap"))
    )
    for (models, gpus), r in zip(scales, results, strict=True):
        cells = [
            f"{r[k]:7.3f}s x{r[k] / base[k]:5.1f}" for k in ("load", "summarise", "plan", "render")
        ]
        cells.append(f"{r['peak_mib']:6.1f}MiB x{r['peak_mib'] / base['peak_mib']:5.1f}")
        print(f"{models * gpus:>6} {int(r['pages']):>6} " + " ".join(cells))


if __name__ == "__main__":
    main()
