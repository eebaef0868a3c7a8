"""The scale benchmark: `sitegen build` on a 2,000-pair site and a 4,000-pair one.

    PYTHONPATH=src python bench/scale.py [--only 2000|4000] [--pairs N | --quick] [--dir DIR]
                                         [--preview]

Generates each site (illustrative, seeded: the same bytes every time), then runs `sitegen build`
as a process of its own, as a user would, for each case: cold (no .sitegen-cache/, no public/),
nothing changed, one number of one run changed, and cold with --no-cache where the command has
it. Prints the machine, then per site the wall time and peak memory of each build, which output
files the edit changed or rewrote, ms per page and its ratio to bare Jinja2 rendering a
comparable page in this same run, beside the targets. docs/performance.md explains the
figures and keeps the latest ones. Nothing here imports sitegen: only the command and the
output folder are measured, whatever the build does inside. With --preview, a process of its
own then makes the builds `sitegen serve` makes (sitegen's Rebuilder, in memory: the first
build, then a rebuild after each of three edits) and the rebuilds' times are reported too.
"""

from __future__ import annotations

import argparse
import compileall
import concurrent.futures
import contextlib
import datetime as dt
import functools
import hashlib
import itertools
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEED = 8  # issue 8
SITEGEN = [sys.executable, "-c", "from sitegen.cli import run; run()"]  # the `sitegen` command

# -- the sites ----------------------------------------------------------------------------------

# Each pair has four curves (engine x precision), each measured on two dates: the older run is
# history, the newer one current. Half of each pair's records are YAML, half JSON.
CURVES = (("vllm", "fp8"), ("sglang", "fp8"), ("sglang", "fp4"), ("trtllm", "fp4"))
RUNS_PER_PAIR = 2 * len(CURVES)
LAYOUTS = (
    {"gpus": 8, "tp": 8},
    {"gpus": 8, "tp": 4, "dp": 2},
    {"gpus": 8, "tp": 8, "ep": 8},
    {"gpus": 4, "tp": 4},
)
CONCURRENCIES = (1, 2, 4, 8, 16, 32, 64, 128)
CONFIG_GRID = tuple(itertools.product(LAYOUTS, CONCURRENCIES))  # 32 distinct configs
ISL = OSL = 1024
SITE_TITLE = "Scale benchmark (illustrative)"


@dataclass(frozen=True)
class Shape:
    """models x GPUs pairs (every model on every GPU), eight runs per pair."""

    models: int
    gpus: int
    configs_per_pair: int = RUNS_PER_PAIR * len(CONFIG_GRID)

    @property
    def pairs(self) -> int:
        return self.models * self.gpus

    @property
    def runs(self) -> int:
        return self.pairs * RUNS_PER_PAIR

    @property
    def configs(self) -> int:
        return self.pairs * self.configs_per_pair

    def configs_of_run(self, index: int) -> int:
        """The pair's configs shared out over its runs, the first runs taking one more."""
        base, extra = divmod(self.configs_per_pair, RUNS_PER_PAIR)
        return base + (index < extra)

    def describe(self) -> str:
        per_run = sorted({self.configs_of_run(i) for i in range(RUNS_PER_PAIR)})
        return (
            f"{self.pairs:,} pairs = {self.models} models x {self.gpus} GPUs, "
            f"{self.runs:,} runs of {' or '.join(map(str, per_run))} configs, "
            f"{self.configs:,} configs"
        )


# 2,000 pairs: 8 runs x 32 configs = 512,000 configs. 4,000 pairs: 8 runs of 32, 32, 31 x 6
# = 250 configs a pair, exactly 1,000,000.
SIZES = {2000: Shape(200, 10), 4000: Shape(400, 10, configs_per_pair=250)}


def shape_of(pairs: int) -> Shape:
    """The issue's shapes for 2,000 and 4,000 pairs; any other size as N/10 models x 10 GPUs."""
    if pairs in SIZES:
        return SIZES[pairs]
    gpus = min(10, pairs)
    if pairs < 1 or pairs % gpus:
        raise SystemExit(f"--pairs {pairs}: give a number below 10 or a multiple of 10")
    return Shape(pairs // gpus, gpus)


def model_slug(index: int) -> str:
    return f"model-{index:03d}"


def gpu_slug(index: int) -> str:
    return f"gpu-{index:02d}"


def site_files(shape: Shape) -> dict[str, str]:
    """sitegen.yaml and the catalogs of data/."""
    models = "".join(
        f"{model_slug(m)}: {{name: Model {m:03d}, vendor: Lab {m % 7}, "
        f"total_params_b: {8 + m * 37 % 1000}}}\n"
        for m in range(shape.models)
    )
    gpus = "".join(
        f"{gpu_slug(g)}: {{name: GPU {g:02d}, vendor: Vendor {g % 3}, memory_gb: {96 + 32 * g}, "
        f"all_in_power_kw: {1.2 + g / 10:.1f}}}\n"
        for g in range(shape.gpus)
    )
    prices = "".join(
        f"  {gpu_slug(g)}: {{owning: {1.0 + g / 5:.2f}, retail: {2.0 + g / 4:.2f}}}\n"
        for g in range(shape.gpus)
    )
    return {
        "sitegen.yaml": (
            f"title: {SITE_TITLE}\nbase_url: https://example.org/scale/\ndefault_workload: chat\n"
        ),
        "data/models.yaml": models,
        "data/gpus.yaml": gpus,
        "data/workloads.yaml": f"chat: {{name: Chat, isl: {ISL}, osl: {OSL}}}\n",
        "data/pricing.yaml": (
            "source: Made-up prices for the scale benchmark\nas_of: 2026-07\n"
            "tiers:\n  owning: {label: Owning}\n  retail: {label: Retail}\nprices:\n" + prices
        ),
    }


def pair_runs(shape: Shape, model: int, gpu: int, seed: int = SEED) -> list[tuple[str, dict]]:
    """The pair's eight run records as (path under the site, record), from the pair's own seed."""
    rng = random.Random(f"{seed}/{model}/{gpu}")
    model_cost = 0.5 + model * 7919 % 100 / 40  # bigger models decode slower
    gpu_speed = 1 + gpu * 0.2
    runs = []
    for curve, (engine, precision) in enumerate(CURVES):
        engine_speed = rng.uniform(0.8, 1.2) * (1.3 if precision == "fp4" else 1.0)
        older = dt.date(2026, 1, 1) + dt.timedelta(days=rng.randrange(150))
        newer = older + dt.timedelta(days=30 + rng.randrange(120))
        for current, day in enumerate((older, newer)):
            index = curve * 2 + current
            speed = gpu_speed * engine_speed * (1.0 if current else rng.uniform(0.75, 0.95))
            configs = [
                _config(rng, layout, concurrency, model_cost, speed)
                for layout, concurrency in CONFIG_GRID[: shape.configs_of_run(index)]
            ]
            record = {
                "kind": "sweep",
                "source": "Scale benchmark",
                "date": day.isoformat(),
                "model": model_slug(model),
                "gpu": gpu_slug(gpu),
                "workload": "chat",
                "engine": engine,
                "precision": precision,
                "illustrative": True,
                "notes": "Made-up figures generated by bench/scale.py.",
                "configs": configs,
            }
            suffix = "yaml" if (index + model + gpu) % 2 == 0 else "json"
            name = f"{gpu_slug(gpu)}-{engine}-{precision}-{day.isoformat()}.{suffix}"
            runs.append((f"data/runs/{model_slug(model)}/{name}", record))
    return runs


def _config(
    rng: random.Random, layout: dict, concurrency: int, model_cost: float, speed: float
) -> dict:
    tpot_ms = 4 * model_cost / speed * (1 + concurrency / 24) * rng.uniform(0.97, 1.03)
    tpot_ms *= 1.6 if layout["gpus"] == 4 else 1.0
    output_per_gpu = concurrency * 1000 / tpot_ms / layout["gpus"]
    ttft_ms = 40 * model_cost / speed * (1 + concurrency / 8) * rng.uniform(0.9, 1.1)
    return {
        **layout,
        "concurrency": concurrency,
        "throughput_per_gpu": round(output_per_gpu * (ISL + OSL) / OSL, 1),
        "output_throughput_per_gpu": round(output_per_gpu, 1),
        "ttft_ms": {"median": round(ttft_ms, 1), "p99": round(ttft_ms * 2.5, 1)},
        "tpot_ms": {"median": round(tpot_ms, 3), "p99": round(tpot_ms * 1.4, 3)},
        "e2el_ms": {"median": round(ttft_ms + tpot_ms * OSL, 1)},
    }


_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*")  # slugs and dates need no quotes
_QUOTED_KEY = re.compile(r'"(\w+)": ')


def _yaml_scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and _PLAIN.fullmatch(value):
        return value
    return json.dumps(value)  # a JSON string or number is a YAML one too


def record_text(path: str, record: dict) -> str:
    """A record as YAML or JSON (by the path's suffix), one config a line.

    Written by hand, not with yaml.safe_dump, which would take minutes for a million configs.
    """
    head = {k: v for k, v in record.items() if k != "configs"}
    configs = [json.dumps(c) for c in record["configs"]]
    if path.endswith(".json"):
        return json.dumps(head)[:-1] + ',\n "configs": [\n  ' + ",\n  ".join(configs) + "\n]}\n"
    lines = [f"{k}: {_yaml_scalar(v)}" for k, v in head.items()]
    # a config holds numbers only: as a JSON object it is a YAML flow mapping once its keys
    # lose their quotes, {gpus: 8, tp: 8, ttft_ms: {median: 41.3}, ...}
    flow = _QUOTED_KEY.sub(r"\1: ", "\n  - ".join(configs))
    return "\n".join(lines) + "\nconfigs:\n  - " + flow + "\n"


def generate(root: Path, shape: Shape, seed: int = SEED) -> None:
    """Write the whole site into `root` (which must not hold one already), a process a core."""
    for name, text in site_files(shape).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    write = functools.partial(_write_model_runs, root, shape, seed)
    workers = len(os.sched_getaffinity(0))
    if shape.models < 4 * workers:
        for model in range(shape.models):
            write(model)
        return
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        list(pool.map(write, range(shape.models), chunksize=4))


def _write_model_runs(root: Path, shape: Shape, seed: int, model: int) -> None:
    (root / "data/runs" / model_slug(model)).mkdir(parents=True)
    for gpu in range(shape.gpus):
        for rel, record in pair_runs(shape, model, gpu, seed):
            (root / rel).write_text(record_text(rel, record), encoding="utf-8")


# -- the edit -----------------------------------------------------------------------------------

HEADLINE_INTERACTIVITY = 50  # sitegen's default headline point, tokens/s per user


@dataclass(frozen=True)
class Edit:
    path: str  # the record, under the site
    model: str
    gpu: str
    run_id: str
    what: str


def edit_one_number(root: Path, shape: Shape, seed: int = SEED, factor: float = 1.5) -> Edit:
    """Raise one throughput figure of one run by half (`factor`), in a pair in the middle of
    the site.

    The figure is the best throughput among the pair's current configs that reach the headline
    interactivity: it is on the winning curve's frontier beside the headline point, so the
    edit changes the pair's headline and with it every page that summarises the pair.
    """
    model, gpu = shape.models // 2, shape.gpus // 2
    runs = pair_runs(shape, model, gpu, seed)
    candidates = [
        (config["throughput_per_gpu"], index, position)
        for index, (_, record) in enumerate(runs)
        if index % 2  # the current run of each curve
        for position, config in enumerate(record["configs"])
        if 1000 / config["tpot_ms"]["median"] >= HEADLINE_INTERACTIVITY
    ]
    old, index, position = max(candidates)
    rel, record = runs[index]
    new = round(old * factor, 1)
    record["configs"][position]["throughput_per_gpu"] = new
    (root / rel).write_text(record_text(rel, record), encoding="utf-8")
    run_id = rel.removeprefix("data/runs/").rsplit(".", 1)[0].replace("/", "-")
    what = f"{rel}: configs[{position}].throughput_per_gpu {old} -> {new}"
    return Edit(rel, model_slug(model), gpu_slug(gpu), run_id, what)


def page_kind(path: str) -> str:
    """What an output file is, from its path (the URL scheme of the site's spec)."""
    parts = path.split("/")
    kinds = {
        ("models", 3): "model",
        ("models", 4): "pair",
        ("models", 5): "workload",  # a pair's, or a model's (models/<m>/workloads/<w>/)
        ("gpus", 3): "gpu",
        ("runs", 3): "run report",
        ("compare", 3): "gpu pair",
        ("compare", 4): "compare",
        ("embed", 4): "embed",
        ("changes", 2): "changes",
        ("data", 2): "leaderboard data",
        ("assets", 2): "assets",
        ("pagefind", 2): "search index",
        ("pagefind", 3): "search index",
    }
    kind = kinds.get((parts[0], len(parts))) if len(parts) > 1 else None
    if kind is None:
        kind = {
            "index.html": "overview",
            "404.html": "404",
            "sitemap.xml": "sitemap, robots",
            "robots.txt": "sitemap, robots",
            ".sitegen-output": "output marker",
            "llms.txt": "llms.txt",
            "feed.xml": "feed",
            "changes.json": "changes data",
        }.get(path, "other page" if path.endswith(".html") else "other file")
    if parts[-1] == "feed.xml":
        return "feed"
    if parts[-1] in ("social.png", "badge.svg") and kind:
        return f"{kind} {'card' if parts[-1] == 'social.png' else 'badge'}"
    page_kinds = ("overview", "404", "model", "pair", "workload", "gpu", "run report", "compare")
    if kind in (*page_kinds, "gpu pair", "embed", "changes"):
        kind += " page" if path.endswith(".html") else " data"
    return kind


def shows_the_run(path: str, edit: Edit) -> bool:
    """The output files that may change when one number of the edited run changes."""
    parts = path.split("/")
    # the overview and its downloads; llms.txt holds the same headline table; the changes
    # page and changes.json, and the feed, which lists regressions; the output's marker,
    # which every commit moves in first
    shown = ("index.html", "data/leaderboard.json", "data/leaderboard.csv", "llms.txt")
    changes = ("changes/index.html", "changes.json", "feed.xml")
    if path in (*shown, *changes, ".sitegen-output"):
        return True
    if parts[0] == "models" and len(parts) > 2 and parts[1] == edit.model:
        # the model's page and feed, its workloads' pages, the pair's page and workload pages
        return len(parts) == 3 or parts[2] in (edit.gpu, "workloads")
    if parts[0] == "embed" and len(parts) == 4:
        return parts[1:3] == [edit.model, edit.gpu]
    if parts[0] == "gpus" and len(parts) == 3:
        return parts[1] == edit.gpu
    if parts[0] == "runs" and len(parts) == 3:
        return parts[1] == edit.run_id
    if parts[0] == "compare" and len(parts) in (3, 4):  # the GPU pair and its model's page
        mine = len(parts) == 3 or parts[2] == edit.model
        return mine and edit.gpu in parts[1].split("-vs-")
    return False


# -- measuring a build --------------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    wall_s: float
    cpu_s: float
    peak_bytes: int
    processes: int
    output: str


# the kernel walks every page of a process to sum its Pss: sampled more often, the sampler
# took a third of a core from the build it measures
SAMPLE_S = 0.5


def _resident_bytes(pid: int) -> int:
    """The memory `pid` holds, its pages shared with others (a forked parent) counted once
    across them: its proportional set size (Pss), or where the system has none, its RSS."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _tree_rss(pid: int) -> tuple[int, int]:
    """(resident bytes, processes) of `pid` and all its descendants, from /proc: the sum of
    their proportional set sizes, so pages a forked worker shares with its parent count once."""
    total, count, todo = 0, 0, [pid]
    while todo:
        current = todo.pop()
        try:
            total += _resident_bytes(current)
            count += 1
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo.extend(int(c) for c in children.read().split())
        except (OSError, ValueError):
            continue  # the process ended meanwhile
    return total, count


def run_build(site: Path, *options: str) -> Build:
    """`sitegen build --site SITE --out SITE/public` in a process of its own, measured.

    Peak memory is the build process's own peak RSS (ru_maxrss of os.wait4), or, if the build
    starts worker processes and their sum is larger, the largest sum of its process tree's
    proportional set sizes (shared pages counted once) sampled every SAMPLE_S seconds.
    """
    command = [*SITEGEN, "build", "--site", str(site), "--out", str(site / "public"), *options]
    with tempfile.TemporaryFile() as log:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=_child_env())
        sampled = [0, 1]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(SAMPLE_S):
                rss, count = _tree_rss(process.pid)
                sampled[0], sampled[1] = max(sampled[0], rss), max(sampled[1], count)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall_s = time.perf_counter() - started
        done.set()
        sampler.join()
        process.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        output = log.read().decode("utf-8", "replace").strip()
    if process.returncode != 0:
        raise SystemExit(f"`{' '.join(command[3:])}` failed ({process.returncode}):\n{output}")
    peak = usage.ru_maxrss * 1024 if sampled[1] == 1 else max(usage.ru_maxrss * 1024, sampled[0])
    return Build(wall_s, usage.ru_utime + usage.ru_stime, peak, sampled[1], output)


def compile_sitegen() -> str:
    """sitegen's modules compiled to bytecode, as `pip install` leaves them: where
    PYTHONDONTWRITEBYTECODE is set (as on some CI images) Python would otherwise compile all
    of them again in every build (0.35 s of a one-edit build here), which is no cost of the
    build's own. Run once, before the builds; the builds then read the compiled files."""
    if not compileall.compile_dir(REPO / "src" / "sitegen", quiet=1):
        raise SystemExit("sitegen's modules did not compile")
    flag = os.environ.get("PYTHONDONTWRITEBYTECODE") or "unset"
    return f"sitegen's modules compiled to bytecode first (PYTHONDONTWRITEBYTECODE: {flag})"


def _child_env() -> dict[str, str]:
    """The build runs this checkout's sitegen, whatever an editable install points at."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    return env


def build_options() -> str:
    command = [*SITEGEN, "build", "--help"]
    return subprocess.run(command, capture_output=True, text=True, env=_child_env()).stdout


@dataclass(frozen=True)
class FileState:
    mtime_ns: int
    digest: bytes


def snapshot(out: Path) -> dict[str, FileState]:
    """Every output file: when it was last written and a hash of its bytes."""
    files = {}
    for path in out.rglob("*"):
        if path.is_file():
            stat = path.stat()
            digest = hashlib.blake2b(path.read_bytes(), digest_size=16).digest()
            files[path.relative_to(out).as_posix()] = FileState(stat.st_mtime_ns, digest)
    return files


@dataclass(frozen=True)
class Changes:
    changed: list[str]  # bytes differ, added or removed
    rewritten: list[str]  # written again (mtime moved), whether or not the bytes differ


def compare(before: dict[str, FileState], after: dict[str, FileState]) -> Changes:
    names = sorted(before.keys() | after.keys())
    changed = [
        n for n in names if n not in before or n not in after or before[n].digest != after[n].digest
    ]
    rewritten = [n for n in names if n in after and (n not in before or before[n] != after[n])]
    return Changes(changed, rewritten)


def by_kind(paths: list[str]) -> str:
    counts = Counter(page_kind(p) for p in paths)
    return ", ".join(f"{kind} {n:,}" for kind, n in sorted(counts.items())) or "none"


# -- the bare-Jinja2 floor ----------------------------------------------------------------------

FLOOR_BASE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} · {{ site_title }}</title>
<meta name="description" content="{{ description }}">
<link rel="canonical" href="{{ base_url }}{{ route }}">
<meta property="og:title" content="{{ title }}">
<link rel="stylesheet" href="{{ root }}assets/style.css">
</head>
<body>
<header class="site-header"><a class="brand" href="{{ root }}">{{ site_title }}</a>
<nav>{% for name in nav %}<a href="{{ root }}{{ name }}/">{{ name | capitalize }}</a>{% endfor %}
</nav></header>
<main id="main">{% block main %}{% endblock %}</main>
<footer class="site-footer"><a href="{{ root }}data/leaderboard.json">leaderboard.json</a></footer>
</body>
</html>
"""

FLOOR_PAGE = """{% extends "base.html" %}
{% block main %}
<h1>{{ title }}</h1>
<p class="lead">{{ description }}</p>
<table class="numbers">
<thead><tr>{% for h in headers %}<th scope="col">{{ h }}</th>{% endfor %}</tr></thead>
<tbody>
{% for row in rows %}
<tr><th scope="row"><a href="{{ root }}{{ row.route }}">{{ row.name }}</a></th>
<td class="num">{{ row.concurrency }}</td><td class="num">{{ row.throughput | tokens }}</td>
<td class="num">{{ row.output | tokens }}</td><td class="num">{{ row.ttft | latency }}</td>
<td class="num">{{ row.tpot | latency }}</td><td class="num">{{ row.cost | dollars }}</td>
<td>{{ row.engine }} {{ row.precision }}</td></tr>
{% endfor %}
</tbody>
</table>
<h2>Related pages</h2>
<ul class="links">
{% for link in links %}<li><a href="{{ root }}{{ link.route }}">{{ link.title }}</a></li>
{% endfor %}
</ul>
{% endblock %}
"""

FLOOR_ROWS, FLOOR_LINKS = 30, 20


def floor_ms_per_page(pages: int) -> tuple[float, float]:
    """(ms, bytes) of one comparable page rendered with bare Jinja2 and encoded.

    A base layout and a page of a 30-row, 8-column table of formatted figures and 20 links, as
    in a run report, without any of the work of computing what it shows.
    """
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.DictLoader({"base.html": FLOOR_BASE, "page.html": FLOOR_PAGE}),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        tokens=lambda v: f"{v:,.0f}",
        latency=lambda ms: f"{ms:.3g} ms" if ms < 1000 else f"{ms / 1000:.2g} s",
        dollars=lambda v: f"${v:.2g}" if v < 1 else f"${v:,.2f}",
    )
    template = env.get_template("page.html")
    rng = random.Random(SEED)
    contexts = [_floor_context(rng, i) for i in range(50)]
    written = 0
    started = time.perf_counter()
    for i in range(pages):
        written += len(template.render(contexts[i % len(contexts)]).encode("utf-8"))
    return (time.perf_counter() - started) * 1000 / pages, written / pages


def _floor_context(rng: random.Random, i: int) -> dict:
    rows = [
        {
            "name": f"Config {r}",
            "route": f"runs/run-{i}-{r}/",
            "concurrency": 2 ** (r % 8),
            "throughput": rng.uniform(100, 20000),
            "output": rng.uniform(50, 10000),
            "ttft": rng.uniform(20, 3000),
            "tpot": rng.uniform(2, 80),
            "cost": rng.uniform(0.01, 3),
            "engine": "SGLang",
            "precision": "FP4",
        }
        for r in range(FLOOR_ROWS)
    ]
    links = [
        {"route": f"models/m{i}/g{j}/", "title": f"Model {i} on GPU {j}"}
        for j in range(FLOOR_LINKS)
    ]
    return {
        "title": f"Model {i} on GPU {i % 10}",
        "site_title": "Scale benchmark",
        "description": "Throughput, latency and cost of every measured configuration. " * 2,
        "base_url": "https://example.org/scale/",
        "route": f"models/m{i}/g{i % 10}/",
        "root": "../../../",
        "nav": ["about", "methodology"],
        "headers": ["config", "concurrency", "tok/s per GPU", "output tok/s", "TTFT", "TPOT"]
        + ["$/1M tokens", "engine"],
        "rows": rows,
        "links": links,
    }


# -- the run ------------------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    memory = next(
        int(line.split()[1]) * 1024
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal:")
    )
    commit = subprocess.run(
        ["git", "-C", str(REPO), "describe", "--always", "--dirty", "--abbrev=10"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    import jinja2

    return [
        f"date {dt.date.today().isoformat()}, sitegen {commit or 'unknown'} ({REPO})",
        f"{len(os.sched_getaffinity(0))} cores ({cpu}), {memory / 2**30:.1f} GiB memory, "
        f"{platform.system()} {platform.release()}",
        f"Python {platform.python_version()} ({sys.executable}), Jinja2 {jinja2.__version__}",
        f"load average: {load_average()}",
    ]


def load_average() -> str:
    """Other work on the machine slows the builds down: this says how much there was."""
    return ", ".join(f"{n:.2f}" for n in os.getloadavg()) + " (1, 5, 15 min)"


def gb(n_bytes: float) -> str:
    return f"{n_bytes / 1e9:.2f} GB"


@dataclass(frozen=True)
class Result:
    """Every figure of one site."""

    pairs: int
    pages: int
    builds: dict[str, Build]  # cold, nothing changed, one edit, and cold --no-cache if measured
    unchanged: Changes  # what the nothing-changed build did to public/
    edit: Edit
    edited: Changes  # what the one-edit build did to public/
    shows_the_run: list[str]  # the output files the edit may change
    floor_ms: float  # bare Jinja2, one comparable page
    preview: dict | None = None  # preview_rebuilds' figures, where measured

    @property
    def beyond(self) -> list[str]:
        """Files the edit changed or rewrote that do not show the edited run."""
        touched = set(self.edited.changed) | set(self.edited.rewritten)
        return sorted(touched - set(self.shows_the_run))

    @property
    def peak_bytes(self) -> int:
        return max(b.peak_bytes for b in self.builds.values())

    @property
    def ms_per_page(self) -> float:
        return self.builds["cold"].wall_s * 1000 / self.pages


def measure(
    root: Path,
    pairs: int,
    no_cache: bool,
    floor_pages: int,
    cards: str | None = None,
    preview: bool = False,
    search: bool = True,
) -> Result:
    """Generate the site into `root`, run each build on it, and the floor right after; with
    `preview`, then the preview's builds.

    `cards` ("pair,model", "none") sets sitegen.yaml's `cards`; None leaves sitegen's default.
    Without `search`, sitegen.yaml says `search: false` (no search index).
    """
    shape = shape_of(pairs)
    print(f"\n== {shape.describe()}")
    started = time.perf_counter()
    generate(root, shape)
    if cards is not None:
        kinds = [] if cards == "none" else cards.split(",")
        with (root / "sitegen.yaml").open("a", encoding="utf-8") as config:
            config.write(f"cards: [{', '.join(kinds)}]\n")
        print(f"sitegen.yaml: cards: [{', '.join(kinds)}] (link-preview cards of these pages only)")
    if not search:
        with (root / "sitegen.yaml").open("a", encoding="utf-8") as config:
            config.write("search: false\n")
        print("sitegen.yaml: search: false (no search index)")
    records = list((root / "data/runs").rglob("*.*"))
    suffixes = Counter(p.suffix for p in records)
    print(
        f"generated in {time.perf_counter() - started:.1f} s into {root}: "
        f"{suffixes['.yaml']:,} YAML and {suffixes['.json']:,} JSON records, "
        f"{sum(p.stat().st_size for p in records) / 1e6:.0f} MB"
    )
    out = root / "public"
    builds = {"cold": run_build(root)}
    pages = sum(1 for _ in out.rglob("*.html"))
    before = snapshot(out)
    builds["nothing changed"] = run_build(root)
    after_same = snapshot(out)
    edit = edit_one_number(root, shape)
    builds["one edit"] = run_build(root)
    edited = compare(after_same, snapshot(out))
    if no_cache:
        TRASH.put(out)  # deleted after the run: see Trash
        TRASH.put(root / ".sitegen-cache")
        builds["cold, --no-cache"] = run_build(root, "--no-cache")
    for case, build in builds.items():
        print(
            f"{case + ' build:':24} {build.wall_s:7.2f} s wall, {build.cpu_s:7.2f} s CPU, "
            f"peak {gb(build.peak_bytes)}"
            + (f" ({build.processes} processes)" if build.processes > 1 else "")
        )
    print(f"  the cold build said: {builds['cold'].output.splitlines()[-1]}")
    floor_ms, floor_bytes = floor_ms_per_page(floor_pages)
    print(
        f"bare Jinja2 floor: {floor_ms:.3f} ms per page of {floor_bytes / 1000:.0f} KB "
        f"({floor_pages:,} pages rendered)"
    )
    shows = sorted(p for p in after_same if shows_the_run(p, edit))
    unchanged = compare(before, after_same)
    previewed = preview_rebuilds(root, shape) if preview else None
    if previewed:
        rebuilds = ", ".join(f"{t:.2f} s" for t in previewed["rebuilds_s"])
        print(
            f"preview: first build {previewed['first_s']:.1f} s (in memory, every core), "
            f"rebuilds after an edit {rebuilds} ({previewed['changed']} files changed)"
        )
    return Result(pairs, pages, builds, unchanged, edit, edited, shows, floor_ms, previewed)


PREVIEW_EDITS = 3


def preview_rebuilds(root: Path, shape: Shape) -> dict:
    """`sitegen serve`'s builds, as it makes them (in memory; the first on every core), in a
    process of its own: the first build, then a rebuild after each of PREVIEW_EDITS edits of
    the one-edit number (raised further each time). Seconds of each, and files changed."""
    command = [sys.executable, __file__, "--preview-of", str(root), "--pairs", str(shape.pairs)]
    done = subprocess.run(command, capture_output=True, text=True, env=_child_env())
    if done.returncode != 0:
        raise SystemExit(f"the preview's builds failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def _preview_child(root: Path, shape: Shape) -> None:
    """In the child: the preview's builds of `root`, their figures as one line of JSON."""
    from sitegen.serve.rebuild import Rebuilder
    from sitegen.serve.state import SiteState

    rebuilder = Rebuilder(root, SiteState())
    started = time.perf_counter()
    first = rebuilder.build_now(parallel=True)
    figures: dict = {"first_s": time.perf_counter() - started, "rebuilds_s": [], "changed": []}
    if first.snapshot.problems:
        raise SystemExit(f"the preview's first build failed: {first.snapshot.problems[:3]}")
    for k in range(PREVIEW_EDITS):
        edit = edit_one_number(root, shape, factor=1.6 + k / 10)
        started = time.perf_counter()
        report = rebuilder.build_now({edit.path})
        figures["rebuilds_s"].append(time.perf_counter() - started)
        figures["changed"].append(report.changed_files)
        if report.snapshot.problems or not report.changed_files:
            raise SystemExit(f"the preview's rebuild after {edit.what} showed no change")
    print(json.dumps(figures))


# the targets (docs/performance.md): seconds per build, per site size; a cold build has none of
# its own, it is compared with the commit before a change, side by side
SECONDS = {
    2000: {"nothing changed": 1.5, "one edit": 2, "preview, one edit": 1},
    4000: {},
}
PEAK_BYTES = 2e9
FLOOR_RATIO = 3


def report(result: Result) -> None:
    """What the builds did to public/, then the figures beside the targets."""
    unchanged, edited = result.unchanged, result.edited
    print(
        f"nothing changed: {len(unchanged.changed):,} files changed, "
        f"{len(unchanged.rewritten):,} rewritten"
    )
    print(f"the edit: {result.edit.what}")
    print(f"the edit changed {len(edited.changed):,} files: {by_kind(edited.changed)}")
    print(f"the edit rewrote {len(edited.rewritten):,} files: {by_kind(edited.rewritten)}")
    if not any(page_kind(p) == "pair page" for p in edited.changed):
        print("note: the edit did not change its pair page: the edited number had no effect?")

    targeted = result.pairs in SECONDS
    seconds = SECONDS.get(result.pairs, {})
    rows = []
    for case in ("cold", "nothing changed", "one edit"):
        wall_s = result.builds[case].wall_s
        limit = seconds.get(case)
        rows.append(
            (
                f"{case} build",
                f"{wall_s:.2f} s",
                "" if limit is None else f"< {limit} s",
                None if limit is None else wall_s < limit,
            )
        )
    if result.preview:
        median_s = sorted(result.preview["rebuilds_s"])[len(result.preview["rebuilds_s"]) // 2]
        limit = seconds.get("preview, one edit")
        rows.append(
            (
                "preview, one edit (median)",
                f"{median_s:.2f} s",
                "" if limit is None else f"< {limit} s",
                None if limit is None else median_s < limit,
            )
        )
    rows.append(
        (
            "files rewritten by the edit",
            f"{len(edited.rewritten):,} ({len(result.beyond):,} beyond)",
            f"only the {len(result.shows_the_run)} that show the run",
            not result.beyond if result.pairs == 2000 else None,
        )
    )
    peak = result.peak_bytes
    rows.append(
        ("peak memory, any build", gb(peak), "< 2 GB", peak < PEAK_BYTES if targeted else None)
    )
    floor_ms = result.floor_ms
    ratio = result.ms_per_page / floor_ms
    rows.append((f"ms per page ({result.pages:,} pages)", f"{result.ms_per_page:.2f} ms", "", None))
    rows.append(
        (
            f"  / bare Jinja2 ({floor_ms:.2f} ms)",
            f"x {ratio:.1f}",
            f"<= x {FLOOR_RATIO}",
            ratio <= FLOOR_RATIO if targeted else None,
        )
    )
    print(f"\n{'':30} {'measured':>22}  {'target':<32} verdict")
    for label, figure, limit, met in rows:
        verdict = {True: "PASS", False: "MISS", None: "-"}[met]
        print(f"{label:30} {figure:>22}  {limit:<32} {verdict}")
    if not targeted:
        print(f"(no targets for {result.pairs:,} pairs: they are set for 2,000 and 4,000)")
    if 50 <= result.pairs < 2000:
        scale = 2000 / result.pairs
        print(
            f"proportional to 2,000 pairs: cold {result.builds['cold'].wall_s * scale:.0f} s, "
            f"peak {gb(peak * scale)} (an upper bound: part of each is fixed)"
        )


class Trash:
    """Folders to delete, set aside (renamed, on the same file system) until every build of
    the run is measured, then deleted. On ext4 without a journal a new file's inode is looked
    for past every inode freed in the last minute (five, while its table block is unwritten:
    fs/ext4/ialloc.c, recently_deleted), one buffer lookup each: a cold 2,000-pair build
    started right after `rm -rf` of the last one's 67,824 files spent some 25 s more CPU in
    the kernel (perf: find_get_block_common, recently_deleted), 10-15 s of wall time. That is
    the bench's own deletion, which a user's fresh checkout does not make."""

    def __init__(self) -> None:
        self.paths: list[Path] = []

    def put(self, path: Path) -> None:
        if path.exists():
            aside = path.with_name(f".trash-{os.getpid()}-{len(self.paths)}-{path.name}")
            path.rename(aside)
            self.paths.append(aside)

    def empty(self) -> None:
        for path in self.paths:
            shutil.rmtree(path, ignore_errors=True)
        self.paths.clear()


TRASH = Trash()


@contextlib.contextmanager
def site_folder(parent: Path | None, pairs: int) -> Iterator[Path]:
    """An empty folder for the site: under --dir, kept afterwards, or a temporary one (deleted
    with the trash, after every build of the run)."""
    if parent is None:
        tmp = Path(tempfile.mkdtemp(prefix=f"sitegen-scale-{pairs}-"))
        try:
            yield tmp
        finally:
            TRASH.put(tmp)
        return
    root = parent / f"{pairs}-pairs"
    if root.exists():
        made = root / "sitegen.yaml"
        if not made.is_file() or SITE_TITLE not in made.read_text(encoding="utf-8"):
            raise SystemExit(f"{root} exists and is not a site this script made")
        TRASH.put(root)
    root.mkdir(parents=True)
    yield root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", type=int, choices=sorted(SIZES), help="one of the two sites")
    parser.add_argument("--pairs", type=int, help="a site of N pairs instead (N/10 models x 10)")
    parser.add_argument("--quick", action="store_true", help="the same as --pairs 100")
    parser.add_argument(
        "--dir", type=Path, help="generate the sites here, and keep them (default: a temp folder)"
    )
    parser.add_argument("--floor-pages", type=int, default=2000, help="pages the floor renders")
    parser.add_argument(
        "--cards",
        help="sitegen.yaml's cards for the generated sites: kinds with commas (pair,model) or "
        "none (default: sitegen's, every pair, model and comparison page)",
    )
    parser.add_argument(
        "--preview",
        action="store_true",
        help="also time the preview's rebuilds after an edit (its first build costs a cold one)",
    )
    parser.add_argument(
        "--no-search", action="store_true", help="sitegen.yaml's search: false (no search index)"
    )
    parser.add_argument("--preview-of", type=Path, help=argparse.SUPPRESS)  # the child's site
    args = parser.parse_args()
    if args.preview_of:
        _preview_child(args.preview_of, shape_of(args.pairs))
        return
    if args.pairs or args.quick:
        sizes = [args.pairs or 100]
    else:
        sizes = [args.only] if args.only else sorted(SIZES)
    for line in machine():
        print(line)
    print(compile_sitegen())
    no_cache = "--no-cache" in build_options()
    if not no_cache:
        print("cold --no-cache build: not measured, `sitegen build` has no --no-cache option")
    shape_of(sizes[0])  # a wrong --pairs fails before anything is written
    try:
        for pairs in sizes:
            with site_folder(args.dir, pairs) as root:
                result = measure(
                    root,
                    pairs,
                    no_cache,
                    args.floor_pages,
                    args.cards,
                    args.preview,
                    not args.no_search,
                )
                report(result)
            print(f"load average: {load_average()}")
    finally:
        TRASH.empty()


if __name__ == "__main__":
    main()
