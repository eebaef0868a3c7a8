"""Field checks that report `file:line: field: expected ..., got ...` and keep going."""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import re
from collections.abc import Iterable
from typing import Any

from .names import describe_char, first_forbidden, without_forbidden
from .problems import WARNING, Problem, Problems, describe
from .urls import link_problem
from .yamlpos import Document, Path_

# \A and \Z: "$" would also accept a trailing newline, making folders and URLs with one in them;
# the last character a letter or digit: Windows and SMB drop a trailing dot from a folder's
# name, so h200. and h200.. would be one folder there
SLUG = re.compile(r"\A[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\Z")
SLUG_RULE = "a slug: lowercase a-z 0-9 . -, starting and ending with a letter or digit"
MISSING = object()
# No measurement, price or target is anywhere near these; beyond them a figure is a typo, and
# the charts' arithmetic (ticks, logs, ratios) overflows or divides by an underflowed zero.
MAX_NUMBER = 1e12
MIN_NUMBER = 1e-6
# Every date a site reads lies in this range: fixed, so the same input builds the same bytes on
# any day, and far inside what the calendar arithmetic of the charts can count.
FIRST_DATE = dt.date(2000, 1, 1)
LAST_DATE = dt.date(2099, 12, 31)
DATE_RANGE = f"a date from {FIRST_DATE.isoformat()} to {LAST_DATE.isoformat()}"
# an as_of written as a year and month (2026-07) or a day
YEAR_MONTH = re.compile(r"\A(\d{4})-(\d{2})(?:-\d{2})?\Z")


class Checker:
    """Reads typed fields out of one parsed file, recording a problem for each bad one.

    Every getter returns the value when it is good and None when it is absent or bad, so
    that a caller can check every field of a record and report all problems together.
    """

    def __init__(self, file: str, doc: Document, problems: Problems) -> None:
        self.file = file
        self.doc = doc
        self.problems = problems
        self.errors = 0  # errors found so far: a caller compares counts to scope a part

    @property
    def failed(self) -> bool:
        """Whether any error was found in this file."""
        return self.errors > 0

    # -- reporting -------------------------------------------------------------------------

    def error(self, path: Path_, message: str) -> None:
        self.error_at(self.doc.line(path), self.doc.field_name(path), message)

    def error_at(self, line: int | None, field: str, message: str) -> None:
        """An error at a line of the caller's choosing (a row that lacks something)."""
        self.errors += 1
        self.problems.add(Problem(self.file, line, field, message))

    def warn(self, path: Path_, message: str) -> None:
        self.problems.add(
            Problem(self.file, self.doc.line(path), self.doc.field_name(path), message, WARNING)
        )

    def expected(self, path: Path_, what: str, value: Any) -> None:
        got = "nothing (the field is missing)" if value is MISSING else describe(value)
        self.error(path, f"expected {what}, got {got}")

    # -- getters ---------------------------------------------------------------------------

    def _raw(self, obj: dict, path: Path_, key: str, required: bool, what: str) -> Any:
        value = obj.get(key, MISSING) if isinstance(obj, dict) else MISSING
        if value is MISSING or value is None:
            if required:
                self.expected(path + (key,), what, value)
            return MISSING
        return value

    def mapping(self, obj: Any, path: Path_, what: str = "a mapping") -> dict | None:
        if isinstance(obj, dict):
            return obj
        if obj is None and not path:
            self.error(path, f"expected {what}, got an empty file")
        elif obj is None and path not in self.doc.lines:
            self.expected(path, what, MISSING)
        else:
            self.expected(path, what, obj)  # null written out: "got null"
        return None

    def string(self, obj: dict, path: Path_, key: str, required: bool = True) -> str | None:
        value = self._raw(obj, path, key, required, "a string")
        if value is MISSING:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int | float | dt.date):
            # true/false, a list or mapping, or YAML's !!binary and !!set
            if isinstance(value, bool):
                # YAML 1.1 reads unquoted yes, no, on, off as booleans
                self.error(
                    path + (key,),
                    f"expected a string, got {describe(value)} "
                    "(unquoted yes, no, on, off, true and false are booleans in YAML: quote it)",
                )
            else:
                self.expected(path + (key,), "a string", value)
            return None
        if isinstance(value, dt.date):
            return value.isoformat()
        text = str(value).strip()
        if not text:
            self.expected(path + (key,), "a non-empty string", value)
            return None
        return text

    def name(self, obj: dict, path: Path_, key: str, required: bool = True) -> str | None:
        """A string shown to readers (a name, an engine, a title): a string without invisible,
        bidirectional or control characters. A bad one is an error, and comes back without
        them (so that what refers to it is not reported too)."""
        text = self.string(obj, path, key, required)
        if text is not None and (ch := first_forbidden(text)) is not None:
            self.error(
                path + (key,),
                f"contains {describe_char(ch)}, an invisible, bidirectional or control "
                "character, which would hide or reorder what readers see: remove it",
            )
            return without_forbidden(text) or None
        return text

    def url(self, obj: dict, path: Path_, key: str) -> str | None:
        """An optional link to elsewhere: an absolute http(s) URL (see urls.link_problem)."""
        value = self.string(obj, path, key, required=False)
        if value is not None and (why := link_problem(value)):
            self.expected(path + (key,), why, value)
            return None
        return value

    def number(
        self,
        obj: dict,
        path: Path_,
        key: str,
        required: bool = True,
        minimum: float = 0.0,
        inclusive: bool = False,
    ) -> float | None:
        what = f"a number {'>=' if inclusive else '>'} {minimum:g}"
        value = self._raw(obj, path, key, required, what)
        if value is MISSING:
            return None
        return self.as_number(value, path + (key,), minimum, inclusive)

    def as_number(
        self, value: Any, path: Path_, minimum: float = 0.0, inclusive: bool = False
    ) -> float | None:
        """A value already in hand (a list item, say) that must be a finite number."""
        what = f"a number {'>=' if inclusive else '>'} {minimum:g}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.expected(path, what, value)
            return None
        too_small = value < minimum if inclusive else value <= minimum
        if (isinstance(value, float) and not math.isfinite(value)) or too_small:
            self.expected(path, what, value)
            return None
        if abs(value) > MAX_NUMBER or 0 < abs(value) < MIN_NUMBER:
            self.expected(path, f"a number between {MIN_NUMBER:g} and {MAX_NUMBER:g}", value)
            return None
        return float(value)

    def integer(
        self, obj: dict, path: Path_, key: str, required: bool = True, minimum: int = 1
    ) -> int | None:
        what = f"an integer >= {minimum}"
        value = self._raw(obj, path, key, required, what)
        if value is MISSING:
            return None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.expected(path + (key,), what, value)
            return None
        if value > MAX_NUMBER:
            self.expected(
                path + (key,), f"an integer between {minimum} and {MAX_NUMBER:.0f}", value
            )
            return None
        return value

    def boolean(self, obj: dict, path: Path_, key: str, default: bool | None = None) -> bool | None:
        value = self._raw(obj, path, key, False, "true or false")
        if value is MISSING:
            return default
        if not isinstance(value, bool):
            self.expected(path + (key,), "true or false", value)
            return default
        return value

    def date(self, obj: dict, path: Path_, key: str) -> dt.date | None:
        what = "an ISO date (YYYY-MM-DD)"
        value = self._raw(obj, path, key, True, what)
        if value is MISSING:
            return None
        if isinstance(value, str):
            text = value.strip()
            with contextlib.suppress(ValueError):  # not ISO: reported below
                value = (
                    dt.datetime.fromisoformat(text)
                    if len(text) > 10
                    else dt.date.fromisoformat(text)
                )
        if isinstance(value, dt.datetime):
            # a time with an offset is dated by its UTC day, as `sitegen import` dates it;
            # unquoted in YAML or quoted in JSON, the same text gives the same day
            if value.tzinfo is not None:
                with contextlib.suppress(OverflowError):  # beyond year 9999 in UTC: below
                    value = value.astimezone(dt.UTC)
            value = value.date()
        if isinstance(value, dt.date):
            if FIRST_DATE <= value <= LAST_DATE:
                return value
            self.expected(path + (key,), DATE_RANGE, value.isoformat())
            return None
        self.expected(path + (key,), what, value)
        return None

    def dated_text(self, obj: dict, path: Path_, key: str) -> str | None:
        """A required string that, when it reads as a day or a month (2026-07), lies in the
        range of dates."""
        value = obj.get(key) if isinstance(obj, dict) else None
        text = self.string(obj, path, key)
        if text is None:
            return None
        if isinstance(value, dt.date) or (match := YEAR_MONTH.match(text)):
            day = value if isinstance(value, dt.date) else dt.date(int(match[1]), 1, 1)
            if not FIRST_DATE.year <= day.year <= LAST_DATE.year:
                self.expected(path + (key,), DATE_RANGE, text)
                return None
        return text

    def choice(
        self, obj: dict, path: Path_, key: str, choices: Iterable[str], default: str | None = None
    ) -> str | None:
        options = list(choices)
        what = "one of " + ", ".join(options)
        value = self._raw(obj, path, key, default is None, what)
        if value is MISSING:
            return default
        if value not in options:
            self.expected(path + (key,), what, value)
            return default
        return value

    def ref(self, obj: dict, path: Path_, key: str, known: dict, file: str) -> str | None:
        """A slug that must name an entry of another data file."""
        what = f"a slug defined in {file}"
        value = self._raw(obj, path, key, True, what)
        if value is MISSING:
            return None
        if not isinstance(value, str) or value not in known:
            hint = ""
            if isinstance(value, str) and known:
                hint = " (known: " + ", ".join(sorted(known)[:12]) + ")"
            self.expected(path + (key,), what + hint, value)
            return None
        return value

    def slug_key(self, key: Any, path: Path_) -> bool:
        if isinstance(key, str) and SLUG.match(key):
            return True
        self.expected(path, SLUG_RULE, key)
        return False

    def unknown_keys(self, obj: dict, path: Path_, allowed: Iterable[str]) -> None:
        """Warn about fields a record does not define: usually a typo that hides a value."""
        allowed = set(allowed)
        for key in obj:
            if key not in allowed:
                # 5, null or true as a key: named as written (and as its line is kept)
                name = key if isinstance(key, str) else describe(key)
                self.warn(path + (name,), "unknown field, ignored")
