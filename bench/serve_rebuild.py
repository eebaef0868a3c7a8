"""How fast `sitegen serve` shows an edit of the flagship site, against a full `sitegen build`.

Run: python bench/serve_rebuild.py [--reps N] [--profile]. Works on a temporary copy of the
repository's site (sitegen.yaml, data/, content/, templates/). Prints medians of N repetitions:

- full build: `sitegen build --out TMP` as an editor would run it (a new process: imports,
  build, write), and the same build in this process (render + write only);
- rebuild: the preview's in-memory build after one edited file, and the time from the save
  to the new build being served (watcher, 0.1 s quiet period, build), for an FAQ answer and
  for a run record;
- the ratios of each rebuild time to the full build.

--profile adds a cProfile of one in-memory rebuild, top functions by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sitegen.layout import SiteLayout
from sitegen.pipeline.build import build, render_site
from sitegen.serve import BuildReport, Preview

REPO = Path(__file__).resolve().parents[1]
SITE_PARTS = (SiteLayout.CONFIG, *SiteLayout.SOURCE_FOLDERS)


def copy_site(into: Path) -> Path:
    root = into / "site"
    root.mkdir()
    for name in SITE_PARTS:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name)
        elif source.is_file():
            shutil.copy(source, root / name)
    return root


def median_s(fn: Callable[[], float | None], reps: int) -> float:
    samples = []
    for _ in range(reps):
        started = time.perf_counter()
        measured = fn()
        samples.append(measured if measured is not None else time.perf_counter() - started)
    return statistics.median(samples)


def full_build_cli_s(site: Path, out: Path, reps: int) -> float:
    """`sitegen build` in a new process, as an editor would run it after each save."""
    command = [sys.executable, "-c", "from sitegen.cli import run; run()", "build"]
    command += ["--site", str(site), "--out", str(out)]

    def run() -> None:
        subprocess.run(command, check=True, capture_output=True)

    return median_s(run, reps)


def full_build_in_process_s(site: Path, out: Path, reps: int) -> float:
    build(site, out)  # warm: imports done, as in a long-running process

    def run() -> None:
        build(site, out)

    return median_s(run, reps)


class Edits:
    """Saves one file with new content each time and waits until the preview has rebuilt."""

    def __init__(self) -> None:
        self.built = threading.Event()
        self.last: BuildReport | None = None

    def on_build(self, report: BuildReport) -> None:
        self.last = report
        self.built.set()

    def save_and_wait(self, path: Path, text: str) -> tuple[float, float]:
        """(seconds from the save to the new build being served, seconds of the build)."""
        self.built.clear()
        started = time.perf_counter()
        path.write_text(text, encoding="utf-8")
        if not self.built.wait(30):
            raise SystemExit(f"no rebuild within 30 s after saving {path}")
        served_s = time.perf_counter() - started
        assert self.last is not None
        if self.last.snapshot.problems:
            raise SystemExit(f"the edit broke the build: {self.last.snapshot.problems[0]}")
        return served_s, self.last.seconds


def edited_texts(path: Path, kind: str) -> Callable[[int], str]:
    original = path.read_text(encoding="utf-8")
    if kind == "faq":
        return lambda i: original.rstrip("\n") + f"\n\nEdited for the benchmark, revision {i}.\n"
    old = "throughput_per_gpu: 16147"
    if old not in original:
        raise SystemExit(f"{path} no longer holds {old!r}: pick another edit")
    return lambda i: original.replace(old, f"throughput_per_gpu: {16147 + i + 1}")


def rebuild_times(site: Path, reps: int) -> dict[str, tuple[float, float]]:
    """Per kind of edit: (median save-to-served seconds, median build seconds)."""
    targets = {
        "faq": sorted((site / "content" / "faq").glob("*.md"))[0],
        "run": next((site / "data" / "runs").rglob("kimi-k3.1-pro-mi355x-sglang-fp4-*.yaml")),
    }
    results = {}
    edits = Edits()
    with Preview(site, port=0, on_build=edits.on_build):
        for kind, path in targets.items():
            text = edited_texts(path, kind)
            samples = [edits.save_and_wait(path, text(i)) for i in range(reps)]
            results[f"{kind}: {path.relative_to(site)}"] = (
                statistics.median(s for s, _ in samples),
                statistics.median(b for _, b in samples),
            )
    return results


def profile(site: Path) -> None:
    render_site(site)  # warm: imports and caches, as in a running preview
    profiler = cProfile.Profile()
    profiler.enable()
    render_site(site)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = copy_site(Path(tmp))
        out = Path(tmp) / "out"
        cli_s = full_build_cli_s(site, out, args.reps)
        in_process_s = full_build_in_process_s(site, out, args.reps)
        rebuilds = rebuild_times(site, args.reps)
        print(f"flagship site, {len(render_site(site)[0])} output files, medians of {args.reps}")
        print(f"full build, `sitegen build` process:   {cli_s * 1000:8.1f} ms")
        print(f"full build, in process (render+write): {in_process_s * 1000:8.1f} ms")
        for what, (served_s, build_s) in rebuilds.items():
            print(f"edit {what}")
            print(
                f"  rebuild in memory:   {build_s * 1000:8.1f} ms"
                f"   ratio to process build {build_s / cli_s:5.2f}, "
                f"to in-process build {build_s / in_process_s:5.2f}"
            )
            print(
                f"  save -> new page served: {served_s * 1000:8.1f} ms"
                f"   ratio to process build {served_s / cli_s:5.2f}"
            )
        if args.profile:
            profile(site)


if __name__ == "__main__":
    main()
