"""Worker processes are forked only where no thread but the progress bar's runs beside ours:
the preview's server and watcher (or any library's thread) could hold a lock at the fork."""

from __future__ import annotations

import io
import multiprocessing
import threading

import pytest

from sitegen import forking
from sitegen.pipeline import making
from sitegen.pipeline.progress import ProgressBar

FORK = "fork" in multiprocessing.get_all_start_methods()


@pytest.fixture
def alone(monkeypatch, only_new_threads):
    monkeypatch.setattr(making.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)


def test_forks_with_no_other_thread(alone) -> None:
    assert forking.can_fork() == FORK
    assert making.workers_for(10**6) == (2 if FORK else 1)


def test_forks_beside_the_progress_bar_ticker(alone) -> None:
    """A build on a terminal draws its bar from a thread of its own: it still uses every core."""
    with ProgressBar(io.StringIO()):
        assert any(t.name == "sitegen-progress" for t in threading.enumerate())
        assert forking.can_fork() == FORK
        assert making.workers_for(10**6) == (2 if FORK else 1)


def test_never_forks_beside_another_thread(alone) -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, name="a-server")
    other.start()
    try:
        assert not forking.can_fork()
        assert making.workers_for(10**6) == 1
    finally:
        stop.set()
        other.join()
