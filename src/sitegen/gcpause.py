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
def paused(frozen: bool = False) -> Iterator[None]:
    """The collector off for the block, and back as it was after (also on an exception).

    With `frozen`, what the block made is frozen before the collector is back (gc.freeze):
    for objects that live until the build ends (the site loaded, the plan), which the first
    young collection after the block would otherwise walk one by one (all of them, as none
    was collected while paused: 20-50 ms after loading a 2,000-pair site). Only inside a
    build that thaws them when it ends (outputs.render_outputs), or a process that ends.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if frozen:
            gc.freeze()
        if was_enabled:
            gc.enable()
