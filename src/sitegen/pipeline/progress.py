"""How far a build is: phases (load, compute, make or cards, charts, render; write) and steps done.

`Progress` is quiet and only keeps the time (library use, tests, CI); `ProgressBar` draws one
line on a terminal once the build has run for two seconds. `for_terminal()` picks one; both
cost next to nothing per report, so a build reports every page.

    with for_terminal() as progress:
        progress.phase("render", len(pages))
        for page in pages:
            ...
            progress.step()
    print(f"done in {took(progress.seconds)}")
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from ..forking import TICKER

Clock = Callable[[], float]

BAR_WIDTH = 30


def took(seconds: float) -> str:
    """A build's duration as the console says it: 1.2 s."""
    return f"{seconds:.1f} s"


class Progress:
    """Quiet: takes every report at almost no cost, draws nothing, keeps the elapsed time."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self._seconds: float | None = None

    def phase(self, name: str, total: int = 0) -> None:
        """A new phase begins; `total` is how many steps it has (0: not counted)."""

    def step(self) -> None:
        """One more step of the phase done (a page rendered): called per page, so cheap."""

    def close(self) -> None:
        """The build is over: the elapsed time stops; a drawn line is cleared."""
        if self._seconds is None:
            self._seconds = self.clock() - self.started

    @property
    def seconds(self) -> float:
        """Time from creation to close (or until now, while still open)."""
        return self._seconds if self._seconds is not None else self.clock() - self.started

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class ProgressBar(Progress):
    """One line on `stream`, redrawn in place: phase, count/total, a bar, seconds so far.

    Reports only set counters; the line is drawn by `tick()`, which a background thread calls
    every `interval_s` once the bar is entered (`with`), so that the seconds go on counting
    through a long phase without steps. Nothing is drawn before `delay_s` (a fast build
    prints only its summary); leaving the `with` clears the line.
    """

    def __init__(
        self,
        stream: TextIO,
        clock: Clock = time.monotonic,
        delay_s: float = 2.0,
        interval_s: float = 0.1,
    ) -> None:
        super().__init__(clock)
        self.stream = stream
        self.delay_s = delay_s
        self.interval_s = interval_s
        self.current = ("", 0)  # (phase, total), replaced as one: the ticker reads it
        self.done = 0
        self._due = self.started + delay_s  # the next draw is not before this moment
        self._width = 0  # of the line on screen; 0 when none is
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def phase(self, name: str, total: int = 0) -> None:
        self.done = 0
        self.current = (name, total)

    def step(self) -> None:
        self.done += 1

    def tick(self) -> None:
        """Redraw the line if it is due (the ticker's call; tests call it with their clock)."""
        now = self.clock()
        if now >= self._due and self.current[0]:  # nothing to say before the first phase
            self._draw(now)

    def line(self, now: float) -> str:
        """What the line says at `now`: `render   1234/20000 [#########.....] 12.3 s`."""
        (name, total), done = self.current, self.done
        elapsed = took(now - self.started)
        if not total:
            return f"{name:<8} {elapsed}"
        filled = BAR_WIDTH * min(done, total) // total
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        return f"{name:<8} {done}/{total} [{bar}] {elapsed}"

    def close(self) -> None:
        super().close()
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        if self._width:
            with contextlib.suppress(OSError, ValueError):  # a closed terminal fails no build
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            self._width = 0

    def __enter__(self) -> ProgressBar:
        self._ticker = threading.Thread(target=self._tick_until_closed, name=TICKER, daemon=True)
        self._ticker.start()
        return self

    def _tick_until_closed(self) -> None:
        try:
            while not self._stop.wait(self.interval_s):
                self.tick()
        except (OSError, ValueError):  # the terminal went away: the build goes on regardless
            return

    def _draw(self, now: float) -> None:
        text = self.line(now)
        # padded to the last line's width, so that nothing of a longer one is left over
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = max(self._width, len(text))
        self._due = now + self.interval_s


def for_terminal(
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
    clock: Clock = time.monotonic,
) -> Progress:
    """A bar on `stream` (default stderr) when it is a terminal and CI is not set, else quiet."""
    stream = stream if stream is not None else sys.stderr
    environ = environ if environ is not None else os.environ
    in_ci = environ.get("CI", "").strip().lower() not in ("", "0", "false")
    if in_ci or not _is_terminal(stream):
        return Progress(clock)
    return ProgressBar(stream, clock)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
