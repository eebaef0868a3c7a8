"""Writing all of a buffer to a file descriptor: os.write may write less than it is given."""

from __future__ import annotations

import os


def write_all(fd: int, data: bytes | memoryview) -> None:
    """Every byte of `data` to `fd`, however many calls of os.write it takes (a pipe takes
    64 KB at a time; a disk may take less than asked when it fills or a signal comes)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
