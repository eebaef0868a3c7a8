"""The build's progress line: quiet off a terminal, in CI and for fast builds; one line else."""

from __future__ import annotations

import io
import re
import threading
from collections import Counter

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.pipeline.build import build
from sitegen.pipeline.progress import Progress, ProgressBar, for_terminal

LINE = "render   50/200 [#######.......................] 2.0 s"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def at(self, seconds_since_start: float) -> None:
        self.now = 100.0 + seconds_since_start


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def bar(clock: Clock) -> ProgressBar:
    return ProgressBar(Terminal(), clock)


def text(bar: ProgressBar) -> str:
    stream = bar.stream
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


def a_whole_build(progress: Progress, clock: Clock, pages: int = 200) -> None:
    progress.phase("load")
    clock.at(3.0)
    progress.phase("render", pages)
    for _ in range(pages):
        progress.step()
    clock.at(5.0)
    progress.close()


# Which reporter --------------------------------------------------------------------------------


def test_quiet_when_the_stream_is_not_a_terminal(clock: Clock) -> None:
    stream = io.StringIO()
    progress = for_terminal(stream, environ={}, clock=clock)
    assert type(progress) is Progress
    a_whole_build(progress, clock)
    assert stream.getvalue() == ""
    assert progress.seconds == 5.0


@pytest.mark.parametrize("ci", ["true", "1", "yes"])
def test_quiet_when_ci_is_set(clock: Clock, ci: str) -> None:
    stream = Terminal()
    progress = for_terminal(stream, environ={"CI": ci}, clock=clock)
    assert type(progress) is Progress
    a_whole_build(progress, clock)
    assert stream.getvalue() == ""


@pytest.mark.parametrize("environ", [{}, {"CI": ""}, {"CI": "false"}, {"CI": "0"}])
def test_a_bar_on_a_terminal_outside_ci(environ: dict[str, str]) -> None:
    assert type(for_terminal(Terminal(), environ=environ)) is ProgressBar


# Drawing ---------------------------------------------------------------------------------------


def test_nothing_is_drawn_before_two_seconds(bar: ProgressBar, clock: Clock) -> None:
    bar.phase("load")
    clock.at(1.0)
    bar.tick()
    bar.phase("render", 200)
    for _ in range(200):
        bar.step()
    clock.at(1.99)
    bar.tick()
    bar.close()
    assert text(bar) == ""


def test_after_two_seconds_the_line_shows_phase_count_bar_and_seconds(
    bar: ProgressBar, clock: Clock
) -> None:
    bar.phase("render", 200)
    for _ in range(50):
        bar.step()
    clock.at(2.0)
    bar.tick()
    assert text(bar) == "\r" + LINE


def test_a_phase_without_a_count_shows_its_name_and_seconds(bar: ProgressBar, clock: Clock) -> None:
    bar.phase("load")
    clock.at(2.34)
    bar.tick()
    assert text(bar) == "\rload     2.3 s"


def test_redrawn_at_most_ten_times_a_second(bar: ProgressBar, clock: Clock) -> None:
    bar.phase("render", 200)
    clock.at(2.0)
    bar.tick()
    for when in (2.01, 2.05, 2.09):
        bar.step()
        clock.at(when)
        bar.tick()
    clock.at(2.1)
    bar.tick()
    assert text(bar) == (
        "\rrender   0/200 [..............................] 2.0 s"
        "\rrender   3/200 [..............................] 2.1 s"
    )


def test_a_shorter_line_covers_the_longer_one_before_it(bar: ProgressBar, clock: Clock) -> None:
    bar.phase("render", 200)
    clock.at(2.0)
    bar.tick()
    bar.phase("write")
    clock.at(2.5)
    bar.tick()
    first = "\rrender   0/200 [..............................] 2.0 s"
    assert text(bar) == first + "\r" + "write    2.5 s".ljust(len(first) - 1)


def test_closing_clears_the_line_and_stops_the_time(bar: ProgressBar, clock: Clock) -> None:
    bar.phase("render", 200)
    for _ in range(50):
        bar.step()
    clock.at(2.0)
    bar.tick()
    clock.at(2.5)
    bar.close()
    cleared = "\r" + LINE + "\r" + " " * len(LINE) + "\r"
    assert text(bar) == cleared
    clock.at(9.0)
    bar.close()  # twice is harmless
    assert text(bar) == cleared
    assert bar.seconds == 2.5


def test_the_ticker_draws_while_the_build_is_busy() -> None:
    drawn = threading.Event()

    class Watched(Terminal):
        def write(self, s: str) -> int:
            if "load" in s:
                drawn.set()
            return super().write(s)

    stream = Watched()
    with ProgressBar(stream, delay_s=0, interval_s=0.01) as bar:
        bar.phase("load")  # and no step: only the ticker draws
        assert drawn.wait(5)
    assert re.fullmatch(r"(\rload +\d+\.\d s)+\r +\r", stream.getvalue())  # drawn, then cleared


# In a build ------------------------------------------------------------------------------------


def test_a_build_reports_its_phases_and_every_page(make_site, tmp_path) -> None:
    class Recorder(Progress):
        def __init__(self) -> None:
            super().__init__()
            self.phases: list[tuple[str, int]] = []
            self.steps: Counter[str] = Counter()

        def phase(self, name: str, total: int = 0) -> None:
            self.phases.append((name, total))

        def step(self) -> None:
            self.steps[self.phases[-1][0]] += 1

    recorder = Recorder()
    result = build(make_site(), tmp_path / "out", progress=recorder)
    pages = result.pages
    assert pages == len(list((tmp_path / "out").rglob("*.html")))
    cards = len(list((tmp_path / "out").rglob("social.png")))
    drawn = recorder.phases[3][1]
    assert recorder.phases == [
        ("load", 0),
        ("compute", 0),
        ("cards", cards),
        ("charts", drawn),
        ("render", pages),
        ("search", 0),  # the search index, after all pages
        ("write", 0),
    ]
    assert cards >= 1 and drawn >= 1  # the site has a pair page, its card and its chart
    assert recorder.steps == {"cards": cards, "charts": drawn, "render": pages}


def test_sitegen_build_says_how_long_it_took(make_site, tmp_path) -> None:
    result = CliRunner().invoke(main, ["build", "--site", str(make_site())])
    assert result.exit_code == 0
    line = r"built \d+ pages, \d+ files into \S+ in \d+\.\d s \(\d+ written, 0 unchanged\)\n"
    assert re.fullmatch(line, result.stdout)
    assert "\r" not in result.output  # not a terminal: no bar
