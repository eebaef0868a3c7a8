"""What a rebuild must know before it can start, found by a child process beside it.

Two questions decide how much a rebuild does: did any input change (fingerprint.scan_inputs:
a walk and a stat of every site file, 0.4 s at 2,000 pairs), and which of the last build's
outputs are still on disk as it left them (Manifest.intact: 67,800 lstats, 0.25-0.45 s). Both
are answered by a child forked as soon as the last build's manifest is read, while this process
reads its job records and imports what making pages needs (numpy, pyarrow, the templates'
engine: 0.5 s); the machine's other core would idle otherwise. The child sends the scan and
the names of the outputs not intact (usually none) as JSON frames on a pipe; then it compiles
the site's templates for the pages the build will make (templatecode.py), and exits.

Where a process cannot be forked, or the child fails in any way, each question is answered here
when it is asked: the answers are the same either way.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
from pathlib import Path
from types import TracebackType

from .fingerprint import InputScan, scan_inputs
from .forking import can_fork
from .manifest import Manifest
from .records.problems import Problems
from .render import check_templates, environment
from .templatecode import Compiled, compile_all
from .writeall import write_all

FORK_MIN_FILES = 4096  # fewer outputs: both are answered here sooner than a child is heard
_LENGTH = 8  # bytes of a frame's length, before its JSON


def not_intact(manifest: Manifest) -> list[str]:
    """The manifest's files that are missing or changed since it was written."""
    return manifest.not_intact()


class Survey:
    """The site's inputs and the last build's outputs, looked at once; a context that ends the
    child if the build stops before asking.

    The child sends four frames: the inputs' digest (small), every file's digest (for the
    loader, which needs it before the next), the outputs not intact (with the digest, all a
    build with nothing to do needs: it never decodes the second), then the site's templates
    compiled (templatecode.py: for the pages to make). A frame is decoded when asked for.
    """

    def __init__(self, site_root: Path, options: str, manifest: Manifest, fork: bool = True):
        self.site_root = site_root
        self.options = options
        self.manifest = manifest
        self._heard: list[bytes] = []  # the child's frames so far, as it wrote them
        self._pending = bytearray()  # what it wrote of the next one
        self._child: tuple[int, int] | None = None  # (pid, the pipe's reading end)
        self._digest: tuple[str | None] | None = None
        self._changed: frozenset[str] | None = None
        self._scan: tuple[InputScan | None] | None = None
        if fork and len(manifest.entries) >= FORK_MIN_FILES and can_fork():
            self._child = _start_child(site_root, options, manifest)

    def __enter__(self) -> Survey:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def digest_ready(self) -> bool:
        """Whether digest() would answer at once."""
        if self._digest is not None or self._child is None:
            return True
        self._read(block=False)
        return bool(self._heard) or self._child is None

    def digest(self) -> str | None:
        """fingerprint.site_inputs of the site: the digest of everything a build reads."""
        if self._digest is None:
            frame = self._frame(0)
            if isinstance(frame, dict) and isinstance(frame.get("digest"), str):
                self._digest = (frame["digest"],)
            elif frame is _NULL:  # the child found a file that must not be read
                self._digest = (None,)
            else:
                scan = self.scan()
                self._digest = (scan.digest if scan is not None else None,)
        return self._digest[0]

    def changed(self) -> frozenset[str]:
        """The names of the last build's outputs that are missing or changed since."""
        if self._changed is None:
            names = self._frame(2)
            if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
                names = not_intact(self.manifest)
            self._changed = frozenset(names)
        return self._changed

    def intact(self, rel: str) -> bool:
        """Whether the last build's output `rel` is still as it left it."""
        if self._changed is None:
            self.changed()
        return rel in self.manifest.entries and rel not in self._changed

    def all_intact(self) -> bool:
        """Whether the last build left outputs, and every one is as it left it."""
        return bool(self.manifest.entries) and not self.changed()

    def scan(self, open_runs: bool = False) -> InputScan | None:
        """fingerprint.scan_inputs of the site, as the child found it, or as found here now:
        with `open_runs`, an open scan when no child looked (the loader finds the run files'
        digests as it reads them)."""
        if self._scan is None and open_runs and self._child is None and not self._heard:
            return scan_inputs(self.site_root, self.options, open_runs=True)
        if self._scan is None:
            head, files = self._frame(0), self._frame(1)
            scan = None
            if isinstance(head, dict):
                scan = InputScan.from_json({**head, "files": files})
            if scan is None and head is not _NULL:
                scan = scan_inputs(self.site_root, self.options)
            self._scan = (scan,)
        return self._scan[0]

    def compiled(self) -> Compiled | None:
        """The site's templates as the child compiled them (templatecode.compile_all); None
        if it did not (a template folder with a problem, or no child)."""
        frame = self._frame(3)
        self.close()  # all it had to say was said
        return frame if isinstance(frame, dict) else None

    def close(self) -> None:
        """End the child (killed if it is still at work: nothing it does is needed then)."""
        if self._child is None:
            return
        pid, fd = self._child
        self._child = None
        os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        _reap(pid)

    def _frame(self, index: int) -> object | None:
        """The child's frame `index`, decoded (_NULL for a JSON null); None if it did not send
        it, or sent what is not JSON."""
        while len(self._heard) <= index and self._child is not None:
            self._read(block=True)
        if index >= len(self._heard):
            return None
        try:
            value = json.loads(self._heard[index])
        except ValueError:
            return None
        return _NULL if value is None else value

    def _read(self, block: bool) -> None:
        """Take what the child wrote (waiting for some if `block`), frame by frame."""
        assert self._child is not None
        fd = self._child[1]
        if not block and not select.select([fd], [], [], 0)[0]:
            return
        try:
            chunk = os.read(fd, 1 << 20)
        except OSError:
            chunk = b""
        if not chunk:  # the child is done, or gone: what it did not send is found here
            self.close()
            return
        self._pending += chunk
        while len(self._pending) >= _LENGTH:
            size = int.from_bytes(self._pending[:_LENGTH], "big")
            if len(self._pending) < _LENGTH + size:
                break
            self._heard.append(bytes(self._pending[_LENGTH : _LENGTH + size]))
            del self._pending[: _LENGTH + size]


class _Null:
    """A frame that held JSON null: the scan found a file it must not read."""


_NULL = _Null()


def _start_child(site_root: Path, options: str, manifest: Manifest) -> tuple[int, int] | None:
    """Fork the child that scans the inputs and checks the outputs, writing to a pipe."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: these answers, then gone
        status = 1
        try:
            # a collection would walk (and so copy, page by page) the whole inherited heap
            gc.disable()
            os.close(read_end)
            scan = scan_inputs(site_root, options)
            head = {"digest": scan.digest, "plain": scan.plain} if scan is not None else None
            _send(write_end, head)
            _send(write_end, scan.files if scan is not None else None)
            _send(write_end, not_intact(manifest))
            # templates only from a site whose files may all be read (as the build checks)
            readable = scan is not None and not check_templates(site_root, Problems())
            _send(write_end, compile_all(environment(site_root)) if readable else None)
            status = 0
        finally:
            os._exit(status)  # no exit handlers, no buffers of the parent's flushed twice
    os.close(write_end)
    return pid, read_end


def _send(fd: int, value: object) -> None:
    data = json.dumps(value).encode()
    write_all(fd, len(data).to_bytes(_LENGTH, "big") + data)


def _reap(pid: int) -> int:
    """Wait for the child; its exit status (-1 when it did not exit by itself)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return -1
    return os.waitstatus_to_exitcode(status)
