"""Problems found in a site's input: errors fail a build, warnings only with --strict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..display import plural

ERROR = "error"
WARNING = "warning"


def describe(value: Any) -> str:
    """Show a bad value the way the reader typed it: strings quoted, None as null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
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
        if isinstance(self.line, Row):
            where = f"{self.file}: row {self.line}"
        else:
            where = f"{self.file}:{self.line}" if self.line else self.file
        field = f"{self.field}: " if self.field else ""
        text = f"{where}: {field}{self.message}"
        return text if self.severity == ERROR else f"{text} (warning)"


@dataclass
class Problems:
    """Collects every problem of a build, so that all are reported at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        if problem not in self.items:
            self.items.append(problem)

    def extend(self, problems: Problems | list[Problem]) -> None:
        for problem in problems.items if isinstance(problems, Problems) else problems:
            self.add(problem)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == WARNING]

    def sorted(self) -> list[Problem]:
        return sorted(self.items, key=lambda p: (p.file, p.line or 0, p.field, p.message))

    def __bool__(self) -> bool:
        return bool(self.items)


class SiteError(Exception):
    """A build or import that cannot go on; carries every problem found."""

    def __init__(self, problems: list[Problem], summary: str = "") -> None:
        self.problems = problems
        n = len([p for p in problems if p.severity == ERROR])
        w = len(problems) - n
        self.summary = summary or f"{plural(n, 'error')}, {plural(w, 'warning')}"
        super().__init__(self.summary)
