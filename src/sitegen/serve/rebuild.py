"""Rebuilding in memory after a change: debounced, never fatal, the last good site kept."""

from __future__ import annotations

import queue
import secrets
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from ..pipeline.jobcache import JobRecord
from ..pipeline.search import InMemory
from ..pipeline.stages import Memo, Reuse, render_outputs
from ..records import Problem, Problems, SiteError
from .state import SiteState, Snapshot


@dataclass(frozen=True)
class BuildReport:
    """What one rebuild did, for the console."""

    snapshot: Snapshot
    seconds: float
    changed_files: int  # output files added, removed or with other bytes than before
    warnings: tuple[Problem, ...]
    trigger: tuple[str, ...]  # the changed input paths (site-relative); empty for the first build


def base_path(base_url: str) -> str:
    """The URL path of the site's base_url ("/leaderboard/"), where the site is served; "/"
    when it has none."""
    try:
        path = urlsplit(base_url).path
    except ValueError:
        path = ""
    parts = [part for part in path.split("/") if part]
    return "/" + "".join(part + "/" for part in parts)


def crash_problems(exc: BaseException) -> list[Problem]:
    """A build that crashed (a bug in sitegen, not in the site) as a problem to show.

    Mistakes in the site, its templates included, reach the preview as SiteError problems.
    """
    return [Problem("sitegen", None, type(exc).__name__, f"the build crashed: {exc}")]


def changed_count(old: dict[str, bytes], new: dict[str, bytes], made: Iterable[str]) -> int:
    """Files added, removed or with other bytes than before; only those `made` anew can be
    of the last two kinds (the others are the last build's, kept)."""
    gone = len(old.keys() - new.keys())
    return gone + sum(1 for name in made if old.get(name) != new[name])


class Rebuilder:
    """Builds the site into a SiteState; after changes, waits for quiet, then builds once."""

    def __init__(
        self,
        site_root: Path,
        state: SiteState,
        on_build: Callable[[BuildReport], None] = lambda report: None,
        quiet_s: float = 0.1,
        max_wait_s: float = 2.0,
    ) -> None:
        self.site_root = site_root
        self.state = state
        self.on_build = on_build
        self.quiet_s = quiet_s
        self.max_wait_s = max_wait_s
        self.builds = 0
        self._instance = secrets.token_hex(4)  # a restarted server never reuses a version
        self._changes: queue.Queue[set[str] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._records: dict[str, JobRecord] = {}  # the jobs of the last good build
        self._checked: str | None = None  # the digest of its output paths, which passed
        self._memo = Memo()  # the load cache and the summaries of unchanged pairs, in memory

    def build_now(self, trigger: Iterable[str] = (), parallel: bool = False) -> BuildReport:
        """Build at once and publish the outcome; the last good files stay on failure.
        With `parallel`, a big build makes its pages on every core (only while no other
        thread runs: the first build, before the watcher and the server start)."""
        previous = self.state.current()
        started = time.perf_counter()
        warnings: tuple[Problem, ...] = ()
        try:
            files, made, found, base_url = self._render(previous.files, parallel, trigger)
        except SiteError as exc:
            problems = sorted(exc.problems, key=lambda p: p.severity != "error")
            snapshot = replace(previous, problems=tuple(problems))
            changed = 0
        except Exception as exc:  # a preview must survive any one bad build
            traceback.print_exc()  # a bug in sitegen, not in the site: keep its trace
            snapshot = replace(previous, problems=tuple(crash_problems(exc)))
            changed = 0
        else:
            warnings = tuple(found.warnings)
            changed = changed_count(previous.files, files, made)
            version = previous.version
            if changed or not version:
                version = f"{self._instance}-{self.builds + 1}"
            snapshot = Snapshot(files, base_path(base_url), version, ())
        seconds = time.perf_counter() - started
        self.builds += 1
        snapshot = self.state.publish(snapshot)
        report = BuildReport(snapshot, seconds, changed, warnings, tuple(sorted(trigger)))
        self.on_build(report)
        return report

    def _render(
        self, last: dict[str, bytes], parallel: bool = False, trigger: Iterable[str] = ()
    ) -> tuple[dict[str, bytes], list[str], Problems, str]:
        """The site's files, the names of those made anew, the problems and the base_url; a
        page whose inputs did not change since the last good build is not made again: its
        bytes are that build's. The `trigger`'s paths, what the watcher saw change since the
        last build (none: the first, and everything is looked at), spare the loader a look
        at the others."""
        # `last` holds every output of the records it came with: nothing to look for
        reuse = Reuse(self._records, None, self._checked)
        changed = set(trigger) or None
        rendered = render_outputs(
            self.site_root,
            reuse=reuse,
            parallel=parallel,
            memo=self._memo,
            changed=changed,
            outputs=InMemory(last),  # the pages kept, for the search index
        )
        files = dict(last)  # the kept ones as they were: a copy, then what changed (67,800)
        for rel in last.keys() - rendered.files.keys():
            del files[rel]
        files.update(rendered.fresh)
        self._records, self._checked = rendered.jobs, rendered.checked
        return files, list(rendered.fresh), rendered.problems, rendered.base_url

    def notify(self, changes: set[str]) -> None:
        """Called by the watcher, from any thread, with site-relative paths that changed."""
        self._changes.put(set(changes))

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="sitegen-rebuild", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._changes.put(None)
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while True:
            first = self._changes.get()
            if first is None:
                return
            batch = self._settle(first)
            if batch is None:
                return
            self.build_now(batch)

    def _settle(self, batch: set[str]) -> set[str] | None:
        """Gather changes until quiet_s pass without one (at most max_wait_s): one build."""
        deadline = time.monotonic() + self.max_wait_s
        while (left_s := deadline - time.monotonic()) > 0:
            try:
                more = self._changes.get(timeout=min(self.quiet_s, left_s))
            except queue.Empty:
                break
            if more is None:
                return None
            batch |= more
        return batch
