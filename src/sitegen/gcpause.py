"""Python's cycle collector paused while a step makes many objects and no cycles.

A full collection walks every object alive, so one that runs while a big site is loaded, or
while a build's records (67,000 entries at 2,000 pairs) are read or written, costs more than
the step itself. Steps that make no cycles run with it paused; what they drop is freed by
reference counting as before.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block, and back as it was after (also on an exception)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
