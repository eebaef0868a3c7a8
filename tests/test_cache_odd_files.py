"""A cache file that is not a regular file of bounded size (a link to /dev/zero, a FIFO) is
ignored with a warning, and the build's output is that of a clean build (issue 28)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import sitegen
from sitegen.cache.digests import file_digest
from sitegen.pipeline.build import build

SRC = str(Path(sitegen.__file__).parents[1])
RUN = "import sys; from sitegen.cli import main; sys.argv = ['sitegen'] + sys.argv[1:]; main()"


def _outputs(root: Path) -> dict[str, bytes]:
    out = root / "public"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _limit_memory() -> None:  # a build reading /dev/zero fails fast rather than fill the machine
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def _sitegen(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-c", RUN, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )


def _one(folder: Path, pattern: str) -> Path:
    (found,) = sorted(folder.glob(pattern))
    return found


PLACES = {
    "digests": lambda c, run: c / "digests.json",
    "jobs": lambda c, run: c / "jobs.json",
    "briefs": lambda c, run: c / "briefs.json",
    "output": lambda c, run: c / "output.json",
    "load index": lambda c, run: c / "loaded" / "index.json",
    "load segment": lambda c, run: _one(c / "loaded", "*.arrow"),
    "chart index": lambda c, run: _one(c / "charts", "*.index"),
    "chart pack": lambda c, run: _one(c / "charts", "*.pack"),
    "parsed": lambda c, run: c / "parsed" / f"{file_digest(run.read_bytes())}.json",
}


CASES = [(kind, "link") for kind in PLACES] + [
    (kind, "fifo") for kind in ("digests", "jobs", "chart index", "load segment")
]


@pytest.mark.parametrize(("kind", "odd"), CASES)
def test_an_odd_cache_file_is_ignored_with_a_warning(make_site, kind: str, odd: str) -> None:
    """A link to /dev/zero read whole fills memory, a FIFO waits for ever: neither is read."""
    root = make_site()
    build(root)
    clean = _outputs(root)
    cache = root / ".sitegen-cache"
    place = PLACES[kind](cache, root / "data/runs/lab/run.yaml")
    if kind == "parsed":  # the loader parses (and so reads this cache) on a load-cache miss
        (cache / "loaded" / "index.json").unlink()
        place.parent.mkdir(exist_ok=True)
    if kind in ("chart pack", "load segment"):
        # charts are drawn (and so looked up) for the pages rendered, and the runs loaded
        # (their segments read) for a whole plan: without the job records, the build makes
        # every page, however long ago the run files were last hashed
        (cache / "jobs.json").unlink()
    place.unlink(missing_ok=True)
    if odd == "link":
        place.symlink_to("/dev/zero")
    else:
        os.mkfifo(place)
    (root / "public" / "index.html").unlink()  # the build must write its pages again

    done = _sitegen("build", "--site", str(root))

    assert done.returncode == 0, done.stderr
    assert _outputs(root) == clean
    shown = place.relative_to(root).as_posix()
    assert f"{shown}: " in done.stderr and "(warning)" in done.stderr, done.stderr
    odd_files = [p for p in cache.rglob("*") if p.is_symlink() or p.is_fifo()]
    assert odd_files == []  # rebuilt: the next build reads a cache of its own
