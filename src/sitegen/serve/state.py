"""What the preview server shows: the last good build and the problems of the latest one."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

from ..records import Problem


@dataclass(frozen=True)
class Snapshot:
    """One moment of the preview: served files, where they are mounted, and what went wrong."""

    files: dict[str, bytes] = field(default_factory=dict)  # last good build; empty before one
    base_path: str = "/"  # the URL path the site is served under, from base_url
    version: str = ""  # names `files`: changes exactly when the served bytes change
    problems: tuple[Problem, ...] = ()  # of the latest build; empty when it succeeded
    token: int = 0  # changes on every new snapshot, so listeners can tell they missed nothing

    @property
    def ok(self) -> bool:
        return not self.problems


class SiteState:
    """The current Snapshot, shared by the builder thread and every request thread."""

    def __init__(self, snapshot: Snapshot | None = None) -> None:
        self._snapshot = snapshot or Snapshot()
        self._changed = threading.Condition()
        self._closed = False

    def current(self) -> Snapshot:
        return self._snapshot

    @property
    def closed(self) -> bool:
        return self._closed

    def publish(self, snapshot: Snapshot) -> Snapshot:
        """Make `snapshot` current and wake everyone waiting for a change."""
        with self._changed:
            snapshot = replace(snapshot, token=self._snapshot.token + 1)
            self._snapshot = snapshot
            self._changed.notify_all()
        return snapshot

    def wait_for_change(self, seen_token: int, timeout_s: float) -> Snapshot:
        """The current snapshot once its token differs from `seen_token`, or after timeout_s."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._closed or self._snapshot.token != seen_token, timeout_s
            )
            return self._snapshot

    def close(self) -> None:
        """Release every waiter for good: the server is shutting down."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
