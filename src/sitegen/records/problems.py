"""Problems found in a site's input: errors fail a build, warnings only with --strict."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

import click

from .names import forbidden


def plural(n: int, noun: str) -> str:
    """'1 warning', '3 warnings'."""
    return f"{n} {noun}{'s' * (n != 1)}"


ERROR = "error"
WARNING = "warning"
NOTE = "note"  # worth a look, never a failure, even with --strict (sitegen check lists them)
MAX_SHOWN = 200  # characters of a bad value quoted in a message


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def shown(text: str) -> str:
    """`text` safe to print on a line of its own: every character a name may not carry
    (names.forbidden: controls, invisible, bidirectional, separators, surrogates) and every
    unassigned one written as an escape (`\\n`, `\\x1b`, `\\u202e`), so a key or value from
    the data can neither start a line (a CI `::error` command) nor drive a terminal."""
    if text.isprintable():
        return text
    return "".join(
        _escaped(ch) if forbidden(ch) or unicodedata.category(ch) == "Cn" else ch for ch in text
    )


def describe(value: Any) -> str:
    """Show a bad value the way the reader typed it: strings quoted, None as null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if len(value) > MAX_SHOWN:  # a message quotes a value, it does not reprint a file
            return f'"{shown(value[:MAX_SHOWN])}..." ({len(value):,} characters)'
        return '"' + shown(value) + '"'
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float) and value != value:
        return "NaN (not a number)"
    if isinstance(value, float) and value == float("-inf"):
        return "-infinity"
    if isinstance(value, float) and value == float("inf"):
        return "infinity (a number too large, or .inf)"
    if isinstance(value, int) and abs(value) > 10**15:
        digits = int(value.bit_length() * 0.30103) + 1  # no float() nor str() of it: both fail
        return f"a number of about {digits} digits"
    if isinstance(value, bytes | set | tuple):
        return {bytes: "binary data", set: "a set", tuple: "a list"}[type(value)]
    return str(value)


class Row(int):
    """A 1-based row of a table file (a Parquet archive), where a YAML file has a line."""


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one field of one file."""

    file: str
    line: int | None
    field: str
    message: str
    severity: str = ERROR

    def __str__(self) -> str:
        """One line, whatever the file name, field and message hold (see shown)."""
        file = shown(self.file)
        if isinstance(self.line, Row):
            where = f"{file}: row {self.line}"
        else:
            where = f"{file}:{self.line}" if self.line else file
        field = f"{shown(self.field)}: " if self.field else ""
        text = f"{where}: {field}{shown(self.message)}"
        return text if self.severity == ERROR else f"{text} ({self.severity})"


class Problems:
    """Collects every problem of a build, so that all are reported at once.

    A problem reported twice is kept once; the index makes that O(1) per problem, so a site
    with 100,000 warnings is checked in the time it takes to print them.
    """

    def __init__(self, items: Iterable[Problem] = ()) -> None:
        self._index: dict[Problem, None] = dict.fromkeys(items)
        self._errors = sum(1 for p in self._index if p.severity == ERROR)

    @property
    def items(self) -> list[Problem]:
        return list(self._index)

    def add(self, problem: Problem) -> None:
        if problem not in self._index:
            self._index[problem] = None
            self._errors += problem.severity == ERROR

    def extend(self, problems: Problems | Iterable[Problem]) -> None:
        for problem in problems._index if isinstance(problems, Problems) else problems:
            self.add(problem)

    @property
    def has_errors(self) -> bool:
        return self._errors > 0

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self._index if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self._index if p.severity == WARNING]

    @property
    def notes(self) -> list[Problem]:
        return [p for p in self._index if p.severity == NOTE]

    def sorted(self) -> list[Problem]:
        return sorted(self._index, key=lambda p: (p.file, p.line or 0, p.field, p.message))

    def __len__(self) -> int:
        return len(self._index)

    def __bool__(self) -> bool:
        return bool(self._index)


class SiteError(click.ClickException):
    """A build, check or import that cannot go on; carries every problem found.

    Raised from any phase, it reaches click, which prints every problem (errors first) and a
    summary line naming the command, then exits with status 1: the one exit path of every
    command.
    """

    exit_code = 1

    def __init__(self, problems: Iterable[Problem], summary: str = "") -> None:
        self.problems = list(problems)
        n = sum(1 for p in self.problems if p.severity == ERROR)
        w = sum(1 for p in self.problems if p.severity == WARNING)
        self.summary = summary or f"{plural(n, 'error')}, {plural(w, 'warning')}"
        # the command that failed, named while it runs (click shows the error after it ends)
        context = click.get_current_context(silent=True)
        self.command = context.info_name if context is not None else "sitegen"
        super().__init__(self.summary)

    def show(self, file: IO[str] | None = None) -> None:
        out = file if file is not None else sys.stderr
        print_problems(self.problems, out)
        out.write(f"{self.command} failed: {self.summary}\n")


def print_problems(problems: Iterable[Problem], out: IO[str]) -> None:
    """Every problem on its own line, errors first, each group in file and line order."""
    ordered = sorted(problems, key=lambda p: (p.file, p.line or 0, p.field, p.message))
    text = "".join(f"{p}\n" for p in ordered if p.severity == ERROR)
    text += "".join(f"{p}\n" for p in ordered if p.severity != ERROR)
    out.write(text)
