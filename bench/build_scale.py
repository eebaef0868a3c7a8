"""How build time and memory grow with the site: phases of a build at 1x, 4x and 16x the pairs.

Run: python bench/build_scale.py. Prints seconds per phase and the ratio to the smallest site,
so that a phase that grows faster than the number of pages stands out, and the peak memory the
Python heap held during a whole in-memory build (tracemalloc, in a separate untimed pass).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import yaml

from sitegen.content import load_content
from sitegen.pages import plan_site
from sitegen.records import load_site
from sitegen.render import environment, render_page
from sitegen.tables import summarise

ENGINES = [("vllm", "fp8"), ("sglang", "fp4"), ("trtllm", "fp4")]


def make_site(root: Path, models: int, gpus: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    (root / "data/runs").mkdir(parents=True)
    (root / "sitegen.yaml").write_text(
        yaml.safe_dump(
            {"title": "Bench", "base_url": "https://example.org/", "default_workload": "chat"}
        )
    )
    (root / "data/models.yaml").write_text(
        yaml.safe_dump({f"m{i}": {"name": f"Model {i}"} for i in range(models)})
    )
    (root / "data/gpus.yaml").write_text(
        yaml.safe_dump({f"g{i}": {"name": f"GPU {i}", "all_in_power_kw": 2.0} for i in range(gpus)})
    )
    (root / "data/workloads.yaml").write_text(yaml.safe_dump({"chat": {"name": "Chat"}}))
    (root / "data/pricing.yaml").write_text(
        yaml.safe_dump(
            {
                "source": "S",
                "as_of": "2026-07",
                "tiers": {"owning": {"label": "Owning"}},
                "prices": {f"g{i}": {"owning": 1.0 + i / 10} for i in range(gpus)},
            }
        )
    )
    for m in range(models):
        for g in range(gpus):
            for engine, precision in ENGINES:
                for day in ("2026-09-01", "2026-10-01"):
                    configs = []
                    for conc in (1, 2, 4, 8, 16, 32, 64, 128, 256):
                        tpot = 5 + conc * rng.uniform(0.2, 0.4)
                        configs.append(
                            {
                                "gpus": 8,
                                "tp": 8,
                                "concurrency": conc,
                                "throughput_per_gpu": conc * 1000 / tpot * 2,
                                "ttft_ms": {"median": 100 + conc * 5},
                                "tpot_ms": {"median": tpot},
                            }
                        )
                    record = {
                        "source": "Bench",
                        "date": day,
                        "model": f"m{m}",
                        "gpu": f"g{g}",
                        "engine": engine,
                        "precision": precision,
                        "workload": "chat",
                        "configs": configs,
                    }
                    name = f"m{m}-g{g}-{engine}-{day}.yaml"
                    (root / "data/runs" / name).write_text(yaml.safe_dump(record))


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
    plan = plan_site(site, pairs, load_content(root, site.models, site.gpus, problems), problems)
    times["plan"] = time.perf_counter() - start
    start = time.perf_counter()
    env = environment(root)
    for page in plan.pages:
        render_page(env, page, {"site": site.config, "nav_pages": []})
    times["render"] = time.perf_counter() - start
    times["pages"] = len(plan.pages)
    return times


def peak_memory_mib(root: Path) -> float:
    """Peak traced Python memory of one whole in-memory build (render_site)."""
    from sitegen.build import render_site

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
            make_site(root, models, gpus)
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
