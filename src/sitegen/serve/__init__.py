"""Preview server: builds the site in memory, serves it, rebuilds on change, reloads the pages.

    with Preview(Path("site"), port=0) as preview:   # port 0: any free port
        print(preview.url)

Parts: `state` (the last good build and the latest problems), `rebuild` (debounced in-memory
builds), `watch` (watchfiles on the site's inputs), `routes` (which bytes answer which URL),
`server` (the threading server and the Server-Sent Events stream), `livereload.js` (the page side).
public/ is never read or written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ..records.fingerprint import site_inputs
from .rebuild import BuildReport, Rebuilder
from .server import PreviewServer
from .state import SiteState, Snapshot
from .watch import SiteWatcher

WATCH_READY_S = 10.0
PREVIEW_OPTIONS = "preview"  # site_inputs' options: the same before and after the first build
DURING_FIRST = "(files edited during the first build)"  # a rebuild's trigger, as shown

__all__ = ["BuildReport", "Preview", "Snapshot"]


class Preview:
    """The whole preview: first build, server, watcher and rebuilder, started and stopped as one."""

    def __init__(
        self,
        site_root: Path,
        host: str = "127.0.0.1",
        port: int = 8000,
        on_build: Callable[[BuildReport], None] = lambda report: None,
        quiet_s: float = 0.1,
    ) -> None:
        self.site_root = Path(site_root)
        self.host = host
        self.state = SiteState()
        self.rebuilder = Rebuilder(self.site_root, self.state, on_build, quiet_s=quiet_s)
        self.watcher = SiteWatcher(self.site_root, self.rebuilder.notify)
        self.server = PreviewServer((host, port), self.state)  # binds now: errors come early
        self._serving: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def url(self) -> str:
        """Where the site's home page is served (under the path of its base_url)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{self.state.current().base_path}"

    def start(self) -> BuildReport:
        """Build once, then serve and watch in background threads; back once all are ready.

        The first build runs before any other thread, so a big site's is made on every core
        (worker processes are forked only from a process with one thread); an edit made while
        it ran is found by comparing the site's inputs before and after, and rebuilt.
        """
        before = site_inputs(self.site_root, PREVIEW_OPTIONS)
        first = self.rebuilder.build_now(parallel=True)
        self.watcher.start()
        self.rebuilder.start()
        if not self.watcher.wait_ready(WATCH_READY_S):
            raise RuntimeError(f"the file watcher did not start within {WATCH_READY_S} s")
        after = site_inputs(self.site_root, PREVIEW_OPTIONS)
        if before is None or after != before:  # changed (or unreadable) while it was built
            self.rebuilder.notify({DURING_FIRST})
        self._serving = threading.Thread(
            target=self.server.serve_forever, args=(0.1,), name="sitegen-serve", daemon=True
        )
        self._serving.start()
        return first

    def stop(self) -> None:
        """Stop watching, end every event stream, close the socket and wait for the threads."""
        self.watcher.stop()
        self.rebuilder.stop()
        self.state.close()
        if self._serving is not None:
            self.server.shutdown()
            self._serving.join()
        self.server.server_close()

    def __enter__(self) -> Preview:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
