"""Whether this process may fork worker processes now (the loader's pool, the makers').

A child inherits a copy of every lock as it was at the fork: one that another thread held then
(the preview's server or file watcher, a library's own threads) stays held in the child for
good. So workers are forked only where the start method exists and no thread runs beside this
one but the progress bar's ticker, which only redraws a line of the terminal now and then.
"""

from __future__ import annotations

import multiprocessing
import threading

TICKER = "sitegen-progress"  # the name of the progress bar's redrawing thread


def can_fork() -> bool:
    """Whether worker processes can be forked here, inheriting what this process holds."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    here = threading.current_thread()
    return all(t is here or t.name == TICKER for t in threading.enumerate())
