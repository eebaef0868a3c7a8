"""What a progress report costs the build loop: ns per `step()`, quiet and with the bar drawing.

Run: python bench/progress.py. A build calls step() once per page rendered.
"""

from __future__ import annotations

import io
import timeit

from sitegen.pipeline.progress import Progress, ProgressBar

CALLS = 1_000_000


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def ns_per_step(progress: Progress) -> float:
    with progress:
        progress.phase("render", CALLS)
        best = min(timeit.repeat(progress.step, number=CALLS, repeat=5))
    return best / CALLS * 1e9


if __name__ == "__main__":
    print(f"quiet (not a terminal, CI):  {ns_per_step(Progress()):5.0f} ns per step()")
    bar = ProgressBar(Terminal(), delay_s=0)  # drawing from the start, ten times a second
    print(f"bar on a terminal, drawing:  {ns_per_step(bar):5.0f} ns per step()")
