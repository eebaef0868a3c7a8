"""Watching a site's inputs: sitegen.yaml, data/, content/ and templates/ (with watchfiles)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import watchfiles

from ..layout import SiteLayout

READY_PROBE_MS = 250  # an idle watch wakes this often; its first wake-up proves it is in place


class _Either:
    """Stops a watchfiles loop when either event is set (it asks only `is_set`)."""

    def __init__(self, *events: threading.Event) -> None:
        self._events = events

    def is_set(self) -> bool:
        return any(event.is_set() for event in self._events)


class SiteWatcher:
    """Reports changed input paths (relative to the site) to `on_change`.

    Two watchers: the site folder itself without recursion (sitegen.yaml, and the input
    folders appearing or vanishing), and the input folders recursively. Watching the whole
    site folder recursively would also put watches on .git/, public/ and virtualenvs.
    """

    def __init__(self, site_root: Path, on_change: Callable[[set[str]], None]) -> None:
        self.site_root = site_root.resolve()
        self.on_change = on_change
        self._stop = threading.Event()
        self._refolder = threading.Event()  # an input folder appeared or vanished
        self._threads: list[threading.Thread] = []
        self._ready = [threading.Event(), threading.Event()]  # top, folders
        self.watched_folders: tuple[str, ...] = ()  # those whose watch is in place now

    def start(self) -> None:
        """Start both watchers in threads; `wait_ready` tells when they see changes."""
        for target, name in ((self._watch_top, "top"), (self._watch_folders, "folders")):
            thread = threading.Thread(target=target, name=f"sitegen-watch-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def wait_ready(self, timeout_s: float) -> bool:
        """True once both watchers are in place (a change made before may go unseen)."""
        return all(event.wait(timeout_s) for event in self._ready)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()

    def _relative(self, changes: set[tuple[watchfiles.Change, str]]) -> set[str]:
        return {Path(path).relative_to(self.site_root).as_posix() for _, path in changes}

    def _top_level(self, change: watchfiles.Change, path: str) -> bool:
        """sitegen.yaml, and input folders appearing or vanishing (their files: the other watch)."""
        name = Path(path).name
        if name in SiteLayout.SOURCE_FOLDERS:
            return change in (watchfiles.Change.added, watchfiles.Change.deleted)
        return name == SiteLayout.CONFIG

    def _watch_top(self) -> None:
        for changes in watchfiles.watch(
            self.site_root,
            watch_filter=self._top_level,
            recursive=False,
            stop_event=self._stop,
            raise_interrupt=False,
            rust_timeout=READY_PROBE_MS,
            yield_on_timeout=True,
        ):
            self._ready[0].set()
            if not changes:
                continue
            names = self._relative(changes)
            if names & set(SiteLayout.SOURCE_FOLDERS):
                self._refolder.set()
            self.on_change(names)

    def _watch_folders(self) -> None:
        while not self._stop.is_set():
            self._refolder.clear()
            self.watched_folders = ()
            folders = [self.site_root / name for name in SiteLayout.SOURCE_FOLDERS]
            existing = [folder for folder in folders if folder.is_dir()]
            if not existing:
                self._ready[1].set()
                self._refolder.wait(0.5)
                continue
            try:
                for changes in watchfiles.watch(
                    *existing,
                    stop_event=_Either(self._stop, self._refolder),
                    raise_interrupt=False,
                    rust_timeout=READY_PROBE_MS,
                    yield_on_timeout=True,
                ):
                    self.watched_folders = tuple(folder.name for folder in existing)
                    self._ready[1].set()
                    if changes:
                        self.on_change(self._relative(changes))
            except FileNotFoundError:  # a folder vanished while the watch started: look again
                self._stop.wait(0.1)
