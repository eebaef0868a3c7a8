"""Which of the last build's outputs are still on disk as it left them, found beside the build.

A rebuild keeps the files of every job whose key did not change, if they are still as the last
build left them (Manifest.intact: an lstat each). At 2,000 pairs that is 67,800 lstats, about
0.45 s of a one-edit build, spent while the machine's other core idles. So a child process,
forked as soon as the manifest is read, makes them while the build reads its inputs, loads
and plans, and sends back the names of the files that are not intact (usually none). Where a
process cannot be forked, or the child fails in any way, the checks are made here instead:
the answer is the same either way.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from types import TracebackType

from .forking import can_fork
from .manifest import Manifest

FORK_MIN_FILES = 4096  # fewer are checked here sooner than a process is forked and heard


def not_intact(manifest: Manifest) -> list[str]:
    """The manifest's files that are missing or changed since it was written."""
    return [rel for rel in manifest.entries if manifest.intact(rel) is None]


class IntactOutputs:
    """The last build's outputs and which of them are intact; a context that ends the child."""

    def __init__(self, manifest: Manifest, fork: bool = True) -> None:
        self.manifest = manifest
        self._changed: frozenset[str] | None = None
        self._child: tuple[int, int] | None = None  # (pid, the pipe's reading end)
        if fork and len(manifest.entries) >= FORK_MIN_FILES and can_fork():
            self._child = _start_child(manifest)

    def __enter__(self) -> IntactOutputs:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def intact(self, rel: str) -> bool:
        """Whether the last build's output `rel` is still as it left it."""
        return rel in self.manifest.entries and rel not in self.changed()

    def all_intact(self) -> bool:
        """Whether the last build left outputs, and every one is as it left it."""
        return bool(self.manifest.entries) and not self.changed()

    def changed(self) -> frozenset[str]:
        """The names of the outputs that are missing or changed (the child's answer, if any)."""
        if self._changed is None:
            heard = self._hear_child() if self._child is not None else None
            self._changed = frozenset(heard if heard is not None else not_intact(self.manifest))
        return self._changed

    def close(self) -> None:
        """End a child whose answer was never asked for (the build stopped before)."""
        if self._child is None:
            return
        pid, fd = self._child
        self._child = None
        os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        _reap(pid)

    def _hear_child(self) -> list[str] | None:
        """The child's list, or None if it failed to give one."""
        assert self._child is not None
        pid, fd = self._child
        self._child = None
        chunks = []
        try:
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
        except OSError:
            chunks = []
        finally:
            os.close(fd)
        if _reap(pid) != 0 or not chunks:
            return None
        try:
            names = json.loads(b"".join(chunks))
        except ValueError:
            return None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return None
        return names


def _start_child(manifest: Manifest) -> tuple[int, int] | None:
    """Fork a child that checks every file of `manifest` and writes the list to a pipe."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: nothing of the build's but this list, then gone
        status = 1
        try:
            os.close(read_end)
            view = memoryview(json.dumps(not_intact(manifest)).encode())
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)  # no exit handlers, no buffers of the parent's flushed twice
    os.close(write_end)
    return pid, read_end


def _reap(pid: int) -> int:
    """Wait for the child; its exit status (-1 when it did not exit by itself)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return -1
    return os.waitstatus_to_exitcode(status)
