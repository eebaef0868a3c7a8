"""Shared fixtures: small sites written into a temporary folder."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]

SITE_CONFIG = {
    "title": "Test Leaderboard",
    "base_url": "https://example.org/board/",
    "default_workload": "chat",
    "targets": [10, 20, 50, 100],
    "headline": {"interactivity": 20, "tier": "owning"},
    "frontier": {"method": "interpolate"},
}
MODELS = {"m1": {"name": "Model One"}, "m2": {"name": "Model Two"}}
GPUS = {
    "g1": {"name": "GPU One", "vendor": "Acme", "all_in_power_kw": 2.0},
    "g2": {"name": "GPU Two", "vendor": "Acme"},
}
WORKLOADS = {"chat": {"name": "Chat"}, "long": {"name": "Long context", "isl": 8192}}
PRICING = {
    "source": "Test TCO",
    "as_of": "2026-07",
    "tiers": {"owning": {"label": "Owning"}, "retail": {"label": "Retail"}},
    "prices": {"g1": {"owning": 2.0, "retail": 4.0}},
}


def config(
    gpus: int,
    concurrency: int,
    throughput: float,
    tpot_ms: float,
    ttft_ms: float = 500.0,
    **extra: Any,
) -> dict:
    """One sweep config, as a site owner writes it."""
    return {
        "gpus": gpus,
        "concurrency": concurrency,
        "throughput_per_gpu": throughput,
        "ttft_ms": {"median": ttft_ms},
        "tpot_ms": {"median": tpot_ms},
        **extra,
    }


def sweep(
    date: str = "2026-10-01",
    engine: str = "vllm",
    precision: str = "fp8",
    model: str = "m1",
    gpu: str = "g1",
    workload: str = "chat",
    configs: list[dict] | None = None,
    **extra: Any,
) -> dict:
    return {
        "kind": "sweep",
        "source": "Lab",
        "date": date,
        "model": model,
        "gpu": gpu,
        "engine": engine,
        "precision": precision,
        "workload": workload,
        "configs": configs
        if configs is not None
        else [config(8, 64, 1000.0, 100.0), config(8, 16, 600.0, 25.0), config(8, 4, 200.0, 10.0)],
        **extra,
    }


SiteMaker = Callable[..., Path]


@pytest.fixture(scope="session", autouse=True)
def user_cache_folder(tmp_path_factory) -> Iterator[Path]:
    """The key that signs a build's cache (cachetrust) is kept in a folder of the test
    session, not in the home folder of whoever runs the tests."""
    from sitegen.cache import trust as cachetrust

    folder = tmp_path_factory.mktemp("xdg-cache")
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    cachetrust._key.cache_clear()
    yield folder
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before
    cachetrust._key.cache_clear()


@pytest.fixture
def make_site(tmp_path: Path) -> SiteMaker:
    """Write a site: runs maps a path under data/runs to a record (dict) or raw text."""

    def make(
        runs: dict[str, Any] | None = None, content: dict[str, str] | None = None, **overrides: Any
    ) -> Path:
        root = tmp_path / "site"
        root.mkdir(exist_ok=True)
        files = {
            "sitegen.yaml": overrides.get("config", SITE_CONFIG),
            "data/models.yaml": overrides.get("models", MODELS),
            "data/gpus.yaml": overrides.get("gpus", GPUS),
            "data/workloads.yaml": overrides.get("workloads", WORKLOADS),
            "data/pricing.yaml": overrides.get("pricing", PRICING),
        }
        for name, record in (runs if runs is not None else {"lab/run.yaml": sweep()}).items():
            files[f"data/runs/{name}"] = record
        for name, text in (content or {}).items():
            files[f"content/{name}"] = text
        for name, value in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            text = value if isinstance(value, str) else yaml.safe_dump(value, sort_keys=False)
            path.write_text(text, encoding="utf-8")
        return root

    return make


def chart_entries(folder: Path) -> dict[str, bytes]:
    """The chart cache's entries (charts/cache.py: packs and their indexes): key -> bytes."""
    out = {}
    for index in sorted(folder.glob("*.index")):
        pack = index.with_suffix(".pack").read_bytes()
        for key, offset, length in json.loads(index.read_text()):
            out[key] = pack[offset : offset + length]
    return out


def write_chart_entries(folder: Path, entries: dict[str, bytes]) -> None:
    """Make the chart cache hold `entries` (key -> bytes) and nothing else, in one pack, as a
    cache edited or restored from elsewhere would hold them."""
    for old in [*folder.glob("*.index"), *folder.glob("*.pack")]:
        old.unlink()
    rows, offset = [], 0
    for key, data in entries.items():
        rows.append([key, offset, len(data)])
        offset += len(data)
    (folder / "edited.pack").write_bytes(b"".join(entries.values()))
    (folder / "edited.index").write_text(json.dumps(rows))


def copy_flagship(root: Path) -> Path:
    """Copy the repository's own site (sitegen.yaml, data/, content/) into `root`."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "sitegen.yaml", root / "sitegen.yaml")
    shutil.copytree(REPO / "data", root / "data")
    if (REPO / "content").is_dir():
        shutil.copytree(REPO / "content", root / "content")
    return root


@pytest.fixture
def flagship(tmp_path: Path) -> Path:
    """A copy of the flagship site that a test may change."""
    return copy_flagship(tmp_path / "flagship")


@pytest.fixture(scope="session")
def flagship_files(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """The flagship built once in memory: its folder and output path -> bytes. Read only."""
    from sitegen.pipeline.build import render_site

    root = copy_flagship(tmp_path_factory.mktemp("flagship") / "site")
    files, _ = render_site(root)
    return root, files


class _Tables(HTMLParser):
    """Collects every <table> as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._depth = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> list[list[list[str]]]:
    """Every table of a page: a list of rows, each a list of cell texts."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    """A page's visible text with white space folded."""
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


# The preview server's tests (test_serve.py, test_serve_browser.py).

SERVE_FIXTURE = Path(__file__).parent / "fixtures" / "serve" / "site"


@pytest.fixture
def serve_site(tmp_path: Path) -> Path:
    """A copy of the small site in fixtures/serve/site, free to edit."""
    root = tmp_path / "serve-site"
    shutil.copytree(SERVE_FIXTURE, root)
    return root


@pytest.fixture
def wait_until() -> Callable[..., Any]:
    """Poll `condition` until it returns something true; fail after timeout_s."""
    import time

    def wait(condition: Callable[[], Any], timeout_s: float = 15.0, what: str = "") -> Any:
        deadline = time.monotonic() + timeout_s
        while True:
            result = condition()
            if result:
                return result
            if time.monotonic() > deadline:
                pytest.fail(f"gave up after {timeout_s} s waiting for {what or condition}")
            time.sleep(0.02)

    return wait


@pytest.fixture
def preview(serve_site: Path):
    """A running preview of serve_site on a free loopback port, stopped after the test."""
    from sitegen.serve import Preview

    server = Preview(serve_site, port=0)
    server.start()
    yield server
    server.stop()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by playwright; missing under CI=true is a failure, not a skip."""
    import os

    missing = []
    if not (shutil.which(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        missing.append(CHROMIUM)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing.append("the playwright package")
    if missing:
        what = " and ".join(missing) + " missing"
        if os.environ.get("CI"):
            pytest.fail(f"{what}; CI must install them (.ci/run)")
        pytest.skip(what)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


# Several GPUs for one model: the model page, comparisons and the charts that hold them.
# g1 has three engine x precision curves spreading over 10x in tokens/s per user and runs days
# apart (history); g2 has no price and only the default workload; g3 is priced and slower.
ARENA_GPUS = {
    "g1": {"name": "GPU One", "vendor": "Acme", "all_in_power_kw": 2.0},
    "g2": {"name": "GPU Two", "vendor": "Acme"},
    "g3": {"name": "GPU Three", "vendor": "Other"},
}
ARENA_PRICING = {
    "source": "Test TCO",
    "as_of": "2026-07",
    "tiers": {"owning": {"label": "Owning"}, "retail": {"label": "Retail"}},
    "prices": {"g1": {"owning": 2.0, "retail": 4.0}, "g3": {"owning": 1.0, "retail": 1.5}},
}


def arena_runs() -> dict[str, dict]:
    def c(tpot_ms: float, throughput: float, concurrency: int) -> dict:
        return config(8, concurrency, throughput, tpot_ms)

    runs = {
        "g1/vllm.yaml": sweep(
            gpu="g1", configs=[c(200, 3000, 256), c(50, 2000, 64), c(10, 600, 4)]
        ),
        "g1/sglang.yaml": sweep(
            gpu="g1",
            engine="sglang",
            precision="fp4",
            configs=[c(40, 2600, 128), c(15, 1500, 32), c(8, 300, 2)],
        ),
        "g1/trt.yaml": sweep(gpu="g1", engine="trt", configs=[c(100, 1200, 64), c(30, 700, 8)]),
        "g1/long.yaml": sweep(gpu="g1", workload="long", configs=[c(50, 900, 64), c(20, 400, 8)]),
        "g2/vllm.yaml": sweep(gpu="g2", configs=[c(100, 1500, 64), c(25, 800, 16)]),
        "g3/sglang.yaml": sweep(
            gpu="g3", engine="sglang", configs=[c(60, 2500, 64), c(20, 1400, 16), c(12, 500, 4)]
        ),
    }
    # g1's vLLM run before, a day apart, two days apart and a month before: history
    for date, scale in (("2026-09-28", 0.9), ("2026-09-29", 0.95), ("2026-08-30", 0.8)):
        runs[f"g1/vllm-{date}.yaml"] = sweep(
            gpu="g1",
            date=date,
            configs=[c(200, 3000 * scale, 256), c(50, 2000 * scale, 64), c(10, 600 * scale, 4)],
        )
    return runs


@pytest.fixture(scope="session")
def arena(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """A site of one model on three GPUs, built once in memory. Read only."""
    from sitegen.pipeline.build import render_site

    root = tmp_path_factory.mktemp("arena") / "site"
    files = {
        "sitegen.yaml": SITE_CONFIG,
        "data/models.yaml": MODELS,
        "data/gpus.yaml": ARENA_GPUS,
        "data/workloads.yaml": WORKLOADS,
        "data/pricing.yaml": ARENA_PRICING,
        **{f"data/runs/{name}": record for name, record in arena_runs().items()},
    }
    for name, value in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")
    built, _ = render_site(root)
    return root, built


@pytest.fixture(scope="session")
def arena_public(arena, tmp_path_factory) -> Path:
    """The arena's pages on disk, as a browser opens them. Read only."""
    out = tmp_path_factory.mktemp("arena-public")
    for name, body in arena[1].items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(body)
    return out


@pytest.fixture
def only_new_threads(monkeypatch):
    """forking.can_fork sees only the threads started after this (the suite leaves daemon
    threads of other tests behind, which a real build never has)."""
    import threading

    from sitegen import forking

    before = set(threading.enumerate()) - {threading.current_thread()}
    every = threading.enumerate
    monkeypatch.setattr(
        forking.threading, "enumerate", lambda: [t for t in every() if t not in before]
    )


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """`folder` served over HTTP on a free port of 127.0.0.1, as a static host serves it (a
    folder's address opens its index.html): the server's address, ending in /."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
